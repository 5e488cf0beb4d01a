"""``/review``: the computer's review of a finished game (検討), with its progress in one message.

While the service judges the plies (in the worker pool, never on the event loop), one private
message says how far it has come ("move 23 of 60"), edited as it goes (at most every
:data:`EDIT_EVERY` seconds: Discord limits edits); when the review is ready that message is
removed and the review delivered like any reply (privately, or in the thread once a player has
made it public). A stored review comes at once, with no progress. The Review button on a
finished game's message runs the same use case through the action table.
"""

from __future__ import annotations

import time
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.discord.actions import guild_lang, respond, service_user
from bot.discord.client import BanmenBot
from bot.discord.common import GAME_OPTION, game_autocomplete, game_here
from bot.i18n import Lang, t

EDIT_EVERY = 1.5
"""Seconds between two edits of the progress message (the last one is always shown)."""


class Progress:
    """The one message that tells how far a review has come."""

    def __init__(self, interaction: discord.Interaction[Any], game_id: int, lang: str) -> None:
        self.interaction = interaction
        self.game_id = game_id
        self.lang = lang
        self.message: discord.WebhookMessage | None = None
        self.original = False
        self.last = 0.0

    async def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        shown = self.original or self.message is not None
        if shown and done < total and now - self.last < EDIT_EVERY:
            return
        self.last = now
        content = t("review.progress", self.lang, id=self.game_id, done=done, total=total)
        response = self.interaction.response
        if self.message is not None:
            await self.message.edit(content=content)
        elif self.original:
            await self.interaction.edit_original_response(content=content)
        elif not response.is_done():
            await response.send_message(content, ephemeral=True)
            self.original = True
        else:  # the command was deferred first: a private follow-up
            self.message = await self.interaction.followup.send(content, ephemeral=True, wait=True)

    async def remove(self) -> None:
        """The review is delivered: the progress message goes."""
        try:
            if self.message is not None:
                await self.message.delete()
            elif self.original:
                await self.interaction.delete_original_response()
        except discord.HTTPException:
            pass  # already gone: nothing to tidy


class ReviewCog(commands.Cog):
    def __init__(self, bot: BanmenBot) -> None:
        self.bot = bot

    @app_commands.command(
        name=_("review", ja="検討"),
        description=_(
            "The computer reviews a finished game: win chances, mistakes, better moves.",
            ja="終局した対局をコンピュータが検討します（勝率・悪手・より良い手）。",
        ),
    )
    @app_commands.describe(game=GAME_OPTION)
    @app_commands.autocomplete(game=game_autocomplete)
    async def review(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        game_id = await game_here(interaction, game)
        user = service_user(interaction.user)
        lang = Lang.of(interaction.locale, await guild_lang(self.bot, interaction.guild_id))
        progress = Progress(interaction, game_id, lang)
        try:
            await respond(
                interaction, lambda: self.bot.service.review.game(game_id, user, progress)
            )
        finally:
            await progress.remove()

    @app_commands.command(
        name=_("analyse", ja="解析"),
        description=_(
            "A private analysis board at a move of a finished game: try moves, ask the computer.",
            ja="終局した対局の任意の手から、自分だけの解析盤で手を試しコンピュータに聞けます。",
        ),
    )
    @app_commands.describe(
        game=GAME_OPTION,
        move=_("The move to start from (0: the start; none: the end).", ja="開始する手数"),
    )
    @app_commands.autocomplete(game=game_autocomplete)
    async def analyse(
        self,
        interaction: discord.Interaction[Any],
        game: int | None = None,
        move: app_commands.Range[int, 0, 10_000] | None = None,
    ) -> None:
        game_id = await game_here(interaction, game)
        user = service_user(interaction.user)
        await respond(interaction, lambda: self.bot.service.review.analyse(user, game_id, move))


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, BanmenBot)
    await bot.add_cog(ReviewCog(bot))
