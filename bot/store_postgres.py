"""The PostgreSQL store: the queries of :class:`bot.store.SqlStore` over psycopg 3.

``BANMEN_DB=postgresql://user:password@host:5432/banmen`` picks it. psycopg 3 (not asyncpg):
it ships its own type hints (``mypy --strict`` needs no stubs), one API serves the async store
and the synchronous tools and tests, and its pool is maintained with it; statements used often
are prepared on each connection by itself.

Connections come from an :class:`~psycopg_pool.AsyncConnectionPool` in autocommit mode; every
change is one transaction, sent in pipeline mode (a move is two round trips: BEGIN with the guarded
UPDATE, then the new log entries with COMMIT). Concurrency: the version guard's ``UPDATE ... WHERE
version = ?`` takes the game's row lock, so a second writer waits for the first to commit and then
finds the version moved on (:class:`~bot.store.ConflictError`); the moves' primary key (game, ply)
refuses a second writer for one ply even so; and the limits are counted under transaction-level
advisory locks on the users and the server, so two processes cannot both take the last place (and
rated ends under one on the ratings, so each gets its own number in end order).

Migrations are ``bot/migrations/postgres/NNNN_*.sql`` (the same numbers as SQLite's), applied
under an advisory lock (two processes starting at once migrate once) and recorded in
``schema_version``.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Any

import psycopg
from psycopg import errors
from psycopg.conninfo import conninfo_to_dict
from psycopg_pool import AsyncConnectionPool, PoolTimeout

from bot.store import (
    MIGRATIONS_DIR,
    ConflictError,
    Session,
    SqlStore,
    StoreUncertain,
    StoreUnreachable,
    migrations,
)

POSTGRES_MIGRATIONS = MIGRATIONS_DIR / "postgres"
LATEST_VERSION = len(migrations(POSTGRES_MIGRATIONS))
MIGRATION_LOCK = 0x62616E6D656E
"""The advisory lock key migrations hold (``"banmen"`` in ASCII)."""
GAMES_CHANNEL = "banmen_games"
"""The NOTIFY channel of committed game changes (their ids): a site process listens."""
JOBS_CHANNEL = "banmen_jobs"
"""The NOTIFY channel of the job queue: ``q<id>`` a job queued (workers listen), ``d<id>`` a
job done (whoever waits for it listens)."""
CONNECT_TIMEOUT = 15.0
"""Seconds :meth:`PostgresStore.open` waits for the first connection (the bot passes three
times ``BANMEN_STORE_TIMEOUT``: a database starting with it has time to come up)."""
STORE_TIMEOUT = 5.0
"""Seconds a query waits for a connection before the store is called unreachable."""
RELISTEN_SECONDS = (0.5, 1.0, 2.0, 5.0, 10.0)
"""The waits before each try to listen again after the connection is lost (the last one
repeats)."""

log = logging.getLogger("banmen.store")


@functools.lru_cache(maxsize=512)
def _pg(sql: str) -> bytes:
    """The store's ``?`` placeholders as psycopg's ``%s`` (a literal ``%`` doubled)."""
    return sql.replace("%", "%%").replace("?", "%s").encode()


def where(url: str) -> str:
    """Which server and database ``url`` names, without its password."""
    try:
        parts = conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        return "the server BANMEN_DB names"
    host = str(parts.get("host") or "localhost")
    return f"{host}:{parts.get('port') or 5432}, database {parts.get('dbname') or '(default)'}"


class _PgSession:
    def __init__(self, conn: psycopg.AsyncConnection[Any]) -> None:
        self.conn = conn

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> None:
        await self.conn.execute(_pg(sql), params)

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if rows:
            async with self.conn.cursor() as cur:
                await cur.executemany(_pg(sql), rows)

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Sequence[Any]]:
        cur = await self.conn.execute(_pg(sql), params)
        return list(await cur.fetchall())


class PostgresStore(SqlStore):
    """The PostgreSQL store: a pool of connections, one transaction per change."""

    GUILD_SHARD_KEY = "CASE WHEN {col} ~ '^[0-9]{1,19}$' THEN {col}::bigint >> 22 ELSE 0 END"
    SKIP_LOCKED = " FOR UPDATE SKIP LOCKED"

    def __init__(
        self,
        url: str,
        *,
        target_version: int | None = None,
        pool_size: int = 10,
        timeout: float = STORE_TIMEOUT,
        connect_timeout: float = CONNECT_TIMEOUT,
    ) -> None:
        self.url = url
        self.pool_size = max(1, pool_size)
        self.timeout = timeout
        self.connect_timeout = connect_timeout
        self._target = LATEST_VERSION if target_version is None else target_version
        self._pool: AsyncConnectionPool[psycopg.AsyncConnection[Any]] | None = None

    # -- lifecycle -------------------------------------------------------------------------
    async def open(self) -> None:
        pool: AsyncConnectionPool[psycopg.AsyncConnection[Any]] = AsyncConnectionPool(
            self.url,
            min_size=1,
            max_size=self.pool_size,
            kwargs={"autocommit": True, "connect_timeout": max(1, round(self.timeout))},
            open=False,
            name="banmen",
            timeout=self.timeout,
        )
        try:
            await pool.open(wait=True, timeout=self.connect_timeout)
        except PoolTimeout as exc:
            await pool.close()
            raise StoreUnreachable(
                f"cannot connect to PostgreSQL at {where(self.url)} within "
                f"{self.connect_timeout:g}s: is the server running, and are the host, port, user, "
                "password and database in BANMEN_DB right?"
            ) from exc
        self._pool = pool
        try:
            await self.migrate(self._target)
        except BaseException:
            await self.close()  # a failed start leaves no pool (nor its worker tasks) behind
            raise

    async def close(self) -> None:
        if self._pool is not None:
            await self._pool.close()
            self._pool = None

    @property
    def pool(self) -> AsyncConnectionPool[psycopg.AsyncConnection[Any]]:
        if self._pool is None:
            raise RuntimeError("the store is not open")
        return self._pool

    async def user_version(self) -> int:
        """The number of the last migration applied (0 for an empty database)."""
        async with self.pool.connection() as conn:
            return await self._version(conn)

    @staticmethod
    async def _version(conn: psycopg.AsyncConnection[Any]) -> int:
        await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        cur = await conn.execute("SELECT max(version) FROM schema_version")
        row = await cur.fetchone()
        return int(row[0]) if row is not None and row[0] is not None else 0

    async def migrate(self, target: int | None = None) -> int:
        """Apply every migration above the recorded version up to ``target``, each in its own
        transaction with the version it reaches."""
        target = LATEST_VERSION if target is None else target
        async with self.pool.connection() as conn:
            current = -1
            while current < target:
                async with conn.transaction():
                    await conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
                    current = await self._version(conn)
                    step = [m for m in migrations(POSTGRES_MIGRATIONS) if m[0] == current + 1]
                    if current >= target or not step:
                        break
                    number, _name, sql = step[0]
                    await conn.execute(sql.encode())
                    await conn.execute("DELETE FROM schema_version")
                    await conn.execute("INSERT INTO schema_version VALUES (%s)", (number,))
                    current = number
            return current

    # -- sessions --------------------------------------------------------------------------
    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[psycopg.AsyncConnection[Any]]:
        """A connection from the pool; :class:`StoreUnreachable` when none comes within the
        timeout, or when the one given turns out dead (the server went away: a connection that
        broke holds no committed change of this session, and the pool replaces it)."""
        try:
            async with self.pool.connection() as conn:
                try:
                    yield conn
                except psycopg.OperationalError as exc:
                    if not conn.broken:
                        raise
                    raise self._unreachable() from exc
        except PoolTimeout as exc:
            raise self._unreachable() from exc

    def _unreachable(self) -> StoreUnreachable:
        return StoreUnreachable(
            f"no connection to PostgreSQL at {where(self.url)} within {self.timeout:g}s"
        )

    @asynccontextmanager
    async def _reading(self) -> AsyncIterator[Session]:
        async with self._connection() as conn:
            yield _PgSession(conn)

    @asynccontextmanager
    async def _writing(self) -> AsyncIterator[Session]:
        committing = False
        try:
            async with self._connection() as conn:
                try:
                    # Pipeline mode: BEGIN travels with the first statement and COMMIT with the
                    # last; only a statement whose rows are read waits for the server.
                    async with conn.pipeline(), conn.transaction():
                        yield _PgSession(conn)
                        committing = True
                except (
                    errors.IntegrityError,
                    errors.SerializationFailure,
                    errors.DeadlockDetected,
                ) as exc:
                    raise ConflictError(str(exc)) from exc
        except StoreUncertain:
            raise
        except StoreUnreachable as exc:
            if not committing:
                raise
            # The server went away during the COMMIT: it may have been applied, its answer lost.
            raise StoreUncertain(f"{exc}, while committing a change") from exc

    @asynccontextmanager
    async def _snapshot(self) -> AsyncIterator[Session]:
        async with self._connection() as conn, conn.transaction():
            await conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            yield _PgSession(conn)

    async def _announce_change(
        self, tx: Session, game_id: int, version: int, guild_id: str | None, shown: bool
    ) -> None:
        """NOTIFY ``<game id>:<version>:<guild id>:<s or q>`` on :data:`GAMES_CHANNEL` (sent at
        the commit, dropped with a rollback; ``s``: the change shows on the game's page, ``q``:
        it does not)."""
        note = f"{game_id}:{version}:{guild_id or ''}:{'s' if shown else 'q'}"
        await tx.execute(f"SELECT pg_notify('{GAMES_CHANNEL}', ?)", (note,))

    async def listen_games(
        self,
        changed: Callable[[int, int, str | None, bool], None],
        hearing: Callable[[bool], None] | None = None,
    ) -> Callable[[], Awaitable[None]] | None:
        """LISTEN on :data:`GAMES_CHANNEL` and call ``changed`` with each change's game id,
        version, guild and whether its page shows it; ``hearing(False)`` when the connection
        is lost (changes go unheard until it is back) and ``hearing(True)`` once listening
        again."""

        def heard(payload: str) -> None:
            game, version, guild, shown = [*payload.split(":"), "", "", ""][:4]
            if game.isdigit() and version.isdigit():
                changed(int(game), int(version), guild or None, shown != "q")

        return await self._listen(GAMES_CHANNEL, heard, hearing)

    async def _announce_job(self, tx: Session, note: str) -> None:
        """NOTIFY ``note`` on :data:`JOBS_CHANNEL` (sent at the commit)."""
        await tx.execute(f"SELECT pg_notify('{JOBS_CHANNEL}', ?)", (note,))

    async def listen_jobs(
        self, queued: Callable[[], None], done: Callable[[int], None]
    ) -> Callable[[], Awaitable[None]] | None:
        """LISTEN on :data:`JOBS_CHANNEL`: ``queued()`` for each job queued, ``done(id)`` for
        each job done."""

        def heard(payload: str) -> None:
            if payload.startswith("q"):
                queued()
            elif payload.startswith("d") and payload[1:].isdigit():
                done(int(payload[1:]))

        return await self._listen(JOBS_CHANNEL, heard)

    async def _listen(
        self,
        channel: str,
        heard: Callable[[str], None],
        hearing: Callable[[bool], None] | None = None,
    ) -> Callable[[], Awaitable[None]]:
        """LISTEN on ``channel`` on a connection of its own (outside the pool: it is held as
        long as the listener runs) and call ``heard`` with each payload, until the returned
        stop is awaited. A lost connection (the server restarted, a proxy cut it) is opened
        again, waiting longer each time it fails (:data:`RELISTEN_SECONDS`), and
        ``hearing`` is told of both, since what was committed meanwhile went unheard."""
        conn = await self._listener(channel)

        async def listen() -> None:
            nonlocal conn
            while True:
                try:
                    async for note in conn.notifies():
                        heard(note.payload)
                except psycopg.Error as exc:
                    log.warning("lost the notifications on %s: %s", channel, exc)
                if hearing is not None:
                    hearing(False)
                with contextlib.suppress(psycopg.Error):
                    await conn.close()
                conn = await self._relisten(channel)
                if hearing is not None:
                    hearing(True)

        task = asyncio.create_task(listen(), name=f"banmen-listen-{channel}")

        async def stop() -> None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, psycopg.Error):
                await task
            await conn.close()

        return stop

    async def _listener(self, channel: str) -> psycopg.AsyncConnection[Any]:
        """A connection listening on ``channel``, named for whoever looks at the server's
        sessions (``pg_stat_activity``): what it is and which process holds it."""
        conn = await psycopg.AsyncConnection.connect(
            self.url, autocommit=True, application_name=f"banmen {channel} {os.getpid()}"
        )
        await conn.execute(f"LISTEN {channel}")
        return conn

    async def _relisten(self, channel: str) -> psycopg.AsyncConnection[Any]:
        """A new listening connection, tried until one opens."""
        tries = 0
        while True:
            await asyncio.sleep(RELISTEN_SECONDS[min(tries, len(RELISTEN_SECONDS) - 1)])
            tries += 1
            try:
                conn = await self._listener(channel)
            except psycopg.Error as exc:
                log.warning("cannot listen on %s yet: %s", channel, exc)
                continue
            log.info("listening on %s again", channel)
            return conn

    async def _serialize(self, tx: Session, keys: Sequence[str]) -> None:
        """Transaction-level advisory locks, one per key, released at the commit."""
        for key in keys:  # sorted by the caller: every writer locks in one order
            await tx.fetchall("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))", (key,))
