"""Waiting that a shutdown can always end (停止の待ち).

The bot's own loops (the timers' delivery, the computer player) wait on events with a time
limit, and :meth:`BanmenBot.close` cancels them and waits for them to end. On Python 3.11,
``asyncio.wait_for(event.wait(), t)`` loses a cancellation that arrives just as the event is set
(it returns the event's result instead of raising), so a loop cancelled at that moment went on
waiting, up to an hour, and the close that waited for it with it. :func:`wait_event` waits
with ``asyncio.timeout``, which never loses a cancellation, and :func:`stop_tasks` never waits
longer than its bound, whatever a task does.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from typing import Any

log = logging.getLogger("banmen.discord")

STOP_SECONDS = 5.0
"""The longest a closing bot waits for one of its own tasks to end after cancelling it."""


async def wait_event(event: asyncio.Event, timeout: float | None) -> bool:
    """Wait until ``event`` is set (``True``) or ``timeout`` seconds pass (``False``)."""
    try:
        async with asyncio.timeout(timeout):
            await event.wait()
    except TimeoutError:
        return False
    return True


async def stop_tasks(
    tasks: Iterable[asyncio.Task[Any] | None], timeout: float = STOP_SECONDS
) -> bool:
    """Cancel ``tasks`` and wait at most ``timeout`` seconds for them to end; ``False`` (and a
    warning naming each) if one is still running then. What they raised is not re-raised."""
    running = {t for t in tasks if t is not None and not t.done()}
    for task in running:
        task.cancel()
    if not running:
        return True
    done, pending = await asyncio.wait(running, timeout=timeout)
    for task in done:
        if not task.cancelled() and (exc := task.exception()) is not None:
            log.warning("%s ended with %r while stopping", task.get_name(), exc)
    for task in pending:
        log.warning("%s did not stop within %.0f s; left behind", task.get_name(), timeout)
    return not pending
