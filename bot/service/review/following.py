"""How the site follows games that other processes change (issue 49, 3): the live pages'
waits, and, in a site process, the copies of the games it reads.

In the bot's own process every change is committed here, and :class:`Following` only wakes the
pages waiting on the game. A site process (``python -m bot site``) commits almost nothing: the
bot processes do. On PostgreSQL it hears every commit (a NOTIFY of the game, its version and
its server); on SQLite it reads the waited-on games' versions every :data:`POLL_SECONDS`.

A site process keeps a copy of each game it read, and serves it again only while the
notifications say no newer version was committed (:meth:`Following.read`). A game is then
read once per move however many pages show it, where every page's every look used to read and
replay it: at 200 games on two cores the site spent half its time there, and its pages fell
seconds behind the moves. The copies are kept only while the notifications are heard: without
them (SQLite, or the listening connection lost until it is back) every read goes to the store.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable

from bot.model import GameRow
from bot.service.cache import Loaded
from bot.service.context import Context

log = logging.getLogger("banmen.site")

POLL_SECONDS = 0.25
"""How often a site process on SQLite reads the versions of the games its pages wait on
(issue 49: a move made by a bot process reaches every page well within a second)."""
CHECK_SECONDS = 5.0
"""How often a site process on PostgreSQL reads them as well as listening (a notification
lost with a connection delays a page by this much at most)."""
TOLD_KEPT = 10_000
"""Games whose latest version the notifications told are remembered at most (the oldest
forgotten first: a game with none is read from the store)."""
COPIES = 2_000
"""Games a site process keeps a copy of at most (the least recently read dropped first)."""


class Following:
    """The pages' waits for changes, and a site process's copies of the games it reads."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self._changed: dict[int, asyncio.Event] = {}
        """The event each waited-on game's pages wait on (set and dropped at its change)."""
        self._seen: dict[int, int] = {}
        """The version each waited-on game was last seen at (the versions' poll)."""
        self._told: OrderedDict[int, int] = OrderedDict()
        """The latest version the notifications told of each game (a site process)."""
        self._copies: OrderedDict[int, Loaded] = OrderedDict()
        """A site process's copies of the games it read, kept while the notifications are
        heard."""
        self._hearing = False
        """The notifications are heard now (a site process on PostgreSQL, listening)."""
        self._epoch = 0
        """Counts the times the notifications were lost or heard again."""
        self._poller: asyncio.Task[None] | None = None
        self._listening: Callable[[], Awaitable[None]] | None = None
        """Stops the store's notifications of changes (PostgreSQL), once listened to."""
        self._listen_asked = False
        self._listen_lock = asyncio.Lock()
        ctx.games.listen(self._committed)

    @property
    def elsewhere(self) -> bool:
        """The moves are made by other processes (this is a site process)."""
        return self.ctx.settings.site_process

    async def read(self, game_id: int) -> Loaded:
        """The game as last committed: in a site process that hears every commit, its copy
        while no newer version was told, else read from the store (and kept)."""
        if not self.elsewhere:
            return await self.ctx.games.read(game_id)
        await self.listen()
        copy = self._copies.get(game_id)
        told = self._told.get(game_id)
        if copy is not None and self._hearing and told is not None and copy.row.version >= told:
            self._copies.move_to_end(game_id)
            return copy
        epoch = self._epoch  # a copy read while the notifications were lost is not kept
        loaded = await self.ctx.games.read(game_id)
        if self._hearing and epoch == self._epoch:
            self._remember(game_id, loaded.row.version)
            self._copies[game_id] = loaded
            self._copies.move_to_end(game_id)
            while len(self._copies) > COPIES:
                self._copies.popitem(last=False)
        return loaded

    async def changed(self, version: int, read: Callable[[], Awaitable[Loaded]]) -> int:
        """The game's version once it differs from ``version`` (at once if it already does):
        a running page waits here for the next move. ``read`` reads the game (as its page
        may see it)."""
        if self.elsewhere:
            await self.listen()  # before the version is read: no change slips in between
        loaded = await read()
        while loaded.row.version == version:
            # the game's event is waited on from before the read: a change committed (and, from
            # another process, heard) while the game is read wakes it, and only its own do
            event = self._changed.setdefault(loaded.id, asyncio.Event())
            loaded = await read()
            if loaded.row.version != version:
                break
            if self.elsewhere:  # the moves are made by other processes
                self._seen[loaded.id] = loaded.row.version
                if self._poller is None or self._poller.done():
                    self._poller = asyncio.create_task(self._poll(), name="banmen-site-poll")
            await event.wait()
            told = self._told.get(loaded.id)
            if told is not None and told > version:
                return told  # the notification said so: no read
        return loaded.row.version

    async def listen(self) -> None:
        """Listen to the store's notifications of changes, once (PostgreSQL; SQLite has none:
        :meth:`_poll` reads the versions)."""
        async with self._listen_lock:
            if not self._listen_asked:
                self._listen_asked = True
                self._listening = await self.ctx.store.listen_games(self._heard, self._heard_all)
                self._hearing = self._listening is not None

    def _remember(self, game_id: int, version: int) -> None:
        self._told[game_id] = max(version, self._told.get(game_id, 0))
        self._told.move_to_end(game_id)
        while len(self._told) > TOLD_KEPT:
            self._told.popitem(last=False)

    def _heard(self, game_id: int, version: int, guild_id: str | None, shown: bool) -> None:
        """A process committed a change of ``game_id`` (PostgreSQL's NOTIFY): a copy older is
        no longer the game; its pages look again if the change shows on them (a move, not the
        message of its card being recorded)."""
        self._remember(game_id, version)
        if shown:
            self._wake(game_id)
        elif self._seen.get(game_id) == version - 1:
            self._seen[game_id] = version  # (the versions' poll need not wake them either)

    def _heard_all(self, hearing: bool) -> None:
        """The notifications were lost (``False``) or are heard again (``True``): what was
        committed meanwhile went untold, so no copy is trusted and every page looks again."""
        self._hearing = hearing
        self._epoch += 1
        self._copies.clear()
        self._told.clear()
        for game_id in list(self._changed):
            self._wake(game_id)

    def _wake(self, game_id: int) -> None:
        """The pages waiting on ``game_id`` read it again."""
        self._seen.pop(game_id, None)
        event = self._changed.pop(game_id, None)
        if event is not None:
            event.set()

    def _committed(self, row: GameRow) -> None:
        self._wake(row.id)

    async def _poll(self) -> None:
        """While pages wait for moves, learn of the changes other processes commit: from
        PostgreSQL's notifications as they come (read the versions every
        :data:`CHECK_SECONDS` as well, should one be lost with a connection), else by reading
        the waited-on games' versions every :data:`POLL_SECONDS` (one indexed query for them
        all), and wake the pages of those that changed."""
        pause = CHECK_SECONDS if self._listening is not None else POLL_SECONDS
        while self._changed:
            await asyncio.sleep(pause)
            ids = list(self._changed)
            versions = await self.ctx.store.game_versions(ids)
            for game_id in ids:
                if versions.get(game_id, -1) != self._seen.get(game_id):
                    self._copies.pop(game_id, None)
                    self._wake(game_id)

    async def stop(self) -> None:
        """Stop polling and listening (the service closes)."""
        if self._poller is not None:
            self._poller.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._poller
        if self._listening is not None:
            await self._listening()
            self._listening = None
            self._hearing = False
