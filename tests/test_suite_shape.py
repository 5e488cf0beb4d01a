"""The suite's own shape: no file under tests/ imports a test module (``test_*``).

What tests share is in tests/helpers.py (plain functions) and the conftest.py files (fixtures).
A test module imported by another is loaded wherever the importer is collected, and ties the
two together (one cannot change or move without the other).
"""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def _is_test_module(dotted: str) -> bool:
    """A module of the suite (``tests.…`` or relative) named ``test_*``."""
    ours = dotted.startswith((".", "tests.")) or dotted == "tests"
    return ours and any(part.startswith("test_") for part in dotted.split("."))


def imported_test_modules(path: Path) -> list[str]:
    """The test modules that ``path`` imports (anywhere in it, in a function too)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if _is_test_module(a.name)]
        elif isinstance(node, ast.ImportFrom):
            module = "." * node.level + (node.module or "")
            if _is_test_module(module):
                found.append(module)
            else:
                found += [
                    f"{module}.{a.name}"
                    for a in node.names
                    if _is_test_module(f"{module}.{a.name}")
                ]
    return found


def test_no_test_module_imports_another() -> None:
    offenders = {
        str(path.relative_to(TESTS.parent)): found
        for path in sorted(TESTS.rglob("*.py"))
        if (found := imported_test_modules(path))
    }
    assert not offenders, f"import these from tests/helpers.py instead: {offenders}"


def test_the_check_sees_an_import_of_a_test_module(tmp_path: Path) -> None:
    source = tmp_path / "test_x.py"
    source.write_text(
        "from tests.bot.test_game_flow import start_challenge\n"
        "from tests.service import test_replays\n"
        "def f():\n    from .test_ratings import beat\n"
        "import tests.engines.test_review\n"
        "from aiohttp.test_utils import TestClient\n"
        "from tests import test_layers\n"
        "from tests.helpers import start\n",
        encoding="utf-8",
    )
    assert sorted(imported_test_modules(source)) == [
        ".test_ratings",
        "tests.bot.test_game_flow",
        "tests.engines.test_review",
        "tests.service.test_replays",
        "tests.test_layers",
    ]
