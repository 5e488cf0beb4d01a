"""Records: the KIF-like text and the JSON that re-imports to the identical record."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.kifu import RecordMeta, export_json, import_json, kif_text
from bot.model import StoredOutcome
from engines.core import CHANCE, PositionError
from engines.record import Entry, Record

META = RecordMeta(
    game_id=7,
    title_en="Dice race",
    title_ja="すごろく競走",
    players=("alice", "bob", "carol"),
    seat_names=(("Black", "先手"), ("White", "後手"), ("Third", "三番手")),
    started=datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC),
    result=StoredOutcome("rule", (1,), (2, 1, 2), "bob wins", "bobの勝ち"),
)
RECORD = Record(
    "race-test",
    3,
    {"cap": "600"},
    "seed",
    (Entry(CHANCE, "d2"), Entry(0, "go"), Entry(CHANCE, "d1"), Entry(1, "?")),
)


def test_kif_text() -> None:
    text = kif_text(META, RECORD, "ja")
    assert text.splitlines()[:2] == ["# Banmen #7", "棋戦: すごろく競走 (race-test)"]
    assert "先手: alice" in text and "三番手: carol" in text
    assert "開始日時: 2026/01/02 03:04:05 UTC" in text and "結果: bobの勝ち" in text
    assert "    * 偶然: d2" in text and "   1 先手 go" in text and "   2 後手 （非公開）" in text
    en = kif_text(META, RECORD, "en", header=False)
    assert en.splitlines() == ["    * chance: d2", "   1 Black go", "    * chance: d1",
                               "   2 White (hidden)"]  # fmt: skip


def test_json_round_trip() -> None:
    meta, record = import_json(export_json(META, RECORD))
    assert record == RECORD
    assert meta["players"] == ["alice", "bob", "carol"] and meta["game_id"] == 7
    with pytest.raises(PositionError):
        import_json("[]")
