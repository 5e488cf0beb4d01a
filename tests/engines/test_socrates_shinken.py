"""真剣勝負 (socrates-shinken): each rule on a small position, written in the game's notation."""

from __future__ import annotations

import pytest

from engines.core import TERMINAL, IllegalMoveError, PositionError, Termination
from engines.registry import get_game
from engines.socrates.board import SocratesState
from tests.engines.socrates_helpers import moves, piece_moves, play

GAME = get_game("socrates-shinken")


def pos(board: str, side: str = "b", phase: str = "move") -> SocratesState:
    state = GAME.from_position(f"{board} {side} {phase} 0 10")
    assert isinstance(state, SocratesState)
    return state


def test_the_four_flip_turns_then_moves() -> None:
    state = GAME.new_game()
    assert moves(state) == {f"{c}1!" for c in "abcdefghij"}
    state = play(state, "c1!")
    assert moves(state) == {f"{c}9!" for c in "abcdefghij"}
    state = play(state, "h9!")
    assert "c1!" not in moves(state) and "d1!" in moves(state)  # only plain pieces flip
    state = play(state, "d1!", "g9!")
    assert state.current_player() == 0
    assert not any(m.endswith("!") for m in moves(state))
    assert state.position().split()[0] == "ppppppmmpp/10/10/10/10/10/10/10/PPMMPPPPPP"
    # A piece on its home row may run up an empty column, stopping before the enemy.
    assert "b1-b8" in moves(state) and "b1-b9" not in moves(state)


def test_forward_run_sideways_step_and_marked_diagonal() -> None:
    # Black plain on c3, Black marked on g3; nothing else near.
    state = pos("p9/10/10/10/10/10/2P3M3/10/10")
    assert piece_moves(state, "c3") == {"c4", "c5", "c6", "c7", "c8", "c9", "b3", "d3"}
    assert piece_moves(state, "g3") >= {"f4", "h4", "f3", "h3", "g9"}
    assert "f2" not in piece_moves(state, "g3") and "g2" not in piece_moves(state, "g3")


@pytest.mark.parametrize("target", ["e6", "d5", "f5", "d6", "f6"])
def test_one_cell_captures_in_every_direction_a_piece_has(target: str) -> None:
    # Black marked on e5 (equator), White plain on all five cells it reaches in one step.
    state = pos("p9/10/10/3ppp4/3pMp4/10/10/10/P9")
    assert target in piece_moves(state, "e5")
    after = play(state, f"e5-{target}")
    assert after.position().split()[0].count("p") == 5


def test_plain_captures_forward_and_sideways_but_not_diagonally() -> None:
    state = pos("p9/10/10/3ppp4/3pPp4/10/10/10/P9")
    assert piece_moves(state, "e5") == {"e6", "d5", "f5"}


def test_no_capture_on_longer_moves() -> None:
    # Black plain on e2 with White on e6: the run stops at e5, never takes e6.
    state = pos("p9/10/10/4p5/10/10/10/4P5/P9")
    assert "e6" not in piece_moves(state, "e2") and "e5" in piece_moves(state, "e2")
    # Equator slide: Black on b5, White on g5: stops at f5, no capture.
    state = pos("p9/10/10/10/1P4p3/10/10/10/P9")
    assert {"c5", "d5", "e5", "f5"} <= piece_moves(state, "b5")
    assert "g5" not in piece_moves(state, "b5")


def test_no_step_of_any_move_goes_backward() -> None:
    # Black marked on e5, Black plain on a5 (ring and equator): nothing ends below row 5.
    state = pos("p9/10/10/10/P3M5/10/10/10/10")
    for frm in ("e5", "a5"):
        assert all(int(t[1]) >= 5 for t in piece_moves(state, frm)), frm
    # White moves down: a White marked piece on e5 never goes up.
    state = pos("10/10/10/10/4m5/10/10/10/P9", "w")
    assert all(int(t[1]) <= 5 for t in piece_moves(state, "e5"))


def test_equator_slide_is_sideways_any_distance() -> None:
    state = pos("p9/10/10/10/4P5/10/10/10/P9")
    assert {"a5", "b5", "c5", "d5", "f5", "g5", "h5", "i5", "j5"} <= piece_moves(state, "e5")


def test_ring_travel_round_two_corners() -> None:
    # Black marked on b1, White on j8 and a1 empty: b1 goes a1, up column a, along row 9 to j9;
    # the right-hand way up column j stops before j8, and only a one-cell move may capture.
    state = pos("10/9p/10/10/10/10/10/10/1M8")
    got = piece_moves(state, "b1")
    assert "j9" in got  # b1 -> a1 -> a9 -> j9
    assert "j8" not in got  # a long move never captures
    assert {"j1", "j7", "a9", "i9"} <= got
    # A plain piece has no ring travel.
    plain = pos("10/9p/10/10/10/10/10/10/1P8")
    assert "j9" not in piece_moves(plain, "b1") and "d1" not in piece_moves(plain, "b1")


def test_ring_travel_two_corners_with_the_short_way_blocked() -> None:
    # Black marked on b1 with its own piece on c1: the only way round is a1, column a, row 9.
    # j9 is reached round two corners; j8 would need a step back down column j.
    state = pos("10/10/10/10/10/10/10/10/1MP7")
    got = piece_moves(state, "b1")
    assert "j9" in got
    assert "j8" not in got and "j1" not in got
    assert state.parse_move("b1-j9") in state.legal_moves()


def test_ring_travel_never_backward_for_white() -> None:
    # White marked on a5 travels down column a and along row 1, but not back up column j.
    state = pos("10/10/10/10/m9/10/10/10/10", "w")
    got = piece_moves(state, "a5")
    assert {"a1", "e1", "j1"} <= got
    assert "j2" not in got and "a6" not in got


def test_arrival_wins_only_after_the_reply() -> None:
    # Black plain on e8, White far away on a9... it cannot reach e9.
    state = pos("p9/4P5/10/10/10/10/10/10/10")
    after = play(state, "e8-e9")
    assert after.outcome() is None and after.current_player() == 1
    final = play(after, "a9-a8")
    assert final.current_player() == TERMINAL
    outcome = final.outcome()
    assert outcome is not None and outcome.winners == frozenset({0})
    assert outcome.termination is Termination.RULE


def test_arrival_taken_on_the_reply_does_not_win() -> None:
    # White plain on d9 takes the arriving piece sideways.
    state = pos("3p6/4P5/10/10/10/10/10/10/P9")
    after = play(state, "e8-e9")
    final = play(after, "d9-e9")
    assert final.outcome() is None
    assert final.position().split()[0] == "4p5/10/10/10/10/10/10/10/P9"


def test_losing_every_piece_loses() -> None:
    state = pos("10/10/10/10/10/10/10/4p5/4P5")
    final = play(state, "e1-e2")
    outcome = final.outcome()
    assert outcome is not None and outcome.winners == frozenset({0})


def test_flip_of_a_marked_piece_is_illegal_and_position_errors() -> None:
    state = pos("pppppppppp/10/10/10/10/10/10/10/MPPPPPPPPP", phase="flip3")
    with pytest.raises(IllegalMoveError):
        state.parse_move("a1!")
    assert state.format_move(state.parse_move("b1!")) == "b1!"
    for bad in ("10/10/10/10/10/10/10/10/10 b flip9 0 0", "10/10/10/10/10/10/10/10/10 b x 0 0"):
        with pytest.raises(PositionError):
            GAME.from_position(bad)
