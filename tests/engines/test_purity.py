"""engines/ stays pure: no Discord, no pictures, no database, no event loop at import."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

FORBIDDEN = {"discord", "PIL", "aiosqlite", "asyncio", "sqlite3", "socket", "requests", "aiohttp"}
ENGINES = Path(__file__).resolve().parents[2] / "engines"


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_engine_sources_import_nothing_impure() -> None:
    files = sorted(ENGINES.rglob("*.py"))
    assert files
    for path in files:
        bad = _imports(path) & FORBIDDEN
        assert not bad, f"{path.relative_to(ENGINES.parent)} imports {sorted(bad)}"


def test_importing_every_game_loads_no_impure_module() -> None:
    code = (
        "import sys, engines\n"
        "engines.all_games()\n"
        f"bad = sorted(m for m in sys.modules if m.split('.')[0] in {sorted(FORBIDDEN)!r})\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == "", f"importing engines loads {out}"
