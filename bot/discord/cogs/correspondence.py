"""Correspondence life (issue 33): ``/vacation on [until]``, ``/vacation off`` and
``/vacation status`` (休暇); ``/premove add|list|clear`` (条件付きの手).

``/premove`` is answered privately from the first moment (the interaction is deferred
ephemerally before anything else), so nobody in the thread can see that a player keeps lines.

The use cases are the service's :class:`~bot.service.vacation.Vacations`. The answer is private;
each game whose clock stopped or runs again gets a notice in its own thread, posted through the
timers cog's :meth:`~bot.discord.cogs.timers.TimersCog.post` (which reports it to the outbox, so
a notice whose post fails is posted again later).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.discord.actions import respond, service_user
from bot.discord.client import BanmenBot
from bot.discord.cogs.computer import POSTER, Poster
from bot.discord.common import GAME_OPTION, game_autocomplete, game_here
from bot.discord.errors import NoGameHere
from bot.discord.format import choices_for
from bot.service import Refusal, Reply

log = logging.getLogger("banmen.discord.correspondence")

UNTIL_HELP = "When you are back: 2026-08-31, 2026-08-31 18:00 (UTC) or 10d (default: until off)."


class CorrespondenceCog(commands.Cog):
    """Vacations: a player's correspondence and time-bank clocks stand still while away."""

    vacation = app_commands.Group(
        name=_("vacation"),
        description=_("Stop your correspondence clocks while you are away."),
    )

    def __init__(self, bot: BanmenBot) -> None:
        self.bot = bot

    async def _run(
        self, interaction: discord.Interaction[Any], work: Callable[[], Awaitable[list[Reply]]]
    ) -> None:
        async def answer() -> Reply:
            private, *notices = await work()
            poster = self.bot.get_cog(POSTER)
            for notice in notices:  # each in its own game's thread
                if isinstance(poster, Poster):
                    await poster.post(notice)
                else:  # no delivery loaded: the outbox keeps the notice for later
                    log.warning("no delivery for %s of game %s", notice.key, notice.game_id)
            return private

        await respond(interaction, answer)

    @vacation.command(
        name=_("on"), description=_("Go on vacation: your correspondence clocks stand still.")
    )
    @app_commands.describe(until=_(UNTIL_HELP))
    async def vacation_on(
        self,
        interaction: discord.Interaction[Any],
        until: app_commands.Range[str, 1, 40] | None = None,
    ) -> None:
        user = service_user(interaction.user)
        await self._run(interaction, lambda: self.bot.service.vacations.start(user, until))

    @vacation.command(name=_("off"), description=_("Back from vacation: your clocks run again."))
    async def vacation_off(self, interaction: discord.Interaction[Any]) -> None:
        user = service_user(interaction.user)
        await self._run(interaction, lambda: self.bot.service.vacations.stop(user))

    @vacation.command(
        name=_("status"), description=_("Whether you are on vacation, and the allowance left.")
    )
    async def vacation_status(self, interaction: discord.Interaction[Any]) -> None:
        user = service_user(interaction.user)
        await respond(interaction, lambda: self.bot.service.vacations.status(user))


class PremoveCog(commands.Cog):
    """Conditional moves: lines kept privately while the opponent thinks."""

    premove = app_commands.Group(
        name=_("premove"),
        description=_("Conditional moves: if they play X, you reply Y (kept privately)."),
        guild_only=True,
    )

    def __init__(self, bot: BanmenBot) -> None:
        self.bot = bot

    @staticmethod
    async def _private(interaction: discord.Interaction[Any]) -> None:
        """Defer privately at once: a slow answer never shows a public "thinking…"."""
        await interaction.response.defer(ephemeral=True, thinking=True)

    @premove.command(name=_("add"), description=_("Add a line: their move, your reply, …"))
    @app_commands.describe(
        line=_("Their move, your reply (then their next, your reply …), space-separated."),
        game=GAME_OPTION,
    )
    @app_commands.autocomplete(game=game_autocomplete)
    async def add(
        self,
        interaction: discord.Interaction[Any],
        line: app_commands.Range[str, 1, 100],
        game: int | None = None,
    ) -> None:
        game_id = await game_here(interaction, game)
        user = service_user(interaction.user)
        await self._private(interaction)
        await respond(interaction, lambda: self.bot.service.premoves.add(game_id, user, line))

    @add.autocomplete("line")
    async def line_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        named = interaction.namespace.game
        try:
            game = await game_here(interaction, named if isinstance(named, int) else None)
        except NoGameHere:
            return []
        user = service_user(interaction.user)
        try:
            lines = await self.bot.service.premoves.choices(game, user, current)
        except Refusal:
            return []
        return [app_commands.Choice(name=n, value=v) for n, v in choices_for(lines)]

    @premove.command(name=_("list"), description=_("Your conditional moves in this game."))
    @app_commands.describe(game=GAME_OPTION)
    @app_commands.autocomplete(game=game_autocomplete)
    async def list_(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        game_id = await game_here(interaction, game)
        user = service_user(interaction.user)
        await self._private(interaction)
        await respond(interaction, lambda: self.bot.service.premoves.show(game_id, user))

    @premove.command(name=_("clear"), description=_("Forget your conditional moves here."))
    @app_commands.describe(game=GAME_OPTION)
    @app_commands.autocomplete(game=game_autocomplete)
    async def clear(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        game_id = await game_here(interaction, game)
        user = service_user(interaction.user)
        await self._private(interaction)
        await respond(interaction, lambda: self.bot.service.premoves.clear(game_id, user))


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, BanmenBot)
    await bot.add_cog(CorrespondenceCog(bot))
    await bot.add_cog(PremoveCog(bot))
