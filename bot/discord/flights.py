"""Interactions being answered, counted by channel (対応中の操作).

A reply the bot posts by itself (the computer player's move) must not overtake the reply to the
human action it answers: that reply, and for a new game its thread, are still being sent when the
service has already committed the human's move. :func:`bot.discord.actions.respond` marks the
interaction's channel while it answers; before posting in a game's channel or thread the bot waits
until neither is marked (never longer than ``timeout``).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from collections.abc import AsyncIterator, Iterable

WAIT_SECONDS = 10.0
"""The longest a self-posted reply waits for the interactions of its channel to be answered."""


class Flights:
    def __init__(self) -> None:
        self._open: Counter[str] = Counter()
        self._landed = asyncio.Condition()

    @contextlib.asynccontextmanager
    async def flying(self, channel_id: int | str | None) -> AsyncIterator[None]:
        """Mark ``channel_id`` while an interaction there is answered."""
        key = str(channel_id) if channel_id is not None else None
        if key is not None:
            self._open[key] += 1
        try:
            yield
        finally:
            if key is not None:
                self._open[key] -= 1
                if self._open[key] <= 0:
                    del self._open[key]
                async with self._landed:
                    self._landed.notify_all()

    def busy(self, channel_ids: Iterable[str | None]) -> bool:
        return any(c is not None and self._open[c] > 0 for c in channel_ids)

    async def clear(self, channel_ids: Iterable[str | None], timeout: float = WAIT_SECONDS) -> bool:
        """Wait until no interaction in ``channel_ids`` is being answered; False on timeout."""
        ids = list(channel_ids)
        try:
            async with asyncio.timeout(timeout), self._landed:
                await self._landed.wait_for(lambda: not self.busy(ids))
        except TimeoutError:
            return False
        return True
