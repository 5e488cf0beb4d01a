"""Correspondence life (issue 33): ``/vacation on [until]``, ``/vacation off`` and
``/vacation status`` (休暇).

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
from bot.service import Reply

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


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, BanmenBot)
    await bot.add_cog(CorrespondenceCog(bot))
