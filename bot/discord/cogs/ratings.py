"""Ratings: ``/rating [user] [game]`` (レーティング) and ``/leaderboard <game> [scope]``
(ランキング) with page buttons that survive restarts (see :class:`~bot.discord.views.PageButton`).

The numbers, who is provisional and who is listed are the service's (docs/ratings.md).
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.discord.actions import respond, service_user, show_leaderboard
from bot.discord.client import BanmenBot
from bot.discord.common import game_type_choices
from bot.service import Refusal, Scope

SCOPES = [
    app_commands.Choice(name=_("this server", ja="このサーバー"), value=Scope.SERVER.value),
    app_commands.Choice(name=_("all servers", ja="全サーバー"), value=Scope.GLOBAL.value),
]


class RatingsCog(commands.Cog):
    """Who is strongest: a player's ratings, and each game's leaderboards."""

    def __init__(self, bot: BanmenBot) -> None:
        self.bot = bot

    @app_commands.command(
        name=_("rating"), description=_("Ratings: number, record and last rated games.")
    )
    @app_commands.describe(
        user=_("Whose ratings (default: yours)."),
        game=_("Only this game (default: every game)."),
        share=_("Show it to the channel (default: only to you)."),
    )
    @app_commands.choices(game=game_type_choices(rated=True))
    async def rating(
        self,
        interaction: discord.Interaction[Any],
        user: discord.Member | discord.User | None = None,
        game: str | None = None,
        share: bool = False,
    ) -> None:
        who, asker = service_user(user or interaction.user), service_user(interaction.user)
        await respond(
            interaction, lambda: self.bot.service.compete.rating(who, game, asker, share=share)
        )

    @app_commands.command(
        name=_("leaderboard"), description=_("The best ratings of a game, here or everywhere.")
    )
    @app_commands.describe(
        game=_("Which game."),
        scope=_("This server (default) or all servers."),
        provisional=_("Also list provisional players (too few rated games)."),
    )
    @app_commands.choices(game=game_type_choices(rated=True), scope=SCOPES)
    async def leaderboard(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        scope: str | None = None,
        provisional: bool = False,
    ) -> None:
        # Outside a server (a DM) "this server" would be empty: every server is meant, unless
        # asked for by name (then said: there is none here)
        where = Scope(scope) if scope else Scope.SERVER if interaction.guild_id else Scope.GLOBAL
        if where is Scope.SERVER and interaction.guild_id is None:
            raise Refusal("refuse.leaderboard_no_server")  # answered by the tree's handler
        await show_leaderboard(interaction, game, where, 1, provisional)


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, BanmenBot)
    await bot.add_cog(RatingsCog(bot))
