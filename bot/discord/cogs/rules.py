"""``/rules game:<choice>``: a game's short summary, its start position and a link to the rules."""

from __future__ import annotations

import asyncio
import io
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

import render
from bot.discord.actions import guild_lang
from bot.discord.client import BanmenBot
from bot.discord.format import EMBED_COLOUR
from bot.discord.texts import lang_of_locale, t
from engines.core import Game
from engines.registry import all_games, get_game


def game_choices() -> list[app_commands.Choice[str]]:
    """Every registered game (Discord allows 25 choices)."""
    return [
        app_commands.Choice(name=_(f"{g.title_en} / {g.title_ja}"[:100], ja=g.title_ja), value=g.id)
        for g in all_games()[:25]
    ]


def start_picture(game: Game[Any]) -> bytes | None:
    """The start position as a spectator sees it (None when the game has no renderer)."""
    if not render.has_renderer(game.id):
        return None
    return render.render_png(game.new_game(), None, None)


def rules_link(base: str | None, game: Game[Any]) -> str:
    if not game.rules_doc:
        return ""
    if base:
        return f"{base.rstrip('/')}/{game.rules_doc}"
    return f"`{game.rules_doc}`"


class RulesCog(commands.Cog):
    def __init__(self, bot: BanmenBot) -> None:
        self.bot = bot

    @app_commands.command(
        name=_("rules"), description=_("A short illustrated summary of a game's rules.")
    )
    @app_commands.describe(game=_("Which game."))
    @app_commands.choices(game=game_choices())
    async def rules(self, interaction: discord.Interaction[Any], game: str) -> None:
        lang = lang_of_locale(interaction.locale, await guild_lang(self.bot, interaction.guild_id))
        info = get_game(game)
        # Drawing may take a moment: off the event loop, after telling Discord we are on it.
        await interaction.response.defer(ephemeral=True, thinking=True)
        png = await asyncio.to_thread(start_picture, info)
        title = info.title_ja if lang == "ja" else f"{info.title_en} ({info.title_ja})"
        embed = discord.Embed(title=title, description=info.summary.get(lang), colour=EMBED_COLOUR)
        link = rules_link(getattr(self.bot.settings, "rules_base_url", None), info)
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
