"""Discord's REST rate limits, as the Discord double enforces them (issue 49, 5).

- **The global limit**: 50 requests a second for the bot's token, across every process that
  uses it. Past it, a 429 with ``{"global": true, "retry_after": s}``, the headers
  ``Retry-After`` and ``X-RateLimit-Global`` / ``X-RateLimit-Scope: global``. Interaction
  callbacks and interaction webhooks (``/interactions/``, ``/webhooks/``) are not counted, as
  Discord counts them apart.
- **Per-route buckets**, opt-in per test (:meth:`Limits.bucket`): ``limit`` requests per
  ``seconds`` for a method and a path pattern, per path (Discord's buckets are per channel).
  Every answer of such a route says ``X-RateLimit-Limit``, ``-Remaining``, ``-Reset-After`` and
  ``-Bucket`` (discord.py waits on them before it is refused); past it, a 429 with
  ``"global": false`` and ``X-RateLimit-Scope: user``.

Every 429 is counted in :attr:`Limits.refused` (by scope), so a test proves no process ran
into the global limit. ``scale`` shortens every window (0.1: a second is a tenth) so a test of
the limits runs quickly; the default is Discord's.
"""

from __future__ import annotations

import re
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field

GLOBAL_PER_SECOND = 50
UNCOUNTED = ("/interactions/", "/webhooks/")
FROM_DISCORD = {"Via": "1.1 google"}
"""Discord's own 429s come through its proxy; one without ``Via`` is Cloudflare refusing the
address (discord.py raises it, since waiting would not help)."""


@dataclass
class Bucket:
    method: str
    pattern: re.Pattern[str]
    limit: int
    seconds: float
    name: str
    seen: dict[str, deque[float]] = field(default_factory=dict)


@dataclass
class Limits:
    global_per_second: int | None = GLOBAL_PER_SECOND
    """None: no global limit (a test that is about something else may lift it)."""
    scale: float = 1.0
    clock: Callable[[], float] = time.monotonic
    buckets: list[Bucket] = field(default_factory=list)
    refused: Counter[str] = field(default_factory=Counter)
    """429s answered, by scope (``global``, ``user``)."""
    _window_end: float = float("-inf")
    _count: int = 0

    def bucket(self, method: str, pattern: str, limit: int, seconds: float) -> None:
        """Limit ``method`` on paths matching ``pattern`` to ``limit`` a ``seconds`` (each
        path its own count, as Discord keys a channel's messages by the channel)."""
        name = f"{method}:{pattern}"
        self.buckets.append(Bucket(method, re.compile(pattern + "$"), limit, seconds, name))

    def check(self, method: str, path: str) -> tuple[dict[str, str], dict[str, object] | None]:
        """The rate-limit headers of a request, and the 429 body when it is refused."""
        now = self.clock()
        if self.global_per_second is not None and not path.startswith(UNCOUNTED):
            # a window of a second from its first request, as Discord resets the global count
            window = self.scale
            if now >= self._window_end:
                self._window_end, self._count = now + window, 0
            if self._count >= self.global_per_second:
                after = self._window_end - now
                self.refused["global"] += 1
                headers = FROM_DISCORD | {
                    "Retry-After": f"{max(after, 0.0):.3f}",
                    "X-RateLimit-Global": "true",
                    "X-RateLimit-Scope": "global",
                }
                body = {"message": "You are being rate limited.", "retry_after": after}
                return headers, body | {"global": True}
            self._count += 1
        for b in self.buckets:
            if b.method != method or not b.pattern.match(path):
                continue
            window = b.seconds * self.scale
            seen = b.seen.setdefault(path, deque())
            while seen and seen[0] <= now - window:
                seen.popleft()
            headers = {"X-RateLimit-Limit": str(b.limit), "X-RateLimit-Bucket": b.name}
            if len(seen) >= b.limit:
                after = seen[0] + window - now
                self.refused["user"] += 1
                headers |= FROM_DISCORD | {
                    "X-RateLimit-Remaining": "0",
                    "X-RateLimit-Reset-After": f"{after:.3f}",
                    "Retry-After": f"{after:.3f}",
                    "X-RateLimit-Scope": "user",
                }
                body = {"message": "You are being rate limited.", "retry_after": after}
                return headers, body | {"global": False}
            seen.append(now)
            reset = seen[0] + window - now
            headers |= {
                "X-RateLimit-Remaining": str(b.limit - len(seen)),
                "X-RateLimit-Reset-After": f"{reset:.3f}",
                "X-RateLimit-Reset": f"{time.time() + reset:.3f}",
            }
            return headers, None
        return {}, None
