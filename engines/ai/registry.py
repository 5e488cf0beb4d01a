"""The evaluations by game id: one module per game family, each exporting ``EVALUATIONS``."""

from __future__ import annotations

from engines.ai import rokumentai, sangokushi, socrates, suji_shogi, yosuko
from engines.ai.evaluation import NEUTRAL, Evaluation

EVALUATIONS: dict[str, Evaluation] = {
    **rokumentai.EVALUATIONS,
    **socrates.EVALUATIONS,
    **sangokushi.EVALUATIONS,
    **suji_shogi.EVALUATIONS,
    **yosuko.EVALUATIONS,
}


def evaluation_for(game_id: str) -> Evaluation:
    """The game's evaluation; a neutral one (search alone) for a game that has none yet."""
    return EVALUATIONS.get(game_id, NEUTRAL)
