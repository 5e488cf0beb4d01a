"""``/tournament`` (大会): create, start, standings, withdraw, remove; the sign-up message's
Join / Leave / Start buttons go through the action table like every button.

Who is a manager is Discord's to say: the Manage Server permission, or the role named by the
server's ``tournament_role`` setting (``/settings``). The loop here drives the tournaments: when a
game of one ends (or a sign-up deadline passes, or at start-up) it asks the service to settle
them and posts what that says: a game's first message through the timers cog (reported to the
outbox), the round and final messages in the tournament's channel.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.discord.actions import (
    already_posted,
    edit_signup,
    guild_lang,
    guild_threads,
    open_game_thread,
    post_nonce,
    respond,
    service_user,
    thread_name,
    with_game_links,
)
from bot.discord.client import BanmenBot
from bot.discord.cogs.computer import POSTER, Poster
from bot.discord.common import game_type_choices
from bot.discord.format import reply_parts
from bot.discord.stopping import stop_tasks, wait_event
from bot.discord.views import reply_view
from bot.service import Event, Reply, TournamentOptions

log = logging.getLogger("banmen.discord.tournament")

SETTLE_SECONDS = 60.0
"""The loop looks at the tournaments at least this often (a sign-up deadline needs no more)."""

FORMATS = [
    app_commands.Choice(name=_("round-robin"), value="round-robin"),
    app_commands.Choice(name=_("double round-robin"), value="double-round-robin"),
    app_commands.Choice(name=_("Swiss"), value="swiss"),
    app_commands.Choice(name=_("tables of three (三国志)"), value="tables"),
]


async def is_manager(bot: BanmenBot, interaction: discord.Interaction[Any]) -> bool:
    """Manage Server, or the server's tournament manager role."""
    member = interaction.user
    if not isinstance(member, discord.Member):
        return False
    if member.guild_permissions.manage_guild:
        return True
    role = (await bot.service.play.guild_settings(str(interaction.guild_id))).tournament_role
    return role is not None and any(str(r.id) == role for r in member.roles)


@app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)
@app_commands.allowed_installs(guilds=True, users=False)
class TournamentCog(commands.GroupCog, group_name=_("tournament")):
    """Tournaments in this server."""

    def __init__(self, bot: BanmenBot) -> None:
        self.bot = bot
        self.task: asyncio.Task[None] | None = None
        self.settled = asyncio.Event()
        """Set after each round of the loop (tests wait on it)."""
        super().__init__()

    async def cog_load(self) -> None:
        self.task = asyncio.create_task(self.run(), name="banmen-tournaments")

    async def cog_unload(self) -> None:
        await stop_tasks([self.task])

    @app_commands.command(name=_("create"), description=_("Create a tournament (managers)."))
    @app_commands.describe(
        game=_("The rule set."),
        format=_("How players are paired."),
        clock=_("The clock of every game (default: the server's)."),
        rated=_("Rate the games (default: yes)."),
        rounds=_("Rounds (Swiss and tables of three)."),
        max_players=_("The most players it takes."),
        signup_hours=_("Hours until it starts by itself (none: /tournament start)."),
        name=_("Its name."),
    )
    @app_commands.choices(game=game_type_choices(rated=True), format=FORMATS)
    async def create(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        format: str,
        clock: app_commands.Range[str, 1, 40] | None = None,
        rated: bool = True,
        rounds: app_commands.Range[int, 1, 20] | None = None,
        max_players: app_commands.Range[int, 2, 256] | None = None,
        signup_hours: app_commands.Range[int, 0, 720] | None = None,
        name: app_commands.Range[str, 1, 60] | None = None,
    ) -> None:
        manager = await is_manager(self.bot, interaction)
        how = TournamentOptions(
            game, format, name, None, clock, rated, rounds, max_players, signup_hours
        )
        user = service_user(interaction.user)
        guild, channel = str(interaction.guild_id), str(interaction.channel_id)
        await respond(
            interaction,
            lambda: self.bot.service.compete.create_tournament(
                user, how, manager=manager, guild_id=guild, channel_id=channel
            ),
        )

    @app_commands.command(name=_("start"), description=_("Start a tournament now."))
    @app_commands.describe(tournament=_("The tournament number."))
    async def start(self, interaction: discord.Interaction[Any], tournament: int) -> None:
        manager = await is_manager(self.bot, interaction)
        user = service_user(interaction.user)
        await respond(
            interaction,
            lambda: self.bot.service.compete.start_tournament(tournament, user, manager=manager),
        )

    @app_commands.command(
        name=_("cancel"), description=_("Call off a tournament that has not started (managers).")
    )
    @app_commands.describe(tournament=_("The tournament number."))
    async def cancel(self, interaction: discord.Interaction[Any], tournament: int) -> None:
        manager = await is_manager(self.bot, interaction)
        user = service_user(interaction.user)
        await respond(
            interaction,
            lambda: self.bot.service.compete.cancel_tournament(tournament, user, manager=manager),
        )

    @app_commands.command(name=_("standings"), description=_("A tournament's standings."))
    @app_commands.describe(tournament=_("The tournament number."))
    async def standings(self, interaction: discord.Interaction[Any], tournament: int) -> None:
        await respond(
            interaction, lambda: self.bot.service.compete.tournament_standings(tournament)
        )

    @app_commands.command(
        name=_("withdraw"), description=_("Leave a tournament (your remaining games are lost).")
    )
    @app_commands.describe(tournament=_("The tournament number."))
    async def withdraw(self, interaction: discord.Interaction[Any], tournament: int) -> None:
        user = service_user(interaction.user)
        await respond(
            interaction, lambda: self.bot.service.compete.leave_tournament(tournament, user)
        )

    @app_commands.command(
        name=_("remove"), description=_("Take a player out of a tournament (managers).")
    )
    @app_commands.describe(tournament=_("The tournament number."), player=_("The player."))
    async def remove(
        self, interaction: discord.Interaction[Any], tournament: int, player: discord.User
    ) -> None:
        manager = await is_manager(self.bot, interaction)
        me, target = service_user(interaction.user), service_user(player)
        await respond(
            interaction,
            lambda: self.bot.service.compete.remove_from_tournament(
                tournament, me, target, is_manager=manager
            ),
        )

    # -- the loop ---------------------------------------------------------------------------
    async def run(self) -> None:
        await self.bot.wait_until_ready()
        service = self.bot.service
        while not self.bot.is_closed():
            try:
                # a round's or the end's message: after its games (their threads are linked);
                # what a crash or a failed send left unposted the delivery loop posts (timers)
                for reply in await service.compete.settle_tournaments():
                    await self.post(reply)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("settling the tournaments failed; retrying later")
            self.settled.set()
            await wait_event(service.compete.tournament_changed, SETTLE_SECONDS)

    async def post(self, reply: Reply) -> None:
        """A round's game in a thread of its own (if the server keeps threads); everything
        else (a game's message, a round's or the end's message in the tournament's channel)
        through the poster, which reports it to the outbox."""
        if reply.game_id is not None and reply.event is Event.STARTED:
            try:
                if await self.open_thread(reply):
                    return
            except discord.HTTPException:
                log.warning("no thread for game %s; posted in its channel", reply.game_id)
        poster = self.bot.get_cog(POSTER)
        if isinstance(poster, Poster):
            await poster.post(reply)  # logs and reports a failure to the outbox itself
        else:  # no delivery loaded: the outbox keeps it for later
            log.warning("no delivery for %s", reply.outbox or reply.key)

    async def open_thread(self, reply: Reply) -> bool:
        """A round's game started by itself: the game in a thread of the tournament's channel,
        with no post there of its own (the round's post links it; Discord shows the thread's
        creation as a system line); False: the server keeps games in the channel."""
        assert reply.game_id is not None
        service = self.bot.service
        loc = await service.play.place(reply.game_id)
        if loc is None or loc.channel_id is None or loc.thread_id is not None:
            return False
        channel = self.bot.get_channel(int(loc.channel_id))
        if not isinstance(channel, discord.TextChannel):
            return False
        if not await guild_threads(self.bot, channel.guild.id):
            return False
        lang = await guild_lang(self.bot, channel.guild.id)

        async def opened() -> discord.Thread:
            # no post in the channel of its own: the round's post links every game of the round
            return await channel.create_thread(
                name=thread_name(reply, lang),
                type=discord.ChannelType.public_thread,
                auto_archive_duration=10080,
            )

        turn = reply_parts(reply, lang, view=reply_view(reply, lang))
        await open_game_thread(self.bot, reply.game_id, channel, turn, opened)
        if reply.announcements:
            await service.announced(*reply.announcements)
        return True


async def send_in_channel(bot: BanmenBot, reply: Reply, *, look_first: bool) -> None:
    """A post that is no game's (a tournament's, the daily puzzle) in its channel
    (``params["channel"]``); ``look_first``: it may have been posted before a crash, posted
    only if it is not in the channel yet."""
    channel_id = reply.params.get("channel")
    if not channel_id:
        return
    channel = bot.get_channel(int(channel_id)) or await bot.fetch_channel(int(channel_id))
    if not isinstance(channel, discord.abc.Messageable):
        log.warning("%s: channel %s takes no posts", reply.outbox, channel_id)
        return
    key = reply.outbox
    if look_first and key is not None and await already_posted(bot.user, channel, key):
        log.info("post %s was already posted", reply.outbox)
        return
    guild = getattr(channel, "guild", None)
    lang = await guild_lang(bot, guild.id if guild is not None else None)
    if reply.event is Event.TOURNAMENT_SIGNUP:  # started or called off when it was due:
        await edit_signup(bot, reply, lang)  # the sign-up message says so too
    reply = await with_game_links(bot, reply)
    kwargs = reply_parts(reply, lang, view=reply_view(reply, lang)).send_kwargs()
    if reply.event is Event.PUZZLE_DAILY:
        kwargs["allowed_mentions"] = discord.AllowedMentions.none()  # nobody pinged
    if reply.outbox is not None:
        kwargs["nonce"] = post_nonce(reply.outbox)  # one message per nonce (for minutes)
    await channel.send(**kwargs)


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, BanmenBot)
    await bot.add_cog(TournamentCog(bot))
