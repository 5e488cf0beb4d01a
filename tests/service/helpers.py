"""Shared helpers for the service tests: snapshots of what is stored, to prove nothing changed."""

from __future__ import annotations

import sqlite3
from typing import Any


def snapshot(db_path: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table (read with a separate plain connection)."""
    con = sqlite3.connect(db_path)
    try:
        tables = [
            r[0]
            for r in con.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
                "ORDER BY name"
            )
        ]
        return {t: sorted(con.execute(f"SELECT * FROM {t}").fetchall(), key=repr) for t in tables}
    finally:
        con.close()


def moves_of(db_path: str, game_id: int) -> list[tuple[int, int, str]]:
    con = sqlite3.connect(db_path)
    try:
        return con.execute(
            "SELECT ply, actor, move FROM moves WHERE game_id = ? ORDER BY ply", (game_id,)
        ).fetchall()
    finally:
        con.close()


def file_text(name: str, data: bytes) -> str:
    """A record file's text: ``.kif`` is Shift-JIS (cp932), everything else UTF-8."""
    return data.decode("cp932" if name.endswith(".kif") else "utf-8")
