"""Clocks: deadlines, time banks, reminders, timeouts and lapsing challenges.

The timers keep every pending deadline in memory (restored from the store at start-up and kept
in step by the game cache's commits) and hand out what is due: a reminder once per point, a
timeout as the game's end, an unanswered challenge as withdrawn.

When several processes share one PostgreSQL database (each running a slice of the Discord
shards), a process keeps only the deadlines of games whose guild its shards hold
(``Settings.owns``): nobody else posts them, and a process that starts with the same shards
picks them up from the store. Such a process also re-reads its deadlines every
``Settings.timer_rescan`` seconds, for the rare change another process made (a command in a
direct message reaches shard 0). Should two processes ever fire the same deadline, the game's
version guard lets one commit and the other says nothing.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from bot.clock import ClockSpec, from_ms, parse_clock, to_ms, with_reminders
from bot.model import Change, GameRow, GameStatus, SeatRow, Update
from bot.service import present
from bot.service.actions import Action, Button
from bot.service.cache import Loaded
from bot.service.context import Context
from bot.service.due import DueQueue
from bot.service.endings import Endings
from bot.service.pausing import elapsed_ms
from bot.service.values import Event, Refusal, Reply
from engines.core import SIMULTANEOUS, State

log = logging.getLogger("banmen.timers")


def clock_of(row: GameRow) -> ClockSpec:
    spec = parse_clock(row.clock)
    return with_reminders(spec, row.reminders) if spec.timed else spec


def banks(seats: Sequence[SeatRow], *changed: Sequence[SeatRow]) -> dict[int, int | None]:
    """Each seat's time bank (ms), ``changed`` seats overriding."""
    out = {s.seat: s.bank_ms for s in seats}
    for group in changed:
        out |= {s.seat: s.bank_ms for s in group}
    return out


def deadline(
    spec: ClockSpec, state: State[Any], now: int, bank_ms: Mapping[int, int | None]
) -> int | None:
    """When the turn that starts at ``now`` runs out, or None when nothing is timed."""
    if not spec.timed or state.is_over():
        return None
    if spec.kind in ("live", "corr"):
        return now + spec.per_move * 1000
    due = state.acting_players()
    if not due:
        return None
    left = [bank_ms.get(seat) for seat in due]
    return now + min(b if b is not None else spec.bank * 1000 for b in left)


def turn_update(
    row: GameRow, before: State[Any], after: State[Any], movers: Sequence[int], now: int
) -> tuple[Update, list[SeatRow]]:
    """Deadline and bank updates after ``movers`` acted (``before`` -> ``after``): the row's
    update and the seats whose banks changed."""
    spec = clock_of(row)
    seats: list[SeatRow] = []
    if spec.kind == "bank" and row.turn_started_ms is not None:
        elapsed = elapsed_ms(row, now)  # a clock stopped by a vacation stopped counting
        for seat in movers:
            srow = row.seats[seat]
            bank = srow.bank_ms if srow.bank_ms is not None else spec.bank * 1000
            bank = min(spec.cap * 1000, max(0, bank - elapsed) + spec.bonus * 1000)
            seats.append(replace(srow, bank_ms=bank))
    same_step = (
        before.current_player() == SIMULTANEOUS
        and after.current_player() == SIMULTANEOUS
        and set(after.acting_players()) < set(before.acting_players())
    )
    update = Update()
    if not same_step:
        update = Update(
            turn_started_ms=now,
            deadline_ms=deadline(spec, after, now, banks(row.seats, seats)),
            reminders_sent=(),
        )
    elif spec.kind == "bank" and row.turn_started_ms is not None:
        # the step goes on: its deadline follows the smallest bank of those still due
        update = Update(
            deadline_ms=deadline(spec, after, row.turn_started_ms, banks(row.seats, seats))
        )
    return update, seats


def _next_point(row: GameRow) -> int | None:
    """When something is next due for ``row`` (ms), or None."""
    if row.status is GameStatus.OPEN:
        return row.expires_ms
    if row.deadline_ms is None:
        return None
    points = [
        row.deadline_ms - off * 1000 for off in row.reminders if off not in row.reminders_sent
    ]
    points.append(row.deadline_ms + 1)  # a timeout is strictly after the deadline
    return min(points)


def _timed(row: GameRow) -> bool:
    if row.status is GameStatus.OPEN:
        return row.expires_ms is not None
    return row.status is GameStatus.ACTIVE and row.deadline_ms is not None and row.paused_ms is None


class Timers:
    """Every pending deadline, and the use cases that fire when one passes."""

    def __init__(self, ctx: Context, endings: Endings) -> None:
        self.ctx = ctx
        self.endings = endings
        self.changed = asyncio.Event()
        """Set whenever the next due time may have moved (the delivery loop waits on it)."""
        self._rows: dict[int, GameRow] = {}
        self._due: DueQueue[int] = DueQueue()
        """The games' next points: neither :meth:`next_at` nor :meth:`process_due` looks at
        every timed game."""
        self._pending: list[Reply] = []
        self._rescan_at: int | None = None
        ctx.games.listen(self.track)

    async def restore(self) -> None:
        """Read every pending deadline of this process's guilds from the store (so a restart
        never forgets one)."""
        owns = self.ctx.settings.owns
        rows = await self.ctx.store.timed_games()
        self._rows = {}
        self._due.clear()
        for row in rows:
            if owns(row.guild_id):
                self._keep(row)
        if self.ctx.settings.sharded:
            self._rescan_at = self.ctx.now_ms() + self.ctx.settings.timer_rescan * 1000
        self.changed.set()

    def track(self, row: GameRow) -> None:
        if not self.ctx.settings.owns(row.guild_id):
            return  # another process's shards hold this game's guild: its clocks are theirs
        before = self._rows.get(row.id)
        if _timed(row):
            if row != before:
                self._keep(row)
        else:
            self._drop(row.id)
        if before != self._rows.get(row.id):
            self.changed.set()

    def _keep(self, row: GameRow) -> None:
        """Time ``row`` (its earlier entry in the heap goes stale)."""
        self._rows[row.id] = row
        self._due.set(row.id, _next_point(row))

    def _drop(self, game_id: int) -> None:
        self._rows.pop(game_id, None)
        self._due.drop(game_id)

    def next_at(self) -> datetime | None:
        """When :meth:`process_due` next has something to do (UTC), or None."""
        if self._pending:
            return self.ctx.clock.now()
        first = self._due.next()
        points = [] if first is None else [first[0]]
        if self._rescan_at is not None:
            points.append(self._rescan_at)
        return from_ms(min(points)) if points else None

    async def check(self, loaded: Loaded) -> Loaded:
        """End the game now if its deadline has passed (called under the game's lock by every
        action, so nobody plays after time; the reply goes out with :meth:`process_due`)."""
        row = loaded.row
        now = self.ctx.now_ms()
        if _timed(row) and row.deadline_ms is not None and now > row.deadline_ms:
            self._pending.append(await self.endings.timeout(loaded))
            self.changed.set()
            return await self.ctx.games.load(loaded.id)
        return loaded

    async def process_due(self, now: datetime | None = None) -> list[Reply]:
        """Send due reminders, end timed-out games and lapse old challenges; each once.

        A game whose turn fails (any error but a refusal) is logged with its id and set aside
        (so it cannot spin the delivery loop); every other game goes on.
        """
        now_ms = to_ms(now) if now is not None else self.ctx.now_ms()
        if self._rescan_at is not None and now_ms >= self._rescan_at:
            await self.restore()
        out, self._pending = self._pending, []
        # each taken once; a change the firing makes times it again
        for game_id in sorted(self._due.take_due(now_ms)):
            try:
                async with self.ctx.games.lock(game_id):
                    reply = await self._fire(game_id, now_ms)
            except Refusal:  # the game changed or vanished meanwhile: nothing to say
                self._drop(game_id)
                continue
            except Exception:
                # One bad game must not stop every clock: log it and set it aside until it
                # changes (a commit tracks it again) or the host restarts; go on with the others.
                log.exception("timers: game %s failed at %s; set aside", game_id, now_ms)
                self._drop(game_id)
                continue
            if reply is not None:
                out.append(reply)
        return out

    async def _fire(self, game_id: int, now_ms: int) -> Reply | None:
        if self.ctx.settings.sharded:
            # Another process may have written the game (our cached copy would lose the version
            # guard): a deadline is rare, so read it from the store.
            self.ctx.games.forget(game_id)
        loaded = await self.ctx.games.load(game_id)
        row = loaded.row
        if row != self._rows.get(game_id):
            self.track(row)  # another process moved it: timed from what the store says
        if not _timed(row):
            self._drop(game_id)
            return None
        if row.status is GameStatus.OPEN:
            assert row.expires_ms is not None
            if now_ms < row.expires_ms:
                return None
            return await self.endings.withdraw(loaded, "challenge.expired")
        assert row.deadline_ms is not None
        if now_ms > row.deadline_ms:
            return await self.endings.timeout(loaded)
        due = [
            off
            for off in row.reminders
            if off not in row.reminders_sent and row.deadline_ms - off * 1000 <= now_ms
        ]
        if not due:
            return None
        sent = tuple(sorted({*row.reminders_sent, *due}, reverse=True))
        change = Change(game_id, row.version, update=Update(reminders_sent=sent))
        if all(row.seats[s].is_ai for s in loaded.acting_seats()):
            # Nobody to remind: the computer moves when it is due (kept as sent, quietly).
            await self.ctx.games.commit(loaded, change)
            return None
        left = from_ms(row.deadline_ms) - from_ms(now_ms)
        deadline_at = from_ms(row.deadline_ms)
        return await self.ctx.announce(
            loaded,
            change,
            lambda new: [
                present.reply(
                    new,
                    Event.REMINDER,
                    "clock.reminder",
                    params={"left": left, "deadline": deadline_at},
                    actions=(Button(Action.MOVE), Button(Action.BOARD)),
                )
            ],
        )
