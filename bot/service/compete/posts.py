"""A tournament's own announcements (its rounds, its end, a call-off), kept until posted.

Each is written once by the step that causes it: a round's message when every game of the
round is made (whichever process makes the last one, and again after a crash that came
between), the end's and a call-off's in the same transaction as the end
(:meth:`Store.end_tournament`). The caller that wrote one gets it back keyed (``Reply.outbox``,
``t3.round2``) and claimed, posts it and reports it, as for a game's announcements
(:mod:`bot.service.outbox`); what nobody reported :meth:`TournamentPosts.pending` hands out again.
"""

from __future__ import annotations

import logging
from dataclasses import replace

from bot.model import TournamentPost, parse_tournament_post_key, tournament_post_key
from bot.service.cache import CLAIM_MS
from bot.service.compete.replies import TournamentReplies
from bot.service.context import Context
from bot.service.outbox import BATCH, retry_delay_ms
from bot.service.values import Reply

log = logging.getLogger(__name__)


class TournamentPosts:
    def __init__(self, ctx: Context, replies: TournamentReplies) -> None:
        self.ctx = ctx
        self.replies = replies
        self._kept: set[str] = set()
        """Posts this process knows are written (not written again)."""
        self._attempts: dict[str, int] = {}
        """Failed tries so far of the posts handed out by :meth:`pending`."""

    def known(self, tournament_id: int, name: str) -> bool:
        """Whether this process knows the post is written (so it need not try again)."""
        return tournament_post_key(tournament_id, name) in self._kept

    def claimed(self, tournament_id: int, name: str, reply: Reply) -> Reply:
        """``reply`` as the post ``name``, which the caller posts and reports
        (:meth:`posted`, :meth:`failed`); :meth:`pending` hands it out again if nobody
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

    async def pending(self, limit: int = BATCH) -> list[Reply]:
        """Posts written but not reported posted (a crash, a failed send), of this process's
        servers, oldest first; claimed by the caller until reported."""
        now = self.ctx.now_ms()
        claims = self.ctx.games.claims
        claims.expire(now)
        out: list[Reply] = []
        for row in await self.ctx.store.pending_tournament_posts(now, limit + len(claims)):
            if row.key in claims or not self.ctx.settings.owns(row.guild_id):
                continue
            try:
                reply = await self._post_reply(row)
            except Exception:
                log.exception("tournament post %s cannot be rebuilt; retried later", row.key)
                await self.ctx.store.tournament_post_failed(
                    row.tournament_id, row.name, now + retry_delay_ms(row.attempts + 1)
                )
                continue
            claims.claim(row.key, now + CLAIM_MS)
            self._attempts[row.key] = row.attempts
            out.append(reply)
            if len(out) == limit:
                break
        return out

    async def _post_reply(self, row: TournamentPost) -> Reply:
        reply = Reply.from_json(row.body, outbox=row.key)
        if row.name == "final" and self.ctx.pictures.enabled:  # the crosstable, drawn again
            drawn = await self.replies.final_reply(await self.replies.load(row.tournament_id))
            reply = replace(reply, image=drawn.image)
        return reply

    async def posted(self, key: str) -> None:
        """The post ``key`` is in its channel: never hand it out again (it stays claimed
        until that is stored, so nobody hands it out in between)."""
        parsed = parse_tournament_post_key(key)
        try:
            if parsed is not None:
                await self.ctx.store.tournament_post_delivered(*parsed, self.ctx.now_ms())
        finally:
            self.ctx.games.claims.release(key)
            self._attempts.pop(key, None)

    async def failed(self, key: str) -> None:
        """Posting ``key`` failed: handed out again after a while (longer each time)."""
        self.ctx.games.claims.release(key)
        parsed = parse_tournament_post_key(key)
        if parsed is not None:
            delay = retry_delay_ms(self._attempts.pop(key, 0) + 1)
            await self.ctx.store.tournament_post_failed(*parsed, self.ctx.now_ms() + delay)
