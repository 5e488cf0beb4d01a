"""``/explore``: the opening explorer (issue 50, docs/explorer.md), privately: from a position
(the moves from the start), the moves played next in finished games with what followed. Thin:
the service looks the position up and words the answer."""

from __future__ import annotations

from typing import Any, Literal

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.discord.actions import respond
from bot.discord.client import BanmenBot
from bot.discord.common import game_type_choices


class ExploreCog(commands.Cog):
    def __init__(self, bot: BanmenBot) -> None:
        self.bot = bot

    @app_commands.command(
        name=_("explore", ja="定跡"),
        description=_(
            "The moves played from a position in finished games, and what followed.",
            ja="終局した対局で、ある局面から指された手とその結果を見ます。",
        ),
    )
    @app_commands.describe(
        game=_("Which game.", ja="ゲーム"),
        moves=_("The moves from the start, separated by spaces.", ja="初形からの手（空白区切り）"),
        pool=_(
            "This server's games, every server's, or the computer's self-play (levels 6-8).",
            ja="このサーバー・全サーバー・コンピュータ同士（レベル6〜8）",
        ),
        rated=_("Rated games only.", ja="レーティング対局のみ"),
    )
    @app_commands.choices(game=game_type_choices(rated=True))
    async def explore(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        moves: str = "",
        pool: Literal["server", "global", "computer"] = "server",
        rated: bool = False,
    ) -> None:
        guild = str(interaction.guild_id) if interaction.guild_id and pool == "server" else None
        await respond(
            interaction,
            lambda: self.bot.service.review.explore(
                game, moves, guild, rated=rated, computer=pool == "computer"
            ),
        )


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, BanmenBot)
    await bot.add_cog(ExploreCog(bot))
