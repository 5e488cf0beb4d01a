"""数字将棋 (suji-shogi): rules as the rules file writes them, in the game's own notation."""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path

import pytest

from engines.core import (
    CHANCE,
    SIMULTANEOUS,
    TERMINAL,
    AmbiguousMoveError,
    EngineError,
    IllegalMoveError,
    InvalidMoveError,
    PositionError,
    Termination,
    chance_pick,
    perft,
)
from engines.record import Entry, Record
from engines.registry import get_game
from engines.suji_shogi import GAME, Move, Setup, SujiState

DATA = Path(__file__).parent.parent / "data" / "suji-shogi"

SEED_BLACK = "465/123"
SEED_WHITES = ("362/541", "326/541")
SAMPLE_GAME = [
    "3d3c",
    "3b2c",
    "1d2c",
    "2b2c",
    "1e1d",
    "3a2b",
    "2e3d",
    "2c1c",
    "1d1c",
    "1b1c",
    "5*2c",
]
"""The seed's sample game (実戦譜), moves 1–11, in canonical notation."""
SAMPLE_PIECES = (1, 5, 3, 4, 5, 3, 6, 4, 5, 1, 5)
"""The number of the piece each sample move moves (or drops)."""


def pos(text: str, **options: str) -> SujiState:
    return GAME.from_position(text, options)


def set_up(black: str, white: str, **options: str) -> SujiState:
    s = GAME.new_game(options=options)
    s = s.apply(s.parse_move(black, 0), 0)
    return s.apply(s.parse_move(white, 1), 1)


def play(state: SujiState, moves: list[str]) -> SujiState:
    for text in moves:
        state = state.apply(state.parse_move(text))
    return state


def names(state: SujiState) -> list[str]:
    return [state.format_move(m) for m in state.legal_moves()]


def test_registered() -> None:
    assert get_game("suji-shogi") is GAME
    assert GAME.has_secret_setup and GAME.has_chance
    assert GAME.summary.en and GAME.summary.ja


# --- directions (data) ----------------------------------------------------------------------


def _direction_rows() -> list[tuple[str, int, str, str, set[str]]]:
    rows = []
    for line in (DATA / "directions.txt").read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        head, targets = line.split(":")
        table, piece, side, square = head.split()
        rows.append((table, int(piece), side, square, set(targets.split())))
    return rows


def _lone_piece(piece: int, side: str, square: str) -> str:
    """A position holding one piece (8 = a promoted 5) on ``square``, ``side`` to move."""
    cells = [["."] * 3 for _ in range(5)]
    token = ("v" if side == "w" else "") + ("+5" if piece == 8 else str(piece))
    cells["abcde".index(square[1])][3 - int(square[0])] = token
    return f"{'/'.join(''.join(r) for r in cells)} {side} - - 10"


@pytest.mark.parametrize(("table", "piece", "side", "square", "targets"), _direction_rows())
def test_directions(table: str, piece: int, side: str, square: str, targets: set[str]) -> None:
    s = pos(_lone_piece(piece, side, square), directions=table)
    assert {n[2:4] for n in names(s)} == targets
    assert all(n[:2] == square for n in names(s))


def test_directions_table_is_complete() -> None:
    rows = _direction_rows()
    assert len(rows) == 2 * 7 * 2 * 15


# --- perft ----------------------------------------------------------------------------------


def test_perft_through_the_setup() -> None:
    # Core perft counts each acting player's setups in seat order: 720 × 720 arrangements.
    assert perft(GAME.new_game(), 1) == 720


def _count_rows() -> list[tuple[str, dict[str, str], int]]:
    rows = []
    for line in (DATA / "counts.txt").read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        text, opts, count = (p.strip() for p in line.split("|"))
        options = dict(o.split("=") for o in opts.split())
        rows.append((text, options, int(count)))
    return rows


@pytest.mark.parametrize(("text", "options", "count"), _count_rows())
def test_legal_move_counts(text: str, options: dict[str, str], count: int) -> None:
    s = pos(text, **options)
    assert len(s.legal_moves()) == count
    assert len(set(s.legal_moves())) == count


# --- setup ----------------------------------------------------------------------------------


def test_secret_setup_flow() -> None:
    s = GAME.new_game()
    assert s.current_player() == SIMULTANEOUS
    assert s.acting_players() == (0, 1)
    assert s.hides_moves()
    assert len(s.legal_moves(0)) == len(s.legal_moves(1)) == 720
    # White may send first; the arrangement does not carry the seat.
    s = s.apply(s.parse_move("362/541", 1), 1)
    assert s.acting_players() == (0,)
    assert len(s.legal_moves(1)) == 720  # White may still change theirs
    assert s.position() == "v3v6v2/v5v4v1/.../.../... - - - 0"
    s = s.apply(s.parse_move("４６５／１２３", 0), 0)
    assert s.current_player() == 0
    assert not s.hides_moves()
    assert s.position() == "v3v6v2/v5v4v1/.../123/465 b - - 0"
    assert s.ply == 2


def test_setup_can_be_changed_until_both_are_in() -> None:
    s = GAME.new_game()
    s = s.apply(Setup((4, 6, 5, 1, 2, 3)), 0)
    assert s.acting_players() == (1,)
    assert s.hides_moves()
    s = s.apply(s.parse_move("123/456", 0), 0)  # Black changes their mind
    assert s.acting_players() == (1,) and s.hides_moves()
    s = s.apply(s.parse_move("362/541", 1), 1)
    assert s.current_player() == 0
    assert s.position().endswith("/456/123 b - - 0")  # setups are not plies
    with pytest.raises(IllegalMoveError, match="already set up"):
        s.parse_move("465/123", 0)


def test_setup_errors() -> None:
    s = GAME.new_game()
    with pytest.raises(InvalidMoveError):
        s.parse_move("112/345", 0)
    with pytest.raises(IllegalMoveError, match="say whose"):
        s.apply(Setup((1, 2, 3, 4, 5, 6)))
    with pytest.raises(IllegalMoveError, match="not all set up"):
        s.parse_move("2e2d", 0)
    started = set_up("465/123", "362/541")
    with pytest.raises(IllegalMoveError, match="already set up"):
        started.parse_move("465/123", 0)


def test_setup_record_form() -> None:
    s = set_up("351/624", "123/456")
    # Black: back rank 五 from file 3 to 1 is 3 5 1, front rank 四 is 6 2 4.
    assert s.position().split()[0] == "v1v2v3/v4v5v6/.../624/351"
    assert s.display_move(Setup((3, 5, 1, 6, 2, 4)), "en") == "setup 351/624"


def test_random_setup_is_dealt_by_chance() -> None:
    s = GAME.new_game(options={"setup": "random"})
    assert s.current_player() == CHANCE
    assert not s.hides_moves()
    outcomes = s.chance_outcomes()
    assert len(outcomes) == 720
    assert {p for _, p in outcomes} == {Fraction(1, 720)}
    assert len({m for m, _ in outcomes}) == 720
    s = s.apply(s.parse_move("465/123"))  # Black's first
    assert s.position().startswith(".../.../.../123/465 -")
    assert s.current_player() == CHANCE
    s = s.apply(s.parse_move("362/541"))  # then White's
    assert s.position() == "v3v6v2/v5v4v1/.../123/465 b - - 0"
    assert s.current_player() == 0


def test_random_setup_record_replays() -> None:
    record = Record(
        "suji-shogi",
        2,
        {"setup": "random"},
        "seed",
        (Entry(CHANCE, "465/123"), Entry(CHANCE, "362/541"), Entry(0, "3d3c")),
    )
    assert record.replay().position() == "v3v6v2/v5v4v1/1../.23/465 w - - 1"


def test_secret_setup_record_replays() -> None:
    record = Record(
        "suji-shogi", 2, {}, "", (Entry(1, "362/541"), Entry(0, "465/123"), Entry(0, "3d3c"))
    )
    assert record.replay().position() == "v3v6v2/v5v4v1/1../.23/465 w - - 1"


# --- secrecy --------------------------------------------------------------------------------


@pytest.mark.parametrize("arrangement", ["465/123", "123/456", "654/321"])
def test_observe_hides_the_other_arrangement(arrangement: str) -> None:
    s = GAME.new_game()
    s = s.apply(s.parse_move(arrangement, 0), 0)
    for viewer in (1, None):
        seen = s.observe(viewer)
        assert seen.position() == ".../.../.../???/??? - - - 0"
        assert all(abs(c) in (0, 7) for c in seen.board)
        assert seen.hides_moves()
    assert s.observe(0).position() == f".../.../.../{arrangement[4:]}/{arrangement[:3]} - - - 0"


def test_observe_is_equal_for_different_hidden_arrangements() -> None:
    a = GAME.new_game().apply(Setup((4, 6, 5, 1, 2, 3)), 0)
    b = GAME.new_game().apply(Setup((1, 2, 3, 4, 5, 6)), 0)
    a = a.apply(Setup((3, 6, 2, 5, 4, 1)), 1)
    assert a.current_player() == 0  # both in: revealed
    a2 = GAME.new_game().apply(Setup((4, 6, 5, 1, 2, 3)), 0)
    assert a2.observe(1) == b.observe(1)
    assert a2.observe(None) == b.observe(None)
    assert a2.observe(1).position() == b.observe(1).position()
    w1 = GAME.new_game().apply(Setup((3, 6, 2, 5, 4, 1)), 1)
    w2 = GAME.new_game().apply(Setup((3, 2, 6, 5, 4, 1)), 1)
    assert w1.observe(0) == w2.observe(0)
    assert w1.observe(0).position() == "v?v?v?/v?v?v?/.../.../... - - - 0"
    # The owner still sees their own pieces, and may still set up from the masked view.
    assert w1.observe(1).position() == "v3v6v2/v5v4v1/.../.../... - - - 0"
    assert len(w1.observe(0).legal_moves(0)) == 720


def test_masked_position_text_round_trips() -> None:
    s = GAME.new_game().apply(Setup((4, 6, 5, 1, 2, 3)), 0).observe(1)
    assert GAME.from_position(s.position()) == s


# --- play -----------------------------------------------------------------------------------


def test_captures_go_to_hand_as_numbers() -> None:
    s = pos("v3../.v+4./.5./.../..v6 b 1 - 20")
    s = play(s, ["2c2b"])
    assert s.position() == "v3../.5./.../.../..v6 w 14 - 21"
    assert s.hands[0] == (1, 0, 0, 1, 0, 0)


def test_drop_and_drop_errors() -> None:
    s = pos("v3../.../.5./.../..v6 b 1 - 20")
    assert s.display_move(s.parse_move("1*2d")) == "▲2四1打"
    with pytest.raises(IllegalMoveError, match="no 2 in hand"):
        s.parse_move("2*2d")
    with pytest.raises(IllegalMoveError, match="occupied"):
        s.parse_move("1*1e")


# --- winning --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "move", "winner"),
    [
        ("v3v6./.5./.../.../..v6 b 1 - 20", "2b2a", 0),  # 1 + 6
        ("v3v6./.5./.../.../..v6 b 1 - 20", "2b2a+", 0),  # 1 + 6, promoting
        (".../.v4./.5./.../..v6 b 12 - 20", "2c2b", 0),  # 1 + 2 + 4
        (".../.v1./.5./.../..v6 b 33 - 20", "2c2b", 0),  # 3 + 3 + 1
        (".../.v+3./.5./.../..v6 b 4 - 20", "2c2b", 0),  # a captured 8 counts as 3: 3 + 4
        (".../.v5./.3./.../..1 w 2 4 20", "2b2c", 1),  # White: 4 + 3
    ],
)
def test_sum_of_seven_wins(text: str, move: str, winner: int) -> None:
    s = play(pos(text), [move])
    out = s.outcome()
    assert out is not None and out.winners == {winner}
    assert out.termination is Termination.RULE
    assert s.current_player() == TERMINAL
    assert s.legal_moves() == ()
    assert s.position().endswith(f" win-{'bw'[winner]}")


@pytest.mark.parametrize(
    ("text", "move"),
    [
        (".../.v3./.5./.../..v6 b 12 - 20", "2c2b"),  # 1, 2, 3: at most 6
        (".../.v+5./.5./.../..v6 b 4 - 20", "2c2b"),  # a captured 8 is its 5: 4 + 5 = 9
        (".../.v5./.3./4../..v6 b 1 - 20", "2c2b"),  # 3 and 4 on the board do not count
        (".../.../.3./4../..v6 b 16 - 20", "1*2b"),  # a drop never wins
    ],
)
def test_no_win(text: str, move: str) -> None:
    assert play(pos(text), [move]).outcome() is None


def test_position_with_seven_in_hand_is_not_decided() -> None:
    s = pos(".../.../.3./4../..v6 w 34 - 20")
    assert s.outcome() is None


def test_no_legal_move_loses() -> None:
    # Black's only piece is a 1 on the far rank (it cannot move) and its hand is empty.
    s = pos("1../.../.../.../..v6 b - - 20")
    out = s.outcome()
    assert out is not None and out.winners == {1}
    assert out.termination is Termination.NO_MOVES


# --- promotion ------------------------------------------------------------------------------


def test_promotion_is_a_choice_on_reaching_the_far_rank() -> None:
    s = pos(".../.5./.../.../..v6 b - - 20")
    assert names(s) == ["2b2a", "2b2a+", "2b3a", "2b3a+", "2b1a", "2b1a+", "2b3c", "2b1c"]
    promoted = play(s, ["2b2a+"])
    assert promoted.position() == ".+5./.../.../.../..v6 w - - 21"
    plain = play(s, ["2b2a"])
    assert plain.position() == ".5./.../.../.../..v6 w - - 21"
    assert s.display_move(s.parse_move("2b2a+")) == "▲2一5成(22)"
    assert s.display_move(s.parse_move("2b2a")) == "▲2一5不成(22)"
    assert s.display_move(s.parse_move("2b3c")) == "▲3三5(22)"


def test_promotion_moving_along_the_far_rank() -> None:
    s = pos(".6./.../.../.../..v6 b - - 20")
    assert "2a1a+" in names(s) and "2a1a" in names(s)


def test_white_promotes_on_rank_five() -> None:
    s = pos("v1../.../.../.v6./... w - - 20")
    assert "2d2e+" in names(s) and "2d2e" in names(s) and "2d2c" in names(s)
    assert s.display_move(s.parse_move("2d2e+")) == "△2五6成(24)"


def test_promoted_piece_moves_all_ways_and_shows_8() -> None:
    s = pos(".../.+1./.../.../..v6 b - - 20")
    assert sorted(names(s)) == sorted(
        ["2b2a", "2b3a", "2b1a", "2b3b", "2b1b", "2b3c", "2b1c", "2b2c"]
    )
    assert s.display_move(s.parse_move("2b2a")) == "▲2一8(22)"
    assert s.parse_move("2一8(22)") == s.parse_move("2b2a")
    with pytest.raises(IllegalMoveError, match="already promoted"):
        s.parse_move("2b2a+")


def test_a_one_that_declines_is_stuck() -> None:
    s = play(pos(".../.1./.../.../..v6 b - - 20"), ["2b2a", "1e1d"])
    assert all(not n.startswith("2a") for n in names(s))


def test_promotion_off() -> None:
    s = pos(".../.5./.../.../..v6 b - - 20", promotion="off")
    assert names(s) == ["2b2a", "2b3a", "2b1a", "2b3c", "2b1c"]
    with pytest.raises(IllegalMoveError, match="Promotion is off"):
        s.parse_move("2b2a+")
    assert s.display_move(s.parse_move("2b2a")) == "▲2一5(22)"


def test_drop_on_the_far_rank_does_not_promote_and_cannot_move() -> None:
    s = pos(".../.../.../.../..v6 b 1 - 20")
    assert "1*2a" in names(s)
    assert not any(n.endswith("+") for n in names(s))
    with pytest.raises(InvalidMoveError):
        s.parse_move("1*2a+")
    s = play(s, ["1*2a", "1e1d"])
    assert s.position() == ".1./.../.../..v6/... b - - 22"
    # The dropped 1 has no step; Black, with an empty hand, has no legal move and loses.
    assert names(s) == []
    out = s.outcome()
    assert out is not None and out.winners == {1}


def test_non_far_rank_promotion_is_illegal() -> None:
    s = pos(".../.../.5./.../..v6 b - - 20")
    with pytest.raises(IllegalMoveError, match="far rank"):
        s.parse_move("2c2b+")


# --- notation -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "spelling",
    [
        "2e2d",
        "2E2D",
        "２ｅ２ｄ",
        "2五2四",
        "２五２四",
        "▲2四5(25)",
        "2四5(25)",
        "▲２四５（２５）",
        "2四5",
        "■2四5",
        "2e-2d",
    ],
)
def test_move_spellings(spelling: str) -> None:
    s = pos("v3../.../.../.../.5v1 b - - 20")
    assert s.format_move(s.parse_move(spelling)) == "2e2d"


@pytest.mark.parametrize("spelling", ["5*2c", "５＊２ｃ", "▲2三5打", "2三5打", "2三5", "5*2三"])
def test_drop_spellings(spelling: str) -> None:
    s = pos("v3../.../.../.../..v6 b 5 - 20")
    assert s.format_move(s.parse_move(spelling)) == "5*2c"
    assert s.display_move(s.parse_move(spelling)) == "▲2三5打"


@pytest.mark.parametrize(
    ("spelling", "canonical"),
    [
        ("2b2a+", "2b2a+"),
        ("2二2一成", "2b2a+"),
        ("2一5成(22)", "2b2a+"),
        ("2一5成", "2b2a+"),
        ("2b2a", "2b2a"),
        ("2b2a=", "2b2a"),
        ("2一5不成(22)", "2b2a"),
        ("2一5不成", "2b2a"),
    ],
)
def test_promotion_spellings(spelling: str, canonical: str) -> None:
    s = pos(".../.5./.../.../..v6 b - - 20")
    assert s.format_move(s.parse_move(spelling)) == canonical


def test_kifu_without_promotion_choice_is_ambiguous() -> None:
    s = pos(".../.5./.../.../..v6 b - - 20")
    with pytest.raises(AmbiguousMoveError) as exc:
        s.parse_move("2一5")
    assert set(exc.value.suggestions) == {"2b2a", "2b2a+"}


def test_kifu_with_two_candidates_is_ambiguous() -> None:
    s = pos(".../5.5/.../.../..v6 b - - 20")
    with pytest.raises(AmbiguousMoveError) as exc:
        s.parse_move("2三5")
    assert set(exc.value.suggestions) == {"3b2c", "1b2c"}
    assert s.format_move(s.parse_move("2三5(32)")) == "3b2c"


def test_kifu_prefers_the_step_over_the_drop() -> None:
    s = pos(".../.../.../.5./..v6 b 5 - 20")
    assert s.format_move(s.parse_move("2三5")) == "2d2c"
    assert s.format_move(s.parse_move("2三5打")) == "5*2c"


def test_wrong_mark_is_illegal() -> None:
    s = pos(".../.../.../.5./..v6 b - - 20")
    with pytest.raises(IllegalMoveError, match="White"):
        s.parse_move("△2三5(24)")


@pytest.mark.parametrize(
    ("text", "error", "message"),
    [
        ("hello", InvalidMoveError, "not a move I can read"),
        ("2d2b", IllegalMoveError, "cannot go to 2b"),
        ("3d3c", IllegalMoveError, "no piece of yours on 3d"),
        ("1e1d", IllegalMoveError, "no piece of yours"),
        ("2d2c+", IllegalMoveError, "far rank"),
        ("2三4", IllegalMoveError, "no 4 of yours"),
        ("4d4c", InvalidMoveError, "not a move"),
        ("", InvalidMoveError, "empty"),
    ],
)
def test_errors_say_what_was_wrong(text: str, error: type[EngineError], message: str) -> None:
    s = pos(".../.../.../.5./..v6 b - - 20")
    with pytest.raises(error, match=message) as exc:
        s.parse_move(text)
    if text:
        assert exc.value.text.ja


def test_illegal_step_suggests_close_moves() -> None:
    s = pos(".../.../.../.5./..v6 b - - 20")
    with pytest.raises(IllegalMoveError) as exc:
        s.parse_move("2d2b")
    assert exc.value.suggestions and "2d2c" in exc.value.suggestions


def test_not_your_turn() -> None:
    s = pos(".../.../.../.5./..v6 b - - 20")
    assert s.legal_moves(1) == ()
    with pytest.raises(IllegalMoveError, match="Black's turn"):
        s.apply(Move(11, 14), 1)


# --- position text --------------------------------------------------------------------------


def test_position_round_trip_of_a_played_game() -> None:
    s = play(set_up(SEED_BLACK, "362/541", directions="sample"), SAMPLE_GAME)
    text = s.position()
    assert text == ".v6v2/.v3./15v1/62./4.. w 4 35 11"  # 11 plies after the two setups
    assert GAME.from_position(text, s.options()) == s


@pytest.mark.parametrize(
    "text",
    [
        "",
        ".../.../.../... b - - 1",
        "..../.../.../.../... b - - 1",
        ".../.../.../.../... x - - 1",
        ".../.../.../.../... b 7 - 1",
        ".../.../.../.../... b - - one",
        "111/.../.../.../... b - - 1",
        ".../.../.1./.../... - - - 0",
        ".../.../.../.../..? b - - 1",
        ".../.../.../.../... b - - 1 win-x",
        ".../.../.../.../123 - - - 0",
    ],
)
def test_bad_positions(text: str) -> None:
    with pytest.raises(PositionError):
        GAME.from_position(text)


# --- repetition and cap ---------------------------------------------------------------------


def test_repetition_draw_on_the_fourth_occurrence() -> None:
    s = pos("6../.../.../.../..v6 b - - 20")
    shuffle = ["3a2a", "1e2e", "2a3a", "2e1e"]
    s = play(s, shuffle * 2)
    assert s.outcome() is None  # the start position has occurred three times
    s = play(s, shuffle)
    out = s.outcome()
    assert out is not None and out.is_draw and out.termination is Termination.REPETITION
    s3 = play(pos("6../.../.../.../..v6 b - - 20", repetition="3"), shuffle * 2)
    assert s3.outcome() is not None
    off = play(pos("6../.../.../.../..v6 b - - 20", repetition="off"), shuffle * 5)
    assert off.outcome() is None


def test_cap() -> None:
    s = play(pos("6../.../.../.../..v6 b - - 299", cap="300"), ["3a2a"])
    out = s.outcome()
    assert out is not None and out.termination is Termination.CAP
    assert play(pos("6../.../.../.../..v6 b - - 299", cap="off"), ["3a2a"]).outcome() is None


def test_win_beats_cap() -> None:
    s = play(pos(".../.v6./.5./.../..v6 b 1 - 299", cap="300"), ["2c2b"])
    out = s.outcome()
    assert out is not None and out.termination is Termination.RULE


def test_options_resolved() -> None:
    s = GAME.new_game(options={"directions": "sample"})
    assert s.options() == {
        "cap": "600",
        "directions": "sample",
        "promotion": "on",
        "repetition": "4",
        "setup": "secret",
    }


# --- the seed's sample game -----------------------------------------------------------------


@pytest.mark.parametrize("white", SEED_WHITES)
def test_sample_game_replays_with_the_sample_directions(white: str) -> None:
    s = set_up(SEED_BLACK, white, directions="sample")
    kifu = []
    for text in SAMPLE_GAME:
        move = s.parse_move(text)
        kifu.append(s.display_move(move))
        s = s.apply(move)
        assert s.outcome() is None
    assert kifu == [
        "▲3三1(34)",
        "△2三5(32)",
        "▲2三3(14)",
        "△2三4(22)",
        "▲1四5(15)",
        "△2二3(31)",
        "▲3四6(25)",
        "△1三4(23)",
        "▲1三5(14)",
        "△1三1(12)",
        "▲2三5打",
    ]
    assert s.hands == ((0, 0, 0, 1, 0, 0), (0, 0, 1, 0, 1, 0))


@pytest.mark.parametrize("white", SEED_WHITES)
def test_sample_game_kifu_parses_back(white: str) -> None:
    s = set_up(SEED_BLACK, white, directions="sample")
    for text in SAMPLE_GAME:
        move = s.parse_move(text)
        assert s.parse_move(s.display_move(move)) == move
        s = s.apply(move)


@pytest.mark.parametrize("white", SEED_WHITES)
def test_sample_game_moves_under_the_default_table(white: str) -> None:
    """Moves of 1, 5 and 6 are legal with the default directions; those of 3 and 4 are not."""
    s = set_up(SEED_BLACK, white, directions="sample")
    for text, piece in zip(SAMPLE_GAME, SAMPLE_PIECES, strict=True):
        default = GAME.from_position(s.position(), {"directions": "default"})
        move = s.parse_move(text)
        assert (move in default.legal_moves()) == (piece not in (3, 4)), text
        s = s.apply(move)


@pytest.mark.parametrize("white", SEED_WHITES)
def test_sample_game_piece_2_line_is_legal_by_default(white: str) -> None:
    """The author's note after move 8: ■2 could take □4 (2d1c); legal in both tables."""
    s = play(set_up(SEED_BLACK, white, directions="sample"), SAMPLE_GAME[:8])
    for table in ("default", "sample"):
        t = GAME.from_position(s.position(), {"directions": table})
        assert "2d1c" in names(t)
        # ... and □1 takes it back (1b1c).
        assert "1b1c" in names(play(t, ["2d1c"]))


@pytest.mark.parametrize("white", SEED_WHITES)
def test_sample_game_every_white_reply_allows_seven(white: str) -> None:
    s = play(set_up(SEED_BLACK, white, directions="sample"), SAMPLE_GAME)
    assert s.current_player() == 1
    replies = s.legal_moves()
    assert replies
    for reply in replies:
        after = s.apply(reply)
        assert after.outcome() is None
        outcomes = [after.apply(m).outcome() for m in after.legal_moves()]
        assert any(o is not None and o.winners == {0} for o in outcomes), s.format_move(reply)


@pytest.mark.parametrize(
    "options",
    [{}, {"directions": "sample"}, {"promotion": "off"}, {"setup": "random"}],
)
def test_random_playouts_round_trip(options: dict[str, str]) -> None:
    """Every legal move's canonical and kifu forms read back; every position text too."""
    for seed in range(6):
        rng = random.Random(seed)
        s = GAME.new_game(options=options)
        while not s.is_over() and s.ply < 80:
            p = s.current_player()
            if p == CHANCE:
                move, player = chance_pick(s, seed, s.ply), None
            else:
                player = rng.choice(s.acting_players()) if p == SIMULTANEOUS else p
                move = rng.choice(s.legal_moves(player))
            if p >= 0:
                for m in s.legal_moves():
                    assert s.parse_move(s.format_move(m)) == m
                    assert s.parse_move(s.display_move(m)) == m
            s = s.apply(move, player)
            assert GAME.from_position(s.position(), s.options()).position() == s.position()


def test_setup_with_its_record_words() -> None:
    s = GAME.new_game()
    assert s.parse_move("Black setup 351/624", 0) == Setup((3, 5, 1, 6, 2, 4))
    assert s.parse_move("３５１６２４", 1) == Setup((3, 5, 1, 6, 2, 4))


def test_setups_are_not_plies_for_the_cap_or_the_move_number() -> None:
    s = GAME.new_game(options={"cap": "300"})
    for arrangement in ("465/123", "123/456", "465/123"):  # Black changes their mind twice
        s = s.apply(s.parse_move(arrangement, 0), 0)
    s = s.apply(s.parse_move("362/541", 1), 1)
    assert s.ply == 4 and s.turns == 0 and s.position().endswith(" b - - 0")
    s = play(s, ["3d3c"])
    assert s.ply == 5 and s.turns == 1
    # At the boundary: the 300th ply of play draws, setups or not.
    s = pos("v3v6v2/v5v4v1/.../123/465 b - - 299", cap="300")
    s = play(s, ["3d3c"])
    outcome = s.outcome()
    assert s.turns == 300 and outcome is not None and outcome.termination is Termination.CAP
    s = pos("v3v6v2/v5v4v1/.../123/465 b - - 298", cap="300")
    assert not play(s, ["3d3c"]).is_over()


def test_random_setup_deals_are_not_plies() -> None:
    s = GAME.new_game(options={"setup": "random"})
    s = s.apply(s.parse_move("465/123"))
    s = s.apply(s.parse_move("362/541"))
    assert s.ply == 2 and s.turns == 0
