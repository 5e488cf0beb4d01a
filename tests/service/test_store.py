"""The SQLite store: pragmas, numbered migrations (from empty and from each previous version)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.model import GameStatus, SeatKind
from bot.store import (
    LATEST_VERSION,
    Change,
    ConflictError,
    MoveRow,
    NewGame,
    SeatRow,
    SqliteStore,
    migrations,
)


def _schema(path: str) -> list[tuple[str, str]]:
    con = sqlite3.connect(path)
    try:
        return sorted(
            (name, sql)
            for name, sql in con.execute(
                "SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL"
            )
        )
    finally:
        con.close()


def _game(creator: str = "u1") -> NewGame:
    return NewGame(
        game_type="ttt-test",
        players=2,
        options={"cap": "600"},
        seed="seed",
        status=GameStatus.ACTIVE,
        guild_id=None,
        channel_id=None,
        creator_id=creator,
        clock="none",
        reminders=(),
        created_ms=1,
        seats=(SeatRow(0, SeatKind.HUMAN, "u1"), SeatRow(1, SeatKind.HUMAN, "u2")),
    )


def _old_game(path: str) -> int:
    """A game with one move, written with the columns of the first schema only."""
    con = sqlite3.connect(path)
    try:
        with con:
            con.executemany(
                "INSERT INTO users (id, name, updated_ms) VALUES (?, ?, 1)",
                [("u1", "alice"), ("u2", "bob")],
            )
            cur = con.execute(
                "INSERT INTO games (game_type, players, options, seed, status, creator_id, "
                "created_ms) VALUES ('ttt-test', 2, '{}', 'seed', 'active', 'u1', 1)"
            )
            game_id = int(cur.lastrowid or 0)
            con.executemany(
                "INSERT INTO seats (game_id, seat, kind, user_id) VALUES (?, ?, 'human', ?)",
                [(game_id, 0, "u1"), (game_id, 1, "u2")],
            )
            con.execute(
                "INSERT INTO moves (game_id, ply, actor, move, at_ms) VALUES (?, 0, 0, 'a1', 2)",
                (game_id,),
            )
        return game_id
    finally:
        con.close()


def test_migrations_are_numbered_in_sequence() -> None:
    numbers = [n for n, _, _ in migrations()]
    assert numbers == list(range(1, LATEST_VERSION + 1))
    assert LATEST_VERSION >= 2


async def test_from_empty(tmp_path: Path) -> None:
    path = str(tmp_path / "new.db")
    store = SqliteStore(path)
    await store.open()
    try:
        assert await store.user_version() == LATEST_VERSION
        async with store.db.execute("PRAGMA journal_mode") as cur:
            assert (await cur.fetchone()) == ("wal",)
        async with store.db.execute("PRAGMA foreign_keys") as cur:
            assert (await cur.fetchone()) == (1,)
        async with store.db.execute("PRAGMA busy_timeout") as cur:
            row = await cur.fetchone()
            assert row is not None and row[0] >= 1000
    finally:
        await store.close()


@pytest.mark.parametrize("start", range(LATEST_VERSION))
async def test_from_each_previous_version(tmp_path: Path, start: int) -> None:
    path = str(tmp_path / "old.db")
    old = SqliteStore(path, target_version=start)
    await old.open()
    assert await old.user_version() == start
    await old.close()
    game_id = None
    if start >= 1:  # a game written by the old schema (its first migration's columns) survives
        game_id = _old_game(path)
    new = SqliteStore(path, target_version=start + 1)
    await new.open()
    try:
        assert await new.user_version() == start + 1
        if game_id is not None:
            assert [m.move for m in await new.load_moves(game_id)] == ["a1"]
    finally:
        await new.close()
    # upgrading step by step ends at the same schema as a fresh database
    latest = SqliteStore(path)
    await latest.open()
    await latest.close()
    fresh = str(tmp_path / "fresh.db")
    f = SqliteStore(fresh)
    await f.open()
    await f.close()
    assert _schema(path) == _schema(fresh)


async def test_apply_is_atomic(tmp_path: Path) -> None:
    store = SqliteStore(str(tmp_path / "a.db"))
    await store.open()
    try:
        await store.upsert_user("u1", "alice", 1)
        await store.upsert_user("u2", "bob", 1)
        gid = await store.create_game(_game())
        # a bad second entry (a ply already taken) rolls back the whole change
        await store.apply(Change(gid, 0, append=(MoveRow(0, 0, "a1", "u1", False, 2),)))
        with pytest.raises(ConflictError):
            await store.apply(
                Change(
                    gid,
                    1,
                    append=(
                        MoveRow(1, 1, "b1", "u2", False, 3),
                        MoveRow(1, 0, "c1", "u1", False, 3),
                    ),
                    fields={"status": "finished"},
                )
            )
        row = await store.load_game(gid)
        assert row is not None and row.status == "active" and row.version == 1
        assert [m.move for m in await store.load_moves(gid)] == ["a1"]
        # a stale version is refused
        with pytest.raises(ConflictError):
            await store.apply(Change(gid, 0, fields={"status": "finished"}))
        # a change that skips a ply is refused (no gaps in the log)
        with pytest.raises(ConflictError):
            await store.apply(Change(gid, 1, append=(MoveRow(5, 1, "b1", "u2", False, 3),)))
        with pytest.raises(ValueError):
            await store.apply(Change(gid, 1, fields={"game_type": "chess"}))
    finally:
        await store.close()


async def test_user_names_and_counts(tmp_path: Path) -> None:
    store = SqliteStore(str(tmp_path / "u.db"))
    await store.open()
    try:
        await store.upsert_user("u1", "alice", 1)
        await store.upsert_user("u1", "Alice", 2)
        await store.upsert_user("u2", "bob", 1)
        gid = await store.create_game(_game())
        row = await store.load_game(gid)
        assert row is not None and row.seats[0].name == "Alice"
        assert await store.count_active("u1", None) == 1
        assert await store.count_active(None, None) == 1
        assert [g.id for g in await store.user_games("u2", ("active",))] == [gid]
    finally:
        await store.close()


async def test_ai_levels_are_kept_on_host_seats_only(tmp_path: Path) -> None:
    from dataclasses import replace

    store = SqliteStore(str(tmp_path / "ai.db"))
    await store.open()
    try:
        await store.upsert_user("u1", "alice", 1)
        game = _game()
        ai_seat = SeatRow(1, SeatKind.HOST, None, None, ai_level=5)
        gid = await store.create_game(replace(game, seats=(game.seats[0], ai_seat)))
        row = await store.load_game(gid)
        assert row is not None and row.ai_levels == (5,) and row.seats[1].is_ai
        [summary] = await store.active_games()
        assert summary.seats[1].ai_level == 5
        # a level on a human seat, or out of 1-8, is refused by the schema itself
        for bad in (SeatRow(1, SeatKind.HUMAN, "u1", ai_level=3), replace(ai_seat, ai_level=9)):
            with pytest.raises(ConflictError):
                await store.create_game(replace(game, seats=(game.seats[0], bad)))
    finally:
        await store.close()
