"""A tournament's own announcements (its rounds, its end, a call-off), kept until posted.

Each is written once by the step that causes it: a round's message when every game of the
round is made (whichever process makes the last one, and again after a crash that came
between), the end's and a call-off's in the same transaction as the end
(:meth:`Store.end_tournament`). The caller that wrote one gets it back keyed (``Reply.outbox``,
``t3.round2``) and claimed, posts it and reports it, as for a game's announcements
(:mod:`bot.service.outbox`): this is the outbox's ``tournament`` kind, and what nobody reported
the outbox hands out again (the final's crosstable drawn again).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from bot.model import TournamentPost, parse_tournament_post_key, tournament_post_key
from bot.service.cache import CLAIM_MS
from bot.service.compete.replies import TournamentReplies
from bot.service.context import Context
from bot.service.outbox import Kind
from bot.service.values import Reply


class TournamentPosts:
    def __init__(self, ctx: Context, replies: TournamentReplies) -> None:
        self.ctx = ctx
        self.replies = replies
        self._kept: set[str] = set()
        """Posts this process knows are written (not written again)."""

    def known(self, tournament_id: int, name: str) -> bool:
        """Whether this process knows the post is written (so it need not try again)."""
        return tournament_post_key(tournament_id, name) in self._kept

    def claimed(self, tournament_id: int, name: str, reply: Reply) -> Reply:
        """``reply`` as the post ``name``, which the caller posts and reports
        (``announced``, ``announcement_failed``); the outbox hands it out again if nobody
        reports it in time."""
        key = tournament_post_key(tournament_id, name)
        self._kept.add(key)
        self.ctx.games.claims.claim(key, self.ctx.now_ms() + CLAIM_MS)
        return replace(reply, outbox=key)

    async def announce(self, tournament_id: int, name: str, reply: Reply) -> list[Reply]:
        """Keep ``reply`` as the post ``name`` if nobody did yet (else nothing to post)."""
        body = reply.to_json()
        if not await self.ctx.store.add_tournament_post(
            tournament_id, name, body, self.ctx.now_ms()
        ):
            self._kept.add(tournament_post_key(tournament_id, name))
            return []
        return [self.claimed(tournament_id, name, reply)]

    # -- the outbox's ``tournament`` kind (see bot.service.outbox.Source) -----------------------
    kind = Kind.TOURNAMENT

    def owns(self, key: str) -> bool:
        return parse_tournament_post_key(key) is not None

    async def pending(self, now_ms: int, limit: int) -> list[TournamentPost]:
        rows = await self.ctx.store.pending_tournament_posts(now_ms, limit)
        return [r for r in rows if self.ctx.settings.owns(r.guild_id)]

    async def next_written_ms(self, now_ms: int) -> int | None:
        return None  # written by the step that causes it

    async def reply(self, row: TournamentPost) -> Reply:
        reply = Reply.from_json(row.body, outbox=row.key)
        if row.name == "final" and self.ctx.pictures.enabled:  # the crosstable, drawn again
            drawn = await self.replies.final_reply(await self.replies.load(row.tournament_id))
            reply = replace(reply, image=drawn.image)
        return reply

    async def delivered(self, keys: Sequence[str], at_ms: int) -> None:
        for parsed in map(parse_tournament_post_key, keys):  # a handful a round
            if parsed is not None:
                await self.ctx.store.tournament_post_delivered(*parsed, at_ms)

    async def failed(self, key: str, next_ms: int) -> None:
        parsed = parse_tournament_post_key(key)
        if parsed is not None:
            await self.ctx.store.tournament_post_failed(*parsed, next_ms)
