"""The one interface every Banmen game implements.

Shaped after OpenSpiel's ``State`` (one interface for one, two and three players, with chance as
an explicit step whose outcomes are *listed*, never rolled) and python-chess's ``Move`` /
``Outcome`` (small immutable values that print and parse their own notation).

A game is a :class:`Game` (the static facts: id, titles, player counts, options) that makes
immutable :class:`State` values. ``State.apply`` returns a new state. Everything a user reads is a
:class:`Text` in English and Japanese.
"""

from __future__ import annotations

import difflib
import enum
import random
import unicodedata
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar, Generic, TypeVar, overload

# ``current_player`` values that are not a seat.
CHANCE = -1
"""The host must pick one of ``chance_outcomes()`` (with the game's seed)."""
SIMULTANEOUS = -2
"""Several players act secretly and in any order (``acting_players()`` says who is still due)."""
TERMINAL = -4
"""The game is over; ``outcome()`` says how."""


@dataclass(frozen=True, slots=True)
class Text:
    """A user-facing text in English and Japanese."""

    en: str
    ja: str

    def get(self, lang: str) -> str:
        return self.ja if lang.startswith("ja") else self.en

    def __str__(self) -> str:
        return self.en


# --- errors ---------------------------------------------------------------------------------


class EngineError(ValueError):
    """Base of every error an engine raises about user input. ``text`` is user-facing."""

    def __init__(self, text: Text, suggestions: Sequence[str] = ()) -> None:
        super().__init__(text.en)
        self.text = text
        self.suggestions = tuple(suggestions)


class MoveError(EngineError):
    """A move could not be taken (python-chess's family: all are ``ValueError``)."""


class InvalidMoveError(MoveError):
    """The text is not a move in this game's notation."""


class IllegalMoveError(MoveError):
    """The text names a move, but it is not legal here."""


class AmbiguousMoveError(MoveError):
    """The text fits more than one legal move."""


class PositionError(EngineError):
    """A position text is malformed or describes an impossible position."""


class OptionError(EngineError):
    """An unknown option, or a value the option does not allow."""


# --- outcome --------------------------------------------------------------------------------


class Termination(enum.Enum):
    """Why a game ended."""

    RULE = "rule"  # the game's own win/loss rule (mate, five in a row, last 占 lost, ...)
    NO_MOVES = "no_moves"  # a player had no legal action and the game makes that a loss
    TWO_PASSES = "two_passes"  # two consecutive forced passes: draw
    REPETITION = "repetition"  # fourth occurrence of a position: draw
    CAP = "cap"  # ply cap reached: draw
    RESIGNATION = "resignation"
    TIMEOUT = "timeout"
    AGREEMENT = "agreement"  # a draw agreed by the players
    ABORTED = "aborted"  # stopped by a moderator: no result

    @property
    def is_draw_kind(self) -> bool:
        return self in {
            Termination.TWO_PASSES,
            Termination.REPETITION,
            Termination.CAP,
            Termination.AGREEMENT,
        }


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: ``ranks[i]`` is seat i's place (1 = first; shared places repeat).

    ``winners`` is empty for a draw, an abort and a lost solitaire game.
    """

    termination: Termination
    winners: frozenset[int]
    ranks: tuple[int, ...]
    text: Text

    @property
    def is_draw(self) -> bool:
        return (
            not self.winners
            and self.termination is not Termination.ABORTED
            and (self.termination.is_draw_kind or len(self.ranks) > 1)
        )

    def result(self, seat: int) -> str:
        """``"win"``, ``"loss"``, ``"draw"`` or ``"none"`` (aborted) for one seat."""
        if self.termination is Termination.ABORTED:
            return "none"
        if seat in self.winners:
            return "win"
        if self.is_draw:
            return "draw"
        return "loss"

    def returns(self) -> tuple[float, ...]:
        """Per-seat returns in [-1, 1], as OpenSpiel reports them."""
        out: list[float] = []
        for seat in range(len(self.ranks)):
            r = self.result(seat)
            out.append(1.0 if r == "win" else -1.0 if r == "loss" else 0.0)
        return tuple(out)

    @staticmethod
    def win(winner: int, players: int, termination: Termination, text: Text) -> Outcome:
        """``winner`` first, every other seat shares last place."""
        ranks = tuple(1 if s == winner else 2 for s in range(players))
        return Outcome(termination, frozenset({winner}), ranks, text)

    @staticmethod
    def loss(loser: int, players: int, termination: Termination, text: Text) -> Outcome:
        """``loser`` last, every other seat shares first place (the rules README's ranking)."""
        if players == 1:
            return Outcome(termination, frozenset(), (2,), text)
        winners = frozenset(s for s in range(players) if s != loser)
        ranks = tuple(players if s == loser else 1 for s in range(players))
        return Outcome(termination, winners, ranks, text)

    @staticmethod
    def draw(players: int, termination: Termination, text: Text) -> Outcome:
        return Outcome(termination, frozenset(), (1,) * players, text)


DRAW_TEXTS: dict[Termination, Text] = {
    Termination.TWO_PASSES: Text(
        "Draw: both players had to pass in a row.", "引き分け：双方が続けてパスしました。"
    ),
    Termination.REPETITION: Text(
        "Draw by repetition (the same position occurred too often).",
        "千日手による引き分け（同一局面の繰り返し）。",
    ),
    Termination.CAP: Text(
        "Draw: the move limit was reached.", "引き分け：手数の上限に達しました。"
    ),
    Termination.AGREEMENT: Text("Draw by agreement.", "合意による引き分け。"),
}


# --- options --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One game option: its allowed values (strings, as typed) and default.

    ``label`` is the option's name as players read it (``千日手`` for ``repetition``) and
    ``value_labels`` each value's (``("off", Text("off", "なし"))``); a value without one reads
    as itself in both languages."""

    name: str
    values: tuple[str, ...]
    default: str
    help: Text
    label: Text | None = None
    value_labels: tuple[tuple[str, Text], ...] = ()

    def title(self) -> Text:
        """The option's name in both languages (its ``name`` when no label is given)."""
        return self.label or Text(self.name, self.name)

    def value_label(self, value: str) -> Text:
        """How ``value`` reads in both languages (the value itself when it has no label)."""
        return next((t for v, t in self.value_labels if v == value), Text(value, value))


COMMON_OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "repetition",
        ("4", "3", "5", "off"),
        "4",
        Text(
            "Draw when a position occurs for this many times.",
            "同一局面がこの回数現れたら引き分け。",
        ),
        Text("repetition", "千日手"),
        (
            ("3", Text("3 times", "3回")),
            ("4", Text("4 times", "4回")),
            ("5", Text("5 times", "5回")),
            ("off", Text("off", "なし")),
        ),
    ),
    OptionSpec(
        "cap",
        ("600", "300", "1000", "off"),
        "600",
        Text("Draw after this many plies.", "この手数で引き分け。"),
        Text("cap", "手数上限"),
        (
            ("300", Text("300 plies", "300手")),
            ("600", Text("600 plies", "600手")),
            ("1000", Text("1000 plies", "1000手")),
            ("off", Text("off", "なし")),
        ),
    ),
)


# --- moves, states, games -------------------------------------------------------------------

_T = TypeVar("_T")


class cached(Generic[_T]):
    """A per-instance cached property without :class:`functools.cached_property`'s lock (which
    costs more than many of the values it caches): the first read stores the value in the
    instance's ``__dict__``, where every later read finds it without calling anything. For
    immutable states only (the value never changes once computed)."""

    def __init__(self, fn: Callable[[Any], _T]) -> None:
        self.fn = fn
        self.name = fn.__name__
        self.__doc__ = fn.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> cached[_T]: ...

    @overload
    def __get__(self, obj: object, owner: type | None = None) -> _T: ...

    def __get__(self, obj: object, owner: type | None = None) -> _T | cached[_T]:
        if obj is None:
            return self
        value = self.fn(obj)
        obj.__dict__[self.name] = value
        return value


M = TypeVar("M", bound=Hashable)
S = TypeVar("S", bound="State[Any]")


class State(ABC, Generic[M]):
    """An immutable game position, with everything needed to continue the game.

    Subclasses are frozen dataclasses. ``legal_moves`` is stable: the same state always lists
    the same moves in the same order.
    """

    game: ClassVar[Game[Any]]

    # -- whose turn --------------------------------------------------------------------------
    @property
    @abstractmethod
    def num_players(self) -> int: ...

    @abstractmethod
    def current_player(self) -> int:
        """A seat (0-based), :data:`CHANCE`, :data:`SIMULTANEOUS` or :data:`TERMINAL`."""

    def acting_players(self) -> tuple[int, ...]:
        """The seats that may act now (several at a simultaneous step, none at chance or end)."""
        p = self.current_player()
        return (p,) if p >= 0 else ()

    @property
    @abstractmethod
    def ply(self) -> int:
        """Number of actions applied since the game began (chance and setup steps included).

        The host uses it as the index of a chance step (:func:`chance_pick`)."""

    @property
    def turns(self) -> int:
        """Plies of play so far: turns taken by a seat, secret setup and chance steps excluded
        (the rules README's ply). The ply cap counts these, and so do the move numbers players
        see. Games with setup or chance steps override it; by default it is :attr:`ply`."""
        return self.ply

    # -- moves -------------------------------------------------------------------------------
    @abstractmethod
    def legal_moves(self, player: int | None = None) -> tuple[M, ...]:
        """Legal moves of ``player`` (default: the one to move), or chance outcomes' moves."""

    @abstractmethod
    def apply(self, move: M, player: int | None = None) -> State[M]:
        """The state after ``move``; raises :class:`IllegalMoveError` if it is not legal."""

    def chance_outcomes(self) -> tuple[tuple[M, Fraction], ...]:
        """At a chance step, every outcome with its probability (they sum to 1)."""
        return ()

    # -- end ---------------------------------------------------------------------------------
    @abstractmethod
    def outcome(self) -> Outcome | None:
        """``None`` while the game goes on."""

    def is_over(self) -> bool:
        return self.outcome() is not None

    # -- information -------------------------------------------------------------------------
    def observe(self, viewer: int | None) -> State[M]:
        """The state as ``viewer`` may see it (``None``: a spectator). Hidden facts are masked."""
        return self

    def announcement(self, lang: str = "en") -> str | None:
        """What a host should announce about the action just played (王手 and turn jumps in
        三国志三人将棋, for example), or ``None``."""
        return None

    def hides_moves(self) -> bool:
        """True while moves already made are secret from the other players (a secret setup)."""
        return False

    # -- notation ----------------------------------------------------------------------------
    @abstractmethod
    def format_move(self, move: M) -> str:
        """The canonical notation of ``move`` in this position (what ``parse_move`` reads)."""

    def display_move(self, move: M, lang: str = "en") -> str:
        """How a kifu shows the move (may differ from the canonical form). Default: canonical."""
        return self.format_move(move)

    def parse_move(self, text: str, player: int | None = None) -> M:
        """Read any accepted spelling of a legal move of ``player`` (default: the one to move).

        :meth:`read_move` turns the text into a move (or says why it cannot); this checks that
        the move is legal. Raises :class:`InvalidMoveError` for text that is not a move,
        :class:`IllegalMoveError` for a move that cannot be played here.
        """
        self.check_player(player)
        raw = check_input(text)
        legal = self.legal_moves(player)
        move = self.read_move(raw, legal)
        if move not in legal:
            raise IllegalMoveError(
                Text(
                    f"{raw!r} is not a legal move here.",
                    f"「{raw}」はこの局面では指せません。",
                ),
                self.closest(raw, legal),
            )
        return move

    @abstractmethod
    def read_move(self, text: str, legal: tuple[M, ...]) -> M:
        """Turn stripped input into a move of this game, legal here or not.

        Raise :class:`InvalidMoveError` when the text is not a move in this game's notation (and
        :class:`IllegalMoveError` or :class:`AmbiguousMoveError` when it can already tell);
        :meth:`parse_move` checks legality afterwards. ``legal`` helps with suggestions and with
        spellings that leave something out.
        """

    def check_player(self, player: int | None) -> None:
        """Refuse a ``player`` argument that names no seat of this game (nor :data:`CHANCE`)."""
        if player is None or player == CHANCE or 0 <= player < self.num_players:
            return
        raise IllegalMoveError(
            Text(
                f"There is no seat {player} in this game (seats 0 to {self.num_players - 1}).",
                f"この対局に{player}番の席はありません（0〜{self.num_players - 1}）。",
            )
        )

    def closest(self, text: str, legal: Iterable[M], n: int = 5) -> tuple[str, ...]:
        """Up to ``n`` legal moves whose notation looks most like ``text``."""
        names = [self.format_move(m) for m in legal]
        key = normalise(text)
        prefixed = [s for s in names if normalise(s).startswith(key)] if key else []
        close = difflib.get_close_matches(text, names, n=n, cutoff=0.4)
        out: list[str] = []
        for s in prefixed + close + names:
            if s not in out:
                out.append(s)
            if len(out) >= n:
                break
        return tuple(out)

    # -- position text -----------------------------------------------------------------------
    @abstractmethod
    def position(self) -> str:
        """The position as text; ``game.from_position(state.position(), options)`` equals it
        (apart from the repetition history, which a position text does not carry)."""

    def options(self) -> dict[str, str]:
        """The game options this state was created with."""
        return {}


class Game(ABC, Generic[S]):
    """The static facts of one game and the factory of its states."""

    id: ClassVar[str]
    title_en: ClassVar[str]
    title_ja: ClassVar[str]
    player_counts: ClassVar[tuple[int, ...]] = (2,)
    game_options: ClassVar[tuple[OptionSpec, ...]] = ()
    has_chance: ClassVar[bool] = False
    has_secret_setup: ClassVar[bool] = False
    rules_doc: ClassVar[str] = ""
    summary: ClassVar[Text] = Text("", "")

    @property
    def options(self) -> tuple[OptionSpec, ...]:
        return self.game_options + COMMON_OPTIONS

    def seat_name(self, seat: int, lang: str = "en", players: int | None = None) -> str:
        """Black/White by default (先手/後手)."""
        names = (("Black", "先手"), ("White", "後手"), ("Third", "三番手"))
        en, ja = names[seat] if seat < len(names) else (f"Seat {seat + 1}", f"{seat + 1}番")
        return ja if lang.startswith("ja") else en

    def resolve_options(self, given: Mapping[str, str] | None = None) -> dict[str, str]:
        """Fill defaults and check every option; raise :class:`OptionError` on a bad one."""
        given = dict(given or {})
        specs = {s.name: s for s in self.options}
        out: dict[str, str] = {}
        for name, value in given.items():
            spec = specs.get(name)
            if spec is None:
                known = ", ".join(specs) or "none"
                raise OptionError(
                    Text(
                        f"{self.id} has no option {name!r} (options: {known}).",
                        f"{self.title_ja}には「{name}」という設定はありません（設定: {known}）。",
                    )
                )
            value = str(value).strip()
            if value not in spec.values:
                allowed = ", ".join(spec.values)
                raise OptionError(
                    Text(
                        f"Option {name} cannot be {value!r}; allowed: {allowed}.",
                        f"設定 {name} に「{value}」は使えません。使える値: {allowed}。",
                    )
                )
            out[name] = value
        for spec in self.options:
            out.setdefault(spec.name, spec.default)
        return out

    def check_players(self, players: int | None) -> int:
        n = self.player_counts[0] if players is None else players
        if n not in self.player_counts:
            counts = "/".join(map(str, self.player_counts))
            raise OptionError(
                Text(
                    f"{self.title_en} is for {counts} players, not {n}.",
                    f"{self.title_ja}は{counts}人用です（{n}人では遊べません）。",
                )
            )
        return n

    def new_game(self, players: int | None = None, options: Mapping[str, str] | None = None) -> S:
        """The start position for ``players`` with ``options`` (checked, defaults filled)."""
        return self.initial_state(self.check_players(players), self.resolve_options(options))

    def from_position(
        self, text: str, options: Mapping[str, str] | None = None, players: int | None = None
    ) -> S:
        """Build any position from its text (see :meth:`State.position`)."""
        return self.parse_position(text, self.resolve_options(options), self.check_players(players))

    @abstractmethod
    def initial_state(self, players: int, options: dict[str, str]) -> S: ...

    @abstractmethod
    def parse_position(self, text: str, options: dict[str, str], players: int) -> S: ...


# --- helpers shared by the games ------------------------------------------------------------

MAX_INPUT = 100

_FULLWIDTH = str.maketrans(
    {chr(0xFF01 + i): chr(0x21 + i) for i in range(94)} | {"\u3000": " ", "ー": "-", "－": "-"}
)


def check_input(text: str) -> str:
    """Reject empty and over-long input early, with a specific message."""
    text = text.strip()
    if not text:
        raise InvalidMoveError(Text("The move is empty.", "指し手が空です。"))
    if len(text) > MAX_INPUT:
        raise InvalidMoveError(
            Text(
                f"That is too long for a move ({len(text)} characters; at most {MAX_INPUT}).",
                f"指し手として長すぎます（{len(text)}文字、最大{MAX_INPUT}文字）。",
            )
        )
    return text


def position_error(
    game: Game[Any], why_en: str, why_ja: str, text: str | None = None
) -> PositionError:
    """The one spelling of "this is not a position of ``game``": what was wrong, and the text.

    ``text`` (the whole position text) is quoted when given, shortened if long.
    """
    quoted_en = quoted_ja = ""
    if text is not None:
        shown = text if len(text) <= 80 else text[:77] + "..."
        quoted_en, quoted_ja = f": {shown!r}", f"：「{shown}」"
    return PositionError(
        Text(
            f"Not a {game.title_en} position ({why_en}){quoted_en}",
            f"{game.title_ja}の局面として読めません（{why_ja}）{quoted_ja}",
        )
    )


def normalise(text: str) -> str:
    """NFKC (full-width digits and letters to ASCII), no spaces, upper case."""
    text = unicodedata.normalize("NFKC", text).translate(_FULLWIDTH)
    return "".join(text.split()).upper()


def repetition_limit(options: Mapping[str, str]) -> int:
    v = options.get("repetition", "4")
    return 0 if v == "off" else int(v)


def ply_cap(options: Mapping[str, str]) -> int:
    v = options.get("cap", "600")
    return 0 if v == "off" else int(v)


@dataclass(frozen=True, slots=True)
class History:
    """Repetition keys since the last irreversible move (a persistent, immutable list)."""

    keys: tuple[Hashable, ...] = field(default=())

    def push(self, key: Hashable, irreversible: bool = False) -> History:
        return History((key,) if irreversible else (*self.keys, key))

    def count(self, key: Hashable) -> int:
        return self.keys.count(key)


def chance_pick(state: State[M], seed: int | str, index: int) -> M:
    """The host's pick at a chance step: deterministic in (game seed, step index).

    Engines never roll dice; the host calls this and records the result, so a game replays
    from its record alone, and the same seed always gives the same deal.
    """
    outcomes = state.chance_outcomes()
    if not outcomes:
        raise ValueError("not a chance step")
    rng = random.Random(f"{state.game.id}:{seed}:{index}")
    x = Fraction(rng.randrange(1 << 53), 1 << 53)
    acc = Fraction(0)
    for move, p in outcomes:
        acc += p
        if x < acc:
            return move
    return outcomes[-1][0]


def perft(state: State[Any], depth: int) -> int:
    """Number of move sequences of length ``depth`` (a finished game counts as a leaf)."""
    if depth == 0 or state.is_over():
        return 1
    p = state.current_player()
    if p == SIMULTANEOUS:
        # Count each acting player's choices in seat order.
        actor = state.acting_players()[0]
        return sum(perft(state.apply(m, actor), depth - 1) for m in state.legal_moves(actor))
    moves = state.legal_moves()
    if depth == 1:
        return len(moves)
    return sum(perft(state.apply(m), depth - 1) for m in moves)
