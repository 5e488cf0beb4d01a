"""Every process's requests to Discord within one budget (issue 49, 1; docs/operations.md).

Discord's REST limit is global to the bot: 50 requests a second across all its processes, a
429 past it, and a ban of the address for an hour after too many refused requests. Each
process throttles only itself in discord.py, so several processes (computer replies,
reminders, timeouts, digests, tournament posts at once) could run into it together. Here every
request discord.py sends through its ``HTTPClient`` first takes a slot of one shared budget kept
in the store (``GameService.rest_slot``: PostgreSQL for several processes), waiting when there
is none. Interaction answers and follow-ups go through Discord's webhooks, which it does not
count: they are not budgeted. What is not urgent (a digest, a reminder, a tournament's post)
runs inside :func:`not_urgent` and only takes an idle slot, so moves go first.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
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


SlotTaker = Callable[[int, bool], Awaitable[float]]
"""``GameService.rest_slot``: (wall clock ms, urgent) → seconds to wait (0: taken)."""


def budgeted(request: Callable[..., Awaitable[Any]], take: SlotTaker) -> Callable[..., Any]:
    """``request`` (discord.py's ``HTTPClient.request``) that first takes a slot of the
    shared budget, sleeping as long as the budget says (its clock is the wall clock: Discord
    counts real seconds, across machines). Within a process the requests wait for their turn
    to ask in line, the urgent and the others apart (so a reminder waiting for an idle slot
    never holds up a move's post)."""

    # One request of each kind at a time asks the store for its slot; the others queue here,
    # in order (a crowd waking at once to ask again would hammer the budget's one row)
    queues = {True: asyncio.Lock(), False: asyncio.Lock()}

    async def send(*args: Any, **kwargs: Any) -> Any:
        urgent = URGENT.get()
        async with queues[urgent]:
            while (wait := await take(int(time.time() * 1000), urgent)) > 0:
                await asyncio.sleep(wait)
        return await request(*args, **kwargs)

    return send
