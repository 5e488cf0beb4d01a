"""What the buttons and cogs need of the bot, as a protocol: the service, the settings, the
interactions in flight and the two entry points a component hands its interaction to. The client
implements it; nothing here imports the client, so the adapter's modules import each other in one
direction only."""

from __future__ import annotations

import asyncio
import weakref
from typing import Any, Protocol, runtime_checkable

import discord

from bot.config import Settings
from bot.discord.flights import Flights
from bot.discord.relay import Relay
from bot.service import Action, GameService, Scope, Target


@runtime_checkable
class Host(Protocol):
    service: GameService
    settings: Settings
    flights: Flights
    card_locks: weakref.WeakValueDictionary[int, asyncio.Lock]
    """Per game, held while its newest card changes hands (:func:`retire_previous`)."""
    newest_cards: dict[int, discord.Message]
    """Per game, its newest card as posted (see :func:`bot.discord.actions.remember_card`)."""
    relay: Relay
    """Per game reached only through interactions, the newest one (bot/discord/relay.py)."""

    async def run_action(
        self, interaction: discord.Interaction[Any], action: str, target: Target, arg: str | None
    ) -> None:
        """A button was pressed: ``action`` (as posted) on ``target`` with ``arg``."""

    async def fetch_user(self, user_id: int, /) -> discord.User:
        """A user by id (``discord.Client`` has it)."""
        ...

    def get_partial_messageable(
        self, id: int, *, guild_id: int | None = None, type: discord.ChannelType | None = None
    ) -> discord.PartialMessageable:
        """A channel to send to or edit in by id (``discord.Client`` has it)."""
        ...

    async def submit_text(
        self, interaction: discord.Interaction[Any], action: Action, target: Target, text: str
    ) -> None:
        """The text an action takes (a move, a secret setup) was typed in its modal."""

    async def show_leaderboard(
        self,
        interaction: discord.Interaction[Any],
        game_type: str,
        scope: Scope,
        page: int,
        provisional: bool,
    ) -> None:
        """A leaderboard page button was pressed."""


def host_of(interaction: discord.Interaction[Any]) -> Host:
    client = interaction.client
    if not isinstance(client, Host):
        raise TypeError(f"{type(client).__name__} is not a Banmen host")
    return client
