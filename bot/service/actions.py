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
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engines.core import Text

if TYPE_CHECKING:
    from bot.service import GameService, Reply, User


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


@dataclass(frozen=True, slots=True)
class Press:
    """One use of an action: by whom, on which game, with what argument."""

    game_id: int
    user: User
    arg: str | None = None
    max_bytes: int | None = None
    """The largest picture the adapter can post (a replay's GIF), if it has a limit."""


Run = Callable[["GameService", Press], Awaitable["Reply | Sequence[Reply]"]]


@dataclass(frozen=True, slots=True)
class ActionSpec:
    """One row of :data:`ACTIONS`."""

    run: Run
    label: str
    """The catalogue key of the button's word (``bot.i18n``)."""
    style: Style
    takes: Takes = Takes.NOTHING


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


def _ply(arg: str | None) -> int:
    return int(arg) if arg and PLY.fullmatch(arg) else 0


async def _play(s: GameService, p: Press) -> Reply:
    ply, text = split_play(p.arg)
    return await s.play(p.game_id, p.user, text, ply=ply)


async def _replay(s: GameService, p: Press) -> Reply:
    if p.max_bytes is None:
        return await s.replay(p.game_id, p.user)
    return await s.replay(p.game_id, p.user, max_bytes=p.max_bytes)


async def _step(s: GameService, p: Press) -> Reply:
    return await s.replay_step(p.game_id, p.user, _ply(p.arg))


async def _learn_play(s: GameService, p: Press) -> Reply:
    ply, text = split_play(p.arg)
    return await s.lessons.move(p.user, text, ply)


async def _better(s: GameService, p: Press) -> Reply:
    return await s.review_better(p.game_id, p.user, _ply(p.arg))


def _tournament(p: Press) -> int:
    """A tournament button's tournament: its argument (else the id it was posted with)."""
    return int(p.arg) if p.arg and PLY.fullmatch(p.arg) else p.game_id


P, S, OK, NO = Style.PRIMARY, Style.SECONDARY, Style.SUCCESS, Style.DANGER

ACTIONS: Mapping[Action, ActionSpec] = {
    Action.JOIN: ActionSpec(lambda s, p: s.join(p.game_id, p.user), "button.join", OK),
    Action.ACCEPT: ActionSpec(lambda s, p: s.join(p.game_id, p.user), "button.accept", OK),
    Action.DECLINE: ActionSpec(lambda s, p: s.decline(p.game_id, p.user), "button.decline", S),
    Action.LEAVE: ActionSpec(lambda s, p: s.leave(p.game_id, p.user), "button.leave", S),
    Action.START: ActionSpec(lambda s, p: s.start(p.game_id, p.user), "button.start", P),
    Action.CANCEL: ActionSpec(lambda s, p: s.cancel(p.game_id, p.user), "button.cancel", S),
    Action.MOVE: ActionSpec(
        lambda s, p: s.play(p.game_id, p.user, p.arg or ""), "button.move", P, Takes.TEXT
    ),
    Action.SETUP: ActionSpec(
        lambda s, p: s.setup(p.game_id, p.user, p.arg or ""), "button.setup", P, Takes.TEXT
    ),
    Action.PLAY: ActionSpec(_play, "button.play", P, Takes.MOVE),
    Action.PASS: ActionSpec(lambda s, p: s.play(p.game_id, p.user, "pass"), "button.pass", P),
    Action.RESIGN: ActionSpec(lambda s, p: s.resign(p.game_id, p.user), "button.resign", NO),
    Action.OFFER_DRAW: ActionSpec(
        lambda s, p: s.offer_draw(p.game_id, p.user), "button.offer_draw", S
    ),
    Action.ACCEPT_DRAW: ActionSpec(
        lambda s, p: s.accept_draw(p.game_id, p.user), "button.accept_draw", OK
    ),
    Action.DECLINE_DRAW: ActionSpec(
        lambda s, p: s.decline_draw(p.game_id, p.user), "button.decline_draw", S
    ),
    Action.TAKEBACK: ActionSpec(
        lambda s, p: s.request_takeback(p.game_id, p.user), "button.takeback", S
    ),
    Action.ACCEPT_TAKEBACK: ActionSpec(
        lambda s, p: s.accept_takeback(p.game_id, p.user), "button.accept_takeback", OK
    ),
    Action.DECLINE_TAKEBACK: ActionSpec(
        lambda s, p: s.decline_takeback(p.game_id, p.user), "button.decline_takeback", S
    ),
    Action.BOARD: ActionSpec(lambda s, p: s.board(p.game_id, p.user), "button.board", S),
    Action.MOVES: ActionSpec(lambda s, p: s.moves(p.game_id, p.user), "button.moves", S),
    Action.RECORD: ActionSpec(lambda s, p: s.record(p.game_id, p.user), "button.record", S),
    Action.REMATCH: ActionSpec(lambda s, p: s.rematch(p.game_id, p.user), "button.rematch", P),
    Action.REPLAY: ActionSpec(_replay, "button.replay", S),
    Action.STEP_FIRST: ActionSpec(_step, "button.step_first", S, Takes.PLY),
    Action.STEP_PREV: ActionSpec(_step, "button.step_prev", S, Takes.PLY),
    Action.STEP_NEXT: ActionSpec(_step, "button.step_next", S, Takes.PLY),
    Action.STEP_LAST: ActionSpec(_step, "button.step_last", S, Takes.PLY),
    Action.GOTO: ActionSpec(_step, "select.goto", S, Takes.PLY),
    # lessons (issue 31): a practice board has no game id (a press carries 0)
    Action.LEARN: ActionSpec(lambda s, p: s.lessons.learn(p.user, p.arg), "learn.button.open", P),
    Action.LEARN_MOVE: ActionSpec(
        lambda s, p: s.lessons.move(p.user, p.arg or ""), "button.move", P, Takes.TEXT
    ),
    Action.LEARN_PLAY: ActionSpec(_learn_play, "button.play", P, Takes.MOVE),
    Action.LEARN_HINT: ActionSpec(lambda s, p: s.lessons.hint(p.user), "learn.button.hint", S),
    Action.LEARN_RESTART: ActionSpec(
        lambda s, p: s.lessons.restart(p.user, p.arg), "learn.button.restart", S
    ),
    Action.LEARN_NEXT: ActionSpec(
        lambda s, p: s.lessons.next(p.user, p.arg), "learn.button.next", OK
    ),
    Action.LEARN_MENU: ActionSpec(lambda s, p: s.lessons.learn(p.user), "learn.button.menu", S),
    Action.LEARN_STOP: ActionSpec(lambda s, p: s.lessons.stop(p.user), "learn.button.stop", S),
    # puzzles: the user's own open puzzle, whatever ``game_id`` says (0 on their buttons)
    Action.PUZZLE_SOLVE: ActionSpec(
        lambda s, p: s.puzzles.solve_daily(p.user, p.arg), "button.puzzle_solve", OK
    ),
    Action.PUZZLE_MOVE: ActionSpec(
        lambda s, p: s.puzzles.move(p.user, p.arg or ""), "button.move", P, Takes.TEXT
    ),
    Action.PUZZLE_HINT: ActionSpec(lambda s, p: s.puzzles.hint(p.user), "button.puzzle_hint", S),
    Action.PUZZLE_SOLUTION: ActionSpec(
        lambda s, p: s.puzzles.solution(p.user), "button.puzzle_solution", S
    ),
    Action.PUZZLE_NEXT: ActionSpec(lambda s, p: s.puzzles.start(p.user), "button.puzzle_next", P),
    Action.REVIEW: ActionSpec(lambda s, p: s.review(p.game_id, p.user), "button.review", S),
    Action.REVIEW_PUBLIC: ActionSpec(
        lambda s, p: s.review(p.game_id, p.user, publish=True), "button.review_public", S
    ),
    Action.BETTER: ActionSpec(_better, "button.better", S, Takes.PLY),
    Action.TOURNAMENT_JOIN: ActionSpec(
        lambda s, p: s.join_tournament(_tournament(p), p.user), "button.t_join", OK
    ),
    Action.TOURNAMENT_LEAVE: ActionSpec(
        lambda s, p: s.leave_tournament(_tournament(p), p.user), "button.t_leave", S
    ),
    Action.TOURNAMENT_START: ActionSpec(
        lambda s, p: s.start_tournament(_tournament(p), p.user), "button.t_start", P
    ),
}
"""Every action: its use case, the key of its label, its style and its argument."""

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

    @property
    def spec(self) -> ActionSpec:
        return ACTIONS[self.action]


def play_button(ply: int, move: str, label: Text) -> Button:
    """A button that plays ``move`` (canonical notation) at log length ``ply``."""
    return Button(Action.PLAY, play_arg(ply, move), label)


async def run(service: GameService, action: Action, press: Press) -> Reply | Sequence[Reply]:
    """Run ``action``'s use case."""
    return await ACTIONS[action].run(service, press)
