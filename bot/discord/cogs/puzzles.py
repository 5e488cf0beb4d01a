"""``/puzzle [game]``: a puzzle from real play, privately; and the daily puzzle's posts.

A puzzle is answered as a game is: ``/move`` (its autocomplete lists the puzzle's legal moves)
and ``/hint`` outside a game's thread go to the user's open puzzle (the moves cog asks the
service's ``puzzle_of``), and the buttons on the puzzle (Move: the modal, Hint, Solution, Next)
are restart-proof ``PuzzleButton``s. The daily puzzle: a loop hands the service's due posts to
their channels (one a server and day, with a Solve button, nobody pinged) and reports each
posted; a restart posts what was not, and nothing twice.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from datetime import datetime, timedelta
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.discord.actions import guild_lang, respond, service_user
from bot.discord.client import BanmenBot
from bot.discord.format import reply_parts
from bot.discord.stopping import stop_tasks, wait_event
from bot.discord.views import reply_view
from bot.service import DailyPost, catalogue

log = logging.getLogger("banmen.discord.puzzles")

LOOK_SECONDS = 600.0
"""The loop looks for due posts at least this often (and just after each UTC midnight)."""
RETRY_SECONDS = 30.0


def puzzle_game_choices() -> list[app_commands.Choice[str]]:
    """The games with puzzles (the solitaire has none)."""
    return [
        app_commands.Choice(name=_(g.label[:100], ja=g.title.ja), value=g.id)
        for g in catalogue()
        if max(g.player_counts) >= 2
    ]


def post_nonce(key: str) -> str:
    """The post's nonce (Discord keeps one message per nonce for a while; at most 25
    characters): a digest of the post's key."""
    return hashlib.sha256(key.encode()).hexdigest()[:25]


class PuzzlesCog(commands.Cog):
    def __init__(self, bot: BanmenBot) -> None:
        self.bot = bot
        self.task: asyncio.Task[None] | None = None
        self.wake = asyncio.Event()
        """Set to look for due posts at once (a setting changed; tests)."""
        self.delivered = asyncio.Event()
        """Set after each round of posts (tests wait on it instead of sleeping)."""

    async def cog_load(self) -> None:
        self.task = asyncio.create_task(self.run(), name="banmen-daily-puzzle")

    async def cog_unload(self) -> None:
        await stop_tasks([self.task])

    @app_commands.command(
        name=_("puzzle", ja="パズル"),
        description=_(
            "A puzzle from real play, only for you: find the winning move.",
            ja="実戦から生まれたパズル（自分だけに表示）：勝ちになる手を見つけてください。",
        ),
    )
    @app_commands.describe(game=_("Which game (default: any).", ja="ゲーム（省略時はどれでも）。"))
    @app_commands.choices(game=puzzle_game_choices())
    async def puzzle(self, interaction: discord.Interaction[Any], game: str | None = None) -> None:
        user = service_user(interaction.user)
        await respond(interaction, lambda: self.bot.service.learn.puzzle(user, game))

    # -- the daily puzzle --------------------------------------------------------------------
    async def run(self) -> None:
        await self.bot.wait_until_ready()
        while not self.bot.is_closed():
            try:
                await self.round()
                wait = min(LOOK_SECONDS, self._to_midnight())
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the daily puzzle round failed; retrying in %s s", RETRY_SECONDS)
                wait = RETRY_SECONDS
            self.wake.clear()
            await wait_event(self.wake, wait)

    def _to_midnight(self) -> float:
        now = self.bot.service.clock.now()
        midnight = datetime(now.year, now.month, now.day, tzinfo=now.tzinfo) + timedelta(days=1)
        return max(1.0, (midnight - now).total_seconds() + 1.0)

    async def round(self) -> None:
        """Post every due daily puzzle and report it."""
        for post in await self.bot.service.learn.due_daily_posts():
            await self.post(post)
        self.delivered.set()

    async def post(self, post: DailyPost) -> None:
        service = self.bot.service
        try:
            where = int(post.channel_id)
            channel = self.bot.get_channel(where) or await self.bot.fetch_channel(where)
            if not isinstance(channel, discord.abc.Messageable):
                log.warning("server %s: %s takes no posts", post.guild_id, post.channel_id)
                await service.learn.daily_posted(post.guild_id, post.day)
                return
            lang = await guild_lang(self.bot, int(post.guild_id))
            parts = reply_parts(post.reply, lang, view=reply_view(post.reply, lang))
            kwargs = parts.send_kwargs()
            kwargs["allowed_mentions"] = discord.AllowedMentions.none()
            kwargs["nonce"] = post_nonce(post.reply.outbox or post.day)
            await channel.send(**kwargs)
        except (discord.NotFound, discord.Forbidden) as exc:
            # the channel is gone or closed to the bot: no retry can post it today
            log.warning("server %s: the daily puzzle cannot be posted (%s)", post.guild_id, exc)
        except Exception:
            log.exception("could not post the daily puzzle in server %s", post.guild_id)
            return
        await service.learn.daily_posted(post.guild_id, post.day)


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, BanmenBot)
    await bot.add_cog(PuzzlesCog(bot))
