"""``/learn``: interactive lessons on a private practice board (see :mod:`bot.learn.lessons`).

A learner has at most one board open (:mod:`bot.service.learn.practice`); their moves come in as in
a game (``/move``, the move buttons, the modal) and are judged by the lesson's goal, which the
engine checks. A legal move that misses is answered with the lesson's why and taken back; an
illegal one with the engine's own refusal. Finishing earns 1-3 stars by moves used and hints
taken; the best stars are kept per learner and lesson. Every reply is private to the learner,
and nothing here is a game: no statistics, ratings or lists.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import Any

from bot.clock import to_ms
from bot.learn.lessons import Lesson, Verdict, actor, answered, judge, marks, play, scripted, stars
from bot.learn.lessons.catalogue import LESSONS, lesson
from bot.model import PracticeRow
from bot.service import present
from bot.service.actions import Action, Button, play_arg
from bot.service.context import Context
from bot.service.guard import entry
from bot.service.learn.practice import Board, Practice, replay
from bot.service.play.directory import MoveChoices
from bot.service.values import Event, Line, Refusal, Reply, User
from engines.core import SIMULTANEOUS, EngineError, State, Text
from engines.registry import get_game

KIND = "lesson"
MOVE_BUTTONS = 6
"""When the learner has at most this many legal moves, each gets a button (as in a game)."""
STAR, NO_STAR = "★", "☆"


def star_text(n: int) -> str:
    return STAR * n + NO_STAR * (3 - n)


def _item(chosen: Lesson, course: str) -> str:
    """A practice row's item (and a button's argument): the lesson's id, with the course it is
    taken in when that is another game's (``socrates-board-2@socrates-shinken``: the shared
    Socrates board lessons belong to four courses)."""
    return chosen.id if course == chosen.game else f"{chosen.id}@{course}"


def _lesson_id(item: str) -> str:
    return item.partition("@")[0]


def _course(item: str, chosen: Lesson | None) -> str:
    """The course of ``item`` (its own game unless it names one whose lessons include it)."""
    course = item.partition("@")[2]
    if chosen is None:
        return course
    return course if course and chosen in LESSONS.get(course, ()) else chosen.game


class Lessons:
    def __init__(self, ctx: Context, practice: Practice) -> None:
        self.ctx = ctx
        self.practice = practice
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}
        """A learner's lock and how many of their commands hold or wait for it (dropped at 0,
        so the table keeps only learners acting now)."""

    @asynccontextmanager
    async def _lock(self, user_id: str) -> AsyncIterator[None]:
        """One command of a learner's at a time (two moves at once would both be judged from
        the same position)."""
        lock, users = self._locks.get(user_id, (asyncio.Lock(), 0))
        self._locks[user_id] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[user_id]
            if users == 1:
                del self._locks[user_id]
            else:
                self._locks[user_id] = (lock, users - 1)

    # -- what is open ------------------------------------------------------------------------
    async def open_row(self, user_id: str) -> tuple[PracticeRow, Lesson]:
        row = await self.ctx.store.practice(user_id)
        found = None if row is None or row.kind != KIND else lesson(_lesson_id(row.item))
        if row is None or found is None:
            raise Refusal("learn.refuse.none")
        return row, found

    # -- use cases (each an entry point; the adapters call them through ``service.learn``) -----
    @entry
    async def open_kind(self, user_id: str) -> str | None:
        """What the user has open on their practice board, or ``None``."""
        row = await self.ctx.store.practice(user_id)
        return None if row is None else row.kind

    @entry
    async def learn(self, user: User, what: str | None = None) -> Reply:
        """The menu (no ``what``), a game's next unfinished lesson, or a lesson by its id."""
        if what is None or not what.strip():
            return await self.menu(user)
        return await self.open(user, what)

    async def menu(self, user: User) -> Reply:
        """Every game with the learner's stars per lesson, and a button to go on in each."""
        earned = await self.ctx.store.lesson_stars(user.id)
        lines, buttons = [], []
        for game_id, lessons in LESSONS.items():
            title = present.title(get_game(game_id))
            got = " ".join(star_text(earned.get(x.id, 0)) for x in lessons)
            done = sum(1 for x in lessons if x.id in earned)
            lines.append(
                Line(
                    "learn.menu.game",
                    {"game": title, "stars": got, "done": done, "count": len(lessons)},
                )
            )
            buttons.append(Button(Action.LEARN, game_id, title))
        return Reply(
            "learn.menu",
            event=Event.LESSON_MENU,
            public=False,
            audience=user.id,
            lines=tuple(lines),
            actions=tuple(buttons),
        )

    async def open(self, user: User, what: str) -> Reply:
        """A game's next unfinished lesson (``what`` a game id), or a lesson by its id (in
        ``lesson@game``, as taken in that game's course: a shared Socrates board lesson)."""
        chosen = lesson(_lesson_id(what.strip()))
        course = _course(what.strip(), chosen)
        if chosen is None:
            chosen = await self._next_of(user.id, what)
            course = get_game(what.strip()).id
        async with self._lock(user.id):
            return await self._start(user, chosen, course)

    async def _next_of(self, user_id: str, game_type: str) -> Lesson:
        try:
            game = get_game(game_type)
        except EngineError as exc:  # the engine's refusal names the games
            raise Refusal("refuse.unknown_game_type", reason=exc.text) from exc
        lessons = LESSONS.get(game.id, ())
        if not lessons:
            raise Refusal("learn.refuse.no_lessons", game=present.title(game))
        earned = await self.ctx.store.lesson_stars(user_id)
        return next((x for x in lessons if x.id not in earned), None) or next(
            (x for x in lessons if earned[x.id] < 3), lessons[0]
        )

    @entry
    async def restart(self, user: User, lesson_id: str | None) -> Reply:
        """The lesson from its start again (``lesson_id``: a button's; default the open one)."""
        chosen, course = await self._which(user.id, lesson_id, finished=False)
        async with self._lock(user.id):
            return await self._start(user, chosen, course)

    @entry
    async def next(self, user: User, lesson_id: str | None) -> Reply:
        """The lesson after ``lesson_id`` in its course (default: the open one, else the one
        just finished, as its finishing message offers)."""
        chosen, course = await self._which(user.id, lesson_id, finished=True)
        lessons = LESSONS[course]
        after = lessons[(lessons.index(chosen) + 1) % len(lessons)]
        async with self._lock(user.id):
            return await self._start(user, after, course)

    async def _which(
        self, user_id: str, given: str | None, *, finished: bool
    ) -> tuple[Lesson, str]:
        """The lesson and course a button names (``lesson`` or ``lesson@course``), else the
        open one, else (``finished``) the one the user finished last."""
        chosen = lesson(_lesson_id(given)) if given else None
        if chosen is not None:
            return chosen, _course(given or "", chosen)
        try:
            row, chosen = await self.open_row(user_id)
        except Refusal:
            last = await self.ctx.store.last_lesson(user_id) if finished else None
            found = lesson(last) if last else None
            if found is None:
                raise
            return found, found.game
        return chosen, _course(row.item, chosen)

    @entry
    async def stop(self, user: User) -> Reply:
        await self.ctx.store.drop_practice(user.id)
        return Reply("learn.stopped", event=Event.LESSON, public=False, audience=user.id)

    async def _start(self, user: User, chosen: Lesson, course: str | None = None) -> Reply:
        item = _item(chosen, course or chosen.game)
        row = PracticeRow(user.id, KIND, item, (), 0, 0, 0, to_ms(self.ctx.clock.now()))
        await self.ctx.store.set_open_puzzle(user.id, None)  # one practice board at a time
        await self.ctx.store.save_practice(row)
        board = replay(chosen.start(), chosen.seat, ())
        return await self._show(user, chosen, row, board, (Line("learn.started"),))

    @entry
    async def hint(self, user: User) -> Reply:
        async with self._lock(user.id):
            row, chosen = await self.open_row(user.id)
            board = replay(chosen.start(), chosen.seat, row.moves)
            row = _with(row, hints=row.hints + 1)
            await self.ctx.store.save_practice(row)
            step = len(board.learner)
            line = next(
                (x for x in chosen.lines if tuple(x[:step]) == board.learner and len(x) > step),
                chosen.solution,
            )
            state = board.state
            shown: Text | str = present.shown_move(
                state, line[min(step, len(line) - 1)], chosen.seat
            )
            hint = Line("learn.hint", {"hint": chosen.hint, "move": shown})
            return await self._show(user, chosen, row, board, (hint,))

    @entry
    async def legal(self, user: User, typed: str, limit: int = 25, lang: str = "en") -> MoveChoices:
        """The open lesson's legal moves for the learner matching ``typed``."""
        row = await self.ctx.store.practice(user.id)
        chosen = None if row is None else lesson(_lesson_id(row.item))
        if row is None or chosen is None:
            return MoveChoices((), 0)
        board = replay(chosen.start(), chosen.seat, row.moves)
        return self.practice.choices(board.state, chosen.seat, typed, limit, lang)

    @entry
    async def move(self, user: User, text: str, ply: int | None = None) -> Reply:
        async with self._lock(user.id):
            row, chosen = await self.open_row(user.id)
            if ply is not None and ply != len(row.moves):
                raise Refusal("learn.refuse.stale")
            seat = chosen.seat
            board = replay(chosen.start(), seat, row.moves)
            state = board.state
            if seat not in state.acting_players():
                raise Refusal("learn.refuse.none")
            move = self.practice.read(state, seat, text)
            row = _with(row, tries=row.tries + 1)
            played = state.format_move(move)
            after = play(state, move, seat)
            verdict = judge(chosen, board.learner, state, move, after)
            if verdict is Verdict.WRONG:
                return await self._missed(user, chosen, row, board, played)
            answers: list[str] = []
            used = len(row.moves) - len(board.learner)
            for reply_text in scripted(after, seat, chosen.replies, used):
                who = actor(after, seat)
                after = play(after, after.parse_move(reply_text, _named(after, who)), who)
                answers.append(reply_text)
            if verdict is Verdict.GO_ON:
                while actor(after, seat) is not None:
                    after, answered_text = await self.practice.answer(after, seat, chosen.id)
                    answers.append(answered_text)
                verdict = answered(chosen, (*board.learner, played), state, move, after)
                if verdict is Verdict.WRONG:
                    return await self._missed(user, chosen, row, board, played)
            row = _with(row, moves=(*row.moves, played, *answers), learner=row.learner + 1)
            new = replay(chosen.start(), seat, row.moves)
            said = self._answers(state, move, seat, row.moves[len(row.moves) - len(answers) - 1 :])
            if verdict is Verdict.DONE:
                earned = stars(row.tries, row.hints, chosen.par)
                best = await self.ctx.store.finish_lesson(user.id, chosen.id, earned, row.at_ms)
                done = Line(
                    "learn.done",
                    {
                        "success": chosen.success,
                        "stars": star_text(earned),
                        "best": star_text(best),
                    },
                )
                return await self._show(user, chosen, row, new, (*said, done), finished=True)
            await self.ctx.store.save_practice(row)
            return await self._show(user, chosen, row, new, said)

    async def _missed(
        self, user: User, chosen: Lesson, row: PracticeRow, board: Board, played: str
    ) -> Reply:
        """A legal move that misses the goal: why, and the position before it again."""
        await self.ctx.store.save_practice(row)
        shown = present.display(
            board.state, board.state.parse_move(played, _named(board.state, chosen.seat))
        )
        why = Line("learn.wrong", {"move": shown, "why": chosen.why})
        return await self._show(user, chosen, row, board, (why,))

    @staticmethod
    def _answers(
        before: State[Any], move: Any, seat: int, moves: Sequence[str]
    ) -> tuple[Line, ...]:
        """Lines saying what the learner played and what answered it."""
        state = before
        out = []
        for i, text in enumerate(moves):
            who = seat if i == 0 else actor(state, seat)
            parsed = move if i == 0 else state.parse_move(text, _named(state, who))
            key = "learn.you_played" if i == 0 else "learn.answer"
            out.append(Line(key, {"move": present.display(state, parsed)}))
            state = play(state, parsed, who)
        return tuple(out)

    async def _show(
        self,
        user: User,
        chosen: Lesson,
        row: PracticeRow,
        board: Board,
        lines: Sequence[Line],
        *,
        finished: bool = False,
    ) -> Reply:
        course = _course(row.item, chosen)
        game = get_game(course)
        viewer = chosen.seat if chosen.viewer is None else chosen.viewer
        shown = marks(chosen, board.state, board.before, board.last)
        key = (chosen.id, row.moves)  # the board is ``row.moves`` played from the lesson's start
        png = await self.practice.picture(key, board.state, viewer, board.last, shown)
        lessons = LESSONS[course]
        number = lessons.index(chosen) + 1
        params = {
            "title": chosen.title,
            "game": present.title(game),
            "n": number,
            "count": len(lessons),
            "intro": chosen.intro,
            "goal": chosen.goal.text,
            "tries": row.tries,
            "par": chosen.par,
        }
        return Reply(
            "learn.lesson",
            params,
            event=Event.LESSON,
            public=False,
            audience=user.id,
            image=png,
            image_alt=None if png is None else present.alt_text(board.state, viewer, board.last),
            image_viewer=viewer,
            actions=self._buttons(chosen, row, board, finished),
            lines=tuple(lines),
        )

    @staticmethod
    def _buttons(
        chosen: Lesson, row: PracticeRow, board: Board, finished: bool
    ) -> tuple[Button, ...]:
        course = _course(row.item, chosen)
        if finished:
            return (
                Button(Action.LEARN_NEXT, _item(chosen, course)),
                Button(Action.LEARN_RESTART, _item(chosen, course)),
                Button(Action.LEARN_MENU),
            )
        state, out = board.state, []
        legal = state.legal_moves(chosen.seat) if chosen.seat in state.acting_players() else ()
        if 0 < len(legal) <= MOVE_BUTTONS:
            ply = len(row.moves)
            for m in legal:
                arg = play_arg(ply, state.format_move(m))
                out.append(Button(Action.LEARN_PLAY, arg, present.display(state, m)))
        out.append(Button(Action.LEARN_MOVE))
        out += [
            Button(Action.LEARN_HINT),
            Button(Action.LEARN_RESTART, _item(chosen, course)),
            Button(Action.LEARN_MENU),
            Button(Action.LEARN_STOP),
        ]
        return tuple(out)


def _named(state: State[Any], who: int | None) -> int | None:
    return who if state.current_player() == SIMULTANEOUS else None


def _with(row: PracticeRow, **changes: Any) -> PracticeRow:
    return replace(row, **changes)
