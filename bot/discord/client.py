"""The Discord client: a ``commands.Bot`` whose cogs are thin adapters over the game service.

``setup_hook`` loads the explicit extension list, registers the persistent buttons
(``DynamicItem``), installs the Japanese translator, syncs the commands to the development guild
(global sync only on request) and starts the delivery of reminders and timeouts and the computer
player. ``close`` stops all of it within a bound (see :mod:`bot.discord.stopping`).
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from typing import Any

import discord
import yarl
from discord import app_commands
from discord.ext import commands

from bot.config import Settings
from bot.discord import actions
from bot.discord.budget import budgeted
from bot.discord.errors import on_tree_error
from bot.discord.flights import Flights
from bot.discord.relay import Relay
from bot.discord.stopping import stop_tasks
from bot.discord.translator import BanmenTranslator
from bot.discord.views import GameButton, JumpSelect, PageButton, PuzzleButton
from bot.service import Action, GameService, Scope, Target

log = logging.getLogger("banmen.discord")

EXTENSIONS: tuple[str, ...] = (
    "bot.discord.cogs.play",
    "bot.discord.cogs.moves",
    "bot.discord.cogs.info",
    "bot.discord.cogs.rules",
    "bot.discord.cogs.learn",
    "bot.discord.cogs.stats",
    "bot.discord.cogs.ratings",
    "bot.discord.cogs.admin",
    "bot.discord.cogs.timers",
    "bot.discord.cogs.computer",
    "bot.discord.cogs.puzzles",
    "bot.discord.cogs.correspondence",
    "bot.discord.cogs.review",
    "bot.discord.cogs.explore",
    "bot.discord.cogs.tournament",
)
"""Every cog, loaded in this order (no discovery: what runs is what is listed)."""

NO_MENTIONS = discord.AllowedMentions.none()
ENTRY_POINT = 4
"""The application command type PRIMARY_ENTRY_POINT: the "Launch" command Discord makes for an
application whose Activities are on (discord.py 2.7 has no name for it)."""


def point_at(api_base: str | None, gateway_url: str | None) -> None:
    """Send REST calls to ``api_base`` and connect to ``gateway_url`` (a Discord double).

    discord.py builds every REST URL from ``Route.BASE`` and a plain client connects to
    ``DiscordWebSocket.DEFAULT_GATEWAY`` without asking the REST API, so these two are enough.
    """
    if api_base:
        discord.http.Route.BASE = api_base.rstrip("/")
    if gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


class BanmenTree(app_commands.CommandTree["BanmenBot"]):
    """The command tree; its ``on_error`` is the one handler for every slash command."""

    async def on_error(
        self, interaction: discord.Interaction[BanmenBot], error: app_commands.AppCommandError, /
    ) -> None:
        await on_tree_error(interaction, error)


class BanmenBot(commands.AutoShardedBot):
    """The bot: holds the service and the settings; everything else lives in cogs.

    Sharded (``AutoShardedBot``): with ``settings.shard_ids`` it runs only those shards of
    ``settings.shard_count``, so several processes (one PostgreSQL) share the guilds; without,
    all shards, as many as Discord advises. The timers deliver only what this process's shards
    hold (``settings.owns``).
    """

    def __init__(
        self,
        service: GameService,
        settings: Settings,
        *,
        sync_global: bool = False,
        guild_ready_timeout: float = 2.0,
    ) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        shards: dict[str, Any] = {"shard_count": settings.shard_count}
        if settings.shard_ids is not None:
            shards["shard_ids"] = list(settings.shard_ids)
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            allowed_mentions=NO_MENTIONS,
            help_command=None,
            tree_cls=BanmenTree,
            # Issue 48: installed by a server or by a user; a command is offered in servers,
            # in the bot's DMs and in DMs and group DMs between people unless it says less
            allowed_installs=app_commands.AppInstallationType(guild=True, user=True),
            allowed_contexts=app_commands.AppCommandContext(
                guild=True, dm_channel=True, private_channel=True
            ),
            guild_ready_timeout=guild_ready_timeout,
            # Interactions carry what the bot needs; no message cache is kept.
            max_messages=None,
            **shards,
        )
        self.service = service
        self.settings = settings
        self.sync_global = sync_global
        self.synced = asyncio.Event()
        self.flights = Flights()
        self._warm_ups: list[asyncio.Task[None]] = []
        self.card_locks: weakref.WeakValueDictionary[int, asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )
        """Per game, held while its newest card changes hands (actions.retire_previous)."""
        self.newest_cards: dict[int, discord.Message] = {}
        """Per game, its newest card as posted (actions.remember_card)."""
        self.relay = Relay()
        """Per game reached only through interactions, the newest one (issue 48)."""
        # every request to Discord takes a slot of the budget all processes share (issue 49)
        self.http.request = budgeted(self.http.request, service.rest_slot)  # type: ignore[method-assign]
        self._concurrency: int | None = None
        """Discord's ``max_concurrency`` (logins at once), asked at the first login."""

    async def setup_hook(self) -> None:
        point_at(self.settings.discord_api_base, self.settings.discord_gateway_url)
        await self.tree.set_translator(BanmenTranslator())
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        self.add_dynamic_items(GameButton, JumpSelect, PageButton, PuzzleButton)
        # Build every game's picture caches off the event loop while the bot connects.
        self._warm_ups = [
            asyncio.create_task(self.service.warm_up_pictures(), name="banmen-warm-up-pictures"),
            asyncio.create_task(self.service.play.warm_up_ai(), name="banmen-warm-up-ai"),
        ]
        await self.sync_commands()

    async def sync_commands(self) -> list[app_commands.AppCommand]:
        """Sync to the development guild when one is set; globally only when asked to."""
        synced: list[app_commands.AppCommand] = []
        if self.settings.dev_guild_id:
            guild = discord.Object(int(self.settings.dev_guild_id))
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to guild %s", len(synced), guild.id)
        if self.sync_global:
            synced = await self.sync_global_commands()
            log.info("synced %d commands globally", len(synced))
        self.synced.set()
        return synced

    async def sync_global_commands(self) -> list[app_commands.AppCommand]:
        """The global commands, as ``tree.sync()`` writes them, but carrying along the Entry
        Point command (type 4, "Launch") that enabling Activities makes: discord.py does not
        know that type, and Discord refuses a bulk overwrite that would drop it (50240), so
        no command at all would be synced (issue 51, 3)."""
        app_id = self.application_id
        assert app_id is not None
        existing = await self.http.get_global_commands(app_id)
        entry_points = [dict(c) for c in existing if c.get("type") == ENTRY_POINT]
        if not entry_points:
            return await self.tree.sync()
        translator = self.tree.translator
        payload: list[Any] = []
        for command in self.tree.get_commands():
            if translator is None:
                payload.append(command.to_dict(self.tree))
            else:
                payload.append(await command.get_translated_payload(self.tree, translator))
        kept = ("id", "type", "name", "description", "handler", "integration_types", "contexts")
        payload += [{k: c[k] for k in kept if k in c} for c in entry_points]
        data = await self.http.bulk_upsert_global_commands(app_id, payload=payload)
        return [
            app_commands.AppCommand(data=d, state=self._connection)
            for d in data
            if d.get("type") != ENTRY_POINT
        ]

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Queued logins (issue 49): wait for the turn of this shard's ``max_concurrency``
        bucket across every process on the store (Discord allows one IDENTIFY a bucket every
        5 s), instead of discord.py's 5 s sleep, which spaces only one process's own logins.
        A restarted process waits its turn the same way."""
        if self.settings.identify_interval <= 0:
            return
        if self._concurrency is None:
            try:
                self._concurrency = (await self.fetch_session_start_limits()).max_concurrency
            except discord.HTTPException:
                self._concurrency = 1  # as Discord gives every bot below very large sharding
        bucket = (shard_id or 0) % max(1, self._concurrency)
        while (wait := await self.service.login_turn(bucket, int(time.time() * 1000))) > 0:
            log.info("shard %s waits %.1f s for its login turn (bucket %s)", shard_id, wait, bucket)
            await asyncio.sleep(wait)

    async def on_ready(self) -> None:
        user = self.user
        log.info("connected as %s (%s) to %d guilds", user, user and user.id, len(self.guilds))

    async def close(self) -> None:
        """Stop the warm-ups, unload the cogs (each stops its own tasks, never waiting longer
        than :data:`~bot.discord.stopping.STOP_SECONDS`), close the gateway and HTTP."""
        await stop_tasks(self._warm_ups)
        await super().close()

    async def connect(self, *, reconnect: bool = True) -> None:
        try:
            await super().connect(reconnect=reconnect)
        finally:
            # A reconnect under way when the bot closed opens its new gateway after close()
            # closed the old one: close that too (its keep-alive thread would outlive the bot).
            if self.is_closed():
                for shard in self.shards.values():
                    if not shard.is_closed():
                        await shard.disconnect()

    async def start(self, token: str, *, reconnect: bool = True) -> None:
        # The endpoints must be set before login, which happens before setup_hook.
        point_at(self.settings.discord_api_base, self.settings.discord_gateway_url)
        await super().start(token, reconnect=reconnect)

    async def run_action(
        self, interaction: discord.Interaction[Any], action: str, target: Target, arg: str | None
    ) -> None:
        await actions.run_action(interaction, action, target, arg)

    async def submit_text(
        self, interaction: discord.Interaction[Any], action: Action, target: Target, text: str
    ) -> None:
        await actions.submit_text(interaction, action, target, text)

    async def show_leaderboard(
        self,
        interaction: discord.Interaction[Any],
        game_type: str,
        scope: Scope,
        page: int,
        provisional: bool,
    ) -> None:
        await actions.show_leaderboard(interaction, game_type, scope, page, provisional)

    async def on_error(self, event_method: str, /, *args: Any, **kwargs: Any) -> None:
        log.exception("error in event %s", event_method)
