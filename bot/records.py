"""Game records for people and machines: a KIF-like text (棋譜) and a re-importable JSON.

The text has a header (game, players, date, result) and then the numbered moves in canonical
notation, marked ▲/△ in two-player games (as shogi kifu) or with seat names otherwise; chance
outcomes are listed where they happened. The JSON is ``engines.record.Record.to_json`` plus a
``"banmen"`` object of metadata; :func:`import_json` reads it back to the identical record.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from engines.core import CHANCE, PositionError, Text
from engines.record import Record

MARKS = ("▲", "△")


@dataclass(frozen=True, slots=True)
class RecordMeta:
    """What a record says about the game besides its moves."""

    game_id: int | None = None
    title_en: str = ""
    title_ja: str = ""
    players: tuple[str, ...] = ()
    seat_names: tuple[tuple[str, str], ...] = ()  # (en, ja) per seat
    created: datetime | None = None
    started: datetime | None = None
    finished: datetime | None = None
    status: str = ""
    result: dict[str, Any] | None = None
    clock: str = "none"
    extra: dict[str, Any] = field(default_factory=dict)


_LABELS = {
    "game": ("Game", "棋戦"),
    "players": ("Players", "対局者"),
    "date": ("Date", "開始日時"),
    "end": ("Ended", "終了日時"),
    "result": ("Result", "結果"),
    "clock": ("Clock", "持ち時間"),
    "chance": ("chance", "偶然"),
    "hidden": ("(hidden)", "（非公開）"),
    "moves": ("Moves", "手数"),
}


def _label(key: str, lang: str) -> str:
    en, ja = _LABELS[key]
    return ja if lang.startswith("ja") else en


def _when(when: datetime | None) -> str:
    return when.strftime("%Y/%m/%d %H:%M:%S UTC") if when else "-"


def _mark(meta: RecordMeta, seat: int, players: int, lang: str) -> str:
    if players == 2:
        return MARKS[seat]
    if seat < len(meta.seat_names):
        en, ja = meta.seat_names[seat]
        return (ja if lang.startswith("ja") else en) + " "
    return f"[{seat + 1}] "


def kif_text(meta: RecordMeta, record: Record, lang: str = "ja", *, header: bool = True) -> str:
    """The KIF-like record. Moves whose text is ``"?"`` are shown as hidden."""
    lines: list[str] = []
    if header:
        title = meta.title_ja if lang.startswith("ja") else meta.title_en
        ident = f" #{meta.game_id}" if meta.game_id is not None else ""
        lines.append(f"# Banmen{ident}")
        lines.append(f"{_label('game', lang)}: {title} ({record.game})")
        for seat in range(record.players):
            name = meta.players[seat] if seat < len(meta.players) else ""
            if seat < len(meta.seat_names):
                en, ja = meta.seat_names[seat]
                seat_name = ja if lang.startswith("ja") else en
            else:
                seat_name = str(seat + 1)
            mark = MARKS[seat] if record.players == 2 else ""
            lines.append(f"{mark}{seat_name}: {name}")
        lines.append(f"{_label('date', lang)}: {_when(meta.started or meta.created)}")
        if meta.finished:
            lines.append(f"{_label('end', lang)}: {_when(meta.finished)}")
        if meta.clock and meta.clock != "none":
            lines.append(f"{_label('clock', lang)}: {meta.clock}")
        if meta.result:
            text = Text(str(meta.result.get("en", "")), str(meta.result.get("ja", "")))
            lines.append(f"{_label('result', lang)}: {text.get(lang)}")
        if record.options:
            opts = " ".join(f"{k}={v}" for k, v in sorted(record.options.items()))
            lines.append(f"options: {opts}")
        if record.seed:  # shown once the game is over
            lines.append(f"seed: {record.seed}")
        lines.append("")
    number = 0
    for entry in record.entries:
        if entry.actor == CHANCE:
            lines.append(f"    * {_label('chance', lang)}: {entry.move}")
            continue
        number += 1
        move = _label("hidden", lang) if entry.move == "?" else entry.move
        lines.append(f"{number:>4} {_mark(meta, entry.actor, record.players, lang)}{move}")
    if header and meta.result:
        lines.append("")
        lines.append(f"{_label('moves', lang)}: {number}")
    return "\n".join(lines) + "\n"


def export_json(meta: RecordMeta, record: Record) -> str:
    """The engine record's JSON with a ``"banmen"`` metadata object."""
    data = json.loads(record.to_json())
    data["banmen"] = {
        "game_id": meta.game_id,
        "title": {"en": meta.title_en, "ja": meta.title_ja},
        "players": list(meta.players),
        "created": meta.created.isoformat() if meta.created else None,
        "started": meta.started.isoformat() if meta.started else None,
        "finished": meta.finished.isoformat() if meta.finished else None,
        "status": meta.status,
        "result": meta.result,
        "clock": meta.clock,
    }
    return json.dumps(data, ensure_ascii=False, indent=1)


def import_json(text: str) -> tuple[dict[str, Any], Record]:
    """The metadata and the record of an exported JSON (raises PositionError if it is not one)."""
    record = Record.from_json(text)
    try:
        meta = json.loads(text).get("banmen") or {}
    except (ValueError, AttributeError) as exc:  # from_json already accepted it; be safe
        raise PositionError(
            Text(f"Not a Banmen record: {exc}", f"盤面の棋譜ではありません: {exc}")
        ) from exc
    if not isinstance(meta, dict):
        meta = {}
    return meta, record
