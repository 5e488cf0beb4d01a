"""Vacation as pure rules (休暇): the allowance, when it runs out, and how a stopped clock
stops and runs again. No I/O: :mod:`bot.service.correspond.vacation` reads and writes, these
compute.

A vacation stops the clocks of a player's correspondence and time-bank games (live clocks go on)
while it is their turn. A stopped game keeps its deadline and turn start as they were
(``GameRow.paused_ms`` says since when); when its clock runs again both move on by the time it
stood still, so the player loses no second of it. The allowance (a number of days a year,
accrued month by month) is spent by the hour, and only while the vacation holds a clock.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

from bot.clock import ClockError, from_ms, parse_duration, to_ms
from bot.model import VacationRow

HOUR_MS = 3_600_000
DAY_MS = 24 * HOUR_MS


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


def year_start_ms(ms: int, later: int = 0) -> int:
    """1 January 00:00 UTC of ``ms``'s year (``later`` years on)."""
    return to_ms(datetime(year_of(ms) + later, 1, 1, tzinfo=UTC))


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
    """When the allowance is spent if the clocks stay held (``None``: none is held). A holding
    that outlasts its year's allowance past New Year goes on with the new year's."""
    if row.holding_ms is None:
        return None
    left = left_ms(row, days_per_year, row.holding_ms)
    out = row.holding_ms + (left // HOUR_MS) * HOUR_MS
    new_year = year_start_ms(row.holding_ms, 1)
    if out <= new_year:
        return out
    return new_year + (accrued_ms(days_per_year, new_year) // HOUR_MS) * HOUR_MS


def held_left_ms(row: VacationRow, days_per_year: float, now_ms: int) -> int:
    """The allowance left at ``now_ms`` counting the clocks held until then."""
    return left_ms(release(row, now_ms), days_per_year, now_ms)


def hold(row: VacationRow, at_ms: int) -> VacationRow:
    """The vacation starts holding a clock at ``at_ms`` (nothing changes if it already does)."""
    if row.holding_ms is not None:
        return row
    return VacationRow(row.user_id, row.since_ms, row.until_ms, row.year, row.used_ms, at_ms)


def release(row: VacationRow, at_ms: int) -> VacationRow:
    """The vacation holds no clock from ``at_ms`` on: the time held is spent, by the hour, each
    year its own (a holding from 29 December to 2 January charges the new year from 1 January
    only: the old year's allowance is that year's)."""
    held = row.holding_ms
    if held is None:
        return row
    row = in_year(row, at_ms)
    since = max(held, year_start_ms(at_ms))
    used = row.used_ms + charged_ms(at_ms - since)
    return VacationRow(row.user_id, row.since_ms, row.until_ms, row.year, used, None)


def ended(row: VacationRow, at_ms: int) -> VacationRow:
    """The vacation is over at ``at_ms`` (what it held is spent). The row keeps when it ended
    (``until_ms``, with no ``since_ms``): a restart that finds a clock still stopped by it
    runs that clock again from then, not from the restart."""
    row = release(row, at_ms)
    return VacationRow(row.user_id, None, at_ms, row.year, row.used_ms, None)


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


def days(ms: int) -> str:
    """``ms`` as days with one decimal (``2.5``) for the allowance's messages."""
    return f"{ms / DAY_MS:.1f}".removesuffix(".0")
