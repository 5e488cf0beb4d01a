"""Delivery of reminders, timeouts and every announcement left pending (催促・時間切れ・告知).

The service keeps every deadline (restored from the store at start-up) and hands out what is due;
this loop waits for the next one, posts each reply in its game's thread (a reminder pings the
player to move, a timeout posts the result) and never dies: not on one failed delivery, not on one
bad game (the service sets it aside), not on a failed round (logged, retried a little later).

It is also the one delivery loop of the outbox: every row of every kind whose post never happened
(a game's announcement committed with a move, a tournament's post, the daily puzzle's post fallen
due; the process died between the write and the post, a send failed). Each is posted once: first
the thread's or channel's recent messages are searched for its mark (the key, small, at the
foot of its card), and the send carries the key as its nonce, so a retry within minutes is not
posted twice either.
"""

from __future__ import annotations

import asyncio
import logging

import discord
from discord.ext import commands

from bot.discord.actions import (
    by_interaction,
    edit_lobby,
    guild_lang,
    posted_as,
    result_card,
    retire_previous,
)
from bot.discord.budget import not_urgent
from bot.discord.client import BanmenBot
from bot.discord.cogs.correspondence import send_digest
from bot.discord.cogs.tournament import send_in_channel
from bot.discord.format import reply_parts
from bot.discord.relay import Waiting
from bot.discord.stopping import stop_tasks, wait_event
from bot.discord.threads import keep_asleep_as_due
from bot.discord.views import reply_view
from bot.service import LOBBY_EVENTS, Event, Reply

log = logging.getLogger("banmen.discord.timers")

RETRY_SECONDS = 5.0
"""How long the loop waits after a failed round before trying again (unless timers change)."""
YIELDING = frozenset({Event.DIGEST, Event.REMINDER})
"""What the delivery loop posts that may wait for an idle slot of the REST budget (issue
49): a game's reminder and a user's digest (a post with no game, a tournament's or the daily
puzzle's, too)."""
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
        await stop_tasks([self.task])

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
                await wait_event(self.bot.service.timer_changed, RETRY_SECONDS)

    async def round(self) -> None:
        """Wait for the next due time (or a change), then deliver what is due."""
        service = self.bot.service
        service.timer_changed.clear()
        points = [p for p in (service.next_timer_at(), await service.next_announcement_at()) if p]
        timeout = None
        if points:
            left = (min(points) - service.clock.now()).total_seconds()
            timeout = min(MAX_WAIT_SECONDS, max(0.0, left))
        await wait_event(service.timer_changed, timeout)
        posted: list[str] = []
        try:
            for reply in await service.process_due():
                posted += await self.send(reply)
            for reply in await service.pending_announcements():
                posted += await self.send(reply, look_first=True)
        finally:  # the round's batch, reported in one call (what was posted, even if stopped)
            if posted:
                await service.announced(*posted)
        self.delivered.set()

    async def post(self, reply: Reply) -> None:
        """Deliver one reply now and report it to the outbox (a failed send is retried later):
        for the other cogs (the computer's moves, a tournament's games)."""
        posted = await self.send(reply)
        if posted:
            await self.bot.service.announced(*posted)

    async def send(self, reply: Reply, *, look_first: bool = False) -> list[str]:
        """Deliver one reply (a game's, or a post in a channel: a tournament's, the daily
        puzzle); the outbox key to report delivered (none: it has none, or the send failed
        and the outbox retries it later). ``look_first``: it may have been posted before a
        crash; post it only if it is not in its thread or channel yet."""
        service = self.bot.service
        try:
            await self.deliver(reply, look_first=look_first)
        except Waiting:
            # a place reached only through interactions, none to carry it now: the next one
            # there does (the outbox keeps it; no request to Discord was refused)
            log.debug("game %s: %s waits for an interaction", reply.game_id, reply.outbox)
            for key in reply.announcements:
                await service.announcement_failed(key)
            return []
        except (discord.NotFound, discord.Forbidden) as exc:
            # the thread is gone or closed to the bot: no retry can post it
            where = reply.game_id or reply.params.get("channel")
            log.warning("%s (%s) cannot be posted (%s); dropped", reply.outbox, where, exc)
        except Exception:
            where = reply.game_id or reply.params.get("channel")
            log.exception("could not deliver %s (%s) for %s", reply.key, reply.outbox, where)
            for key in reply.announcements:
                await service.announcement_failed(key)
            return []
        return list(reply.announcements)

    async def deliver(self, reply: Reply, *, look_first: bool = False) -> None:
        if reply.event in YIELDING or reply.game_id is None:
            # a digest, a reminder, a tournament's or the daily puzzle's post: moves go first
            with not_urgent():
                await self._deliver(reply, look_first=look_first)
            return
        await self._deliver(reply, look_first=look_first)

    async def _deliver(self, reply: Reply, *, look_first: bool = False) -> None:
        if reply.event is Event.DIGEST:
            await send_digest(self.bot, reply, look_first=look_first)
            return
        if reply.game_id is None and reply.params.get("channel"):
            # no game's: a tournament's post, the daily puzzle, in its channel
            await send_in_channel(self.bot, reply, look_first=look_first)
            return
        reply = self.bot.service.correspond.shape(reply)  # pings as their users want them now
        if reply.game_id is None:
            return
        loc = await self.bot.service.play.place(reply.game_id)
        target = None if loc is None else (loc.thread_id or loc.channel_id)
        if target is None:
            log.warning("game %s has no place to post %s", reply.game_id, reply.key)
            return
        if loc is not None and loc.interaction_only:  # a DM or group DM between people
            await by_interaction(self.bot, await result_card(self.bot, reply))
            return
        channel = self.bot.get_channel(int(target)) or await self.bot.fetch_channel(int(target))
        if not isinstance(channel, discord.abc.Messageable):
            return
        if look_first and reply.outbox is not None:
            found = await posted_as(self.bot.user, channel, reply.outbox)
            if found is not None:  # posted before a crash: what followed the post is redone
                log.info("game %s: announcement %s was already posted", reply.game_id, reply.outbox)
                await retire_previous(self.bot, reply, found)
                return
        guild = getattr(channel, "guild", None)
        lang = await guild_lang(self.bot, guild.id if guild is not None else None)
        if reply.event in LOBBY_EVENTS and await edit_lobby(self.bot, reply, lang):
            return  # a lapsed challenge: its own message says so, its buttons gone
        reply = await result_card(self.bot, reply)
        view = reply_view(reply, lang)
        kwargs = reply_parts(reply, lang, view=view).send_kwargs()
        if reply.outbox is not None:
            kwargs["nonce"] = reply.outbox  # Discord posts one message per nonce (for minutes)
        sent = await channel.send(**kwargs)
        await retire_previous(self.bot, reply, sent)
        await keep_asleep_as_due(self.bot, reply.game_id, channel)


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, BanmenBot)
    await bot.add_cog(TimersCog(bot))
