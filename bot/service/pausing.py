"""Clocks that stand still (the kernel's part of a vacation): which games a vacation stops, how a
stopped clock stops and runs again, and what a message about a stopped game says.

A stopped game keeps its deadline and turn start as they were (``GameRow.paused_ms`` says since
when); when its clock runs again both move on by the time it stood still, so the player loses no
second of it. Every capability reads a game's clock through here (the timers, the lists, the
turn messages); :mod:`bot.service.correspond.vacation` decides who is away and when.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from bot.clock import from_ms, parse_clock
from bot.model import UNCHANGED, GameRow, GameStatus, Update, VacationRow
from bot.service.values import Line

PAUSED_KINDS = ("corr", "bank")
"""The clocks a vacation stops (a live game is played in one sitting: it never waits)."""


def pausable(row: GameRow) -> bool:
    """A running game whose clock a vacation stops (correspondence or a time bank)."""
    return (
        row.status is GameStatus.ACTIVE
        and row.deadline_ms is not None
        and parse_clock(row.clock).kind in PAUSED_KINDS
    )


def pause(row: GameRow, at_ms: int, until_ms: int | None) -> Update:
    """Stop ``row``'s clock at ``at_ms`` (no earlier than its turn began)."""
    since = max(at_ms, row.turn_started_ms or at_ms)
    return Update(paused_ms=since, paused_until_ms=until_ms)


def resume(row: GameRow, at_ms: int) -> Update:
    """Run ``row``'s clock again at ``at_ms``: its deadline and turn start move on by the time it
    stood still (exactly), so the turn has as long left as when it stopped."""
    if row.paused_ms is None:
        return Update()
    shift = max(0, at_ms - row.paused_ms)
    return Update(
        paused_ms=None,
        paused_until_ms=None,
        deadline_ms=None if row.deadline_ms is None else row.deadline_ms + shift,
        turn_started_ms=None if row.turn_started_ms is None else row.turn_started_ms + shift,
    )


def amended(
    row: GameRow,
    update: Update,
    acting: Sequence[str],
    away: Mapping[str, VacationRow],
    allowed: Callable[[GameRow], bool],
) -> Update:
    """What a commit must add so that its game's clock stands still exactly while a player to
    move is away: ``row`` is the game as the commit leaves it, ``update`` the commit's own,
    ``acting`` the users to move. A new turn (the update starts one) of an absent player stops
    at once; one of a present player runs; a game that ends or loses its clock runs no more."""
    if not pausable(row) or not allowed(row):
        return Update(paused_ms=None, paused_until_ms=None) if row.paused_ms else Update()
    if update.turn_started_ms is UNCHANGED:
        return Update()  # the same turn goes on: a vacation starts or ends through its own use case
    absent = [away[u] for u in acting if u in away]
    if absent:
        return pause(row, row.turn_started_ms or 0, absent[0].until_ms)
    return Update(paused_ms=None, paused_until_ms=None) if row.paused_ms else Update()


def elapsed_ms(row: GameRow, now_ms: int) -> int:
    """How long the turn's clock has run at ``now_ms`` (a stopped clock stopped counting)."""
    start = row.turn_started_ms if row.turn_started_ms is not None else now_ms
    end = row.paused_ms if row.paused_ms is not None else now_ms
    return max(0, end - start)


def paused_lines(row: GameRow, names: str) -> tuple[Line, ...]:
    """The line every message and list about a stopped game shows: who is away, until when."""
    if row.paused_ms is None:
        return ()
    if row.paused_until_ms is None:
        return (Line("vacation.paused_open", {"name": names}),)
    return (Line("vacation.paused", {"name": names, "until": from_ms(row.paused_until_ms)}),)
