"""The ``slow`` mark is set by a table in ``tests/conftest.py``: a test renamed or moved must not
silently fall out of it (and into ``make test-fast``)."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import ALONE, SLOW

ROOT = Path(__file__).resolve().parent.parent


def _tests(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test")
    }


def test_every_slow_test_exists() -> None:
    for module, names in SLOW.items():
        path = ROOT / module
        assert path.is_file(), f"{module} is in SLOW but does not exist"
        missing = (names or set()) - _tests(path)
        assert not missing, f"{module} has no tests {sorted(missing)}"


def test_every_alone_module_exists() -> None:
    for module in ALONE:
        assert (ROOT / module).is_file(), f"{module} is in ALONE but does not exist"
