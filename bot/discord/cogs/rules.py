"""``/rules game:<choice>``: a game's short summary, its start position and a link to the rules."""

from __future__ import annotations

import io
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.discord.actions import guild_lang
from bot.discord.client import BanmenBot
from bot.discord.common import game_type_choices
from bot.discord.format import EMBED_COLOUR
from bot.i18n import Lang, t
from bot.service import GameInfo, catalogue


def rules_link(base: str | None, game: GameInfo) -> str:
    if not game.rules_doc:
        return ""
    if base:
        return f"{base.rstrip('/')}/{game.rules_doc}"
    return f"`{game.rules_doc}`"


class RulesCog(commands.Cog):
    def __init__(self, bot: BanmenBot) -> None:
        self.bot = bot
        self.games = {g.id: g for g in catalogue()}

    @app_commands.command(
        name=_("rules"), description=_("A short illustrated summary of a game's rules.")
    )
    @app_commands.describe(game=_("Which game."))
    @app_commands.choices(game=game_type_choices())
    async def rules(self, interaction: discord.Interaction[Any], game: str) -> None:
        lang = Lang.of(interaction.locale, await guild_lang(self.bot, interaction.guild_id))
        info = self.games[game]
        # Drawing may take a moment: off the event loop, after telling Discord we are on it.
        await interaction.response.defer(ephemeral=True, thinking=True)
        png = await self.bot.service.start_picture(info.id)
        title = lang.pick(f"{info.title.en} ({info.title.ja})", info.title.ja)
        embed = discord.Embed(title=title, description=info.summary.get(lang), colour=EMBED_COLOUR)
        link = rules_link(self.bot.settings.rules_base_url, info)
        if link:
            embed.add_field(name="\u200b", value=t("rules.link", lang, link=link), inline=False)
        files = []
        if png is not None:
            files.append(discord.File(io.BytesIO(png), filename=f"{info.id}.png"))
            embed.set_image(url=f"attachment://{info.id}.png")
        await interaction.followup.send(
            embed=embed,
            files=files,
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, BanmenBot)
    await bot.add_cog(RulesCog(bot))
