"""Time for the host: an injectable clock and the clock settings of a game (持ち時間).

Three kinds of clock: ``live`` (minutes per move), ``corr`` (correspondence, days per move) and
``bank`` (a time bank with a per-move bonus and a cap). Times inside the service are whole
milliseconds since the epoch (UTC), which is what the store keeps.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Protocol


class Clock(Protocol):
    """Where the service reads the time: :class:`SystemClock`, or :class:`FakeClock` in tests."""

    def now(self) -> datetime: ...


class SystemClock:
    """The real UTC time."""

    def now(self) -> datetime:
        return datetime.now(UTC)


class FakeClock:
    """A clock that only moves when told to (tests never sleep)."""

    def __init__(self, start: datetime | None = None) -> None:
        self._now = start or datetime(2026, 1, 1, tzinfo=UTC)

    def now(self) -> datetime:
        return self._now

    def set(self, when: datetime) -> None:
        self._now = when

    def advance(self, delta: timedelta | None = None, **kwargs: float) -> datetime:
        self._now += delta if delta is not None else timedelta(**kwargs)
        return self._now


def to_ms(when: datetime) -> int:
    """Milliseconds since the epoch (aware datetimes only)."""
    return int(when.timestamp() * 1000)


_MIN_MS = to_ms(datetime.min.replace(tzinfo=UTC) + timedelta(days=1))
_MAX_MS = to_ms(datetime.max.replace(tzinfo=UTC) - timedelta(days=1))


def from_ms(ms: int) -> datetime:
    """The UTC time ``ms`` milliseconds after the epoch, clamped to what a datetime can hold
    (a stored time from before the clock bounds can never crash a reply or the timers)."""
    return datetime.fromtimestamp(min(max(ms, _MIN_MS), _MAX_MS) / 1000, UTC)


class ClockError(ValueError):
    """A clock text that cannot be read. ``part`` names the value out of range (``live``,
    ``corr``, ``bank``, ``bonus`` or ``cap``) and ``bounds`` its allowed range in seconds; both
    are ``None`` when the text is no clock at all."""

    def __init__(
        self, message: str, *, part: str | None = None, bounds: tuple[int, int] | None = None
    ) -> None:
        super().__init__(message)
        self.part = part
        self.bounds = bounds


_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
_DURATION = re.compile(r"^(\d{1,9}(?:\.\d{1,6})?)([smhd]?)$")

MINUTE, HOUR, DAY = 60, 3600, 86400
LIVE_RANGE = (MINUTE, 2 * HOUR)
"""A live clock's time per move (seconds): 1 minute to 2 hours."""
CORR_RANGE = (HOUR, 30 * DAY)
"""A correspondence clock's time per move (seconds): 1 hour to 30 days."""
BANK_RANGE = (MINUTE, 60 * DAY)
"""A time bank's initial bank and cap (seconds): 1 minute to 60 days."""
BONUS_RANGE = (1, 30 * DAY)
"""A time bank's bonus per move (seconds): 1 second to 30 days."""


UNITS = ((DAY, "day"), (HOUR, "hour"), (MINUTE, "minute"), (1, "second"))
"""The units a duration is named in, largest first (the catalogue's ``clock.unit.*`` say them
to players)."""


def human_duration(seconds: int) -> str:
    """``3600`` -> ``"1 hour"``, ``120`` -> ``"2 minutes"`` (for :class:`ClockError` messages;
    a player reads a range from the catalogue, ``bot.service.lobby.clock_refusal``)."""
    for unit, name in UNITS:
        if seconds % unit == 0:
            n = seconds // unit
            return f"{n} {name}" + ("" if n == 1 else "s")
    return f"{seconds} seconds"  # pragma: no cover - the unit 1 always divides


def range_text(bounds: tuple[int, int]) -> str:
    """``(60, 7200)`` -> ``"1 minute to 2 hours"`` (for :class:`ClockError` messages)."""
    return f"{human_duration(bounds[0])} to {human_duration(bounds[1])}"


def parse_duration(text: str, default_unit: str, bounds: tuple[int, int] | None = None) -> int:
    """``"90s"``, ``"5m"``, ``"3d"`` or a bare number in ``default_unit``: seconds.

    ``bounds`` (seconds, both inclusive) refuses anything outside them, naming the range. A
    number is at most nine digits (with at most six decimals), so nothing overflows.
    """
    m = _DURATION.match(text.strip().lower())
    if not m:
        raise ClockError(f"not a duration: {text!r}")
    seconds = int(float(m.group(1)) * _UNITS[m.group(2) or default_unit])
    if seconds <= 0:
        raise ClockError(f"a duration must be positive: {text!r}")
    if bounds is not None and not bounds[0] <= seconds <= bounds[1]:
        raise ClockError(
            f"{text.strip()!r} is out of range: allowed {range_text(bounds)}", bounds=bounds
        )
    return seconds


def _fmt(seconds: int) -> str:
    for unit in ("d", "h", "m"):
        if seconds % _UNITS[unit] == 0:
            return f"{seconds // _UNITS[unit]}{unit}"
    return f"{seconds}s"


@dataclass(frozen=True, slots=True)
class ClockSpec:
    """A game's clock. ``reminders`` are seconds before a deadline at which the player is pinged."""

    kind: str = "none"  # none | live | corr | bank
    per_move: int = 0  # seconds (live, corr)
    bank: int = 0  # initial bank, seconds
    bonus: int = 0  # added after each move, seconds
    cap: int = 0  # the bank never exceeds this, seconds
    reminders: tuple[int, ...] = field(default=())

    @property
    def timed(self) -> bool:
        return self.kind != "none"

    def text(self) -> str:
        """The canonical clock text (what :func:`parse_clock` reads)."""
        if self.kind == "none":
            return "none"
        if self.kind == "live":
            return f"live:{_fmt(self.per_move)}"
        if self.kind == "corr":
            return f"corr:{_fmt(self.per_move)}"
        return f"bank:{_fmt(self.bank)}+{_fmt(self.bonus)}/{_fmt(self.cap)}"


LIVE_REMINDERS = (60,)
CORR_REMINDERS = (86400, 3600)


def parse_clock(text: str | None) -> ClockSpec:
    """Read ``none``, ``live:5`` (minutes), ``corr:3`` (days), ``bank:7d+1d/14d``.

    Reminder points follow the kind: one minute before a live deadline, 24 h and 1 h before a
    correspondence or bank deadline (only those shorter than the time allowed).

    Every value is bounded (:data:`LIVE_RANGE`, :data:`CORR_RANGE`, :data:`BANK_RANGE`,
    :data:`BONUS_RANGE`): a :class:`ClockError` names the allowed range.
    """
    raw = (text or "none").strip().lower()
    if raw in ("", "none", "off", "untimed"):
        return ClockSpec()
    kind, _, rest = raw.partition(":")
    if kind == "live":
        per = _bounded("live", rest or "5", "m", LIVE_RANGE)
        return ClockSpec("live", per_move=per, reminders=_points(LIVE_REMINDERS, per))
    if kind in ("corr", "correspondence"):
        per = _bounded("corr", rest or "3", "d", CORR_RANGE)
        return ClockSpec("corr", per_move=per, reminders=_points(CORR_REMINDERS, per))
    if kind == "bank":
        m = re.match(r"^([^+/]+)\+([^+/]+)/([^+/]+)$", rest)
        if not m:
            raise ClockError(f"a time bank is written bank:7d+1d/14d, not {text!r}")
        bank = _bounded("bank", m.group(1), "d", BANK_RANGE)
        bonus = _bounded("bonus", m.group(2), "d", BONUS_RANGE)
        cap = _bounded("cap", m.group(3), "d", BANK_RANGE)
        if cap < bank:
            raise ClockError(
                "the cap of a time bank cannot be below its initial bank",
                part="cap",
                bounds=(bank, BANK_RANGE[1]),
            )
        return ClockSpec(
            "bank",
            bank=bank,
            bonus=bonus,
            cap=cap,
            reminders=_points(CORR_REMINDERS, cap) or _points(LIVE_REMINDERS, cap),
        )
    raise ClockError(f"unknown clock {text!r}")


CLOCK_PARTS = {
    "live": "a live clock's time per move",
    "corr": "a correspondence clock's time per move",
    "bank": "a time bank",
    "bonus": "a time bank's bonus per move",
    "cap": "a time bank's cap",
}
"""What each bounded part of a clock is (for :class:`ClockError` messages)."""


def _bounded(part: str, text: str, default_unit: str, bounds: tuple[int, int]) -> int:
    try:
        return parse_duration(text, default_unit, bounds)
    except ClockError as exc:
        shown = text.strip() if len(text.strip()) <= 24 else text.strip()[:21] + "..."
        raise ClockError(
            f"{CLOCK_PARTS[part]} must be {range_text(bounds)}, not {shown!r}",
            part=part,
            bounds=bounds,
        ) from exc


def _points(points: tuple[int, ...], allowed: int) -> tuple[int, ...]:
    return tuple(p for p in points if p < allowed)


def with_reminders(spec: ClockSpec, reminders: tuple[int, ...]) -> ClockSpec:
    """The same clock with other reminder points (seconds before the deadline)."""
    return ClockSpec(
        spec.kind,
        spec.per_move,
        spec.bank,
        spec.bonus,
        spec.cap,
        tuple(sorted(reminders, reverse=True)),
    )


def remaining_text(delta: timedelta) -> str:
    """A short human duration (``2d 3h``, ``4m 10s``) for messages."""
    s = max(0, int(delta.total_seconds()))
    d, s = divmod(s, 86400)
    h, s = divmod(s, 3600)
    m, s = divmod(s, 60)
    parts = [
        f"{d}d" if d else "",
        f"{h}h" if h else "",
        f"{m}m" if m and not d else "",
        f"{s}s" if s and not d and not h else "",
    ]
    return " ".join(p for p in parts if p) or "0s"
