"""The sandbox plays a puzzle through with the game commands: ``/puzzle``, then ``/legal``,
``/hint`` and ``/move`` without a game go to it (a script can solve one)."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import IN_THREE, a_wrong_move, solver_moves
from tests.helpers import run_script as _run


async def test_a_script_solves_a_puzzle(tmp_path: Path) -> None:
    moves = solver_moves(IN_THREE)
    script = "\n".join(
        [
            "/puzzle rokumentai-999",
            f"/puzzle {IN_THREE.id}",
            "/legal",
            "/hint",
            f"/move {a_wrong_move(IN_THREE)}",
            *(f"/move {m}" for m in moves),
            "/move " + moves[0],
            "/puzzle yosuko",
            "/puzzle quit",
        ]
    )
    code, out = await _run(tmp_path, script + "\n")
    assert code == 0
    assert "✗ There is no puzzle rokumentai-999." in out
    assert f"Puzzle {IN_THREE.id} (Rokumentai" in out and "to play and win in 2" in out
    assert "The winning move is one of these:" in out
    assert "Not this one:" in out
    assert "is right!" in out and "Reply:" in out
    assert f"solved! Puzzle {IN_THREE.id}" in out
    assert "✗ Which game?" in out.split("solved!")[1]  # solved: /move goes to games again
    assert "has no puzzles" in out
    assert "You have no puzzle open" in out
    assert len(list((tmp_path / "out").glob("*.png"))) >= 4
    names = [p.name for p in (tmp_path / "out").glob("*.png")]  # named by what they show
    assert all(n.startswith(("puzzle-", "lesson-")) for n in names), names
