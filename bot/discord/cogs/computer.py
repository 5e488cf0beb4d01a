"""The computer player's turns (コンピュータの手番).

The service marks a game due whenever a move, a start or a restart may have made it a computer
player's turn. This loop takes the due games and plays each in its own task, so one game's search
never delays another's (the searches themselves run in the service's thinker, off the event
loop), then posts each reply in the game's thread like a human move (the board, and the ping of
the next human) through the timers cog's :meth:`~bot.discord.cogs.timers.TimersCog.post`, which
reports it to the outbox: an AI move whose post fails (or whose host dies first) is posted again
by the outbox. It never dies on one game's failure.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Protocol, runtime_checkable

from discord.ext import commands

from bot.discord.client import BanmenBot
from bot.discord.stopping import stop_tasks
from bot.service import Reply

log = logging.getLogger("banmen.discord.computer")

POSTER = "TimersCog"
"""The cog that posts replies the bot sends by itself and reports them to the outbox."""


@runtime_checkable
class Poster(Protocol):
    async def post(self, reply: Reply) -> None: ...


class ComputerCog(commands.Cog):
    def __init__(self, bot: BanmenBot) -> None:
        self.bot = bot
        self.task: asyncio.Task[None] | None = None
        self.turns: set[asyncio.Task[None]] = set()
        self.posted = asyncio.Event()
        """Set after each AI turn that posted something has posted it and reported it to the
        outbox (tests wait on it)."""

    async def cog_load(self) -> None:
        self.task = asyncio.create_task(self.run(), name="banmen-computer")

    async def cog_unload(self) -> None:
        # A turn cancelled mid-search commits nothing: the game stays the computer's turn and
        # is played after the next start (Computer.restore).
        await stop_tasks([self.task, *self.turns])

    async def run(self) -> None:
        await self.bot.wait_until_ready()
        service = self.bot.service
        while not self.bot.is_closed():
            service.play.ai_changed.clear()
            for game_id in service.play.due_ai_games():
                task = asyncio.create_task(self.turn(game_id), name=f"banmen-ai-{game_id}")
                self.turns.add(task)
                task.add_done_callback(self.turns.discard)
            await service.play.ai_changed.wait()

    async def turn(self, game_id: int) -> None:
        """Play the computer's turn in one game and post what it says."""
        try:
            replies = await self.bot.service.play.play_ai(game_id)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the computer's turn in game %s failed", game_id)
            return
        poster = self.bot.get_cog(POSTER)
        for reply in replies:
            await self.after_interactions(game_id)
            if isinstance(poster, Poster):
                await poster.post(reply)  # logs and reports a failure to the outbox itself
            else:  # no delivery loaded: the outbox keeps the announcement for later
                log.warning("no delivery for %s of game %s", reply.key, game_id)
        if replies:  # (a turn with nothing to post: none due, or a move held to fold)
            self.posted.set()

    async def after_interactions(self, game_id: int) -> None:
        """Wait while an interaction in the game's channel or thread is still being answered:
        the human move this answers, or a new game's thread (数字将棋's computer sends its
        arrangement the moment the game starts), must be posted first."""
        loc = await self.bot.service.play.place(game_id)
        if loc is not None:
            await self.bot.flights.clear((loc.channel_id, loc.thread_id))


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, BanmenBot)
    await bot.add_cog(ComputerCog(bot))
