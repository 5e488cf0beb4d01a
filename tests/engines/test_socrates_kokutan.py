"""黒壇の馬 (socrates-kokutan): each rule on a small position, written in the game's notation.

Positions are given as piece groups, ``"P c3 e3"`` (Black plain), ``"M ..."`` (Black marked),
``"p ..."`` / ``"m ..."`` (White), and turned into the position text.
"""

from __future__ import annotations

import pytest

from engines.core import TERMINAL, IllegalMoveError, PositionError, Termination
from engines.registry import get_game
from engines.socrates.board import (
    CELLS,
    COLS,
    EMPTY,
    board_to_text,
    cell,
    col_of,
    parse_cell,
    row_of,
)
from engines.socrates.kokutan import MOVE_PHASE, KokutanState, jump_path, kinds_of
from tests.engines.playout import random_game
from tests.engines.socrates_helpers import board_text, moves, piece_moves, play

GAME = get_game("socrates-kokutan")


def setup(*groups: str, side: str = "b", phase: str = "move") -> KokutanState:
    state = GAME.from_position(f"{board_text(*groups)} {side} {phase} 0 30")
    assert isinstance(state, KokutanState)
    return state


def test_start_layout() -> None:
    start = GAME.new_game()
    assert start.position() == (
        "10/1p1p1p1p2/2p1p1p1p1/1p1p1p1p2/10/1P1P1P1P2/2P1P1P1P1/1P1P1P1P2/10 b flip 0 0"
    )


def test_flip_phase_ends_on_two_passes_and_black_moves_first() -> None:
    state = play(GAME.new_game(), "pass", "pass")
    assert state.position().split()[2] == "move"
    assert state.current_player() == 0
    assert "c3-c5" in moves(state) and "pass" not in moves(state)


def test_flip_phase_turns_alternate_into_phase_two() -> None:
    state = play(GAME.new_game(), "c3!", "pass")
    assert state.position().split()[2] == "flip-pass"
    state = play(state, "e3!")  # a flip after a pass: the phase goes on
    assert state.position().split()[2] == "flip"
    state = play(state, "pass", "pass")
    assert state.position().split()[2] == "move"
    assert state.current_player() == 1  # Black passed last, so White moves first
    assert all(not m.endswith("!") for m in moves(state))


def test_marked_pieces_never_flip_back_and_flips_only_in_phase_one() -> None:
    state = play(GAME.new_game(), "c3!", "pass")
    with pytest.raises(IllegalMoveError):
        state.parse_move("c3!")
    moving = play(state, "pass")  # White passed, then Black: phase 2
    with pytest.raises(IllegalMoveError):
        moving.parse_move("e3!")


def test_diagonal_forward_steps() -> None:
    state = setup("P e4", "p h8")
    assert piece_moves(state, "e4") == {"d5", "f5"}
    white = setup("P b2", "p e4", side="w")
    assert piece_moves(white, "e4") == {"d3", "f3"}


def test_reflection_off_the_wall() -> None:
    # From c3 over b4 the landing a5 is in the wall: it reflects to c5.
    state = setup("P c3", "p b4 h8")
    assert "c5" in piece_moves(state, "c3")
    assert jump_path(state.board, parse_cell("c3") or 0, parse_cell("c5") or 0) is not None


def test_a_corner_jump_is_impossible() -> None:
    # From c7 over b8 the landing a9 leaves the area both ways: no jump.
    state = setup("P c7", "p b8 h8")
    assert piece_moves(state, "c7") == {"d8"}


def test_jump_over_own_and_enemy_pieces_which_stay() -> None:
    state = setup("P c3 d4", "p h8")
    assert "e5" in piece_moves(state, "c3")
    after = play(state, "c3-e5")
    assert after.board[parse_cell("d4") or 0] == "P"


def test_a_chain_that_ends_forward_after_going_back() -> None:
    # e4 jumps back over f3 to g2, over h3 to i4 (its own row), then over h5 to g6.
    state = setup("P e4", "p f3 h3 h5")
    got = piece_moves(state, "e4")
    assert "g6" in got
    assert "g2" not in got  # behind the start
    assert "i4" not in got  # a chain ending on its own row is refused
    assert got == {"d5", "f5", "g6"}


def test_no_cell_visited_twice() -> None:
    # Four pieces round e5: c3 jumps to e5 and on to g3, g7 or c7; jumping back into e5 or c3
    # again is never allowed, so the search ends and the path has no repeated cell.
    state = setup("P c3", "p d4 f4 d6 f6")
    path = jump_path(state.board, parse_cell("c3") or 0, parse_cell("g7") or 0)
    assert path is not None and len(set(path)) == len(path)
    assert "c3" not in piece_moves(state, "c3")


def test_the_move_is_named_by_its_ends_only() -> None:
    state = setup("P c3", "p d4 f4 d6 f6")
    listed = [m for m in moves(state) if m.startswith("c3-")]
    assert len(listed) == len(set(listed))
    assert {"c3-e5", "c3-g7", "c3-c7"} <= set(listed)


def test_check_obligation() -> None:
    # Black plain c3 is next to White marked d4: in check, and it can move (c3-b4).
    state = setup("P c3 h2", "m d4", "p h8")
    assert state.in_check(0) == [parse_cell("c3")]
    assert {m[:2] for m in moves(state)} == {"c3"}
    # A marked piece is in check next to an enemy plain piece.
    marked = setup("M c3 h2", "p d4 h8")
    assert {m[:2] for m in moves(marked)} == {"c3"}
    # Same faces do not check.
    calm = setup("P c3 h2", "p d4 h8")
    assert {m[:2] for m in moves(calm)} == {"c3", "h2"}


def test_no_check_when_the_checked_piece_cannot_move() -> None:
    # c3 in check by d4 but boxed in: b4 taken, the landings c5 and e5 taken.
    state = setup("P c3 h2", "M b4 c5 e5", "m d4", "p h8")
    assert parse_cell("c3") in state.in_check(0)
    assert piece_moves(state, "c3") == set()
    assert "h2-g3" in moves(state) and "h2-i3" in moves(state)


def test_no_check_in_the_flip_phase() -> None:
    state = setup("P c3 h2", "m d4", "p h8", phase="flip")
    assert moves(state) == {"c3!", "h2!", "pass"}


def test_filling_the_enemy_back_row_wins() -> None:
    state = setup("P b8 d8 f8 g7", "p c3")
    final = play(state, "g7-h8")
    assert final.current_player() == TERMINAL
    outcome = final.outcome()
    assert outcome is not None and outcome.winners == frozenset({0})
    assert outcome.termination is Termination.RULE


def test_forced_pass_in_phase_two() -> None:
    # Black's only piece on i8 cannot move forward: it must pass.
    state = setup("P i8", "p b8")
    assert moves(state) == {"pass"}
    after = play(state, "pass")
    assert after.outcome() is None


def test_position_errors() -> None:
    text = GAME.new_game().position()
    assert GAME.from_position(text).position() == text
    for bad in (
        "P9/10/10/10/10/10/10/10/10 b move 0 0",  # a9 is the wall
        text.replace(" flip ", " fly "),
    ):
        with pytest.raises(PositionError):
            GAME.from_position(bad)


def test_the_kept_bit_form_follows_the_board() -> None:
    """Each move updates the state's bit form instead of reading the board again: after every
    flip, step, jump and pass of random games it is what the board would give."""
    moved = 0
    for seed in range(8):
        states, _ = random_game(GAME, seed)
        for state in states:
            assert isinstance(state, KokutanState)
            assert state.kinds == kinds_of(state.board)
            moved += state.phase == 1
    assert moved > 200


def test_a_mirrored_position_has_the_mirrored_moves() -> None:
    """Seen in a mirror (b↔i), a position's pieces stand on the other colour of cells, which
    generation reads by another table (pieces off the start's colour only occur in hand-made
    positions): both must give the mirror image of each other's moves."""

    def mirror(c: int) -> int:
        return cell(COLS - 1 - col_of(c), row_of(c))

    compared = 0
    for seed in range(6):
        states, _ = random_game(GAME, seed)
        for state in states[::3]:
            assert isinstance(state, KokutanState)
            if state.phase != MOVE_PHASE or state.is_over():
                continue
            board = [EMPTY] * CELLS
            for c, piece in enumerate(state.board):
                if piece != EMPTY:
                    board[mirror(c)] = piece
            side = "bw"[state.turn]
            seen = GAME.from_position(f"{board_to_text(''.join(board))} {side} move 0 30")
            assert isinstance(seen, KokutanState)
            for seat in (0, 1):
                mirrored = {(mirror(m.frm), mirror(m.to)) for m in state.moves_for(seat)}
                assert {(m.frm, m.to) for m in seen.moves_for(seat)} == mirrored
                assert sorted(map(mirror, state.in_check(seat))) == seen.in_check(seat)
            compared += 1
    assert compared > 50
