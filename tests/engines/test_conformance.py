"""The generic test every registered game must pass (after OpenSpiel's random-play test)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines import all_games, get_game
from engines.core import (
    CHANCE,
    SIMULTANEOUS,
    TERMINAL,
    EngineError,
    Game,
    IllegalMoveError,
    PositionError,
)
from engines.record import Record
from tests.engines.playout import random_game
from tests.helpers import actors_of, mutated, samples

ROOT = Path(__file__).parents[2]
GAMES = all_games()
PLAYER_COUNTS = [(g, n) for g in GAMES for n in g.player_counts]


def _id(item: Any) -> str:
    if isinstance(item, Game):
        return item.id
    return str(item)


@pytest.mark.parametrize(("game", "players"), PLAYER_COUNTS, ids=_id)
def test_registry_facts(game: Game[Any], players: int) -> None:
    assert game.id and game.title_en and game.title_ja
    assert game.summary.en and game.summary.ja
    assert game.rules_doc.startswith("docs/rules/")
    assert (ROOT / game.rules_doc).is_file(), f"{game.rules_doc} is missing"
    for spec in game.options:
        assert spec.default in spec.values
        assert spec.help.en and spec.help.ja
    state = game.new_game(players)
    assert state.num_players == players
    assert state.ply == 0
    assert state.options() == game.resolve_options({})
    for seat in range(players):
        assert game.seat_name(seat, "en", players) and game.seat_name(seat, "ja", players)


@pytest.mark.parametrize(("game", "players"), PLAYER_COUNTS, ids=_id)
@pytest.mark.parametrize("seed", range(4))
def test_random_playout(game: Game[Any], players: int, seed: int) -> None:
    states, record = random_game(game, seed, max_plies=160, players=players)
    for state in states:
        p = state.current_player()
        assert p in (CHANCE, SIMULTANEOUS, TERMINAL) or 0 <= p < players
        if state.is_over():
            assert p == TERMINAL
            assert state.legal_moves() == ()
            outcome = state.outcome()
            assert outcome is not None and len(outcome.ranks) == players
            assert outcome.text.en and outcome.text.ja
            continue
        if p == CHANCE:
            outcomes = state.chance_outcomes()
            assert outcomes and sum(prob for _, prob in outcomes) == 1
            for move, _ in outcomes:
                assert state.parse_move(state.format_move(move)) == move
            continue
        for actor in actors_of(state):
            moves = state.legal_moves(actor)
            assert moves == state.legal_moves(actor), "legal moves must be stable"
            assert len(set(moves)) == len(moves), "duplicate legal moves"
            for move in moves:
                text = state.format_move(move)
                assert state.parse_move(text, actor) == move, text
                assert str(move), "a move prints its notation"
            for lang in ("en", "ja"):
                shown = [state.display_move(m, lang) for m in moves]
                assert all(shown) and len(set(shown)) == len(shown), "display forms must differ"
                for move, text in zip(moves, shown, strict=True):
                    assert state.parse_move(text, actor) == move, text
        # The position text builds an equal position.
        text = state.position()
        again = game.from_position(text, state.options(), players)
        assert again.position() == text
        assert again.current_player() == p
        for actor in actors_of(state):
            assert again.legal_moves(actor) == state.legal_moves(actor)
    # The record replays to the identical state, also through JSON.
    assert record.replay() == states[-1]
    assert Record.from_json(record.to_json()).replay() == states[-1]


@pytest.mark.parametrize("game", GAMES, ids=_id)
def test_same_seed_same_game(game: Game[Any]) -> None:
    assert random_game(game, 7, 80)[1] == random_game(game, 7, 80)[1]


@pytest.mark.parametrize("game", GAMES, ids=_id)
def test_apply_leaves_the_state_it_came_from_alone(game: Game[Any]) -> None:
    """States are immutable: applying each legal move (engines may finish the new state in
    place) changes nothing of the state it was applied to, and each child is its own."""
    states, _ = random_game(game, 5, 40)
    for state in states:
        if state.is_over() or state.current_player() in (CHANCE, SIMULTANEOUS):
            continue
        before = (state.position(), state.outcome(), state.legal_moves(), hash(state))
        children = [state.apply(move) for move in state.legal_moves()]
        assert (state.position(), state.outcome(), state.legal_moves(), hash(state)) == before
        assert all(child is not state for child in children)
        assert len({id(child) for child in children}) == len(children)


@pytest.mark.parametrize("game", GAMES, ids=_id)
def test_apply_rejects_illegal_and_keeps_state(game: Game[Any]) -> None:
    states, _ = random_game(game, 3, 30)
    for state in states:
        if state.is_over() or state.current_player() == CHANCE:
            continue
        before = state.position()
        with pytest.raises(EngineError):
            state.parse_move("zz-not-a-move-99")
        assert state.position() == before
    final = states[-1]
    if final.is_over():
        with pytest.raises(IllegalMoveError):
            final.parse_move(states[-2].format_move(states[-2].legal_moves()[0]))


_fuzz = settings(
    max_examples=int(os.environ.get("BANMEN_FUZZ_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
_alphabet = st.one_of(
    st.characters(),
    st.sampled_from(list("0123456789-*+@!()/ abcdefghijPNQKWSCOMHAG一二三四五六七八九０１２３")),
    st.sampled_from(list("占武巫騎弓怨領士女馬矢霊将槍歩と打成不▲△")),
)


@pytest.mark.parametrize("game", GAMES, ids=_id)
def test_fuzz_parse_move(game: Game[Any]) -> None:
    states, _ = random_game(game, 1, 12)
    live = [s for s in states if not s.is_over()]

    @_fuzz
    @given(text=st.text(_alphabet, max_size=24), index=st.integers(min_value=0))
    def check(text: str, index: int) -> None:
        state = live[index % len(live)]
        actors = actors_of(state) if state.current_player() != CHANCE else [None]
        for actor in actors:
            try:
                move = state.parse_move(text, actor)
            except EngineError as exc:
                assert exc.text.en and exc.text.ja
            else:
                if state.current_player() == CHANCE:
                    assert move in [m for m, _ in state.chance_outcomes()]
                else:
                    assert move in state.legal_moves(actor)

    if live:
        check()


@pytest.mark.parametrize("game", GAMES, ids=_id)
def test_fuzz_parse_position(game: Game[Any]) -> None:
    states, _ = random_game(game, 2, 10)
    sample = states[-1].position()

    @_fuzz
    @given(
        text=st.one_of(
            st.text(_alphabet, max_size=60),
            st.builds(
                lambda i, c: sample[:i] + c + sample[i + 1 :],
                st.integers(0, max(len(sample) - 1, 0)),
                st.text(_alphabet, min_size=0, max_size=2),
            ),
        )
    )
    def check(text: str) -> None:
        try:
            state = game.from_position(text)
        except PositionError as exc:
            assert exc.text.en and exc.text.ja
        else:
            state.legal_moves(*[a for a in actors_of(state) if a is not None][:1])

    check()


@pytest.mark.parametrize("game", GAMES, ids=_id)
def test_player_out_of_range_is_an_engine_error(game: Game[Any]) -> None:
    state = game.new_game()
    n = state.num_players
    for bad in (n, n + 5, -3, -7):
        with pytest.raises(EngineError):
            state.legal_moves(bad)
        with pytest.raises(EngineError):
            state.parse_move("x", bad)
        moves = state.legal_moves() or tuple(m for m, _ in state.chance_outcomes())
        with pytest.raises(EngineError):
            state.apply(moves[0], bad)


# --- mutation fuzzing of real texts -------------------------------------------------------------


@pytest.mark.parametrize(("game", "players"), PLAYER_COUNTS, ids=_id)
def test_mutated_positions_raise_only_position_errors(game: Game[Any], players: int) -> None:
    _, positions, _ = samples(game, players)

    @_fuzz
    @given(text=mutated(positions))
    def check(text: str) -> None:
        try:
            state = game.from_position(text, None, players)
        except PositionError as exc:
            assert exc.text.en and exc.text.ja
            return
        assert game.from_position(state.position(), None, players).position() == state.position()
        for actor in actors_of(state):
            state.legal_moves(actor)
        state.outcome()

    check()


@pytest.mark.parametrize(("game", "players"), PLAYER_COUNTS, ids=_id)
def test_mutated_moves_raise_only_engine_errors(game: Game[Any], players: int) -> None:
    live, _, moves = samples(game, players)

    @_fuzz
    @given(text=mutated(moves), index=st.integers(min_value=0))
    def check(text: str, index: int) -> None:
        state = live[index % len(live)]
        for actor in actors_of(state):
            try:
                move = state.parse_move(text, actor)
            except EngineError as exc:
                assert exc.text.en and exc.text.ja
            else:
                if state.current_player() == CHANCE:
                    assert move in [m for m, _ in state.chance_outcomes()]
                else:
                    assert move in state.legal_moves(actor)
                state.apply(move, actor)

    check()


@pytest.mark.parametrize(
    ("game_id", "players", "text"),
    [
        (
            "sangokushi",
            3,
            "L1B1.B2L2/H1P1..P2H2/+G1P1...P2G2/H1P1....P2H2/L1P1.....P2L2/B1...n...B2/...P0.../"
            "B0P0P0.PsB0/L0H0G00L0 -/-/- 1 - --- 0: 1",
        ),
        (
            "sangokushi-2p",
            2,
            "L1B1.B2L2/H1P1..P2H2/+B1P1...P2G2/H1P1....P2H2/L1P1.....P2L2/B1...n...B2/...P0.../"
            "B0P0P0.PsB0/L0H0G00L0 -/- 1 - -- 0: 1",
        ),
        ("sangokushi", 3, "+L1B1.B2L2//////// / 0 - - : 6"),
        ("sangokushi", 3, "+G1B1.B2L2//////// / 0 - - : 6"),
        ("sangokushi", 3, "+B1B1.B2L2//////// / 0 - - : 6"),
        ("suji-shogi", 2, ".../.../.../.../... - - - ²"),
    ],
)
def test_known_parser_crashes_are_position_errors(game_id: str, players: int, text: str) -> None:
    with pytest.raises(PositionError) as exc:
        get_game(game_id).from_position(text, None, players)
    assert exc.value.text.en and exc.value.text.ja
