"""What a reply offers to do next: every button's action, in one table.

An :class:`Action` names something a player can do to a game from its message (``resign``,
``accept_draw``, a replay's ``step_next``). :data:`ACTIONS` says, for each, which use case runs
it, which catalogue key labels it, how it is styled (a neutral :class:`Style` each adapter maps to
its own) and what argument it takes (:class:`Takes`). Use cases offer :class:`Button` values
(an action and its argument); adapters read this table to label, style and run them, so a new
action is added here and nowhere else (a test fails if any column is missing).

A button's text form, ``action`` or ``action:arg`` (``play:7|Draw``, ``step_next:5``), is what
Discord keeps in its ``custom_id`` and the outbox in its JSON: it never changes for an action
that exists.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping
from dataclasses import dataclass

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
    # tournaments (issue 34): the argument is the tournament's id
    TOURNAMENT_JOIN = "t_join"
    TOURNAMENT_LEAVE = "t_leave"
    TOURNAMENT_START = "t_start"


class Style(enum.StrEnum):
    """How prominent a button is; each adapter maps these to its own look."""

    PRIMARY = "primary"
    SECONDARY = "secondary"
    SUCCESS = "success"
    DANGER = "danger"


class Takes(enum.Enum):
    """The argument an action carries."""

    NOTHING = enum.auto()
    PLY = enum.auto()
    """A ply of a replay to show (0: the start)."""
    MOVE = enum.auto()
    """A move offered as a button: ``<log length>|<move>`` (see :func:`play_arg`)."""
    TEXT = enum.auto()
    """Text the user types first (a move, a secret setup): the adapter asks for it."""


PLY = re.compile(r"[0-9]{1,9}")
PRACTICE_GAME = 0
"""The game id a press on a practice board (a lesson) carries: it is no game."""


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
