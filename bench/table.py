"""What the service-level benchmarks share: a percentile and a two-column table."""

from __future__ import annotations

from collections.abc import Sequence


def pct(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values``, nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def p50_p99(seconds: Sequence[float], digits: int = 1) -> str:
    """``"3.1 / 12.4 ms"``."""
    return f"{pct(seconds, 0.5) * 1e3:.{digits}f} / {pct(seconds, 0.99) * 1e3:.{digits}f} ms"


def print_rows(title: str, note: str, rows: Sequence[tuple[str, str]]) -> None:
    """A title, a note in brackets and one ``key  value`` line per row, aligned."""
    width = max(len(k) for k, _ in rows)
    print(title)
    print(f"  ({note})")
    for key, value in rows:
        print(f"  {key:<{width}}  {value}")
