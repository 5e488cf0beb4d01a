"""The start-position perft numbers of shared/rules/perft.md, kept as data (tests/data/perft.json).

Every rule set's counts are checked here, once; a secret setup is fixed as the table states.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engines import get_game
from engines.core import State, perft

CASES: list[dict[str, Any]] = json.loads(
    (Path(__file__).parents[1] / "data" / "perft.json").read_text(encoding="utf-8")
)["cases"]


def _start(case: dict[str, Any]) -> State[Any]:
    state: State[Any] = get_game(case["game"]).new_game()
    for seat, arrangement in enumerate(case.get("setup", ())):
        state = state.apply(state.parse_move(arrangement, seat), seat)
    return state


def test_every_rule_set_of_the_table_is_covered() -> None:
    assert {c["game"] for c in CASES} == {
        "rokumentai",
        "suji-shogi",
        "sangokushi",
        "sangokushi-2p",
        "socrates-uchu",
        "socrates-shinken",
        "socrates-kokutan",
        "socrates-twothree",
    }


@pytest.mark.parametrize(
    ("case", "depth"),
    [(c, d) for c in CASES for d in range(1, len(c["counts"]) + 1)],
    ids=lambda x: x["game"] if isinstance(x, dict) else str(x),
)
def test_perft(case: dict[str, Any], depth: int) -> None:
    assert perft(_start(case), depth) == case["counts"][depth - 1]
