"""Helpers the cogs share: which game a command is about, and the ``game`` option."""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands

from bot.discord.errors import NoGameHere
from bot.discord.views import bot_of

THREAD_GAME = re.compile(r"#(\d+)\b")
"""A game thread is named ``#<id> <title>``; the id survives any restart."""


def game_here(interaction: discord.Interaction[Any], game: int | None) -> int:
    """The game a command means: the ``game`` option, else the game of this thread/channel."""
    if game is not None:
        return game
    service = bot_of(interaction).service
    here = str(interaction.channel_id)
    mine = service.game_choices(str(interaction.user.id), "", limit=100)
    for gid, _ in mine:
        loc = service.location(gid)
        if loc is not None and loc.thread_id == here:
            return gid
    channel = interaction.channel
    if isinstance(channel, discord.Thread) and (m := THREAD_GAME.match(channel.name or "")):
        return int(m[1])
    in_channel = [
        gid
        for gid, _ in mine
        if (loc := service.location(gid)) is not None
        and loc.thread_id is None
        and loc.channel_id == here
    ]
    if len(in_channel) == 1:
        return in_channel[0]
    raise NoGameHere()


async def game_autocomplete(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[int]]:
    """The user's active games (cached; never touches the database)."""
    service = bot_of(interaction).service
    return [
        app_commands.Choice(name=label[:100], value=gid)
        for gid, label in service.game_choices(str(interaction.user.id), current, limit=25)
    ]


GAME_OPTION = app_commands.locale_str("The game (default: the game of this thread).")
