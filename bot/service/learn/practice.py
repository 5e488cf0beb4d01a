"""A private practice board: a start position, the moves since, and the other side's answers.

Generic, for anything a learner plays alone against a script (a lesson; a puzzle could use it
too): the moves are kept in the store as a :class:`~bot.model.PracticeRow` (one open board per
user, so a restart continues it), a typed move is read by the engine (its refusal, with the
closest legal moves, is the answer to a bad one), an answer the script does not give is a chance
pick with a fixed seed or the computer at a low level, through the injected thinker (never on
the event loop), and the pictures are drawn in a worker thread. Nothing here is a game: no game
row, no statistics, no rating.
"""

from __future__ import annotations

import zlib
from collections import OrderedDict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from bot.learn.lessons import actor, chance_move, play
from bot.service.context import Context
from bot.service.play import turns
from bot.service.play.computer import Computer
from bot.service.play.directory import MoveChoices, matching, named_moves
from bot.service.present import Pictures
from bot.service.thinking import ThinkRequest
from bot.service.values import Lang, Reply, User
from engines.core import CHANCE, SIMULTANEOUS, State
from render.base import Marks


class Practising(Protocol):
    """What a practice board of either kind (a lesson, a puzzle) answers when a ``/move``,
    ``/legal`` or ``/hint`` names no game (see :meth:`bot.service.GameService.practice_of`)."""

    async def move(self, user: User, text: str) -> Reply: ...
    async def hint(self, user: User) -> Reply: ...
    async def legal(
        self, user: User, typed: str, limit: int = 25, lang: str = "en"
    ) -> MoveChoices: ...


PRACTICE_LEVEL = 1
"""The computer's level when it answers on a practice board."""
PICTURES_KEPT = 256
"""Practice pictures kept (the most recently shown)."""


@dataclass(frozen=True)
class Board:
    """A practice board replayed: the state now, whose moves were the learner's, and the last
    move with the state before it (for the picture's marks)."""

    state: State[Any]
    learner: tuple[str, ...]
    before: State[Any] | None
    last: Any


def replay(start: State[Any], seat: int, moves: Sequence[str]) -> Board:
    """``moves`` (canonical notation) played from ``start``: when the learner may act (a
    simultaneous setup included) the move is theirs, else the answerer's."""
    state, learner, before, last = start, [], None, None
    for text in moves:
        who = actor(state, seat)
        player = seat if who is None else who
        move = state.parse_move(text, player if state.current_player() == SIMULTANEOUS else None)
        if who is None:
            learner.append(text)
        before, last, state = state, move, play(state, move, player)
    return Board(state, tuple(learner), before, last)


class Practice:
    def __init__(self, ctx: Context, computer: Computer) -> None:
        self.ctx = ctx
        self.computer = computer
        self._pictures: OrderedDict[Hashable, bytes | None] = OrderedDict()

    @property
    def pictures(self) -> Pictures:
        return self.ctx.pictures

    @staticmethod
    def read(state: State[Any], seat: int, text: str) -> Any:
        """The learner's move as the engine reads it (a refusal saying why, if not)."""
        turns.check_length(text)
        return turns.parse(state, text, seat)

    async def answer(self, state: State[Any], seat: int, salt: str) -> tuple[State[Any], str]:
        """One answer the script did not give: a chance pick, or the computer's move."""
        who = actor(state, seat)
        assert who is not None
        if who == CHANCE:
            text = chance_move(state, state.ply)
        else:
            seed = zlib.crc32(f"{salt}:{state.ply}".encode())
            request = ThinkRequest(
                0,
                state.observe(who),
                who,
                PRACTICE_LEVEL,
                self.computer.seconds,
                self.computer.budget_scale,
                seed,
            )
            text = await self.computer.thinker.choose(request)
        move = state.parse_move(text, who if state.current_player() == SIMULTANEOUS else None)
        return play(state, move, who), state.format_move(move)

    @staticmethod
    def choices(state: State[Any], seat: int, typed: str, limit: int, lang: str) -> MoveChoices:
        """The learner's legal moves matching ``typed`` (as autocomplete and /legal list them)."""
        if state.is_over() or seat not in state.acting_players():
            return MoveChoices((), 0)
        return matching(named_moves(state, seat, Lang.of(lang)), typed, limit)

    async def picture(
        self,
        key: Hashable,
        state: State[Any],
        viewer: int | None,
        last: Any,
        marks: Marks | None,
    ) -> bytes | None:
        """The picture of a practice position, drawn in a worker thread and kept by ``key``
        (what determines it: a lesson and its moves), since every learner of a lesson passes
        the same few positions and a marked picture takes a while to draw."""
        if key in self._pictures:
            self._pictures.move_to_end(key)
            return self._pictures[key]
        png = await self.pictures.draw(None, state, viewer, last, marks=marks)
        self._pictures[key] = png
        while len(self._pictures) > PICTURES_KEPT:
            self._pictures.popitem(last=False)
        return png
