"""Finding games: which game a place means, where a game lives, a user's games, and the legal
moves and games offered by autocomplete (answered from memory, never writing)."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.clock import from_ms
from bot.i18n import Lang
from bot.model import LIVE_STATUSES, UNCHANGED, Change, GameStatus, Unchanged, Update
from bot.service import present
from bot.service.cache import Loaded
from bot.service.context import Context
from bot.service.pausing import paused_lines
from bot.service.values import Event, Line, Location, Refusal, Reply, User
from engines.core import MAX_INPUT, EngineError, State, normalise
from engines.registry import get_game


def fold(text: str) -> str:
    """Text as autocomplete compares it (width, case and spelling variants folded)."""
    return normalise(unicodedata.normalize("NFKC", text)).casefold()


class Directory:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    # -- places ------------------------------------------------------------------------------
    def location(self, game_id: int) -> Location | None:
        """Where the game lives (channel, thread, message), as set by the adapter."""
        return self.ctx.games.location(game_id)

    async def set_location(
        self,
        game_id: int,
        channel_id: str | None,
        thread_id: str | None = None,
        message_id: str | None = None,
        reach: str | Unchanged | None = UNCHANGED,
    ) -> None:
        """Record where the adapter placed the game (its channel, thread and message) and,
        when given, how the bot reaches it (``reach``: see :class:`Location`)."""
        async with self.ctx.games.lock(game_id):
            loaded = await self.ctx.games.load(game_id)
            update = Update(
                channel_id=channel_id, thread_id=thread_id, message_id=message_id, reach=reach
            )
            await self.ctx.games.commit(loaded, Change(game_id, loaded.row.version, update=update))

    async def place(self, game_id: int) -> Location | None:
        """Where the game lives, loading it if it is not in memory (``None``: nowhere yet)."""
        location = self.location(game_id)
        if location is None:
            await self.ctx.games.read(game_id)
            location = self.location(game_id)
        return location

    async def game_at(self, user_id: str, channel_id: str, thread_id: str | None) -> int | None:
        """The game a command run here means: the game of this thread, else the user's one
        live game in this channel (outside threads), else ``None``."""
        found = await self.ctx.store.games_at(channel_id, thread_id)
        if thread_id is not None and found:
            # the thread's newest game, passing over a rematch that was withdrawn unplayed
            for gid in found:
                try:
                    if (await self.ctx.games.read(gid)).status is not GameStatus.CANCELLED:
                        return gid
                except Refusal:
                    continue
            return found[0]
        mine = [gid for gid in found if user_id in self.ctx.games.players(gid)]
        return mine[0] if len(mine) == 1 else None

    # -- autocomplete ------------------------------------------------------------------------
    def game_choices(self, user_id: str, typed: str = "", limit: int = 25) -> list[tuple[int, str]]:
        """The user's open and running games (id, label), newest first."""
        out: list[tuple[int, str]] = []
        key = fold(typed)
        for gid, live in self.ctx.games.live_games(user_id):
            try:
                game = get_game(live.game_type)
                label = f"#{gid} {game.title_en} / {game.title_ja}"
            except EngineError:
                label = f"#{gid} {live.game_type}"
            if not key or key in fold(label):
                out.append((gid, label))
            if len(out) >= limit:
                break
        return out

    async def legal_moves(
        self, game_id: int, user_id: str, typed: str, limit: int = 25, lang: str = "en"
    ) -> MoveChoices:
        """Legal moves of ``user_id`` matching ``typed`` (prefix first, then substring), as
        the game writes them in ``lang`` (``▲2三5``: what the thread, /moves and the picture
        show; each parses back), with how many match in all. From memory; a game not in memory
        is loaded once. Nothing for an unknown game."""
        loaded = self.ctx.games.cached(game_id)
        if loaded is None:
            try:
                loaded = await self.ctx.games.read(game_id)
            except Refusal:
                return MoveChoices((), 0)
        return move_choices(loaded, user_id, typed, limit, lang)

    async def games_to_play(self, user_id: str) -> list[int]:
        """The user's running games where they are due to act now, newest first."""
        out: list[int] = []
        for gid, _ in self.ctx.games.live_games(user_id):
            try:
                loaded = await self.ctx.games.read(gid)
            except Refusal:
                continue
            if loaded.is_turn_of(user_id):
                out.append(gid)
        return out

    # -- lists -------------------------------------------------------------------------------
    async def list_games(self, user: User, guild_id: str | None = None) -> Reply:
        """The user's open and running games, those where it is their move first."""
        summaries = await self.ctx.store.user_games(user.id, LIVE_STATUSES)
        mine: list[tuple[int, Loaded]] = []
        for s in summaries:
            if guild_id is not None and s.guild_id != guild_id:
                continue
            loaded = await self.ctx.games.read(s.id)
            turn = loaded.is_turn_of(user.id)
            mine.append((0 if turn else 1, loaded))
        mine.sort(key=lambda pair: (pair[0], pair[1].id))
        lines = []
        for order, loaded in mine:
            row = loaded.row
            deadline = from_ms(row.deadline_ms) if row.deadline_ms and not row.paused_ms else None
            lines.append(
                Line(
                    "games.item_turn" if order == 0 else f"games.item_{loaded.status}",
                    {
                        "id": loaded.id,
                        "game": present.title(loaded.game),
                        "players": present.seat_list(loaded),
                        "to_move": loaded.acting_names(),
                        "deadline": deadline or "",
                    },
                )
            )
            lines.extend(paused_lines(loaded.row, loaded.acting_names()))
        return Reply(
            "games.list" if lines else "games.none",
            {"count": len(mine)},
            event=Event.GAMES,
            public=False,
            audience=user.id,
            lines=tuple(lines),
        )


@dataclass(frozen=True, slots=True)
class MoveChoices:
    """Some legal moves (at most the limit asked for) and how many matched in all."""

    moves: tuple[str, ...]
    total: int


def spellings(state: State[Any], move: Any) -> tuple[str, ...]:
    """The folded spellings autocomplete matches a move by: as shown in either language
    (with and without the seat mark) and the canonical notation."""
    shown = present.display(state, move)
    out: list[str] = []
    for text in (shown.en, shown.ja, state.format_move(move)):
        for variant in (text, text.lstrip(SEAT_MARKS)):
            if (key := fold(variant)) and key not in out:
                out.append(key)
    return tuple(out)


SEAT_MARKS = "▲△☗☖ "
"""Marks before a move in kifu (``▲2三5``): typing ``2三`` finds it as a prefix."""


def move_choices(
    loaded: Loaded, user_id: str, typed: str, limit: int, lang: str = "en"
) -> MoveChoices:
    if loaded.status is not GameStatus.ACTIVE:
        return MoveChoices((), 0)
    acting = loaded.state.acting_players()
    seats = [s for s in loaded.seats_of(user_id) if s in acting]
    if not seats:
        return MoveChoices((), 0)
    seat = seats[0]
    lang = Lang.of(lang)
    names = loaded.choices.get((seat, lang))
    if names is None:
        names = named_moves(loaded.state, seat, lang)
        loaded.choices[(seat, lang)] = names
    return matching(names, typed, limit)


def named_moves(state: State[Any], seat: int, lang: str) -> list[tuple[tuple[str, ...], str]]:
    """``seat``'s legal moves: the spellings each is found by, and how it reads in ``lang``."""
    return [(spellings(state, m), state.display_move(m, lang)) for m in state.legal_moves(seat)]


def matching(names: Sequence[tuple[tuple[str, ...], str]], typed: str, limit: int) -> MoveChoices:
    """The moves of ``names`` that ``typed`` finds (prefix first, then substring)."""
    key = fold(typed[:MAX_INPUT])
    if not key:
        return MoveChoices(tuple(n for _, n in names[:limit]), len(names))
    prefix = [n for keys, n in names if any(k.startswith(key) for k in keys)]
    inner = [
        n
        for keys, n in names
        if any(key in k for k in keys) and not any(k.startswith(key) for k in keys)
    ]
    found = prefix + inner
    return MoveChoices(tuple(found[:limit]), len(found))
