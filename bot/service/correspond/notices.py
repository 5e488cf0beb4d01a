"""How a player is told (``/notify``): a ping on their turn (on by default), a daily digest by
direct message (opt-in, at an hour of their own time zone), and quiet hours during which the
messages that ping them come silently (and their turn waits in the digest).

The rules are :mod:`bot.service.correspond.notify_rules`. Preferences are kept in memory (restored
at start-up). Adapters shape every message that pings through :meth:`Notices.shape` when they
post it (so a preference or quiet hours apply at the moment it is sent, also to an
announcement the outbox kept), and post the digests :meth:`due` hands them as direct messages,
reporting a closed one with :meth:`dm_closed` (noted once: no digest is tried again until the
user changes a preference).
"""

from __future__ import annotations

import asyncio
import heapq
from dataclasses import replace
from datetime import datetime

from bot.clock import from_ms, to_ms
from bot.model import GameStatus, NotifyPrefs
from bot.service import present
from bot.service.cache import Loaded
from bot.service.context import Context
from bot.service.correspond import notify_rules as rules
from bot.service.guard import entry
from bot.service.values import Event, Line, Refusal, Reply, User


def digest_game(loaded: Loaded) -> rules.DigestGame:
    row = loaded.row
    return rules.DigestGame(
        id=row.id,
        status=str(row.status),
        to_move=loaded.user_ids(loaded.acting_seats()) if row.status is GameStatus.ACTIVE else (),
        deadline_ms=None if row.paused_ms is not None else row.deadline_ms,
        finished_ms=row.finished_ms,
        invited=tuple(s.invited_id for s in row.seats if s.invited_id),
        paused=row.paused_ms is not None,
    )


DIGEST_BATCH = 200
"""Digests made in one turn of the timers' loop."""


class Notices:
    """Notification preferences, the digests and the shaping of pings."""

    def __init__(self, ctx: Context, changed: asyncio.Event) -> None:
        self.ctx = ctx
        self.changed = changed
        """The timers' event: set whenever a digest's due time may have moved."""
        self._prefs: dict[str, NotifyPrefs] = {}
        self._queue: list[tuple[int, int, str]] = []
        """The digests to come as a heap of (due ms, stamp, user): the next is at its top, so
        the timers neither scan every user to know when nor to find who is due."""
        self._stamps: dict[str, int] = {}
        """Each user's latest stamp: an entry with an older one is stale (skipped)."""

    async def restore(self) -> None:
        self._prefs = {p.user_id: p for p in await self.ctx.store.notify_prefs()}
        self._queue, self._stamps = [], {}
        for prefs in self._prefs.values():
            self._schedule(prefs)
        self.changed.set()

    def _schedule(self, prefs: NotifyPrefs) -> None:
        """Queue ``prefs``' next digest (the user's earlier entry goes stale)."""
        stamp = self._stamps[prefs.user_id] = self._stamps.get(prefs.user_id, 0) + 1
        at = rules.next_digest_ms(prefs, self.ctx.now_ms())
        if at is not None:
            heapq.heappush(self._queue, (at, stamp, prefs.user_id))

    def _next(self) -> tuple[int, str] | None:
        """The next digest due (its time and user), stale entries dropped."""
        while self._queue:
            at, stamp, user = self._queue[0]
            if self._stamps.get(user) == stamp:
                return at, user
            heapq.heappop(self._queue)
        return None

    def prefs(self, user_id: str) -> NotifyPrefs:
        return self._prefs.get(user_id) or NotifyPrefs(user_id)

    # -- /notify ------------------------------------------------------------------------------
    @entry
    async def configure(
        self,
        user: User,
        *,
        ping: bool | None = None,
        digest: bool | None = None,
        hour: int | None = None,
        timezone: str | None = None,
        quiet: str | None = None,
    ) -> Reply:
        """Change any of the user's preferences (privately answered with all of them). Bad
        input is refused with why, and nothing changes."""
        now = self.ctx.now_ms()
        old = self.prefs(user.id)
        new = old
        if timezone is not None:
            try:
                rules.zone(timezone.strip())
            except ValueError as exc:
                raise Refusal("refuse.notify_tz", value=timezone.strip()[:60]) from exc
            new = replace(new, tz=timezone.strip())
        if hour is not None:
            try:
                new = replace(new, digest_hour=rules.parse_hour(hour))
            except ValueError as exc:
                raise Refusal("refuse.notify_hour", value=hour) from exc
        if quiet is not None:
            try:
                span = rules.parse_quiet(quiet)
            except ValueError as exc:
                raise Refusal("refuse.notify_quiet", value=quiet.strip()[:40]) from exc
            new = replace(new, quiet_from=span[0] if span else None, quiet_to=span and span[1])
        if ping is not None:
            new = replace(new, ping=ping)
        if digest is not None:
            new = replace(new, digest=digest)
        if new != old:
            new = replace(new, dm_closed=False)  # a changed preference tries direct messages again
            if new.digest and (not old.digest or new.digest_hour != old.digest_hour):
                new = replace(new, last_digest_ms=rules.first_digest_from(new, now))
            await self.ctx.remember_user(user)
            await self.ctx.store.save_notify_prefs(new)
            self._prefs[user.id] = new
            self._schedule(new)
            self.changed.set()
        return self._shown(new, "notify.saved" if new != old else "notify.show")

    def _shown(self, p: NotifyPrefs, key: str) -> Reply:
        quiet = f"{p.quiet_from:02d}:00–{p.quiet_to:02d}:00" if p.quiet_from is not None else "—"
        next_at = rules.next_digest_ms(p, self.ctx.now_ms())
        return Reply(
            key,
            {
                "ping": "on" if p.ping else "off",
                "digest": "on" if p.digest else "off",
                "hour": f"{p.digest_hour:02d}:00",
                "tz": p.tz,
                "quiet": quiet,
                "next": from_ms(next_at) if next_at is not None else "—",
            },
            event=Event.NOTIFY,
            public=False,
            audience=p.user_id,
            lines=(Line("notify.dm_closed"),) if p.dm_closed else (),
        )

    # -- pings --------------------------------------------------------------------------------
    def shape(self, reply: Reply) -> Reply:
        """``reply`` as it is sent now: without the pings of users who turned them off, and
        silent when everyone it still pings is in their quiet hours."""
        if not reply.notify or not reply.public:
            return reply
        notify = tuple(u for u in reply.notify if self.prefs(u).ping)
        silent = rules.silenced(notify, self._prefs, self.ctx.now_ms())
        if notify == reply.notify and silent == reply.silent:
            return reply
        return replace(reply, notify=notify, silent=silent)

    # -- the digest ---------------------------------------------------------------------------
    @property
    def _sends_digests(self) -> bool:
        """Direct messages belong to shard 0: only the process that runs it sends digests
        (several processes on one database send each one once)."""
        return self.ctx.settings.owns(None)

    def next_at(self, others: datetime | None) -> datetime | None:
        """When a digest is next due, or ``others`` if sooner."""
        if not self._sends_digests:
            return others
        first = self._next()
        if first is None:
            return others
        ours = from_ms(max(first[0], self.ctx.now_ms()))
        return ours if others is None else min(ours, others)

    async def due(self, now: datetime | None = None, limit: int | None = None) -> list[Reply]:
        """The digests due now, at most ``limit`` (the rest come at the timers' next turn, so
        reminders and timeouts are never held up behind thousands of digests); each user's is
        marked sent before it is handed out, so none comes twice in a day (an empty one is not
        sent)."""
        now_ms = to_ms(now) if now is not None else self.ctx.now_ms()
        limit = DIGEST_BATCH if limit is None else limit
        out: list[Reply] = []
        if not self._sends_digests:
            return out
        marks: list[NotifyPrefs] = []
        while len(marks) < limit and (first := self._next()) is not None and first[0] <= now_ms:
            heapq.heappop(self._queue)
            user_id = first[1]
            p = self.prefs(user_id)
            reply = await self.digest(user_id, p.last_digest_ms)
            marks.append(replace(p, last_digest_ms=now_ms))
            if reply is not None:
                out.append(reply)
        await self.ctx.store.save_notify_prefs_many(marks)  # the batch's marks: one write
        for sent in marks:
            self._prefs[sent.user_id] = sent
            self._schedule(sent)
        if len(marks) == limit:
            self.changed.set()  # more may be due: the timers come straight back
        return out

    async def digest(self, user_id: str, since_ms: int | None) -> Reply | None:
        """The user's digest now (None: nothing to tell)."""
        ids = {gid for gid, _ in self.ctx.games.live_games(user_id)}
        ids.update(await self.ctx.store.challenges_for(user_id))
        if since_ms is not None:
            ids.update(await self.ctx.store.finished_since(user_id, since_ms))
        loaded = {gid: await self.ctx.games.read(gid) for gid in sorted(ids)}
        chosen = rules.select(user_id, (digest_game(g) for g in loaded.values()), since_ms)
        if chosen.empty:
            return None
        lines: list[Line] = []
        for key, games in (
            ("digest.turn", chosen.turn),
            ("digest.ended", chosen.ended),
            ("digest.challenge", chosen.challenges),
        ):
            for g in games:
                game = loaded[g.id]
                params: dict[str, object] = {
                    "id": g.id,
                    "game": present.title(game.game),
                    "guild": game.row.guild_id or "",
                    "deadline": from_ms(g.deadline_ms) if g.deadline_ms is not None else "—",
                }
                if key == "digest.ended":
                    result = game.row.result
                    params["result"] = present.result_text(result) if result else str(g.status)
                lines.append(Line(key if not g.paused else "digest.turn_paused", params))
        return Reply(
            "digest.title",
            {
                "turn": len(chosen.turn),
                "ended": len(chosen.ended),
                "challenges": len(chosen.challenges),
            },
            event=Event.DIGEST,
            public=False,
            audience=user_id,
            lines=tuple(lines),
        )

    async def dm_closed(self, user_id: str) -> None:
        """The user's direct messages refused a digest: noted once, none tried again until
        they change a preference."""
        p = self.prefs(user_id)
        if not p.dm_closed:
            closed = replace(p, dm_closed=True)
            await self.ctx.store.save_notify_prefs(closed)
            self._prefs[user_id] = closed
            self._schedule(closed)
