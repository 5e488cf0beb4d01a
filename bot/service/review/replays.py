"""Replays: a game from its start to now, as an animated GIF or one picture at a time.

A replay has one picture for the start and one after each ply (chance outcomes and secret setups
belong to the picture they lead to: a 数字将棋's start is the arranged board, a 略式易双六's the
deal), each drawn as the requester may see it. Whoever sees no more than a spectator gets the
spectator's replay, posted for everyone; a player who sees more (their own secret setup) gets
their own, privately. The pictures are replayed from the move log alone, never from the seed, so
no card still to come can show. The positions are replayed in a thread; the pictures are drawn
in the worker pool (:meth:`Thinker.draw`), never on the event loop's threads. A long game's
animation shows at most :data:`REPLAY_MAX_FRAMES` pictures (the start, evenly spaced ones and
the last :data:`REPLAY_TAIL` plies), so any replay takes a few seconds and fits the upload limit;
the reply says so.

Stepping: a reply offers ``step_first``/``step_prev``/``step_next``/``step_last`` actions whose
argument is the ply to show, ``goto:<ply>`` for a jump list, and ``replay`` for the GIF again:
everything the next picture needs is in the action, so the buttons outlive restarts.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import render
from bot import i18n
from bot.model import GameRow, GameStatus, MoveRow
from bot.service import present
from bot.service.actions import Action, Button
from bot.service.cache import Loaded, replayed
from bot.service.context import Context
from bot.service.play.records import check_daily_view, shown_to_everyone
from bot.service.thinking import Thinker
from bot.service.values import ALT_LIMIT, Event, Line, Refusal, Reply, User
from engines.core import CHANCE, Outcome, State, Text
from engines.registry import get_game
from render.replay import DEFAULT_MAX_BYTES, Frame, ReplayTooLargeError, animate, pick_frames

REPLAY_MAX_BYTES = DEFAULT_MAX_BYTES
"""The largest GIF unless the caller says otherwise (Discord's upload limit without boosts)."""
JUMPS = 25
"""At most this many plies in the jump list (Discord's limit for a select menu)."""
REPLAY_MAX_FRAMES = 150
"""At most this many pictures in an animated replay: a few seconds to draw and well under the
upload limit (a 2,000-ply game: 3.3 s and 761 KiB on a busy 2-core machine, ``make bench
ARGS=replay``; every one of its 2,001 pictures took 26.8 s and 7.5 MB)."""
REPLAY_TAIL = 20
"""A sampled replay always shows the last this many plies, one by one."""


@dataclass(frozen=True, slots=True)
class Position:
    """One picture of a replay: the state, the ply that led to it and the state it was played
    from (both ``None`` for the start)."""

    state: State[Any]
    move: Any = None
    before: State[Any] | None = None

    def shown(self) -> Text | None:
        """The ply as a kifu shows it, in both languages."""
        if self.before is None:
            return None
        return Text(
            self.before.display_move(self.move, "en"), self.before.display_move(self.move, "ja")
        )


def positions(row: GameRow, entries: Sequence[MoveRow], upto: int | None = None) -> list[Position]:
    """The start and the position after each ply (up to ply ``upto``), from the log alone."""
    start: State[Any] = get_game(row.game_type).new_game(row.players, row.options)
    out: list[Position] = []
    current = Position(start)
    for entry, move, before, after in replayed(row, entries):
        if entry.actor != CHANCE and not entry.secret:  # a ply: the picture before it is done
            out.append(current)
            if upto is not None and len(out) > upto:
                return out
            current = Position(after, move, before)
        else:
            current = Position(after, current.move, current.before)
    out.append(current)
    return out


def step_actions(ply: int, total: int, *, animated: bool = False) -> tuple[Button, ...]:
    """The step buttons and jump list for a replay showing ``ply`` of ``total`` (the GIF shows
    them all and ends on the last)."""
    out: list[tuple[Action, int | None]] = []
    if ply > 0:
        out += [(Action.STEP_FIRST, 0), (Action.STEP_PREV, ply - 1)]
    if ply < total:
        out += [(Action.STEP_NEXT, ply + 1), (Action.STEP_LAST, total)]
    if not animated:
        out.append((Action.REPLAY, None))
    if total > 0:
        out += [(Action.GOTO, p) for p in jump_targets(ply, total)]
    return tuple(Button(a, None if p is None else str(p)) for a, p in out)


def jump_targets(ply: int, total: int, limit: int = JUMPS) -> list[int]:
    """Plies to jump to: all of them when they fit, else evenly spaced ones and those near
    ``ply``."""
    if total + 1 <= limit:
        return list(range(total + 1))
    spread = limit // 2
    width = limit - spread
    near = range(max(0, min(ply - width // 2, total + 1 - width)), total + 1)
    picked = {round(i * total / (spread - 1)) for i in range(spread)}
    for p in near:
        if len(picked) >= limit:
            break
        picked.add(p)
    return sorted(picked)


@dataclass(frozen=True, slots=True)
class Seen:
    """Whose view a replay is drawn in, and whether it may be posted for everyone."""

    seat: int | None
    public: bool


def seen_by(loaded: Loaded, viewer: User | None) -> Seen:
    """The spectator's view, unless ``viewer`` plays and sees more than a spectator."""
    seats = loaded.seats_of(viewer.id) if viewer else []
    if shown_to_everyone(loaded, loaded.hidden_from(seats)):
        return Seen(None, True)
    return Seen(loaded.viewer_seat(viewer.id if viewer else None), False)


class Replays:
    def __init__(self, ctx: Context, workers: Thinker) -> None:
        self.ctx = ctx
        self.workers = workers

    async def _open(self, game_id: int, viewer: User | None) -> Loaded:
        loaded = await self.ctx.games.read(game_id)
        await check_daily_view(self.ctx, loaded, viewer)
        if loaded.status is GameStatus.OPEN:
            raise Refusal("refuse.not_started", id=game_id)
        if not self.ctx.pictures.enabled or not render.has_renderer(loaded.row.game_type):
            raise Refusal("refuse.no_pictures", id=game_id)
        return loaded

    async def replay(
        self, game_id: int, viewer: User | None = None, *, max_bytes: int = REPLAY_MAX_BYTES
    ) -> Reply:
        """The game so far as an animated GIF of at most ``max_bytes`` (a long game's sampled,
        fewer or smaller pictures when it would be larger), with the step buttons."""
        loaded = await self._open(game_id, viewer)
        seen = seen_by(loaded, viewer)
        total = loaded.move_number()
        frames, positions_in_all = await asyncio.to_thread(_frames, loaded, seen.seat)
        job = partial(animate, frames, seen.seat, names=_names(loaded), max_bytes=max_bytes)
        try:
            built = await self.workers.draw(job)
        except ReplayTooLargeError as exc:
            raise Refusal("refuse.replay_too_large", id=game_id, limit=max_bytes) from exc
        lines: list[Line] = []
        if len(frames) < positions_in_all:
            params = {"shown": built.frames, "total": positions_in_all, "last": REPLAY_TAIL}
            lines.append(Line("replay.sampled", params))
        elif built.frames < built.total:
            lines.append(Line("replay.fewer", {"shown": built.frames, "total": built.total}))
        if built.scale < 1.0:
            lines.append(Line("replay.smaller", {"percent": round(built.scale * 100)}))
        return self.reply(
            loaded,
            seen,
            viewer,
            "replay.ready",
            {"plies": total},
            built.data,
            step_actions(total, total, animated=True),
            lines,
            image_format="gif",
            image_alt=self._animation_words(loaded, seen, total),
        )

    def _animation_words(self, loaded: Loaded, seen: Seen, total: int) -> Text | None:
        """An animated replay in words: how many plies it shows and its last position (the
        game as it stands, as its last frame)."""
        frame = {lang: i18n.t("replay.alt", lang, plies=total, words="") for lang in present.LANGS}
        room = ALT_LIMIT - max(len(f) for f in frame.values())
        words = self.ctx.pictures.alt_of(loaded, seen.seat, room)
        if words is None:
            return None
        return i18n.text("replay.alt", plies=total, words=words)

    async def step(self, game_id: int, viewer: User | None, ply: int) -> Reply:
        """The picture after ply ``ply`` (0: the start; beyond the end: the last one)."""
        loaded = await self._open(game_id, viewer)
        seen = seen_by(loaded, viewer)
        total = loaded.move_number()
        ply = min(max(ply, 0), total)
        found = await asyncio.to_thread(_position, loaded, ply)
        outcome = _end(loaded) if ply == total else None
        view = found.state.observe(seen.seat)
        job = partial(render.render_png, view, seen.seat, found.move, outcome, _names(loaded))
        image = await self.workers.draw(job)
        shown = found.shown()
        params: dict[str, Any] = {"ply": ply, "total": total}
        if shown is not None:
            params["move"] = shown
        key = "replay.step" if ply else "replay.start"
        offered = step_actions(ply, total)
        if ply and loaded.status is GameStatus.FINISHED:  # the computer's better move (review)
            offered += (Button(Action.BETTER, str(ply)),)
        words = present.alt_text(found.state, seen.seat, found.move, outcome)
        return self.reply(loaded, seen, viewer, key, params, image, offered, [], image_alt=words)

    @staticmethod
    def reply(
        loaded: Loaded,
        seen: Seen,
        viewer: User | None,
        key: str,
        params: dict[str, Any],
        image: bytes,
        actions: tuple[Button, ...],
        lines: list[Line],
        *,
        image_format: str = "png",
        image_alt: Text | None = None,
    ) -> Reply:
        # Not present.reply: a replay offers no moves and names nobody to move.
        return Reply(
            key,
            {"id": loaded.id, "game": present.title(loaded.game), **params},
            event=Event.REPLAY,
            game_id=loaded.id,
            public=seen.public,
            audience=None if seen.public or viewer is None else viewer.id,
            image=image,
            image_viewer=seen.seat,
            image_format=image_format,
            image_alt=image_alt,
            actions=actions,
            lines=tuple(lines),
        )


def _names(loaded: Loaded) -> list[str]:
    return [loaded.name(seat) for seat in range(loaded.row.players)]


def _end(loaded: Loaded) -> Outcome | None:
    return present.host_outcome(loaded.row)


def _frames(loaded: Loaded, seat: int | None) -> tuple[list[Frame], int]:
    """(In a thread.) The frames an animation shows, drawn for ``seat`` (a long game's sampled,
    see :data:`REPLAY_MAX_FRAMES`), and how many positions the game has in all."""
    found = positions(loaded.row, loaded.entries)
    picked = pick_frames(len(found), REPLAY_MAX_FRAMES, REPLAY_TAIL)
    frames = [Frame(found[i].state.observe(seat), found[i].move) for i in picked]
    frames[-1] = Frame(frames[-1].state, frames[-1].last_move, _end(loaded))
    return frames, len(found)


def _position(loaded: Loaded, ply: int) -> Position:
    """(In a thread.) The position after ply ``ply``."""
    return positions(loaded.row, loaded.entries, upto=ply)[ply]
