"""``/rules game:<choice>``: a game's whole rules, page by page, privately.

Each page is a few sentences and its diagram (from the service's :class:`RulesPage`). The
buttons (first / previous / next) and the jump list of sections are ``DynamicItem``s whose
custom ids carry the game and the page (``banmen-rules:rokumentai:3:next``,
``banmen-rules-jump:rokumentai``), registered with the cog, so a page turns after any restart.
Its labels are the catalogue's ``rules.*`` keys.
"""

from __future__ import annotations

import io
import re
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.discord.actions import guild_lang
from bot.discord.cards import WOOD
from bot.discord.client import BanmenBot
from bot.discord.common import game_type_choices
from bot.discord.host import host_of
from bot.discord.views import Persistent
from bot.i18n import Lang, t
from bot.service import RulesPage

BUTTON_ID = re.compile(
    r"banmen-rules:(?P<game>[a-z0-9-]{1,40}):(?P<page>\d{1,4}):(?P<slot>first|prev|next)"
)
JUMP_ID = re.compile(r"banmen-rules-jump:(?P<game>[a-z0-9-]{1,40})")


async def _lang(interaction: discord.Interaction[Any]) -> Lang:
    return Lang.of(interaction.locale, await guild_lang(host_of(interaction), interaction.guild_id))


def page_embed(page: RulesPage, lang: Lang) -> tuple[discord.Embed, list[discord.File]]:
    """The page as an embed, and its picture as a plain attachment described by the page's
    heading (a screen reader reads an attachment's description, not an embed image's)."""
    game = lang.pick(f"{page.title.en} ({page.title.ja})", page.title.ja)
    section = page.sections[page.section][1].get(lang)
    embed = discord.Embed(
        title=f"{game} · {section}"[:256],
        description=f"**{page.heading.get(lang)}**\n{page.body.get(lang)}",
        colour=WOOD,
    )
    if page.link:
        embed.add_field(name="\u200b", value=t("rules.link", lang, link=page.link), inline=False)
    embed.set_footer(text=t("rules.page", lang, n=page.index + 1, count=page.count))
    files: list[discord.File] = []
    if page.png is not None:
        name = f"rules-{page.game}-{page.index + 1}.png"
        described = (page.alt or page.heading).get(lang)
        files.append(discord.File(io.BytesIO(page.png), filename=name, description=described))
    return embed, files


class RulesButton(
    Persistent, discord.ui.DynamicItem[discord.ui.Button[Any]], template=BUTTON_ID.pattern
):
    """First / previous / next: shows page ``page`` of ``game`` in place of this one."""

    def __init__(
        self, game: str, page: int, slot: str, *, label: str | None = None, disabled: bool = False
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or t(f"rules.{slot}", Lang.EN),
                style=discord.ButtonStyle.secondary,
                custom_id=f"banmen-rules:{game}:{page}:{slot}",
                disabled=disabled,
            )
        )
        self.game = game
        self.page = page

    @classmethod
    def from_match(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> RulesButton:
        return cls(match["game"], int(match["page"]), match["slot"])

    async def answer(self, interaction: discord.Interaction[Any]) -> None:
        await show_page(interaction, self.game, self.page, edit=True)


class RulesSelect(
    Persistent, discord.ui.DynamicItem[discord.ui.Select[Any]], template=JUMP_ID.pattern
):
    """The jump list: one option per section, its value the section's first page."""

    def __init__(self, game: str, options: list[discord.SelectOption] | None = None) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"banmen-rules-jump:{game}",
                options=options or [discord.SelectOption(label="1", value="0")],
            )
        )
        self.game = game

    @classmethod
    def from_match(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> RulesSelect:
        return cls(match["game"])

    async def answer(self, interaction: discord.Interaction[Any]) -> None:
        chosen = self.item.values[0] if self.item.values else "0"
        page = int(chosen) if chosen.isdigit() else 0
        await show_page(interaction, self.game, page, edit=True)


def page_view(page: RulesPage, lang: Lang) -> discord.ui.View:
    """The page's buttons and jump list (persistent: their ids carry game and page)."""
    view = discord.ui.View(timeout=None)
    last = page.count - 1
    for slot, target in (
        ("first", 0),
        ("prev", max(page.index - 1, 0)),
        ("next", min(page.index + 1, last)),
    ):
        at_edge = page.index == (last if slot == "next" else 0)
        view.add_item(
            RulesButton(page.game, target, slot, label=t(f"rules.{slot}", lang), disabled=at_edge)
        )
    options = [
        discord.SelectOption(
            label=title.get(lang)[:100], value=str(first), default=i == page.section
        )
        for i, (first, title) in enumerate(page.sections[:25])
    ]
    select = RulesSelect(page.game, options)
    select.item.placeholder = t("rules.jump", lang)
    view.add_item(select)
    return view


async def show_page(
    interaction: discord.Interaction[Any], game: str, index: int, *, edit: bool
) -> None:
    """Page ``index`` of ``game``'s rules: a new private message, or (``edit``, from a button)
    in place of the page the button is on."""
    lang = await _lang(interaction)
    service = host_of(interaction).service
    if not edit:
        # The first drawing of a page may take a moment: off the event loop, after telling
        # Discord we are on it.
        await interaction.response.defer(ephemeral=True, thinking=True)
    page = await service.learn.rules_page(game, index)
    embed, files = page_embed(page, lang)
    view = page_view(page, lang)
    if edit:
        await interaction.response.edit_message(embed=embed, attachments=files, view=view)
    else:
        await interaction.followup.send(
            embed=embed,
            files=files,
            view=view,
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )


class RulesCog(commands.Cog):
    def __init__(self, bot: BanmenBot) -> None:
        self.bot = bot

    @app_commands.command(name=_("rules"), description=_("A game's rules, page by page."))
    @app_commands.describe(game=_("Which game."))
    @app_commands.choices(game=game_type_choices())
    async def rules(self, interaction: discord.Interaction[Any], game: str) -> None:
        await show_page(interaction, game, 0, edit=False)


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, BanmenBot)
    bot.add_dynamic_items(RulesButton, RulesSelect)
    await bot.add_cog(RulesCog(bot))
