"""A fake clock and position builders for the AI tests (no wall time, no sleeps)."""

from __future__ import annotations

from engines.sangokushi import NAMES, ROWS


class FakeClock:
    """Advances by ``step`` at every call, and counts the calls."""

    def __init__(self, step: float = 0.01) -> None:
        self.now = 0.0
        self.step = step
        self.calls = 0

    def __call__(self) -> float:
        self.calls += 1
        self.now += self.step
        return self.now


def sangokushi_position(cells: dict[str, str], side: str = "0") -> str:
    """A 三国志 position text from ``{"E5": "P0", ...}`` (piece letter + seat), nobody in hand."""
    rows = []
    for row in reversed(ROWS):
        rows.append("".join(cells.get(n, ".") for n in NAMES if n[0] == row))
    return "/".join(rows) + f" -/-/- {side} - --- -: 0"
