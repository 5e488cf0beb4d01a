"""六面体 (Rokumentai): every rule of /work/shared/rules/rokumentai.md, written in its notation.

Positions are written like the seed's diagrams: one string per row 01..07, columns 一..七, ○ for
an empty square and ◎ for an empty square the diagram marks as a target.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engines.core import (
    AmbiguousMoveError,
    IllegalMoveError,
    InvalidMoveError,
    PositionError,
    Termination,
)
from engines.registry import get_game
from engines.rokumentai import (
    FACE,
    HAND,
    OWNER,
    ROKUMENTAI,
    Move,
    RokumentaiState,
    square_name,
)

DATA = Path(__file__).resolve().parents[1] / "data" / "rokumentai"


def board_of(rows: list[str]) -> tuple[str, set[str]]:
    """Seed-style rows (optionally ending in the row number) -> board text and the ◎ squares."""
    assert len(rows) == 7
    cells: list[str] = []
    marked: set[str] = set()
    for r, row in enumerate(rows):
        row = row.rstrip("0123456789 ")
        assert len(row) == 7, row
        for c, ch in enumerate(row):
            if ch == "◎":
                marked.add(square_name(r * 7 + c))
            cells.append("." if ch in "○◎" else ch)
    text = "/".join("".join(cells[r * 7 : r * 7 + 7]) for r in range(7))
    return text, marked


def diagram(
    rows: list[str], side: str = "b", flags: str = "++", ply: int = 0, **options: str
) -> tuple[RokumentaiState, set[str]]:
    """A position from seed-style rows; each player's hand holds the cubes not on the board."""
    text, marked = board_of(rows)
    state = ROKUMENTAI.from_position(f"{text} {side} 0/0 {flags} {ply}")
    on_board = [sum(1 for c in state.board if OWNER[c] == o) for o in (0, 1)]
    hands = f"{HAND - on_board[0]}/{HAND - on_board[1]}"
    return ROKUMENTAI.from_position(f"{text} {side} {hands} {flags} {ply}", options), marked


def play(state: RokumentaiState, *moves: str) -> RokumentaiState:
    for text in moves:
        state = state.apply(state.parse_move(text))
    return state


def names(state: RokumentaiState) -> set[str]:
    return {state.format_move(m) for m in state.legal_moves()}


def targets(state: RokumentaiState, prefix: str) -> set[str]:
    """Landing squares of the moves whose notation starts with ``prefix`` (no strikes)."""
    out = set()
    for text in names(state):
        if text.startswith(prefix) and text.count("-") == 1:
            out.add(text.split("-")[1])
    return out


def rows_after(state: RokumentaiState) -> list[str]:
    text = state.position().split()[0]
    return [row.replace(".", "○") for row in text.split("/")]


# --- registry, start, perft ---------------------------------------------------------------------


def test_registered() -> None:
    game = get_game("rokumentai")
    assert game is ROKUMENTAI
    assert game.title_ja == "六面体"
    state = game.new_game()
    assert (
        state.position() == "......./......./......./......./......./......./....... b 15/15 -- 0"
    )


def test_legal_move_counts_from_data() -> None:
    lines = (DATA / "legal_counts.txt").read_text(encoding="utf-8").splitlines()
    cases = [line.split("\t") for line in lines if line.strip() and not line.startswith("#")]
    assert len(cases) >= 5
    for count, text in cases:
        state = ROKUMENTAI.from_position(text)
        assert len(state.legal_moves()) == int(count), text
        assert state.position() == text


# --- placing --------------------------------------------------------------------------------


def test_first_placement_must_be_occupy() -> None:
    state = ROKUMENTAI.new_game()
    assert names(state) == {square_name(sq) + "占" for sq in range(49)}
    with pytest.raises(IllegalMoveError) as exc:
        state.parse_move("四04武")
    assert "must place 占 first" in exc.value.text.en
    assert exc.value.suggestions


def test_occupy_anywhere_then_others_next_to_own_occupy_only() -> None:
    state = play(ROKUMENTAI.new_game(), "四04占", "一01領")
    legal = names(state)
    assert {"三03武", "五05巫", "四05騎", "三04弓"} <= legal
    assert "一07占" in legal  # any number of 占 before another face
    assert "六04武" not in legal
    with pytest.raises(IllegalMoveError) as exc:
        state.parse_move("二01武")  # next to White's 領, not Black's own 占
    assert "may only be placed next to your own 占" in exc.value.text.en
    assert all("武" in s for s in exc.value.suggestions)


def test_no_occupy_after_another_face() -> None:
    state = play(ROKUMENTAI.new_game(), "四04占", "一01領", "四05武", "二01士")
    assert state.committed == (True, True)
    assert not any(s.endswith("占") for s in names(state))
    with pytest.raises(IllegalMoveError) as exc:
        state.parse_move("七07占")
    assert "may not place 占 again" in exc.value.text.en


def test_occupied_square_and_ghost_face_and_empty_hand() -> None:
    state = play(ROKUMENTAI.new_game(), "四04占", "一01領")
    with pytest.raises(IllegalMoveError) as exc:
        state.parse_move("一01占")
    assert "一01 is occupied" in exc.value.text.en
    with pytest.raises(IllegalMoveError) as exc:
        state.parse_move("四05怨")
    assert "怨 can never be chosen" in exc.value.text.en
    empty_hand, _ = diagram(["○○○○○○○"] * 3 + ["○○○占○○○"] + ["○○○○○○○"] * 2 + ["○○○○○○領"])
    empty_hand = ROKUMENTAI.from_position(empty_hand.position().replace(" 14/14 ", " 0/5 "))
    with pytest.raises(IllegalMoveError) as exc:
        empty_hand.parse_move("四05武")
    assert "no cubes left in hand" in exc.value.text.en


def test_white_writes_its_own_faces() -> None:
    state = play(ROKUMENTAI.new_game(), "四04占", "六06領", "四05武")
    assert "五05士" in names(state)
    assert state.display_move(state.parse_move("五05士")) == "△五05士"


# --- moving and beating -----------------------------------------------------------------------


def test_warrior_beats_and_swaps() -> None:
    """Seed: ○○○武領○○ → ○○○霊武○○."""
    state, _ = diagram(
        ["○○○○○○○", "○○○○○○○", "○○○武領○○", "○○○○○○○", "○占○○○○○", "○○○○○○○", "○○○○○領○"]
    )
    after = play(state, "武四03-五03")
    assert rows_after(after)[2] == "○○○霊武○○"
    assert not after.is_over()


def test_horse_beats_and_swaps() -> None:
    """Seed: ○○騎○○○○ / ○○○○領○○ → ○○霊○○○○ / ○○○○騎○○."""
    state, _ = diagram(
        ["○○○○○○○", "○○○○○○○", "○○騎○○○○", "○○○○領○○", "○占○○○○○", "○○○○○○○", "○○○○○領○"]
    )
    assert targets(state, "騎三03") == {"一02", "二01", "四01", "五02", "五04", "四05", "一04"}
    after = play(state, "騎三03-五04")
    assert rows_after(after)[2:4] == ["○○霊○○○○", "○○○○騎○○"]


def test_archer_beats_and_swaps() -> None:
    """Seed: ○弓○○領○○ → ○霊○○弓○○; the 弓 goes 2 or 3 squares straight, jumping."""
    state, _ = diagram(
        ["○○○○○○○", "○○○○○○○", "○○○○○○○", "○弓士○領○○", "○占○○○○○", "○○○○○○○", "○○○○○領○"]
    )
    assert targets(state, "弓二04") == {"二02", "二01", "二06", "二07", "四04", "五04"}
    after = play(state, "弓二04-五04")
    assert rows_after(after)[3] == "○霊士○弓○○"


def test_nothing_moves_onto_own_pieces_or_ghosts() -> None:
    state, _ = diagram(
        ["○○○○○○○", "○○○○○○○", "○○霊占○○○", "○○武弓○○○", "○○○○○○○", "○○○○○○○", "○○○○○領○"]
    )
    assert targets(state, "武三04") == {"二03", "二04", "二05", "三05", "四05"}
    with pytest.raises(IllegalMoveError) as exc:
        state.parse_move("武三04-四04")
    assert "your own 弓" in exc.value.text.en
    with pytest.raises(IllegalMoveError) as exc:
        state.parse_move("武三04-三03")
    assert "ghost" in exc.value.text.en
    with pytest.raises(IllegalMoveError) as exc:
        state.parse_move("占四03-四02")
    assert "占 never moves" in exc.value.text.en
    with pytest.raises(IllegalMoveError) as exc:
        state.parse_move("領六07-六06")
    assert "opponent's 領" in exc.value.text.en


def test_beaten_occupy_of_either_side() -> None:
    state, _ = diagram(
        ["○○○○○○○", "○○○○○○○", "○○○武領○○", "○○○○○○○", "○占○○○○○", "○○○○○○○", "○○○○○○○"]
    )
    after = play(state, "武四03-五03")  # White's last 領 turns to a ghost
    outcome = after.outcome()
    assert outcome is not None and outcome.termination is Termination.RULE
    assert outcome.winners == {0}
    assert after.legal_moves() == ()


# --- the 巫 (shrine maiden) -------------------------------------------------------------------


def test_seed_diagram_1_miko_leap() -> None:
    state, marked = diagram(
        [
            "○○○○○○◎01",
            "○○○○○◎○02",
            "○○○○怨○○03",
            "◎◎怨巫○○○04",
            "○○○○怨○○05",
            "○○○○○◎○06",
            "○○○○○○◎07",
        ]
    )
    assert marked == {"六02", "七01", "二04", "一04", "六06", "七07"}
    assert targets(state, "巫四04") == marked


def test_seed_diagram_2_3_ghost_step_and_fling() -> None:
    state, marked = diagram(
        [
            "○○○○○○○01",
            "○○○○○○○02",
            "○○◎◎怨○○03",
            "○○◎巫◎○○04",
            "○○◎◎◎○○05",
            "○◎○○○○○06",
            "◎○○○○○○07",
        ]
    )
    steps = {"三03", "四03", "三04", "五04", "三05", "四05", "五05"}
    fling = {"三05", "二06", "一07"}
    assert marked == steps | fling
    assert targets(state, "怨五03") == marked
    # 三05 is reached both by a step and by a fling: one move, listed once.
    assert [state.format_move(m) for m in state.legal_moves()].count("怨五03-三05") == 1


def test_ghost_moves_are_listed_once_whichever_miko() -> None:
    state, _ = diagram(
        ["○○○○○○○", "○○○○○○○", "○○巫霊巫○○", "○○○○○○○", "○占○○○○○", "○○○○○○○", "○○○○○領○"]
    )
    moves = [state.format_move(m) for m in state.legal_moves() if state.board[m.frm] == 12]
    assert len(moves) == len(set(moves))
    assert "霊四03-四04" in moves  # next to both 巫


def test_opponents_ghost_is_moved_by_my_miko_only() -> None:
    state, _ = diagram(
        ["○○○○○○○", "○○○○○○○", "○○○霊女○○", "○○○○○○○", "○占○○○○○", "○○○○○○○", "○○○○○領○"]
    )
    with pytest.raises(IllegalMoveError) as exc:
        state.parse_move("霊四03-四02")
    assert "Only your own 巫 can move a ghost" in exc.value.text.en
    white = ROKUMENTAI.from_position(state.position().replace(" b ", " w "))
    assert "霊四03-四02" in names(white)


def test_miko_never_captures() -> None:
    state, _ = diagram(
        ["○○○○○○○", "○○○○○○○", "○○○怨士○○", "○○○巫○○○", "○占○○○○○", "○○○○○○○", "○○○○○領○"]
    )
    with pytest.raises(IllegalMoveError) as exc:
        state.parse_move("巫四04-五03")
    assert "A 巫 never captures" in exc.value.text.en
    assert targets(state, "巫四04") == {"四02", "四01"}


SEED_4_1 = [
    "○○○○○怨○01",
    "○○○○巫○○02",
    "○○○士○○士03",
    "○○矢○○矢○04",
    "○馬○○巫○○05",
    "○○○怨○○○06",
    "○○馬○○○○07",
]


def test_seed_example_4_1_strike() -> None:
    state, _ = diagram(SEED_4_1)
    strikes = {s for s in names(state) if s.count("-") == 2}
    assert {s for s in strikes if s.startswith("怨六01")} == {
        "怨六01-四03-一06",
        "怨六01-三04-一06",
        "怨六01-二05-一06",
    }
    # The ghost on 四06 cannot strike: 三07 馬, 四06, 五05 巫, 六04 矢, 七03 士 has no empty square.
    assert not any(s.startswith("怨四06") for s in strikes)
    assert not {"三07", "六04", "七03"} & targets(state, "怨四06")
    after = play(state, "六01-四03-一06怨霊")
    assert rows_after(after) == [
        "○○○○○○○",
        "○○○○巫○○",
        "○○○霊○○士",
        "○○矢○○矢○",
        "○馬○○巫○○",
        "怨○○怨○○○",
        "○○馬○○○○",
    ]


def test_seed_example_4_2_three_rows() -> None:
    state, _ = diagram(
        [
            "○○○○○○○01",
            "矢巫怨士馬○○02",
            "○○○○○○○03",
            "○○士領馬巫怨04",
            "○○○○○○○05",
            "○矢士馬巫怨○06",
            "○○○○○○○07",
        ]
    )
    legal = names(state)

    def landings(ghost: str, struck: str) -> set[str]:
        return {s.split("-")[2] for s in legal if s.startswith(f"怨{ghost}-{struck}-")}

    assert landings("三02", "一02") == {"六02", "七02"}
    assert not landings("三02", "四02")  # on the ghost's own side of the 巫
    assert landings("七04", "四04") == {"一04", "二04"}
    assert landings("七04", "五04") == {"一04", "二04"}  # the nearer 馬 may be struck too
    assert landings("六06", "二06") == {"一06", "七06"}
    # A plain fling stays legal next to the strikes.
    assert {"怨七04-一04", "怨六06-一06"} <= legal
    after = play(state, "怨三02-一02-六02")
    assert rows_after(after)[1] == "霊巫○士馬怨○"
    after = play(state, "怨六06-二06-七06")
    assert rows_after(after)[5] == "○霊士馬巫○怨"
    after = play(state, "怨七04-四04-一04")
    assert rows_after(after)[3] == "怨○士霊馬巫○"
    # 四04 held White's only 領: White loses at once.
    outcome = after.outcome()
    assert outcome is not None and outcome.termination is Termination.RULE
    assert outcome.winners == {0}


def test_strike_needs_a_landing_square() -> None:
    state, _ = diagram(
        ["○○○○○○○", "○○○○○○○", "○○○○○○○", "士馬巫怨占領矢", "○○○○○○○", "○○○○○○○", "○○○○○○○"]
    )
    assert not any(s.count("-") == 2 for s in names(state))
    with pytest.raises(IllegalMoveError):
        state.parse_move("怨四04-一04-一04")


# --- end of the game ------------------------------------------------------------------------


def test_position_from_text_is_never_already_decided() -> None:
    state, _ = diagram(SEED_4_1)  # Black has no 占 at all
    assert state.outcome() is None
    assert state.current_player() == 0


def test_no_place_and_no_move_loses() -> None:
    state = ROKUMENTAI.from_position(
        "占....../......./......./......./......./......./......領 b 0/3 -- 20"
    )
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is Termination.NO_MOVES
    assert outcome.winners == {1}
    assert state.legal_moves() == ()


def test_losing_one_of_several_occupy_goes_on() -> None:
    state, _ = diagram(
        ["○○○○○○○", "○○○○○○○", "○○○武領○○", "○○○○○○○", "○占○○○○○", "○○○○○○○", "○○○○○領○"]
    )
    assert play(state, "武四03-五03").outcome() is None


BACK_AND_FORTH = ("武二02-二03", "士六06-六05", "武二03-二02", "士六05-六06")
SHUFFLE_ROWS = [
    "占○○○○○○",
    "○武○○○○○",
    "○○○○○○○",
    "○○○○○○○",
    "○○○○○○○",
    "○○○○○士○",
    "○○○○○○領",
]


def test_repetition_fourth_time_is_a_draw() -> None:
    state, _ = diagram(SHUFFLE_ROWS)
    for _ in range(2):
        state = play(state, *BACK_AND_FORTH)
    state = play(state, *BACK_AND_FORTH[:3])
    assert state.outcome() is None
    state = play(state, BACK_AND_FORTH[3])  # the start position a fourth time
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is Termination.REPETITION
    assert outcome.is_draw


def test_repetition_option() -> None:
    state, _ = diagram(SHUFFLE_ROWS, repetition="3")
    state = play(state, *BACK_AND_FORTH, *BACK_AND_FORTH)
    assert state.outcome() is not None
    state, _ = diagram(SHUFFLE_ROWS, repetition="off")
    for _ in range(6):
        state = play(state, *BACK_AND_FORTH)
    assert state.outcome() is None


def test_a_placement_resets_repetition() -> None:
    state, _ = diagram(SHUFFLE_ROWS)
    state = play(state, *BACK_AND_FORTH, *BACK_AND_FORTH, "一02武", "士六06-六05")
    for _ in range(2):
        state = play(state, "武二02-二03", "士六05-六06", "武二03-二02", "士六06-六05")
    assert state.outcome() is None


def test_cap_is_a_draw_and_beats_the_no_move_loss() -> None:
    state, _ = diagram(SHUFFLE_ROWS, ply=599)
    state = play(state, "武二02-二03")
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is Termination.CAP
    stuck = ROKUMENTAI.from_position(
        "占....../......./......./......./......./......./......領 b 0/3 -- 600"
    )
    outcome = stuck.outcome()
    assert outcome is not None and outcome.termination is Termination.CAP
    state, _ = diagram(SHUFFLE_ROWS, ply=290, cap="300")
    assert play(state, *BACK_AND_FORTH, *BACK_AND_FORTH, "武二02-二03", "士六06-六05").is_over()


def test_repetition_beats_the_cap() -> None:
    state, _ = diagram(SHUFFLE_ROWS, ply=588)
    state = play(state, *BACK_AND_FORTH, *BACK_AND_FORTH, *BACK_AND_FORTH)
    outcome = state.outcome()
    assert state.ply == 600
    assert outcome is not None and outcome.termination is Termination.REPETITION


def test_the_moves_own_result_beats_repetition_and_cap() -> None:
    state, _ = diagram(
        ["○○○○○○○", "○○○○○○○", "○○○武領○○", "○○○○○○○", "○占○○○○○", "○○○○○○○", "○○○○○○○"],
        ply=599,
    )
    outcome = play(state, "武四03-五03").outcome()
    assert outcome is not None and outcome.termination is Termination.RULE


# --- notation ---------------------------------------------------------------------------------


def test_placement_spellings() -> None:
    state = ROKUMENTAI.new_game()
    move = state.parse_move("四04占")
    assert move == Move(-1, 24, 0)
    for text in ("44O", "44o", "４４Ｏ", "四０４占", "四4占", "▲四04占", " 四04 占 "):
        assert state.parse_move(text) == move, text
    assert state.format_move(move) == "四04占"
    assert state.display_move(move) == "▲四04占"


def test_move_spellings() -> None:
    state, _ = diagram(SEED_4_1)
    strike = state.parse_move("怨六01-四03-一06")
    for text in (
        "G61-43-16",
        "六01-四03-一06怨霊",
        "(六01-四03-一06怨霊)",
        "（六01-四03-一06怨霊）",
        "六01-四03-一06",
        "怨六01ー四03ー一06",
    ):
        assert state.parse_move(text) == strike, text
    assert state.display_move(strike, "ja") == "▲怨六01-四03-一06"
    step = state.parse_move("怨四06-四05")
    assert state.parse_move("G46-45") == step
    assert state.format_move(step) == "怨四06-四05"
    leap_state, _ = diagram(
        ["○○○○○○○", "○○○○○○○", "○○○○怨○○", "○○怨巫○○○", "○○○○怨○○", "○占○○○○○", "○○○○○○領"]
    )
    leap = leap_state.parse_move("巫四04-七01")
    assert leap_state.parse_move("M44-71") == leap
    warrior, _ = diagram(SHUFFLE_ROWS)
    assert warrior.parse_move("W22-23") == warrior.parse_move("武二02-二03")
    assert warrior.parse_move("武二03") == warrior.parse_move("武二02-二03")


def test_white_ghost_written_with_its_own_face() -> None:
    state, _ = diagram(
        ["○○○○○○○", "○○○○○○○", "○○○霊巫○○", "○○○○○○○", "○占○○○○○", "○○○○○○○", "○○○○○領○"]
    )
    move = state.parse_move("霊四03-四02")
    assert state.format_move(move) == "霊四03-四02"
    assert state.parse_move("G43-42") == move


def test_reading_errors() -> None:
    state = play(ROKUMENTAI.new_game(), "四04占", "一01領")
    with pytest.raises(InvalidMoveError) as invalid:
        state.parse_move("hello")
    assert invalid.value.text.ja
    with pytest.raises(AmbiguousMoveError) as ambiguous:
        state.parse_move("四05")
    assert set(ambiguous.value.suggestions) <= names(state)
    with pytest.raises(IllegalMoveError) as wrong_side:
        state.parse_move("△四05武")
    assert "Black's turn" in wrong_side.value.text.en
    with pytest.raises(IllegalMoveError) as empty:
        state.parse_move("武五05-五06")
    assert "no piece on 五05" in empty.value.text.en


def test_wrong_piece_type_is_named() -> None:
    state, _ = diagram(SHUFFLE_ROWS)
    with pytest.raises(IllegalMoveError) as exc:
        state.parse_move("騎二02-三04")
    assert "二02 holds 武, not 騎" in exc.value.text.en
    with pytest.raises(IllegalMoveError) as exc:
        state.parse_move("武二02-二04")
    assert "one square" in exc.value.text.en
    assert all(s.startswith("武二02-") for s in exc.value.suggestions)


# --- position text -----------------------------------------------------------------------------


def test_position_text_round_trip_and_ascii_board() -> None:
    state = play(ROKUMENTAI.new_game(), "四04占", "一01領", "四05武")
    text = state.position()
    assert text == "領....../......./......./...占.../...武.../......./....... w 13/14 +- 3"
    assert ROKUMENTAI.from_position(text) == state
    ascii_board = "o....../......./......./...O.../...W.../......./....... w 13/14 +- 3"
    assert ROKUMENTAI.from_position(ascii_board) == state


@pytest.mark.parametrize(
    "text",
    [
        "",
        "......./......./......./......./......./......./....... b 15/15 --",
        "......./......./......./......./......./....... b 15/15 -- 0",
        "......./......./......./......./......./......./...... b 15/15 -- 0",
        "......./......./......./......./......./......./......X b 15/15 -- 0",
        "......./......./......./......./......./......./....... x 15/15 -- 0",
        "......./......./......./......./......./......./....... b 16/15 -- 0",
        "......./......./......./......./......./......./....... b 15/15 *- 0",
        "......./......./......./......./......./......./....... b 15/15 -- -1",
        "......./......./......./...武.../......./......./....... b 14/15 -- 0",
    ],
)
def test_bad_position_text(text: str) -> None:
    with pytest.raises(PositionError) as exc:
        ROKUMENTAI.from_position(text)
    assert exc.value.text.en and exc.value.text.ja


def test_faces_table() -> None:
    state, _ = diagram(SEED_4_1)
    assert {FACE[c] for c in state.board if c} == {1, 2, 3, 4, 5}
