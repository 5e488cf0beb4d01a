"""Lessons as data, and the pure judge of a learner's move (no I/O, no clock, no randomness).

A :class:`Lesson` is a position (position text, or the start, and moves played from it), the
learner's seat, a :class:`Goal` the engine checks, the learner's own solution and the other
side's scripted answers (the chance steps of 略式易双六 included; when the script runs out the
computer answers), a hint, a "why" for a legal move that misses the goal and what the learner
sees on success. :func:`judge` says what one learner move did; :func:`stars` grades a finished
lesson by moves used and hints taken. The service (:mod:`bot.service.learn.lessons`) stores the
moves and draws the pictures; every rule here is the engine's.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.learn import cell_index, move_cells
from engines import rokumentai as rokumentai_engine
from engines import sangokushi as sangokushi_engine
from engines import suji_shogi as suji_engine
from engines import yosuko as yosuko_engine
from engines.core import CHANCE, SIMULTANEOUS, EngineError, State, Text, chance_pick
from engines.registry import get_game
from engines.socrates import board as socrates_engine
from render.base import Marks

CHANCE_SEED = "lesson"
"""The seed of a chance step the script does not name (a lesson replays the same way)."""


class GoalKind(enum.StrEnum):
    CAPTURE = "capture"
    """Take the piece standing on ``cell``."""
    REACH = "reach"
    """Bring a piece on the board to ``cell`` by moving it (略式易双六: the token to line
    ``cell``); placing one there from the hand is no reaching."""
    WIN = "win"
    """Win the game."""
    NEXT_SEAT = "next_seat"
    """Give 王手 so that ``seat`` moves next (三国志's turn jump)."""
    PROMOTE = "promote"
    """Promote a piece (on ``cell``, if given)."""
    DROP = "drop"
    """Drop (or place) a piece from the hand (on ``cell``, if given; the piece ``piece``, as
    the notation writes it before ``@``, if given)."""
    PLAY = "play"
    """Make one of ``moves`` (a choice whose consequence the lesson shows)."""


@dataclass(frozen=True)
class Goal:
    kind: GoalKind
    text: Text
    """The goal as the learner reads it ("Capture the 弓 in two moves")."""
    cell: str | None = None
    seat: int | None = None
    moves: tuple[str, ...] = ()
    piece: str | None = None
    """The piece a DROP must place (``M``: a marked piece), when the goal's text names one."""


@dataclass(frozen=True)
class Lesson:
    id: str
    """Unique, stable (kept in buttons and in the learner's progress): ``rokumentai-2``."""
    game: str
    """The engine that plays it."""
    title: Text
    intro: Text
    goal: Goal
    solution: tuple[str, ...]
    """The learner's moves, in notation; the last one meets the goal."""
    hint: Text
    why: Text
    """Said for a legal move that misses the goal (the learner then retries)."""
    success: Text
    practises: tuple[str, ...]
    """The headings of the rules sections (``bot.learn`` pages) this lesson practises."""
    position: str = ""
    moves: tuple[str, ...] = ()
    """Played from the position before the lesson starts."""
    replies: tuple[str, ...] = ()
    """The other side's moves (and the chance steps) in order; then the computer answers."""
    alternatives: tuple[tuple[str, ...], ...] = ()
    """Other lines of the learner's that the same answers allow (they meet the goal too)."""
    seat: int = 0
    options: tuple[tuple[str, str], ...] = ()
    players: int | None = None
    viewer: int | None = None
    """The seat the picture is drawn for (default: the learner's)."""

    def start(self) -> State[Any]:
        """The position the learner starts from (the engine's errors if the data is wrong)."""
        game = get_game(self.game)
        options = dict(self.options)
        state: State[Any] = (
            game.from_position(self.position, options)
            if self.position
            else game.new_game(self.players, options)
        )
        for text in self.moves:
            state = state.apply(state.parse_move(text))
        return state

    @property
    def par(self) -> int:
        return len(self.solution)

    @property
    def lines(self) -> tuple[tuple[str, ...], ...]:
        return (self.solution, *self.alternatives)


class Verdict(enum.Enum):
    DONE = "done"
    GO_ON = "go_on"
    WRONG = "wrong"


def taken_cell(before: State[Any], move: Any) -> int | None:
    """Where the piece ``move`` takes stood in ``before`` (六面体: the beaten or struck one)."""
    if isinstance(move, rokumentai_engine.Move):
        assert isinstance(before, rokumentai_engine.RokumentaiState)
        if move.struck >= 0:
            return int(move.struck)
        return move.to if move.frm >= 0 and before.board[move.to] else None
    if isinstance(move, sangokushi_engine.Move):
        assert isinstance(before, sangokushi_engine.SangokushiState)
        return move.dst if not move.is_drop and before.board[move.dst] else None
    if isinstance(move, suji_engine.Move):
        assert isinstance(before, suji_engine.SujiState)
        return move.to if not move.is_drop and before.board[move.to] else None
    if isinstance(move, socrates_engine.Move):
        assert isinstance(before, socrates_engine.SocratesState)
        empty = before.board[move.to] == socrates_engine.EMPTY
        return move.to if move.kind == socrates_engine.MOVE and not empty else None
    return None


def _target(lesson: Lesson) -> int | None:
    cell = lesson.goal.cell
    return None if cell is None else cell_index(lesson.game, cell)


def met(lesson: Lesson, before: State[Any], move: Any, after: State[Any]) -> bool:
    """Does the learner's ``move`` at ``before`` meet the goal? ``after`` is the position once
    it and any answers so far are played (a card drawn after 略式易双六's draw)."""
    goal, kind = lesson.goal, lesson.goal.kind
    target = _target(lesson)
    if kind is GoalKind.WIN:
        outcome = after.outcome()
        return outcome is not None and outcome.result(lesson.seat) == "win"
    if kind is GoalKind.CAPTURE:
        return target is not None and taken_cell(before, move) == target
    if kind is GoalKind.REACH:
        if isinstance(after, yosuko_engine.YosukoState):
            return goal.cell is not None and after.token == int(goal.cell)
        cells = move_cells(move)
        return cells is not None and cells[0] is not None and cells[1] == target
    if kind is GoalKind.NEXT_SEAT:
        return after.announcement() is not None and after.current_player() == goal.seat
    if kind is GoalKind.PROMOTE:
        cells = move_cells(move)
        promoted = bool(getattr(move, "promote", False))
        return promoted and (target is None or (cells is not None and cells[1] == target))
    if kind is GoalKind.DROP:
        cells = move_cells(move)
        dropped = cells is not None and cells[0] is None
        piece = goal.piece is None or before.format_move(move).partition("@")[0] == goal.piece
        return dropped and piece and (target is None or (cells is not None and cells[1] == target))
    if kind is GoalKind.PLAY:
        return before.format_move(move) in goal.moves
    raise AssertionError(kind)


def judge(
    lesson: Lesson, played: Sequence[str], before: State[Any], move: Any, after: State[Any]
) -> Verdict:
    """The learner's next ``move`` (``played``: their accepted moves so far, canonical) at
    ``before``, ``after`` it: the goal is met, or it follows one of the lesson's lines (the
    answers come next: see :func:`answered`), or it misses (the learner retries from
    ``before``)."""
    if met(lesson, before, move, after):
        return Verdict.DONE
    step, text = len(played), before.format_move(move)
    for line in lesson.lines:
        on_line = tuple(line[:step]) == tuple(played) and step < len(line)
        if on_line and _canonical(before, line[step], lesson.seat) == text:
            return Verdict.GO_ON
    return Verdict.WRONG


def answered(
    lesson: Lesson, played: Sequence[str], before: State[Any], move: Any, after: State[Any]
) -> Verdict:
    """After the answers to the learner's last move (``played`` includes it): met now (a card
    drawn, the others' turns), or more moves to come, or the line is used up (retry)."""
    if met(lesson, before, move, after):
        return Verdict.DONE
    more = any(
        tuple(line[: len(played)]) == tuple(played) and len(line) > len(played)
        for line in lesson.lines
    )
    return Verdict.GO_ON if more and not after.is_over() else Verdict.WRONG


def _canonical(state: State[Any], text: str, seat: int) -> str:
    try:
        return state.format_move(state.parse_move(text, _player(state, seat)))
    except EngineError:
        return ""  # an alternative line that does not fit here


def _player(state: State[Any], seat: int) -> int | None:
    """The player to name when reading a move of ``seat`` (a simultaneous setup needs it)."""
    return seat if state.current_player() == SIMULTANEOUS else None


def actor(state: State[Any], seat: int) -> int | None:
    """Who acts next when it is not the learner: a seat, or :data:`CHANCE`; ``None`` when the
    learner is to act or the game is over."""
    if state.is_over():
        return None
    acting = state.acting_players()
    if seat in acting:
        return None
    if state.current_player() == CHANCE:
        return CHANCE
    return acting[0] if acting else None


def learner_move(state: State[Any], seat: int, text: str) -> Any:
    """The learner's move read by the engine (its error, with the closest moves, if not)."""
    return state.parse_move(text, _player(state, seat))


def play(state: State[Any], move: Any, player: int | None) -> State[Any]:
    return state.apply(move, player if state.current_player() == SIMULTANEOUS else None)


def stars(tries: int, hints: int, par: int) -> int:
    """3 for the solution's moves and no hint, 2 for at most two moves more and one hint,
    else 1 (a finished lesson always earns a star)."""
    if tries <= par and hints == 0:
        return 3
    if tries <= par + 2 and hints <= 1:
        return 2
    return 1


def scripted(state: State[Any], seat: int, script: Sequence[str], used: int) -> tuple[str, ...]:
    """The script's answers from ``used`` on that are due at ``state`` (others' turns and
    chance steps, until the learner's turn or the end); fewer when the script runs out."""
    out: list[str] = []
    while (who := actor(state, seat)) is not None and used < len(script):
        player = who if state.current_player() == SIMULTANEOUS else None
        move = state.parse_move(script[used], player)
        out.append(state.format_move(move))
        state = play(state, move, who)
        used += 1
    return tuple(out)


def chance_move(state: State[Any], index: int) -> str:
    """A chance step's outcome the script does not name, the same every time."""
    return state.format_move(chance_pick(state, CHANCE_SEED, index))


def marks(lesson: Lesson, state: State[Any], before: State[Any] | None, last: Any) -> Marks:
    """What the lesson's picture marks: the goal's cell (a green dot) and the last move."""
    target = _target(lesson) if lesson.goal.kind is not GoalKind.NEXT_SEAT else None
    if isinstance(state, yosuko_engine.YosukoState):
        target = None  # the goal line is said in words
    cells = move_cells(last) if last is not None else None
    moved: tuple[int, ...] = ()
    if cells is not None:
        moved = (cells[1],) if cells[0] is None or cells[0] == cells[1] else (cells[0], cells[1])
    taken = taken_cell(before, last) if before is not None and last is not None else None
    return Marks(
        reach=frozenset({target}) if target is not None else frozenset(),
        moved=moved,
        captured=frozenset() if taken is None else frozenset({_shown_taken(last, taken)}),
        next_seat=state.current_player() if lesson.goal.kind is GoalKind.NEXT_SEAT else None,
    )


def _shown_taken(move: Any, cell: int) -> int:
    """Where the taken piece shows after the move (六面体's beaten ghost swaps to ``frm``)."""
    if isinstance(move, rokumentai_engine.Move) and move.struck < 0 and move.frm >= 0:
        return int(move.frm)
    return cell
