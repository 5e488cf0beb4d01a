"""The eight strength levels, as lichess has them: each is one row of a table."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Level:
    """``budget``: seconds per move; ``depth``: the search depth cap in plies; ``margin``: the
    randomness, in evaluation points (about 100 a piece): the move is drawn among the root moves
    whose value is within ``margin`` of the best. ``setup``: candidate arrangements and sampled
    enemy arrangements for a secret setup; ``setup_top``: where a game ranks its arrangements
    (``Evaluation.setups``), how many of the best the level draws from instead."""

    budget: float
    depth: int
    margin: float
    setup_candidates: int
    setup_samples: int
    setup_top: int


LEVELS: dict[int, Level] = {
    1: Level(0.02, 1, 80.0, 4, 2, 720),
    2: Level(0.04, 1, 50.0, 8, 3, 720),
    3: Level(0.08, 2, 25.0, 12, 4, 540),
    4: Level(0.15, 3, 15.0, 16, 5, 360),
    5: Level(0.3, 3, 8.0, 24, 6, 90),
    6: Level(0.6, 4, 3.0, 32, 8, 20),
    7: Level(1.2, 6, 1.0, 48, 10, 8),
    8: Level(2.0, 64, 0.0, 64, 12, 3),
}
"""Level → (time budget, depth cap, randomness, setup candidates, enemy samples, top of a ranked
setup table). Two steps up the ladder give four times the time, a ply more depth (where the
time allows it) and a third of the randomness; level 8 searches as deep as its whole budget
allows. A ranked setup table (数字将棋's 720 arrangements) is drawn from by each level among
its best ``setup_top``: levels 1 and 2 all of them, level 4 the better half, level 6 the best
20 and level 8 the best 3 (by the table's own scores the best 45 are about equally good, so
the steps that matter are from 360 to 90 to 20: docs/ai.md).
A game whose plies are far cheaper than others' may give its levels depth caps of their own
(``Evaluation.depths``: 黒壇の馬)."""


def level(n: int) -> Level:
    """The row of level ``n`` (1–8); a ``ValueError`` otherwise."""
    if n not in LEVELS:
        raise ValueError(f"AI level must be 1-8, not {n!r}")
    return LEVELS[n]


def margins_with(changes: dict[int, float]) -> tuple[float, ...]:
    """The level table's margins, levels 1-8, with those of the levels in ``changes`` replaced:
    a game's own ``Evaluation.margins`` when only some of its levels differ."""
    return tuple(changes.get(n, LEVELS[n].margin) for n in range(1, len(LEVELS) + 1))
