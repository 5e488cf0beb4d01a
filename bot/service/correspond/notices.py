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
import logging
from collections.abc import Mapping, Sequence
from dataclasses import replace

from bot.clock import from_ms
from bot.model import DigestRow, GameStatus, NotifyPrefs, digest_key, parse_digest_key
from bot.service import present
from bot.service.cache import Loaded
from bot.service.context import Context
from bot.service.correspond import notify_rules as rules
from bot.service.due import DueQueue
from bot.service.guard import entry
from bot.service.outbox import Kind
from bot.service.values import Event, Line, Refusal, Reply, User

log = logging.getLogger(__name__)


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


RETRY_MS = 60_000
"""A digest that could not be made is tried again this much later."""


class Notices:
    """Notification preferences, the digests and the shaping of pings."""

    def __init__(self, ctx: Context, changed: asyncio.Event) -> None:
        self.ctx = ctx
        self.changed = changed
        """The timers' event: set whenever a digest's due time may have moved."""
        self._prefs: dict[str, NotifyPrefs] = {}
        self._due: DueQueue[str] = DueQueue()
        """The users' next digests: the timers neither scan every user to know when nor to
        find who is due."""
        self.written: dict[str, tuple[str, Reply]] = {}
        """The digest this process wrote last and has not handed out yet, by user (its key and
        reply): handed out as it is, not read back from its JSON (after a restart or a failed
        send, it is). One a user at most: a newer one replaces it."""

    async def restore(self) -> None:
        self._prefs = {p.user_id: p for p in await self.ctx.store.notify_prefs()}
        self._due.clear()
        for prefs in self._prefs.values():
            self._schedule(prefs)
        self.changed.set()

    def _schedule(self, prefs: NotifyPrefs) -> None:
        """Queue ``prefs``' next digest (the user's earlier one goes)."""
        self._due.set(prefs.user_id, rules.next_digest_ms(prefs, self.ctx.now_ms()))

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
    def sends_digests(self) -> bool:
        """Direct messages belong to shard 0: only the process that runs it sends digests
        (several processes on one database send each one once)."""
        return self.ctx.settings.owns(None)

    def next_due_ms(self) -> int | None:
        """When the next digest falls due to be written (None: nobody's, or not this process's
        to send)."""
        first = self._due.next() if self.sends_digests else None
        return None if first is None else first[0]

    async def write_due(self, now_ms: int, limit: int) -> None:
        """Write the digests due by ``now_ms``, at most ``limit`` (the rest at the delivery
        loop's next turn), each with its mark in one transaction (an empty one: its mark alone,
        never sent); the outbox's digest kind (:class:`DigestPosts`) hands them out until the
        adapter reports them delivered, so a digest is marked once and lost by no kill."""
        if not self.sends_digests:
            return
        due = [self.prefs(user) for user in self._due.take_due(now_ms, limit)]
        if not due:
            return
        try:
            more = await self.ctx.store.digest_games({p.user_id: p.last_digest_ms for p in due})
            mine = {p.user_id: self._digest_ids(p.user_id, more[p.user_id]) for p in due}
            games = await self.ctx.games.read_many(gid for ids in mine.values() for gid in ids)
        except Exception:
            for p in due:  # due again: the store could not be read this time
                self._due.set(p.user_id, now_ms + RETRY_MS)
            raise
        marks: list[tuple[str, int, str | None]] = []
        sent: list[NotifyPrefs] = []
        made: dict[str, tuple[str, Reply]] = {}
        for p in due:
            try:
                reply = self.digest(p.user_id, p.last_digest_ms, mine[p.user_id], games)
            except Exception:  # one user's bad game must not hold up everyone's digest
                log.exception("the digest of %s cannot be made; tried again later", p.user_id)
                self._due.set(p.user_id, now_ms + RETRY_MS)
                continue
            marks.append((p.user_id, now_ms, None if reply is None else reply.to_json()))
            sent.append(replace(p, last_digest_ms=now_ms))
            if reply is not None:
                made[p.user_id] = (digest_key(p.user_id, now_ms), reply)
        await self.ctx.store.write_digests(marks)
        self.written.update(made)
        for p in sent:
            self._prefs[p.user_id] = p
            self._schedule(p)

    def _digest_ids(self, user_id: str, more: Sequence[int]) -> list[int]:
        """The games a digest looks at: those the user plays, and ``more`` (their waiting
        challenges and what ended since their last digest: the store's
        :meth:`digest_games`)."""
        ids = {gid for gid, _ in self.ctx.games.live_games(user_id)}
        ids.update(more)
        return sorted(ids)

    def digest(
        self, user_id: str, since_ms: int | None, ids: Sequence[int], games: Mapping[int, Loaded]
    ) -> Reply | None:
        """The user's digest now (None: nothing to tell), from the games ``ids`` (read in
        ``games``; one that could not be read is left out)."""
        loaded = {gid: games[gid] for gid in ids if gid in games}
        chosen = rules.select(user_id, (digest_game(g) for g in loaded.values()), since_ms)
        if chosen.empty:
            return None
        lines: list[Line] = []
        for key, listed in (
            ("digest.turn", chosen.turn),
            ("digest.ended", chosen.ended),
            ("digest.challenge", chosen.challenges),
        ):
            for g in listed:
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


class DigestPosts:
    """The outbox's ``digest`` kind (see :class:`bot.service.outbox.Source`): each user's
    digest, written with its mark when it falls due (the delivery loop looking is what writes
    it, a batch at a time, so reminders and timeouts never wait behind thousands of digests),
    kept in the user's preferences row and handed out until reported. A digest still waiting
    when the user's next one falls due is replaced by it."""

    kind = Kind.DIGEST

    def __init__(self, notices: Notices) -> None:
        self.notices = notices
        self.ctx = notices.ctx

    def owns(self, key: str) -> bool:
        return parse_digest_key(key) is not None

    async def pending(self, now_ms: int, limit: int) -> list[DigestRow]:
        if not self.notices.sends_digests:
            return []
        await self.notices.write_due(min(now_ms, self.ctx.now_ms()), limit)
        return await self.ctx.store.pending_digests(now_ms, limit)

    async def next_written_ms(self, now_ms: int) -> int | None:
        return self.notices.next_due_ms()

    async def reply(self, row: DigestRow) -> Reply:
        key, made = self.notices.written.pop(row.user_id, (None, None))
        if made is not None and key == row.key:
            return replace(made, outbox=row.key)
        return Reply.from_json(row.body, outbox=row.key)

    async def delivered(self, keys: Sequence[str], at_ms: int) -> None:
        await self.ctx.store.digests_delivered(
            [k for k in map(parse_digest_key, keys) if k is not None]
        )

    async def failed(self, key: str, next_ms: int) -> None:
        parsed = parse_digest_key(key)
        if parsed is not None:
            await self.ctx.store.digest_failed(*parsed, next_ms)
