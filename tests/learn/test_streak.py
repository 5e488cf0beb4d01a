"""The daily puzzle's streak, alone: consecutive UTC days, kept across the day boundary."""

from __future__ import annotations

from bot.learn.streak import Streak, shown, solved


def test_days_in_a_row_count_up_and_a_gap_starts_again() -> None:
    s = solved(None, "2026-01-30")
    assert s == Streak("2026-01-30", 1, 1)
    s = solved(s, "2026-01-31")
    s = solved(s, "2026-02-01")  # across a month
    assert (s.streak, s.best) == (3, 3)
    s = solved(s, "2026-02-03")  # a day missed
    assert (s.streak, s.best) == (1, 3)


def test_the_same_day_twice_or_an_earlier_day_changes_nothing() -> None:
    s = solved(solved(None, "2026-03-01"), "2026-03-02")
    assert solved(s, "2026-03-02") == s
    assert solved(s, "2026-02-27") == s


def test_a_streak_shows_while_today_may_still_extend_it() -> None:
    s = Streak("2026-12-31", 4, 9)
    assert shown(s, "2026-12-31") == 4
    assert shown(s, "2027-01-01") == 4  # today's puzzle not solved yet
    assert shown(s, "2027-01-02") == 0
    assert shown(None, "2027-01-02") == 0
    assert shown(s, "2026-12-30") == 0  # a clock set back shows nothing
