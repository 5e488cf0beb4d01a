"""Standings and tie-breaks, checked on published examples."""

from __future__ import annotations

from bot.tournament import Format, Played, standings
from bot.tournament.standings import buchholz, median_buchholz


def double_round_robin(table: dict[str, str]) -> list[Played]:
    """Results from a crosstable written as rows of 1/0 (two cycles, "-" on the diagonal)."""
    players = list(table)
    out: list[Played] = []
    for cycle in (0, 1):
        for i, a in enumerate(players):
            row = table[a].split("|")[cycle].split()
            for j, b in enumerate(players):
                if j > i:
                    score = float(row[j])
                    out.append(Played(cycle + 1, (a, b), (score, 1 - score)))
    return out


def test_sonneborn_berger_on_senseis_library_example() -> None:
    # Sensei's Library, "Sonneborn-Berger": a double round-robin of A B C D; A and B both
    # score 4, A's Sonneborn-Berger is 4+3+3+1 = 11 and B's 4+3+1+1 = 9, so A wins.
    played = double_round_robin(
        {
            "A": "- 1 1 1 | - 0 1 0",
            "B": "0 - 1 1 | 1 - 0 1",
            "C": "0 0 - 1 | 0 1 - 1",
            "D": "0 0 0 - | 1 0 0 -",
        }
    )
    lines = standings(Format.DOUBLE_ROUND_ROBIN, list("ABCD"), played)
    assert [(s.player, s.points, s.tiebreaks[0]) for s in lines] == [
        ("A", 4, 11),
        ("B", 4, 9),
        ("C", 3, 6),
        ("D", 1, 4),
    ]
    assert [s.rank for s in lines] == [1, 2, 3, 4]


def test_buchholz_and_median_buchholz_on_a_published_example() -> None:
    # HultWiki "Sonneborn-Berger" (Solkoff, i.e. Buchholz), example 1: player A met opponents
    # scoring 1, 3, 2, 2, 2 and player B 1, 2, 2, 2, 2. Buchholz 10 and 9; the median (without
    # the best and the worst) 6 and 6.
    assert buchholz([1, 3, 2, 2, 2]) == 10
    assert buchholz([1, 2, 2, 2, 2]) == 9
    assert median_buchholz([1, 3, 2, 2, 2]) == 6
    assert median_buchholz([1, 2, 2, 2, 2]) == 6
    assert median_buchholz([1, 2]) == 3  # fewer than three opponents: nothing dropped


def test_swiss_standings_count_byes_for_points_and_not_for_buchholz() -> None:
    played = [
        Played(1, ("a", "b"), (1.0, 0.0)),
        Played(1, ("c",), (1.0,)),
        Played(2, ("c", "a"), (0.5, 0.5)),
        Played(2, ("b",), (1.0,)),
    ]
    lines = {s.player: s for s in standings(Format.SWISS, list("abc"), played)}
    assert lines["a"].points == 1.5 and lines["c"].points == 1.5 and lines["b"].points == 1
    assert lines["a"].tiebreaks == (1 + 1.5, 1 + 1.5)
    assert lines["c"].tiebreaks == (1.5, 1.5)
    assert lines["a"].rank == 1 and lines["c"].rank == 2
    assert lines["a"].games == 2 and lines["c"].games == 1


def test_forfeits_count_for_points_but_are_no_meeting() -> None:
    played = [
        Played(1, ("a", "b"), (1.0, 0.0), forfeit=True),
        Played(1, ("c", "d"), (1.0, 0.0)),
    ]
    lines = {s.player: s for s in standings(Format.ROUND_ROBIN, list("abcd"), played)}
    assert lines["a"].points == 1 and lines["a"].tiebreaks == (0, 0)
    assert lines["c"].tiebreaks == (0, 1)


def test_tables_rank_by_points_then_the_placement_sum() -> None:
    played = [
        Played(1, ("a", "b", "c"), (1.0, 0.0, 0.0), (1, 2, 3)),
        Played(1, ("d", "e", "f"), (1.0, 0.0, 0.0), (1, 3, 2)),
        Played(2, ("a", "d", "e"), (0.5, 0.5, 0.0), (1, 1, 3)),
        Played(2, ("b", "c", "f"), (0.0, 1.0, 0.0), (2, 1, 3)),
    ]
    lines = standings(Format.TABLES, list("abcdef"), played)
    assert [s.player for s in lines[:2]] == ["a", "d"]  # 1.5 each, placement sum 2 each
    # a's table-mates scored 0 + 1 + 1.5 + 0, d's 0 + 0 + 1.5 + 0: a first
    assert lines[0].tiebreaks == (2, 2.5) and lines[1].tiebreaks == (2, 1.5)
    assert (lines[0].rank, lines[1].rank) == (1, 2)
    b, f = next(s for s in lines if s.player == "b"), next(s for s in lines if s.player == "f")
    assert b.points == f.points == 0 and b.tiebreaks[0] == 4 < f.tiebreaks[0] == 5
    assert lines.index(b) < lines.index(f)


def test_players_level_on_everything_share_a_rank() -> None:
    lines = standings(Format.SWISS, list("abcd"), [])
    assert {s.rank for s in lines} == {1}
