"""The message catalogue: every key in both languages, every key the host uses exists."""

from __future__ import annotations

import ast
import re
import string
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot import i18n
from engines.core import Text

BOT = Path(__file__).resolve().parents[2] / "bot"
KEYS = frozenset(i18n.MESSAGES)
SECTIONS = frozenset(k.split(".")[0] for k in KEYS)
KEY_SHAPE = re.compile(r"[a-z_]+(?:\.[a-z0-9_]+)+")
LOOKUPS = frozenset({"t", "text", "both", "Refusal", "Line", "Reply", "reply", "RecordError"})
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
    for section in ("rating", "leaderboard", "hint", "rematch", "lobby", "button", "kif"):
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


def test_rendering_values() -> None:
    when = datetime(2026, 5, 1, 12, 30, tzinfo=UTC)
    assert i18n.t("turn.deadline", "en", deadline=when) == "Deadline: 2026-05-01 12:30 UTC"
    assert i18n.t("refuse.bad_move", "ja", reason=Text("bad", "だめ")) == "だめ"
    assert "1d 2h" in i18n.t("clock.reminder", "en", id=1, to_move="a", left=timedelta(hours=26),
                               deadline=when)  # fmt: skip
    assert i18n.t("no.such.key") == "no.such.key"
    assert i18n.t("game.left", "en") == "{name} left game #{id}."  # missing fields stay visible
