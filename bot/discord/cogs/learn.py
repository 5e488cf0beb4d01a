"""``/learn [game]``: interactive lessons, privately (see :mod:`bot.service.learn.lessons`).

Without a game: the menu of every game with the learner's stars per lesson; with a game: its
next unfinished lesson. A lesson's message carries the picture, the goal and its buttons
(move buttons, Move to type, hint, restart, next, menu, close), all ``GameButton``s on the
practice board's id, so they work after any restart. The learner's ``/move`` and ``/hint``
outside a game's thread go to the lesson (:func:`bot.discord.common.target_here`).
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.discord.actions import respond, service_user
from bot.discord.client import BanmenBot
from bot.discord.common import game_type_choices


class LearnCog(commands.Cog):
    def __init__(self, bot: BanmenBot) -> None:
        self.bot = bot

    @app_commands.command(
        name=_("learn"),
        description=_("Interactive lessons: a game's next lesson, or the menu with your stars."),
    )
    @app_commands.describe(game=_("Which game (leave empty for the menu of all lessons)."))
    @app_commands.choices(game=game_type_choices())
    async def learn(self, interaction: discord.Interaction[Any], game: str | None = None) -> None:
        user = service_user(interaction.user)
        await respond(interaction, lambda: self.bot.service.learn.lesson(user, game))


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, BanmenBot)
    await bot.add_cog(LearnCog(bot))
