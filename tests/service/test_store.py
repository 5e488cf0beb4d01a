"""The stores (SQLite and PostgreSQL): numbered migrations (from empty and from each previous
version), atomic changes, the version guard."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot import store as store_module
from bot.model import GameStatus, SeatKind, Update
from bot.store import (
    LATEST_VERSION,
    Change,
    ConflictError,
    MoveRow,
    NewGame,
    SeatRow,
    SqliteStore,
    SqlStore,
    is_postgres_url,
    migrations,
)
from bot.store_postgres import POSTGRES_MIGRATIONS, PostgresStore
from tests.helpers import moves_of, query, stored_row


def _schema(db_url: str) -> list[tuple[str, ...]]:
    """Every table, column and index definition (to compare two databases' schemas)."""
    if is_postgres_url(db_url):
        columns = query(
            db_url,
            "SELECT table_name, column_name, data_type, is_nullable, "
            "coalesce(column_default, '') FROM information_schema.columns "
            "WHERE table_schema = current_schema()",
        )
        indexes = query(
            db_url,
            "SELECT tablename, indexname, replace(indexdef, current_schema() || '.', '') "
            "FROM pg_indexes WHERE schemaname = current_schema()",
        )
        return sorted(tuple(str(x) for x in r) for r in columns + indexes)
    return sorted(
        tuple(r) for r in query(db_url, "SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL")
    )


def _store(db_url: str, target_version: int | None = None) -> SqlStore:
    if is_postgres_url(db_url):
        return PostgresStore(db_url, target_version=target_version)
    return SqliteStore(db_url, target_version=target_version)


def _game(creator: str = "u1") -> NewGame:
    return NewGame(
        game_type="ttt-test",
        players=2,
        options={"cap": "600"},
        seed="seed",
        status=GameStatus.ACTIVE,
        creator_id=creator,
        created_ms=1,
        seats=(SeatRow(0, SeatKind.HUMAN, "u1"), SeatRow(1, SeatKind.HUMAN, "u2")),
    )


async def _game_with_a_move(store: SqlStore) -> int:
    """A new game between u1 and u2 whose log holds Black's first move, a1 (version 1)."""
    await store.upsert_user("u1", "alice", 1)
    await store.upsert_user("u2", "bob", 1)
    gid = await store.create_game(_game())
    await store.apply(Change(gid, 0, append=(MoveRow(0, 0, "a1", "u1", False, 2),)))
    return gid


def _old_game(db_url: str) -> int:
    """A game with one move, written with the columns of the first schema only."""
    for uid, name in (("u1", "alice"), ("u2", "bob")):
        query(db_url, "INSERT INTO users (id, name, updated_ms) VALUES (?, ?, 1)", (uid, name))
    game_id = int(
        query(
            db_url,
            "INSERT INTO games (game_type, players, options, seed, status, creator_id, "
            "created_ms) VALUES ('ttt-test', 2, '{}', 'seed', 'active', 'u1', 1) RETURNING id",
        )[0][0]
    )
    for seat, uid in ((0, "u1"), (1, "u2")):
        query(
            db_url,
            "INSERT INTO seats (game_id, seat, kind, user_id) VALUES (?, ?, 'human', ?)",
            (game_id, seat, uid),
        )
    query(
        db_url,
        "INSERT INTO moves (game_id, ply, actor, move, at_ms) VALUES (?, 0, 0, 'a1', 2)",
        (game_id,),
    )
    return game_id


def test_migrations_are_numbered_in_sequence() -> None:
    numbers = [n for n, _, _ in migrations()]
    assert numbers == list(range(1, LATEST_VERSION + 1))
    assert LATEST_VERSION >= 2
    # PostgreSQL's twins: the same numbers and names, so both backends are at one version
    assert [name for _, name, _ in migrations(POSTGRES_MIGRATIONS)] == [
        name for _, name, _ in migrations()
    ]


async def test_from_empty(db_url: str) -> None:
    store = _store(db_url)
    await store.open()
    try:
        assert await store.user_version() == LATEST_VERSION
        if isinstance(store, SqliteStore):
            async with store.db.execute("PRAGMA journal_mode") as cur:
                assert (await cur.fetchone()) == ("wal",)
            async with store.db.execute("PRAGMA foreign_keys") as cur:
                assert (await cur.fetchone()) == (1,)
            async with store.db.execute("PRAGMA busy_timeout") as cur:
                row = await cur.fetchone()
                assert row is not None and row[0] >= 1000
        else:
            assert query(db_url, "SELECT version FROM schema_version") == [(LATEST_VERSION,)]
        # opening again migrates nothing
        await store.close()
        await store.open()
        assert await store.user_version() == LATEST_VERSION
    finally:
        await store.close()


async def test_two_processes_migrate_once(db_url: str) -> None:
    """Two hosts starting at once on an empty database: one migrates, the other waits."""
    stores = [_store(db_url), _store(db_url)]
    await asyncio.gather(*(s.open() for s in stores))
    try:
        assert [await s.user_version() for s in stores] == [LATEST_VERSION] * 2
    finally:
        for s in stores:
            await s.close()


@pytest.mark.parametrize("start", range(LATEST_VERSION))
async def test_from_each_previous_version(db_url: str, tmp_path: Path, start: int) -> None:
    old = _store(db_url, target_version=start)
    await old.open()
    assert await old.user_version() == start
    await old.close()
    game_id = None
    if start >= 1:  # a game written by the old schema (its first migration's columns) survives
        game_id = _old_game(db_url)
    new = _store(db_url, target_version=start + 1)
    await new.open()
    try:
        assert await new.user_version() == start + 1
        if game_id is not None:
            assert [move for _, _, move in moves_of(db_url, game_id)] == ["a1"]
    finally:
        await new.close()
    # upgrading step by step ends at the same schema as a fresh database
    latest = _store(db_url)
    await latest.open()
    await latest.close()
    if is_postgres_url(db_url):
        query(db_url, "CREATE SCHEMA fresh")
        fresh = db_url.replace("search_path%3D", "search_path%3Dfresh%2C", 1)
        try:
            f = _store(fresh)
            await f.open()
            await f.close()
            assert _schema(db_url) == _schema(fresh)
        finally:
            query(db_url, "DROP SCHEMA fresh CASCADE")
    else:
        fresh = str(tmp_path / "fresh.db")
        f = _store(fresh)
        await f.open()
        await f.close()
        assert _schema(db_url) == _schema(fresh)


async def test_apply_is_atomic(db_url: str) -> None:
    store = _store(db_url)
    await store.open()
    try:
        gid = await _game_with_a_move(store)
        # a bad second entry (a ply already taken) rolls back the whole change
        with pytest.raises(ConflictError):
            await store.apply(
                Change(
                    gid,
                    1,
                    append=(
                        MoveRow(1, 1, "b1", "u2", False, 3),
                        MoveRow(1, 0, "c1", "u1", False, 3),
                    ),
                    update=Update(status=GameStatus.FINISHED),
                )
            )
        record = await store.load_record(gid)
        assert record is not None
        row, moves = record
        assert row.status == "active" and row.version == 1
        assert [m.move for m in moves] == ["a1"]
        # a stale version is refused
        with pytest.raises(ConflictError):
            await store.apply(Change(gid, 0, update=Update(status=GameStatus.FINISHED)))
        # a change that skips a ply is refused (no gaps in the log)
        with pytest.raises(ConflictError):
            await store.apply(Change(gid, 1, append=(MoveRow(5, 1, "b1", "u2", False, 3),)))
    finally:
        await store.close()


async def test_a_record_is_read_as_of_one_moment(db_url: str) -> None:
    """A game's row and its log come from one snapshot: a move another process commits
    between the two reads shows in neither (the cache would otherwise replay a log that does
    not match the row's version, and the next move would be refused as a conflict)."""
    store, other = _store(db_url), _store(db_url)
    await store.open()
    await other.open()
    try:
        gid = await _game_with_a_move(store)
        read_moves = store._read_moves

        async def interleaved(tx: Any, game_id: int) -> list[MoveRow]:
            # the row has been read: another process commits the next move now
            await other.apply(Change(gid, 1, append=(MoveRow(1, 1, "b1", "u2", False, 3),)))
            return await read_moves(tx, game_id)

        store._read_moves = interleaved  # type: ignore[method-assign]
        record = await store.load_record(gid)
        assert record is not None
        row, moves = record
        assert (row.version, [m.move for m in moves]) == (1, ["a1"])
        store._read_moves = read_moves  # type: ignore[method-assign]
        record = await store.load_record(gid)
        assert record is not None
        assert (record[0].version, [m.move for m in record[1]]) == (2, ["a1", "b1"])
        assert await store.load_record(gid + 1) is None
    finally:
        await other.close()
        await store.close()


async def test_many_records_are_read_together_as_each_alone(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``load_records`` (a batch of digests) reads what ``load_record`` reads for each game,
    in lists short enough for the database, and leaves an unknown game out."""
    monkeypatch.setattr(store_module, "_IN_CHUNK", 2)  # three games: two lists
    store = _store(db_url)
    await store.open()
    try:
        ids = [await _game_with_a_move(store) for _ in range(3)]
        await store.apply(Change(ids[1], 1, append=(MoveRow(1, 1, "b1", "u2", False, 3),)))
        many = await store.load_records([ids[2], ids[0], ids[1], ids[0], max(ids) + 1])
        assert sorted(many) == ids
        for gid in ids:
            assert many[gid] == await store.load_record(gid)
        assert [m.move for m in many[ids[1]][1]] == ["a1", "b1"]
        assert await store.load_records([]) == {}
    finally:
        await store.close()


async def test_close_waits_for_the_change_in_progress(db_url: str) -> None:
    """A shutdown in the middle of a command: the change commits, then the store closes, and
    the next start can write at once."""
    store = _store(db_url)
    await store.open()
    await store.upsert_user("u1", "alice", 1)
    inside, go_on = asyncio.Event(), asyncio.Event()

    async def slow_change() -> None:
        async with store._writing() as tx:
            await tx.execute("UPDATE users SET name = 'Alice' WHERE id = 'u1'")
            inside.set()
            await go_on.wait()

    writer = asyncio.create_task(slow_change())
    await inside.wait()
    closing = asyncio.create_task(store.close())
    asyncio.get_running_loop().call_soon(go_on.set)  # runs after close() has begun
    await writer
    await closing
    again = _store(db_url)
    await again.open()
    try:
        await again.upsert_user("u2", "bob", 2)
        gid = await again.create_game(_game())
        row = await stored_row(again, gid)
        assert row is not None and [s.name for s in row.seats] == ["Alice", "bob"]
    finally:
        await again.close()


async def test_login_turns_are_taken_one_at_a_time(db_url: str) -> None:
    """Queued logins (issue 49): of two stores asking for a bucket's turn at once, one takes
    it and the other is told how long to wait; another bucket is free; the interval after the
    taken turn, the bucket is free again."""
    first, second = _store(db_url), _store(db_url)
    await first.open()
    await second.open()
    try:
        asked = await asyncio.gather(
            first.take_login_turn(0, 10_000, 5_000), second.take_login_turn(0, 10_000, 5_000)
        )
        assert sorted(asked) == [0, 5_000]
        assert await second.take_login_turn(0, 13_000, 5_000) == 2_000
        assert await second.take_login_turn(1, 13_000, 5_000) == 0  # another bucket
        assert await second.take_login_turn(0, 15_000, 5_000) == 0
        assert await first.take_login_turn(0, 15_001, 5_000) == 4_999
    finally:
        await first.close()
        await second.close()


async def test_a_write_cancelled_as_it_begins_leaves_no_transaction_open(tmp_path: Path) -> None:
    """A task cancelled while its write's BEGIN is on its way to SQLite's thread (a process
    stopped in the middle of a delivery round): the BEGIN runs all the same, and is undone;
    the next write is not refused with "cannot start a transaction within a transaction"."""
    store = SqliteStore(tmp_path / "cancelled.db")
    await store.open()
    try:
        real = store.db.execute
        begun = asyncio.Event()

        def execute(sql: str, *args: Any) -> Any:
            if sql.startswith("BEGIN"):
                begun.set()
            return real(sql, *args)

        store.db.execute = execute  # type: ignore[method-assign]
        write = asyncio.create_task(store.take_login_turn(0, 10_000, 5_000))
        await begun.wait()
        write.cancel()
        with pytest.raises(asyncio.CancelledError):
            await write
        store.db.execute = real  # type: ignore[method-assign]
        assert await store.take_login_turn(1, 10_000, 5_000) == 0
    finally:
        await store.close()


async def test_a_start_that_fails_to_migrate_leaves_no_connection_behind(tmp_path: Path) -> None:
    """A store that cannot be migrated (here: a table in the way) raises, and its connection's
    thread ends with it: a bot that fails to start exits instead of hanging."""
    import sqlite3
    import threading

    path = tmp_path / "in-the-way.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE games (id INTEGER)")
    before = set(threading.enumerate())
    store = SqliteStore(path)
    with pytest.raises(sqlite3.OperationalError):
        await store.open()
    new = [t for t in threading.enumerate() if t not in before]
    for t in new:
        t.join(timeout=10)
    assert not [t for t in new if t.is_alive()]


async def test_user_names_and_counts(db_url: str) -> None:
    store = _store(db_url)
    await store.open()
    try:
        await store.upsert_user("u1", "alice", 1)
        await store.upsert_user("u1", "Alice", 2)
        await store.upsert_user("u2", "bob", 1)
        gid = await store.create_game(_game())
        row = await stored_row(store, gid)
        assert row is not None and row.seats[0].name == "Alice"
        assert await store.count_active("u1", None) == 1
        assert await store.count_active(None, None) == 1
        assert [g.id for g in await store.user_games("u2", ("active",))] == [gid]
    finally:
        await store.close()


async def test_ai_levels_are_kept_on_host_seats_only(db_url: str) -> None:
    from dataclasses import replace

    store = _store(db_url)
    await store.open()
    try:
        await store.upsert_user("u1", "alice", 1)
        game = _game()
        ai_seat = SeatRow(1, SeatKind.HOST, None, None, ai_level=5)
        gid = await store.create_game(replace(game, seats=(game.seats[0], ai_seat)))
        row = await stored_row(store, gid)
        assert row is not None and row.ai_levels == (5,) and row.seats[1].is_ai
        [summary] = await store.active_games()
        assert summary.seats[1].ai_level == 5
        # a level on a human seat, or out of 1-8, is refused by the schema itself
        for bad in (SeatRow(1, SeatKind.HUMAN, "u1", ai_level=3), replace(ai_seat, ai_level=9)):
            with pytest.raises(ConflictError):
                await store.create_game(replace(game, seats=(game.seats[0], bad)))
    finally:
        await store.close()
