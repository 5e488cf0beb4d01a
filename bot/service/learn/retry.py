"""Retry your mistakes (issue 50, 4): from ``/review``, the positions where the player erred,
as puzzles of their own, on the practice board (kind ``retry``; a lesson or a puzzle open
before is closed, as opening any of them closes the others).

The mistakes are the review's (the ones it shows, each confirmed by its deeper check), read
through :class:`Mistakes`, which the review capability answers (the root passes it in: one
capability never imports another). A try is judged as :mod:`bot.learn.retry` says: the better
move is right at once, the game's move again is wrong at once, any other move is judged by the
computer with the review's budget, in a worker. The practice row keeps the game and the stars
of the mistakes done (its ``item``), the tries and hints of the current one; so a restart
continues where the learner was.
"""

from __future__ import annotations

import asyncio
import zlib
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import replace
from functools import partial
from typing import Protocol

from bot.clock import to_ms
from bot.learn import moved_cells
from bot.learn.retry import (
    Mistake,
    Progress,
    Spot,
    Verdict,
    judged_verdict,
    quick_verdict,
    star_line,
    stars,
)
from bot.model import PracticeRow
from bot.service import present
from bot.service.actions import Action, Button
from bot.service.context import Context
from bot.service.guard import entry
from bot.service.play.directory import MoveChoices, matching, named_moves
from bot.service.thinking import Thinker
from bot.service.values import Event, Line, Refusal, Reply, User
from engines.ai.review import judge
from engines.core import EngineError, Text
from render.base import Marks

KIND = "retry"
"""The practice board's kind while a retry is open."""


class Mistakes(Protocol):
    """Where the mistakes come from (the review capability's reviews)."""

    async def mistakes_of(self, game_id: int, viewer: User) -> Sequence[Spot]: ...


class Retries:
    """``/review``'s Retry, and the practice board while a retry is open."""

    def __init__(self, ctx: Context, thinker: Thinker, mistakes: Mistakes) -> None:
        self.ctx = ctx
        self.thinker = thinker
        self.mistakes = mistakes
        self._locks: dict[str, asyncio.Lock] = {}

    @asynccontextmanager
    async def _one_at_a_time(self, user_id: str) -> AsyncIterator[None]:
        lock = self._locks.setdefault(user_id, asyncio.Lock())
        async with lock:
            yield

    # -- opening ---------------------------------------------------------------------------
    @entry
    async def start(self, user: User, game_id: int) -> Reply:
        """Open a retry of the user's mistakes in the reviewed game ``game_id``."""
        async with self._one_at_a_time(user.id):
            spots = await self.mistakes.mistakes_of(game_id, user)
            if not spots:
                raise Refusal("retry.refuse.none", id=game_id)
            row = PracticeRow(user.id, KIND, Progress(game_id).text(), (), 0, 0, 0, self._now())
            await self.ctx.store.set_open_puzzle(user.id, None)  # one practice board at a time
            await self.ctx.store.save_practice(row)
            return await self._show(user, spots, row, (Line("retry.started", {"n": len(spots)}),))

    async def _open(self, user: User) -> tuple[PracticeRow, Progress, Sequence[Spot]]:
        row = await self.ctx.store.practice(user.id)
        progress = None if row is None or row.kind != KIND else Progress.read(row.item)
        if row is None or progress is None:
            raise Refusal("retry.refuse.not_open")
        spots = await self.mistakes.mistakes_of(progress.game_id, user)
        if progress.index >= len(spots):  # (the review changed under it): nothing left
            await self.ctx.store.drop_practice(user.id)
            raise Refusal("retry.refuse.not_open")
        return row, progress, spots

    # -- the practice board (:class:`~bot.service.learn.practice.Practising`) ----------------
    @entry
    async def move(self, user: User, text: str) -> Reply:
        """A try at the current mistake: right (stars, then the next mistake) or not (the
        position again)."""
        async with self._one_at_a_time(user.id):
            row, progress, spots = await self._open(user)
            spot = spots[progress.index]
            state = spot.before
            try:
                move = state.parse_move(text)
            except EngineError as exc:
                near = [present.shown_move(state, s) for s in exc.suggestions]
                raise Refusal("refuse.bad_move", near, reason=exc.text) from exc
            if spot.mistake.seat not in state.acting_players():
                raise Refusal("retry.refuse.not_open")
            tried = state.format_move(move)
            row = replace(row, tries=row.tries + 1, at_ms=self._now())
            verdict = quick_verdict(spot.mistake, tried)
            if verdict is None:
                seed = zlib.crc32(f"retry:{progress.game_id}:{spot.mistake.ply}".encode())
                nodes = self.ctx.settings.review_nodes
                job = partial(judge, state, move, nodes=nodes, seed=seed)
                verdict = judged_verdict((await self.thinker.draw(job)).loss)
            shown = present.display(state, move)
            if verdict is Verdict.AGAIN:
                await self.ctx.store.save_practice(row)
                return await self._show(user, spots, row, (Line("retry.again", {"move": shown}),))
            if verdict is Verdict.WRONG:
                await self.ctx.store.save_practice(row)
                return await self._show(user, spots, row, (Line("retry.wrong", {"move": shown}),))
            earned = stars(row.tries, row.hints)
            said = Line("retry.right", {"move": shown, "stars": star_line((earned,))})
            return await self._advance(user, spots, row, progress.done(earned), said)

    @entry
    async def hint(self, user: User) -> Reply:
        """The better move's first cell, marked on the position (one star less)."""
        async with self._one_at_a_time(user.id):
            row, progress, spots = await self._open(user)
            row = replace(row, hints=row.hints + 1, at_ms=self._now())
            await self.ctx.store.save_practice(row)
            spot = spots[progress.index]
            cells = moved_cells(spot.before.parse_move(spot.mistake.best))
            marks = Marks(moved=cells[:1]) if cells else None
            line = Line("retry.hint" if cells else "retry.hint_none")
            return await self._show(user, spots, row, (line,), marks=marks)

    @entry
    async def solution(self, user: User) -> Reply:
        """The better move, shown (no stars for this one), then the next mistake."""
        async with self._one_at_a_time(user.id):
            row, progress, spots = await self._open(user)
            best = spots[progress.index].mistake.best_shown
            said = Line("retry.shown", {"move": best})
            return await self._advance(user, spots, row, progress.done(stars(0, 0, True)), said)

    @entry
    async def legal(self, user: User, typed: str, limit: int = 25, lang: str = "en") -> MoveChoices:
        """The current mistake's legal moves matching ``typed`` (autocomplete, ``/legal``)."""
        try:
            _, progress, spots = await self._open(user)
        except Refusal:
            return MoveChoices((), 0)
        spot = spots[progress.index]
        return matching(named_moves(spot.before, spot.mistake.seat, lang), typed, limit)

    # -- replies ---------------------------------------------------------------------------
    async def _advance(
        self,
        user: User,
        spots: Sequence[Spot],
        row: PracticeRow,
        progress: Progress,
        said: Line,
    ) -> Reply:
        """The current mistake is done: the next one, or the retry's end (its stars)."""
        if progress.index >= len(spots):
            await self.ctx.store.drop_practice(user.id)
            total = sum(progress.stars)
            done = Line(
                "retry.done",
                {"stars": star_line(progress.stars), "total": total, "most": 3 * len(spots)},
            )
            return Reply(
                "retry.finished",
                {"id": progress.game_id},
                event=Event.PUZZLE,  # as a puzzle's: each answer a new message
                game_id=progress.game_id,
                public=False,
                audience=user.id,
                lines=(said, done),
                actions=(Button(Action.REVIEW_RETRY),),  # again, from the start
            )
        row = replace(row, item=progress.text(), tries=0, hints=0, at_ms=self._now())
        await self.ctx.store.save_practice(row)
        return await self._show(user, spots, row, (said,))

    async def _show(
        self,
        user: User,
        spots: Sequence[Spot],
        row: PracticeRow,
        lines: tuple[Line, ...],
        *,
        marks: Marks | None = None,
    ) -> Reply:
        progress = Progress.read(row.item)
        assert progress is not None
        spot = spots[progress.index]
        m: Mistake = spot.mistake
        game = spot.before.game
        players = spot.before.num_players
        seat = Text(game.seat_name(m.seat, "en", players), game.seat_name(m.seat, "ja", players))
        image = await self.ctx.pictures.draw(None, spot.before, m.seat, spot.last, marks=marks)
        alt = present.alt_text(spot.before, m.seat, spot.last) if image is not None else None
        return Reply(
            "retry.position",
            {
                "id": progress.game_id,
                "game": present.title(game),
                "k": progress.index + 1,
                "n": len(spots),
                "ply": m.ply,
                "seat": seat,
                "played": m.played_shown,
                "kept": m.kept,
                "could": m.could,
            },
            event=Event.PUZZLE,  # as a puzzle's: each answer a new message
            public=False,
            audience=user.id,
            image=image,
            image_alt=alt,
            image_viewer=m.seat,
            actions=(
                Button(Action.RETRY_MOVE),
                Button(Action.RETRY_HINT),
                Button(Action.RETRY_SOLUTION),
                Button(Action.LEARN_STOP),
            ),
            lines=lines,
        )

    def _now(self) -> int:
        return to_ms(self.ctx.clock.now())
