"""Which use case runs each action: the one table :data:`ACTIONS` (part of the service's root,
beside :class:`bot.service.GameService`, since its rows reach every capability's front).

:mod:`bot.service.actions` names the actions (the kernel's vocabulary, which every capability
offers as buttons); this table gives each its use case, the catalogue key of its label, a
neutral style and the argument it takes. Adapters read it to label, style and run a button, so a
new action is one row here and one label in the catalogue (``tests/bot/test_actions.py`` fails
when a column is missing).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.service.actions import PLY, Action, Style, Takes, split_play
from bot.service.values import Press

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
    takes: Takes = Takes.NOTHING


def _ply(arg: str | None) -> int:
    return int(arg) if arg and PLY.fullmatch(arg) else 0


async def _play(s: GameService, p: Press) -> Reply:
    ply, text = split_play(p.arg)
    return await s.play.move(p.game_id, p.user, text, ply=ply)


async def _replay(s: GameService, p: Press) -> Reply:
    if p.max_bytes is None:
        return await s.review.replay(p.game_id, p.user)
    return await s.review.replay(p.game_id, p.user, max_bytes=p.max_bytes)


async def _step(s: GameService, p: Press) -> Reply:
    return await s.review.replay_step(p.game_id, p.user, _ply(p.arg))


async def _learn_play(s: GameService, p: Press) -> Reply:
    ply, text = split_play(p.arg)
    return await s.learn.lesson_move(p.user, text, ply)


async def _better(s: GameService, p: Press) -> Reply:
    return await s.review.better(p.game_id, p.user, _ply(p.arg))


def _tournament(p: Press) -> int:
    """A tournament button's tournament: its argument (else the id it was posted with)."""
    return int(p.arg) if p.arg and PLY.fullmatch(p.arg) else p.game_id


P, S, OK, NO = Style.PRIMARY, Style.SECONDARY, Style.SUCCESS, Style.DANGER

ACTIONS: Mapping[Action, ActionSpec] = {
    Action.JOIN: ActionSpec(lambda s, p: s.play.join(p.game_id, p.user), "button.join", OK),
    Action.ACCEPT: ActionSpec(lambda s, p: s.play.join(p.game_id, p.user), "button.accept", OK),
    Action.DECLINE: ActionSpec(lambda s, p: s.play.decline(p.game_id, p.user), "button.decline", S),
    Action.LEAVE: ActionSpec(lambda s, p: s.play.leave(p.game_id, p.user), "button.leave", S),
    Action.START: ActionSpec(lambda s, p: s.play.start(p.game_id, p.user), "button.start", P),
    Action.CANCEL: ActionSpec(lambda s, p: s.play.cancel(p.game_id, p.user), "button.cancel", S),
    Action.MOVE: ActionSpec(
        lambda s, p: s.play.move(p.game_id, p.user, p.arg or ""), "button.move", P, Takes.TEXT
    ),
    Action.SETUP: ActionSpec(
        lambda s, p: s.play.setup(p.game_id, p.user, p.arg or ""), "button.setup", P, Takes.TEXT
    ),
    Action.PLAY: ActionSpec(_play, "button.play", P, Takes.MOVE),
    Action.PASS: ActionSpec(lambda s, p: s.play.move(p.game_id, p.user, "pass"), "button.pass", P),
    Action.RESIGN: ActionSpec(lambda s, p: s.play.resign(p.game_id, p.user), "button.resign", NO),
    Action.OFFER_DRAW: ActionSpec(
        lambda s, p: s.play.offer_draw(p.game_id, p.user), "button.offer_draw", S
    ),
    Action.ACCEPT_DRAW: ActionSpec(
        lambda s, p: s.play.accept_draw(p.game_id, p.user), "button.accept_draw", OK
    ),
    Action.DECLINE_DRAW: ActionSpec(
        lambda s, p: s.play.decline_draw(p.game_id, p.user), "button.decline_draw", S
    ),
    Action.TAKEBACK: ActionSpec(
        lambda s, p: s.play.request_takeback(p.game_id, p.user), "button.takeback", S
    ),
    Action.ACCEPT_TAKEBACK: ActionSpec(
        lambda s, p: s.play.accept_takeback(p.game_id, p.user), "button.accept_takeback", OK
    ),
    Action.DECLINE_TAKEBACK: ActionSpec(
        lambda s, p: s.play.decline_takeback(p.game_id, p.user), "button.decline_takeback", S
    ),
    Action.BOARD: ActionSpec(lambda s, p: s.play.board(p.game_id, p.user), "button.board", S),
    Action.MOVES: ActionSpec(lambda s, p: s.play.moves(p.game_id, p.user), "button.moves", S),
    Action.RECORD: ActionSpec(lambda s, p: s.play.record(p.game_id, p.user), "button.record", S),
    Action.REMATCH: ActionSpec(lambda s, p: s.play.rematch(p.game_id, p.user), "button.rematch", P),
    Action.REPLAY: ActionSpec(_replay, "button.replay", S),
    Action.STEP_FIRST: ActionSpec(_step, "button.step_first", S, Takes.PLY),
    Action.STEP_PREV: ActionSpec(_step, "button.step_prev", S, Takes.PLY),
    Action.STEP_NEXT: ActionSpec(_step, "button.step_next", S, Takes.PLY),
    Action.STEP_LAST: ActionSpec(_step, "button.step_last", S, Takes.PLY),
    Action.GOTO: ActionSpec(_step, "select.goto", S, Takes.PLY),
    # lessons (issue 31): a practice board has no game id (a press carries 0)
    Action.LEARN: ActionSpec(lambda s, p: s.learn.lesson(p.user, p.arg), "learn.button.open", P),
    Action.LEARN_MOVE: ActionSpec(
        lambda s, p: s.learn.lesson_move(p.user, p.arg or ""), "button.move", P, Takes.TEXT
    ),
    Action.LEARN_PLAY: ActionSpec(_learn_play, "button.play", P, Takes.MOVE),
    Action.LEARN_HINT: ActionSpec(lambda s, p: s.learn.lesson_hint(p.user), "learn.button.hint", S),
    Action.LEARN_RESTART: ActionSpec(
        lambda s, p: s.learn.restart_lesson(p.user, p.arg), "learn.button.restart", S
    ),
    Action.LEARN_NEXT: ActionSpec(
        lambda s, p: s.learn.next_lesson(p.user, p.arg), "learn.button.next", OK
    ),
    Action.LEARN_MENU: ActionSpec(lambda s, p: s.learn.lesson(p.user), "learn.button.menu", S),
    Action.LEARN_STOP: ActionSpec(lambda s, p: s.learn.stop_lesson(p.user), "learn.button.stop", S),
    # puzzles: the user's own open puzzle, whatever ``game_id`` says (0 on their buttons)
    Action.PUZZLE_SOLVE: ActionSpec(
        lambda s, p: s.learn.solve_daily(p.user, p.arg), "button.puzzle_solve", OK
    ),
    Action.PUZZLE_MOVE: ActionSpec(
        lambda s, p: s.learn.puzzle_move(p.user, p.arg or ""), "button.move", P, Takes.TEXT
    ),
    Action.PUZZLE_HINT: ActionSpec(
        lambda s, p: s.learn.puzzle_hint(p.user), "button.puzzle_hint", S
    ),
    Action.PUZZLE_SOLUTION: ActionSpec(
        lambda s, p: s.learn.puzzle_solution(p.user), "button.puzzle_solution", S
    ),
    Action.PUZZLE_NEXT: ActionSpec(lambda s, p: s.learn.puzzle(p.user), "button.puzzle_next", P),
    Action.REVIEW: ActionSpec(lambda s, p: s.review.game(p.game_id, p.user), "button.review", S),
    Action.REVIEW_PUBLIC: ActionSpec(
        lambda s, p: s.review.game(p.game_id, p.user, publish=True), "button.review_public", S
    ),
    Action.BETTER: ActionSpec(_better, "button.better", S, Takes.PLY),
    Action.TOURNAMENT_JOIN: ActionSpec(
        lambda s, p: s.compete.join_tournament(_tournament(p), p.user), "button.t_join", OK
    ),
    Action.TOURNAMENT_LEAVE: ActionSpec(
        lambda s, p: s.compete.leave_tournament(_tournament(p), p.user), "button.t_leave", S
    ),
    Action.TOURNAMENT_START: ActionSpec(
        lambda s, p: s.compete.start_tournament(_tournament(p), p.user), "button.t_start", P
    ),
}
"""Every action: its use case, the key of its label, its style and its argument."""


async def run(service: GameService, action: Action, press: Press) -> Reply | Sequence[Reply]:
    """Run ``action``'s use case."""
    return await ACTIONS[action].run(service, press)
