"""The generic test every registered game must pass (after OpenSpiel's random-play test)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines import all_games
from engines.core import (
    CHANCE,
    SIMULTANEOUS,
    TERMINAL,
    EngineError,
    Game,
    IllegalMoveError,
    PositionError,
    State,
)
from engines.record import Record
from tests.engines.playout import random_game

GAMES = all_games()
PLAYER_COUNTS = [(g, n) for g in GAMES for n in g.player_counts]


def _id(item: Any) -> str:
    if isinstance(item, Game):
        return item.id
    return str(item)


def _actors(state: State[Any]) -> list[int | None]:
    p = state.current_player()
    if p == SIMULTANEOUS:
        return list(state.acting_players())
    return [None]


@pytest.mark.parametrize(("game", "players"), PLAYER_COUNTS, ids=_id)
def test_registry_facts(game: Game[Any], players: int) -> None:
    assert game.id and game.title_en and game.title_ja
    assert game.summary.en and game.summary.ja
    assert game.rules_doc.startswith("docs/rules/")
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
        for actor in _actors(state):
            moves = state.legal_moves(actor)
            assert moves == state.legal_moves(actor), "legal moves must be stable"
            assert len(set(moves)) == len(moves), "duplicate legal moves"
            for move in moves:
                text = state.format_move(move)
                assert state.parse_move(text, actor) == move, text
                assert state.display_move(move, "en") and state.display_move(move, "ja")
        # The position text builds an equal position.
        text = state.position()
        again = game.from_position(text, state.options(), players)
        assert again.position() == text
        assert again.current_player() == p
        for actor in _actors(state):
            assert again.legal_moves(actor) == state.legal_moves(actor)
    # The record replays to the identical state, also through JSON.
    assert record.replay() == states[-1]
    assert Record.from_json(record.to_json()).replay() == states[-1]


@pytest.mark.parametrize("game", GAMES, ids=_id)
def test_same_seed_same_game(game: Game[Any]) -> None:
    assert random_game(game, 7, 80)[1] == random_game(game, 7, 80)[1]


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
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
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
        actors = _actors(state) if state.current_player() != CHANCE else [None]
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
            state.legal_moves(*[a for a in _actors(state) if a is not None][:1])

    check()
