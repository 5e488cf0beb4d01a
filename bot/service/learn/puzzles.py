"""``/puzzle``: puzzles from real play, answered as moves are (docs/puzzles.md).

A user has at most one puzzle open (kept in the store, so it survives a restart). Moves are
entered as in a game (``/move`` with autocomplete, the move modal, ``/legal``, ``/hint``): when
the user has a puzzle open and the command is not in a game's thread, :meth:`Puzzles.open_of`
says so and the adapter sends the command here. Every answer is judged by proof
(:func:`bot.learn.puzzles.answer`), off the event loop through the thinker; a wrong one is
answered with the refutation, the computer's own reply first when it refutes. Puzzles never
touch the games, statistics or ratings.

The daily puzzle: a server that set ``puzzle_channel`` gets one post a UTC day (the same puzzle
everywhere), written as a row of its own when it falls due (one a server and day, keyed
``puzzle:<guild>:<day>``) and delivered as the outbox's ``puzzle`` kind (:class:`DailyPosts`):
a restart neither loses nor doubles a day's post.
Solving it on its day extends the user's streak (:mod:`bot.learn.streak`).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import random
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from bot.clock import to_ms
from bot.learn import puzzles as data
from bot.learn import streak as streaks
from bot.learn.puzzles import Answer, Puzzle
from bot.model import OpenPuzzle, PuzzlePost, daily_post_key, parse_daily_post_key
from bot.service import present
from bot.service.actions import Action, Button
from bot.service.context import Context
from bot.service.guard import entry
from bot.service.outbox import Kind
from bot.service.play.directory import MoveChoices, matching, named_moves
from bot.service.thinking import Thinker, ThinkRequest
from bot.service.values import Event, Line, Refusal, Reply, User
from engines.ai.proof import Budget, winning_moves
from engines.core import EngineError, State, Text
from engines.registry import get_game

REFUTE_LEVEL = 6
"""The computer's level for a wrong answer's refutation (its reply, then checked by proof)."""
REFUTE_SECONDS = 1.0
"""The hard limit of that search; it thinks for a quarter of level 6's budget (0.15 s)."""
REFUTE_SCALE = 0.25


@dataclass(frozen=True, slots=True)
class DailyRow:
    """A written daily post not yet delivered, with this process's retry bookkeeping."""

    post: PuzzlePost
    next_ms: int
    attempts: int

    @property
    def key(self) -> str:
        return daily_post_key(self.post.guild_id, self.post.day)


def daily_puzzle(day: str) -> Puzzle:
    """``day``'s puzzle, the same in every server: drawn from every puzzle by the day."""
    every = data.every()
    if not every:
        raise Refusal("refuse.puzzle_none")
    digest = hashlib.sha256(f"banmen-puzzle:{day}".encode()).digest()
    return every[int.from_bytes(digest[:8], "big") % len(every)]


def _order(user_id: str, tried: int) -> Any:
    """A user's own order of the puzzles (another after each one tried)."""
    return lambda p: hashlib.sha256(f"{user_id}:{tried}:{p.id}".encode()).digest()


class Puzzles:
    def __init__(self, ctx: Context, thinker: Thinker) -> None:
        self.ctx = ctx
        self.thinker = thinker
        self._busy: dict[str, asyncio.Lock] = {}

    @contextlib.asynccontextmanager
    async def _one_at_a_time(self, user_id: str) -> AsyncIterator[None]:
        """A user's answers one after another (a button and ``/move`` at once would both
        judge the same position). One small lock a user who answered since the start."""
        async with self._busy.setdefault(user_id, asyncio.Lock()):
            yield

    def _today(self) -> str:
        return self.ctx.clock.now().date().isoformat()

    # -- routing -----------------------------------------------------------------------------
    async def open_of(self, user_id: str) -> OpenPuzzle | None:
        """The user's open puzzle (``/move``, ``/legal`` and ``/hint`` outside a game's thread
        go to it), or None."""
        return await self.ctx.store.open_puzzle(user_id)

    async def _open(self, user: User) -> tuple[OpenPuzzle, Puzzle]:
        opened = await self.open_of(user.id)
        puzzle = None if opened is None else data.by_id().get(opened.puzzle_id)
        if opened is None or puzzle is None:
            raise Refusal("refuse.puzzle_not_open")
        return opened, puzzle

    # -- starting ----------------------------------------------------------------------------
    @entry
    async def start(self, user: User, game: str | None = None) -> Reply:
        """A puzzle for ``user``: one they have not solved (of ``game``, when given), in their
        own order; once all are solved, they come round again."""
        if game is not None:
            try:
                game = get_game(game).id
            except EngineError as exc:
                raise Refusal("refuse.unknown_game_type", reason=exc.text) from exc
            if not data.load(game):
                raise Refusal("refuse.puzzle_no_game", game=present.title(get_game(game)))
        pool = data.load(game) if game is not None else data.every()
        if not pool:
            raise Refusal("refuse.puzzle_none")
        progress = await self.ctx.store.puzzle_progress(user.id)
        unsolved = [p for p in pool if not progress.get(p.id, (0, False))[1]]
        fresh = [p for p in unsolved if p.id not in progress]
        puzzle = min(fresh or unsolved or pool, key=_order(user.id, len(progress)))
        return await self._begin(user, puzzle, None)

    @entry
    async def open(self, user: User, puzzle_id: str) -> Reply:
        """Puzzle ``puzzle_id`` (as ``rokumentai-004``) for ``user``."""
        puzzle = data.by_id().get(puzzle_id.strip())
        if puzzle is None:
            raise Refusal("refuse.puzzle_unknown", id=puzzle_id.strip())
        return await self._begin(user, puzzle, None)

    @entry
    async def solve_daily(self, user: User, day: str | None = None) -> Reply:
        """The daily puzzle of ``day`` (a post's Solve button; default today) for ``user``."""
        day = day or self._today()
        return await self._begin(user, daily_puzzle(day), day)

    async def _begin(self, user: User, puzzle: Puzzle, day: str | None) -> Reply:
        opened = OpenPuzzle(user.id, puzzle.id, (), day, self.ctx.now_ms())
        await self.ctx.store.drop_practice(user.id)  # one practice board at a time
        await self.ctx.store.set_open_puzzle(user.id, opened)
        state = puzzle.start()
        lines = [Line("puzzle.daily", {"day": day})] if day else []
        lines += await self._streak_lines(user)
        return await self._reply(user, puzzle, "puzzle.show", state, None, lines)

    async def _streak_lines(self, user: User) -> list[Line]:
        now = streaks.shown(await self.ctx.store.puzzle_streak(user.id), self._today())
        return [Line("puzzle.streak", {"days": now})] if now else []

    # -- answering ---------------------------------------------------------------------------
    @entry
    async def move(self, user: User, text: str) -> Reply:
        """The user's answer: right (the reply follows, or solved) or wrong (the refutation;
        the position stays for another try)."""
        async with self._one_at_a_time(user.id):
            return await self._move(user, text)

    async def _move(self, user: User, text: str) -> Reply:
        opened, puzzle = await self._open(user)
        state = puzzle.after(opened.moves)
        try:
            move = state.parse_move(text)
        except EngineError as exc:
            shown = [present.shown_move(state, s) for s in exc.suggestions]
            raise Refusal("refuse.bad_move", shown, reason=exc.text) from exc
        played = state.format_move(move)
        judged = await self.thinker.draw(partial(data.answer, puzzle, opened.moves, played))
        if judged.right:
            return await self._right(user, opened, puzzle, state, move, judged)
        return await self._wrong(user, opened, puzzle, state, move)

    async def _right(
        self,
        user: User,
        opened: OpenPuzzle,
        puzzle: Puzzle,
        state: State[Any],
        move: Any,
        judged: Answer,
    ) -> Reply:
        shown = present.display(state, move)
        after = puzzle.after(judged.moves)
        lines = []
        if judged.replies:
            replies, _, _ = written(
                puzzle.after(judged.moves[: len(opened.moves) + 1]), judged.replies
            )
            lines.append(Line("puzzle.reply", {"moves": replies}))
        last = _last_move(puzzle, judged.moves)
        if not judged.solved:
            await self.ctx.store.set_open_puzzle(
                user.id,
                OpenPuzzle(user.id, puzzle.id, judged.moves, opened.daily_day, opened.opened_ms),
            )
            lines.append(Line("puzzle.go_on", {}))
            return await self._reply(user, puzzle, "puzzle.right", after, last, lines, move=shown)
        await self.ctx.store.puzzle_attempt(user.id, puzzle.id, solved_ms=self.ctx.now_ms())
        await self.ctx.store.set_open_puzzle(user.id, None)
        today = self._today()
        if opened.daily_day == today:
            before = await self.ctx.store.puzzle_streak(user.id)
            now = streaks.solved(before, today)
            await self.ctx.store.set_puzzle_streak(user.id, now)
            lines.append(Line("puzzle.streak_up", {"days": now.streak, "best": now.best}))
        return await self._reply(
            user, puzzle, "puzzle.solved", after, last, lines, move=shown, done=True
        )

    async def _wrong(
        self, user: User, opened: OpenPuzzle, puzzle: Puzzle, state: State[Any], move: Any
    ) -> Reply:
        after = state.apply(move)
        left = puzzle.plies - len(opened.moves) - 1
        preferred: tuple[str, ...] = ()
        mover = after.current_player()
        if after.outcome() is None and mover >= 0:
            seed = int.from_bytes(hashlib.sha256(after.position().encode()).digest()[:8], "big")
            request = ThinkRequest(
                0, after, mover, REFUTE_LEVEL, REFUTE_SECONDS, REFUTE_SCALE, seed
            )
            preferred = (await self.thinker.choose(request),)
        line = await self.thinker.draw(
            partial(data.refutation, after, puzzle.seat, left, preferred)
        )
        await self.ctx.store.puzzle_attempt(user.id, puzzle.id)
        shown, end, last = written(state, (state.format_move(move), *line))
        key = "puzzle.wrong_lost" if end.outcome() is not None else "puzzle.wrong"
        return await self._reply(user, puzzle, key, end, last, [], line=shown)

    # -- help --------------------------------------------------------------------------------
    @entry
    async def legal(self, user: User, typed: str, limit: int = 25, lang: str = "en") -> MoveChoices:
        """The open puzzle's legal moves matching ``typed`` (autocomplete, ``/legal``)."""
        opened = await self.open_of(user.id)
        puzzle = None if opened is None else data.by_id().get(opened.puzzle_id)
        if opened is None or puzzle is None:
            return MoveChoices((), 0)
        state = puzzle.after(opened.moves)
        return matching(named_moves(state, state.current_player(), lang), typed, limit)

    @entry
    async def hint(self, user: User) -> Reply:
        """Three moves, the answer among them (in the engine's order, so nothing gives it
        away but the position)."""
        opened, puzzle = await self._open(user)
        state = puzzle.after(opened.moves)
        n = len(opened.moves)
        on_line = tuple(puzzle.solution[:n]) == opened.moves and n < len(puzzle.solution)
        if on_line:
            answer = state.parse_move(puzzle.solution[n])
        else:
            wins = await self.thinker.draw(
                partial(_winning, puzzle, opened.moves, puzzle.plies - n)
            )
            answer = state.parse_move(wins[0])
        legal = list(state.legal_moves())
        others = [m for m in legal if m != answer]
        rng = random.Random(f"{puzzle.id}:{n}")
        chosen = {answer, *rng.sample(others, min(2, len(others)))}
        moves = [present.display(state, m) for m in legal if m in chosen]
        text = Text(", ".join(m.en for m in moves), ", ".join(m.ja for m in moves))
        return self._private(user, "puzzle.hint", moves=text)

    @entry
    async def solution(self, user: User) -> Reply:
        """The whole solution from the start; the puzzle is closed (not solved)."""
        _, puzzle = await self._open(user)
        await self.ctx.store.set_open_puzzle(user.id, None)
        await self.ctx.store.puzzle_attempt(user.id, puzzle.id)
        line, end, last = written(puzzle.start(), puzzle.solution)
        return await self._reply(
            user, puzzle, "puzzle.solution", end, last, [], line=line, done=True
        )

    @entry
    async def give_up(self, user: User) -> Reply:
        """Close the open puzzle (moves go to the user's games again)."""
        _, puzzle = await self._open(user)
        await self.ctx.store.set_open_puzzle(user.id, None)
        return self._private(user, "puzzle.closed", id=puzzle.id)

    # -- replies -----------------------------------------------------------------------------
    def _private(self, user: User, key: str, **params: Any) -> Reply:
        return Reply(key, params, event=Event.PUZZLE, public=False, audience=user.id)

    async def _reply(
        self,
        user: User,
        puzzle: Puzzle,
        key: str,
        state: State[Any],
        last: Any,
        lines: list[Line],
        *,
        done: bool = False,
        **params: Any,
    ) -> Reply:
        game = get_game(puzzle.game)
        seat = Text(
            game.seat_name(puzzle.seat, "en", puzzle.players),
            game.seat_name(puzzle.seat, "ja", puzzle.players),
        )
        n = puzzle.solver_moves
        actions = (
            (Button(Action.PUZZLE_NEXT),)
            if done
            else (
                Button(Action.PUZZLE_MOVE),
                Button(Action.PUZZLE_HINT),
                Button(Action.PUZZLE_SOLUTION),
            )
        )
        image = await self.ctx.pictures.draw(None, state, puzzle.seat, last)
        return Reply(
            key,
            {
                "id": puzzle.id,
                "game": present.title(game),
                "seat": seat,
                "n": n,
                "difficulty": "★" * puzzle.difficulty,
                **params,
            },
            event=Event.PUZZLE,
            public=False,
            audience=user.id,
            image=image,
            image_alt=present.alt_text(state, puzzle.seat, last) if image is not None else None,
            image_viewer=puzzle.seat,
            actions=actions,
            lines=tuple(lines),
        )


class DailyPosts:
    """The outbox's ``puzzle`` kind (see :class:`bot.service.outbox.Source`): the day's post of
    each server of this process that set a puzzle channel, written once when it falls due (the
    delivery loop looking is what writes it) and handed out until reported. A day that passed
    unposted (the bot was down) is dropped: its puzzle is no longer the day's. The table keeps
    no attempts: a failed post's next try is kept here (a restart tries at once)."""

    kind = Kind.PUZZLE

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self._retry: dict[str, tuple[int, int]] = {}
        """Failed posts: (attempts, when to try again)."""
        self._wanted = False
        """Whether a server of this process set a puzzle channel (at the last look)."""

    def owns(self, key: str) -> bool:
        return parse_daily_post_key(key) is not None

    def _today(self) -> str:
        return self.ctx.clock.now().date().isoformat()

    async def _channels(self) -> list[tuple[str, str]]:
        """The servers of this process that set a puzzle channel, and their channels."""
        found = await self.ctx.store.guilds_with_setting("puzzle_channel")
        return [(g, c) for g, c in found if c.isdigit() and self.ctx.settings.owns(g)]

    async def pending(self, now_ms: int, limit: int) -> list[DailyRow]:
        store, today = self.ctx.store, self._today()
        channels = await self._channels()
        self._wanted = bool(channels)
        for guild_id, channel in channels:  # falls due: written once
            puzzle = daily_puzzle(today)
            await store.add_puzzle_post(PuzzlePost(guild_id, today, channel, puzzle.id, None))
        out: list[DailyRow] = []
        for post in await store.pending_puzzle_posts():
            if not self.ctx.settings.owns(post.guild_id):
                continue
            key = daily_post_key(post.guild_id, post.day)
            if post.day != today:
                await store.puzzle_post_delivered(post.guild_id, post.day, self.ctx.now_ms())
                self._retry.pop(key, None)
                continue
            attempts, next_ms = self._retry.get(key, (0, self.ctx.now_ms()))  # (due now)
            if next_ms <= now_ms:
                out.append(DailyRow(post, next_ms, attempts))
        return out[:limit]

    async def next_written_ms(self, now_ms: int) -> int | None:
        """The next UTC midnight, if a server of this process wants the daily puzzle (as the
        last look at :meth:`pending` found; a server that sets its channel wakes the delivery
        loop)."""
        if not self._wanted:
            return None
        now = self.ctx.clock.now()
        midnight = datetime(now.year, now.month, now.day, tzinfo=now.tzinfo) + timedelta(days=1)
        return to_ms(midnight)

    async def reply(self, row: DailyRow) -> Reply:
        post = row.post
        puzzle = data.by_id().get(post.puzzle_id) or daily_puzzle(post.day)
        game = get_game(puzzle.game)
        seat = Text(
            game.seat_name(puzzle.seat, "en", puzzle.players),
            game.seat_name(puzzle.seat, "ja", puzzle.players),
        )
        start = puzzle.start()
        image = await self.ctx.pictures.draw(None, start, puzzle.seat, None)
        return Reply(
            "puzzle.daily_post",
            {
                "day": post.day,
                "game": present.title(game),
                "seat": seat,
                "n": puzzle.solver_moves,
                "difficulty": "★" * puzzle.difficulty,
                "channel": post.channel_id,
                "guild": post.guild_id,
            },
            event=Event.PUZZLE_DAILY,
            image=image,
            image_alt=present.alt_text(start, puzzle.seat, None) if image is not None else None,
            image_viewer=puzzle.seat,
            actions=(Button(Action.PUZZLE_SOLVE, post.day),),
            outbox=row.key,
        )

    async def delivered(self, keys: Sequence[str], at_ms: int) -> None:
        """The days' posts reached their channels (or never can: the channel is gone)."""
        for key in keys:  # one a channel and day
            parsed = parse_daily_post_key(key)
            self._retry.pop(key, None)
            if parsed is not None:
                await self.ctx.store.puzzle_post_delivered(*parsed, at_ms)

    async def failed(self, key: str, next_ms: int) -> None:
        attempts, _ = self._retry.get(key, (0, 0))
        self._retry[key] = (attempts + 1, next_ms)


def written(state: State[Any], moves: Sequence[str]) -> tuple[Text, State[Any], Any]:
    """``moves`` (notation) played from ``state``: as the game writes them in both languages,
    the position after them and the last move (None for none)."""
    en: list[str] = []
    ja: list[str] = []
    last = None
    for text in moves:
        last = state.parse_move(text)
        en.append(state.display_move(last, "en"))
        ja.append(state.display_move(last, "ja"))
        state = state.apply(last)
    return Text(" ".join(en), " ".join(ja)), state, last


def _last_move(puzzle: Puzzle, moves: tuple[str, ...]) -> Any:
    """The last of ``moves`` as a move of the position before it (the picture marks it)."""
    before = puzzle.after(moves[:-1])
    return before.parse_move(moves[-1])


def _winning(puzzle: Puzzle, played: tuple[str, ...], plies: int) -> tuple[str, ...]:
    """The solver's moves that still win within ``plies`` after ``played`` (in a worker)."""
    state = puzzle.after(played)
    moves = winning_moves(state, puzzle.seat, plies, Budget(data.ANSWER_NODES))
    return tuple(state.format_move(m) for m in moves)
