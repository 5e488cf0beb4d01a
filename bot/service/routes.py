"""Which use case runs each action: the one table :data:`ACTIONS` (part of the service's root,
beside :class:`bot.service.GameService`, since its rows reach every capability's front).

:mod:`bot.service.actions` names the actions (the kernel's vocabulary, which every capability
offers as buttons); this table gives each its use case, the catalogue key of its label, a
neutral style, what it acts on (:class:`On`: a game, the presser's practice board, a tournament)
and the argument it takes (:class:`Takes`, each kind with its one parser). :func:`run` refuses a
press whose target or argument does not fit its row before any use case runs. Adapters read the
table to label, style and run a button, so a new action is one row here and one label in the
catalogue (``tests/bot/test_actions.py`` fails when a column is missing).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot import i18n
from bot.service.actions import (
    Action,
    Button,
    GameTarget,
    On,
    Practice,
    Style,
    Takes,
    Target,
    TournamentTarget,
    parse_arg,
    split_play,
)
from bot.service.values import Press, Refusal

if TYPE_CHECKING:
    from bot.service import GameService, Reply

Run = Callable[["GameService", Press], Awaitable["Reply | Sequence[Reply]"]]


@dataclass(frozen=True, slots=True)
class ActionSpec:
    """One row of :data:`ACTIONS`."""

    run: Run
    label: str
    """The catalogue key of the button's word (``bot.i18n``)."""
    style: Style
    on: On
    """What a press of it acts on (its :class:`~bot.service.actions.Target` kind)."""
    takes: Takes
    """Its argument's kind, read by :func:`~bot.service.actions.parse_arg`."""
    required: bool = False
    """An optional kind (a day, a lesson) that this action cannot do without."""

    def parse(self, arg: str | None) -> str | None:
        """The argument checked against :attr:`takes` (``ValueError`` if it does not fit)."""
        return parse_arg(self.takes, arg, required=self.required)


def _g(p: Press) -> int:
    """The game a press acts on (:func:`run` made sure it is one)."""
    if not isinstance(p.target, GameTarget):
        raise Refusal("refuse.button_target")
    return p.target.game_id


def _t(p: Press) -> int:
    """The tournament a press acts on."""
    if not isinstance(p.target, TournamentTarget):
        raise Refusal("refuse.button_target")
    return p.target.tournament_id


def _ply(arg: str | None) -> int:
    return int(arg or 0)


async def _analyse(s: GameService, p: Press) -> Reply:
    return await s.review.analyse(p.user, _g(p), None if p.arg is None else _ply(p.arg))


async def _play(s: GameService, p: Press) -> Reply:
    ply, text = split_play(p.arg)
    return await s.play.move(_g(p), p.user, text, ply=ply)


async def _replay(s: GameService, p: Press) -> Reply:
    if p.max_bytes is None:
        return await s.review.replay(_g(p), p.user)
    return await s.review.replay(_g(p), p.user, max_bytes=p.max_bytes)


async def _step(s: GameService, p: Press) -> Reply:
    return await s.review.replay_step(_g(p), p.user, _ply(p.arg))


async def _learn_play(s: GameService, p: Press) -> Reply:
    ply, text = split_play(p.arg)
    return await s.learn.lesson_move(p.user, text, ply)


async def _better(s: GameService, p: Press) -> Reply:
    return await s.review.better(_g(p), p.user, _ply(p.arg))


P, S, OK, NO = Style.PRIMARY, Style.SECONDARY, Style.SUCCESS, Style.DANGER
GAME, PRACTICE, TOURNAMENT = On.GAME, On.PRACTICE, On.TOURNAMENT
NOTHING, TEXT, EXPLORED = Takes.NOTHING, Takes.TEXT, Takes.EXPLORED

ACTIONS: Mapping[Action, ActionSpec] = {
    Action.JOIN: ActionSpec(
        lambda s, p: s.play.join(_g(p), p.user), "button.join", OK, GAME, NOTHING
    ),
    Action.ACCEPT: ActionSpec(
        lambda s, p: s.play.join(_g(p), p.user), "button.accept", OK, GAME, NOTHING
    ),
    Action.DECLINE: ActionSpec(
        lambda s, p: s.play.decline(_g(p), p.user), "button.decline", S, GAME, NOTHING
    ),
    Action.LEAVE: ActionSpec(
        lambda s, p: s.play.leave(_g(p), p.user), "button.leave", S, GAME, NOTHING
    ),
    Action.START: ActionSpec(
        lambda s, p: s.play.start(_g(p), p.user), "button.start", P, GAME, NOTHING
    ),
    Action.CANCEL: ActionSpec(
        lambda s, p: s.play.cancel(_g(p), p.user), "button.cancel", S, GAME, NOTHING
    ),
    Action.MOVE: ActionSpec(
        lambda s, p: s.play.move(_g(p), p.user, p.arg or ""), "button.move", P, GAME, TEXT
    ),
    Action.SETUP: ActionSpec(
        lambda s, p: s.play.setup(_g(p), p.user, p.arg or ""), "button.setup", P, GAME, TEXT
    ),
    Action.PLAY: ActionSpec(_play, "button.play", P, GAME, Takes.MOVE),
    Action.PASS: ActionSpec(
        lambda s, p: s.play.move(_g(p), p.user, "pass"), "button.pass", P, GAME, NOTHING
    ),
    Action.RESIGN: ActionSpec(
        lambda s, p: s.play.resign(_g(p), p.user), "button.resign", NO, GAME, NOTHING
    ),
    Action.OFFER_DRAW: ActionSpec(
        lambda s, p: s.play.offer_draw(_g(p), p.user), "button.offer_draw", S, GAME, NOTHING
    ),
    Action.ACCEPT_DRAW: ActionSpec(
        lambda s, p: s.play.accept_draw(_g(p), p.user), "button.accept_draw", OK, GAME, NOTHING
    ),
    Action.DECLINE_DRAW: ActionSpec(
        lambda s, p: s.play.decline_draw(_g(p), p.user), "button.decline_draw", S, GAME, NOTHING
    ),
    Action.TAKEBACK: ActionSpec(
        lambda s, p: s.play.request_takeback(_g(p), p.user), "button.takeback", S, GAME, NOTHING
    ),
    Action.ACCEPT_TAKEBACK: ActionSpec(
        lambda s, p: s.play.accept_takeback(_g(p), p.user),
        "button.accept_takeback",
        OK,
        GAME,
        NOTHING,
    ),
    Action.DECLINE_TAKEBACK: ActionSpec(
        lambda s, p: s.play.decline_takeback(_g(p), p.user),
        "button.decline_takeback",
        S,
        GAME,
        NOTHING,
    ),
    Action.BOARD: ActionSpec(
        lambda s, p: s.play.board(_g(p), p.user), "button.board", S, GAME, NOTHING
    ),
    Action.MOVES: ActionSpec(
        lambda s, p: s.play.moves(_g(p), p.user), "button.moves", S, GAME, NOTHING
    ),
    Action.RECORD: ActionSpec(
        lambda s, p: s.play.record(_g(p), p.user), "button.record", S, GAME, NOTHING
    ),
    Action.REMATCH: ActionSpec(
        lambda s, p: s.play.rematch(_g(p), p.user), "button.rematch", P, GAME, NOTHING
    ),
    Action.REPLAY: ActionSpec(_replay, "button.replay", S, GAME, NOTHING),
    Action.OPEN_BOARD: ActionSpec(
        lambda s, p: s.review.open_board(_g(p), p.user), "button.open_board", P, GAME, NOTHING
    ),
    Action.STEP_FIRST: ActionSpec(_step, "button.step_first", S, GAME, Takes.PLY),
    Action.STEP_PREV: ActionSpec(_step, "button.step_prev", S, GAME, Takes.PLY),
    Action.STEP_NEXT: ActionSpec(_step, "button.step_next", S, GAME, Takes.PLY),
    Action.STEP_LAST: ActionSpec(_step, "button.step_last", S, GAME, Takes.PLY),
    Action.GOTO: ActionSpec(_step, "select.goto", S, GAME, Takes.PLY),
    # lessons and puzzles (issue 31): on the presser's own practice board
    Action.LEARN: ActionSpec(
        lambda s, p: s.learn.lesson(p.user, p.arg),
        "learn.button.open",
        P,
        PRACTICE,
        Takes.LESSON,
        required=True,
    ),
    Action.LEARN_MOVE: ActionSpec(
        lambda s, p: s.learn.lesson_move(p.user, p.arg or ""), "button.move", P, PRACTICE, TEXT
    ),
    Action.LEARN_PLAY: ActionSpec(_learn_play, "button.play", P, PRACTICE, Takes.MOVE),
    Action.LEARN_HINT: ActionSpec(
        lambda s, p: s.learn.lesson_hint(p.user), "learn.button.hint", S, PRACTICE, NOTHING
    ),
    Action.LEARN_RESTART: ActionSpec(
        lambda s, p: s.learn.restart_lesson(p.user, p.arg),
        "learn.button.restart",
        S,
        PRACTICE,
        Takes.LESSON,
    ),
    Action.LEARN_NEXT: ActionSpec(
        lambda s, p: s.learn.next_lesson(p.user, p.arg),
        "learn.button.next",
        OK,
        PRACTICE,
        Takes.LESSON,
    ),
    Action.LEARN_MENU: ActionSpec(
        lambda s, p: s.learn.lesson(p.user), "learn.button.menu", S, PRACTICE, NOTHING
    ),
    Action.LEARN_STOP: ActionSpec(
        lambda s, p: s.learn.stop_lesson(p.user), "learn.button.stop", S, PRACTICE, NOTHING
    ),
    Action.PUZZLE_SOLVE: ActionSpec(
        lambda s, p: s.learn.solve_daily(p.user, p.arg),
        "button.puzzle_solve",
        OK,
        PRACTICE,
        Takes.DAY,
    ),
    Action.PUZZLE_MOVE: ActionSpec(
        lambda s, p: s.learn.puzzle_move(p.user, p.arg or ""), "button.move", P, PRACTICE, TEXT
    ),
    Action.PUZZLE_HINT: ActionSpec(
        lambda s, p: s.learn.puzzle_hint(p.user), "button.puzzle_hint", S, PRACTICE, NOTHING
    ),
    Action.PUZZLE_SOLUTION: ActionSpec(
        lambda s, p: s.learn.puzzle_solution(p.user), "button.puzzle_solution", S, PRACTICE, NOTHING
    ),
    Action.PUZZLE_NEXT: ActionSpec(
        lambda s, p: s.learn.puzzle(p.user), "button.puzzle_next", P, PRACTICE, NOTHING
    ),
    Action.REVIEW: ActionSpec(
        lambda s, p: s.review.game(_g(p), p.user), "button.review", S, GAME, NOTHING
    ),
    Action.REVIEW_PUBLIC: ActionSpec(
        lambda s, p: s.review.game(_g(p), p.user, publish=True),
        "button.review_public",
        S,
        GAME,
        NOTHING,
    ),
    Action.BETTER: ActionSpec(_better, "button.better", S, GAME, Takes.PLY),
    Action.ANALYSE: ActionSpec(_analyse, "button.analyse", S, GAME, Takes.PLY),
    Action.ANALYSIS_MOVE: ActionSpec(
        lambda s, p: s.review.analysis_move(p.user, p.arg or ""), "button.move", P, PRACTICE, TEXT
    ),
    Action.EXPLORE_STEP: ActionSpec(
        lambda s, p: s.review.explore_step(p.arg or "", p.guild_id),
        "button.explore_step",
        S,
        PRACTICE,
        EXPLORED,
        required=True,
    ),
    Action.ANALYSIS_BACK: ActionSpec(
        lambda s, p: s.review.analysis_back(p.user), "button.analysis_back", S, PRACTICE, NOTHING
    ),
    Action.ANALYSIS_BEST: ActionSpec(
        lambda s, p: s.review.analysis_best(p.user), "button.analysis_best", S, PRACTICE, NOTHING
    ),
    Action.REVIEW_RETRY: ActionSpec(
        lambda s, p: s.learn.retry(p.user, _g(p)), "button.review_retry", P, GAME, NOTHING
    ),
    Action.RETRY_MOVE: ActionSpec(
        lambda s, p: s.learn.retry_move(p.user, p.arg or ""), "button.move", P, PRACTICE, TEXT
    ),
    Action.RETRY_HINT: ActionSpec(
        lambda s, p: s.learn.retry_hint(p.user), "button.puzzle_hint", S, PRACTICE, NOTHING
    ),
    Action.RETRY_SOLUTION: ActionSpec(
        lambda s, p: s.learn.retry_solution(p.user),
        "button.retry_solution",
        S,
        PRACTICE,
        NOTHING,
    ),
    # tournaments (issue 34): on a tournament, by its id
    Action.TOURNAMENT_JOIN: ActionSpec(
        lambda s, p: s.compete.join_tournament(_t(p), p.user),
        "button.t_join",
        OK,
        TOURNAMENT,
        NOTHING,
    ),
    Action.TOURNAMENT_LEAVE: ActionSpec(
        lambda s, p: s.compete.leave_tournament(_t(p), p.user),
        "button.t_leave",
        S,
        TOURNAMENT,
        NOTHING,
    ),
    Action.TOURNAMENT_START: ActionSpec(
        lambda s, p: s.compete.start_tournament(_t(p), p.user),
        "button.t_start",
        P,
        TOURNAMENT,
        NOTHING,
    ),
}
"""Every action: its use case, the key of its label, its style, what it acts on and its
argument."""


def button_words(button: Button, lang: str) -> str:
    """What a button says, for every adapter: the service's own label (a move as the game
    writes it), a play button's move, else the catalogue's word for its action."""
    if button.label is not None:
        return button.label.get(lang)
    if button.action is Action.PLAY:
        return split_play(button.arg)[1]
    return i18n.t(ACTIONS[button.action].label, lang)


def target_of(action: Action, reply: Reply) -> Target | None:
    """What a button ``action`` offered on ``reply`` acts on, by its row: the reply's game, the
    presser's practice board, or the reply's tournament (``params["tournament"]``); None when the
    reply names no such game or tournament."""
    on = ACTIONS[action].on
    if on is On.PRACTICE:
        return Practice()
    if on is On.TOURNAMENT:
        tournament = reply.params.get("tournament")
        return TournamentTarget(tournament) if isinstance(tournament, int) else None
    return GameTarget(reply.game_id) if reply.game_id is not None else None


async def run(service: GameService, action: Action, press: Press) -> Reply | Sequence[Reply]:
    """Run ``action``'s use case; a press that does not fit its row (acting on the wrong kind of
    thing, or with an argument that does not read as the row's kind) is refused, nothing done."""
    spec = ACTIONS[action]
    if press.target.on is not spec.on:
        raise Refusal("refuse.button_target")
    try:
        spec.parse(press.arg)
    except ValueError:
        raise Refusal("refuse.button_argument") from None
    return await spec.run(service, press)
