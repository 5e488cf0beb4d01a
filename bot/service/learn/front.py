"""Learning the games, as adapters reach it: ``service.learn``. The rules pages, the lessons and
the puzzles, and the practice board (a lesson or a puzzle) a user has open, where a ``/move``,
``/legal`` or ``/hint`` that names no game goes (docs/learn.md, docs/puzzles.md)."""

from __future__ import annotations

from bot.service.context import Context
from bot.service.guard import entry
from bot.service.learn.lessons import KIND as LESSON
from bot.service.learn.lessons import Lessons
from bot.service.learn.practice import Practice, Practising
from bot.service.learn.puzzles import DailyPosts, Puzzles
from bot.service.learn.retry import KIND as RETRY
from bot.service.learn.retry import Mistakes, Retries
from bot.service.learn.rules import RulesPages
from bot.service.play.front import Play
from bot.service.thinking import Thinker
from bot.service.values import Reply, RulesPage, User


class Learn:
    """The learn capability's use cases (``service.learn``)."""

    def __init__(self, ctx: Context, play: Play, thinker: Thinker, mistakes: Mistakes) -> None:
        self.rules = RulesPages(ctx)
        self.lessons = Lessons(ctx, Practice(ctx, play.computer))
        self.puzzles = Puzzles(ctx, thinker)
        self.retries = Retries(ctx, thinker, mistakes)
        """Retry your mistakes (the review's, through ``mistakes``: the root passes the review
        capability's)."""
        self.daily_posts = DailyPosts(ctx)
        """The outbox's ``puzzle`` kind: the daily puzzle's posts (the root registers it)."""

    @entry
    async def rules_page(self, game_id: str, index: int = 0) -> RulesPage:
        """Page ``index`` (0-based, clamped) of a game's whole rules, with its diagram."""
        return await self.rules.page(game_id, index)

    # -- the practice board --------------------------------------------------------------------
    @entry
    async def practice_of(self, user_id: str) -> str | None:
        """What the user has open on their practice board (``lesson``, ``retry``, ``puzzle``,
        or the review's ``analysis``; opening one closes the others), or ``None``: where a
        move, ``/legal`` or ``/hint`` that names no game and is not in a game's thread goes
        (the one routing rule; adapters ask the root, :meth:`GameService.practice_of`)."""
        kind = await self.lessons.open_kind(user_id)  # the practice row: a lesson's or a retry's
        if kind is not None:
            return kind
        return "puzzle" if await self.puzzles.open_of(user_id) is not None else None

    def practice_board(self, kind: str) -> Practising:
        """The use cases of a practice board of ``kind`` (what :meth:`practice_of` said): a
        move, the legal moves, a hint; the same for a lesson, a retry and a puzzle."""
        boards: dict[str, Practising] = {LESSON: self.lessons, RETRY: self.retries}
        return boards.get(kind, self.puzzles)

    # -- lessons -------------------------------------------------------------------------------
    @entry
    async def lesson(self, user: User, what: str | None = None) -> Reply:
        """``/learn [game]``: the lessons menu, or a game's next lesson (or a lesson by id)."""
        return await self.lessons.learn(user, what)

    @entry
    async def lesson_move(self, user: User, text: str, ply: int | None = None) -> Reply:
        return await self.lessons.move(user, text, ply)

    @entry
    async def lesson_hint(self, user: User) -> Reply:
        return await self.lessons.hint(user)

    @entry
    async def restart_lesson(self, user: User, lesson_id: str | None) -> Reply:
        return await self.lessons.restart(user, lesson_id)

    @entry
    async def next_lesson(self, user: User, lesson_id: str | None) -> Reply:
        return await self.lessons.next(user, lesson_id)

    @entry
    async def stop_lesson(self, user: User) -> Reply:
        return await self.lessons.stop(user)

    # -- puzzles -------------------------------------------------------------------------------
    @entry
    async def puzzle(self, user: User, game: str | None = None) -> Reply:
        """``/puzzle [game]``: a puzzle the user has not solved (of one game, or any)."""
        return await self.puzzles.start(user, game)

    @entry
    async def open_puzzle(self, user: User, puzzle_id: str) -> Reply:
        """A puzzle by its id (``rokumentai-004``), opened on the user's practice board."""
        return await self.puzzles.open(user, puzzle_id)

    @entry
    async def give_up_puzzle(self, user: User) -> Reply:
        """Close the open puzzle unsolved (its solution is shown)."""
        return await self.puzzles.give_up(user)

    @entry
    async def puzzle_of(self, user_id: str) -> str | None:
        """The id of the puzzle ``user_id`` has open, or None."""
        opened = await self.puzzles.open_of(user_id)
        return None if opened is None else opened.puzzle_id

    @entry
    async def solve_daily(self, user: User, day: str | None = None) -> Reply:
        """The daily puzzle of ``day`` (default: today), opened on the user's practice board."""
        return await self.puzzles.solve_daily(user, day)

    @entry
    async def puzzle_move(self, user: User, text: str) -> Reply:
        return await self.puzzles.move(user, text)

    @entry
    async def puzzle_hint(self, user: User) -> Reply:
        return await self.puzzles.hint(user)

    @entry
    async def puzzle_solution(self, user: User) -> Reply:
        return await self.puzzles.solution(user)

    # -- retry your mistakes (issue 50, 4) --------------------------------------------------
    @entry
    async def retry(self, user: User, game_id: int) -> Reply:
        """The user's mistakes in the reviewed game ``game_id``, to put right one by one on
        their practice board."""
        return await self.retries.start(user, game_id)

    @entry
    async def retry_move(self, user: User, text: str) -> Reply:
        return await self.retries.move(user, text)

    @entry
    async def retry_hint(self, user: User) -> Reply:
        return await self.retries.hint(user)

    @entry
    async def retry_solution(self, user: User) -> Reply:
        return await self.retries.solution(user)
