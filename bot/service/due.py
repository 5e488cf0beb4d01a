"""Things due at a time, the next always at hand (a kernel piece: the games' clocks and the
users' digests keep one each).

A heap of (due ms, stamp, key): setting a key's time again or dropping it leaves its earlier entry
in the heap, stale by its stamp and skipped when it reaches the top, so neither asking for the
next nor taking what is due looks at every key."""

from __future__ import annotations

import heapq
from typing import Generic, TypeVar

K = TypeVar("K", int, str)


class DueQueue(Generic[K]):
    def __init__(self) -> None:
        self._heap: list[tuple[int, int, K]] = []
        self._stamps: dict[K, int] = {}
        self._stamp = 0

    def clear(self) -> None:
        self._heap, self._stamps = [], {}

    def set(self, key: K, at_ms: int | None) -> None:
        """``key`` is next due at ``at_ms`` (None: not due at all); its earlier time goes."""
        self._stamp += 1
        self._stamps[key] = self._stamp
        if at_ms is not None:
            heapq.heappush(self._heap, (at_ms, self._stamp, key))

    def drop(self, key: K) -> None:
        self._stamps.pop(key, None)

    def next(self) -> tuple[int, K] | None:
        """The next due (its time and key), stale entries dropped."""
        while self._heap:
            at, stamp, key = self._heap[0]
            if self._stamps.get(key) == stamp:
                return at, key
            heapq.heappop(self._heap)
        return None

    def take_due(self, now_ms: int, limit: int | None = None) -> list[K]:
        """The keys due by ``now_ms`` (at most ``limit``), earliest first, taken out: each is
        due again only once :meth:`set` again."""
        out: list[K] = []
        while (limit is None or len(out) < limit) and (first := self.next()) is not None:
            if first[0] > now_ms:
                break
            heapq.heappop(self._heap)
            self._stamps.pop(first[1], None)
            out.append(first[1])
        return out
