"""How much memory an object holds: what sizes the game cache by bytes rather than by games.

Pure (no I/O). The figure is an estimate: every object reachable from the roots is counted
once by :func:`sys.getsizeof`, without following into what all games share (classes, modules,
functions, enum members, the rules objects of :mod:`engines`, ``None``, booleans and small
integers), so a game's own objects are
counted and the tables its rules read are not. Allocator overhead is not counted either, so the
process holds somewhat more than the sum of its cached games' figures.
"""

from __future__ import annotations

import enum
import gc
import sys
import types
from collections.abc import Sequence
from dataclasses import dataclass

from engines.core import Game

SHARED: tuple[type, ...] = (
    type,
    types.ModuleType,
    types.FunctionType,
    types.BuiltinFunctionType,
    types.MethodType,
    enum.Enum,
    bool,
    Game,
)
"""What a walk stops at: objects every game shares, which a cached game does not own."""


def footprint(*roots: object) -> int:
    """The bytes of every object reachable from ``roots``, each counted once (see above)."""
    seen: set[int] = set()
    stack: list[object] = list(roots)
    total = 0
    while stack:
        obj = stack.pop()
        key = id(obj)
        if key in seen:
            continue
        seen.add(key)
        if isinstance(obj, SHARED) or obj is None or (type(obj) is int and -5 <= obj <= 256):
            continue  # (None, True, False and the small ints exist once in any process)
        total += sys.getsizeof(obj)
        stack.extend(gc.get_referents(obj))
    return total


@dataclass(slots=True)
class _Fit:
    base: float = 0.0
    """Mean bytes of a game beside its log (row, state, last move)."""
    per_entry: float = 0.0
    """Mean bytes of one log entry."""
    samples: int = 0
    entry_samples: int = 0


class Sizer:
    """Estimates what a cached game holds without walking it on every move.

    A game of one type holds about ``base + per_entry × entries`` bytes: its row and state
    change little from move to move, its log grows by an entry a ply. Both terms are measured
    per game type by :func:`footprint` on a game's first few appearances and then on one in
    :attr:`every` (a walk costs about as much as replaying the game, a move a small fraction of
    that), and averaged over the last :data:`WINDOW` measurements.
    """

    WINDOW = 16
    FIRST = 8
    """Measure every appearance of a game type until it has this many measurements."""

    def __init__(self, every: int = 64) -> None:
        self.every = every
        """Measure one game in this many estimates once a type has its first measurements."""
        self._fits: dict[str, _Fit] = {}
        self._count = 0

    def estimate(self, kind: str, root: object, entries: Sequence[object]) -> int:
        """The bytes of a game of type ``kind`` (``root``: all of it) with the log
        ``entries``, from its type's fit, measured first when it is due."""
        fit = self._fits.setdefault(kind, _Fit())
        self._count += 1
        if fit.samples < self.FIRST or self._count % self.every == 0:
            self._measure(fit, root, entries)
        return round(fit.base + fit.per_entry * len(entries))

    def _measure(self, fit: _Fit, root: object, entries: Sequence[object]) -> None:
        total = footprint(root)
        log = footprint(*entries) if entries else 0
        weight = min(fit.samples + 1, self.WINDOW)
        fit.base += (total - log - fit.base) / weight
        fit.samples += 1
        if entries:
            weight = min(fit.entry_samples + 1, self.WINDOW)
            fit.per_entry += (log / len(entries) - fit.per_entry) / weight
            fit.entry_samples += 1
