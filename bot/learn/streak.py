"""The daily puzzle's streak: consecutive UTC days on which a user solved it. Pure arithmetic
on ISO dates (``YYYY-MM-DD``), tested alone (tests/learn/test_streak.py)."""

from __future__ import annotations

from datetime import date, timedelta

from bot.model import PuzzleStreak as Streak


def solved(before: Streak | None, day: str) -> Streak:
    """The streak after solving ``day``'s puzzle: one more when the last day solved was the
    day before, the same when ``day`` was already counted, else a new streak of one. A day
    earlier than the last one (a clock set back) changes nothing."""
    if before is None:
        return Streak(day, 1, 1)
    last, today = date.fromisoformat(before.last_day), date.fromisoformat(day)
    if today <= last:
        return before
    current = before.streak + 1 if today - last == timedelta(days=1) else 1
    return Streak(day, current, max(before.best, current))


def shown(streak: Streak | None, today: str) -> int:
    """The streak as it stands on ``today``: kept while the last day solved is today or
    yesterday (today's puzzle may still be solved), else broken (0)."""
    if streak is None:
        return 0
    gap = date.fromisoformat(today) - date.fromisoformat(streak.last_day)
    return streak.streak if timedelta(0) <= gap <= timedelta(days=1) else 0
