"""What every use case shares: the store, the clock, the settings, the game cache, pictures and
server settings. One :class:`Context` per service; the use-case modules take it."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from bot.clock import Clock, to_ms
from bot.config import Settings
from bot.i18n import clean_text
from bot.model import Change
from bot.service.cache import Announce, GameCache, Loaded
from bot.service.present import Pictures
from bot.service.values import GuildSettings, Reply, User
from bot.store import Store
from engines.core import State


def clean_user(user: User) -> User:
    """``user`` with a name and id the store and every adapter can encode."""
    name, uid = clean_text(user.name), clean_text(user.id)
    return user if (name, uid) == (user.name, user.id) else replace(user, id=uid, name=name)


def clean_name(user: User) -> User:
    """``user`` with a display name the store can encode (the id is the platform's own)."""
    name = clean_text(user.name)
    return user if name == user.name else replace(user, name=name)


Shuffle = Callable[[list[Any]], None]
"""Puts a list in a random order, in place (like ``random.shuffle``): how seats are drawn."""

SEAT_RANDOM = secrets.SystemRandom()
"""The operating system's randomness: nobody can predict who sits where."""
draw_seats: Shuffle = SEAT_RANDOM.shuffle
"""The default seat draw (tests inject their own)."""


@dataclass
class Context:
    store: Store
    clock: Clock
    settings: Settings
    games: GameCache
    pictures: Pictures
    shuffle: Shuffle = draw_seats
    _guilds: dict[str, GuildSettings] = field(default_factory=dict)

    def now_ms(self) -> int:
        return to_ms(self.clock.now())

    async def announce(
        self,
        loaded: Loaded,
        change: Change,
        announce: Announce,
        state: State[Any] | None = None,
        last_move: Any = ...,
    ) -> Reply:
        """Commit ``change`` with the one announcement ``announce`` makes of the new game (kept
        in the outbox in the same transaction); the reply comes back keyed, with the
        spectator's picture if it shows one."""
        new, replies = await self.games.commit_announcing(
            loaded, change, state, last_move, announce=announce, at_ms=self.now_ms()
        )
        (reply,) = replies
        if reply.picture:
            reply = await self.pictures.on(reply, new, None)
        return reply

    async def remember_user(self, user: User) -> None:
        """Keep the user's latest name (cleaned of anything UTF-8 cannot hold: the seats of
        every game read their names from here)."""
        user = clean_name(user)
        await self.store.upsert_user(user.id, user.name, self.now_ms())

    async def guild(self, guild_id: str | None) -> GuildSettings:
        """A server's settings (cached: they change only through :meth:`guild_changed`)."""
        if guild_id is None:
            return GuildSettings()
        cached = self._guilds.get(guild_id)
        if cached is None:
            cached = GuildSettings.from_stored(await self.store.guild_settings(guild_id))
            self._guilds[guild_id] = cached
        return cached

    def guild_cached(self, guild_id: str | None) -> GuildSettings:
        """A server's settings if :meth:`guild` read them already, else the defaults (for code
        that cannot wait: a commit's hooks)."""
        return self._guilds.get(guild_id or "", GuildSettings())

    def guild_changed(self, guild_id: str) -> None:
        self._guilds.pop(guild_id, None)
