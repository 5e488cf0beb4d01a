"""Correspondence play, as adapters reach it: ``service.correspond``. Vacations that stop a
player's clocks (docs/correspondence.md), conditional moves (``/premove``), how a player is told
(turn pings, the daily digest, quiet hours) and how long a game's thread stays open."""

from __future__ import annotations

import asyncio
from datetime import datetime

from bot.service.context import Context
from bot.service.correspond.notices import DigestPosts, Notices
from bot.service.correspond.premoves import Premoves
from bot.service.correspond.threads import Threads
from bot.service.correspond.vacation import Vacations
from bot.service.guard import entry
from bot.service.play.front import Play
from bot.service.values import Reply, User


class Correspond:
    """The correspond capability's use cases (``service.correspond``)."""

    def __init__(self, ctx: Context, play: Play, changed: asyncio.Event) -> None:
        """``changed``: the event the root's timer loop waits on (a vacation's end or a digest
        moves the next due time)."""
        self.vacations = Vacations(ctx, changed)
        self.premoves = Premoves(ctx, play.turns)
        self.notices = Notices(ctx, changed)
        self.digests = DigestPosts(self.notices)
        """The outbox's digest kind (registered by the root)."""
        self.threads = Threads(ctx)

    async def restore(self) -> None:
        """Stopped clocks first (they are no deadlines to the timers), then the notices."""
        await self.vacations.restore()
        await self.notices.restore()

    def next_at(self, others: datetime | None) -> datetime | None:
        """The earlier of ``others`` and the next vacation end (the digests are the outbox's)."""
        return self.vacations.next_at(others)

    # -- vacations -----------------------------------------------------------------------------
    @entry
    async def start_vacation(self, user: User, until: str | None = None) -> list[Reply]:
        """Go on vacation now, until ``until`` (a date, a date and UTC time, or a duration) or
        until :meth:`end_vacation`: the replies include a notice for each stopped game."""
        return await self.vacations.start(user, until)

    @entry
    async def end_vacation(self, user: User) -> list[Reply]:
        """Back from vacation: every clock it held runs again from now."""
        return await self.vacations.stop(user)

    @entry
    async def vacation_status(self, user: User) -> Reply:
        """Whether the user is away, and the allowance left this year."""
        return await self.vacations.status(user)

    # -- conditional moves ---------------------------------------------------------------------
    @entry
    async def add_premove(self, game_id: int, user: User, line: str) -> Reply:
        """Keep a line of conditional moves (``if they play X, I reply Y``) in ``game_id``."""
        return await self.premoves.add(game_id, user, line)

    @entry
    async def premove_lines(self, game_id: int, user: User) -> Reply:
        """The user's lines in ``game_id`` (privately)."""
        return await self.premoves.show(game_id, user)

    @entry
    async def clear_premoves(self, game_id: int, user: User) -> Reply:
        return await self.premoves.clear(game_id, user)

    @entry
    async def premove_choices(self, game_id: int, user: User, typed: str) -> list[str]:
        """Autocomplete for a line being typed: legal continuations of ``typed``."""
        return await self.premoves.choices(game_id, user, typed)

    # -- notices -------------------------------------------------------------------------------
    @entry
    async def configure_notices(
        self,
        user: User,
        *,
        ping: bool | None = None,
        digest: bool | None = None,
        hour: int | None = None,
        timezone: str | None = None,
        quiet: str | None = None,
    ) -> Reply:
        """Change any of the user's notice preferences (answered privately with all of them)."""
        return await self.notices.configure(
            user, ping=ping, digest=digest, hour=hour, timezone=timezone, quiet=quiet
        )

    def shape(self, reply: Reply) -> Reply:
        """``reply`` as its pinged users want it now (a ping they turned off, or in their quiet
        hours, comes silently): adapters shape every message that pings when they post it."""
        return self.notices.shape(reply)

    @entry
    async def dm_closed(self, user_id: str) -> None:
        """The user's direct messages refused a digest: none is tried again until they change a
        preference."""
        await self.notices.dm_closed(user_id)

    # -- threads -------------------------------------------------------------------------------
    @entry
    async def archive_minutes(self, game_id: int) -> int:
        """Minutes the game's thread may be idle before it is archived: a week while it runs,
        the server's ``archive_after`` once it is over."""
        return await self.threads.archive_minutes(game_id)
