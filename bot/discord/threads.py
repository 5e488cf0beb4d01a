"""Threads that sleep (issue 33): after the bot posts in a game's thread, the thread's idle time
before Discord archives it follows the game (a week while it runs, the server's
``archive_after`` once it is over). Discord archives it by itself after that long idle; any
later post (a rematch, a look at the board) revives it, as Discord does for an unlocked thread.
"""

from __future__ import annotations

import logging

import discord

from bot.discord.host import Host

log = logging.getLogger("banmen.discord.threads")


async def keep_asleep_as_due(bot: Host, game_id: int | None, channel: object) -> None:
    """Set the idle time of ``channel`` (a game's thread) to what its game wants now."""
    if game_id is None or not isinstance(channel, discord.Thread):
        return
    minutes = await bot.service.correspond.archive_minutes(game_id)
    if channel.auto_archive_duration == minutes:
        return
    try:
        await channel.edit(auto_archive_duration=minutes)  # type: ignore[arg-type]
    except discord.HTTPException as exc:  # a moderator's lock, no permission: it stays as is
        log.info("game %s: the thread's archive time stays (%s)", game_id, exc)
