"""Threads that sleep (issue 33): how long a game's thread may stay idle before Discord
archives it.

Every game thread is opened to archive itself after a week idle (the longest Discord allows),
so a correspondence game's thread sleeps between slow moves and every post revives it. Once the
game is over its thread is only a record: it then sleeps after the server's ``archive_after``
(``/settings archive_after 1h|1d|3d|1w``, default a day), and the channel list stays short.
"""

from __future__ import annotations

from bot.service.context import Context
from bot.service.values import ARCHIVE_MINUTES

IDLE_WEEK = ARCHIVE_MINUTES["1w"]


class Threads:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    async def archive_minutes(self, game_id: int) -> int:
        """Minutes the game's thread may be idle before it is archived: a week while it runs
        (or waits for a rematch's answer), the server's ``archive_after`` once it is over."""
        cached = self.ctx.games.cached(game_id)
        loaded = cached if cached is not None else await self.ctx.games.read(game_id)
        if loaded.status.is_live:
            return IDLE_WEEK
        settings = await self.ctx.guild(loaded.row.guild_id)
        return ARCHIVE_MINUTES[settings.archive_after]
