"""The message catalogue: every key in both languages, every key the host uses exists."""

from __future__ import annotations

import re
import string
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot import i18n
from engines.core import Text

BOT = Path(__file__).resolve().parents[2] / "bot"
OWN = (
    *(f"service/{p.name}" for p in (BOT / "service").glob("*.py")),
    "sandbox.py",
    "__main__.py",
    "clock.py",
    "records.py",
)


def test_every_message_has_both_languages_and_the_same_fields() -> None:
    for key, (en, ja) in i18n.MESSAGES.items():
        assert en.strip() and ja.strip(), key
        fields_en = {f for _, f, _, _ in string.Formatter().parse(en) if f}
        fields_ja = {f for _, f, _, _ in string.Formatter().parse(ja) if f}
        assert fields_en == fields_ja, key
        assert any(ord(c) > 0x3000 for c in ja) or en == ja, key


def test_every_key_used_exists() -> None:
    pattern = re.compile(
        r"\"((?:refuse|game|move|setup|draw|takeback|clock|board|moves|record|"
        r"games|stats|settings|daily|outcome|sandbox|turn|challenge|replay)\.[a-z_]+)\""
    )
    used: set[str] = set()
    for name in OWN:
        used |= set(pattern.findall((BOT / name).read_text(encoding="utf-8")))
    assert used, "no keys found"
    missing = sorted(k for k in used if k not in i18n.MESSAGES)
    assert missing == []
    for status in ("open", "active", "finished", "cancelled", "aborted"):
        assert f"board.{status}" in i18n.MESSAGES
        assert f"games.item_{status}" in i18n.MESSAGES or status not in ("open", "active")
    for kind in ("draw", "takeback"):
        assert f"{kind}.declined" in i18n.MESSAGES
        assert f"{kind}.offered" in i18n.MESSAGES


def test_rendering_values() -> None:
    when = datetime(2026, 5, 1, 12, 30, tzinfo=UTC)
    assert i18n.t("turn.deadline", "en", deadline=when) == "Deadline: 2026-05-01 12:30 UTC"
    assert i18n.t("refuse.bad_move", "ja", reason=Text("bad", "だめ")) == "だめ"
    assert "1d 2h" in i18n.t("clock.reminder", "en", id=1, to_move="a", left=timedelta(hours=26),
                               deadline=when)  # fmt: skip
    assert i18n.t("no.such.key") == "no.such.key"
    assert i18n.t("game.left", "en") == "{name} left game #{id}."  # missing fields stay visible
