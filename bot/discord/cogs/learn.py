"""``/learn [game]``: interactive lessons, privately (see :mod:`bot.service.lessons`).

Without a game: the menu of every game with the learner's stars per lesson; with a game: its
next unfinished lesson. A lesson's message carries the picture, the goal and its buttons
(move buttons, Move to type, hint, restart, next, menu, close), all ``GameButton``s on the
practice board's id, so they work after any restart. The learner's ``/move`` and ``/hint``
outside a game's thread go to the lesson (:func:`in_practice`).
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.discord.actions import respond, service_user
from bot.discord.client import BanmenBot
from bot.discord.common import game_here, game_type_choices
from bot.discord.errors import NoGameHere
from bot.discord.host import host_of


async def in_practice(interaction: discord.Interaction[Any], game: int | None) -> bool:
    """Does a game command (``/move``, ``/hint``) go to the user's lesson? Yes when it names
    no game, is not in a game's thread or channel, and the user has a lesson open."""
    if game is not None:
        return False
    try:
        await game_here(interaction, None)
    except NoGameHere:
        service = host_of(interaction).service
        return await service.practice_of(str(interaction.user.id)) is not None
    return False


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
        await respond(interaction, lambda: self.bot.service.lessons.learn(user, game))


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, BanmenBot)
    await bot.add_cog(LearnCog(bot))
