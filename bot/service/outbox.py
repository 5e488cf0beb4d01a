"""The outbox: no committed move, result, reminder or offer goes unannounced.

A change that must be announced (a move's turn message and ping, a result, a reminder, an offer)
writes its announcements in the same transaction (:meth:`GameCache.commit_announcing`). The caller
that made the change gets them back keyed (``Reply.outbox``) and claimed for a while, posts them
and reports each :meth:`Outbox.delivered`, or :meth:`Outbox.failed` to have it retried. Whatever is
left (the process died between the commit and the post, a send failed, nobody reported)
:meth:`Outbox.pending` hands out again, picture redrawn from the log, for the adapter's delivery
loop (when several processes run the Discord shards, each process only the announcements of the
guilds its shards hold); before posting such a one the adapter looks in the channel for a message
that already carries its key, so users see each announcement exactly once."""

from __future__ import annotations

import logging
from dataclasses import replace

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


class Outbox:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self._attempts: dict[str, int] = {}
        """Failed tries so far of the announcements handed out by :meth:`pending`."""

    @property
    def claims(self) -> Claims:
        return self.ctx.games.claims

    async def next_at_ms(self) -> int | None:
        """When :meth:`pending` next has something to hand out (None: nothing pending)."""
        rows = await self.ctx.store.pending_announcements(
            FOREVER_MS, len(self.claims) + 1, self.ctx.settings.shard_slice
        )
        points = [r.next_ms for r in rows if r.key not in self.claims][:1]
        ends = self.claims.next_end()
        if ends is not None and any(r.key in self.claims for r in rows):
            # a claimed one is handed out when its claim ends, if nobody reported it by then
            points.append(ends)
        return min(points) if points else None

    async def pending(self, limit: int = BATCH) -> list[Reply]:
        """Undelivered announcements that nobody in this process is delivering, oldest first,
        each with its picture drawn again; they are claimed by the caller until reported."""
        now = self.ctx.now_ms()
        self.claims.expire(now)
        rows = await self.ctx.store.pending_announcements(
            now, limit + len(self.claims), self.ctx.settings.shard_slice
        )
        out: list[Reply] = []
        for row in rows:
            if row.key in self.claims:
                continue
            try:
                reply = await self._reply(row)
            except Exception:
                # an announcement that cannot be rebuilt must not block the others
                log.exception("outbox: announcement %s cannot be rebuilt; retried later", row.key)
                await self._postpone(row.key, row.attempts + 1)
                continue
            self.claims.claim(row.key, now + CLAIM_MS)
            self._attempts[row.key] = row.attempts
            out.append(reply)
            if len(out) == limit:
                break
        return out

    async def delivered(self, key: str) -> None:
        """The announcement ``key`` was posted: never hand it out again (it stays claimed
        until that is stored, so nobody hands it out in between)."""
        parsed = parse_outbox_key(key)
        try:
            if parsed is not None:
                await self.ctx.store.announcement_delivered(parsed, self.ctx.now_ms())
        finally:
            self.claims.release(key)
            self._attempts.pop(key, None)

    async def failed(self, key: str) -> None:
        """Posting ``key`` failed: hand it out again after a while (longer each time)."""
        self.claims.release(key)
        await self._postpone(key, self._attempts.pop(key, 0) + 1)

    async def _postpone(self, key: str, attempts: int) -> None:
        parsed = parse_outbox_key(key)
        if parsed is not None:
            delay = retry_delay_ms(attempts)
            await self.ctx.store.announcement_failed(parsed, self.ctx.now_ms() + delay)

    async def _reply(self, row: OutboxRow) -> Reply:
        reply = Reply.from_json(row.body, outbox=row.key)
        if not reply.picture:
            return reply
        async with self.ctx.games.lock(row.game_id):
            loaded = await self.ctx.games.load(row.game_id)
        if len(loaded.entries) != row.ply:  # the game went on: show the announced position
            loaded = at_ply(loaded, row.ply)
        return replace(reply, image=await self.ctx.pictures.of(loaded, reply.image_viewer))


def at_ply(loaded: Loaded, ply: int) -> Loaded:
    """The game as it was when its log was ``ply`` entries long (its row as it is now)."""
    return replay(loaded.row, loaded.entries[:ply])
