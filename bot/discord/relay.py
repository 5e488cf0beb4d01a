"""Games the bot reaches only through interactions (issue 48, docs/anywhere.md).

As a user-installed app, Banmen plays in direct messages and group DMs between people, and in
servers that did not add it; it cannot post there, only answer the interactions people make
there: a token that lasts 15 minutes, at most five follow-ups where only a user installed the
app. A game there (``Location.reach == INTERACTION_ONLY``) keeps the newest interaction made
in it (a command, a button), and whatever the game posts next (the computer's move, a
reminder, a result) goes out as a follow-up of it while it can; when it cannot, the
announcement waits in the outbox and the next interaction in the game carries it.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Protocol

import discord

from bot.discord.format import MessageParts

TOKEN_SECONDS = 15 * 60.0
"""How long an interaction's token lasts (Discord's 15 minutes)."""
MARGIN_SECONDS = 60.0
"""A token is not used in its last minute (a follow-up begun then may arrive too late)."""
FOLLOWUPS = 5
"""Follow-ups a token may send where only a user installed the app."""
NOTICES_KEPT = 10_000
"""Announcements remembered as told by direct message (a waiting one is retried for days)."""
EXPIRED_CODES = frozenset({50027, 10015, 40094})
"""Discord's answers when a token can no longer send: invalid webhook token, unknown
webhook, the follow-ups used up."""


class Answering(Protocol):
    """What answers one interaction (``actions.Responder``): its interaction, when it came
    and the follow-ups it sent."""

    interaction: discord.Interaction[Any]
    received: float
    followups: int

    async def send(self, parts: MessageParts) -> discord.Message | None:
        """Send one message as the answer, or as a follow-up once answered."""
        ...


def posts_there(interaction: discord.Interaction[Any]) -> bool:
    """Whether the bot can post where ``interaction`` was made: a server that added it (a
    guild install), or its own direct messages; not a DM or group DM between people, nor a
    server where only a user installed it."""
    context = interaction.context
    if context.private_channel:
        return False
    if context.guild or interaction.guild_id is not None:
        return interaction.is_guild_integration()
    return True


def followups_left(answering: Answering) -> int:
    """How many more follow-ups the interaction's token may send."""
    if answering.interaction.is_guild_integration():
        return 1_000_000
    return max(0, FOLLOWUPS - answering.followups)


def is_spent(error: discord.HTTPException) -> bool:
    """Whether ``error`` says the token can no longer send (expired, or its follow-ups used)."""
    return error.code in EXPIRED_CODES or error.status == 401


class Relay:
    """Per game reached only through interactions, the newest interaction made in it."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._games: dict[int, Answering] = {}
        self._noticed: OrderedDict[str, None] = OrderedDict()
        """Announcements whose players were told by direct message (the newest
        :data:`NOTICES_KEPT`)."""

    def remember(self, game_id: int, answering: Answering) -> None:
        """``answering``'s interaction was made in the game's place: it carries what comes next."""
        known = self._games.get(game_id)
        if known is None or known.received <= answering.received:
            self._games[game_id] = answering

    def usable(self, game_id: int) -> Answering | None:
        """The game's interaction, while its token may still send a follow-up."""
        answering = self._games.get(game_id)
        if answering is None:
            return None
        fresh = self.clock() - answering.received < TOKEN_SECONDS - MARGIN_SECONDS
        if not fresh or followups_left(answering) <= 0:
            self._games.pop(game_id, None)
            return None
        return answering

    def first_notice(self, key: str) -> bool:
        """Whether the players of announcement ``key`` are to be told by direct message now
        (the first time it is asked of a key)."""
        if key in self._noticed:
            return False
        self._noticed[key] = None
        while len(self._noticed) > NOTICES_KEPT:
            self._noticed.popitem(last=False)
        return True

    def forget(self, game_id: int, answering: Answering | None = None) -> None:
        """The game's interaction can send no more (``answering``: only if it is still that)."""
        if answering is None or self._games.get(game_id) is answering:
            self._games.pop(game_id, None)


class Waiting(Exception):
    """An announcement of a game reached only through interactions, with no interaction to
    carry it now: it waits for the next one (the outbox keeps it)."""
