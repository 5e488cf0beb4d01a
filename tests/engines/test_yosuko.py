"""略式易双六 (yosuko): the rules of docs/rules/yosuko.md, one test per rule, in its notation.

Positions are written as position text: ``lines start token stacks discards round phase ply``.
The usual board is ``I,II,III,IV,V,VI`` (all upright), whose numbers are

    line        1 I   2 II  3 III  4 IV  5 V   6 VI
    M Major     3     0     3      3     5     3
    F Major     5     7     0      0     7     5
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from engines.core import (
    CHANCE,
    TERMINAL,
    AmbiguousMoveError,
    EngineError,
    IllegalMoveError,
    InvalidMoveError,
    OptionError,
    PositionError,
    chance_pick,
)
from engines.record import Entry, Record, advance_chance
from engines.registry import get_game
from engines.yosuko import GAME, YosukoState, card_name

BOARD = "I,II,III,IV,V,VI"
DATA = Path(__file__).parent.parent / "data" / "yosuko"


def stacks(**lines: str) -> str:
    """The stacks field: ``stacks(l4="P3,P9")`` puts P3 then P9 on line 4."""
    return "/".join(lines.get(f"l{n}", "-") for n in range(1, 7))


def pos(text: str, **options: str) -> YosukoState:
    return GAME.from_position(text, options)


def at_card(
    token: int, *, start: int | None = None, board: str = BOARD, own: str = "", **kw: str
) -> str:
    """A position about to reveal a card, token on ``token`` (``own``: its line's stack),
    nothing discarded."""
    if own:
        kw[f"l{token}"] = own
    st = stacks(**kw)
    return f"{board} {start or token} {token} {st} - 1 card 8"


def play(state: YosukoState, *moves: str) -> YosukoState:
    for text in moves:
        state = state.apply(state.parse_move(text))
    return state


def stack_of(state: YosukoState, line: int) -> list[str]:
    return [card_name(c) for c in state.stacks[line - 1]]


def _name(card: int) -> str:
    return card_name(card)


def discards(state: YosukoState) -> list[str]:
    return [_name(c) for c in state.discards]


# --- registry and setup ------------------------------------------------------------------------


def test_registered_as_one_player_chance_game() -> None:
    game = get_game("yosuko")
    assert game is GAME
    assert game.player_counts == (1,) and game.has_chance
    assert game.seat_name(0) == "Player" and game.seat_name(0, "ja") == "プレイヤー"
    state = game.new_game()
    assert state.current_player() == CHANCE
    assert state.options() == {
        "influence": "1",
        "compare": "gt",
        "court": "K14",
        "rounds": "1",
        "repetition": "4",
        "cap": "600",
    }


def test_options_are_checked() -> None:
    with pytest.raises(OptionError):
        GAME.new_game(1, {"influence": "4"})
    with pytest.raises(OptionError):
        GAME.new_game(1, {"rounds": "0"})


def test_deal_is_six_uniform_chance_steps_over_card_and_orientation() -> None:
    state = GAME.new_game()
    for dealt in range(6):
        outcomes = state.chance_outcomes()
        assert len(outcomes) == 2 * (20 - dealt)
        assert {p for _, p in outcomes} == {Fraction(1, 2 * (20 - dealt))}
        names = [state.format_move(m) for m, _ in outcomes]
        assert "deal 0" not in names and "deal XIII" not in names
        state = state.apply(outcomes[dealt * 3][0])
    assert state.current_player() == 0
    assert len(state.lines) == 6 and len({c // 2 for c in state.lines}) == 6


def test_a_dealt_major_is_not_dealt_again() -> None:
    state = play(GAME.new_game(), "deal XVIIr")
    with pytest.raises(IllegalMoveError):
        state.parse_move("deal XVII")
    assert "deal XVII" not in [state.format_move(m) for m in state.legal_moves()]


@pytest.mark.parametrize(
    ("deal", "board"),
    [
        # Both on the board: they swap lines, each taking the orientation of its new line.
        ("VIII XIr I II III IV", "XI,VIIIr,I,II,III,IV"),
        ("XIr II VIII III IV V", "VIIIr,II,XI,III,IV,V"),
        # One on the board: replaced by the other, keeping the line's orientation.
        ("I VIIIr II III IV V", "I,XIr,II,III,IV,V"),
        ("XI II III IV V VI", "VIII,II,III,IV,V,VI"),
        # Neither: nothing happens.
        ("I IIr III IV V XXI", "I,IIr,III,IV,V,XXI"),
    ],
)
def test_strength_and_justice_exchange(deal: str, board: str) -> None:
    state = GAME.new_game()
    for name in deal.split():
        state = play(state, f"deal {name}")
    assert state.position() == f"{board} - - -/-/-/-/-/- - 1 start 0"  # deals are not plies


@pytest.mark.parametrize(
    ("start", "terminator", "x_card"), [(1, "XIII", "0"), (3, "XIII", "0"), (4, "0", "XIII")]
)
def test_start_line_picks_the_terminator(start: int, terminator: str, x_card: str) -> None:
    state = pos(f"{BOARD} - - {stacks()} - 1 start 6")
    assert [state.format_move(m) for m in state.legal_moves()] == [
        f"start {n}" for n in range(1, 7)
    ]
    state = play(state, f"start {start}")
    assert state.token == start and state.current_player() == 0
    assert [state.format_move(m) for m in state.legal_moves()] == ["draw"]
    state = play(state, "draw")
    assert state.current_player() == CHANCE
    names = {state.format_move(m) for m, _ in state.chance_outcomes()}
    assert len(names) == 57 and terminator in names and x_card not in names
    assert _name(state.set_aside or 0) == x_card


# --- the suits --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("token", "card", "stack_line", "token_after"),
    [
        # Upper trigram: a Cup goes to the partner (lower) line and the token moves forward.
        (4, "C3", 1, 5),
        (5, "C3", 2, 6),
        (6, "C3", 3, 1),
        # Upper trigram: a Coin stays on the token's own line.
        (4, "P3", 4, 4),
        (5, "P3", 5, 5),
        (6, "P3", 6, 6),
        # Lower trigram: a Coin goes to the partner (upper) line and the token moves forward.
        (1, "P3", 4, 2),
        (2, "P3", 5, 3),
        (3, "P3", 6, 4),
        # Lower trigram: a Cup stays on the token's own line.
        (1, "C3", 1, 1),
        (2, "C3", 2, 2),
        (3, "C3", 3, 3),
    ],
)
def test_f_suits_stack_and_push(token: int, card: str, stack_line: int, token_after: int) -> None:
    state = play(pos(at_card(token)), card)
    assert stack_of(state, stack_line) == [card]
    assert state.token == token_after
    assert state.discards == () and state.last_judgement is None
    assert state.current_player() == 0 and state.phase == "draw"


def test_coin_on_lower_trigram_goes_to_the_upper_partner_line() -> None:
    state = play(pos(at_card(2, l5="P4")), "PK")
    assert stack_of(state, 5) == ["P4", "PK"] and stack_of(state, 2) == []
    assert state.token == 3


@pytest.mark.parametrize(
    ("token", "card", "to"),
    [
        # Upper: a Sword tries to go back, a Wand down to the partner line.
        (4, "S1", 3),
        (5, "S1", 4),
        (6, "S1", 5),
        (4, "W1", 1),
        (5, "W1", 2),
        (6, "W1", 3),
        # Lower: a Wand tries to go back (1 back is 6).
        (1, "W1", 6),
        (2, "W1", 1),
        (3, "W1", 2),
    ],
)
def test_m_suits_judge_their_direction(token: int, card: str, to: int) -> None:
    # A King on From's stack (14 + 1) beats any To of this board (at most 5 + 7).
    king = "PK" if token >= 4 else "CK"
    state = play(pos(at_card(token, own=king)), card)
    j = state.last_judgement
    assert j is not None and (j.from_line, j.to_line) == (token, to)
    assert j.from_wins and state.token == to
    assert discards(state) == [card, king] and stack_of(state, token) == []


@pytest.mark.parametrize(("token", "to"), [(1, 4), (2, 5), (3, 6)])
def test_lower_sword_goes_up_with_a_choice(token: int, to: int) -> None:
    state = play(pos(at_card(token, own="CK")), "S1")
    assert state.current_player() == 0 and state.phase == "choose"
    assert [state.format_move(m) for m in state.legal_moves()] == ["move", "stay"]
    assert play(state, "move").token == to
    assert play(state, "stay").token == token


# --- the judgement in numbers ------------------------------------------------------------------


def test_empty_stacks_use_f_major() -> None:
    # Token on 4 (IV: F Major 0), Wand: may it go down to 1 (I: M Major 3, F Major 5)?
    state = play(pos(at_card(4)), "W5")
    j = state.last_judgement
    assert j is not None
    assert (j.m_minor, j.f_from, j.f_from_card) == (5, 0, None)
    assert (j.m_major_to, j.f_to, j.f_to_card) == (3, 5, None)
    assert (j.lhs, j.rhs, j.from_wins) == (5, 8, False)
    # To won with its F Major: nothing but the Wand is discarded.
    assert state.token == 4 and discards(state) == ["W5"]
    text = state.describe_last_judgement()
    assert text is not None
    assert "W5 5 + F Major(4) 0 = 5 < M Major(1) 3 + F Major(1) 5 = 8" in text.en
    assert "W5 5 + F Major(4) 0 = 5 < M Major(1) 3 + F Major(1) 5 = 8" in text.ja
    # A King makes it: 14 + 0 > 8; From used its F Major, so only the King goes.
    state = play(pos(at_card(4)), "WK")
    assert state.token == 1 and discards(state) == ["WK"]


def test_the_highest_stacked_card_is_used_and_discarded() -> None:
    state = play(pos(at_card(4, l4="P3,P9,P5")), "W1")
    j = state.last_judgement
    assert j is not None and (j.f_from, _name(j.f_from_card or 0)) == (9, "P9")
    assert (j.lhs, j.rhs) == (10, 8)
    assert state.token == 1
    assert discards(state) == ["W1", "P9"] and stack_of(state, 4) == ["P3", "P5"]


def test_a_low_stack_still_beats_its_f_major() -> None:
    # Line 2 (II) has F Major 7 but holds C1: its F Minor is 1.
    state = play(pos(at_card(3, l2="C1")), "W6")  # Wand from 3 goes back to 2.
    j = state.last_judgement
    assert j is not None and (j.f_to, _name(j.f_to_card or 0)) == (1, "C1")
    assert (j.lhs, j.rhs) == (6 + 0, 0 + 1) and state.token == 2
    assert discards(state) == ["W6"] and stack_of(state, 2) == ["C1"]


def test_the_loser_keeps_its_card_the_winner_discards_its_own() -> None:
    # W2 + P3 = 5 < M Major(1) 3 + C10 = 13: To wins, its C10 goes, From keeps P3.
    state = play(pos(at_card(4, l4="P3", l1="C4,C10")), "W2")
    assert state.token == 4
    assert discards(state) == ["W2", "C10"]
    assert stack_of(state, 4) == ["P3"] and stack_of(state, 1) == ["C4"]


def test_earliest_of_equal_highest_cards_is_discarded() -> None:
    # With court=K10 the Queen and the King are both 10: the earlier-stacked one goes.
    state = play(pos(at_card(4, l4="PQ,P2,PK"), court="K10"), "W1")
    assert (state.token, discards(state)) == (1, ["W1", "PQ"])
    assert stack_of(state, 4) == ["P2", "PK"]


@pytest.mark.parametrize(("compare", "moves"), [("gt", False), ("ge", True)])
def test_a_tie(compare: str, moves: bool) -> None:
    # W6 + P2 = 8 against M Major(1) 3 + F Major(1) 5 = 8.
    state = play(pos(at_card(4, l4="P2"), compare=compare), "W6")
    j = state.last_judgement
    assert j is not None and j.lhs == j.rhs == 8
    if moves:
        assert state.token == 1 and discards(state) == ["W6", "P2"]
        assert "= 8 ≥ M Major(1)" in (state.describe_last_judgement() or "").__str__()
    else:
        assert state.token == 4 and discards(state) == ["W6"]
        assert "= 8 ≤ M Major(1)" in str(state.describe_last_judgement())


def test_stay_discards_only_the_sword() -> None:
    # Token on 1 with C9; S5: 5 + 9 = 14 > M Major(4) 3 + F Major(4) 0 = 3.
    state = play(pos(at_card(1, l1="C9")), "S5")
    assert state.phase == "choose" and discards(state) == ["S5"]
    stayed = play(state, "stay")
    assert stayed.token == 1 and discards(stayed) == ["S5"] and stack_of(stayed, 1) == ["C9"]
    moved = play(state, "move")
    assert moved.token == 4 and discards(moved) == ["S5", "C9"] and stack_of(moved, 1) == []
    judgement = stayed.describe_last_judgement()
    assert judgement is not None and "stays" in judgement.en and "留まる" in judgement.ja


def test_a_losing_lower_sword_gives_no_choice() -> None:
    # S1 + F Major(1) 5 = 6 < M Major(4) 3 + P10 = 13.
    state = play(pos(at_card(1, l4="P10")), "S1")
    assert state.phase == "draw" and state.token == 1
    assert discards(state) == ["S1", "P10"]


def test_the_choice_survives_a_position_text() -> None:
    state = play(pos(at_card(1, l1="C9")), "S5")
    again = pos(state.position())
    assert again == state
    assert play(again, "move") == play(state, "move")
    assert play(again, "stay") == play(state, "stay")


@pytest.mark.parametrize(
    ("influence", "m_major", "f_major"),
    [("1", 3, 5), ("1.5", 5, 8), ("2", 6, 10), ("2.5", 8, 13), ("3", 9, 15)],
)
def test_influence_multiplies_and_rounds_up(influence: str, m_major: int, f_major: int) -> None:
    # Line 1 is I (Sword 3/3, Coin 5/7): upright 3 and 5; ×1.5 gives 4.5 → 5 and 7.5 → 8.
    state = play(pos(at_card(4), influence=influence), "W1")
    j = state.last_judgement
    assert j is not None and (j.m_major_to, j.f_to) == (m_major, f_major)


def test_reversed_majors_use_defence_and_joy() -> None:
    # Line 1 reversed (Ir): M Major = Sword 守 3, F Major = Coin 喜 7; line 4 IVr F Major 3.
    board = "Ir,II,III,IVr,V,VI"
    state = play(pos(at_card(4, board=board), influence="1.5"), "W10")
    j = state.last_judgement
    assert j is not None
    assert (j.f_from, j.m_major_to, j.f_to) == (5, 5, 11)  # ⌈3×1.5⌉, ⌈3×1.5⌉, ⌈7×1.5⌉
    assert (j.lhs, j.rhs, state.token) == (15, 16, 4)


@pytest.mark.parametrize(
    ("court", "values"),
    [("K14", (11, 12, 13, 14)), ("K13a", (11, 12, 12, 13)), ("K13b", (11, 11, 12, 13))],
)
def test_court_values(court: str, values: tuple[int, ...]) -> None:
    for card, value in zip(("WP", "WN", "WQ", "WK"), values, strict=True):
        state = play(pos(at_card(4), court=court), card)
        j = state.last_judgement
        assert j is not None and j.m_minor == value


# --- the end ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("start", "token", "result"),
    [
        (4, 5, "win"),
        (4, 6, "win"),
        (6, 4, "loss"),
        (5, 2, "loss"),
        (1, 2, "win"),
        (3, 5, "win"),
        (2, 1, "loss"),
        (2, 6, "loss"),
    ],
)
def test_the_end(start: int, token: int, result: str) -> None:
    terminator = "0" if start >= 4 else "XIII"
    state = play(pos(at_card(token, start=start)), terminator)
    assert state.current_player() == TERMINAL and state.legal_moves() == ()
    outcome = state.outcome()
    assert outcome is not None and outcome.result(0) == result
    assert f"line {token}" in outcome.text.en and str(token) in outcome.text.ja
    assert state.position().endswith("1 end 8")  # the drawn card is chance, not a ply


def test_the_other_major_is_not_in_the_talon() -> None:
    state = pos(at_card(5, start=4))
    with pytest.raises(IllegalMoveError):
        state.parse_move("XIII")


def test_rounds_reshuffle_the_discards() -> None:
    text = f"{BOARD} 4 5 {stacks(l5='P2', l3='C3')} S4,W9,P5 1 card 30"
    state = pos(text, rounds="3")
    assert len(state.chance_outcomes()) == 57 - 5
    state = play(state, "0")
    assert state.current_player() == 0 and state.round == 2 and state.discards == ()
    assert state.position() == f"{BOARD} 4 5 {stacks(l5='P2', l3='C3')} - 2 draw 30"
    state = play(state, "draw")
    names = {state.format_move(m) for m, _ in state.chance_outcomes()}
    assert len(names) == 57 - 2 and {"0", "S4", "W9", "P5"} <= names
    # S4 + P2 = 6 > M Major(4) 3 + F Major(4) 0 = 3: the Sword takes the token back to 4.
    state = play(state, "S4", "draw", "0")
    assert state.round == 3 and state.token == 4 and state.discards == ()
    state = play(state, "draw", "0")
    assert state.current_player() == TERMINAL
    outcome = state.outcome()
    assert outcome is not None and outcome.result(0) == "loss"


def test_rounds_must_fit_the_option() -> None:
    with pytest.raises(PositionError):
        pos(f"{BOARD} 4 5 {stacks()} - 2 draw 30")
    assert pos(f"{BOARD} 4 5 {stacks()} - 2 draw 30", rounds="2").round == 2


def test_cap_draws_the_game() -> None:
    state = pos(f"{BOARD} 4 5 {stacks()} - 1 draw 299", cap="300")
    state = play(state, "draw")
    assert state.current_player() == TERMINAL
    outcome = state.outcome()
    assert outcome is not None and outcome.is_draw


def test_cap_counts_plies_not_deals_or_drawn_cards() -> None:
    # 298 plies; the player's draw is ply 299, the drawn card is a chance step (not a ply).
    state = pos(f"{BOARD} 4 5 {stacks()} - 1 draw 298", cap="300")
    state = play(state, "draw", "P3")
    assert state.turns == 299 and state.ply == 300 and not state.is_over()
    assert state.position().endswith(" draw 299")
    state = play(state, "draw")
    assert state.turns == 300 and state.current_player() == TERMINAL
    # From the start: six deals (chance) and the start choice make one ply.
    fresh = GAME.new_game(options={"cap": "300"})
    for name in ("I", "II", "III", "IV", "V", "VI"):
        fresh = play(fresh, f"deal {name}")
    assert fresh.turns == 0 and fresh.ply == 6
    assert play(fresh, "start 4").turns == 1


# --- chance, records and secrecy ---------------------------------------------------------------


def _seeded_game(seed: str, rounds: str = "1") -> tuple[YosukoState, Record]:
    """A full game: the host resolves chance with the seed, the player always starts on 2 and
    always moves."""
    state: YosukoState = GAME.new_game(1, {"rounds": rounds})
    entries: list[Entry] = []
    while not state.is_over():
        if state.current_player() == CHANCE:
            state = advance_chance(state, seed, entries)  # type: ignore[assignment]
            continue
        move = state.parse_move("start 2") if state.phase == "start" else state.legal_moves()[0]
        entries.append(Entry(0, state.format_move(move)))
        state = state.apply(move)
    return state, Record("yosuko", 1, state.options(), seed, tuple(entries))


def test_same_seed_same_deal_and_draws() -> None:
    a, rec_a = _seeded_game("table-7")
    b, rec_b = _seeded_game("table-7")
    assert rec_a == rec_b and a == b
    _, rec_c = _seeded_game("table-8")
    assert rec_c.entries != rec_a.entries
    assert rec_a.entries[0].actor == CHANCE and rec_a.entries[0].move.startswith("deal ")
    assert rec_a.entries[6] == Entry(0, "start 2")
    assert rec_a.entries[7] == Entry(0, "draw") and rec_a.entries[8].actor == CHANCE


@pytest.mark.parametrize("rounds", ["1", "3"])
def test_the_record_replays_exactly(rounds: str) -> None:
    final, record = _seeded_game("replay", rounds)
    assert record.replay() == final
    assert Record.from_json(record.to_json()).replay() == final
    assert final.round == int(rounds)


def test_no_state_holds_an_order_of_the_talon() -> None:
    # Every draw is uniform over exactly the cards not on the table: nothing undrawn is known.
    state = pos(f"{BOARD} 1 3 {stacks(l3='C5', l4='P1')} S4 1 card 20")
    outcomes = state.chance_outcomes()
    table = {"C5", "P1", "S4"}
    names = [state.format_move(m) for m, _ in outcomes]
    assert len(names) == 56 + 1 - 3 and not table & set(names) and "XIII" in names
    assert {p for _, p in outcomes} == {Fraction(1, 54)}
    assert state.observe(0) == state and state.observe(None) == state
    assert not state.hides_moves()
    # Two games that saw the same cards in a different order are the same position.
    a = play(pos(at_card(4)), "P3", "draw", "P4")
    b = play(pos(at_card(4)), "P4", "draw", "P3")
    assert a.stacks != b.stacks  # stacking order is on the table, so it is kept ...
    assert a.talon == b.talon  # ... but the talon is a set


def test_draws_are_uniform_enough() -> None:
    """Chi-square of the first drawn card over 2,000 seeded games (56 degrees of freedom).

    The bound 122 is the 1 - 1e-6 quantile (Wilson–Hilferty), so a fair host fails it once in a
    million seeds; the seeds are fixed, so the test is deterministic anyway.
    """
    start = pos(f"{BOARD} 1 1 {stacks()} - 1 card 8")
    n = 2000
    counts = Counter(start.format_move(chance_pick(start, f"game{i}", 8)) for i in range(n))
    expected = n / 57
    chi2 = sum((counts[start.format_move(m)] - expected) ** 2 / expected for m in start._moves)
    assert len(counts) == 57 and chi2 < 122


def test_deals_are_uniform_enough() -> None:
    """The first dealt major with its orientation over 2,000 seeds: 40 outcomes, bound 97."""
    start = GAME.new_game()
    n = 2000
    counts = Counter(chance_pick(start, f"game{i}", 0) for i in range(n))
    expected = n / 40
    chi2 = sum((counts[m] - expected) ** 2 / expected for m, _ in start.chance_outcomes())
    assert len(counts) == 40 and chi2 < 97


# --- notation -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("phase_pos", "spelling", "canonical"),
    [
        ("start", "start 4", "start 4"),
        ("start", "start4", "start 4"),
        ("start", "START 4", "start 4"),
        ("start", "開始 4", "start 4"),
        ("start", "開始　４", "start 4"),
        ("start", "4", "start 4"),
        ("start", "開始 五爻", "start 5"),
        ("start", "start 上爻", "start 6"),
        ("draw", "draw", "draw"),
        ("draw", "Draw", "draw"),
        ("draw", "引く", "draw"),
        ("choose", "move", "move"),
        ("choose", "進む", "move"),
        ("choose", "stay", "stay"),
        ("choose", "留まる", "stay"),
        ("card", "S10", "S10"),
        ("card", "s10", "S10"),
        ("card", "Swords 10", "S10"),
        ("card", "ソード10", "S10"),
        ("card", "pk", "PK"),
        ("card", "King of Coins", "PK"),
        ("card", "CQ", "CQ"),
        ("card", "WN", "WN"),
        ("card", "xiii", "XIII"),
        ("card", "13", "XIII"),
        ("deal", "deal XVIIr", "deal XVIIr"),
        ("deal", "XVIIr", "deal XVIIr"),
        ("deal", "deal xviir", "deal XVIIr"),
        ("deal", "17r", "deal XVIIr"),
        ("deal", "星 逆", "deal XVIIr"),
        ("deal", "deal XVII", "deal XVII"),
        ("deal", "The Star", "deal XVII"),
    ],
)
def test_spellings(phase_pos: str, spelling: str, canonical: str) -> None:
    state = {
        "deal": GAME.new_game(),
        "start": pos(f"{BOARD} - - {stacks()} - 1 start 6"),
        "draw": pos(f"{BOARD} 1 1 {stacks()} - 1 draw 7"),
        "card": pos(f"{BOARD} 1 1 {stacks()} - 1 card 8"),
        "choose": pos(f"{BOARD} 1 1 {stacks(l1='C9')} S5 1 choose 9"),
    }[phase_pos]
    move = state.parse_move(spelling)
    assert state.format_move(move) == canonical


def test_display_forms() -> None:
    state = GAME.new_game()
    move = state.parse_move("deal XVIIr")
    assert state.display_move(move, "ja") == "配る XVII 星（逆）"
    assert state.display_move(move, "en") == "deal XVII The Star (reversed)"
    card = pos(f"{BOARD} 1 1 {stacks()} - 1 card 8")
    assert card.display_move(card.parse_move("SQ"), "ja") == "ソードクイーン"
    start = pos(f"{BOARD} - - {stacks()} - 1 start 6")
    assert start.display_move(start.parse_move("start 6"), "ja") == "開始 6（上爻）"


def test_errors_say_what_was_wrong() -> None:
    start = pos(f"{BOARD} - - {stacks()} - 1 start 6")
    with pytest.raises(AmbiguousMoveError) as amb:
        start.parse_move("start")
    assert "start 1" in amb.value.suggestions and amb.value.text.ja
    with pytest.raises(InvalidMoveError) as bad:
        start.parse_move("start 7")
    assert "1 to 6" in bad.value.text.en and "1〜6" in bad.value.text.ja
    with pytest.raises(IllegalMoveError) as illegal:
        start.parse_move("draw")
    assert illegal.value.suggestions
    with pytest.raises(InvalidMoveError):
        start.parse_move("zz9")
    card = pos(f"{BOARD} 1 1 {stacks(l1='C5')} - 1 card 8")
    with pytest.raises(IllegalMoveError):
        card.parse_move("C5")  # already on the table
    with pytest.raises(IllegalMoveError):
        card.parse_move("0")  # The Fool is set aside after a lower start
    draw = pos(f"{BOARD} 1 1 {stacks()} - 1 draw 7")
    with pytest.raises(IllegalMoveError):
        draw.parse_move("S10")  # a card comes from the talon, not from the player
    with pytest.raises(EngineError):
        draw.apply(card.parse_move("S10"))


# --- position text -------------------------------------------------------------------------


def test_position_text_round_trip_through_a_game() -> None:
    final, record = _seeded_game("positions", "2")
    state = record.start()
    for entry in record.entries:
        again = GAME.from_position(state.position(), state.options())
        assert again == state and again.position() == state.position()
        state = state.apply(state.parse_move(entry.move))
    assert state == final


@pytest.mark.parametrize(
    "text",
    [
        "",
        f"{BOARD} 1 1 {stacks()} - 1 draw",  # seven fields
        f"I,II,III,IV,V 1 1 {stacks()} - 1 draw 7",  # five lines
        f"I,II,III,IV,V,0 1 1 {stacks()} - 1 draw 7",  # The Fool is never on the board
        f"I,II,III,IV,V,V 1 1 {stacks()} - 1 draw 7",  # a major twice
        f"I,-,III,IV,V,VI - - {stacks()} - 1 deal 2",  # dealt out of order
        f"I,II,III,-,-,- - - {stacks()} - 1 start 3",  # a start before the deal ends
        f"{BOARD} 1 7 {stacks()} - 1 draw 7",  # no line 7
        f"{BOARD} 1 1 {stacks(l1='P3')} - 1 draw 7",  # a coin on a lower line
        f"{BOARD} 1 1 {stacks(l4='C3')} - 1 draw 7",  # a cup on an upper line
        f"{BOARD} 1 1 {stacks(l1='C3')} C3 1 draw 7",  # a card twice
        f"{BOARD} 1 1 {stacks()} 0 1 draw 7",  # The Fool in the discards
        f"{BOARD} 1 1 {stacks()} - 1 fly 7",  # no such phase
        f"{BOARD} 4 4 {stacks()} S3 1 choose 9",  # move/stay only on the lower trigram
        f"{BOARD} 1 1 {stacks()} W3 1 choose 9",  # ... after a Sword
        f"{BOARD} - - {stacks(l1='C3')} - 1 start 6",  # cards before the start
    ],
)
def test_bad_positions(text: str) -> None:
    with pytest.raises(PositionError) as err:
        pos(text)
    assert err.value.text.en and err.value.text.ja


def _data_lines(name: str) -> list[tuple[str, int]]:
    out = []
    for line in (DATA / name).read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            text, count = line.rsplit(";", 1)
            out.append((text.strip(), int(count)))
    return out


@pytest.mark.parametrize(("text", "count"), _data_lines("moves.txt"))
def test_move_counts(text: str, count: int) -> None:
    """Legal moves (or chance outcomes) of fixed positions, kept as data (``rounds=3`` lets a
    position be in any round; it changes no count)."""
    state = pos(text, rounds="3")
    assert len(state.legal_moves()) == count
    assert state.position() == text
