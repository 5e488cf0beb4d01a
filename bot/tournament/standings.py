"""Who stands where: points, then the format's tie-breaks.

- Round-robin: Sonneborn-Berger (each opponent's final points times the points scored against
  them), then wins.
- Swiss: Buchholz (the sum of the opponents' points), then median-Buchholz (the same without
  the highest and the lowest, with three opponents or more).
- 三国志 tables: the placement sum (every placement added up: lower is better), then the
  table-mates' points (a Buchholz over everyone met).

A bye and a forfeit count for points, never as a meeting: they add nothing to a tie-break.
Players level on points and every tie-break share a rank.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from bot.tournament.values import Format, Played


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the standings: ``tiebreaks`` in the format's order, each "more is better"
    except the placement sum (shown as it is, compared reversed)."""

    rank: int
    player: str
    points: float
    tiebreaks: tuple[float, ...]
    games: int


TIEBREAKS: dict[Format, tuple[str, ...]] = {
    Format.ROUND_ROBIN: ("sb", "wins"),
    Format.DOUBLE_ROUND_ROBIN: ("sb", "wins"),
    Format.SWISS: ("buchholz", "median"),
    Format.TABLES: ("placement", "mates"),
}
"""Each format's tie-breaks by name (the catalogue keys ``tournament.tb.NAME``)."""

LOWER_IS_BETTER = frozenset({"placement"})


def buchholz(opponent_points: Sequence[float]) -> float:
    return float(sum(opponent_points))


def median_buchholz(opponent_points: Sequence[float]) -> float:
    """Buchholz without the best and the worst opponent (all of it under three opponents)."""
    if len(opponent_points) < 3:
        return buchholz(opponent_points)
    ordered = sorted(opponent_points)
    return float(sum(ordered[1:-1]))


def standings(fmt: Format, players: Sequence[str], played: Sequence[Played]) -> list[Standing]:
    """The standings of ``players`` (everyone who entered, withdrawn included) after
    ``played``, best first."""
    points: dict[str, float] = dict.fromkeys(players, 0.0)
    games: dict[str, int] = dict.fromkeys(players, 0)
    for g in played:
        for p, pts in zip(g.players, g.points, strict=True):
            if p in points:
                points[p] += pts
                games[p] += not g.is_bye
    met: dict[str, list[tuple[str, float]]] = defaultdict(list)
    """Per player, each opponent met over the board and the points scored against them."""
    wins: dict[str, int] = defaultdict(int)
    placements: dict[str, int] = defaultdict(int)
    for g in played:
        if g.is_bye:
            continue
        for seat, p in enumerate(g.players):
            if g.forfeit:
                continue
            placements[p] += g.placements()[seat]
            wins[p] += g.points[seat] == 1.0
            met[p].extend((q, g.points[seat]) for q in g.opponents(p))
    names = TIEBREAKS[fmt]

    def tiebreak(name: str, p: str) -> float:
        opponents = [points.get(q, 0.0) for q, _ in met[p]]
        if name == "sb":
            return sum(points.get(q, 0.0) * scored for q, scored in met[p])
        if name == "wins":
            return float(wins[p])
        if name == "buchholz":
            return buchholz(opponents)
        if name == "median":
            return median_buchholz(opponents)
        if name == "placement":
            return float(placements[p])
        return buchholz(opponents)  # "mates"

    lines = [(p, points[p], tuple(tiebreak(n, p) for n in names)) for p in players]

    def key(line: tuple[str, float, tuple[float, ...]]) -> tuple[float, ...]:
        _, pts, tbs = line
        return (-pts, *(v if n in LOWER_IS_BETTER else -v for n, v in zip(names, tbs, strict=True)))

    lines.sort(key=key)
    out: list[Standing] = []
    for i, line in enumerate(lines):
        rank = out[-1].rank if out and key(lines[i - 1]) == key(line) else i + 1
        p, pts, tbs = line
        out.append(Standing(rank, p, pts, tbs, games[p]))
    return out
