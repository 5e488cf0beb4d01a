"""The message catalogue: every key in both languages, every key the host uses exists, and no
user-facing word of ``bot/`` (its code and its web templates) is written outside it."""

from __future__ import annotations

import ast
import re
import string
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from html.parser import HTMLParser
from pathlib import Path

import jinja2
from jinja2 import nodes

from bot import i18n
from engines.core import Text

BOT = Path(__file__).resolve().parents[2] / "bot"
TEMPLATES = BOT / "web" / "templates"
OWN_SOURCE = "learn"
"""``bot/learn/`` (lessons and rules pages) is its own source of words: each diagram and sentence
is checked against the engine by ``tests/learn``."""
KEYS = frozenset(i18n.MESSAGES)
SECTIONS = frozenset(k.split(".")[0] for k in KEYS)
KEY_SHAPE = re.compile(r"[a-z_]+(?:\.[a-z0-9_]+)+")
LOOKUPS = frozenset({"t", "text", "bilingual", "Refusal", "Line", "Reply", "reply", "RecordError"})
"""Calls whose key is their first argument (or ``key=``); ``reply`` is present.reply, whose key
is its third, and a ``RecordError``'s is its second."""


def _name(func: ast.expr) -> str:
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _used() -> tuple[set[str], set[str], set[str]]:
    """Every key ``bot/`` names: literal keys of lookups, any literal shaped like a key of a
    known section (tables of keys), and the constant start of keys built with an f-string."""
    called: set[str] = set()
    shaped: set[str] = set()
    prefixes: set[str] = set()
    for path in BOT.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        parts = {id(v) for n in ast.walk(tree) if isinstance(n, ast.JoinedStr) for v in n.values}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                if id(node) in parts:  # the start of an f-string: see ``prefixes``
                    continue
                if KEY_SHAPE.fullmatch(node.value) and node.value.split(".")[0] in SECTIONS:
                    shaped.add(node.value)
            elif isinstance(node, ast.Call) and _name(node.func) in LOOKUPS:
                at = {"reply": 2, "RecordError": 1}.get(_name(node.func), 0)
                args = [
                    *node.args[at : at + 1],
                    *(k.value for k in node.keywords if k.arg == "key"),
                ]
                for arg in args:
                    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                        called.add(arg.value)
                    elif isinstance(arg, ast.JoinedStr) and arg.values:
                        first = arg.values[0]
                        if isinstance(first, ast.Constant) and isinstance(first.value, str):
                            prefixes.add(first.value)
    return called, shaped, prefixes


def test_every_message_has_both_languages_and_the_same_fields() -> None:
    for key, (en, ja) in i18n.MESSAGES.items():
        assert en.strip() and ja.strip(), key
        fields_en = {f for _, f, _, _ in string.Formatter().parse(en) if f}
        fields_ja = {f for _, f, _, _ in string.Formatter().parse(ja) if f}
        assert fields_en == fields_ja, key
        assert any(ord(c) > 0x3000 for c in ja) or en == ja or not en.isascii(), key


def test_every_key_used_exists() -> None:
    called, shaped, prefixes = _used()
    sections = ("rating", "leaderboard", "hint", "rematch", "lobby", "button", "kif", "chart")
    for section in (*sections, "tournament", "review", "clock", "list"):
        assert any(k.startswith(section + ".") for k in called | shaped), section
    assert sorted(k for k in called if k not in KEYS) == []
    assert sorted(k for k in shaped if k not in KEYS) == []
    assert sorted(p for p in prefixes if not any(k.startswith(p) for k in KEYS)) == []
    for status in ("open", "active", "finished", "cancelled", "aborted"):
        assert f"board.{status}" in i18n.MESSAGES
        assert f"games.item_{status}" in i18n.MESSAGES or status not in ("open", "active")
    for kind in ("draw", "takeback"):
        assert f"{kind}.declined" in i18n.MESSAGES
        assert f"{kind}.offered" in i18n.MESSAGES


def test_the_finder_sees_a_missing_key(tmp_path: Path) -> None:
    """The finder reads the code, not a list of prefixes: a typo in any section is caught."""
    global BOT
    saved = BOT
    (tmp_path / "m.py").write_text(
        'x = t("rating.no_such", "en")\ny = {"a": "leaderboard.nope"}\nz = Line(f"zz.{x}")\n',
        encoding="utf-8",
    )
    BOT = tmp_path
    try:
        called, shaped, prefixes = _used()
    finally:
        BOT = saved
    assert "rating.no_such" in called and "leaderboard.nope" in shaped and "zz." in prefixes


def _template_keys(source: str) -> tuple[set[str], set[str]]:
    """The keys a template says with ``t("key")`` and the constant starts of those it builds
    (``t("web.status." + game.status)``)."""
    called: set[str] = set()
    prefixes: set[str] = set()
    for call in jinja2.Environment().parse(source).find_all(nodes.Call):
        if not (isinstance(call.node, nodes.Name) and call.node.name == "t" and call.args):
            continue
        arg, built = call.args[0], False
        while isinstance(arg, nodes.Add | nodes.Concat):  # "web.status." + game.status
            arg, built = (arg.left if isinstance(arg, nodes.Add) else arg.nodes[0]), True
        if isinstance(arg, nodes.Const) and isinstance(arg.value, str):
            (prefixes if built else called).add(arg.value)
        else:
            prefixes.add("")  # a key the finder cannot read: the test fails on it
    return called, prefixes


READ_ATTRIBUTES = frozenset({"alt", "title", "aria-label", "placeholder"})
"""Attributes a reader sees or hears (others hold ids, classes, paths and machine values)."""
EXPRESSION = "\x00"
LETTER = re.compile(r"[^\W\d_]")


def _printed(expr: nodes.Node) -> Iterator[str]:
    """What an expression prints, as far as the template writes it: a string literal is its own
    text (``{{ "Hello" }}`` is a written word), anything else a NUL."""
    if isinstance(expr, nodes.TemplateData):
        yield expr.data
    elif isinstance(expr, nodes.Const) and isinstance(expr.value, str):
        yield expr.value
    elif isinstance(expr, nodes.CondExpr):
        yield from _printed(expr.expr1)
        yield EXPRESSION
        yield from _printed(expr.expr2) if expr.expr2 is not None else ()
    else:
        yield EXPRESSION


def _skeleton(node: nodes.Node, blocks: dict[str, list[nodes.Node]]) -> Iterator[str]:
    """The template's own text in order, each expression it prints replaced by a NUL (a string
    literal by itself) and each block by the one of that name in ``blocks`` (a child
    template's) if there is one."""
    if isinstance(node, nodes.Output):
        for part in node.nodes:
            yield from _printed(part)
    elif isinstance(node, nodes.Block):
        for child in blocks.get(node.name, node.body):
            yield from _skeleton(child, blocks)
    elif isinstance(node, nodes.Stmt | nodes.Template):
        for field in ("body", "elif_", "else_"):
            for child in getattr(node, field, None) or ():
                yield from _skeleton(child, blocks)


class _Words(HTMLParser):
    """The words of a template skeleton: its text (not script or style) and read attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.words: list[str] = []
        self.hidden = 0

    def _add(self, text: str) -> None:
        self.words += [w.strip() for w in text.split(EXPRESSION) if LETTER.search(w)]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.hidden += tag in ("script", "style")
        for key, value in attrs:
            if key in READ_ATTRIBUTES and value:
                self._add(value)

    def handle_endtag(self, tag: str) -> None:
        self.hidden -= tag in ("script", "style")

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self._add(data)


def _template_words(source: str, parent: str | None = None) -> list[str]:
    """The words ``source`` writes itself, as a page shows it: put in ``parent`` (the source of
    the template it extends) when it extends one."""
    tree = jinja2.Environment().parse(source)
    if parent is not None:
        blocks = {b.name: b.body for b in tree.find_all(nodes.Block)}
        tree = jinja2.Environment().parse(parent)
    else:
        blocks = {}
    words = _Words()
    words.feed("".join(_skeleton(tree, blocks)))
    words.close()
    return words.words


def _parent(source: str) -> str | None:
    extends = jinja2.Environment().parse(source).find(nodes.Extends)
    if extends is None:
        return None
    assert isinstance(extends.template, nodes.Const)
    return (TEMPLATES / str(extends.template.value)).read_text(encoding="utf-8")


def test_the_web_templates_say_only_catalogue_keys() -> None:
    """Every key a template names exists in both languages, and a template writes no word of
    its own (its text and read attributes are symbols, punctuation and printed values)."""
    templates = sorted(TEMPLATES.glob("*.html"))
    assert len(templates) >= 5
    for path in templates:
        source = path.read_text(encoding="utf-8")
        called, prefixes = _template_keys(source)
        assert sorted(k for k in called if k not in KEYS) == [], path.name
        assert [p for p in prefixes if not p or not any(k.startswith(p) for k in KEYS)] == []
        assert _template_words(source, _parent(source)) == [], path.name
    assert "web.site" in _template_keys((TEMPLATES / "base.html").read_text("utf-8"))[0]


def test_the_template_checks_see_a_missing_key_and_a_written_word() -> None:
    source = (
        '<p title="Board">Hello {{ t("web.nope") }} · {{ t("web.gone." + x) }}</p>'
        '{% if x %}<b>{{ name }}</b> 勝ち{% endif %}<script>var a = "word";</script>'
        '<i data-x="{{ "on" if x else "off" }}">{{ "Hi there" if x }}</i>'
    )
    assert _template_keys(source) == ({"web.nope"}, {"web.gone."})
    assert _template_keys("{{ t(key) }}{{ t(a ~ 'x') }}") == (set(), {""})
    assert _template_words(source) == ["Board", "Hello", "勝ち", "Hi there"]
    child = '{% extends "b.html" %}{% block q %}&amp;p={{ n }}{% endblock %}{% block m %}Hi'
    parent = '<a href="/?x{% block q %}{% endblock %}">{{ t("web.site") }}</a>{% block m %}'
    child, parent = child + "{% endblock %}", parent + "{% endblock %}"
    assert _template_words(child, parent) == ["Hi"]


BILINGUAL = frozenset({"Text", "pick"})
"""Calls taking a text in English and Japanese: their words must come from the catalogue."""


def _written_words(path: Path) -> list[str]:
    """``Text(...)`` and ``Lang.pick(...)`` calls of ``path`` given a word as a literal: a
    non-empty string literal, or an f-string with a letter in its own text (an f-string of
    punctuation around values, ``f"{name} ({seat})"``, is composition)."""
    found: list[str] = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and _name(node.func) in BILINGUAL):
            continue
        for arg in [*node.args, *(k.value for k in node.keywords)]:
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and arg.value:
                found.append(f"{path.name}:{node.lineno}: {arg.value!r}")
            elif isinstance(arg, ast.JoinedStr):
                own = "".join(
                    v.value
                    for v in arg.values
                    if isinstance(v, ast.Constant) and isinstance(v.value, str)
                )
                if LETTER.search(own):
                    found.append(f"{path.name}:{node.lineno}: f{own!r}")
    return found


def test_no_word_is_written_outside_the_catalogue() -> None:
    """No ``Text("…", "…")`` or ``lang.pick("…", "…")`` in ``bot/`` (``bot/learn/`` aside)
    holds a word: say it with ``text(key)`` or ``t(key, lang)``. An empty ``Text("", "")`` and
    texts built from values (moves, names, the catalogue's own texts) pass."""
    found = [
        hit
        for path in sorted(BOT.rglob("*.py"))
        if path.relative_to(BOT).parts[0] != OWN_SOURCE
        for hit in _written_words(path)
    ]
    assert found == []


def test_the_word_check_sees_a_written_text(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(
        'a = Text("Swiss", "スイス式")\nb = Text("", "")\nc = Text(f"{n}: {m}", f"{n}手目")\n'
        'd = lang.pick(f"{x} to {y}", f"{x}〜{y}")\ne = Text(", ".join(x), en)\n',
        encoding="utf-8",
    )
    assert _written_words(tmp_path / "m.py") == [
        "m.py:1: 'Swiss'",
        "m.py:1: 'スイス式'",
        "m.py:3: f'手目'",
        "m.py:4: f' to '",
    ]


def test_rendering_values() -> None:
    when = datetime(2026, 5, 1, 12, 30, tzinfo=UTC)
    assert i18n.t("turn.deadline", "en", deadline=when) == "Deadline: 2026-05-01 12:30 UTC"
    assert i18n.t("refuse.bad_move", "ja", reason=Text("bad", "だめ")) == "だめ"
    assert "1d 2h" in i18n.t("clock.reminder", "en", id=1, to_move="a", left=timedelta(hours=26),
                               deadline=when)  # fmt: skip
    assert i18n.bilingual("chart.axis.ply") == "手数 / ply"  # a chart's words, for everyone
    assert i18n.t("no.such.key") == "no.such.key"
    assert i18n.t("game.left", "en") == "{name} left game #{id}."  # missing fields stay visible
