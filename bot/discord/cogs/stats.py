"""Statistics and the daily deal: ``/stats [game] [user]`` (成績), ``/daily play`` and
``/daily board [day]`` (日替わり).

The daily deal (略式易双六, the same deal and talon for everyone on a UTC day, once per player)
is the service's :meth:`~bot.service.GameService.daily`; ``/play yosuko daily:True`` is the same
use case. The results board lists this server's players of a day.
"""

from __future__ import annotations

from datetime import date
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.discord.actions import guild_lang, play_daily, respond, service_user
from bot.discord.client import BanmenBot
from bot.discord.common import game_type_choices
from bot.i18n import Lang, t


class StatsCog(commands.Cog):
    """Numbers about players: their statistics, and the daily deal's results per server."""

    daily = app_commands.Group(
        name=_("daily"),
        description=_("Today's deal of the tarot solitaire: the same for everyone, once a day."),
        allowed_contexts=app_commands.AppCommandContext(
            guild=True, dm_channel=False, private_channel=False
        ),
        allowed_installs=app_commands.AppInstallationType(guild=True, user=False),
    )

    def __init__(self, bot: BanmenBot) -> None:
        self.bot = bot

    @app_commands.command(
        name=_("stats"), description=_("Statistics: games, wins, win rate and streaks.")
    )
    @app_commands.describe(
        game=_("Only this game (default: every game)."),
        user=_("Whose statistics (default: yours)."),
    )
    @app_commands.choices(game=game_type_choices())
    async def stats(
        self,
        interaction: discord.Interaction[Any],
        game: str | None = None,
        user: discord.Member | discord.User | None = None,
    ) -> None:
        who = service_user(user or interaction.user)
        asker = service_user(interaction.user)
        await respond(interaction, lambda: self.bot.service.play.stats(who, game, asker))

    @daily.command(
        name=_("play"), description=_("Play today's deal (the same for everyone, UTC day).")
    )
    async def daily_play(self, interaction: discord.Interaction[Any]) -> None:
        await play_daily(interaction)

    @daily.command(
        name=_("board", ja="結果"), description=_("This server's results for a day's deal.")
    )
    @app_commands.describe(day=_("The day, YYYY-MM-DD (default: today, UTC)."))
    async def daily_board(
        self,
        interaction: discord.Interaction[Any],
        day: app_commands.Range[str, 10, 10] | None = None,
    ) -> None:
        if day is not None:
            try:
                day = date.fromisoformat(day).isoformat()
            except ValueError:
                public = await guild_lang(self.bot, interaction.guild_id)
                lang = Lang.of(interaction.locale, public)
                await interaction.response.send_message(
                    t("error.bad_day", lang, day=day), ephemeral=True
                )
                return
        guild = str(interaction.guild_id) if interaction.guild_id else None
        await respond(interaction, lambda: self.bot.service.play.daily_board(guild, day))


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, BanmenBot)
    await bot.add_cog(StatsCog(bot))
