"""What a reply offers to do next: every button's action, in one table.

An :class:`Action` names something a player can do from a message (``resign``, ``accept_draw``,
a replay's ``step_next``, a lesson's ``learn_next``, a tournament's ``t_join``).
:data:`bot.service.routes.ACTIONS` says, for each, which use case runs it, which catalogue key
labels it, how it is styled (a neutral :class:`Style` each adapter maps to its own), what it acts
on (:class:`On`; a press carries a matching :data:`Target`) and what argument it takes
(:class:`Takes`, read by :func:`parse_arg`). Use cases offer :class:`Button` values (an action
and its argument); adapters read the table to label, style and run them, so a new action is
added there and nowhere else (a test fails if any column is missing).

A button's text form, ``action`` or ``action:arg`` (``play:7|Draw``, ``step_next:5``), is what
Discord keeps in its ``custom_id`` and the outbox in its JSON: it never changes for an action
that exists.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import ClassVar

from engines.core import Text


class Action(enum.StrEnum):
    """Something a player can do from a game's message (its value is kept in button ids)."""

    JOIN = "join"
    ACCEPT = "accept"
    DECLINE = "decline"
    LEAVE = "leave"
    START = "start"
    CANCEL = "cancel"
    MOVE = "move"
    SETUP = "setup"
    PLAY = "play"
    PASS = "pass"
    RESIGN = "resign"
    OFFER_DRAW = "offer_draw"
    ACCEPT_DRAW = "accept_draw"
    DECLINE_DRAW = "decline_draw"
    TAKEBACK = "takeback"
    ACCEPT_TAKEBACK = "accept_takeback"
    DECLINE_TAKEBACK = "decline_takeback"
    BOARD = "board"
    MOVES = "moves"
    RECORD = "record"
    REMATCH = "rematch"
    REPLAY = "replay"
    STEP_FIRST = "step_first"
    STEP_PREV = "step_prev"
    STEP_NEXT = "step_next"
    STEP_LAST = "step_last"
    GOTO = "goto"
    LEARN = "learn"
    """A game's next lesson (the argument: a game id), from the lessons menu."""
    LEARN_MOVE = "learn_move"
    LEARN_PLAY = "learn_play"
    LEARN_HINT = "learn_hint"
    LEARN_RESTART = "learn_restart"
    LEARN_NEXT = "learn_next"
    LEARN_MENU = "learn_menu"
    LEARN_STOP = "learn_stop"
    PUZZLE_SOLVE = "puzzle_solve"
    PUZZLE_MOVE = "puzzle_move"
    PUZZLE_HINT = "puzzle_hint"
    PUZZLE_SOLUTION = "puzzle_solution"
    PUZZLE_NEXT = "puzzle_next"
    REVIEW = "review"
    REVIEW_PUBLIC = "review_public"
    BETTER = "better"
    REVIEW_RETRY = "review_retry"
    """Retry your mistakes of a reviewed game (issue 50, 4), on the practice board."""
    RETRY_MOVE = "retry_move"
    RETRY_HINT = "retry_hint"
    RETRY_SOLUTION = "retry_solution"
    ANALYSE = "analyse"
    """The analysis board of a finished game (issue 50, 3), at a ply (none: its end)."""
    ANALYSIS_MOVE = "analysis_move"
    ANALYSIS_BACK = "analysis_back"
    EXPLORE_STEP = "explore_step"
    ANALYSIS_BEST = "analysis_best"
    # tournaments (issue 34): the argument is the tournament's id
    OPEN_BOARD = "open_board"
    """The board as a Discord Activity, or the game's page (issue 51, 3)."""
    TOURNAMENT_JOIN = "t_join"
    TOURNAMENT_LEAVE = "t_leave"
    TOURNAMENT_START = "t_start"


class Style(enum.StrEnum):
    """How prominent a button is; each adapter maps these to its own look."""

    PRIMARY = "primary"
    SECONDARY = "secondary"
    SUCCESS = "success"
    DANGER = "danger"


class On(enum.Enum):
    """What an action acts on: a press's :data:`Target` must be of its row's kind."""

    GAME = enum.auto()
    """A game (its id)."""
    PRACTICE = enum.auto()
    """The presser's own practice board (a lesson, a puzzle): no id, it is theirs."""
    TOURNAMENT = enum.auto()
    """A tournament (its id)."""


class Takes(enum.Enum):
    """The argument an action carries (see :func:`parse_arg`: each kind's one parser)."""

    NOTHING = enum.auto()
    """No argument: a press that carries one is refused."""
    PLY = enum.auto()
    """A ply of a replay to show (0: the start)."""
    MOVE = enum.auto()
    """A move offered as a button: ``<log length>|<move>`` (see :func:`play_arg`)."""
    TEXT = enum.auto()
    """Text the user types first (a move, a secret setup): the adapter asks for it."""
    DAY = enum.auto()
    """A day, ``YYYY-MM-DD`` (a daily puzzle's); none: today."""
    LESSON = enum.auto()
    """A lesson's id, or a game's (its next lesson); none, where allowed: the current one."""
    EXPLORED = enum.auto()
    """An explorer's position: ``<game>|<s or g><0 or 1>|<path>`` (the pool: this server's
    or every server's games, rated only or all; the path: each move's place among the legal
    moves, base 36, dot-separated)."""


@dataclass(frozen=True, slots=True)
class GameTarget:
    """A press on a game's button: that game."""

    game_id: int
    on: ClassVar[On] = On.GAME


@dataclass(frozen=True, slots=True)
class Practice:
    """A press on a practice board's button (a lesson, a puzzle): the presser's own board."""

    on: ClassVar[On] = On.PRACTICE


@dataclass(frozen=True, slots=True)
class TournamentTarget:
    """A press on a tournament's button (its sign-up message): that tournament."""

    tournament_id: int
    on: ClassVar[On] = On.TOURNAMENT


Target = GameTarget | Practice | TournamentTarget
"""What a press acts on; an action's row says which kind (:class:`On`) it must be."""


PLY = re.compile(r"[0-9]{1,9}")
DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
LESSON = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,59}(?:@[a-z0-9-]{1,40})?")
EXPLORED = re.compile(r"[a-z0-9-]{1,24}\|[sgc][01]\|(?:[0-9a-z]{1,3}(?:\.[0-9a-z]{1,3})*)?")
"""A lesson or game id; a shared lesson taken in another game's course names it after ``@``
(``socrates-board-2@socrates-shinken``)."""
OPTIONAL = frozenset({Takes.DAY, Takes.LESSON})
"""Kinds whose argument may be left out (the use case has a default)."""


def parse_arg(takes: Takes, arg: str | None, *, required: bool = False) -> str | None:
    """``arg`` checked against its kind: the argument to run with, or ``ValueError`` (an argument
    where none is taken, a missing one where one is needed, or one that does not read as its
    kind: a ply that is no number, a day that is no date)."""
    if takes is Takes.NOTHING:
        if arg is not None:
            raise ValueError(f"no argument is taken, not {arg!r}")
        return None
    if arg is None or arg == "":
        if takes in OPTIONAL and not required:
            return None
        raise ValueError(f"{takes.name.lower()} needs an argument")
    if takes is Takes.PLY and not PLY.fullmatch(arg):
        raise ValueError(f"not a ply: {arg!r}")
    if takes is Takes.DAY:
        if not DAY.fullmatch(arg):
            raise ValueError(f"not a day: {arg!r}")
        date.fromisoformat(arg)  # ValueError for 2026-02-30
    if takes is Takes.LESSON and not LESSON.fullmatch(arg):
        raise ValueError(f"not a lesson or game: {arg!r}")
    if takes is Takes.EXPLORED and not EXPLORED.fullmatch(arg):
        raise ValueError(f"not an explorer's position: {arg!r}")
    if takes is Takes.MOVE and not split_play(arg)[1]:
        raise ValueError(f"not a move: {arg!r}")
    return arg


def play_arg(ply: int, move: str) -> str:
    """A move button's argument: the log length it was offered at and the move's notation."""
    return f"{ply}|{move}"


def split_play(arg: str | None) -> tuple[int | None, str]:
    """``"7|draw"`` -> ``(7, "draw")``: the log length the button was made for, and the move
    (the inverse of :func:`play_arg`; a bare move has no log length)."""
    ply, sep, move = (arg or "").partition("|")
    if sep and ply.isdigit():
        return int(ply), move
    return None, arg or ""


ANSWERS: Mapping[str, Mapping[str | None, Action]] = {
    "draw": {None: Action.OFFER_DRAW, "accept": Action.ACCEPT_DRAW, "decline": Action.DECLINE_DRAW},
    "takeback": {
        None: Action.TAKEBACK,
        "accept": Action.ACCEPT_TAKEBACK,
        "decline": Action.DECLINE_TAKEBACK,
    },
}
"""``/draw`` and ``/takeback``: asking (no answer), or answering the other player's request."""

TURN_ACTIONS = frozenset({Action.MOVE, Action.SETUP})
"""Actions that mean someone is to act: a reply offering them pings that player."""


@dataclass(frozen=True, slots=True)
class Button:
    """An action offered on a message, with its argument and, for a move, how it reads."""

    action: Action
    arg: str | None = None
    label: Text | None = None
    """The button's own words (a move as the game writes it, ``▲2三5``); else the action's."""

    def __str__(self) -> str:
        return self.action.value if self.arg is None else f"{self.action.value}:{self.arg}"

    @classmethod
    def parse(cls, text: str, label: Text | None = None) -> Button:
        """The button :meth:`__str__` wrote; ``ValueError`` for an action that does not exist."""
        name, sep, arg = text.partition(":")
        return cls(Action(name), arg if sep and arg else None, label)


def play_button(ply: int, move: str, label: Text) -> Button:
    """A button that plays ``move`` (canonical notation) at log length ``ply``."""
    return Button(Action.PLAY, play_arg(ply, move), label)
