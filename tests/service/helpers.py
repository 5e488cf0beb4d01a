"""Shared helpers for the service tests: snapshots of what is stored, to prove nothing changed.

Each takes the store's location (a SQLite file or a PostgreSQL URL) and reads it with a separate
plain connection; SQL is written with ``?`` placeholders for both.
"""

from __future__ import annotations

import sqlite3
from typing import Any

import psycopg

from bot.service import Reply
from bot.store import GameRow, Store, is_postgres_url


def query(db_path: str, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Run ``sql`` on its own connection (committed); the rows it returns, if any."""
    if is_postgres_url(db_path):
        with psycopg.connect(db_path, autocommit=True) as pg:
            cur = pg.execute(sql.replace("?", "%s").encode(), params)
            return [tuple(r) for r in cur.fetchall()] if cur.description else []
    con = sqlite3.connect(db_path)
    try:
        with con:
            return con.execute(sql, params).fetchall()
    finally:
        con.close()


def tables(db_path: str) -> list[str]:
    if is_postgres_url(db_path):
        rows = query(
            db_path,
            "SELECT table_name FROM information_schema.tables "
            "WHERE table_schema = current_schema() ORDER BY table_name",
        )
    else:
        rows = query(
            db_path,
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
            "ORDER BY name",
        )
    return [r[0] for r in rows]


def snapshot(db_path: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table."""
    return {t: sorted(query(db_path, f"SELECT * FROM {t}"), key=repr) for t in tables(db_path)}


def moves_of(db_path: str, game_id: int) -> list[tuple[int, int, str]]:
    return [
        (int(r[0]), int(r[1]), str(r[2]))
        for r in query(
            db_path,
            "SELECT ply, actor, move FROM moves WHERE game_id = ? ORDER BY ply",
            (game_id,),
        )
    ]


def file_text(name: str, data: bytes) -> str:
    """A record file's text: ``.kif`` is Shift-JIS (cp932), everything else UTF-8."""
    return data.decode("cp932" if name.endswith(".kif") else "utf-8")


async def stored_row(store: Store, game_id: int) -> GameRow | None:
    """The game's row as the store holds it (``None``: no such game)."""
    record = await store.load_record(game_id)
    return None if record is None else record[0]


def offered(reply: Reply) -> tuple[str, ...]:
    """The reply's buttons as their ids write them (``resign``, ``step_next:5``)."""
    return tuple(str(b) for b in reply.actions)
