"""``python -m render.samples DIR``: write every renderer's sample pictures (docs, README)."""

from __future__ import annotations

import importlib
import pkgutil
import sys
from collections.abc import Callable
from pathlib import Path

import render


def all_samples() -> dict[str, bytes]:
    """Every render module's ``samples()``, by file stem."""
    out: dict[str, bytes] = {}
    for info in sorted(pkgutil.iter_modules(render.__path__), key=lambda i: i.name):
        if info.name.startswith("_") or info.name in render.NOT_RENDERERS:
            continue
        module = importlib.import_module(f"render.{info.name}")
        fn: Callable[[], dict[str, bytes]] | None = getattr(module, "samples", None)
        if fn is not None:
            out.update(fn())
    return out


def main(argv: list[str]) -> int:
    folder = Path(argv[0] if argv else "docs/images")
    folder.mkdir(parents=True, exist_ok=True)
    for stem, png in all_samples().items():
        path = folder / f"{stem}.png"
        path.write_bytes(png)
        print(f"{path} ({len(png) // 1000} KB)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
