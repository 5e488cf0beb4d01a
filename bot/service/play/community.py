"""Around the games: the catalogue, personal statistics, server settings and the daily deal."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from datetime import date
from typing import Any

from bot import i18n
from bot.service import present
from bot.service.context import Context
from bot.service.play.lobby import Lobby
from bot.service.play.records import Records
from bot.service.values import (
    SETTING_KEYS,
    Event,
    GameInfo,
    GuildSettings,
    Line,
    OptionInfo,
    Refusal,
    Reply,
    User,
    parse_setting,
    setting_text,
)
from engines.core import EngineError, Game, Text
from engines.registry import all_games, get_game

DAILY_GAME = "yosuko"


def info_of(game: Game[Any]) -> GameInfo:
    return GameInfo(
        id=game.id,
        title=present.title(game),
        summary=game.summary,
        player_counts=tuple(game.player_counts),
        options=tuple(
            OptionInfo(
                o.name,
                o.values,
                o.default,
                o.help,
                o.title(),
                tuple(o.value_label(v) for v in o.values),
            )
            for o in game.options
        ),
        rules_doc=game.rules_doc,
        daily=game.id == DAILY_GAME,
    )


def catalogue() -> tuple[GameInfo, ...]:
    """Every registered game, as adapters offer it (static: usable before a service exists)."""
    return tuple(info_of(g) for g in all_games())


def _title_of(game_type: str) -> Text | str:
    try:
        return present.title(get_game(game_type))
    except EngineError:
        return game_type


class Community:
    def __init__(self, ctx: Context, lobby: Lobby, records: Records) -> None:
        self.ctx = ctx
        self.lobby = lobby
        self.records = records

    async def stats(
        self, user: User, game_type: str | None = None, asker: User | None = None
    ) -> Reply:
        """``user``'s statistics, answered privately to ``asker`` (default: the user)."""
        lines = [
            Line(
                "stats.item",
                {
                    "game": _title_of(s.game_type),
                    "games": s.games,
                    "wins": s.wins,
                    "losses": s.losses,
                    "draws": s.draws,
                    "rate": f"{100 * s.win_rate:.0f}%",
                    "streak": s.streak,
                    "best": s.best_streak,
                },
            )
            for s in await self.ctx.store.stats(user.id, game_type)
        ]
        return Reply(
            "stats.show" if lines else "stats.none",
            {"name": user.name},
            event=Event.STATS,
            public=False,
            audience=(asker or user).id,
            lines=tuple(lines),
        )

    # -- server settings ---------------------------------------------------------------------
    async def guild_settings(self, guild_id: str | None) -> GuildSettings:
        return await self.ctx.guild(guild_id)

    async def set_guild_setting(self, guild_id: str, key: str, value: str) -> Reply:
        if key not in SETTING_KEYS:
            raise Refusal("refuse.bad_setting", key=key, keys=", ".join(SETTING_KEYS))
        try:
            typed = parse_setting(key, value)
        except ValueError as exc:
            raise Refusal("refuse.bad_setting_value", key=key, value=value.strip()) from exc
        text = setting_text(typed)
        await self.ctx.store.set_guild_setting(guild_id, key, text)
        self.ctx.guild_changed(guild_id)
        return Reply("settings.saved", {"key": key, "value": text}, event=Event.SETTINGS)

    # -- the daily deal ----------------------------------------------------------------------
    def _today(self) -> str:
        return self.ctx.clock.now().date().isoformat()

    async def daily(self, user: User, guild_id: str | None = None) -> Reply:
        """Today's deal of the solitaire (the same for everyone; one game per user per UTC day)."""
        day = self._today()
        existing = await self.ctx.store.daily_game(DAILY_GAME, day, user.id)
        if existing is not None:
            loaded = await self.ctx.games.read(existing)
            if not loaded.status.is_live:
                raise Refusal("refuse.daily_done", id=existing, day=day)
            return await self.records.board(existing, user)
        return await self.lobby.create(
            user, DAILY_GAME, guild_id=guild_id, seed=await self.daily_seed(day), daily_day=day
        )

    async def daily_seed(self, day: str) -> str:
        """The seed of ``day``'s deal: an HMAC of the day under the host's secret key, the same
        for every player that day, and computable by nobody without the key."""
        key = self.ctx.settings.secret or await self.ctx.store.host_secret(
            "daily", secrets.token_hex(32)
        )
        message = f"{DAILY_GAME}:{day}".encode()
        return hmac.new(key.encode(), message, hashlib.sha256).hexdigest()

    async def daily_board(self, guild_id: str | None, day: date | str | None = None) -> Reply:
        day_text = day.isoformat() if isinstance(day, date) else (day or self._today())
        lines = []
        for gid in await self.ctx.store.daily_games(DAILY_GAME, day_text, guild_id):
            loaded = await self.ctx.games.read(gid)
            result = loaded.row.result
            lines.append(
                Line(
                    "daily.item",
                    {
                        "name": loaded.name(0),
                        "id": gid,
                        "result": present.result_text(result)
                        if result
                        else i18n.text("daily.playing"),
                        "ply": len(loaded.entries),
                    },
                )
            )
        return Reply(
            "daily.board" if lines else "daily.empty",
            {"day": day_text},
            event=Event.DAILY_BOARD,
            lines=tuple(lines),
        )
