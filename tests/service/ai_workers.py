"""Functions a spawned AI worker runs in the thinker tests (importable by reference)."""

from __future__ import annotations

import os
import threading
from typing import Any


def stuck(*args: Any, **kwargs: Any) -> Any:
    """A search that never stops by itself (ignores its deadline): the pool must give up on it."""
    threading.Event().wait()


def crash(*args: Any, **kwargs: Any) -> Any:
    """A worker that dies in the middle of a search (the pool breaks)."""
    os._exit(3)
