"""Learning the games, as :class:`bot.service.GameService` offers it to adapters: the rules
pages, and the practice board (a lesson or a puzzle) a user has open, where a ``/move``,
``/legal`` or ``/hint`` that names no game goes (docs/learn.md, docs/puzzles.md)."""

from __future__ import annotations

from bot.service.guard import entry
from bot.service.learn.lessons import Lessons
from bot.service.learn.practice import Practising
from bot.service.learn.puzzles import Puzzles
from bot.service.learn.rules import RulesPages
from bot.service.values import RulesPage


class LearnFront:
    """The learning use cases of :class:`bot.service.GameService`."""

    rules: RulesPages
    lessons: Lessons
    puzzles: Puzzles

    @entry
    async def rules_page(self, game_id: str, index: int = 0) -> RulesPage:
        """Page ``index`` (0-based, clamped) of a game's whole rules, with its diagram."""
        return await self.rules.page(game_id, index)

    @entry
    async def practice_of(self, user_id: str) -> str | None:
        """What the user has open on their practice board (``lesson`` or ``puzzle``; opening
        one closes the other), or ``None``: where a move, ``/legal`` or ``/hint`` that names no
        game and is not in a game's thread goes (the one routing rule; adapters ask here)."""
        if await self.lessons.open_kind(user_id) is not None:
            return "lesson"
        return "puzzle" if await self.puzzles.open_of(user_id) is not None else None

    def practice_board(self, kind: str) -> Practising:
        """The use cases of a practice board of ``kind`` (what :meth:`practice_of` said)."""
        return self.lessons if kind == "lesson" else self.puzzles

    @entry
    async def puzzle_of(self, user_id: str) -> str | None:
        """The id of the puzzle ``user_id`` has open, or None."""
        opened = await self.puzzles.open_of(user_id)
        return None if opened is None else opened.puzzle_id
