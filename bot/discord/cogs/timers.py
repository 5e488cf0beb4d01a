"""Delivery of reminders and timeouts (催促と時間切れ).

The service keeps every deadline (restored from the store at start-up) and hands out what is due;
this loop waits for the next one, posts each reply in its game's thread (a reminder pings the
player to move, a timeout posts the result) and never dies: not on one failed delivery, not on one
bad game (the service sets it aside), not on a failed round (logged, retried a little later).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

import discord
from discord.ext import commands

from bot.discord.actions import guild_lang
from bot.discord.client import BanmenBot
from bot.discord.format import reply_parts
from bot.discord.views import game_view
from bot.service import Reply

log = logging.getLogger("banmen.discord.timers")

RETRY_SECONDS = 5.0
"""How long the loop waits after a failed round before trying again (unless timers change)."""
MAX_WAIT_SECONDS = 3600.0
"""The loop never sleeps longer than this at once (it then looks again)."""


class TimersCog(commands.Cog):
    def __init__(self, bot: BanmenBot) -> None:
        self.bot = bot
        self.task: asyncio.Task[None] | None = None
        self.delivered = asyncio.Event()
        """Set after each round of deliveries (tests wait on it instead of sleeping)."""

    async def cog_load(self) -> None:
        self.task = asyncio.create_task(self.run(), name="banmen-timers")

    async def cog_unload(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

    async def run(self) -> None:
        await self.bot.wait_until_ready()
        while not self.bot.is_closed():
            try:
                await self.round()
            except asyncio.CancelledError:
                raise
            except Exception:
                # Never die: log, wait a little (or until the timers change) and go on.
                log.exception("the timers round failed; retrying in %s s", RETRY_SECONDS)
                self.bot.service.timer_changed.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.bot.service.timer_changed.wait(), RETRY_SECONDS)

    async def round(self) -> None:
        """Wait for the next due time (or a change), then deliver what is due."""
        service = self.bot.service
        at = service.next_timer_at()
        service.timer_changed.clear()
        timeout = None
        if at is not None:
            timeout = min(MAX_WAIT_SECONDS, max(0.0, (at - service.clock.now()).total_seconds()))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(service.timer_changed.wait(), timeout)
        replies = await service.process_due()
        for reply in replies:
            try:
                await self.deliver(reply)
            except Exception:
                log.exception("could not deliver %s for game %s", reply.key, reply.game_id)
        self.delivered.set()

    async def deliver(self, reply: Reply) -> None:
        if reply.game_id is None:
            return
        loc = await self.bot.service.place(reply.game_id)
        target = None if loc is None else (loc.thread_id or loc.channel_id)
        if target is None:
            log.warning("game %s has no place to post %s", reply.game_id, reply.key)
            return
        channel = self.bot.get_channel(int(target)) or await self.bot.fetch_channel(int(target))
        if not isinstance(channel, discord.abc.Messageable):
            return
        guild = getattr(channel, "guild", None)
        lang = await guild_lang(self.bot, guild.id if guild is not None else None)
        view = game_view(reply.game_id, reply.actions, lang)
        await channel.send(**reply_parts(reply, lang, view=view).send_kwargs())


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, BanmenBot)
    await bot.add_cog(TimersCog(bot))
