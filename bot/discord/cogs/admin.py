"""Moderation and server settings: ``/abort`` (Manage Threads), ``/settings`` (Manage Server),
``/sync`` (the bot owner: the explicit global sync)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.discord.actions import guild_lang, respond, service_user
from bot.discord.client import BanmenBot
from bot.discord.common import GAME_OPTION, game_here
from bot.discord.errors import OwnerOnly
from bot.discord.format import settings_text
from bot.i18n import Lang, t

SETTING_KEYS = [
    app_commands.Choice(name=_("language"), value="lang"),
    app_commands.Choice(name=_("threads"), value="threads"),
    app_commands.Choice(name=_("default clock"), value="clock"),
    app_commands.Choice(name=_("games per user"), value="max_active_per_user"),
    app_commands.Choice(name=_("games per server"), value="max_active_per_guild"),
    app_commands.Choice(
        name=_("daily puzzle channel", ja="今日のパズルのチャンネル"), value="puzzle_channel"
    ),
    app_commands.Choice(name=_("vacation"), value="vacation"),
    app_commands.Choice(name=_("archive finished threads after"), value="archive_after"),
    app_commands.Choice(name=_("tournament managers (a role)"), value="tournament_role"),
]


class AdminCog(commands.Cog):
    def __init__(self, bot: BanmenBot) -> None:
        self.bot = bot

    @app_commands.command(
        name=_("abort"), description=_("Stop a game without a result (moderators).")
    )
    @app_commands.describe(game=GAME_OPTION)
    @app_commands.default_permissions(manage_threads=True)
    @app_commands.checks.has_permissions(manage_threads=True)
    @app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)
    @app_commands.allowed_installs(guilds=True, users=False)
    async def abort(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        game_id = await game_here(interaction, game)
        moderator = service_user(interaction.user)
        guild = str(interaction.guild_id)
        await respond(interaction, lambda: self.bot.service.play.abort(game_id, moderator, guild))

    @app_commands.command(
        name=_("settings"),
        description=_("Server settings: language, threads, default clock, limits (admins)."),
    )
    @app_commands.describe(
        key=_("The setting to change (none: show them all)."), value=_("The new value.")
    )
    @app_commands.choices(key=SETTING_KEYS)
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.checks.has_permissions(manage_guild=True)
    @app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)
    @app_commands.allowed_installs(guilds=True, users=False)
    async def settings(
        self,
        interaction: discord.Interaction[Any],
        key: str | None = None,
        value: app_commands.Range[str, 1, 40] | None = None,
    ) -> None:
        assert interaction.guild_id is not None
        guild = str(interaction.guild_id)
        service = self.bot.service
        if key is None or value is None:
            current = await service.play.guild_settings(guild)
            await interaction.response.send_message(
                settings_text(current.shown()),
                ephemeral=True,
                allowed_mentions=discord.AllowedMentions.none(),
            )
            return
        await respond(interaction, lambda: service.play.set_guild_setting(guild, key, value))

    @app_commands.command(
        name=_("sync"), description=_("Sync the slash commands globally (bot owner).")
    )
    @app_commands.default_permissions(administrator=True)
    @app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)
    @app_commands.allowed_installs(guilds=True, users=False)
    async def sync(self, interaction: discord.Interaction[Any]) -> None:
        if not await self.bot.is_owner(interaction.user):
            raise OwnerOnly()
        lang = Lang.of(interaction.locale, await guild_lang(self.bot, interaction.guild_id))
        await interaction.response.defer(ephemeral=True, thinking=True)
        synced = await self.bot.sync_global_commands()
        await interaction.followup.send(t("sync.done", lang, count=len(synced)), ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, BanmenBot)
    await bot.add_cog(AdminCog(bot))
