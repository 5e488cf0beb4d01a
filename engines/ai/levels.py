"""The eight strength levels, as lichess has them: each is one row of a table."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Level:
    """``budget``: seconds per move; ``depth``: the search depth cap in plies; ``margin``: the
    randomness, in evaluation points (about 100 a piece): the move is drawn among the root moves
    whose value is within ``margin`` of the best. ``setup``: candidate arrangements and sampled
    enemy arrangements for a secret setup; ``setup_spread``: where a game has solved its setup
    (``Evaluation.setups``), the level draws from a mix that gives no arrangement more than one
    draw in ``setup_spread`` instead."""

    budget: float
    depth: int
    margin: float
    setup_candidates: int
    setup_samples: int
    setup_spread: int


LEVELS: dict[int, Level] = {
    1: Level(0.02, 1, 80.0, 4, 2, 720),
    2: Level(0.04, 1, 50.0, 8, 3, 720),
    3: Level(0.08, 2, 25.0, 12, 4, 720),
    4: Level(0.15, 3, 15.0, 16, 5, 720),
    5: Level(0.3, 3, 8.0, 24, 6, 360),
    6: Level(0.6, 4, 3.0, 32, 8, 120),
    7: Level(1.2, 6, 1.0, 48, 10, 45),
    8: Level(2.0, 64, 0.0, 64, 12, 20),
}
"""Level → (time budget, depth cap, randomness, setup candidates, enemy samples, setup spread).
Two steps up the ladder give four times the time, a ply more depth (where the time allows it)
and a third of the randomness; level 8 searches as deep as its whole budget allows. A game
whose setup is solved offline (数字将棋's table) has each level draw from a mix that gives no
arrangement more than one draw in ``setup_spread``, so the table tells a reader little: levels
1 to 4 any of the 720 alike, level 5 at most 1 in 360, level 6 1 in 120, level 7 1 in 45 and
level 8 1 in 20. The lower levels' ladder steps hold on their search alone; the upper steps
need the better setups (docs/ai.md, docs/bench-log.md).
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
