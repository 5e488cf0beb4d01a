"""Tiny test engines for the service: noughts and crosses (with an optional secret setup) and a
dice race (chance steps, one to three players). They follow the engines.core interface only as
far as the host needs it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from engines.core import (
    CHANCE,
    SIMULTANEOUS,
    TERMINAL,
    Game,
    IllegalMoveError,
    InvalidMoveError,
    OptionSpec,
    Outcome,
    PositionError,
    State,
    Termination,
    Text,
)

SQUARES = tuple(f"{c}{r}" for r in "123" for c in "abc")
LINES = (
    (0, 1, 2),
    (3, 4, 5),
    (6, 7, 8),
    (0, 3, 6),
    (1, 4, 7),
    (2, 5, 8),
    (0, 4, 8),
    (2, 4, 6),
)
SECRETS = ("s1", "s2", "s3")


def read_name(
    state: State[str], text: str, legal: tuple[str, ...], known: tuple[str, ...] = ()
) -> str:
    """A move of the fake games is its own name (any case); a known name that is not legal
    here is returned for parse_move to refuse as illegal."""
    key = text.strip().lower()
    for name in (*legal, *known):
        if name.lower() == key:
            return name
    raise InvalidMoveError(
        Text(f"{text!r} is not a move.", f"「{text}」は指し手ではありません。"),
        state.closest(text, legal),
    )


@dataclass(frozen=True)
class TttState(State[str]):
    """Noughts and crosses; with ``setup=on`` each player first picks a secret token."""

    cells: tuple[int, ...] = (-1,) * 9
    to_move: int = 0
    plies: int = 0
    secrets: tuple[str | None, ...] | None = None  # None: no setup; else one per player
    opts: tuple[tuple[str, str], ...] = ()

    @property
    def num_players(self) -> int:
        return 2

    def _winner(self) -> int | None:
        for a, b, c in LINES:
            if self.cells[a] >= 0 and self.cells[a] == self.cells[b] == self.cells[c]:
                return self.cells[a]
        return None

    def current_player(self) -> int:
        if self.outcome() is not None:
            return TERMINAL
        if self.secrets is not None and None in self.secrets:
            return SIMULTANEOUS
        return self.to_move

    def acting_players(self) -> tuple[int, ...]:
        p = self.current_player()
        if p == SIMULTANEOUS:
            assert self.secrets is not None
            return tuple(i for i, s in enumerate(self.secrets) if s is None)
        return (p,) if p >= 0 else ()

    @property
    def ply(self) -> int:
        return self.plies

    def legal_moves(self, player: int | None = None) -> tuple[str, ...]:
        p = self.current_player()
        if p == TERMINAL:
            return ()
        if p == SIMULTANEOUS:
            return SECRETS if player in self.acting_players() else ()
        if player is not None and player != p:
            return ()
        return tuple(SQUARES[i] for i in range(9) if self.cells[i] < 0)

    def apply(self, move: str, player: int | None = None) -> TttState:
        p = self.current_player()
        if p == SIMULTANEOUS:
            if player is None or move not in self.legal_moves(player):
                raise IllegalMoveError(Text("illegal secret", "不正"))
            assert self.secrets is not None
            s = list(self.secrets)
            s[player] = move
            return TttState(self.cells, self.to_move, self.plies + 1, tuple(s), self.opts)
        if move not in self.legal_moves():
            raise IllegalMoveError(Text(f"{move} is not legal", f"{move}は指せません"))
        cells = list(self.cells)
        cells[SQUARES.index(move)] = p
        return TttState(tuple(cells), 1 - p, self.plies + 1, self.secrets, self.opts)

    def outcome(self) -> Outcome | None:
        w = self._winner()
        if w is not None:
            return Outcome.win(w, 2, Termination.RULE, Text("three in a row", "三目並び"))
        if all(c >= 0 for c in self.cells):
            return Outcome.draw(2, Termination.CAP, Text("board full", "盤が埋まった"))
        return None

    def hides_moves(self) -> bool:
        return self.secrets is not None and None in self.secrets

    def observe(self, viewer: int | None) -> TttState:
        if not self.hides_moves() or self.secrets is None:
            return self
        masked = tuple(
            s if i == viewer else (None if s is None else "?") for i, s in enumerate(self.secrets)
        )
        return TttState(self.cells, self.to_move, self.plies, masked, self.opts)

    def format_move(self, move: str) -> str:
        return move

    def read_move(self, text: str, legal: tuple[str, ...]) -> str:
        return read_name(self, text, legal, SQUARES + SECRETS)

    def position(self) -> str:
        board = "".join("." if c < 0 else "xo"[c] for c in self.cells)
        sec = "-" if self.secrets is None else ",".join(s or "_" for s in self.secrets)
        return f"{board} {self.to_move} {sec}"

    def options(self) -> dict[str, str]:
        return dict(self.opts)


class Ttt(Game[TttState]):
    id = "ttt-test"
    title_en = "Noughts and crosses"
    title_ja = "三目並べ"
    player_counts = (2,)
    has_secret_setup = True
    game_options = (
        OptionSpec("setup", ("off", "on"), "off", Text("secret token first", "最初に秘密の札")),
    )

    def initial_state(self, players: int, options: dict[str, str]) -> TttState:
        secrets = (None, None) if options.get("setup") == "on" else None
        return TttState(secrets=secrets, opts=tuple(sorted(options.items())))

    def parse_position(self, text: str, options: dict[str, str], players: int) -> TttState:
        raise PositionError(Text("not supported", "未対応"))


@dataclass(frozen=True)
class RaceState(State[str]):
    """A dice race to 10: roll 1-3 (chance), then ``go`` (the roll) or ``step`` (one).
    Landing exactly on 7 loses at once."""

    where: tuple[int, ...] = (0, 0)
    to_move: int = 0
    roll: int = 0  # 0: a roll is due (chance)
    plies: int = 0
    lost: int | None = None

    @property
    def num_players(self) -> int:
        return len(self.where)

    def current_player(self) -> int:
        if self.outcome() is not None:
            return TERMINAL
        return CHANCE if self.roll == 0 else self.to_move

    @property
    def ply(self) -> int:
        return self.plies

    def chance_outcomes(self) -> tuple[tuple[str, Fraction], ...]:
        if self.current_player() != CHANCE:
            return ()
        return tuple((f"d{i}", Fraction(1, 3)) for i in (1, 2, 3))

    def legal_moves(self, player: int | None = None) -> tuple[str, ...]:
        p = self.current_player()
        if p == CHANCE:
            return ("d1", "d2", "d3")
        if p == TERMINAL or (player is not None and player != p):
            return ()
        return ("go", "step")

    def apply(self, move: str, player: int | None = None) -> RaceState:
        if move not in self.legal_moves(player):
            raise IllegalMoveError(Text(f"{move} is not legal", f"{move}は指せません"))
        if self.current_player() == CHANCE:
            return RaceState(self.where, self.to_move, int(move[1]), self.plies + 1, None)
        p = self.to_move
        where = list(self.where)
        where[p] += self.roll if move == "go" else 1
        lost = p if where[p] == 7 else None
        return RaceState(tuple(where), (p + 1) % len(where), 0, self.plies + 1, lost)

    def outcome(self) -> Outcome | None:
        n = len(self.where)
        if self.lost is not None:
            return Outcome.loss(self.lost, n, Termination.RULE, Text("landed on 7", "7に止まった"))
        for i, w in enumerate(self.where):
            if w >= 10:
                return Outcome.win(i, n, Termination.RULE, Text("reached 10", "10に到達"))
        return None

    def format_move(self, move: str) -> str:
        return move

    def read_move(self, text: str, legal: tuple[str, ...]) -> str:
        return read_name(self, text, legal)

    def position(self) -> str:
        return f"{','.join(map(str, self.where))} {self.to_move} {self.roll}"


class Race(Game[RaceState]):
    id = "race-test"
    title_en = "Dice race"
    title_ja = "すごろく競走"
    player_counts = (2, 1, 3)
    has_chance = True

    def initial_state(self, players: int, options: dict[str, str]) -> RaceState:
        return RaceState(where=(0,) * players)

    def parse_position(self, text: str, options: dict[str, str], players: int) -> RaceState:
        raise PositionError(Text("not supported", "未対応"))


TTT = Ttt()
RACE = Race()
TttState.game = TTT
RaceState.game = RACE

FAKE_GAMES: dict[str, Game[Any]] = {TTT.id: TTT, RACE.id: RACE}


def fake_png(
    state: State[Any],
    viewer: int | None,
    last_move: Any,
    outcome: Outcome | None = None,
    names: Sequence[str] | None = None,
) -> bytes:
    """A stand-in renderer: the bytes say what it drew, so tests can check what a viewer saw
    (and, for a game the host ended, the outcome it was given; the players' names)."""
    text = f"PNG {state.game.id} viewer={viewer} pos={state.position()} last={last_move}"
    if outcome is not None:
        text += f" end={outcome.termination.value}"
    if names is not None:
        text += " names=" + ",".join(names)
    return text.encode()


def install(monkeypatch: Any, with_renderer: bool = True) -> None:
    """Register the fake games (and their stand-in renderer) for one test."""
    import engines.registry
    import render

    monkeypatch.setattr(engines.registry, "_games", lambda: dict(FAKE_GAMES))
    renderers = {TTT.id: fake_png, RACE.id: fake_png} if with_renderer else {}
    monkeypatch.setattr(render, "_renderers", lambda: renderers)
