"""``/board text``'s filters in words (render/describe.py, issue 46, 3): the pieces of one kind
and of one row are exactly the full description's pieces of that kind or on that row, for every
viewer of 60 random positions per board game, in both languages; a filter that names nothing
lists what there is; nothing hidden is written (a 数字将棋 setup before the reveal)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engines import CHANCE, State
from engines import suji_shogi as sj
from engines.registry import all_games, get_game
from render.describe import (
    DESCRIBERS,
    NoSuchPart,
    describe,
    describe_head,
    describe_part,
    kinds,
    rows,
    square_index,
    square_names,
)
from tests.engines.playout import random_game
from tests.helpers import army, sentences

BOARD_GAMES = [
    (g.id, n) for g in all_games() for n in g.player_counts if DESCRIBERS[g.id].army is not None
]


def _positions(game_id: str, players: int, count: int = 60) -> list[State[Any]]:
    game = get_game(game_id)
    found: list[State[Any]] = []
    for seed in range(count // 3 + 1):
        states, _ = random_game(game, seed, 120, players)
        found += states
    return random.Random(f"parts:{game_id}:{players}").sample(found, count)


def _listed(text: str, state: State[Any]) -> set[tuple[int, str, str]]:
    said = sentences(text)
    return {
        (seat, kind, square)
        for seat in range(state.num_players)
        for kind, square in army(said[state.game.seat_name(seat, "en", state.num_players)])
    }


@pytest.mark.parametrize(("game_id", "players"), BOARD_GAMES)
def test_a_kind_or_a_row_is_that_part_of_the_whole(game_id: str, players: int) -> None:
    for state in _positions(game_id, players):
        for viewer in (None, *range(state.num_players)):
            whole = _listed(describe(state, viewer), state)
            for kind in kinds(state, viewer):
                part = describe_part(state, viewer, "en", kind=kind)
                assert _listed(part, state) == {p for p in whole if p[1] == kind}, part
                assert describe_part(state, viewer, "ja", kind=kind).endswith("。")
            for row in rows(state, viewer):
                part = describe_part(state, viewer, "en", row=row)
                got = _listed(part, state)
                assert got and got <= whole
                assert all(row.lower() in sq.lower() or str(int(row)) in sq for *_, sq in got)
            head = describe_head(state, viewer)
            assert describe(state, viewer).startswith(head[:-1])


def test_a_filter_that_names_nothing_lists_what_there_is() -> None:
    state = get_game("sangokushi").new_game()
    with pytest.raises(NoSuchPart) as no:
        describe_part(state, None, "en", kind="queen")
    assert no.value.what == "kind" and "general G" in no.value.choices
    with pytest.raises(NoSuchPart) as no:
        describe_part(state, None, "en", row="Z")
    assert no.value.what == "row" and "E" in no.value.choices
    # a piece's letter or character, in either language, is the kind too
    assert "Only general G" in describe_part(state, None, "en", kind="g")
    assert "将のみ" in describe_part(state, None, "ja", kind="将")
    solitaire = get_game("yosuko").new_game()
    with pytest.raises(NoSuchPart):
        describe_part(solitaire, None, "en", kind="the fool")
    assert kinds(solitaire) == [] and rows(solitaire) == []


def test_squares_are_named_as_the_game_writes_them() -> None:
    for game_id in ("rokumentai", "sangokushi", "suji-shogi", "socrates-uchu"):
        state = get_game(game_id).new_game()
        names = square_names(game_id)
        assert names and all(square_index(state, n) == i for i, n in enumerate(names))
        assert square_index(state, names[0].lower()) == 0 and square_index(state, "zz99") is None


def test_a_secret_setup_stays_secret_in_every_part() -> None:
    """Before the reveal, the other side's pieces are face down in every filter, for either
    arrangement: the texts are the same."""
    texts = []
    for arrangement in ("123/456", "654/321"):
        state = get_game("suji-shogi").new_game()
        while state.current_player() == CHANCE:
            state = state.apply(state.chance_outcomes()[0][0])
        state = state.apply(state.parse_move(arrangement, sj.BLACK), sj.BLACK)
        seen = []
        for kind in kinds(state, sj.WHITE):
            seen.append(describe_part(state, sj.WHITE, "en", kind=kind))
        for row in rows(state, sj.WHITE):
            seen.append(describe_part(state, sj.WHITE, "en", row=row))
        assert seen and all("face down" in t or "White" in t for t in seen)
        texts.append(seen)
    assert texts[0] == texts[1]
