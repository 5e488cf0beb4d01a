"""Every process's requests to Discord within one budget (issue 49, 1; docs/operations.md).

Discord's REST limit is global to the bot: 50 requests a second across all its processes, a
429 past it, and a ban of the address for an hour after too many refused requests. Each
process throttles only itself in discord.py, so several processes (computer replies,
reminders, timeouts, digests, tournament posts at once) could run into it together. Here every
request discord.py sends through its ``HTTPClient`` first takes a slot of one shared budget kept
in the store (``GameService.rest_slots``: PostgreSQL for several processes), waiting when there
is none. Interaction answers and follow-ups go through Discord's webhooks, which it does not
count: they are not budgeted. What is not urgent (a digest, a reminder, a tournament's post)
runs inside :func:`not_urgent` and only takes an idle slot, so moves go first.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterator
from contextvars import ContextVar
from typing import Any

URGENT: ContextVar[bool] = ContextVar("banmen_rest_urgent", default=True)
"""Whether the requests of the current task are urgent (the default) or may yield."""


@contextlib.contextmanager
def not_urgent() -> Iterator[None]:
    """The requests made inside wait for an idle slot of the budget (moves go first)."""
    token = URGENT.set(False)
    try:
        yield
    finally:
        URGENT.reset(token)


SlotsTaker = Callable[[int, bool, int], Awaitable[tuple[list[int], float]]]
"""``GameService.rest_slots``: (wall clock ms, urgent, how many) → the wall-clock ms at which
each slot taken may be sent, or none and the seconds to wait."""
MAX_ASKED = 8
"""Slots a process asks for at once at most (more would hold them from the other
processes)."""
STALE_MS = 100
"""A slot left unused this long past its time is dropped (sent later, it could bunch with the
slots taken since)."""


def budgeted(request: Callable[..., Awaitable[Any]], take: SlotsTaker) -> Callable[..., Any]:
    """``request`` (discord.py's ``HTTPClient.request``) that first takes a slot of the
    shared budget, sleeping as long as the budget says (its clock is the wall clock: Discord
    counts real seconds, across machines). Within a process the requests wait for their turn
    in line, the urgent and the others apart (so a reminder waiting for an idle slot never
    holds up a move's post), and the first in line asks the store for as many slots as there
    are requests waiting: under a burst, one round trip serves several."""
    # A crowd waking at once to ask again would hammer the budget's one row: one request of
    # each kind asks at a time, the others queue here, in order
    queues = {True: asyncio.Lock(), False: asyncio.Lock()}
    ready: dict[bool, deque[int]] = {True: deque(), False: deque()}
    waiting = {True: 0, False: 0}

    async def slot(urgent: bool) -> int:
        """The wall-clock ms at which this request may be sent."""
        waiting[urgent] += 1
        try:
            async with queues[urgent]:
                slots = ready[urgent]
                while True:
                    now = int(time.time() * 1000)
                    while slots and slots[0] < now - STALE_MS:
                        slots.popleft()
                    if slots:
                        return slots.popleft()
                    times, wait = await take(now, urgent, min(waiting[urgent], MAX_ASKED))
                    slots.extend(times)
                    if not times:
                        await asyncio.sleep(wait)
        finally:
            waiting[urgent] -= 1

    async def send(*args: Any, **kwargs: Any) -> Any:
        at = await slot(URGENT.get())
        early = at / 1000 - time.time()
        if early > 0:  # a slot of a batch, a little later than the first
            await asyncio.sleep(early)
        return await request(*args, **kwargs)

    return send
