"""The computer's review of a finished game (検討): where the game turned, and the better moves.

``/review`` judges every ply of a finished game with :func:`engines.ai.review.judge` (the move
played against the computer's best, both as winning chances, within a number of nodes a ply:
the same review on any machine), one ply at a time in the worker pool the AI searches in
(:meth:`Thinker.draw`: never on the event loop; between two plies the pool is free for the other
games' AI moves and replays), reporting its progress after each ply; then each player's biggest
candidate mistakes are judged again deeper (:func:`engines.ai.review.to_confirm`) and only
those that hold are reported. The result is stored (``reviews``, migration 0013) and served
again at once after that, also after a restart. What a review shows:

- a chart of each seat's winning chance at the start and after every ply, the biggest swings
  marked (:func:`render.charts.win_chances`, drawn in the pool);
- each player's three biggest mistakes: the ply, the move played, the computer's better move
  and the chances each keeps (略式易双六: with the estimate's spread, and what the cards and
  what the choices did to the chance);
- for any ply, the position it was played from with the better move drawn on it (``better``).

Hidden information: only a finished game is reviewed; the plies judged are those a replay
shows, so a secret setup is never a ply (数字将棋's play, after the reveal, is searched on the
revealed board); 略式易双六's choices are rated by the hint's sampled estimate from the
player's view, never the real talon. Pictures are drawn for the requester as replays are
(:func:`bot.service.review.replays.seen_by`). A review is private to its asker until a player makes
it public (shown in the game's thread). See docs/review.md.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

import render
from bot.i18n import bilingual, t, text
from bot.learn import moved_cells
from bot.learn.retry import Mistake, Spot
from bot.model import GameStatus, ReviewRow
from bot.service import present
from bot.service.actions import Action, Button
from bot.service.cache import Loaded
from bot.service.context import Context
from bot.service.play.computer import ai_seed
from bot.service.play.records import check_daily_view
from bot.service.review.replays import Position, Replays, positions, seen_by, step_actions
from bot.service.thinking import Thinker
from bot.service.values import Event, Line, Refusal, Reply, User
from engines.ai.review import (
    CONFIRM,
    Judgement,
    budget,
    even,
    is_mistake,
    judge,
    luck,
    outcome_chances,
    to_confirm,
)
from engines.ai.review import mistakes as biggest
from engines.core import Text
from render.base import Marks
from render.charts import win_chances

Progress = Callable[[int, int], Awaitable[None]]
"""Told (plies judged, plies in all) before the first ply and after each."""

MISTAKES = 3
"""Mistakes shown per player."""
SWINGS = 3
"""The biggest swings marked on the chart."""
SMALLEST_SWING = 0.02
"""A change of a winning chance smaller than this is no swing."""
FORMAT = 2
"""The stored JSON's version. Format 1 (before issue 52: a budget in seconds, mistakes not
confirmed) is still read and shown as it was made."""


@dataclass(frozen=True, slots=True)
class PlyNote:
    """One ply judged (``ply`` counts from 1): who moved, the move played and the better one
    (canonical notation and as the game shows them), the mover's chance after each, every
    seat's chance before the ply, whether a deeper check made these figures (``confirmed``)
    and the spread of a sampled loss."""

    ply: int
    seat: int
    played: str
    best: str
    played_shown: Text
    best_shown: Text
    played_chance: float
    best_chance: float
    chances: tuple[float, ...]
    confirmed: bool = False
    spread: float = 0.0

    @property
    def loss(self) -> float:
        return max(0.0, self.best_chance - self.played_chance)

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "played": self.played,
            "best": self.best,
            "played_shown": [self.played_shown.en, self.played_shown.ja],
            "best_shown": [self.best_shown.en, self.best_shown.ja],
            "played_chance": self.played_chance,
            "best_chance": self.best_chance,
            "chances": list(self.chances),
            "confirmed": self.confirmed,
            "spread": self.spread,
        }

    @classmethod
    def from_json(cls, ply: int, data: dict[str, Any], confirmed: bool = False) -> PlyNote:
        """A stored ply; ``confirmed`` for a format without the field (format 1's mistakes
        were shown unconfirmed: they are shown as they were)."""
        return cls(
            ply,
            int(data["seat"]),
            str(data["played"]),
            str(data["best"]),
            Text(*data["played_shown"]),
            Text(*data["best_shown"]),
            float(data["played_chance"]),
            float(data["best_chance"]),
            tuple(float(c) for c in data["chances"]),
            bool(data.get("confirmed", confirmed)),
            float(data.get("spread", 0.0)),
        )


@dataclass(frozen=True, slots=True)
class GameReview:
    """Every ply of a game judged, the chances at its end (``final``) and the budget a ply:
    ``nodes`` (given to :func:`engines.ai.review.judge`), or for a review stored before issue
    52, ``seconds``."""

    plies: tuple[PlyNote, ...]
    final: tuple[float, ...]
    nodes: int | None = None
    seconds: float | None = None

    def curve(self) -> list[tuple[float, ...]]:
        """Every seat's chance at the start and after each ply: one point a ply, and the start."""
        return [p.chances for p in self.plies] + [self.final]

    def mistakes(self, seat: int, count: int = MISTAKES) -> list[PlyNote]:
        """``seat``'s biggest confirmed mistakes, biggest first (at most ``count``; ties:
        earlier first). A review confirms each seat's biggest candidates until these are all
        confirmed (:func:`engines.ai.review.to_confirm`)."""
        found = [self.plies[k] for k in biggest(self.plies, seat, count)]
        return [p for p in found if p.confirmed]

    def swings(self, count: int = SWINGS) -> list[int]:
        """The plies after which some seat's chance changed the most, in order. The last ply
        is measured by what it did (the mover's chance after it), not by the result that came
        after it: the cards drawn after 略式易双六's last choice, or a resignation, are no
        swing of that ply."""
        curve = self.curve()
        change = {
            k: max(abs(a - b) for a, b in zip(curve[k], curve[k - 1], strict=True))
            for k in range(1, len(curve) - 1)
        }
        if self.plies:
            last = self.plies[-1]
            change[len(self.plies)] = abs(last.played_chance - last.chances[last.seat])
        biggest = sorted(change, key=lambda k: (-change[k], k))[:count]
        return sorted(k for k in biggest if change[k] > SMALLEST_SWING)

    def luck(self) -> tuple[int, int, int, int]:
        """A solitaire's chance as dealt and at the end, and the cards' and the choices' share
        of the change (:func:`engines.ai.review.luck`)."""
        return luck(self.curve()[0][0], self.final[0], self.plies)

    def to_json(self) -> str:
        data = {
            "format": FORMAT,
            "nodes": self.nodes,
            "plies": [p.to_json() for p in self.plies],
            "final": list(self.final),
        }
        return json.dumps(data, ensure_ascii=False, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> GameReview:
        data = json.loads(text)
        version = data.get("format")
        if version not in (1, FORMAT):
            raise ValueError(f"a review of format {version!r}")
        legacy = version == 1
        plies = tuple(PlyNote.from_json(k + 1, p, legacy) for k, p in enumerate(data["plies"]))
        final = tuple(float(c) for c in data["final"])
        if legacy:
            return cls(plies, final, seconds=float(data["seconds"]))
        return cls(plies, final, nodes=int(data["nodes"]))


def note(ply: int, at: Position, judgement: Judgement) -> PlyNote:
    """A ply's judgement in the game's own notation (``at``: the position after the ply)."""
    before = at.before
    assert before is not None
    return PlyNote(
        ply,
        judgement.seat,
        before.format_move(at.move),
        before.format_move(judgement.best),
        present.display(before, at.move),
        present.display(before, judgement.best),
        judgement.played_chance,
        judgement.best_chance,
        judgement.chances,
        judgement.confirmed,
        judgement.spread,
    )


def final_chances(loaded: Loaded, last: Position) -> tuple[float, ...]:
    """Every seat's chance at the end: by the stored result (a resignation, a timeout), else
    the rules' own, else even."""
    outcome = present.outcome_of(loaded.row.result) or last.state.outcome()
    players = loaded.row.players
    return even(players) if outcome is None else outcome_chances(outcome, players)


def percent(chance: float) -> int:
    return round(100 * chance)


def chart_words(
    game_id: int, title: Text, plies: int, names: Sequence[str], final: Sequence[float]
) -> Text:
    """The win-chance chart in words (its alt text): the game, its length and where each
    player's chance ended."""
    chances = [f"{name} {percent(c)}%" for name, c in zip(names, final, strict=True)]
    return text(
        "review.chart_alt",
        id=game_id,
        game=title,
        plies=plies,
        chances=Text(t("list.comma", "en").join(chances), t("list.comma", "ja").join(chances)),
    )


def spread(p: PlyNote) -> int:
    """A sampled loss's spread in points (at least 1: an estimate is never exact)."""
    return max(1, percent(p.spread))


class Reviews:
    """``/review``, its Review, Better-move and Make-public buttons."""

    def __init__(self, ctx: Context, workers: Thinker) -> None:
        self.ctx = ctx
        self.workers = workers
        self._locks: dict[int, asyncio.Lock] = {}

    @property
    def nodes(self) -> int:
        return self.ctx.settings.review_nodes

    async def _open(self, game_id: int, viewer: User | None) -> Loaded:
        loaded = await self.ctx.games.read(game_id)
        await check_daily_view(self.ctx, loaded, viewer)  # a day's deal is its player's
        if loaded.status not in (GameStatus.FINISHED, GameStatus.ABORTED):
            raise Refusal("refuse.review_running", id=game_id)
        if not self.ctx.pictures.enabled or not render.has_renderer(loaded.row.game_type):
            raise Refusal("refuse.no_pictures", id=game_id)
        return loaded

    async def review(
        self,
        game_id: int,
        viewer: User | None,
        progress: Progress | None = None,
        publish: bool = False,
    ) -> Reply:
        """The review of a finished game: computed (telling ``progress``) unless stored. With
        ``publish``, a player shows it to everyone in the game's thread from now on."""
        loaded = await self._open(game_id, viewer)
        if publish and not loaded.seats_of(viewer.id if viewer else ""):
            raise Refusal("refuse.not_a_player", id=game_id)
        stored = await self._stored(game_id)
        if stored is None:
            lock = self._locks.setdefault(game_id, asyncio.Lock())
            async with lock:  # two asking at once: the second waits and reads the first's
                stored = await self._stored(game_id)
                if stored is None:
                    stored = await self._compute(loaded, progress)
            self._locks.pop(game_id, None)
        found, public = stored
        if publish and not public:
            await self.ctx.store.set_review_public(game_id, True)
        return await self._reply(loaded, viewer, found, public or publish)

    async def _stored(self, game_id: int) -> tuple[GameReview, bool] | None:
        row = await self.ctx.store.review(game_id)
        if row is None:
            return None
        try:
            return GameReview.from_json(row.data), row.public
        except (ValueError, KeyError, TypeError):
            return None  # an older format: computed again (and stored in its place)

    async def _compute(self, loaded: Loaded, progress: Progress | None) -> tuple[GameReview, bool]:
        found = await asyncio.to_thread(positions, loaded.row, loaded.entries)
        total = len(found) - 1
        if progress is not None:
            await progress(0, total)
        notes: list[PlyNote] = []
        for ply in range(1, total + 1):
            notes.append(note(ply, found[ply], await self._judge(loaded, found[ply], ply)))
            if progress is not None:
                await progress(ply, total)
        while todo := to_confirm(notes, MISTAKES):  # until every mistake shown is confirmed
            for k in todo:
                deeper = await self._judge(loaded, found[k + 1], k + 1, confirm=True)
                notes[k] = note(k + 1, found[k + 1], deeper)
        review = GameReview(tuple(notes), final_chances(loaded, found[-1]), self.nodes)
        row = ReviewRow(loaded.id, review.to_json(), False, self.ctx.now_ms())
        await self.ctx.store.save_review(row)
        return review, False

    async def _judge(
        self, loaded: Loaded, at: Position, ply: int, *, confirm: bool = False
    ) -> Judgement:
        before = at.before
        assert before is not None
        seed = ai_seed(loaded.row, ply, before.current_player())
        job = partial(judge, before, at.move, nodes=self.nodes, seed=seed, confirm=confirm)
        return await self.workers.draw(job)

    async def _reply(
        self, loaded: Loaded, viewer: User | None, review: GameReview, public: bool
    ) -> Reply:
        seen = seen_by(loaded, viewer)
        if not review.plies:  # ended before anyone chose a move (a setup, a resignation)
            said = public and seen.public
            return Reply(
                "review.nothing",
                {"id": loaded.id, "game": present.title(loaded.game)},
                event=Event.REVIEW,
                game_id=loaded.id,
                public=said,
                audience=None if said or viewer is None else viewer.id,
            )
        names = [loaded.name(seat) for seat in range(loaded.row.players)]
        swings = review.swings()
        curve = review.curve()
        lines: list[Line] = []
        buttons: list[Button] = []
        for seat, name in enumerate(names):
            seat_name = Text(
                loaded.game.seat_name(seat, "en", loaded.row.players),
                loaded.game.seat_name(seat, "ja", loaded.row.players),
            )
            who = text("review.who", name=name, seat=seat_name)
            mistakes = review.mistakes(seat)
            lines.append(Line("review.player" if mistakes else "review.clean", {"name": who}))
            for p in mistakes:
                params = {
                    "ply": p.ply,
                    "played": p.played_shown,
                    "best": p.best_shown,
                    "kept": percent(p.played_chance),
                    "could": percent(p.best_chance),
                }
                if p.spread:
                    lines.append(Line("review.mistake_sampled", params | {"spread": spread(p)}))
                else:
                    lines.append(Line("review.mistake", params))
                label = text("button.better_at", ply=p.ply, move=p.best_shown)
                buttons.append(Button(Action.BETTER, str(p.ply), label))
        if len(names) == 1:  # a solitaire: the cards and the choices apart
            start, end, cards, choices = review.luck()
            moved = {"start": start, "end": end, "cards": cards, "choices": choices}
            lines.append(Line("review.luck", moved))
        if swings:
            lines.append(Line("review.swings", {"plies": ", ".join(str(p) for p in swings)}))
        mine = loaded.seats_of(viewer.id if viewer else "")
        if not public and mine:
            buttons.append(Button(Action.REVIEW_PUBLIC))
        if any(review.mistakes(seat) for seat in mine):
            buttons.append(Button(Action.REVIEW_RETRY))
        if loaded.row.players > 1:
            buttons.append(Button(Action.ANALYSE))
        title = present.title(loaded.game)
        job = partial(
            win_chances,
            [[point[seat] for point in curve] for seat in range(loaded.row.players)],
            names,
            swings,
            title=f"#{loaded.id} {title.ja} / {title.en}",
            xlabel=bilingual("chart.axis.ply"),
            ylabel=bilingual("chart.axis.win_chance"),
        )
        chart = await self.workers.draw(job)
        shown = public and seen.public
        key, params = self._budget_said(loaded, review)
        return Reply(
            key,
            {"id": loaded.id, "game": title, "plies": len(review.plies)} | params,
            event=Event.REVIEW,
            game_id=loaded.id,
            public=shown,
            audience=None if shown or viewer is None else viewer.id,
            image=chart,
            image_alt=chart_words(loaded.id, title, len(review.plies), names, curve[-1]),
            image_viewer=seen.seat,
            actions=tuple(buttons),
            lines=tuple(lines),
        )

    @staticmethod
    def _budget_said(loaded: Loaded, review: GameReview) -> tuple[str, dict[str, Any]]:
        """The review's heading and what it says of the budget a ply."""
        if review.nodes is None:  # stored before issue 52
            return "review.show_timed", {"seconds": review.seconds}
        nodes = budget(loaded.row.game_type, review.nodes)
        key = "review.show_sampled" if loaded.row.players == 1 else "review.show"
        return key, {"nodes": nodes, "deeper": nodes * CONFIRM}

    async def mistakes_of(self, game_id: int, viewer: User) -> list[Spot]:
        """The viewer's own mistakes that the stored review of ``game_id`` shows, biggest
        first, each with the position it was played from (for Retry, issue 50)."""
        loaded = await self._open(game_id, viewer)
        seats = loaded.seats_of(viewer.id)
        if not seats:
            raise Refusal("refuse.not_a_player", id=game_id)
        stored = await self._stored(game_id)
        if stored is None:
            raise Refusal("retry.refuse.no_review", id=game_id)
        review = stored[0]
        found = await asyncio.to_thread(positions, loaded.row, loaded.entries)
        if len(review.plies) != len(found) - 1:
            raise Refusal("retry.refuse.no_review", id=game_id)
        out: list[Spot] = []
        for seat in seats:
            for p in review.mistakes(seat):
                before = found[p.ply].before
                assert before is not None
                mistake = Mistake(
                    p.ply,
                    p.seat,
                    p.played,
                    p.best,
                    p.played_shown,
                    p.best_shown,
                    percent(p.played_chance),
                    percent(p.best_chance),
                )
                out.append(Spot(mistake, before, found[p.ply - 1].move))
        return out

    async def better(self, game_id: int, viewer: User | None, ply: int) -> Reply:
        """The position ply ``ply`` was played from, as ``viewer`` may see it, with the
        computer's better move drawn on it (judged now if the game has no stored review)."""
        loaded = await self._open(game_id, viewer)
        found = await asyncio.to_thread(positions, loaded.row, loaded.entries)
        total = len(found) - 1
        if total == 0:
            raise Refusal("refuse.review_no_plies", id=game_id)
        ply = min(max(ply, 1), total)
        stored = await self._stored(game_id)
        if stored is not None and len(stored[0].plies) == total:
            judged = stored[0].plies[ply - 1]
        else:
            judgement = await self._judge(loaded, found[ply], ply)
            if is_mistake(judgement):  # as a review would report it: checked deeper
                judgement = await self._judge(loaded, found[ply], ply, confirm=True)
            judged = note(ply, found[ply], judgement)
        before = found[ply].before
        assert before is not None
        seen = seen_by(loaded, viewer)
        best = before.parse_move(judged.best)
        marks = Marks(moved=moved_cells(best))
        names = [loaded.name(seat) for seat in range(loaded.row.players)]
        job = partial(render.render_png, before, seen.seat, found[ply - 1].move, None, names, marks)
        image = await self.workers.draw(job)
        params = {
            "ply": ply,
            "played": judged.played_shown,
            "best": judged.best_shown,
            "kept": percent(judged.played_chance),
            "could": percent(judged.best_chance),
        }
        key = "review.better" if judged.best != judged.played else "review.best"
        actions = step_actions(ply, total)
        if loaded.row.players > 1:  # from the position the better move is drawn on
            actions = (*actions, Button(Action.ANALYSE, str(ply - 1)))
        found_reply = Replays.reply(loaded, seen, viewer, key, params, image, actions, [])
        return replace(found_reply, event=Event.REVIEW_MOVE)
