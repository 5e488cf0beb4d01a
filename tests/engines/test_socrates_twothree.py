"""ツースリー (socrates-twothree): each rule on a small position, written in the game's notation.

Positions are given as piece groups, ``"P e2 f3"`` (Black) and ``"p e6"`` (White).
"""

from __future__ import annotations

import pytest

from engines.core import TERMINAL, PositionError, Termination
from engines.registry import get_game
from engines.socrates.board import SocratesState
from tests.engines.socrates_helpers import board_text, moves, play

GAME = get_game("socrates-twothree")


def setup(*groups: str, side: str = "b", **options: str) -> SocratesState:
    state = GAME.from_position(f"{board_text(*groups)} {side} 0 10", options)
    assert isinstance(state, SocratesState)
    return state


def test_start_and_first_moves() -> None:
    start = GAME.new_game()
    assert start.position() == "10/4pp4/4pp4/4pp4/10/4PP4/4PP4/4PP4/10 b 0 0"
    assert moves(start) == {"e4-e5", "f4-f5"}
    # White answers e4-e5 by jumping over it into the cell it left.
    assert moves(play(start, "e4-e5")) == {"e6-e4", "f6-f5"}


def test_jump_over_one_and_several_enemies() -> None:
    state = setup("P e3", "p e4 e5 f8")
    assert moves(state) == {"e3-e6"}
    state = setup("P e3", "p e4 f8")
    assert moves(state) == {"e3-e5"}


def test_no_jump_over_own_pieces_and_no_chains() -> None:
    assert moves(setup("P e3 e4", "p f8")) == {"e4-e5"}
    # e4 White, e5 empty, e6 White: the jump lands on e5 and stops there.
    assert moves(setup("P e3", "p e4 e6 f8")) == {"e3-e5"}
    # A mixed line cannot be jumped: e4 White, e5 Black.
    assert "e3-e6" not in moves(setup("P e3 e5", "p e4 f8"))


def test_moves_stay_in_the_column_and_the_strip() -> None:
    state = setup("P e8", "p f2")
    assert moves(state) == {"e8-e7"}  # forward is off the strip: only a retreat


def test_retreat_only_when_no_piece_can_go_forward() -> None:
    # e7 is stuck (e8 White, then the end of the strip), but e2 can jump e3: no retreat.
    state = setup("P e2 e7", "p e3 e8 f8")
    assert moves(state) == {"e2-e4"}
    # With retreat=piece the stuck piece may go back.
    per_piece = setup("P e2 e7", "p e3 e8 f8", retreat="piece")
    assert moves(per_piece) == {"e2-e4", "e7-e6"}


def test_retreat_allowed_when_stuck_both_ways() -> None:
    # Black's pieces are all blocked forward: then every piece may go back.
    state = setup("P e6 f7", "p e7 e8 f8")
    assert moves(state) == {"e6-e5", "f7-f6"}
    # With retreat=piece a blocked piece goes back while another goes forward.
    state = setup("P e6 f5", "p e7 e8 f8")
    assert moves(state) == {"f5-f6"}
    per_piece = setup("P e6 f5", "p e7 e8 f8", retreat="piece")
    assert moves(per_piece) == {"f5-f6", "e6-e5"}


def test_backward_jump_over_enemies() -> None:
    state = setup("P e6", "p e5 e7 e8", side="b")
    assert moves(state) == {"e6-e4"}


def test_win_on_all_six_enemy_start_cells() -> None:
    state = setup("P e6 e7 e8 f7 f8 f5", "p e2")
    final = play(state, "f5-f6")
    assert final.current_player() == TERMINAL
    outcome = final.outcome()
    assert outcome is not None and outcome.winners == frozenset({0})
    assert outcome.termination is Termination.RULE


def test_forced_passes_draw() -> None:
    # Column e full: Black e8 cannot go on or jump back; White is blocked by itself.
    state = setup("P e8", "p e2 e3 e4 e5 e6 e7")
    assert moves(state) == {"pass"}
    final = play(state, "pass", "pass")
    outcome = final.outcome()
    assert outcome is not None and outcome.termination is Termination.TWO_PASSES


def test_position_errors() -> None:
    for bad in (
        "P9/10/10/10/10/10/10/10/10 b 0 0",  # off the strip
        "10/10/10/10/10/10/10/4M5/10 b 0 0",  # no marked pieces here
    ):
        with pytest.raises(PositionError):
            GAME.from_position(bad)
