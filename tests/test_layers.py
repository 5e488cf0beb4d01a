"""The layers of docs/architecture.md, enforced: what each layer may import, and no import cycle.

Every import counts: module-level, inside functions, and under ``TYPE_CHECKING``. Engines may
import the standard library only (``tests/engines/test_purity.py`` also checks what importing
them loads).
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engines", "render", "bot")

# layer -> (module prefixes in it, what it may import besides the standard library)
LAYERS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "engines": (("engines",), ("engines",)),
    "render": (("render",), ("render", "engines", "PIL", "matplotlib")),
    "model": (("bot.model",), ("bot.model",)),
    "tournament": (("bot.tournament",), ("bot.tournament", "networkx")),
    "store": (
        ("bot.store", "bot.store_postgres"),
        ("bot.store", "bot.model", "aiosqlite", "psycopg", "psycopg_pool"),
    ),
    "service": (
        (
            "bot.service",
            "bot.learn",
            "bot.clock",
            "bot.config",
            "bot.i18n",
            "bot.lang",
            "bot.kifu",
            "bot.worker",
            "bot",
        ),
        (
            "bot.service",
            "bot.learn",
            "bot.worker",
            "bot.clock",
            "bot.config",
            "bot.i18n",
            "bot.lang",
            "bot.kifu",
            "bot.store",
            "bot.store_postgres",
            "bot.model",
            "bot.tournament",
            "engines",
            "render",
            "dotenv",
            "openskill",
        ),
    ),
    "adapters": (
        ("bot.discord", "bot.discord_app", "bot.sandbox", "bot.__main__", "bot.web"),
        (
            "bot.discord",
            "bot.web",
            "jinja2",
            "bot.discord_app",
            "bot.sandbox",
            "bot.__main__",
            "bot.service",
            "bot.clock",
            "bot.config",
            "bot.i18n",
            "bot.lang",
            "bot",
            "discord",
            "aiohttp",
            "yarl",
        ),
    ),
}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _sources() -> Iterator[tuple[str, Path]]:
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            yield _module_name(path), path


def _imports(name: str, path: Path) -> set[str]:
    """Every module ``path`` imports (relative imports resolved), wherever the import stands."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    is_package = path.name == "__init__.py"
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".")
                base = base[: len(base) - node.level + (1 if is_package else 0)]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            out.add(module)
            # ``from bot.discord import actions`` imports the module bot.discord.actions
            out.update(f"{module}.{a.name}" for a in node.names)
    return out


def _layer_of(module: str) -> str:
    best, length = "", -1
    for layer, (prefixes, _) in LAYERS.items():
        for prefix in prefixes:
            matches = module == prefix or module.startswith(prefix + ".")
            if matches and len(prefix) > length:
                best, length = layer, len(prefix)
    assert best, f"{module} belongs to no layer"
    return best


def _allowed(layer: str, imported: str) -> bool:
    top = imported.split(".")[0]
    if top in sys.stdlib_module_names or top == "__future__":
        return True
    allowed = LAYERS[layer][1]
    return any(imported == a or imported.startswith(a + ".") for a in allowed) or imported == "bot"


OWN = {name for name, _ in _sources()}


def _graph() -> dict[str, set[str]]:
    """Our modules and the modules of ours each one imports."""
    graph: dict[str, set[str]] = {}
    for name, path in _sources():
        graph[name] = {m for m in _imports(name, path) if m in OWN and m != name}
    return graph


@pytest.mark.parametrize("name,path", list(_sources()), ids=[n for n, _ in _sources()])
def test_each_module_imports_only_what_its_layer_may(name: str, path: Path) -> None:
    layer = _layer_of(name)
    bad = sorted(m for m in _imports(name, path) if not _allowed(layer, m))
    assert not bad, f"{name} ({layer}) imports {bad}"


def test_adapters_reach_no_rule_and_no_picture() -> None:
    for name, path in _sources():
        if _layer_of(name) == "adapters":
            reached = [m for m in _imports(name, path) if m.split(".")[0] in ("engines", "render")]
            assert not reached, f"{name} imports {reached}"


def test_no_import_cycles() -> None:
    graph = _graph()
    # Importing a package imports its __init__; a module importing its own package's
    # __init__ is the usual re-export, not a cycle, so the edge child -> parent is dropped.
    for name, deps in graph.items():
        graph[name] = {d for d in deps if not name.startswith(d + ".")}
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for dep in sorted(graph[node]):
            if state.get(dep) == 1:
                cycle = [*stack[stack.index(dep) :], dep]
                raise AssertionError("import cycle: " + " -> ".join(cycle))
            if dep not in state:
                visit(dep)
        stack.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node)


def test_the_layer_table_knows_every_module() -> None:
    for name, _ in _sources():
        assert _layer_of(name)


MAX_CLASS_LINES = 400


def _classes() -> dict[str, tuple[str, int, list[str]]]:
    """Every class of ``bot/`` by name: where it stands, its own length and its bases' names
    (a name defined twice keeps its longer definition: the check errs on the long side)."""
    found: dict[str, tuple[str, int, list[str]]] = {}
    for path in sorted((ROOT / "bot").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                size = (node.end_lineno or node.lineno) - node.lineno + 1
                bases = [
                    b.id if isinstance(b, ast.Name) else getattr(b, "attr", "") for b in node.bases
                ]
                where = f"{path.relative_to(ROOT)}:{node.lineno}"
                if node.name not in found or found[node.name][1] < size:
                    found[node.name] = (where, size, bases)
    return found


def _with_mixins(name: str, classes: dict[str, tuple[str, int, list[str]]]) -> int:
    """A class's length with every base class of ours it inherits (a front and its mixins count
    together: splitting a class into mixins only to pass the limit does not pass it)."""
    seen: set[str] = set()
    todo = [name]
    total = 0
    while todo:
        current = todo.pop()
        if current in seen or current not in classes:
            continue
        seen.add(current)
        _, size, bases = classes[current]
        total += size
        todo.extend(b for b in bases if b not in ("Protocol", "Generic", "Exception"))
    return total


def test_no_class_in_the_host_outgrows_its_seam() -> None:
    """A class of ``bot/`` longer than this is doing several jobs: split it along its seams. In
    the service a class counts with its mixins (split a front by capability, not into mixins
    that only pass the count); the store's query mixins are its parts, each counted alone."""
    classes = _classes()
    long = [
        f"{where} {name} ({total} lines{' with its bases' if service else ''})"
        for name, (where, size, _) in sorted(classes.items())
        if (
            (service := where.startswith("bot/service/"))
            and (total := _with_mixins(name, classes)) > MAX_CLASS_LINES
        )
        or (not service and (total := size) > MAX_CLASS_LINES)
    ]
    assert not long, long


# -- the service by capability (docs/architecture.md) ------------------------------------------

CAPABILITIES = ("play", "review", "learn", "correspond", "compete")
"""The service's capabilities: one folder each under ``bot/service/``; the modules at its top
are the kernel, and the root (``bot.service`` itself, which wires the fronts, and its table of
which use case runs each button) reaches them all."""
ROOT_MODULES = ("bot.service", "bot.service.routes")


def _part_of_service(module: str) -> str | None:
    """``kernel``, a capability's name, ``root``, or None (not the service's package)."""
    if module in ROOT_MODULES:
        return "root"
    if not module.startswith("bot.service."):
        return None
    first = module.split(".")[2]
    return first if first in CAPABILITIES else "kernel"


def _may_use(part: str, other: str) -> bool:
    if other == part:
        return True
    if part == "kernel":
        return other == "kernel"
    if part == "play":
        return other == "kernel"
    if part in CAPABILITIES:
        return other in ("kernel", "play")
    return part == "root"  # the root wires everything


def _names_from_root(path: Path) -> set[str]:
    """What ``path`` imports with ``from bot.service import ...``, as module paths."""
    return {
        f"bot.service.{a.name}"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom) and node.module == "bot.service" and not node.level
        for a in node.names
    }


def test_each_capability_uses_only_the_kernel_and_play() -> None:
    """The kernel imports no capability; ``play`` imports only the kernel; every other
    capability imports the kernel and ``play``, never another capability."""
    bad = []
    for name, path in _sources():
        part = _part_of_service(name)
        if part is None:
            continue
        imported = _imports(name, path)
        for module in sorted(imported):
            other = _part_of_service(module)
            if other is None or other == part:
                continue
            if other == "root":
                # ``from bot.service import present`` names a kernel module, not the root;
                # ``from bot.service import GameService`` (or routes) reaches the root
                if module == "bot.service" and _names_from_root(path) <= OWN:
                    continue
                if part != "root":
                    bad.append(f"{name} ({part}) imports the root {module}")
            elif not _may_use(part, other):
                bad.append(f"{name} ({part}) imports {module} ({other})")
    assert not bad, bad


def test_the_capability_rule_catches_a_capability_importing_another() -> None:
    assert not _may_use("learn", "compete")
    assert not _may_use("play", "review")
    assert not _may_use("kernel", "play")
    assert _may_use("compete", "play") and _may_use("review", "kernel")


def test_every_capability_has_one_front() -> None:
    for capability in CAPABILITIES:
        folder = ROOT / "bot" / "service" / capability
        assert (folder / "front.py").is_file(), f"{capability} has no front.py"
