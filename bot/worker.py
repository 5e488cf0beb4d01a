"""What runs first in each process of the AI's pool (see ``bot/service/thinking.py``).

A spawned worker must not outlive the bot: a ``ProcessPoolExecutor`` worker holds both ends of
its task queue, so when the bot is killed (SIGKILL, OOM) it would wait for work for ever, keeping
the bot's pipes open. :func:`follow_parent` watches the parent's sentinel (readable once the
parent has gone) in a daemon thread and ends the worker then. Kept apart from the service
package so that a worker imports nothing of the bot but this module.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import threading


def follow_parent() -> None:
    """In a spawned worker: exit as soon as the process that started it is gone."""
    parent = multiprocessing.parent_process()
    if parent is None:  # not a child of a multiprocessing parent: nothing to follow
        return
    sentinel = parent.sentinel

    def watch() -> None:
        multiprocessing.connection.wait([sentinel])
        os._exit(0)

    threading.Thread(target=watch, name="banmen-follow-parent", daemon=True).start()
