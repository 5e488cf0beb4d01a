"""Helpers the cogs share: which game a command is about, the ``game`` option, game choices."""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from bot.discord.errors import NoGameHere
from bot.discord.host import host_of
from bot.service import catalogue

THREAD_GAME = re.compile(r"#(\d+)\b")
"""A game thread is named ``#<id> <title>``; the id survives any restart."""


async def game_here(interaction: discord.Interaction[Any], game: int | None) -> int:
    """The game a command means: the ``game`` option, else the game of this thread/channel."""
    if game is not None:
        return game
    channel = interaction.channel
    in_thread = isinstance(channel, discord.Thread)
    here = str(interaction.channel_id)
    parent = str(channel.parent_id) if in_thread and isinstance(channel, discord.Thread) else here
    found = await host_of(interaction).service.play.game_at(
        str(interaction.user.id), parent, here if in_thread else None
    )
    if found is not None:
        return found
    if isinstance(channel, discord.Thread) and (m := THREAD_GAME.match(channel.name or "")):
        return int(m[1])
    raise NoGameHere()


async def target_here(interaction: discord.Interaction[Any], game: int | None) -> int | str:
    """The game a ``/move``, its autocomplete or ``/hint`` means (see :func:`game_here`), or
    the kind of practice board it goes to instead (``lesson``, ``puzzle``): no game named or
    here, and one open (the service's ``practice_of``, the one routing rule)."""
    try:
        return await game_here(interaction, game)
    except NoGameHere:
        kind = await host_of(interaction).service.practice_of(str(interaction.user.id))
        if kind is None:
            raise
        return kind


async def game_autocomplete(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[int]]:
    """The user's active games (from memory; never touches the database)."""
    service = host_of(interaction).service
    return [
        app_commands.Choice(name=label[:100], value=gid)
        for gid, label in service.play.game_choices(str(interaction.user.id), current, limit=25)
    ]


def game_type_choices(*, rated: bool = False) -> list[app_commands.Choice[str]]:
    """Every registered game, for ``/rules`` and ``/stats`` (Discord allows 25 choices); with
    ``rated``, only the games that have ratings (not the solitaires)."""
    games = [g for g in catalogue() if not rated or max(g.player_counts) >= 2]
    return [
        app_commands.Choice(name=_(g.label[:100], ja=g.title.ja), value=g.id) for g in games[:25]
    ]


GAME_OPTION = _("The game (default: the game of this thread).")
