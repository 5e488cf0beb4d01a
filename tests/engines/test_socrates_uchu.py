"""宇宙遊泳 (socrates-uchu): each rule on a small position, written in the game's notation."""

from __future__ import annotations

import pytest

from engines.core import (
    TERMINAL,
    AmbiguousMoveError,
    IllegalMoveError,
    InvalidMoveError,
    PositionError,
    Termination,
)
from engines.registry import get_game
from engines.socrates.board import SocratesState
from tests.engines.socrates_helpers import moves, play

GAME = get_game("socrates-uchu")
EMPTY_ROWS = "10/10/10/10/10/10/10/10/10"


def pos(board: str, side: str = "b", hands: str = "P6M6p6m6", **options: str) -> SocratesState:
    state = GAME.from_position(f"{board} {side} {hands} 0 20", options)
    assert isinstance(state, SocratesState)
    return state


def piece_moves(state: SocratesState, frm: str) -> set[str]:
    """Whole moves (``e5-e6``) of the piece on ``frm``."""
    return {m for m in moves(state) if m.startswith(frm + "-")}


def test_placement_of_both_kinds_until_the_hand_is_empty() -> None:
    start = GAME.new_game()
    assert {"P@e5", "M@e5", "P@a1", "M@j9"} <= moves(start)
    state = pos(EMPTY_ROWS, hands="P0M1p6m6")
    assert "P@e5" not in moves(state) and "M@e5" in moves(state)
    with pytest.raises(IllegalMoveError):
        state.parse_move("P@e5")
    after = play(state, "M@e5")
    assert after.position().split()[2] == "P0M0p6m6"


def test_plain_steps_cross_and_marked_leaps_like_a_knight() -> None:
    # Black plain on d3, Black marked on g3: both on ground.
    state = pos("10/10/10/10/10/10/3P2M3/10/10", hands="P5M5p6m6")
    assert piece_moves(state, "d3") == {"d3-d4", "d3-d2", "d3-c3", "d3-e3"}
    assert piece_moves(state, "g3") == {
        "g3-f5",
        "g3-h5",
        "g3-e4",
        "g3-i4",
        "g3-e2",
        "g3-i2",
        "g3-f1",
        "g3-h1",
    }


def test_plain_king_option_steps_all_eight_ways() -> None:
    state = pos("10/10/10/10/10/10/3P6/10/10", hands="P5M6p6m6", plain="king")
    assert piece_moves(state, "d3") == {
        "d3-d4",
        "d3-d2",
        "d3-c3",
        "d3-e3",
        "d3-c4",
        "d3-e4",
        "d3-c2",
        "d3-e2",
    }


def test_space_walk_stops_before_a_piece_and_does_not_turn() -> None:
    # Black plain on e5 (equator); White on h5.
    state = pos("10/10/10/10/4P2p2/10/10/10/10", hands="P5M6p5m6")
    walk = piece_moves(state, "e5")
    assert {"e5-a5", "e5-b5", "e5-c5", "e5-d5", "e5-f5", "e5-g5"} <= walk
    assert "e5-h5" not in walk  # the walk stops before h5
    assert "e5-i5" not in walk  # no jump either: h5 is not next to e5
    assert "e5-a6" not in walk and "e5-a4" not in walk  # no turning onto the ring
    assert "e5-e7" not in walk  # e6 is ground: no walk off space


def test_space_walk_along_the_ring_from_a_corner() -> None:
    # Black marked on a1: it walks up column a and along row 1, but never round the corner.
    state = pos("10/10/10/10/10/10/10/10/M9", hands="P6M5p6m6")
    walk = piece_moves(state, "a1")
    assert {"a1-a9", "a1-a5", "a1-j1", "a1-e1"} <= walk
    assert "a1-b9" not in walk and "a1-j2" not in walk


def test_walk_also_stops_before_own_piece() -> None:
    state = pos("10/10/10/10/10/10/10/10/M3P5", hands="P5M5p6m6")
    walk = piece_moves(state, "a1")
    assert {"a1-b1", "a1-c1", "a1-d1"} <= walk
    assert "a1-e1" not in walk and "a1-f1" not in walk


def test_jump_over_one_and_several_opponents_in_all_directions() -> None:
    # Black plain on c3; White on d4 and e5 (diagonal line), d3 (row), c4 (column).
    state = pos("10/10/10/10/4p5/2pp6/2Pp6/10/10", hands="P5M6p2m6")
    got = piece_moves(state, "c3")
    assert {"c3-f6", "c3-e3", "c3-c5"} <= got  # over d4 e5; over d3; over c4
    state = pos("10/10/10/10/10/10/2Pp6/10/10", hands="P5M6p5m6")
    assert "c3-e3" in piece_moves(state, "c3")
    state = pos("10/10/10/10/10/10/1pP7/10/10", "b", "P5M6p5m6")
    assert "c3-a3" in piece_moves(state, "c3")  # landing on space is fine


def test_no_jump_over_own_pieces_or_mixed_lines() -> None:
    # c3 Black, d3 Black: no jump. c4 White then c5 Black: no jump either.
    state = pos("10/10/10/10/2P7/2p7/2PP6/10/10", hands="P3M6p5m6")
    got = piece_moves(state, "c3")
    assert "c3-e3" not in got
    assert "c3-c5" not in got and "c3-c6" not in got


def test_one_jump_per_turn_and_landing_must_be_empty() -> None:
    # d3 White, e3 empty, f3 White, g3 empty: c3-e3 only (no chain to g3).
    state = pos("10/10/10/10/10/10/2Pp1p4/10/10", hands="P5M6p4m6")
    got = piece_moves(state, "c3")
    assert "c3-e3" in got and "c3-g3" not in got
    # Landing cell taken: d3 White, e3 White, f3 Black.
    state = pos("10/10/10/10/10/10/2PppP4/10/10", hands="P4M6p4m6")
    assert "c3-f3" not in piece_moves(state, "c3")


def test_jumped_pieces_stay() -> None:
    state = pos("10/10/10/10/10/10/2Pp6/10/10", hands="P5M6p5m6")
    after = play(state, "c3-e3")
    assert after.position().split()[0] == "10/10/10/10/10/10/3pP5/10/10"


@pytest.mark.parametrize(
    ("board", "last"),
    [
        ("10/10/10/10/PPPP6/10/10/10/10", "P@e5"),  # along the equator (space cells)
        ("10/10/10/4M5/4P5/4M5/4P5/10/10", "P@e7"),  # up a column, crossing the equator
        ("10/10/10/10/4P5/10/2P7/1P8/M9", "M@d4"),  # diagonal from the corner
        ("10/10/10/10/10/10/10/10/10", None),
    ],
)
def test_five_in_a_row_in_each_direction(board: str, last: str | None) -> None:
    if last is None:
        # The other diagonal, from j1 up-left.
        state = pos("10/10/10/10/10/6M3/7P2/8P1/9P", hands="P1M5p6m6")
        after = play(state, "P@f5")
    else:
        state = pos(board, hands="P2M3p6m6")
        after = play(state, last)
    assert after.current_player() == TERMINAL
    outcome = after.outcome()
    assert outcome is not None and outcome.termination is Termination.RULE
    assert outcome.winners == frozenset({0})


def test_five_made_by_a_move_and_for_white() -> None:
    state = pos("10/10/10/10/pp1pp5/2p7/10/10/10", "w", "P6M6p1m6")
    after = play(state, "c4-c5")
    outcome = after.outcome()
    assert outcome is not None and outcome.winners == frozenset({1})


def test_four_is_not_enough_and_the_game_goes_on() -> None:
    state = pos("10/10/10/10/PPP7/10/10/10/10", hands="P3M6p6m6")
    after = play(state, "P@d5")
    assert after.outcome() is None and after.current_player() == 1


def test_forced_pass_and_two_passes_draw() -> None:
    # Nothing in hand and nothing on the board: both sides must pass.
    state = pos(EMPTY_ROWS, hands="P0M0p0m0")
    assert moves(state) == {"pass"}
    after = play(state, "pass")
    assert after.outcome() is None
    final = play(after, "pass")
    outcome = final.outcome()
    assert outcome is not None and outcome.termination is Termination.TWO_PASSES


def test_repetition_draw_on_the_fourth_occurrence() -> None:
    state = pos("10/10/10/10/10/10/2P4p2/10/10", hands="P0M0p0m0")
    cycle = ("c3-c4", "h3-h4", "c4-c3", "h4-h3")
    state = play(state, *cycle, *cycle)
    assert state.outcome() is None
    state = play(state, *cycle)
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is Termination.REPETITION


def test_notation_spellings_and_errors() -> None:
    state = pos("10/10/10/10/10/10/2Pp6/10/10", hands="P5M6p5m6")
    assert state.format_move(state.parse_move("c3e3")) == "c3-e3"
    assert state.format_move(state.parse_move("Ｃ３－Ｅ３")) == "c3-e3"
    assert state.format_move(state.parse_move("m@e5")) == "M@e5"
    assert state.display_move(state.parse_move("P@e5")) == "▲P@e5"
    with pytest.raises(AmbiguousMoveError):
        state.parse_move("e5")
    with pytest.raises(IllegalMoveError) as err:
        state.parse_move("c3-g3")
    assert err.value.suggestions
    with pytest.raises(InvalidMoveError):
        state.parse_move("hello")


def test_position_text_round_trip_and_errors() -> None:
    text = "10/10/10/10/4P5/3m6/10/10/10 w P5M6p6m5 0 2"
    assert GAME.from_position(text).position() == text
    for bad in (
        "10/10 b P6M6p6m6 0 0",
        f"{EMPTY_ROWS} x P6M6p6m6 0 0",
        f"{EMPTY_ROWS} b P7M6p6m6 0 0",
        "PPPPPPP3/10/10/10/10/10/10/10/10 b P6M6p6m6 0 0",
    ):
        with pytest.raises(PositionError):
            GAME.from_position(bad)


def test_five_already_on_the_board_wins_after_the_movers_turn() -> None:
    # The spec: five in a row counts after your turn, wherever it stands, not only through the
    # piece just moved. The loaded board already shows Black's five on b3–f3.
    state = GAME.from_position("10/10/7p2/10/10/10/1PPPPP4/10/10 b P1M6p5m6 0 0")
    assert not state.is_over()
    after = play(state, "P@j9")
    outcome = after.outcome()
    assert outcome is not None and outcome.winners == {0}
    assert after.current_player() == TERMINAL
