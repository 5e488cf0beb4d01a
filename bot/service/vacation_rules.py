"""Vacation as pure rules (休暇): the allowance, when it runs out, and how a stopped clock
stops and runs again. No I/O: :mod:`bot.service.vacation` reads and writes, these compute.

A vacation stops the clocks of a player's correspondence and time-bank games (live clocks go on)
while it is their turn. A stopped game keeps its deadline and turn start as they were
(``GameRow.paused_ms`` says since when); when its clock runs again both move on by the time it
stood still, so the player loses no second of it. The allowance (a number of days a year,
accrued month by month) is spent by the hour, and only while the vacation holds a clock.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime

from bot.clock import ClockError, from_ms, parse_clock, parse_duration, to_ms
from bot.model import UNCHANGED, GameRow, GameStatus, Update, VacationRow
from bot.service.values import Line

HOUR_MS = 3_600_000
DAY_MS = 24 * HOUR_MS
PAUSED_KINDS = ("corr", "bank")
"""The clocks a vacation stops (a live game is played in one sitting: it never waits)."""


# -- the allowance ---------------------------------------------------------------------------
def accrued_ms(days_per_year: float, now_ms: int) -> int:
    """The allowance earned in ``now_ms``'s UTC year so far: a twelfth of the year's days at
    the start of each month (January holds one twelfth, December all of it)."""
    month = from_ms(now_ms).month
    return int(days_per_year * DAY_MS * month) // 12


def charged_ms(held_ms: int) -> int:
    """What holding clocks for ``held_ms`` costs: whole hours, a started hour counted."""
    return -(-max(0, held_ms) // HOUR_MS) * HOUR_MS


def year_of(ms: int) -> int:
    return from_ms(ms).year


def in_year(row: VacationRow, now_ms: int) -> VacationRow:
    """``row`` counted in ``now_ms``'s year (a new year starts with nothing spent)."""
    year = year_of(now_ms)
    if row.year == year:
        return row
    return VacationRow(row.user_id, row.since_ms, row.until_ms, year, 0, row.holding_ms)


def left_ms(row: VacationRow, days_per_year: float, now_ms: int) -> int:
    """The allowance not yet spent at ``now_ms`` (settled hours only: a holding in progress is
    :func:`runs_out_at`'s business)."""
    row = in_year(row, now_ms)
    return max(0, accrued_ms(days_per_year, now_ms) - row.used_ms)


def runs_out_at(row: VacationRow, days_per_year: float) -> int | None:
    """When the allowance is spent if the clocks stay held (``None``: none is held)."""
    if row.holding_ms is None:
        return None
    left = left_ms(row, days_per_year, row.holding_ms)
    return row.holding_ms + (left // HOUR_MS) * HOUR_MS


def hold(row: VacationRow, at_ms: int) -> VacationRow:
    """The vacation starts holding a clock at ``at_ms`` (nothing changes if it already does)."""
    if row.holding_ms is not None:
        return row
    return VacationRow(row.user_id, row.since_ms, row.until_ms, row.year, row.used_ms, at_ms)


def release(row: VacationRow, at_ms: int) -> VacationRow:
    """The vacation holds no clock from ``at_ms`` on: the time held is spent, by the hour."""
    held = row.holding_ms
    if held is None:
        return row
    row = in_year(row, at_ms)
    used = row.used_ms + charged_ms(at_ms - held)
    return VacationRow(row.user_id, row.since_ms, row.until_ms, row.year, used, None)


def ended(row: VacationRow, at_ms: int) -> VacationRow:
    """The vacation is over at ``at_ms`` (what it held is spent)."""
    row = release(row, at_ms)
    return VacationRow(row.user_id, None, None, row.year, row.used_ms, None)


# -- the return date -----------------------------------------------------------------------
_DATE = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2}))?$")


def parse_until(text: str, now_ms: int) -> int:
    """``2026-08-31``, ``2026-08-31 18:00`` (UTC) or a duration from now (``10d``, ``36h``):
    the return time (ms). :class:`ValueError` when it is neither."""
    raw = text.strip()
    m = _DATE.match(raw)
    if m:
        year, month, day = int(m.group(1)), int(m.group(2)), int(m.group(3))
        hour, minute = int(m.group(4) or 0), int(m.group(5) or 0)
        return to_ms(datetime(year, month, day, hour, minute, tzinfo=UTC))
    try:
        return now_ms + parse_duration(raw, "d", (60, 366 * 86400)) * 1000
    except ClockError as exc:
        raise ValueError(raw) from exc


# -- the clocks ------------------------------------------------------------------------------
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


def days(ms: int) -> str:
    """``ms`` as days with one decimal (``2.5``) for the allowance's messages."""
    return f"{ms / DAY_MS:.1f}".removesuffix(".0")
