"""The shared core: options, outcomes, errors, chance picks and records, on a tiny test game."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

import pytest

from engines.core import (
    CHANCE,
    TERMINAL,
    Game,
    History,
    IllegalMoveError,
    InvalidMoveError,
    OptionError,
    OptionSpec,
    Outcome,
    PositionError,
    State,
    Termination,
    Text,
    chance_pick,
    check_input,
    normalise,
    perft,
    position_error,
)
from engines.registry import get_game


@dataclass(frozen=True)
class Take:
    n: int


@dataclass(frozen=True)
class NimState(State[Take]):
    """Nim with a chance start: the host rolls the heap size 3..5, then players take 1 or 2."""

    heap: int | None
    to_move: int = 0
    plies: int = 0
    history: History = field(default_factory=History)

    @property
    def num_players(self) -> int:
        return 2

    @property
    def ply(self) -> int:
        return self.plies

    def current_player(self) -> int:
        if self.heap is None:
            return CHANCE
        return TERMINAL if self.heap == 0 else self.to_move

    def chance_outcomes(self) -> tuple[tuple[Take, Fraction], ...]:
        if self.heap is not None:
            return ()
        return tuple((Take(n), Fraction(1, 3)) for n in (3, 4, 5))

    def legal_moves(self, player: int | None = None) -> tuple[Take, ...]:
        if self.heap is None:
            return tuple(m for m, _ in self.chance_outcomes())
        return tuple(Take(n) for n in (1, 2) if n <= self.heap)

    def apply(self, move: Take, player: int | None = None) -> NimState:
        if move not in self.legal_moves():
            raise IllegalMoveError(Text("no", "いいえ"))
        if self.heap is None:
            return NimState(move.n, 0, self.plies + 1)
        return NimState(self.heap - move.n, 1 - self.to_move, self.plies + 1)

    def outcome(self) -> Outcome | None:
        if self.heap != 0:
            return None
        return Outcome.win(1 - self.to_move, 2, Termination.RULE, Text("took last", "最後"))

    def format_move(self, move: Take) -> str:
        return f"heap{move.n}" if self.heap is None else f"take{move.n}"

    def read_move(self, text: str, legal: tuple[Take, ...]) -> Take:
        key = normalise(text)
        word = "HEAP" if self.heap is None else "TAKE"
        if key.startswith(word) and key[len(word) :].isdecimal():
            return Take(int(key[len(word) :]))
        raise InvalidMoveError(
            Text(f"{text!r} is not a move.", f"「{text}」は指し手ではありません。"),
            self.closest(text, legal),
        )

    def position(self) -> str:
        return f"{self.heap} {self.to_move}"


class Nim(Game[NimState]):
    id = "nim-test"
    title_en = "Nim"
    title_ja = "ニム"
    game_options = (OptionSpec("size", ("s", "m"), "s", Text("size", "大きさ")),)

    def initial_state(self, players: int, options: dict[str, str]) -> NimState:
        return NimState(None)

    def parse_position(self, text: str, options: dict[str, str], players: int) -> NimState:
        try:
            heap, who = text.split()
            return NimState(int(heap), int(who))
        except ValueError as exc:
            raise PositionError(Text("bad", "不正")) from exc


NimState.game = Nim()


def test_options_defaults_and_errors() -> None:
    nim = Nim()
    assert nim.resolve_options({}) == {"size": "s", "repetition": "4", "cap": "600"}
    assert nim.resolve_options({"size": "m"})["size"] == "m"
    with pytest.raises(OptionError, match="no option 'colour'"):
        nim.resolve_options({"colour": "red"})
    with pytest.raises(OptionError, match="allowed: s, m") as err:
        nim.resolve_options({"size": "xl"})
    assert "使える値" in err.value.text.ja
    with pytest.raises(OptionError, match="for 2 players, not 3"):
        nim.new_game(3)


def test_unknown_game_names_the_known_ones() -> None:
    with pytest.raises(OptionError) as err:
        get_game("chess")
    assert "There is no game 'chess'" in err.value.text.en


def test_parse_errors_quote_input_and_suggest() -> None:
    state = Nim().new_game().apply(Take(4))
    assert state.parse_move(" TAKE2 ") == Take(2)
    with pytest.raises(InvalidMoveError) as err:
        state.parse_move("tak")
    assert "'tak'" in err.value.text.en
    assert err.value.suggestions[0] in {"take1", "take2"}
    with pytest.raises(InvalidMoveError, match="empty"):
        state.parse_move("   ")
    with pytest.raises(IllegalMoveError, match="not a legal move"):
        state.parse_move("take3")  # readable, but only 1 or 2 may be taken
    with pytest.raises(IllegalMoveError, match="no seat 2"):
        state.parse_move("take1", 2)
    with pytest.raises(InvalidMoveError, match="too long"):
        check_input("x" * 101)


def test_position_error_names_the_game_and_quotes_the_text() -> None:
    err = position_error(Nim(), "no heap", "山がありません", "x y z")
    assert isinstance(err, PositionError)
    assert err.text.en == "Not a Nim position (no heap): 'x y z'"
    assert err.text.ja == "ニムの局面として読めません（山がありません）：「x y z」"
    assert "..." in position_error(Nim(), "long", "長い", "x" * 200).text.en


def test_normalise_folds_width_and_case() -> None:
    assert normalise("ｔａｋｅ　２") == "TAKE2"
    assert normalise("四０４占") == "四04占"


def test_outcomes() -> None:
    win = Outcome.win(1, 2, Termination.RULE, Text("a", "b"))
    assert win.result(1) == "win" and win.result(0) == "loss" and win.returns() == (-1.0, 1.0)
    resign3 = Outcome.loss(2, 3, Termination.RESIGNATION, Text("a", "b"))
    assert resign3.ranks == (1, 1, 3) and resign3.winners == {0, 1}
    assert Outcome.loss(0, 1, Termination.RULE, Text("a", "b")).result(0) == "loss"
    draw = Outcome.draw(2, Termination.REPETITION, Text("a", "b"))
    assert draw.is_draw and draw.result(0) == "draw"
    aborted = Outcome(Termination.ABORTED, frozenset(), (1, 1), Text("a", "b"))
    assert aborted.result(0) == "none" and not aborted.is_draw


def test_chance_pick_is_deterministic_and_seed_dependent() -> None:
    start = Nim().new_game()
    picks = {chance_pick(start, seed, 0).n for seed in range(60)}
    assert picks == {3, 4, 5}
    assert all(chance_pick(start, s, 0) == chance_pick(start, s, 0) for s in range(20))


def test_perft_counts_finished_games_as_leaves() -> None:
    state = Nim().new_game().apply(Take(3))
    # 3 -> (1,1,1), (1,2), (2,1): depth 3 sequences end early at heap 0.
    assert perft(state, 1) == 2
    assert perft(state, 3) == 3


def test_history_counts_since_irreversible() -> None:
    h = History().push("a").push("b").push("a")
    assert h.count("a") == 2
    assert h.push("c", irreversible=True).keys == ("c",)
