"""Correspondence life (issue 33): ``/vacation on [until]``, ``/vacation off`` and
``/vacation status`` (休暇); ``/premove add|list|clear`` (条件付きの手).

``/premove`` is answered privately from the first moment (the interaction is deferred
ephemerally before anything else), so nobody in the thread can see that a player keeps lines.

The use cases are the service's :class:`~bot.service.correspond.vacation.Vacations`. The answer is
private;
each game whose clock stopped or runs again gets a notice in its own thread, posted through the
timers cog's :meth:`~bot.discord.cogs.timers.TimersCog.post` (which reports it to the outbox, so
a notice whose post fails is posted again later).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any, Literal

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.discord.actions import (
    already_posted,
    game_jump,
    guild_lang,
    post_nonce,
    respond,
    service_user,
)
from bot.discord.client import BanmenBot
from bot.discord.cogs.computer import POSTER, Poster
from bot.discord.common import GAME_OPTION, game_autocomplete, game_here
from bot.discord.errors import NoGameHere
from bot.discord.format import choices_for, reply_parts
from bot.service import Refusal, Reply

log = logging.getLogger("banmen.discord.correspondence")

UNTIL_HELP = "When you are back: 2026-08-31, 2026-08-31 18:00 (UTC) or 10d (default: until off)."


OnOff = Literal["on", "off"]


class CorrespondenceCog(commands.Cog):
    """Vacations (a player's correspondence and time-bank clocks stand still while away) and
    how a player is told (``/notify``)."""

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
        await self._run(
            interaction, lambda: self.bot.service.correspond.start_vacation(user, until)
        )

    @vacation.command(name=_("off"), description=_("Back from vacation: your clocks run again."))
    async def vacation_off(self, interaction: discord.Interaction[Any]) -> None:
        user = service_user(interaction.user)
        await self._run(interaction, lambda: self.bot.service.correspond.end_vacation(user))

    @app_commands.command(
        name=_("notify"),
        description=_("How you are told: turn pings, a daily digest by DM, quiet hours."),
    )
    @app_commands.describe(
        ping=_("A ping in the thread on your turn (default on)."),
        digest=_("A daily direct message with your games (default off)."),
        hour=_("The digest's hour, in your time zone (0-23; default 8)."),
        timezone=_("Your time zone, e.g. Asia/Tokyo (default UTC)."),
        quiet=_("Quiet hours, e.g. 22-7 (messages come silently), or off."),
    )
    async def notify(
        self,
        interaction: discord.Interaction[Any],
        ping: OnOff | None = None,
        digest: OnOff | None = None,
        hour: app_commands.Range[int, 0, 23] | None = None,
        timezone: app_commands.Range[str, 1, 60] | None = None,
        quiet: app_commands.Range[str, 1, 20] | None = None,
    ) -> None:
        user = service_user(interaction.user)
        await respond(
            interaction,
            lambda: self.bot.service.correspond.configure_notices(
                user,
                ping=None if ping is None else ping == "on",
                digest=None if digest is None else digest == "on",
                hour=hour,
                timezone=timezone,
                quiet=quiet,
            ),
        )

    @vacation.command(
        name=_("status"), description=_("Whether you are on vacation, and the allowance left.")
    )
    async def vacation_status(self, interaction: discord.Interaction[Any]) -> None:
        user = service_user(interaction.user)
        await respond(interaction, lambda: self.bot.service.correspond.vacation_status(user))


async def send_digest(bot: BanmenBot, reply: Reply, *, look_first: bool = False) -> None:
    """A user's daily digest as a direct message, in their language (their Discord locale is not
    known outside an interaction: the language of the server of their first listed game, else
    English), with a jump link to each game. ``look_first``: it may have been sent before a
    crash; sent only if the direct messages do not show it yet (by the mark on its card).
    Closed direct messages are reported once."""
    if reply.audience is None:
        return
    guilds = [str(line.params.get("guild") or "") for line in reply.lines]
    lang = await guild_lang(bot, int(guilds[0])) if guilds and guilds[0].isdigit() else "en"
    links = []
    for line in reply.lines:
        jump = game_jump(bot.service.play.location(int(line.params.get("id", 0))))
        if jump is not None:
            links.append(f"[#{line.params['id']}]({jump})")
    parts = reply_parts(reply, lang, extra=[" · ".join(links)] if links else ())
    kwargs = parts.send_kwargs()
    try:
        user = bot.get_user(int(reply.audience)) or await bot.fetch_user(int(reply.audience))
        channel = user.dm_channel or await user.create_dm()
        key = reply.outbox
        if look_first and key is not None and await already_posted(bot.user, channel, key):
            log.info("the digest %s was already sent", key)
            return
        if key is not None:
            kwargs["nonce"] = post_nonce(key)  # one message per nonce (for minutes)
        await channel.send(**kwargs)
    except discord.Forbidden:
        log.info("user %s takes no direct messages: their digests stop", reply.audience)
        await bot.service.correspond.dm_closed(reply.audience)


class PremoveCog(commands.Cog):
    """Conditional moves: lines kept privately while the opponent thinks."""

    premove = app_commands.Group(
        name=_("premove"),
        description=_("Conditional moves: if they play X, you reply Y (kept privately)."),
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
        await respond(
            interaction, lambda: self.bot.service.correspond.add_premove(game_id, user, line)
        )

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
            lines = await self.bot.service.correspond.premove_choices(game, user, current)
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
        await respond(interaction, lambda: self.bot.service.correspond.premove_lines(game_id, user))

    @premove.command(name=_("clear"), description=_("Forget your conditional moves here."))
    @app_commands.describe(game=GAME_OPTION)
    @app_commands.autocomplete(game=game_autocomplete)
    async def clear(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        game_id = await game_here(interaction, game)
        user = service_user(interaction.user)
        await self._private(interaction)
        await respond(
            interaction, lambda: self.bot.service.correspond.clear_premoves(game_id, user)
        )


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, BanmenBot)
    await bot.add_cog(CorrespondenceCog(bot))
    await bot.add_cog(PremoveCog(bot))
