"""What every use case shares: the store, the clock, the settings, the game cache, pictures and
server settings. One :class:`Context` per service; the use-case modules take it."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.clock import Clock, to_ms
from bot.config import Settings
from bot.service.cache import GameCache
from bot.service.present import Pictures
from bot.service.values import GuildSettings, User
from bot.store import Store


@dataclass
class Context:
    store: Store
    clock: Clock
    settings: Settings
    games: GameCache
    pictures: Pictures
    _guilds: dict[str, GuildSettings] = field(default_factory=dict)

    def now_ms(self) -> int:
        return to_ms(self.clock.now())

    async def remember_user(self, user: User) -> None:
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

    def guild_changed(self, guild_id: str) -> None:
        self._guilds.pop(guild_id, None)
