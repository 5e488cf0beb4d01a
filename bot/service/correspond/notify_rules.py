"""How a player is told, as pure rules: when their daily digest is due, whether it is quiet
where they are, and what a digest lists. No I/O: :mod:`bot.service.correspond.notices` reads and
writes.

Times are the user's own: an IANA time zone (``Asia/Tokyo``) picks their digest hour and quiet
hours. A digest is due once per local day, at the hour or as soon after it as the host runs.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from bot.clock import from_ms, to_ms
from bot.model import NotifyPrefs

_QUIET = re.compile(r"^(\d{1,2})(?::00)?\s*[-–~〜]\s*(\d{1,2})(?::00)?$")


@lru_cache(maxsize=1)
def zone_names() -> frozenset[str]:
    """Every IANA time zone this machine knows (read once)."""
    return frozenset(available_timezones())


@lru_cache(maxsize=512)
def zone(name: str) -> ZoneInfo:
    """The time zone ``name``; :class:`ValueError` when there is none of that name (a region
    folder such as ``America``, a name too long for a file, a path: each is no zone)."""
    if name not in zone_names():
        raise ValueError(name)
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError) as exc:
        raise ValueError(name) from exc


def parse_hour(value: int) -> int:
    if not 0 <= value <= 23:
        raise ValueError(value)
    return value


def parse_quiet(text: str) -> tuple[int, int] | None:
    """``22-7`` (from 22:00 to 07:00, local) or ``off``: the quiet hours. :class:`ValueError`
    when it is neither (or both ends are the same hour)."""
    raw = text.strip().lower()
    if raw in ("off", "none", "-", "なし"):
        return None
    m = _QUIET.match(raw)
    if not m:
        raise ValueError(text)
    start, end = (parse_hour(int(g) % 24 if int(g) == 24 else int(g)) for g in m.groups())
    if start == end:
        raise ValueError(text)
    return start, end


def local(prefs: NotifyPrefs, at_ms: int) -> datetime:
    return from_ms(at_ms).astimezone(zone(prefs.tz))


def quiet(prefs: NotifyPrefs, at_ms: int) -> bool:
    """Is ``at_ms`` in the user's quiet hours (their own clock)?"""
    if prefs.quiet_from is None or prefs.quiet_to is None:
        return False
    hour = local(prefs, at_ms).hour
    start, end = prefs.quiet_from, prefs.quiet_to
    return start <= hour < end if start < end else hour >= start or hour < end


def _at_hour(prefs: NotifyPrefs, day: datetime) -> int:
    tz = zone(prefs.tz)
    return to_ms(datetime.combine(day.date(), time(prefs.digest_hour), tz))


def next_digest_ms(prefs: NotifyPrefs, now_ms: int) -> int | None:
    """When the user's next digest is due (in the past: due now; None: they get none). Once a
    local day: a day that had its digest waits for the next day's hour."""
    if not prefs.digest or prefs.dm_closed:
        return None
    today = local(prefs, now_ms)
    at = _at_hour(prefs, today)
    if prefs.last_digest_ms is not None:
        last = local(prefs, prefs.last_digest_ms)
        if last.date() >= today.date():
            at = _at_hour(prefs, today + timedelta(days=1))
    return at


def first_digest_from(prefs: NotifyPrefs, now_ms: int) -> int | None:
    """What ``last_digest_ms`` becomes when the digest is switched on at ``now_ms``: today's
    counts as sent when its hour has passed (the first comes at the next hour, not at once)."""
    return now_ms if _at_hour(prefs, local(prefs, now_ms)) <= now_ms else None


@dataclass(frozen=True, slots=True)
class DigestGame:
    """What a digest needs to know of one of the user's games."""

    id: int
    status: str
    """``active``, ``open``, ``finished``, ``aborted``."""
    to_move: tuple[str, ...] = ()
    deadline_ms: int | None = None
    finished_ms: int | None = None
    invited: tuple[str, ...] = ()
    """Users a challenge waits for."""
    paused: bool = False


@dataclass(frozen=True, slots=True)
class Digest:
    turn: tuple[DigestGame, ...]
    """Games where it is the user's turn, the nearest deadline first."""
    ended: tuple[DigestGame, ...]
    """Games that ended since the last digest."""
    challenges: tuple[DigestGame, ...]
    """Challenges that wait for the user."""

    @property
    def empty(self) -> bool:
        return not (self.turn or self.ended or self.challenges)


NEVER = 2**62


def select(user_id: str, games: Iterable[DigestGame], since_ms: int | None) -> Digest:
    """The digest of ``user_id`` from their games (``since_ms``: the last digest)."""
    turn: list[DigestGame] = []
    ended: list[DigestGame] = []
    challenges: list[DigestGame] = []
    for g in games:
        if g.status == "active":
            if user_id in g.to_move:
                turn.append(g)
        elif g.status == "open":
            if user_id in g.invited:
                challenges.append(g)
        elif g.finished_ms is not None and (since_ms is None or g.finished_ms > since_ms):
            ended.append(g)
    turn.sort(key=lambda g: (g.deadline_ms if g.deadline_ms is not None else NEVER, g.id))
    ended.sort(key=lambda g: g.id)
    challenges.sort(key=lambda g: g.id)
    return Digest(tuple(turn), tuple(ended), tuple(challenges))


def silenced(notify: Sequence[str], prefs: dict[str, NotifyPrefs], now_ms: int) -> bool:
    """A message that pings only users in their quiet hours is sent silently."""
    return bool(notify) and all(u in prefs and quiet(prefs[u], now_ms) for u in notify)
