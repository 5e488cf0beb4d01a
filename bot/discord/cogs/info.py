"""Looking at games: ``/board``, ``/open`` (the board as a Discord Activity), ``/moves``,
``/record`` (files), ``/replay`` (an animation to step through), ``/import`` (a record file) and
``/games`` (mine)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.discord.actions import game_jump, guild_lang, respond, service_user
from bot.discord.client import BanmenBot
from bot.discord.common import GAME_OPTION, game_autocomplete, game_here
from bot.discord.errors import NoGameHere
from bot.discord.format import reply_parts
from bot.i18n import Lang
from bot.service import Refusal, Reply


class InfoCog(commands.Cog):
    """Read-only views of a game; the service decides what each viewer may see."""

    def __init__(self, bot: BanmenBot) -> None:
        self.bot = bot

    @app_commands.command(name=_("board"), description=_("Show the board of this game."))
    @app_commands.describe(
        game=GAME_OPTION,
        text=_(
            "The board in words, privately: all of it, or one part.",
            ja="盤面を文字で（自分だけに）：全部、または一部。",
        ),
        value=_(
            "For kind, row or moves: which kind, which row, which square.",
            ja="kind・row・moves の対象（駒の種類・列・マス）。",
        ),
    )
    @app_commands.choices(
        text=[
            app_commands.Choice(name=_("all", ja="全部"), value="all"),
            app_commands.Choice(
                name=_("kind: the pieces of one kind", ja="駒の種類"), value="kind"
            ),
            app_commands.Choice(name=_("row: one rank, file or hex row", ja="一列"), value="row"),
            app_commands.Choice(name=_("last: the last move", ja="直前の手"), value="last"),
            app_commands.Choice(
                name=_("moves: the legal moves of one piece", ja="一つの駒の指せる手"),
                value="moves",
            ),
            app_commands.Choice(name=_("clocks", ja="持ち時間"), value="clocks"),
        ]
    )
    @app_commands.autocomplete(game=game_autocomplete)
    async def board(
        self,
        interaction: discord.Interaction[Any],
        game: int | None = None,
        text: app_commands.Choice[str] | None = None,
        value: app_commands.Range[str, 1, 40] | None = None,
    ) -> None:
        game_id = await game_here(interaction, game)
        user = service_user(interaction.user)
        if text is None:
            await respond(interaction, lambda: self.bot.service.play.board(game_id, user))
            return
        await respond(
            interaction,
            lambda: self.bot.service.play.board_text(game_id, user, text.value, value),
        )

    @board.autocomplete("value")
    async def board_value_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """The kinds, rows or squares the chosen filter may name here."""
        named = interaction.namespace.game
        what = getattr(interaction.namespace, "text", None)
        try:
            game_id = await game_here(interaction, named if isinstance(named, int) else None)
            lang = Lang.of(interaction.locale, await guild_lang(self.bot, interaction.guild_id))
            found = await self.bot.service.play.board_text_choices(
                game_id, service_user(interaction.user), what, lang
            )
        except (NoGameHere, Refusal):
            return []
        typed = current.strip().lower()
        return [
            app_commands.Choice(name=f[:100], value=f[:100]) for f in found if typed in f.lower()
        ][:25]

    @app_commands.command(
        name=_("open"),
        description=_("Open this game's board in Discord (an Activity), or its page on the site."),
    )
    @app_commands.describe(game=GAME_OPTION)
    @app_commands.autocomplete(game=game_autocomplete)
    async def open(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        game_id = await game_here(interaction, game)
        user = service_user(interaction.user)
        await respond(interaction, lambda: self.bot.service.review.open_board(game_id, user))

    @app_commands.command(name=_("moves"), description=_("Show the moves played so far."))
    @app_commands.describe(game=GAME_OPTION)
    @app_commands.autocomplete(game=game_autocomplete)
    async def moves(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        game_id = await game_here(interaction, game)
        user = service_user(interaction.user)
        await respond(interaction, lambda: self.bot.service.play.moves(game_id, user))

    @app_commands.command(name=_("record"), description=_("Get the game record as a file."))
    @app_commands.describe(game=GAME_OPTION)
    @app_commands.autocomplete(game=game_autocomplete)
    async def record(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        game_id = await game_here(interaction, game)
        user = service_user(interaction.user)
        await respond(interaction, lambda: self.bot.service.play.record(game_id, user))

    @app_commands.command(
        name=_("replay"),
        description=_("Replay this game as an animation, with buttons to step through it."),
    )
    @app_commands.describe(game=GAME_OPTION)
    @app_commands.autocomplete(game=game_autocomplete)
    async def replay(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        game_id = await game_here(interaction, game)
        user = service_user(interaction.user)
        limit = interaction.filesize_limit
        await respond(
            interaction, lambda: self.bot.service.review.replay(game_id, user, max_bytes=limit)
        )

    @app_commands.command(
        name=_("import"),
        description=_(
            "Import a game record (.json, .kifu or .kif) as an unrated game you can replay."
        ),
    )
    @app_commands.describe(file=_("The record file, as /record gives it."))
    async def import_(
        self, interaction: discord.Interaction[Any], file: discord.Attachment
    ) -> None:
        user = service_user(interaction.user)
        guild = str(interaction.guild_id) if interaction.guild_id else None
        service = self.bot.service

        async def work() -> Reply:
            service.play.check_record_size(file.size)  # refused before anything is downloaded
            return await service.play.import_record(user, await file.read(), guild_id=guild)

        await respond(interaction, work)

    @app_commands.command(
        name=_("games"), description=_("Your active games, those where it is your move first.")
    )
    async def games(self, interaction: discord.Interaction[Any]) -> None:
        user = service_user(interaction.user)
        guild = str(interaction.guild_id) if interaction.guild_id else None
        service = self.bot.service
        reply = await service.play.list_games(user, guild)
        lang = Lang.of(interaction.locale, await guild_lang(self.bot, interaction.guild_id))
        links = game_links(self.bot, str(interaction.user.id))
        extra = ["\n".join(links)[:1024]] if links else []
        parts = reply_parts(reply, lang, ephemeral=True, extra=extra)
        await interaction.response.send_message(**parts.send_kwargs(), ephemeral=True)


def game_links(bot: BanmenBot, user_id: str) -> list[str]:
    """Jump links to the threads (or lobby messages) of the user's cached games, each in its
    own server or in direct messages (issue 48)."""
    out = []
    for gid, label in bot.service.play.game_choices(user_id, "", limit=10):
        if (jump := game_jump(bot.service.play.location(gid))) is not None:
            out.append(f"[{label}]({jump})")
    return out


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, BanmenBot)
    await bot.add_cog(InfoCog(bot))
