"""The outbox: everything posted later (a game's announcements, a tournament's posts, the daily
puzzle's posts) is a row of one delivery mechanism: a kind, a key, a claim, a delivery.

A change that must be announced (a move's turn message and ping, a result, a reminder, an offer)
writes its announcements in the same transaction (:meth:`GameCache.commit_announcing`); a
tournament writes its round, end and call-off posts once (:mod:`bot.service.compete.posts`); the
daily puzzle's post of a server and day is written when it falls due
(:mod:`bot.service.learn.puzzles`), and so is a user's daily digest, with its mark
(:mod:`bot.service.correspond.notices`). The caller that wrote a row gets it back keyed
(``Reply.outbox``) and claimed for a while, posts it and reports it :meth:`Outbox.delivered`, or
:meth:`Outbox.failed` to have it retried. Whatever is left (the process died between the write
and the post, a send failed, nobody reported) :meth:`Outbox.pending` hands out again, rebuilt by
its kind's :class:`Source` (a game's picture redrawn from the log, a tournament's crosstable, the
day's puzzle), for the adapter's one delivery loop (when several processes run the Discord
shards, each process only the rows of the guilds its shards hold); before posting such a one the
adapter looks in the channel for a message that already carries its key, so users see each row
exactly once.

The kernel owns the generic part (claims, attempts and backoff, what is pending and when) and the
games' kind; each capability registers its own kind (:meth:`Outbox.register`), so the kernel
imports none of them."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from enum import StrEnum
from typing import Any, Protocol

from bot.model import OutboxRow, parse_outbox_key
from bot.service.cache import CLAIM_MS, Claims, Loaded, replay
from bot.service.context import Context
from bot.service.values import Reply

log = logging.getLogger(__name__)

RETRY_MS = 5_000
"""The first retry of a failed delivery; each further one waits twice as long..."""
MAX_RETRY_MS = 600_000
"""...up to ten minutes between tries."""
FOREVER_MS = 2**62
BATCH = 50
"""Announcements handed out per call of :meth:`Outbox.pending`."""


def retry_delay_ms(attempts: int) -> int:
    """How long to wait after the ``attempts``-th failed try (1, 2, ...)."""
    return int(min(MAX_RETRY_MS, RETRY_MS * 2 ** min(max(attempts - 1, 0), 16)))


class Kind(StrEnum):
    """The kinds of rows the outbox delivers (each a :class:`Source`, registered by its owner)."""

    GAME = "game"
    """A game's announcements (a move's turn message and ping, a result, a reminder, an offer)."""
    TOURNAMENT = "tournament"
    """A tournament's posts (a round, the end, a call-off, a start at the deadline)."""
    PUZZLE = "puzzle"
    """The daily puzzle's posts (one a server and day)."""
    DIGEST = "digest"
    """A user's daily digest, by direct message (one a user and day)."""


class Pending(Protocol):
    """A row of some kind that is written and not yet delivered."""

    @property
    def key(self) -> str: ...
    @property
    def next_ms(self) -> int: ...
    @property
    def attempts(self) -> int: ...


class Source(Protocol):
    """One kind of row: where its rows are kept and how a row becomes a reply again."""

    kind: Kind
    """Which kind; its keys say it too (:meth:`owns`)."""

    def owns(self, key: str) -> bool:
        """Whether ``key`` is a key of this kind."""
        ...

    async def pending(self, now_ms: int, limit: int) -> Sequence[Pending]:
        """Undelivered rows of this process's servers due by ``now_ms``, oldest first."""
        ...

    async def next_written_ms(self, now_ms: int) -> int | None:
        """When a row of this kind may next fall due to be written (None: only by a change);
        asked right after :meth:`pending`."""
        ...

    async def reply(self, row: Any) -> Reply:
        """The row as a reply again (``outbox`` set to its key, its picture drawn)."""
        ...

    async def delivered(self, keys: Sequence[str], at_ms: int) -> None:
        """The rows ``keys`` (all of this kind) were posted: never hand them out again (one
        write for them all where the kind can)."""
        ...

    async def failed(self, key: str, next_ms: int) -> None:
        """Posting it failed: hand it out again from ``next_ms`` (one more attempt)."""
        ...


class Outbox:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self._attempts: dict[str, int] = {}
        """Failed tries so far of the rows handed out by :meth:`pending`."""
        self._games = GameAnnouncements(ctx)
        self._sources: list[Source] = [self._games]

    def register(self, source: Source) -> None:
        """Deliver the rows of ``source``'s kind too."""
        self._sources.append(source)

    def source_of(self, key: str) -> Source | None:
        return next((s for s in self._sources if s.owns(key)), None)

    @property
    def claims(self) -> Claims:
        return self.ctx.games.claims

    async def next_at_ms(self) -> int | None:
        """When :meth:`pending` next has something to hand out (None: nothing pending)."""
        now = self.ctx.now_ms()
        points: list[int] = []
        claimed = False
        for source in self._sources:
            rows = await source.pending(FOREVER_MS, len(self.claims) + 1)
            points += [r.next_ms for r in rows if r.key not in self.claims][:1]
            claimed = claimed or any(r.key in self.claims for r in rows)
            written = await source.next_written_ms(now)
            if written is not None:
                points.append(written)
        ends = self.claims.next_end()
        if ends is not None and claimed:
            # a claimed one is handed out when its claim ends, if nobody reported it by then
            points.append(ends)
        return min(points) if points else None

    async def pending(self, limit: int = BATCH, kind: Kind | None = None) -> list[Reply]:
        """Undelivered rows (of ``kind``, or of every kind) that nobody in this process is
        delivering, oldest first within a kind, each rebuilt; they are claimed by the caller
        until reported."""
        now = self.ctx.now_ms()
        self.claims.expire(now)
        out: list[Reply] = []
        for source in self._sources:
            if kind is not None and source.kind != kind:
                continue
            for row in await source.pending(now, limit - len(out) + len(self.claims)):
                reply = await self._hand_out(source, row, now)
                if reply is not None:
                    out.append(reply)
                if len(out) == limit:
                    return out
        return out

    async def _hand_out(self, source: Source, row: Pending, now: int) -> Reply | None:
        """``row`` rebuilt and claimed by the caller until reported; None when somebody in
        this process is delivering it, or it cannot be rebuilt (then it is retried later: a
        row that cannot be rebuilt must not block the others)."""
        if row.key in self.claims:
            return None
        try:
            reply = await source.reply(row)
        except Exception:
            log.exception("outbox: %s cannot be rebuilt; retried later", row.key)
            await source.failed(row.key, now + retry_delay_ms(row.attempts + 1))
            return None
        self.claims.claim(row.key, now + CLAIM_MS)
        self._attempts[row.key] = row.attempts
        return reply

    async def pending_of_game(self, game_id: int, limit: int) -> list[Reply]:
        """A game's undelivered announcements, in the order they were made, those waiting for
        a retry included (an interaction in the game's place is here to carry them: issue
        48), claimed by the caller like :meth:`pending`'s."""
        now = self.ctx.now_ms()
        self.claims.expire(now)
        rows = await self.ctx.store.pending_announcements(FOREVER_MS, limit, None, game_id)
        out = [await self._hand_out(self._games, row, now) for row in rows]
        return [reply for reply in out if reply is not None]

    async def delivered(self, keys: Sequence[str]) -> None:
        """The rows ``keys`` were posted: never hand them out again (they stay claimed until
        that is stored, so nobody hands them out in between). A delivery loop reports its
        whole batch at once: one write a kind, not one a row."""
        by_source: dict[int, tuple[Source, list[str]]] = {}
        for key in keys:
            source = self.source_of(key)
            if source is not None:
                by_source.setdefault(id(source), (source, []))[1].append(key)
        try:
            for source, mine in by_source.values():
                await source.delivered(mine, self.ctx.now_ms())
        finally:
            for key in keys:
                self.claims.release(key)
                self._attempts.pop(key, None)

    async def failed(self, key: str) -> None:
        """Posting ``key`` failed: hand it out again after a while (longer each time)."""
        self.claims.release(key)
        attempts = self._attempts.pop(key, 0) + 1
        source = self.source_of(key)
        if source is not None:
            await source.failed(key, self.ctx.now_ms() + retry_delay_ms(attempts))


class GameAnnouncements:
    """A game's announcements (the ``outbox`` table), keyed ``game.version.n``."""

    kind = Kind.GAME

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def owns(self, key: str) -> bool:
        return parse_outbox_key(key) is not None

    async def pending(self, now_ms: int, limit: int) -> Sequence[OutboxRow]:
        return await self.ctx.store.pending_announcements(
            now_ms, limit, self.ctx.settings.shard_slice
        )

    async def next_written_ms(self, now_ms: int) -> int | None:
        return None  # written with their change, never by the clock

    async def reply(self, row: OutboxRow) -> Reply:
        reply = Reply.from_json(row.body, outbox=row.key)
        if not reply.picture:
            return reply
        async with self.ctx.games.lock(row.game_id):
            loaded = await self.ctx.games.load(row.game_id)
        if len(loaded.entries) != row.ply:  # the game went on: show the announced position
            loaded = at_ply(loaded, row.ply)
        return await self.ctx.pictures.on(reply, loaded, reply.image_viewer)

    async def delivered(self, keys: Sequence[str], at_ms: int) -> None:
        parsed = [k for k in map(parse_outbox_key, keys) if k is not None]
        await self.ctx.store.announcements_delivered(parsed, at_ms)

    async def failed(self, key: str, next_ms: int) -> None:
        parsed = parse_outbox_key(key)
        if parsed is not None:
            await self.ctx.store.announcement_failed(parsed, next_ms)


def at_ply(loaded: Loaded, ply: int) -> Loaded:
    """The game as it was when its log was ``ply`` entries long (its row as it is now)."""
    return replay(loaded.row, loaded.entries[:ply])
