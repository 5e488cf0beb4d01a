"""三国志三人将棋: one test per rule, written in the rules file's notation (cells A1..I9)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engines.core import TERMINAL, IllegalMoveError, InvalidMoveError, PositionError
from engines.registry import get_game
from engines.sangokushi import (
    CELL_OF,
    NAMES,
    ROWS,
    SangokushiState,
    frame_turn,
    turn_cell,
)

THREE = get_game("sangokushi")
TWO = get_game("sangokushi-2p")
DATA = Path(__file__).parent.parent / "data" / "sangokushi"


def setup(
    pieces: dict[str, str],
    to_move: int = 0,
    players: int = 3,
    hands: str | None = None,
    return_to: str = "-",
    checked_by: str | None = None,
    last: str = "-:",
    options: dict[str, str] | None = None,
) -> SangokushiState:
    """A position from ``{"E5": "H0", ...}`` (piece letter + seat), through the position text."""
    rows = []
    for row in reversed(ROWS):
        rows.append("".join(pieces.get(n, ".") for n in NAMES if n[0] == row))
    text = " ".join(
        (
            "/".join(rows),
            hands or "/".join(["-"] * players),
            str(to_move),
            return_to,
            checked_by or "-" * players,
            last,
            "0",
        )
    )
    game = THREE if players == 3 else TWO
    state = game.from_position(text, options, players)
    assert isinstance(state, SangokushiState)
    return state


def play(state: SangokushiState, *moves: str) -> SangokushiState:
    for text in moves:
        new = state.apply(state.parse_move(text))
        assert isinstance(new, SangokushiState)
        state = new
    return state


def targets(state: SangokushiState, cell: str) -> set[str]:
    src = CELL_OF[cell]
    return {NAMES[m.dst] for m in state.legal_moves() if m.src == src and not m.promote}


def turned(cell: str, players: int, seat: int) -> str:
    return NAMES[turn_cell(CELL_OF[cell], frame_turn(players, seat))]


# Generals parked where they block no line through the test cells.
GENERALS = {"A3": "G0", "G3": "G1", "G9": "G2"}


def seat_view(pieces: dict[str, str], seat: int, players: int = 3) -> dict[str, str]:
    """Turn a seat-0 picture into ``seat``'s frame: cells rotate, owners shift by ``seat``."""
    out = {}
    for cell, piece in pieces.items():
        owner = (int(piece[-1]) + seat) % players
        out[turned(cell, players, seat)] = f"{piece[:-1]}{owner}"
    return out


# --- pieces -------------------------------------------------------------------------------

PIECE_CASES = [
    # (piece, cell, extra pieces in seat 0's frame, expected targets in seat 0's frame)
    ("G", "D5", {}, "C4 C5 D4 D6 E5 E6"),
    ("+P", "E5", {}, "D4 D5 E4 E6 F5 F6"),
    ("P", "E5", {}, "F5 F6"),
    ("P", "I5", {}, ""),
    ("P", "E1", {}, "F2"),
    ("H", "E5", {}, "A1 B2 C3 D4 F6 G7 H8 I9 F5 G5 H5 I5 D5 C5 B5 A5"),
    ("H", "A1", {}, "B1 C1 D1 E1 B2 C3 D4 E5 F6 G7 H8 I9"),
    # blocked by a friend (stops before) and an enemy (captured, stops there)
    ("H", "E5", {"G7": "P0", "C5": "P1"}, "A1 B2 C3 D4 F6 F5 G5 H5 I5 D5 C5"),
    ("L", "E5", {}, "D4 D5 F5 F6 E1 E2 E3 E4 E6 E7 E8 E9"),
    ("L", "E5", {"E3": "P1", "E7": "P0"}, "D4 D5 F5 F6 E3 E4 E6"),
    ("L", "A1", {}, "B1 B2 A2"),  # the slide stops before its own general on A3
    ("L", "I7", {}, "I6 I5 I8 I9 H6 H7"),
    # the archer leaps over whatever stands between
    ("B", "E5", {}, "C4 D3 D6 F4 F7 G6"),
    ("B", "E5", {n: "P1" for n in ("D4", "D5", "E4", "E6", "F5", "F6")}, "C4 D3 D6 F4 F7 G6"),
    ("B", "A1", {}, "B3 C2"),
    ("B", "I9", {}, "H7 G8"),
]


@pytest.mark.parametrize("seat", [0, 1, 2])
@pytest.mark.parametrize(("piece", "cell", "extra", "expected"), PIECE_CASES)
def test_piece_moves_in_every_seat_frame(
    seat: int, piece: str, cell: str, extra: dict[str, str], expected: str
) -> None:
    generals = {c: g for c, g in GENERALS.items() if not (piece == "G" and g == "G0")}
    pieces = {**generals, **extra, cell: f"{piece}0"}
    state = setup(seat_view(pieces, seat), to_move=seat)
    want = {turned(c, 3, seat) for c in expected.split()}
    assert targets(state, turned(cell, 3, seat)) == want


def test_seat_frames_are_turns_of_seat_zero() -> None:
    assert [turned("A1", 3, s) for s in range(3)] == ["A1", "I5", "E9"]
    assert [turned("A5", 3, s) for s in range(3)] == ["A5", "E1", "I9"]
    assert turned("A1", 2, 1) == "I9"
    # seat 1's pawn goes forward toward the lower right, seat 2's toward the lower left
    assert targets(setup({**GENERALS, "E5": "P1"}, to_move=1), "E5") == {"D5", "E6"}
    assert targets(setup({**GENERALS, "E5": "P2"}, to_move=2), "E5") == {"D4", "E4"}


def test_spear_forward_option() -> None:
    state = setup({**GENERALS, "E5": "L0"}, options={"spear": "forward"})
    assert targets(state, "E5") == {"F5", "F6", "E1", "E2", "E3", "E4", "E6", "E7", "E8", "E9"}


def test_archer_line_option() -> None:
    state = setup({**GENERALS, "E5": "B0", "E6": "P1"}, options={"archer": "line"})
    assert targets(state, "E5") == {"C3", "C5", "E3", "E7", "G5", "G7"}
    # with the start layout, 魏's archer on B1 can take 蜀's archer on D1 at once
    start = THREE.new_game(3, {"archer": "line"})
    assert "BB1-D1" in {start.format_move(m) for m in start.legal_moves()}
    assert start.board[CELL_OF["D1"]] == 4 + 8  # 蜀's archer


def test_no_move_onto_own_piece() -> None:
    state = setup({"D5": "G0", "E6": "P0", "D4": "P2", "G3": "G1", "G9": "G2"})
    assert targets(state, "D5") == {"C4", "C5", "D4", "D6", "E5"}


# --- start, perft, counts -----------------------------------------------------------------


def test_start_layout() -> None:
    state = THREE.new_game()
    text = state.position()
    assert text.endswith("/B0P0P0P0P0B0/L0H0G0H0L0 -/-/- 0 - --- -: 0")
    board = {NAMES[i]: c for i, c in enumerate(state.board) if c}
    assert len(board) == 33
    assert state.general_cell(1) == CELL_OF["G3"] and state.general_cell(2) == CELL_OF["G9"]
    two = TWO.new_game()
    assert two.position().startswith("L1H1G1H1L1/B1P1P1P1P1B1/")


def _count_lines() -> list[tuple[str, str, int]]:
    out = []
    for line in (DATA / "counts.txt").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            game_id, text, count = line.split("|")
            out.append((game_id.strip(), text.strip(), int(count)))
    return out


@pytest.mark.parametrize(("game_id", "text", "count"), _count_lines())
def test_legal_move_counts(game_id: str, text: str, count: int) -> None:
    state = get_game(game_id).from_position(text)
    assert len(state.legal_moves()) == count
    assert state.position() == text


# --- turn order (王手) ----------------------------------------------------------------------


def test_single_check_jumps_and_returns() -> None:
    start = setup({"A3": "G0", "B2": "H0", "G3": "G1", "G9": "G2"})
    state = play(start, "HB2-C3")
    assert state.last_checks == (1,) and state.in_check == {1}
    assert state.to_move == 1 and state.return_to == 0
    assert state.announcement("en") == "Check (王手) on Shu: Shu moves next, then back to Wei."
    assert state.announcement("ja") == "王手：蜀の手番、その後魏に戻ります。"
    state = play(state, "GG3-G4")
    assert state.to_move == 0 and state.return_to == -1  # back to 魏, not on to 呉
    assert state.announcement("en") == "The turn returns to Wei."
    state = play(state, "HC3-B2")
    assert state.to_move == 1 and state.announcement("en") is None  # clockwise again


def test_check_answered_with_a_new_check() -> None:
    start = setup({"A3": "G0", "B2": "H0", "G3": "G1", "E2": "P1", "E4": "G2"})
    state = play(start, "HB2-C3")
    assert state.to_move == 1 and state.return_to == 0
    state = play(state, "PE2-E3")  # blocks the cavalry and checks 呉
    assert state.last_checks == (2,) and state.to_move == 2 and state.return_to == 1
    state = play(state, "GE4-F5")
    assert state.to_move == 1 and state.return_to == -1  # back to 蜀, who checked last


def test_double_check_goes_on_clockwise() -> None:
    start = setup({"A3": "G0", "G3": "G1", "G7": "G2"}, hands="H/-/-")
    state = play(start, "H*C3")
    assert state.last_checks == (1, 2) and state.in_check == {1, 2}
    assert state.to_move == 1 and state.return_to == -1
    assert "clockwise" in (state.announcement("en") or "")
    state = play(state, "GG3-G4")
    # 呉 is still in check from the same cavalry: not a new check, so plain clockwise order
    assert state.last_checks == () and state.to_move == 2 and state.in_check == {2}
    assert all(2 not in play(state, state.format_move(m)).in_check for m in state.legal_moves())


def test_a_moved_piece_that_already_checked_keeps_its_check() -> None:
    # The spec's example: 魏's cavalry on D5 already attacks 呉's general on G5 and still does
    # from F5, so S is empty and play goes on clockwise to 蜀 (the piece keeps its identity).
    text = (
        "...../....../G1.G2..../......../........./....H0.../......./....../..G0.."
        " -/-/- 0 - --- -: 0"
    )
    start = THREE.from_position(text)
    assert start.in_check == {2}
    state = play(start, "HD5-F5")
    assert state.last_checks == () and state.in_check == {2}
    assert state.to_move == 1 and state.return_to == -1
    assert state.checked_by == (-1, -1, -1) and state.announcement("en") is None


def test_a_moved_piece_that_checks_a_second_general_checks_only_that_one() -> None:
    # The cavalry on B2 already attacks 呉's general on G7; from C3 it also attacks 蜀's on G3.
    start = setup({"A3": "G0", "B2": "H0", "G3": "G1", "G7": "G2"})
    assert start.in_check == {2}
    state = play(start, "HB2-C3")
    assert state.last_checks == (1,) and state.in_check == {1, 2}
    assert state.to_move == 1 and state.return_to == 0


def test_discovered_check_between_others_counts_as_the_movers() -> None:
    start = setup({"A5": "G0", "B2": "H0", "B1": "H1", "G3": "G1", "B4": "G2"})
    state = play(start, "HB2-C2")  # uncovers 蜀's cavalry on 呉's general
    assert state.last_checks == (2,) and state.to_move == 2 and state.return_to == 0
    assert state.checked_by == (-1, -1, 0)


def test_capture_of_a_general_after_a_double_check() -> None:
    start = setup({"A5": "G0", "B2": "H0", "B1": "H1", "G3": "G1", "B4": "G2"})
    state = play(start, "HB2-C3")  # checks 蜀 and uncovers 蜀's cavalry on 呉
    assert state.last_checks == (1, 2) and state.to_move == 1
    # 蜀 is in check, but taking a general is always legal: 蜀 wins at once
    state = play(state, "HB1-B4")
    assert state.current_player() == TERMINAL
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == {1}
    assert "capturing" in outcome.text.en and state.legal_moves() == ()
    again = THREE.from_position(state.position())
    assert again == state and again.outcome() == outcome


def test_own_general_may_not_stay_in_check() -> None:
    state = setup({"B4": "G0", "B2": "H0", "B1": "H1", "G3": "G1", "G9": "G2"})
    with pytest.raises(IllegalMoveError) as err:
        state.parse_move("HB2-C3")  # pinned: would expose the general
    assert "in check" in err.value.text.en
    assert err.value.suggestions
    # in check from 蜀's cavalry on D3 (its line D3-C3-B3-A3): B3 stays on the line
    state = setup({"A3": "G0", "D3": "H1", "G3": "G1", "G9": "G2"})
    assert state.in_check == {0}
    assert targets(state, "A3") == {"A2", "A4", "B4"}


def test_stepping_into_an_attack_is_rejected() -> None:
    # 蜀's cavalry slides along its own oblique lines (seen from 魏: E-W and NW-SE): C2-B2-A2
    state = setup({"A3": "G0", "C2": "H1", "G3": "G1", "G9": "G2"})
    assert state.in_check == frozenset()
    assert targets(state, "A3") == {"A4", "B3", "B4"}


def test_mate_gives_the_win_to_the_last_checker() -> None:
    start = setup({"A3": "G0", "H8": "L0", "I5": "G1", "H4": "P1", "H5": "P1", "E9": "G2"})
    state = play(start, "LH8-I8")
    assert state.to_move == 1 and state.last_checks == (1,)
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == {0}
    assert state.current_player() == TERMINAL and state.legal_moves() == ()
    assert "Shu has no legal turn" in outcome.text.en


def test_no_legal_turn_without_check_goes_to_the_previous_mover() -> None:
    # 蜀's lone general on I5 is not attacked but every cell it could go to is
    state = setup(
        {"A3": "G0", "G4": "P0", "H6": "P0", "I5": "G1", "E9": "G2"},
        to_move=1,
        last="2:",
    )
    assert state.in_check == frozenset()
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == {2}
    assert "moved just before" in outcome.text.en


def test_centre_win_when_the_turn_comes_round() -> None:
    start = setup({"D5": "G0", "G3": "G1", "G9": "G2"})
    state = play(start, "GD5-E5")
    assert state.outcome() is None and state.to_move == 1
    state = play(state, "GG3-G4", "GG9-G8")
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == {0}
    assert "centre" in outcome.text.en


def test_centre_win_when_a_check_hands_over_the_turn() -> None:
    start = setup({"D5": "G0", "G3": "G1", "C3": "H1", "G9": "G2"})
    state = play(start, "GD5-E5")
    assert state.outcome() is None
    # 蜀 checks the general on E5 (its cavalry slides E-W): the turn jumps to 魏, who wins
    state = play(state, "HC3-C5")
    assert state.to_move == 0
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == {0}


def test_no_centre_win_in_two_player_game() -> None:
    start = setup({"D5": "G0", "I7": "G1"}, players=2)
    state = play(start, "GD5-E5", "GI7-I6")
    assert state.outcome() is None and state.to_move == 0


def test_two_player_turns_alternate() -> None:
    start = setup({"A3": "G0", "B2": "H0", "G3": "G1"}, players=2)
    state = play(start, "HB2-C3")
    assert state.in_check == {1} and state.to_move == 1 and state.return_to == -1
    assert state.announcement("en") == "Check (王手) on White."


# --- promotion, captures, drops -----------------------------------------------------------


def _promotable(state: SangokushiState, text: str) -> bool:
    return any(state.format_move(m) == text + "+" for m in state.legal_moves())


def test_promotion_zones_three_players() -> None:
    # 蜀's camp: the two rows along the upper-left edge (E1 .. I5 and D1 .. I6)
    state = setup(
        {**GENERALS, "E2": "P0", "D5": "P0", "E7": "P0", "C2": "P0", "H7": "P0"},
    )
    assert _promotable(state, "PE2-F2")  # into 蜀's camp
    assert _promotable(state, "PD5-E5")  # into the centre
    assert not _promotable(state, "PC2-D2")  # neutral ground
    assert _promotable(state, "PH7-I7") is False  # the top rows are nobody's camp
    state = setup({**GENERALS, "E5": "P0"})
    assert _promotable(state, "PE5-F5")  # out of the centre
    state = play(state, "PE5-F6+")
    assert state.board[CELL_OF["F6"]] == 6  # a promoted pawn of seat 0
    state = play(state, "GG3-G4", "GG9-G8")
    assert targets(state, "F6") == {"E5", "E6", "F5", "F7", "G6", "G7"}


def test_promotion_zones_two_players() -> None:
    state = setup({"A3": "G0", "F5": "P0", "D5": "P0", "G7": "P0", "I9": "G1"}, players=2)
    assert _promotable(state, "PF5-G5")  # into the far three rows
    assert _promotable(state, "PG7-H7")  # inside them
    assert not _promotable(state, "PD5-E5")  # E5 does not count with two players


def test_captured_pieces_drop_facing_the_new_owner() -> None:
    start = setup({"A3": "G0", "D3": "H0", "E4": "+P1", "G3": "G1", "G9": "G2"})
    state = play(start, "HD3-E4")  # captures the promoted pawn: back to a pawn in hand
    assert state.hands[0] == (0, 0, 0, 0, 1)
    state = play(state, "GG3-F3", "GG9-G8")
    drops = {state.format_move(m) for m in state.legal_moves() if m.is_drop}
    assert len(drops) == 61 - 4 and "P*I5" in drops  # anywhere empty, even where it cannot move
    state = play(state, "P*E5")
    assert state.board[CELL_OF["E5"]] == 5  # seat 0's pawn
    state = play(state, "GF3-G3", "GG8-G9")
    assert targets(state, "E5") == {"F5", "F6"}  # moves forward for its new owner


# --- notation -----------------------------------------------------------------------------


def test_move_spellings() -> None:
    state = THREE.new_game()
    move = state.parse_move("PB3-C4")
    for text in ("pb3-c4", "B3-C4", "b3c4", "歩B3-C4", "魏 歩B3-C4", "歩兵B3C4", "Ｐ Ｂ３－Ｃ４"):
        assert state.parse_move(text) == move
    assert state.format_move(move) == "PB3-C4"
    assert state.display_move(move, "ja") == "魏 歩B3-C4"
    assert state.display_move(move, "en") == "Wei 歩B3-C4"  # the record's kanji in both
    assert str(move) == "B3-C4" and state.parse_move(str(move)) == move


def test_notation_of_promotions_and_drops() -> None:
    state = setup({**GENERALS, "E5": "P0", "F2": "+P0"}, hands="HP/-/-")
    move = state.parse_move("PE5-F6+")
    assert state.parse_move("歩E5-F6成") == move and move.promote
    assert state.display_move(move, "ja") == "魏 歩E5-F6成"
    assert state.parse_move("PE5-F6") != move
    tokin = state.parse_move("+PF2-F3")
    assert state.parse_move("とF2-F3") == tokin == state.parse_move("F2-F3")
    assert state.display_move(tokin, "ja") == "魏 とF2-F3"
    drop = state.parse_move("P*E6")
    assert state.parse_move("歩打E6") == drop == state.parse_move("p*e6")
    assert state.display_move(drop, "ja") == "魏 歩打E6"
    assert state.format_move(state.parse_move("騎*E6")) == "H*E6"


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("PB3-C9", InvalidMoveError),  # no such cell
        ("hello", InvalidMoveError),
        ("HB3-C4", IllegalMoveError),  # B3 holds a pawn
        ("PB3-D4", IllegalMoveError),
        ("GE5-E6", IllegalMoveError),  # nobody's piece there
        ("P*E5", IllegalMoveError),  # nothing in hand
        ("PB3-C4+", IllegalMoveError),  # no promotion there
    ],
)
def test_bad_input(text: str, error: type[Exception]) -> None:
    state = THREE.new_game()
    with pytest.raises(error) as err:
        state.parse_move(text)
    assert err.value.text.ja  # type: ignore[attr-defined]


def test_repetition_restriction() -> None:
    state = setup({"A3": "G0", "G3": "G1", "G9": "G2"})
    cycle = ("GA3-A4", "GG3-G4", "GG9-G8", "GA4-A3", "GG4-G3", "GG8-G9")
    state = play(state, *cycle, *cycle, *cycle[:5])
    # the start position has occurred three times: 呉 may not produce it a fourth time
    with pytest.raises(IllegalMoveError) as err:
        state.parse_move("GG8-G9")
    assert "repeat" in err.value.text.en
    assert state.outcome() is None and len(state.legal_moves()) > 0
    off = setup({"A3": "G0", "G3": "G1", "G9": "G2"}, options={"repetition": "off"})
    off = play(off, *cycle, *cycle, *cycle)
    assert off.outcome() is None


def test_ply_cap_draws() -> None:
    text = setup({"A3": "G0", "G3": "G1", "G9": "G2"}).position().removesuffix(" 0") + " 599"
    start = THREE.from_position(text)
    assert isinstance(start, SangokushiState)
    state = play(start, "GA3-A4")
    outcome = state.outcome()
    assert outcome is not None and outcome.is_draw and state.legal_moves() == ()
    assert THREE.from_position(text, {"cap": "off"}).ply == 599


def test_position_text_errors() -> None:
    good = THREE.new_game().position()
    for bad in ("", good.replace("G0", "G1"), good.replace(" 0 - ", " 3 - "), good + " x"):
        with pytest.raises(PositionError):
            THREE.from_position(bad)
