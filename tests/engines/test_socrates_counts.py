"""Legal-move counts of fixed Socrates positions, kept as data in tests/data/socrates/."""

from __future__ import annotations

from pathlib import Path

import pytest

from engines.registry import get_game

DATA = Path(__file__).parent.parent / "data" / "socrates"


def _cases() -> list[tuple[str, str, dict[str, str], int]]:
    cases = []
    for stem in ("uchu", "shinken", "kokutan", "twothree"):
        for line in (DATA / f"{stem}.txt").read_text(encoding="utf-8").splitlines():
            if not line.strip() or line.startswith("#"):
                continue
            position, options, count = (part.strip() for part in line.split("|"))
            opts = dict(kv.split("=") for kv in options.split(",")) if options else {}
            cases.append((f"socrates-{stem}", position, opts, int(count)))
    return cases


@pytest.mark.parametrize(("game_id", "position", "options", "count"), _cases())
def test_legal_move_count(game_id: str, position: str, options: dict[str, str], count: int) -> None:
    state = get_game(game_id).from_position(position, options)
    moves = state.legal_moves()
    assert len(moves) == count
    assert state.position() == position
