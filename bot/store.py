"""The store: the only code (with :mod:`bot.store_postgres`) that speaks SQL.

The service talks to a :class:`Store` (a Protocol). :class:`SqlStore` holds every query, written
once with ``?`` placeholders in SQL both backends speak; a backend supplies connections,
transactions and two dialect fragments. :class:`SqliteStore` is the embedded default (aiosqlite,
WAL, foreign keys, busy timeout, numbered migrations in ``bot/migrations`` tracked by
``PRAGMA user_version``); :class:`bot.store_postgres.PostgresStore` serves
``BANMEN_DB=postgresql://...`` with the same numbers in ``bot/migrations/postgres``.

Every change to a game is one :class:`Change` written in one transaction, guarded twice: the
game's ``version`` must still be the one the change was computed from, and the move log's
primary key (game, ply) refuses a second writer for the same ply. Either guard failing raises
:class:`ConflictError` and writes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sqlite3
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol, TypeVar

import aiosqlite

from bot.model import (
    LIVE_STATUSES,
    UNCHANGED,
    Announcement,
    BoardResult,
    BoardRow,
    Change,
    Conditional,
    DigestRow,
    EndedGame,
    EntrantRow,
    ExplorerCount,
    GameRow,
    GameStatus,
    GameSummary,
    JobRow,
    JoinOutcome,
    Limits,
    MoveRow,
    NewGame,
    NewTournament,
    NotifyPrefs,
    Offer,
    OfferKind,
    OfferMade,
    OpenPuzzle,
    OutboxRow,
    PracticeRow,
    PuzzlePost,
    PuzzleStreak,
    RatedGame,
    RatingChange,
    RatingRow,
    Result,
    ReviewRow,
    SeatKind,
    SeatRow,
    ShardSlice,
    SiteSessionRow,
    Stats,
    StoredOutcome,
    TournamentPost,
    TournamentRow,
    TournamentSlot,
    TournamentStatus,
    Unchanged,
    Update,
    UserResult,
    VacationRow,
)

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 5000
MIGRATIONS_DIR = Path(__file__).with_name("migrations")
"""SQLite's migrations; PostgreSQL's twins (same numbers and names) are in ``postgres/``."""


class ConflictError(Exception):
    """Someone else changed the game first (the position has changed)."""


class StoreUnreachable(Exception):
    """The database could not be reached in time (the message says where, never the password);
    nothing was written."""


class StoreUncertain(StoreUnreachable):
    """The database went away while a change was being committed: the COMMIT may have been
    applied and its acknowledgement lost, so the change may or may not be written."""


class RatingConflict(Exception):
    """A player's rating changed (another of their games was rated) since the rating change was
    computed; nothing was written: compute it again from the new rating."""


class LimitError(Exception):
    """A change would give a user (``user_id``) or the server (``user_id`` None) more live games
    than ``limit``; nothing was written."""

    def __init__(self, user_id: str | None, limit: int) -> None:
        super().__init__(f"limit of {limit} live games reached for {user_id or 'the server'}")
        self.user_id = user_id
        self.limit = limit


# --- rows (the data model lives in bot.model; re-exported for the store's users) ------------


Announcing = Callable[[int], Sequence[Announcement]]
"""What a new game announces, made from its id (see :meth:`Store.create_game`)."""


class Store(Protocol):
    """Everything the service stores. Implementations must make :meth:`apply` atomic."""

    async def open(self) -> None: ...
    async def close(self) -> None: ...
    async def upsert_user(self, user_id: str, name: str, now_ms: int) -> None: ...
    async def create_game(self, game: NewGame, announce: Announcing | None = None) -> int: ...
    async def load_record(self, game_id: int) -> tuple[GameRow, list[MoveRow]] | None: ...
    async def load_records(
        self, game_ids: Sequence[int]
    ) -> dict[int, tuple[GameRow, list[MoveRow]]]: ...
    async def apply(self, change: Change) -> None: ...
    async def timed_games(self) -> list[GameRow]: ...
    async def paused_games(self) -> list[GameRow]: ...
    async def user_games(self, user_id: str, statuses: Sequence[str]) -> list[GameSummary]: ...
    async def games_at(self, channel_id: str, thread_id: str | None) -> list[int]: ...
    async def running_in(self, channel_id: str) -> list[int]: ...
    async def count_active(self, user_id: str | None, guild_id: str | None) -> int: ...
    async def active_games(self) -> list[GameSummary]: ...
    async def stats(self, user_id: str, game_type: str | None) -> list[Stats]: ...
    async def guild_settings(self, guild_id: str) -> dict[str, str]: ...
    async def set_guild_setting(self, guild_id: str, key: str, value: str) -> None: ...
    async def daily_game(self, game_type: str, day: str, user_id: str) -> int | None: ...
    async def daily_games(self, game_type: str, day: str, guild_id: str | None) -> list[int]: ...
    async def daily_in_play(self, game_type: str, day: str) -> bool: ...
    async def host_secret(self, name: str, fresh: str) -> str: ...
    async def pending_announcements(
        self,
        now_ms: int,
        limit: int,
        shards: ShardSlice | None = None,
        game_id: int | None = None,
    ) -> list[OutboxRow]: ...
    async def announcements_delivered(
        self, keys: Sequence[tuple[int, int, int]], at_ms: int
    ) -> None: ...
    async def announcement_failed(self, key: tuple[int, int, int], next_ms: int) -> None: ...
    async def ratings(
        self, game_type: str | None, user_ids: Sequence[str] | None
    ) -> list[RatingRow]: ...
    async def rating_history(
        self, user_id: str, game_type: str | None, limit: int
    ) -> list[RatingChange]: ...
    async def leaderboard(
        self,
        game_type: str,
        guild_id: str | None,
        *,
        server: bool,
        min_games: int,
        offset: int,
        limit: int,
    ) -> tuple[int, list[RatingRow]]: ...
    async def ended_games(self) -> tuple[list[EndedGame], int]: ...
    async def replace_ratings(self, rated: RatedGame, last_seq: int) -> None: ...
    # lessons (issue 31): progress and the practice board in progress
    async def lesson_stars(self, user_id: str) -> dict[str, int]: ...
    async def last_lesson(self, user_id: str) -> str | None: ...
    async def finish_lesson(self, user_id: str, lesson: str, stars: int, at_ms: int) -> int: ...
    async def practice(self, user_id: str) -> PracticeRow | None: ...
    async def save_practice(self, row: PracticeRow) -> None: ...
    async def drop_practice(self, user_id: str) -> None: ...
    # puzzles (issue 31)
    async def open_puzzle(self, user_id: str) -> OpenPuzzle | None: ...
    async def set_open_puzzle(self, user_id: str, puzzle: OpenPuzzle | None) -> None: ...
    async def puzzle_attempt(
        self, user_id: str, puzzle_id: str, *, solved_ms: int | None = None
    ) -> None: ...
    async def puzzle_progress(self, user_id: str) -> dict[str, tuple[int, bool]]: ...
    async def puzzle_streak(self, user_id: str) -> PuzzleStreak | None: ...
    async def set_puzzle_streak(self, user_id: str, streak: PuzzleStreak) -> None: ...
    async def guilds_with_setting(self, key: str) -> list[tuple[str, str]]: ...
    async def add_puzzle_post(self, post: PuzzlePost) -> None: ...
    async def pending_puzzle_posts(self) -> list[PuzzlePost]: ...
    async def puzzle_post_delivered(self, guild_id: str, day: str, at_ms: int) -> None: ...
    # correspondence life (issue 33): vacations
    async def vacation(self, user_id: str) -> VacationRow | None: ...
    async def vacations(self) -> list[VacationRow]: ...
    async def save_vacation(self, row: VacationRow) -> None: ...
    async def conditional_games(self) -> list[int]: ...
    async def notify_prefs(self) -> list[NotifyPrefs]: ...
    async def save_notify_prefs(self, prefs: NotifyPrefs) -> None: ...
    async def write_digests(self, marks: Sequence[tuple[str, int, str | None]]) -> None: ...
    async def pending_digests(self, now_ms: int, limit: int) -> list[DigestRow]: ...
    async def digests_delivered(self, marks: Sequence[tuple[str, int]]) -> None: ...
    async def digest_failed(self, user_id: str, mark_ms: int, next_ms: int) -> None: ...
    async def digest_games(self, since: Mapping[str, int | None]) -> dict[str, list[int]]: ...
    # the computer's reviews (issue 32)
    async def review(self, game_id: int) -> ReviewRow | None: ...
    async def save_review(self, review: ReviewRow) -> None: ...
    async def set_review_public(self, game_id: int, public: bool) -> bool: ...
    # tournaments (issue 34): see _SqlTournaments
    async def create_tournament(self, new: NewTournament, creator_name: str | None) -> int: ...
    async def tournament(self, tournament_id: int) -> TournamentRow | None: ...
    async def tournaments(
        self, statuses: Sequence[TournamentStatus], guild_id: str | None = None
    ) -> list[TournamentRow]: ...
    async def entrants(self, tournament_id: int) -> list[EntrantRow]: ...
    async def boards(self, tournament_id: int) -> list[BoardRow]: ...
    async def join_tournament(
        self, tournament_id: int, user_id: str, name: str, now_ms: int
    ) -> JoinOutcome: ...
    async def leave_tournament(self, tournament_id: int, user_id: str) -> bool: ...
    async def withdraw_entrant(self, tournament_id: int, user_id: str, round_no: int) -> bool: ...
    async def start_round(
        self,
        tournament_id: int,
        expected: int,
        boards: Sequence[BoardRow],
        now_ms: int,
        rounds: int | None = None,
        post: tuple[str, str] | None = None,
    ) -> bool: ...
    async def record_board(self, slot: TournamentSlot, result: BoardResult) -> bool: ...
    async def end_tournament(
        self,
        tournament_id: int,
        status: TournamentStatus,
        expected: int,
        now_ms: int,
        post: tuple[str, str] | None = None,
    ) -> bool: ...
    async def set_tournament_message(self, tournament_id: int, message_id: str) -> None: ...
    async def tournament_of_game(self, game_id: int) -> TournamentSlot | None: ...
    async def add_tournament_post(
        self, tournament_id: int, name: str, body: str, now_ms: int
    ) -> bool: ...
    async def pending_tournament_posts(self, now_ms: int, limit: int) -> list[TournamentPost]: ...
    async def tournament_post_delivered(
        self, tournament_id: int, name: str, at_ms: int
    ) -> None: ...
    async def tournament_post_failed(self, tournament_id: int, name: str, next_ms: int) -> None: ...
    # the web pages (bot/service/review/site.py)
    async def web_token(self, game_id: int, fresh: str) -> str: ...
    async def web_game(self, token: str) -> int | None: ...
    async def web_games(self, guild_id: str, limit: int) -> list[tuple[int, str]]: ...
    # the site's sign-in (issue 51)
    async def save_site_session(self, row: SiteSessionRow) -> None: ...
    async def site_session(self, secret_hash: str, now_ms: int) -> SiteSessionRow | None: ...
    async def drop_site_session(self, secret_hash: str, now_ms: int) -> None: ...
    # several processes on one store (issue 49): logins, the REST budget, changes
    async def take_login_turn(self, bucket: int, now_ms: int, interval_ms: int) -> int: ...
    async def take_rest_slot(self, now_ms: int, interval_ms: int, ahead_ms: int) -> int: ...
    async def game_versions(self, game_ids: Sequence[int]) -> dict[int, int]: ...
    async def listen_games(
        self,
        changed: Callable[[int, int, str | None, bool], None],
        hearing: Callable[[bool], None] | None = None,
    ) -> Callable[[], Awaitable[None]] | None: ...
    # heavy work handed to worker processes (issue 49)
    async def queue_job(
        self, kind: str, priority: int, payload: bytes, now_ms: int, deadline_ms: int | None
    ) -> int: ...
    async def take_job(
        self, worker: str, max_priority: int, now_ms: int, lease_ms: int
    ) -> JobRow | None: ...
    async def renew_job(self, job_id: int, worker: str, lease_ms: int) -> bool: ...
    async def finish_job(
        self, job_id: int, worker: str, now_ms: int, result: bytes | None, failed: str | None
    ) -> bool: ...
    async def job(self, job_id: int) -> JobRow | None: ...
    async def withdraw_job(self, job_id: int) -> bool: ...
    async def jobs_running(self, now_ms: int) -> int: ...
    async def drop_job(self, job_id: int) -> None: ...
    async def drop_stale_jobs(self, before_ms: int) -> int: ...
    async def listen_jobs(
        self, queued: Callable[[], None], done: Callable[[int], None]
    ) -> Callable[[], Awaitable[None]] | None: ...
    # the opening explorer (issue 50)
    async def explorer(
        self, game_type: str, positions: Sequence[int], scope: str, rated: bool
    ) -> list[ExplorerCount]: ...
    async def finished_games(self, after_id: int, limit: int) -> list[int]: ...
    async def replace_explorer(self, counts: Sequence[ExplorerCount]) -> None: ...


class Session(Protocol):
    """One connection inside :meth:`SqlStore._reading`, :meth:`SqlStore._writing` or
    :meth:`SqlStore._snapshot`. SQL is written once, with ``?`` placeholders, in the dialect
    both backends speak."""

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> None:
        """Run one statement (in a write, PostgreSQL may report its error only at the next
        :meth:`fetchall` or at the commit: both roll the whole transaction back). A statement
        whose effect must be checked says ``RETURNING`` and is run with :meth:`fetchall`."""

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None: ...

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Sequence[Any]]: ...


# --- migrations -----------------------------------------------------------------------------


def migrations(folder: Path = MIGRATIONS_DIR) -> list[tuple[int, str, str]]:
    """The numbered migrations in ``folder``, in order: (number, file name, SQL)."""
    out: list[tuple[int, str, str]] = []
    for entry in folder.iterdir():
        name = entry.name
        if name.endswith(".sql") and name[:4].isdigit():
            out.append((int(name[:4]), name, entry.read_text(encoding="utf-8")))
    out.sort()
    for i, (n, name, _) in enumerate(out, start=1):
        if n != i:
            raise RuntimeError(f"migration {name} is out of sequence (expected {i:04d})")
    return out


def _statements(script: str) -> list[str]:
    """The SQL statements of a migration script, one by one (comments stay with the next)."""
    out: list[str] = []
    buffer = ""
    for line in script.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            out.append(buffer.strip())
            buffer = ""
    return out


def is_postgres_url(location: str) -> bool:
    """``BANMEN_DB`` names a PostgreSQL database (``postgresql://...``), not a SQLite file."""
    return location.startswith(("postgresql://", "postgres://"))


LATEST_VERSION = len(migrations())


_GAME_COLUMNS = (
    "id, game_type, players, options, seed, status, guild_id, channel_id, thread_id, message_id, "
    "creator_id, clock, reminders, created_ms, started_ms, finished_ms, result, turn_started_ms, "
    "deadline_ms, reminders_sent, offer, version, expires_ms, offers_made, imported_ms, rated, "
    "daily_day, reseed, reseed_from, paused_ms, paused_until_ms, conditional, reach"
)


_G_COLUMNS = ", ".join(f"g.{c.strip()}" for c in _GAME_COLUMNS.split(","))
_SEAT_COLUMNS = "s.seat, s.kind, s.user_id, u.name, s.bank_ms, s.invited_id, s.ai_level"


_MOVE_COLUMNS = "ply, actor, move, user_id, secret, at_ms"
_IN_CHUNK = 500
"""Ids in one ``IN (...)`` list at most (SQLite allows a few thousand parameters)."""


def _move_row(r: Sequence[Any]) -> MoveRow:
    """A row of ``_MOVE_COLUMNS``."""
    return MoveRow(int(r[0]), int(r[1]), r[2], r[3], bool(r[4]), int(r[5]))


def _seat_row(r: Sequence[Any]) -> SeatRow:
    """A row of ``_SEAT_COLUMNS``."""
    return SeatRow(int(r[0]), SeatKind(r[1]), r[2], r[3], r[4], r[5], r[6])


def _ints(text: str) -> tuple[int, ...]:
    return tuple(int(x) for x in text.split(",") if x)


def _int_text(values: Sequence[int]) -> str:
    return ",".join(str(v) for v in values)


def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def _outcome_text(outcome: StoredOutcome) -> str:
    return _json(outcome.to_json())


def _outcome(text: str | None) -> StoredOutcome | None:
    """A game's stored result (``None``: none, or one no longer readable, which is logged)."""
    if not text:
        return None
    try:
        return StoredOutcome.from_json(json.loads(text))
    except ValueError as exc:
        log.error("a stored result is not readable (%s): %s", exc, text[:200])
        return None


def _offer_text(offer: Offer) -> str:
    return _json(offer.to_json())


def _offers_made_text(made: tuple[OfferMade, ...]) -> str:
    return json.dumps([[str(o.kind), o.seat, o.move] for o in made])


S = TypeVar("S")
V = TypeVar("V")


def _given(value: S | Unchanged | None, encode: Callable[[S], V]) -> V | Unchanged | None:
    """``value`` encoded for its column (``None`` and :data:`UNCHANGED` as they are)."""
    if value is None or isinstance(value, Unchanged):
        return value
    return encode(value)


SHOWN_COLUMNS = frozenset({"status", "result", "started_ms", "finished_ms"})
"""The columns of a game whose change its page shows (besides its moves and seats)."""


def shows(change: Change) -> bool:
    """Whether ``change`` changes what the game's page shows: a move (or a takeback), its
    seats, its start, status or result; not its place, clock, reminders or offers (recording
    the message of a move's card is a change of its own: the pages need not look again)."""
    if change.append or change.truncate_from is not None or change.seats:
        return True
    return any(name in SHOWN_COLUMNS for name, _ in _update_columns(change.update))


def _update_columns(update: Update) -> list[tuple[str, object]]:
    """The columns ``update`` sets and their encoded values (the others are left alone)."""
    columns: dict[str, object] = {
        "status": _given(update.status, str),
        "channel_id": update.channel_id,
        "thread_id": update.thread_id,
        "message_id": update.message_id,
        "started_ms": update.started_ms,
        "finished_ms": update.finished_ms,
        "result": _given(update.result, _outcome_text),
        "turn_started_ms": update.turn_started_ms,
        "deadline_ms": update.deadline_ms,
        "reminders_sent": _given(update.reminders_sent, _int_text),
        "offer": _given(update.offer, _offer_text),
        "expires_ms": update.expires_ms,
        "offers_made": _given(update.offers_made, _offers_made_text),
        "paused_ms": update.paused_ms,
        "paused_until_ms": update.paused_until_ms,
        "conditional": _given(update.conditional, lambda c: _json(c.to_json())),
        "reach": update.reach,
    }
    return [(name, value) for name, value in columns.items() if value is not UNCHANGED]


class _SqlBase(ABC):
    """What a backend supplies: connections, transactions and two dialect fragments."""

    GUILD_SHARD_KEY: str = ""
    """SQL for ``(guild_id >> 22)`` of the column ``{col}`` (0 for none or a non-number)."""
    CROSS_JOIN: str = "JOIN"
    """The join that keeps its order (SQLite's planner hint ``CROSS JOIN ... ON``)."""

    @abstractmethod
    async def open(self) -> None: ...

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    def _reading(self) -> AbstractAsyncContextManager[Session]:
        """Statements that only read, each on its own (no transaction)."""

    @abstractmethod
    def _writing(self) -> AbstractAsyncContextManager[Session]:
        """One transaction: committed when the block ends, rolled back on any exception; the
        database's integrity errors (a second writer for one ply, a duplicate daily game)
        become :class:`ConflictError`."""

    @abstractmethod
    def _snapshot(self) -> AbstractAsyncContextManager[Session]:
        """Reads that see one consistent state of the database."""

    @abstractmethod
    async def _serialize(self, tx: Session, keys: Sequence[str]) -> None:
        """Inside a write: make concurrent writers that name the same keys (``user:ID``,
        ``guild:ID``, ``ratings``) wait for each other until this one commits. Callers pass
        the keys sorted and take them before any row lock, so nobody waits in a circle."""


class _SqlCommunity(_SqlBase):
    """Statistics, server settings, the daily deal, host secrets and the outbox."""

    # -- community -------------------------------------------------------------------------
    async def stats(self, user_id: str, game_type: str | None) -> list[Stats]:
        sql = (
            "SELECT game_type, games, wins, losses, draws, streak, best_streak FROM user_stats "
            "WHERE user_id = ?"
        )
        params: tuple[Any, ...] = (user_id,)
        if game_type is not None:
            sql += " AND game_type = ?"
            params += (game_type,)
        async with self._reading() as tx:
            rows = await tx.fetchall(sql + " ORDER BY game_type", params)
        return [Stats(r[0], *(int(x) for x in r[1:])) for r in rows]

    async def guild_settings(self, guild_id: str) -> dict[str, str]:
        async with self._reading() as tx:
            rows = await tx.fetchall(
                "SELECT key, value FROM guild_settings WHERE guild_id = ?", (guild_id,)
            )
        return {r[0]: r[1] for r in rows}

    async def set_guild_setting(self, guild_id: str, key: str, value: str) -> None:
        async with self._writing() as tx:
            await tx.execute(
                "INSERT INTO guild_settings (guild_id, key, value) VALUES (?, ?, ?) "
                "ON CONFLICT (guild_id, key) DO UPDATE SET value = excluded.value",
                (guild_id, key, value),
            )

    async def daily_game(self, game_type: str, day: str, user_id: str) -> int | None:
        async with self._reading() as tx:
            rows = await tx.fetchall(
                "SELECT game_id FROM daily_games WHERE game_type = ? AND day = ? AND user_id = ?",
                (game_type, day, user_id),
            )
        return int(rows[0][0]) if rows else None

    async def daily_games(self, game_type: str, day: str, guild_id: str | None) -> list[int]:
        where, params = _same("guild_id", guild_id)
        async with self._reading() as tx:
            rows = await tx.fetchall(
                f"SELECT game_id FROM daily_games WHERE game_type = ? AND day = ? AND {where} "
                "ORDER BY game_id",
                (game_type, day, *params),
            )
        return [int(r[0]) for r in rows]

    async def daily_in_play(self, game_type: str, day: str) -> bool:
        """Is any game of ``day``'s daily deal (in any server) still open or running?"""
        marks = ",".join("?" * len(LIVE_STATUSES))
        async with self._reading() as tx:
            rows = await tx.fetchall(
                "SELECT 1 FROM daily_games d JOIN games g ON g.id = d.game_id "
                f"WHERE d.game_type = ? AND d.day = ? AND g.status IN ({marks}) LIMIT 1",
                (game_type, day, *(str(s) for s in LIVE_STATUSES)),
            )
        return bool(rows)

    async def host_secret(self, name: str, fresh: str) -> str:
        """The secret called ``name``; stored as ``fresh`` the first time it is asked for (a
        second process asking at the same moment gets the one that was stored)."""
        async with self._writing() as tx:
            await tx.execute(
                "INSERT INTO host_secrets (name, value) VALUES (?, ?) "
                "ON CONFLICT (name) DO NOTHING",
                (name, fresh),
            )
            rows = await tx.fetchall("SELECT value FROM host_secrets WHERE name = ?", (name,))
        return str(rows[0][0])

    # -- the outbox ---------------------------------------------------------------------------
    async def pending_announcements(
        self,
        now_ms: int,
        limit: int,
        shards: ShardSlice | None = None,
        game_id: int | None = None,
    ) -> list[OutboxRow]:
        """Undelivered announcements due by ``now_ms``, the soonest due first (a game's in the
        order they were made, unless one is waiting for a retry); with ``shards``, only those
        of games whose guild these shards hold (the other processes post the rest); with
        ``game_id``, only that game's, in the order they were made."""
        sql = (
            "SELECT o.game_id, o.version, o.n, o.ply, o.event, o.body, o.created_ms, o.attempts, "
            "o.next_ms FROM outbox o "
        )
        params: list[Any] = []
        if shards is not None:
            shard = self.GUILD_SHARD_KEY.replace("{col}", "g.guild_id")
            marks = ",".join("?" * len(shards.ids))
            sql += f"JOIN games g ON g.id = o.game_id AND ({shard}) % ? IN ({marks}) "
            params += [shards.count, *shards.ids]
        order = "o.next_ms, o.game_id, o.version, o.n"
        if game_id is not None:
            sql += "WHERE o.game_id = ? AND "
            params.append(game_id)
            order = "o.version, o.n"
        else:
            sql += "WHERE "
        async with self._reading() as tx:
            rows = await tx.fetchall(
                sql + f"o.delivered_ms IS NULL AND o.next_ms <= ? ORDER BY {order} LIMIT ?",
                (*params, now_ms, limit),
            )
        return [
            OutboxRow(
                int(r[0]),
                int(r[1]),
                int(r[2]),
                int(r[3]),
                r[4],
                r[5],
                int(r[6]),
                int(r[7]),
                int(r[8]),
            )
            for r in rows
        ]

    async def announcements_delivered(
        self, keys: Sequence[tuple[int, int, int]], at_ms: int
    ) -> None:
        """The announcements ``keys`` were posted (one transaction for them all)."""
        if not keys:
            return
        async with self._writing() as tx:
            await tx.executemany(
                "UPDATE outbox SET delivered_ms = ? "
                "WHERE game_id = ? AND version = ? AND n = ? AND delivered_ms IS NULL",
                [(at_ms, *key) for key in keys],
            )

    async def announcement_failed(self, key: tuple[int, int, int], next_ms: int) -> None:
        """A try failed: count it and wait until ``next_ms`` before the next."""
        async with self._writing() as tx:
            await tx.execute(
                "UPDATE outbox SET attempts = attempts + 1, next_ms = ? "
                "WHERE game_id = ? AND version = ? AND n = ? AND delivered_ms IS NULL",
                (next_ms, *key),
            )


class _SqlRatings(_SqlCommunity):
    """Ratings (docs/ratings.md): the rated end's rows, profiles, leaderboards, the rebuild."""

    async def _write_rating(self, tx: Session, rated: RatedGame) -> None:
        """Inside a transaction: each player's new rating, written only over the rating it was
        computed from, and the game's history rows, numbered after every game rated before."""
        await self._serialize(tx, ["ratings"])  # one number per rated game, in end order
        rows = await tx.fetchall("SELECT coalesce(max(seq), 0) + 1 FROM rating_history")
        seq = int(rows[0][0]) if rows else 1
        before = {c.user_id: c for c in rated.changes}
        for r in rated.after:
            was = before[r.user_id]
            values = (r.mu, r.sigma, r.ordinal, r.games, r.wins, r.losses, r.draws)
            if was.games_before == 0:
                written = await tx.fetchall(
                    "INSERT INTO ratings (mu, sigma, ordinal, games, wins, losses, draws, "
                    "user_id, game_type) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT (user_id, game_type) DO NOTHING RETURNING 1",
                    (*values, r.user_id, r.game_type),
                )
            else:
                written = await tx.fetchall(
                    "UPDATE ratings SET mu = ?, sigma = ?, ordinal = ?, games = ?, wins = ?, "
                    "losses = ?, draws = ? WHERE user_id = ? AND game_type = ? AND games = ? "
                    "AND mu = ? AND sigma = ? RETURNING 1",
                    (
                        *values,
                        r.user_id,
                        r.game_type,
                        was.games_before,
                        was.mu_before,
                        was.sigma_before,
                    ),
                )
            if len(written) != 1:
                raise RatingConflict(f"the rating of {r.user_id} in {r.game_type} changed")
        await self._insert_history(tx, [replace(c, seq=seq) for c in rated.changes])

    @staticmethod
    async def _insert_history(tx: Session, changes: Sequence[RatingChange]) -> None:
        """History rows, and their players as members of the server's boards."""
        await tx.executemany(
            "INSERT INTO rating_members (guild_id, game_type, user_id) "
            "VALUES (coalesce(?, ''), ?, ?) ON CONFLICT DO NOTHING",
            [(c.guild_id, c.game_type, c.user_id) for c in changes],
        )
        await tx.executemany(
            "INSERT INTO rating_history (seq, game_id, user_id, game_type, guild_id, place, "
            "result, games_before, mu_before, sigma_before, mu_after, sigma_after, at_ms) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    c.seq,
                    c.game_id,
                    c.user_id,
                    c.game_type,
                    c.guild_id,
                    c.place,
                    str(c.result),
                    c.games_before,
                    c.mu_before,
                    c.sigma_before,
                    c.mu_after,
                    c.sigma_after,
                    c.at_ms,
                )
                for c in changes
            ],
        )

    async def ratings(
        self, game_type: str | None, user_ids: Sequence[str] | None
    ) -> list[RatingRow]:
        """The ratings of these users (``None``: everyone's), in one game or in every game."""
        where: list[str] = []
        params: list[Any] = []
        if user_ids is not None:
            if not user_ids:
                return []
            where.append(f"r.user_id IN ({','.join('?' * len(user_ids))})")
            params += list(user_ids)
        if game_type is not None:
            where.append("r.game_type = ?")
            params.append(game_type)
        async with self._reading() as tx:
            rows = await tx.fetchall(
                f"SELECT {_RATING_COLUMNS} FROM ratings r JOIN users u ON u.id = r.user_id "
                + (f"WHERE {' AND '.join(where)} " if where else "")
                + "ORDER BY r.game_type, r.user_id",
                params,
            )
        return [_rating_row(r) for r in rows]

    async def rating_history(
        self, user_id: str, game_type: str | None, limit: int
    ) -> list[RatingChange]:
        """Every player's rating change in the user's last ``limit`` rated games (in one game
        type, or in all), the newest game first."""
        mine = "SELECT game_id FROM rating_history WHERE user_id = ?"
        params: list[Any] = [user_id]
        if game_type is not None:
            mine += " AND game_type = ?"
            params.append(game_type)
        async with self._reading() as tx:
            rows = await tx.fetchall(
                "SELECT h.game_id, h.user_id, h.game_type, h.guild_id, h.place, h.result, "
                "h.games_before, h.mu_before, h.sigma_before, h.mu_after, h.sigma_after, "
                "h.at_ms, h.seq, u.name FROM rating_history h JOIN users u ON u.id = h.user_id "
                f"WHERE h.game_id IN ({mine} ORDER BY seq DESC LIMIT ?) "
                "ORDER BY h.seq DESC, h.place, h.user_id",
                (*params, limit),
            )
        return [
            RatingChange(
                game_id=int(r[0]),
                user_id=r[1],
                game_type=r[2],
                guild_id=r[3],
                place=int(r[4]),
                result=Result(r[5]),
                games_before=int(r[6]),
                mu_before=float(r[7]),
                sigma_before=float(r[8]),
                mu_after=float(r[9]),
                sigma_after=float(r[10]),
                at_ms=int(r[11]),
                seq=int(r[12]),
                name=r[13],
            )
            for r in rows
        ]

    async def leaderboard(
        self,
        game_type: str,
        guild_id: str | None,
        *,
        server: bool,
        min_games: int,
        offset: int,
        limit: int,
    ) -> tuple[int, list[RatingRow]]:
        """One page of a game's ratings, best first, of players with at least ``min_games``
        rated games (with ``server``: only those who played rated games in ``guild_id``), and
        how many such players there are. Index walks only (``ratings_board``, or the server's
        ``rating_members``); no game is read, and names are read for the page's rows alone."""
        if server:
            source = (
                f"rating_members m {self.CROSS_JOIN} ratings r ON r.user_id = m.user_id "
                "AND r.game_type = m.game_type "
                "WHERE m.guild_id = coalesce(?, '') AND m.game_type = ? AND r.games >= ?"
            )
            params: list[Any] = [guild_id, game_type, min_games]
        else:
            source = "ratings r WHERE r.game_type = ? AND r.games >= ?"
            params = [game_type, min_games]
        async with self._reading() as tx:
            count = await tx.fetchall(f"SELECT count(*) FROM {source}", params)
            rows = await tx.fetchall(
                f"SELECT {_RATING_COLUMNS} FROM (SELECT r.user_id FROM {source} "
                "ORDER BY r.ordinal DESC, r.user_id LIMIT ? OFFSET ?) p "
                "JOIN ratings r ON r.user_id = p.user_id AND r.game_type = ? "
                "JOIN users u ON u.id = r.user_id ORDER BY r.ordinal DESC, r.user_id",
                (*params, limit, offset, game_type),
            )
        return int(count[0][0]), [_rating_row(r) for r in rows]

    async def ended_games(self) -> tuple[list[EndedGame], int]:
        """Every finished game created rated, in end order (the order they were rated in, then
        by finish time), and the number of the last rated game (for :meth:`replace_ratings`)."""
        async with self._snapshot() as tx:  # one snapshot for both reads
            rows = await tx.fetchall(
                "SELECT g.id, g.game_type, g.guild_id, g.finished_ms, g.rated, g.result, "
                "s.seat, s.kind, s.user_id FROM games g JOIN seats s ON s.game_id = g.id "
                "LEFT JOIN (SELECT game_id, min(seq) AS seq FROM rating_history "
                "GROUP BY game_id) h ON h.game_id = g.id "
                "WHERE g.status = 'finished' AND g.rated = 1 "
                "ORDER BY h.seq IS NULL, h.seq, g.finished_ms, g.id, s.seat"
            )
            last = await tx.fetchall("SELECT coalesce(max(seq), 0) FROM rating_history")
        games: list[EndedGame] = []
        seats: list[SeatRow] = []
        for i, r in enumerate(rows):
            seats.append(SeatRow(int(r[6]), SeatKind(r[7]), r[8]))
            if i + 1 == len(rows) or rows[i + 1][0] != r[0]:
                result = _outcome(r[5])
                games.append(
                    EndedGame(
                        int(r[0]), r[1], r[2], int(r[3] or 0), bool(r[4]), result, tuple(seats)
                    )
                )
                seats = []
        return games, int(last[0][0])

    async def replace_ratings(self, rated: RatedGame, last_seq: int) -> None:
        """Replace every rating and the whole history (a rebuild) in one transaction; refused
        with :class:`RatingConflict` if a game was rated after ``last_seq`` meanwhile."""
        async with self._writing() as tx:
            await self._serialize(tx, ["ratings"])  # no game is rated while this runs
            row = await tx.fetchall("SELECT coalesce(max(seq), 0) FROM rating_history")
            if int(row[0][0]) != last_seq:
                raise RatingConflict("a game was rated during the rebuild")
            for table in ("rating_members", "rating_history", "ratings"):
                await tx.execute(f"DELETE FROM {table}")
            await tx.executemany(
                "INSERT INTO ratings (user_id, game_type, mu, sigma, ordinal, games, wins, "
                "losses, draws) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        r.user_id,
                        r.game_type,
                        r.mu,
                        r.sigma,
                        r.ordinal,
                        r.games,
                        r.wins,
                        r.losses,
                        r.draws,
                    )
                    for r in rated.after
                ],
            )
            await self._insert_history(tx, rated.changes)


class _SqlPuzzles(_SqlBase):
    """Puzzles (issue 31): open puzzles, attempts, streaks, the daily posts; never the games,
    statistics or ratings."""

    async def open_puzzle(self, user_id: str) -> OpenPuzzle | None:
        async with self._reading() as tx:
            rows = await tx.fetchall(
                "SELECT puzzle_id, moves, daily_day, opened_ms FROM puzzle_open WHERE user_id = ?",
                (user_id,),
            )
        if not rows:
            return None
        r = rows[0]
        moves = tuple(str(m) for m in json.loads(r[1]))
        return OpenPuzzle(user_id, str(r[0]), moves, r[2], int(r[3]))

    async def set_open_puzzle(self, user_id: str, puzzle: OpenPuzzle | None) -> None:
        """Open ``puzzle`` for ``user_id`` (in place of any other), or close theirs (None)."""
        async with self._writing() as tx:
            await tx.execute("DELETE FROM puzzle_open WHERE user_id = ?", (user_id,))
            if puzzle is not None:
                await tx.execute(
                    "INSERT INTO puzzle_open (user_id, puzzle_id, moves, daily_day, opened_ms) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (
                        user_id,
                        puzzle.puzzle_id,
                        json.dumps(list(puzzle.moves), ensure_ascii=False),
                        puzzle.daily_day,
                        puzzle.opened_ms,
                    ),
                )

    async def puzzle_attempt(
        self, user_id: str, puzzle_id: str, *, solved_ms: int | None = None
    ) -> None:
        """A wrong answer (``solved_ms`` None: one more attempt) or the puzzle solved."""
        wrong = 0 if solved_ms is not None else 1
        async with self._writing() as tx:
            await tx.execute(
                "INSERT INTO puzzle_progress (user_id, puzzle_id, attempts, solved_ms) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (user_id, puzzle_id) DO UPDATE SET "
                "attempts = puzzle_progress.attempts + excluded.attempts, "
                "solved_ms = COALESCE(puzzle_progress.solved_ms, excluded.solved_ms)",
                (user_id, puzzle_id, wrong, solved_ms),
            )

    async def puzzle_progress(self, user_id: str) -> dict[str, tuple[int, bool]]:
        """Each puzzle the user tried: (wrong answers, solved)."""
        async with self._reading() as tx:
            rows = await tx.fetchall(
                "SELECT puzzle_id, attempts, solved_ms FROM puzzle_progress WHERE user_id = ?",
                (user_id,),
            )
        return {str(r[0]): (int(r[1]), r[2] is not None) for r in rows}

    async def puzzle_streak(self, user_id: str) -> PuzzleStreak | None:
        async with self._reading() as tx:
            rows = await tx.fetchall(
                "SELECT last_day, streak, best FROM puzzle_streaks WHERE user_id = ?", (user_id,)
            )
        return PuzzleStreak(str(rows[0][0]), int(rows[0][1]), int(rows[0][2])) if rows else None

    async def set_puzzle_streak(self, user_id: str, streak: PuzzleStreak) -> None:
        async with self._writing() as tx:
            await tx.execute(
                "INSERT INTO puzzle_streaks (user_id, last_day, streak, best) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET last_day = excluded.last_day, "
                "streak = excluded.streak, best = excluded.best",
                (user_id, streak.last_day, streak.streak, streak.best),
            )

    async def guilds_with_setting(self, key: str) -> list[tuple[str, str]]:
        """(server, value) of every server that set ``key``."""
        async with self._reading() as tx:
            rows = await tx.fetchall(
                "SELECT guild_id, value FROM guild_settings WHERE key = ? ORDER BY guild_id",
                (key,),
            )
        return [(str(r[0]), str(r[1])) for r in rows]

    async def add_puzzle_post(self, post: PuzzlePost) -> None:
        """Plan a server's post of a day; a second plan for the same server and day is
        ignored (two processes, a restart: one post a day)."""
        async with self._writing() as tx:
            await tx.execute(
                "INSERT INTO puzzle_posts (guild_id, day, channel_id, puzzle_id) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (guild_id, day) DO NOTHING",
                (post.guild_id, post.day, post.channel_id, post.puzzle_id),
            )

    async def pending_puzzle_posts(self) -> list[PuzzlePost]:
        async with self._reading() as tx:
            rows = await tx.fetchall(
                "SELECT guild_id, day, channel_id, puzzle_id FROM puzzle_posts "
                "WHERE delivered_ms IS NULL ORDER BY day, guild_id"
            )
        return [PuzzlePost(str(r[0]), str(r[1]), str(r[2]), str(r[3]), None) for r in rows]

    async def puzzle_post_delivered(self, guild_id: str, day: str, at_ms: int) -> None:
        async with self._writing() as tx:
            await tx.execute(
                "UPDATE puzzle_posts SET delivered_ms = ? "
                "WHERE guild_id = ? AND day = ? AND delivered_ms IS NULL",
                (at_ms, guild_id, day),
            )


class _SqlLessons(_SqlBase):
    """Lessons (issue 31): the stars earned and the practice board in progress; never a game,
    so no statistics, ratings or lists."""

    async def lesson_stars(self, user_id: str) -> dict[str, int]:
        """The user's best stars by lesson id."""
        async with self._reading() as tx:
            rows = await tx.fetchall(
                "SELECT lesson, stars FROM lesson_stars WHERE user_id = ?", (user_id,)
            )
        return {str(r[0]): int(r[1]) for r in rows}

    async def last_lesson(self, user_id: str) -> str | None:
        """The lesson the user finished last (None: none yet)."""
        async with self._reading() as tx:
            rows = await tx.fetchall(
                "SELECT lesson FROM lesson_stars WHERE user_id = ? ORDER BY at_ms DESC, lesson "
                "LIMIT 1",
                (user_id,),
            )
        return str(rows[0][0]) if rows else None

    async def finish_lesson(self, user_id: str, lesson: str, stars: int, at_ms: int) -> int:
        """Keep the better of ``stars`` and the stars already earned, and close the user's
        practice board, in one transaction; the best stars now."""
        async with self._writing() as tx:
            await tx.execute(
                "INSERT INTO lesson_stars (user_id, lesson, stars, at_ms) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (user_id, lesson) DO UPDATE SET "
                "stars = CASE WHEN excluded.stars > lesson_stars.stars "
                "THEN excluded.stars ELSE lesson_stars.stars END, at_ms = excluded.at_ms",
                (user_id, lesson, stars, at_ms),
            )
            await tx.execute("DELETE FROM practice WHERE user_id = ?", (user_id,))
            rows = await tx.fetchall(
                "SELECT stars FROM lesson_stars WHERE user_id = ? AND lesson = ?",
                (user_id, lesson),
            )
        return int(rows[0][0])

    async def practice(self, user_id: str) -> PracticeRow | None:
        async with self._reading() as tx:
            rows = await tx.fetchall(
                "SELECT user_id, kind, item, moves, learner, tries, hints, at_ms FROM practice "
                "WHERE user_id = ?",
                (user_id,),
            )
        if not rows:
            return None
        r = rows[0]
        moves = tuple(str(m) for m in json.loads(r[3]))
        return PracticeRow(str(r[0]), str(r[1]), str(r[2]), moves, *(int(x) for x in r[4:]))

    async def save_practice(self, row: PracticeRow) -> None:
        async with self._writing() as tx:
            await tx.execute(
                "INSERT INTO practice (user_id, kind, item, moves, learner, tries, hints, at_ms) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET "
                "kind = excluded.kind, item = excluded.item, moves = excluded.moves, "
                "learner = excluded.learner, tries = excluded.tries, hints = excluded.hints, "
                "at_ms = excluded.at_ms",
                (
                    row.user_id,
                    row.kind,
                    row.item,
                    _json(list(row.moves)),
                    row.learner,
                    row.tries,
                    row.hints,
                    row.at_ms,
                ),
            )

    async def drop_practice(self, user_id: str) -> None:
        async with self._writing() as tx:
            await tx.execute("DELETE FROM practice WHERE user_id = ?", (user_id,))


class _SqlCorrespondence(_SqlBase):
    """Correspondence life (issue 33): vacations, conditional moves, notification
    preferences and what a digest reads."""

    _VACATION = "SELECT user_id, since_ms, until_ms, year, used_ms, holding_ms FROM vacations"

    async def vacation(self, user_id: str) -> VacationRow | None:
        async with self._reading() as tx:
            rows = await tx.fetchall(f"{self._VACATION} WHERE user_id = ?", (user_id,))
        return _vacation_row(rows[0]) if rows else None

    async def vacations(self) -> list[VacationRow]:
        """Every vacation that runs (read at start-up)."""
        async with self._reading() as tx:
            rows = await tx.fetchall(f"{self._VACATION} WHERE since_ms IS NOT NULL")
        return [_vacation_row(r) for r in rows]

    async def save_vacation(self, row: VacationRow) -> None:
        async with self._writing() as tx:
            await tx.execute(
                "INSERT INTO vacations (user_id, since_ms, until_ms, year, used_ms, holding_ms) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET "
                "since_ms = excluded.since_ms, until_ms = excluded.until_ms, "
                "year = excluded.year, used_ms = excluded.used_ms, "
                "holding_ms = excluded.holding_ms",
                (row.user_id, row.since_ms, row.until_ms, row.year, row.used_ms, row.holding_ms),
            )

    async def conditional_games(self) -> list[int]:
        """Running games where a player waits with conditional moves (read at start-up: a
        reply may be due)."""
        async with self._reading() as tx:
            rows = await tx.fetchall(
                "SELECT id FROM games WHERE conditional IS NOT NULL AND status = 'active' "
                "ORDER BY id"
            )
        return [int(r[0]) for r in rows]

    _PREFS = (
        "user_id, ping, digest, digest_hour, tz, quiet_from, quiet_to, last_digest_ms, dm_closed"
    )

    async def notify_prefs(self) -> list[NotifyPrefs]:
        """Every user's notification preferences (read at start-up)."""
        async with self._reading() as tx:
            rows = await tx.fetchall(f"SELECT {self._PREFS} FROM notify_prefs ORDER BY user_id")
        return [
            NotifyPrefs(r[0], bool(r[1]), bool(r[2]), int(r[3]), r[4], r[5], r[6], r[7], bool(r[8]))
            for r in rows
        ]

    async def save_notify_prefs(self, prefs: NotifyPrefs) -> None:
        """Save a user's preferences (a digest waiting to be delivered stays as it is)."""
        row = (
            prefs.user_id,
            int(prefs.ping),
            int(prefs.digest),
            prefs.digest_hour,
            prefs.tz,
            prefs.quiet_from,
            prefs.quiet_to,
            prefs.last_digest_ms,
            int(prefs.dm_closed),
        )
        updates = ", ".join(f"{c} = excluded.{c}" for c in self._PREFS.split(", ")[1:])
        async with self._writing() as tx:
            await tx.execute(
                f"INSERT INTO notify_prefs ({self._PREFS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
                f"ON CONFLICT (user_id) DO UPDATE SET {updates}",
                row,
            )

    async def write_digests(self, marks: Sequence[tuple[str, int, str | None]]) -> None:
        """Mark a batch of users' digests sent at their mark and write each one's body (None:
        nothing to tell, the mark alone) to be delivered, in one transaction: (user, mark ms,
        body) each. Their preferences rows exist (a digest is due only to whoever asked)."""
        if not marks:
            return
        async with self._writing() as tx:
            await tx.executemany(
                "UPDATE notify_prefs SET last_digest_ms = ?, digest_body = ?, "
                "digest_attempts = 0, digest_next_ms = ? WHERE user_id = ?",
                [(at, body, at if body is not None else None, user) for user, at, body in marks],
            )

    async def pending_digests(self, now_ms: int, limit: int) -> list[DigestRow]:
        """Digests written and not yet delivered, due by ``now_ms``, oldest first."""
        async with self._reading() as tx:
            rows = await tx.fetchall(
                "SELECT user_id, last_digest_ms, digest_body, digest_attempts, digest_next_ms "
                "FROM notify_prefs WHERE digest_body IS NOT NULL AND digest_next_ms <= ? "
                "ORDER BY digest_next_ms, user_id LIMIT ?",
                (now_ms, limit),
            )
        return [DigestRow(r[0], int(r[1]), r[2], int(r[3]), int(r[4])) for r in rows]

    async def digests_delivered(self, marks: Sequence[tuple[str, int]]) -> None:
        """The digests (user, mark) reached their users (or never can): not handed out again
        (one transaction for a delivery loop's batch)."""
        if not marks:
            return
        async with self._writing() as tx:
            await tx.executemany(
                "UPDATE notify_prefs SET digest_body = NULL, digest_next_ms = NULL "
                "WHERE user_id = ? AND last_digest_ms = ?",
                list(marks),
            )

    async def digest_failed(self, user_id: str, mark_ms: int, next_ms: int) -> None:
        async with self._writing() as tx:
            await tx.execute(
                "UPDATE notify_prefs SET digest_attempts = digest_attempts + 1, "
                "digest_next_ms = ? WHERE user_id = ? AND last_digest_ms = ? "
                "AND digest_body IS NOT NULL",
                (next_ms, user_id, mark_ms),
            )

    async def digest_games(self, since: Mapping[str, int | None]) -> dict[str, list[int]]:
        """For each user of ``since`` (a batch of digests), the games their digest may list
        besides those they are playing: the open challenges that keep a seat for them, and the
        games of theirs that ended (finished or aborted) after their ``since`` (None: none),
        in two queries for the whole batch."""
        users = sorted(since)
        found: dict[str, set[int]] = {u: set() for u in users}
        for chunk in (users[i : i + _IN_CHUNK] for i in range(0, len(users), _IN_CHUNK)):
            marks = ", ".join("?" for _ in chunk)
            async with self._reading() as tx:
                invited = await tx.fetchall(
                    "SELECT s.invited_id, g.id FROM games g JOIN seats s ON s.game_id = g.id "
                    f"WHERE s.invited_id IN ({marks}) AND s.kind = 'open' AND g.status = 'open'",
                    tuple(chunk),
                )
                earliest = min((t for u in chunk if (t := since[u]) is not None), default=None)
                ended: list[Any] = []
                if earliest is not None:
                    ended = await tx.fetchall(
                        "SELECT s.user_id, g.id, g.finished_ms FROM games g "
                        "JOIN seats s ON s.game_id = g.id "
                        f"WHERE s.user_id IN ({marks}) "
                        "AND g.status IN ('finished', 'aborted') AND g.finished_ms > ?",
                        (*chunk, earliest),
                    )
            for user, game_id in invited:
                found[str(user)].add(int(game_id))
            for user, game_id, finished_ms in ended:
                after = since[str(user)]
                if after is not None and int(finished_ms) > after:
                    found[str(user)].add(int(game_id))
        return {u: sorted(ids) for u, ids in found.items()}


def _vacation_row(r: Sequence[Any]) -> VacationRow:
    return VacationRow(r[0], r[1], r[2], int(r[3]), int(r[4]), r[5])


def _same(column: str, value: str | None) -> tuple[str, tuple[Any, ...]]:
    """``column`` equals ``value`` (NULL included), as SQL both backends can index."""
    if value is None:
        return f"{column} IS NULL", ()
    return f"{column} = ?", (value,)


class _SqlExplorer(_SqlBase):
    """The opening explorer's counts (issue 50): per position, the moves played from it."""

    @staticmethod
    async def _count_explored(tx: Session, counts: Sequence[ExplorerCount]) -> None:
        """Add ``counts`` to the opening explorer's (in the transaction that ends the game)."""
        if counts:
            await tx.executemany(
                "INSERT INTO explorer (game_type, position, scope, rated, move, games, draws, "
                "win0, win1, win2) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (game_type, position, scope, rated, move) DO UPDATE SET "
                "games = explorer.games + excluded.games, "
                "draws = explorer.draws + excluded.draws, "
                "win0 = explorer.win0 + excluded.win0, win1 = explorer.win1 + excluded.win1, "
                "win2 = explorer.win2 + excluded.win2",
                [
                    (
                        c.game_type,
                        c.position,
                        c.scope,
                        int(c.rated),
                        c.move,
                        c.games,
                        c.draws,
                        *c.wins,
                    )
                    for c in counts
                ],
            )

    async def explorer(
        self, game_type: str, positions: Sequence[int], scope: str, rated: bool
    ) -> list[ExplorerCount]:
        """The moves played from each of ``positions`` in one pool, most played first (an
        index range per position)."""
        if not positions:
            return []
        marks = ",".join("?" * len(positions))
        async with self._reading() as tx:
            rows = await tx.fetchall(
                "SELECT position, move, games, draws, win0, win1, win2 FROM explorer "
                f"WHERE game_type = ? AND position IN ({marks}) AND scope = ? AND rated = ? "
                "ORDER BY games DESC, move",
                (game_type, *positions, scope, int(rated)),
            )
        return [
            ExplorerCount(
                game_type,
                int(r[0]),
                r[1],
                scope,
                rated,
                int(r[2]),
                int(r[3]),
                (int(r[4]), int(r[5]), int(r[6])),
            )
            for r in rows
        ]

    async def finished_games(self, after_id: int, limit: int) -> list[int]:
        """Ids of finished games after ``after_id``, in order (for a rebuild, in batches)."""
        async with self._reading() as tx:
            rows = await tx.fetchall(
                "SELECT id FROM games WHERE status = 'finished' AND id > ? ORDER BY id LIMIT ?",
                (after_id, limit),
            )
        return [int(r[0]) for r in rows]

    async def replace_explorer(self, counts: Sequence[ExplorerCount]) -> None:
        """The explorer's counts replaced by ``counts``, in one transaction (the rebuild)."""
        async with self._writing() as tx:
            await tx.execute("DELETE FROM explorer")
            await self._count_explored(tx, counts)


class _SqlProcesses(_SqlBase):
    """What several processes on one store share (issue 49): the login turns (one IDENTIFY a
    bucket per interval), the REST budget, and word of the games others changed."""

    async def take_login_turn(self, bucket: int, now_ms: int, interval_ms: int) -> int:
        """Take the login turn of ``bucket`` if its last login began ``interval_ms`` ago or
        more (0: taken, log in now); else the milliseconds left to wait. One conditional
        update: of two processes asking at once, one takes it."""
        async with self._writing() as tx:
            await tx.execute(
                "INSERT INTO login_turns (bucket, last_ms) VALUES (?, ?) "
                "ON CONFLICT (bucket) DO NOTHING",
                (bucket, now_ms - interval_ms),
            )
            taken = await tx.fetchall(
                "UPDATE login_turns SET last_ms = ? WHERE bucket = ? AND last_ms <= ? "
                "RETURNING bucket",
                (now_ms, bucket, now_ms - interval_ms),
            )
            if taken:
                return 0
            rows = await tx.fetchall("SELECT last_ms FROM login_turns WHERE bucket = ?", (bucket,))
        return max(1, int(rows[0][0]) + interval_ms - now_ms)

    async def _announce_change(
        self, tx: Session, game_id: int, version: int, guild_id: str | None, shown: bool
    ) -> None:
        """Tell other processes the game changed, with the commit (PostgreSQL: NOTIFY)."""

    async def listen_games(
        self,
        changed: Callable[[int, int, str | None, bool], None],
        hearing: Callable[[bool], None] | None = None,
    ) -> Callable[[], Awaitable[None]] | None:
        """Call ``changed(game_id, version, guild_id, shown)`` whenever a process commits a
        change of a game (this one's too; ``shown``: it changes what the game's page shows, a
        move, a result, the seats, not only its place or clock), until the returned stop is
        awaited; ``None`` where the store cannot tell (SQLite: poll :meth:`game_versions`).
        ``hearing(False)`` when the changes go unheard for a while (a lost connection),
        ``hearing(True)`` once they are heard again: what was committed meanwhile was not
        told."""
        return None

    async def game_versions(self, game_ids: Sequence[int]) -> dict[int, int]:
        """Each of ``game_ids``'s version (an unknown game left out): what a site process
        polls to learn of moves made by other processes."""
        if not game_ids:
            return {}
        marks = ",".join("?" * len(game_ids))
        async with self._reading() as tx:
            rows = await tx.fetchall(
                f"SELECT id, version FROM games WHERE id IN ({marks})", list(game_ids)
            )
        return {int(r[0]): int(r[1]) for r in rows}

    async def take_rest_slot(self, now_ms: int, interval_ms: int, ahead_ms: int) -> int:
        """Take a slot of the shared REST budget (the generic cell rate algorithm): the next
        slot is at ``max(tat, now)``; it is taken if that is at most ``ahead_ms`` from now
        (0: taken, send now; ``tat`` moves ``interval_ms`` on), else the milliseconds to wait
        until it would be. One conditional update: every process takes slots from one row."""
        nxt = "(CASE WHEN tat_ms > ? THEN tat_ms ELSE ? END)"
        async with self._writing() as tx:
            taken = await tx.fetchall(
                f"UPDATE rest_budget SET tat_ms = {nxt} + ? WHERE id = 0 AND {nxt} <= ? "
                "RETURNING tat_ms",
                (now_ms, now_ms, interval_ms, now_ms, now_ms, now_ms + ahead_ms),
            )
            if taken:
                return 0
            rows = await tx.fetchall("SELECT tat_ms FROM rest_budget WHERE id = 0")
        return max(1, int(rows[0][0]) - ahead_ms - now_ms)


class _SqlJobs(_SqlBase):
    """The queue of heavy work (issue 49, 4): computer moves, hints, pictures and reviews that
    ``python -m bot worker`` processes take from any process (``bot/service/jobs.py``)."""

    SKIP_LOCKED: str = ""
    """What makes two workers taking a job at once pass over each other's row (PostgreSQL's
    ``FOR UPDATE SKIP LOCKED``; SQLite has one writer at a time)."""

    async def queue_job(
        self, kind: str, priority: int, payload: bytes, now_ms: int, deadline_ms: int | None
    ) -> int:
        """Queue a job; its id. Workers are told at the commit (PostgreSQL: NOTIFY)."""
        async with self._writing() as tx:
            rows = await tx.fetchall(
                "INSERT INTO jobs (kind, priority, payload, queued_ms, deadline_ms) "
                "VALUES (?, ?, ?, ?, ?) RETURNING id",
                (kind, priority, payload, now_ms, deadline_ms),
            )
            job_id = int(rows[0][0])
            await self._announce_job(tx, f"q{job_id}")
        return job_id

    async def take_job(
        self, worker: str, max_priority: int, now_ms: int, lease_ms: int
    ) -> JobRow | None:
        """Take the oldest job of the most urgent priority up to ``max_priority`` that nobody
        has taken and whose deadline has not passed, for ``worker`` until ``lease_ms``; ``None``
        when there is none. Jobs past their deadline are left to whoever queued them."""
        async with self._writing() as tx:
            rows = await tx.fetchall(
                "UPDATE jobs SET taken_by = ?, lease_ms = ? WHERE id = ("
                "SELECT id FROM jobs WHERE taken_by IS NULL AND priority <= ? "
                "AND (deadline_ms IS NULL OR deadline_ms > ?) "
                f"ORDER BY priority, id LIMIT 1{self.SKIP_LOCKED}) "
                f"RETURNING {_JOB_COLUMNS}",
                (worker, lease_ms, max_priority, now_ms),
            )
        return _job(rows[0]) if rows else None

    async def renew_job(self, job_id: int, worker: str, lease_ms: int) -> bool:
        """Extend ``worker``'s lease of a job it is working on; ``False`` if the job is gone
        (whoever queued it gave up) or no longer its."""
        async with self._writing() as tx:
            rows = await tx.fetchall(
                "UPDATE jobs SET lease_ms = ? WHERE id = ? AND taken_by = ? AND done_ms IS NULL "
                "RETURNING id",
                (lease_ms, job_id, worker),
            )
        return bool(rows)

    async def finish_job(
        self, job_id: int, worker: str, now_ms: int, result: bytes | None, failed: str | None
    ) -> bool:
        """Write the result (or why it failed) of ``worker``'s job; whoever waits for it is
        told at the commit. ``False`` if the job is gone or no longer its."""
        async with self._writing() as tx:
            rows = await tx.fetchall(
                "UPDATE jobs SET done_ms = ?, result = ?, failed = ? "
                "WHERE id = ? AND taken_by = ? AND done_ms IS NULL RETURNING id",
                (now_ms, result, failed, job_id, worker),
            )
            if rows:
                await self._announce_job(tx, f"d{job_id}")
        return bool(rows)

    async def job(self, job_id: int) -> JobRow | None:
        async with self._reading() as tx:
            rows = await tx.fetchall(f"SELECT {_JOB_COLUMNS} FROM jobs WHERE id = ?", (job_id,))
        return _job(rows[0]) if rows else None

    async def jobs_running(self, now_ms: int) -> int:
        """Jobs a worker is doing under a lease that still runs: some worker is alive."""
        async with self._reading() as tx:
            rows = await tx.fetchall(
                "SELECT count(*) FROM jobs WHERE taken_by IS NOT NULL AND done_ms IS NULL "
                "AND lease_ms > ?",
                (now_ms,),
            )
        return int(rows[0][0])

    async def withdraw_job(self, job_id: int) -> bool:
        """Delete a job nobody has taken yet (its queuer does it itself); ``False`` if a worker
        has it (or it is gone)."""
        async with self._writing() as tx:
            rows = await tx.fetchall(
                "DELETE FROM jobs WHERE id = ? AND taken_by IS NULL RETURNING id", (job_id,)
            )
        return bool(rows)

    async def drop_job(self, job_id: int) -> None:
        """Delete a job whatever its state (its answer was read, or is no longer wanted: a
        worker still on it finds it gone when it renews or finishes)."""
        async with self._writing() as tx:
            await tx.execute("DELETE FROM jobs WHERE id = ?", (job_id,))

    async def drop_stale_jobs(self, before_ms: int) -> int:
        """Delete the jobs queued before ``before_ms`` (their queuer died waiting); how many."""
        async with self._writing() as tx:
            rows = await tx.fetchall(
                "DELETE FROM jobs WHERE queued_ms < ? RETURNING id", (before_ms,)
            )
        return len(rows)

    async def _announce_job(self, tx: Session, note: str) -> None:
        """Tell the other processes of a job queued (``q<id>``) or done (``d<id>``), with the
        commit (PostgreSQL: NOTIFY); nothing where they poll (SQLite)."""

    async def listen_jobs(
        self, queued: Callable[[], None], done: Callable[[int], None]
    ) -> Callable[[], Awaitable[None]] | None:
        """Call ``queued()`` whenever a job is queued and ``done(id)`` whenever one is done,
        until the returned stop is awaited; ``None`` where the store cannot tell (SQLite: the
        workers and the waiters poll)."""
        return None


_JOB_COLUMNS = (
    "id, kind, priority, payload, queued_ms, deadline_ms, taken_by, lease_ms, done_ms, result, "
    "failed"
)


def _job(row: Sequence[Any]) -> JobRow:
    def opt(value: Any) -> int | None:
        return None if value is None else int(value)

    return JobRow(
        int(row[0]),
        str(row[1]),
        int(row[2]),
        bytes(row[3]),
        int(row[4]),
        opt(row[5]),
        None if row[6] is None else str(row[6]),
        opt(row[7]),
        opt(row[8]),
        None if row[9] is None else bytes(row[9]),
        None if row[10] is None else str(row[10]),
    )


class _SqlReviews(_SqlBase):
    """The computer's reviews of finished games (issue 32): one row a game."""

    async def review(self, game_id: int) -> ReviewRow | None:
        async with self._reading() as tx:
            rows = await tx.fetchall(
                "SELECT game_id, data, public, created_ms FROM reviews WHERE game_id = ?",
                (game_id,),
            )
        if not rows:
            return None
        r = rows[0]
        return ReviewRow(int(r[0]), str(r[1]), bool(r[2]), int(r[3]))

    async def save_review(self, review: ReviewRow) -> None:
        """Store ``review`` in place of the game's earlier one, if any (one of an older format,
        or one another process computed meanwhile); whether it is public stays as it was."""
        async with self._writing() as tx:
            await tx.execute(
                "INSERT INTO reviews (game_id, data, public, created_ms) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (game_id) DO UPDATE SET data = excluded.data, "
                "created_ms = excluded.created_ms",
                (review.game_id, review.data, int(review.public), review.created_ms),
            )

    async def set_review_public(self, game_id: int, public: bool) -> bool:
        """Show a stored review in the game's thread or not; ``False`` if there is none."""
        async with self._writing() as tx:
            rows = await tx.fetchall(
                "UPDATE reviews SET public = ? WHERE game_id = ? RETURNING game_id",
                (int(public), game_id),
            )
        return bool(rows)


class _SqlTournaments(_SqlRatings):
    """Tournaments (issue 34, docs/tournaments.md): the event, its players, its boards. Every
    step that must happen once (a join past the limit, a round paired, a board's game made,
    the end) is a conditional write: of two processes or two managers, one does it."""

    _TOURNAMENT = (
        "SELECT id, creator_id, name, game_type, options, format, clock, rated, rounds, "
        "max_players, created_ms, guild_id, channel_id, signup_until_ms, seed, status, round, "
        "message_id, started_ms, finished_ms FROM tournaments "
    )

    async def create_tournament(self, new: NewTournament, creator_name: str | None) -> int:
        """Write ``new`` (and its creator as the first player, if ``creator_name``)."""
        async with self._writing() as tx:
            rows = await tx.fetchall(
                "INSERT INTO tournaments (guild_id, channel_id, creator_id, name, game_type, "
                "options, format, clock, rated, rounds, max_players, signup_until_ms, status, "
                "seed, created_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "RETURNING id",
                (
                    new.guild_id,
                    new.channel_id,
                    new.creator_id,
                    new.name,
                    new.game_type,
                    json.dumps(new.options, ensure_ascii=False, sort_keys=True),
                    new.format,
                    new.clock,
                    int(new.rated),
                    new.rounds,
                    new.max_players,
                    new.signup_until_ms,
                    str(TournamentStatus.SIGNUP),
                    new.seed,
                    new.created_ms,
                ),
            )
            tournament_id = int(rows[0][0])
            if creator_name is not None:
                await tx.execute(
                    "INSERT INTO tournament_players (tournament_id, user_id, name, joined_ms) "
                    "VALUES (?, ?, ?, ?)",
                    (tournament_id, new.creator_id, creator_name, new.created_ms),
                )
        return tournament_id

    async def tournament(self, tournament_id: int) -> TournamentRow | None:
        async with self._reading() as tx:
            rows = await tx.fetchall(self._TOURNAMENT + "WHERE id = ?", (tournament_id,))
        return _tournament_row(rows[0]) if rows else None

    async def tournaments(
        self, statuses: Sequence[TournamentStatus], guild_id: str | None = None
    ) -> list[TournamentRow]:
        """The tournaments in one of ``statuses`` (of one server, if ``guild_id``), newest
        first."""
        marks = ",".join("?" * len(statuses))
        sql = self._TOURNAMENT + f"WHERE status IN ({marks})"
        params: list[Any] = [str(s) for s in statuses]
        if guild_id is not None:
            sql += " AND guild_id = ?"
            params.append(guild_id)
        async with self._reading() as tx:
            rows = await tx.fetchall(sql + " ORDER BY id DESC", params)
        return [_tournament_row(r) for r in rows]

    async def entrants(self, tournament_id: int) -> list[EntrantRow]:
        """The players in the order they signed up."""
        async with self._reading() as tx:
            rows = await tx.fetchall(
                "SELECT user_id, name, joined_ms, withdrawn_round FROM tournament_players "
                "WHERE tournament_id = ? ORDER BY joined_ms, user_id",
                (tournament_id,),
            )
        return [EntrantRow(r[0], r[1], int(r[2]), _int_or_none(r[3])) for r in rows]

    async def boards(self, tournament_id: int) -> list[BoardRow]:
        async with self._reading() as tx:
            rows = await tx.fetchall(
                "SELECT round, board, players, game_type, game_id, result "
                "FROM tournament_boards WHERE tournament_id = ? ORDER BY round, board",
                (tournament_id,),
            )
        return [
            BoardRow(
                int(r[0]),
                int(r[1]),
                tuple(json.loads(r[2])),
                r[3],
                _int_or_none(r[4]),
                _board_result(r[5]),
            )
            for r in rows
        ]

    async def join_tournament(
        self, tournament_id: int, user_id: str, name: str, now_ms: int
    ) -> JoinOutcome:
        """Sign ``user_id`` up while the sign-up is open and the field not full."""
        async with self._writing() as tx:
            await self._serialize(tx, [f"tournament:{tournament_id}"])
            rows = await tx.fetchall(
                "SELECT status, max_players, (SELECT count(*) FROM tournament_players p "
                "WHERE p.tournament_id = t.id) FROM tournaments t WHERE id = ?",
                (tournament_id,),
            )
            if not rows or rows[0][0] != TournamentStatus.SIGNUP:
                return "closed"
            there = await tx.fetchall(
                "SELECT 1 FROM tournament_players WHERE tournament_id = ? AND user_id = ?",
                (tournament_id, user_id),
            )
            if there:
                return "already"
            if int(rows[0][2]) >= int(rows[0][1]):
                return "full"
            # joined after everyone before, even in the same millisecond (several computer
            # players in one command): the sign-up order is the order of joining
            await tx.execute(
                "INSERT INTO tournament_players (tournament_id, user_id, name, joined_ms) "
                "SELECT ?, ?, ?, CASE WHEN MAX(joined_ms) >= ? THEN MAX(joined_ms) + 1 ELSE ? END "
                "FROM tournament_players WHERE tournament_id = ?",
                (tournament_id, user_id, name, now_ms, now_ms, tournament_id),
            )
        return "joined"

    async def leave_tournament(self, tournament_id: int, user_id: str) -> bool:
        """Take ``user_id`` off the list while the sign-up is open (False: nothing done)."""
        async with self._writing() as tx:
            rows = await tx.fetchall(
                "DELETE FROM tournament_players WHERE tournament_id = ? AND user_id = ? AND "
                "(SELECT status FROM tournaments WHERE id = ?) = 'signup' RETURNING user_id",
                (tournament_id, user_id, tournament_id),
            )
        return bool(rows)

    async def withdraw_entrant(self, tournament_id: int, user_id: str, round_no: int) -> bool:
        """Mark a player of a running tournament withdrawn from ``round_no`` on."""
        async with self._writing() as tx:
            rows = await tx.fetchall(
                "UPDATE tournament_players SET withdrawn_round = ? WHERE tournament_id = ? "
                "AND user_id = ? AND withdrawn_round IS NULL RETURNING user_id",
                (round_no, tournament_id, user_id),
            )
        return bool(rows)

    async def start_round(
        self,
        tournament_id: int,
        expected: int,
        boards: Sequence[BoardRow],
        now_ms: int,
        rounds: int | None = None,
        post: tuple[str, str] | None = None,
    ) -> bool:
        """Write round ``expected + 1``'s boards if the tournament is still at round
        ``expected`` (the first round also starts it, with ``rounds`` in all), with the
        announcement ``post`` (name, body) if given, in the same transaction: False when
        someone else paired it first (nothing written)."""
        async with self._writing() as tx:
            await self._serialize(tx, [f"tournament:{tournament_id}"])
            rows = await tx.fetchall(
                "UPDATE tournaments SET round = round + 1, status = 'running', "
                "started_ms = coalesce(started_ms, ?), rounds = coalesce(?, rounds) "
                "WHERE id = ? AND round = ? AND status IN ('signup', 'running') RETURNING id",
                (now_ms, rounds, tournament_id, expected),
            )
            if not rows:
                return False
            await tx.executemany(
                "INSERT INTO tournament_boards (tournament_id, round, board, players, "
                "game_type, result) VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (
                        tournament_id,
                        b.round,
                        b.board,
                        json.dumps(list(b.players), ensure_ascii=False),
                        b.game_type,
                        None if b.result is None else _board_result_text(b.result),
                    )
                    for b in boards
                ],
            )
            if post is not None:
                await self._insert_post(tx, tournament_id, post[0], post[1], now_ms)
        return True

    @staticmethod
    async def _claim_board(tx: Session, slot: TournamentSlot, game_id: int) -> None:
        """Inside a game's creation: make it the board's game, or refuse (the board has one)."""
        rows = await tx.fetchall(
            "UPDATE tournament_boards SET game_id = ? WHERE tournament_id = ? AND round = ? "
            "AND board = ? AND game_id IS NULL AND result IS NULL RETURNING board",
            (game_id, slot.tournament_id, slot.round, slot.board),
        )
        if not rows:
            raise ConflictError(f"tournament board {slot} has its game already")

    async def record_board(self, slot: TournamentSlot, result: BoardResult) -> bool:
        """Write a board's result once (False: it had one)."""
        async with self._writing() as tx:
            rows = await tx.fetchall(
                "UPDATE tournament_boards SET result = ? WHERE tournament_id = ? AND round = ? "
                "AND board = ? AND result IS NULL RETURNING board",
                (_board_result_text(result), slot.tournament_id, slot.round, slot.board),
            )
        return bool(rows)

    async def end_tournament(
        self,
        tournament_id: int,
        status: TournamentStatus,
        expected: int,
        now_ms: int,
        post: tuple[str, str] | None = None,
    ) -> bool:
        """Finish (or cancel) the tournament if it is still at round ``expected`` and not
        over, with its announcement ``post`` (name, body) in the same transaction: False when
        it was already (nothing written)."""
        async with self._writing() as tx:
            await self._serialize(tx, [f"tournament:{tournament_id}"])
            rows = await tx.fetchall(
                "UPDATE tournaments SET status = ?, finished_ms = ? WHERE id = ? AND round = ? "
                "AND status IN ('signup', 'running') RETURNING id",
                (str(status), now_ms, tournament_id, expected),
            )
            if rows and post is not None:
                await self._insert_post(tx, tournament_id, post[0], post[1], now_ms)
        return bool(rows)

    async def set_tournament_message(self, tournament_id: int, message_id: str) -> None:
        """Where the sign-up message was posted (the first place kept: it is edited there)."""
        async with self._writing() as tx:
            await tx.execute(
                "UPDATE tournaments SET message_id = ? WHERE id = ? AND message_id IS NULL",
                (message_id, tournament_id),
            )

    @staticmethod
    async def _insert_post(
        tx: Session, tournament_id: int, name: str, body: str, now_ms: int
    ) -> bool:
        rows = await tx.fetchall(
            "INSERT INTO tournament_posts (tournament_id, name, body, created_ms, next_ms) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (tournament_id, name) DO NOTHING "
            "RETURNING name",
            (tournament_id, name, body, now_ms, now_ms),
        )
        return bool(rows)

    async def add_tournament_post(
        self, tournament_id: int, name: str, body: str, now_ms: int
    ) -> bool:
        """Keep the announcement ``name`` until it is posted; False: it was written before
        (by this process or another), nothing written."""
        async with self._writing() as tx:
            return await self._insert_post(tx, tournament_id, name, body, now_ms)

    async def pending_tournament_posts(self, now_ms: int, limit: int) -> list[TournamentPost]:
        """Tournament announcements not yet posted and due, oldest first."""
        async with self._reading() as tx:
            rows = await tx.fetchall(
                "SELECT p.tournament_id, p.name, p.body, p.attempts, t.guild_id, p.next_ms "
                "FROM tournament_posts p JOIN tournaments t ON t.id = p.tournament_id "
                "WHERE p.delivered_ms IS NULL AND p.next_ms <= ? "
                "ORDER BY p.created_ms, p.tournament_id, p.name LIMIT ?",
                (now_ms, limit),
            )
        return [TournamentPost(int(r[0]), r[1], r[2], int(r[3]), r[4], int(r[5])) for r in rows]

    async def tournament_post_delivered(self, tournament_id: int, name: str, at_ms: int) -> None:
        async with self._writing() as tx:
            await tx.execute(
                "UPDATE tournament_posts SET delivered_ms = ? WHERE tournament_id = ? "
                "AND name = ? AND delivered_ms IS NULL",
                (at_ms, tournament_id, name),
            )

    async def tournament_post_failed(self, tournament_id: int, name: str, next_ms: int) -> None:
        async with self._writing() as tx:
            await tx.execute(
                "UPDATE tournament_posts SET attempts = attempts + 1, next_ms = ? "
                "WHERE tournament_id = ? AND name = ? AND delivered_ms IS NULL",
                (next_ms, tournament_id, name),
            )

    async def tournament_of_game(self, game_id: int) -> TournamentSlot | None:
        async with self._reading() as tx:
            rows = await tx.fetchall(
                "SELECT tournament_id, round, board FROM tournament_boards WHERE game_id = ?",
                (game_id,),
            )
        return TournamentSlot(int(rows[0][0]), int(rows[0][1]), int(rows[0][2])) if rows else None


class _SqlSite(_SqlBase):
    """The web pages (bot/service/review/site.py): a game's page token, a server's pages, and
    the site's signed-in sessions (issue 51)."""

    async def web_token(self, game_id: int, fresh: str) -> str:
        """The token of ``game_id``'s page; stored as ``fresh`` the first time it is asked for
        (a second process asking at the same moment gets the one that was stored)."""
        async with self._writing() as tx:
            await tx.execute(
                "INSERT INTO web_tokens (game_id, token) VALUES (?, ?) "
                "ON CONFLICT (game_id) DO NOTHING",
                (game_id, fresh),
            )
            rows = await tx.fetchall("SELECT token FROM web_tokens WHERE game_id = ?", (game_id,))
        return str(rows[0][0])

    async def web_game(self, token: str) -> int | None:
        """The game whose page ``token`` opens, if any."""
        async with self._reading() as tx:
            rows = await tx.fetchall("SELECT game_id FROM web_tokens WHERE token = ?", (token,))
        return int(rows[0][0]) if rows else None

    async def web_games(self, guild_id: str, limit: int) -> list[tuple[int, str]]:
        """The newest started games of ``guild_id`` that have a page: (game id, token)."""
        async with self._reading() as tx:
            rows = await tx.fetchall(
                "SELECT g.id, w.token FROM games g JOIN web_tokens w ON w.game_id = g.id "
                "WHERE g.guild_id = ? AND g.status <> 'open' ORDER BY g.id DESC LIMIT ?",
                (guild_id, limit),
            )
        return [(int(r[0]), str(r[1])) for r in rows]

    # -- the site's sign-in (issue 51) ------------------------------------------------------
    async def save_site_session(self, row: SiteSessionRow) -> None:
        """Keep a new session, and forget every session that has ended by its start (an
        Activity opens one each time it is opened: they must not pile up)."""
        async with self._writing() as tx:
            await tx.execute("DELETE FROM site_sessions WHERE expires_ms <= ?", (row.created_ms,))
            await tx.execute(
                "INSERT INTO site_sessions (secret_hash, user_id, name, csrf, created_ms, "
                "expires_ms) VALUES (?, ?, ?, ?, ?, ?)",
                (row.secret_hash, row.user_id, row.name, row.csrf, row.created_ms, row.expires_ms),
            )

    async def site_session(self, secret_hash: str, now_ms: int) -> SiteSessionRow | None:
        """The session whose secret hashes to ``secret_hash``, unless it has ended."""
        async with self._reading() as tx:
            rows = await tx.fetchall(
                "SELECT secret_hash, user_id, name, csrf, created_ms, expires_ms "
                "FROM site_sessions WHERE secret_hash = ? AND expires_ms > ?",
                (secret_hash, now_ms),
            )
        if not rows:
            return None
        r = rows[0]
        return SiteSessionRow(str(r[0]), str(r[1]), str(r[2]), str(r[3]), int(r[4]), int(r[5]))

    async def drop_site_session(self, secret_hash: str, now_ms: int) -> None:
        """End one session (signing out), and forget every session that has ended."""
        async with self._writing() as tx:
            await tx.execute(
                "DELETE FROM site_sessions WHERE secret_hash = ? OR expires_ms <= ?",
                (secret_hash, now_ms),
            )


class SqlStore(
    _SqlTournaments,
    _SqlReviews,
    _SqlExplorer,
    _SqlProcesses,
    _SqlJobs,
    _SqlLessons,
    _SqlCorrespondence,
    _SqlPuzzles,
    _SqlRatings,
    _SqlSite,
):
    """Every query of the store; :class:`SqliteStore` and
    :class:`bot.store_postgres.PostgresStore` supply the connections."""

    # -- users -----------------------------------------------------------------------------
    async def upsert_user(self, user_id: str, name: str, now_ms: int) -> None:
        async with self._writing() as tx:
            await tx.execute(
                "INSERT INTO users (id, name, updated_ms) VALUES (?, ?, ?) "
                "ON CONFLICT (id) DO UPDATE SET name = excluded.name, "
                "updated_ms = excluded.updated_ms "
                "WHERE users.name != excluded.name",
                (user_id, name, now_ms),
            )

    # -- games -----------------------------------------------------------------------------
    async def _check_limits(self, tx: Session, limits: Limits | None) -> None:
        """Inside a transaction: refuse a change that would overshoot ``limits``."""
        if limits is None:
            return
        users = list(dict.fromkeys(limits.users))
        keys = [f"user:{u}" for u in users]
        if limits.guild_id is not None:
            keys.append(f"guild:{limits.guild_id}")
        await self._serialize(tx, sorted(keys))
        for user_id in users:
            rows = await tx.fetchall(
                "SELECT count(DISTINCT g.id) FROM games g JOIN seats s ON s.game_id = g.id "
                "WHERE s.user_id = ? AND g.status IN ('open', 'active')",
                (user_id,),
            )
            if int(rows[0][0]) >= limits.per_user:
                raise LimitError(user_id, limits.per_user)
        if limits.guild_id is not None:
            rows = await tx.fetchall(
                "SELECT count(*) FROM games WHERE guild_id = ? AND status IN ('open', 'active')",
                (limits.guild_id,),
            )
            if int(rows[0][0]) >= limits.per_guild:
                raise LimitError(None, limits.per_guild)

    async def create_game(self, game: NewGame, announce: Announcing | None = None) -> int:
        """Write ``game``; ``announce(game_id)`` (called inside the transaction) gives what its
        creation announces, written to the outbox with it (version 0)."""
        async with self._writing() as tx:
            await self._check_limits(tx, game.limits)
            rows = await tx.fetchall(
                "INSERT INTO games (game_type, players, options, seed, status, guild_id, "
                "channel_id, creator_id, clock, reminders, created_ms, started_ms, "
                "finished_ms, result, turn_started_ms, deadline_ms, expires_ms, "
                "imported_ms, rated, daily_day, reseed, reseed_from, paused_ms, "
                "paused_until_ms) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "RETURNING id",
                (
                    game.game_type,
                    game.players,
                    json.dumps(game.options, ensure_ascii=False, sort_keys=True),
                    game.seed,
                    game.status,
                    game.guild_id,
                    game.channel_id,
                    game.creator_id,
                    game.clock,
                    _int_text(game.reminders),
                    game.created_ms,
                    game.started_ms,
                    game.finished_ms,
                    None if game.result is None else _outcome_text(game.result),
                    game.turn_started_ms,
                    game.deadline_ms,
                    game.expires_ms,
                    game.imported_ms,
                    int(game.rated),
                    game.daily_day,
                    game.reseed,
                    game.reseed_from,
                    game.paused_ms,
                    game.paused_until_ms,
                ),
            )
            game_id = int(rows[0][0])
            await tx.executemany(
                "INSERT INTO seats (game_id, seat, kind, user_id, bank_ms, invited_id, "
                "ai_level) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        game_id,
                        s.seat,
                        str(s.kind),
                        s.user_id,
                        s.bank_ms,
                        s.invited_id,
                        s.ai_level,
                    )
                    for s in game.seats
                ],
            )
            await self._insert_moves(tx, game_id, game.entries)
            if game.daily_day is not None:
                await tx.execute(
                    "INSERT INTO daily_games (game_type, day, user_id, game_id, guild_id) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (game.game_type, game.daily_day, game.creator_id, game_id, game.guild_id),
                )
            if game.tournament is not None:
                await self._claim_board(tx, game.tournament, game_id)
            if announce is not None:
                await self._insert_announcements(tx, game_id, 0, announce(game_id))
            await self._count_explored(tx, game.explored)
        return game_id

    @staticmethod
    async def _insert_announcements(
        tx: Session, game_id: int, version: int, announce: Sequence[Announcement]
    ) -> None:
        """Keep what the change to ``version`` of a game announces in the outbox."""
        await tx.executemany(
            "INSERT INTO outbox (game_id, version, n, ply, event, body, created_ms, next_ms) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [(game_id, version, a.n, a.ply, a.event, a.body, a.at_ms, a.at_ms) for a in announce],
        )

    @staticmethod
    async def _insert_moves(tx: Session, game_id: int, entries: Sequence[MoveRow]) -> None:
        if entries:
            await tx.executemany(
                "INSERT INTO moves (game_id, ply, actor, move, user_id, secret, at_ms) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (game_id, e.ply, e.actor, e.move, e.user_id, int(e.secret), e.at_ms)
                    for e in entries
                ],
            )

    async def load_record(self, game_id: int) -> tuple[GameRow, list[MoveRow]] | None:
        """The game with its seats and its whole move log, as of one moment: a writer elsewhere
        (another process on the same database) cannot slip a move in between the two reads, so
        the log always matches the row's version and status."""
        async with self._snapshot() as tx:
            row = await self._read_game(tx, game_id)
            if row is None:
                return None
            return row, await self._read_moves(tx, game_id)

    async def load_records(
        self, game_ids: Sequence[int]
    ) -> dict[int, tuple[GameRow, list[MoveRow]]]:
        """Several games as :meth:`load_record` reads one, in one snapshot and a few queries
        (for a use case that reads many games together: a batch of digests); an unknown id
        is left out."""
        ids = sorted(set(game_ids))
        out: dict[int, tuple[GameRow, list[MoveRow]]] = {}
        async with self._snapshot() as tx:
            for start in range(0, len(ids), _IN_CHUNK):
                chunk = ids[start : start + _IN_CHUNK]
                marks = ",".join("?" * len(chunk))
                rows = await tx.fetchall(
                    f"SELECT {_GAME_COLUMNS} FROM games WHERE id IN ({marks})", chunk
                )
                seats = await self._seats(tx, chunk)
                moves: dict[int, list[MoveRow]] = {}
                for r in await tx.fetchall(
                    f"SELECT game_id, {_MOVE_COLUMNS} FROM moves WHERE game_id IN ({marks}) "
                    "ORDER BY game_id, ply",
                    chunk,
                ):
                    moves.setdefault(int(r[0]), []).append(_move_row(r[1:]))
                for r in rows:
                    gid = int(r[0])
                    out[gid] = (_game_row(r, seats.get(gid, ())), moves.get(gid, []))
        return out

    @staticmethod
    async def _read_game(tx: Session, game_id: int) -> GameRow | None:
        rows = await tx.fetchall(
            f"SELECT {_G_COLUMNS}, {_SEAT_COLUMNS} FROM games g "
            "LEFT JOIN seats s ON s.game_id = g.id LEFT JOIN users u ON u.id = s.user_id "
            "WHERE g.id = ? ORDER BY s.seat",
            (game_id,),
        )
        if not rows:
            return None
        width = len(_GAME_COLUMNS.split(","))
        seats = tuple(_seat_row(r[width:]) for r in rows if r[width] is not None)
        return _game_row(rows[0], seats)

    @staticmethod
    async def _seats(tx: Session, game_ids: Sequence[int]) -> dict[int, tuple[SeatRow, ...]]:
        if not game_ids:
            return {}
        marks = ",".join("?" * len(game_ids))
        rows = await tx.fetchall(
            f"SELECT s.game_id, {_SEAT_COLUMNS} FROM seats s "
            f"LEFT JOIN users u ON u.id = s.user_id WHERE s.game_id IN ({marks}) "
            "ORDER BY s.game_id, s.seat",
            list(game_ids),
        )
        out: dict[int, list[SeatRow]] = {}
        for r in rows:
            out.setdefault(int(r[0]), []).append(_seat_row(r[1:]))
        return {k: tuple(v) for k, v in out.items()}

    @staticmethod
    async def _read_moves(tx: Session, game_id: int) -> list[MoveRow]:
        rows = await tx.fetchall(
            f"SELECT {_MOVE_COLUMNS} FROM moves WHERE game_id = ? ORDER BY ply", (game_id,)
        )
        return [_move_row(r) for r in rows]

    async def apply(self, change: Change) -> None:
        columns = _update_columns(change.update)
        async with self._writing() as tx:
            await self._check_limits(tx, change.limits)
            # The version guard: on PostgreSQL a concurrent writer waits for this row's lock and
            # then finds the version moved on; SQLite's writes are serial. The same statement
            # says how long the log is (no second round trip).
            sets = ", ".join(f"{name} = ?" for name, _ in columns)
            values = [value for _, value in columns]
            rows = await tx.fetchall(
                f"UPDATE games SET {sets + ', ' if sets else ''}version = version + 1 "
                "WHERE id = ? AND version = ? "
                "RETURNING (SELECT count(*) FROM moves WHERE moves.game_id = games.id), guild_id",
                (*values, change.game_id, change.expected_version),
            )
            if len(rows) != 1:
                raise ConflictError(f"game {change.game_id} changed")
            guild = None if rows[0][1] is None else str(rows[0][1])
            await self._announce_change(
                tx, change.game_id, change.expected_version + 1, guild, shows(change)
            )
            log_length = int(rows[0][0])
            if change.truncate_from is not None:
                log_length = min(log_length, change.truncate_from)
                await tx.execute(
                    "DELETE FROM moves WHERE game_id = ? AND ply >= ?",
                    (change.game_id, change.truncate_from),
                )
            if change.append:
                if log_length != change.append[0].ply:
                    raise ConflictError(f"game {change.game_id}: the log moved on")
                await self._insert_moves(tx, change.game_id, change.append)
            if change.seats:
                await tx.executemany(
                    "UPDATE seats SET kind = ?, user_id = ?, bank_ms = ?, invited_id = ?, "
                    "ai_level = ? WHERE game_id = ? AND seat = ?",
                    [
                        (
                            str(s.kind),
                            s.user_id,
                            s.bank_ms,
                            s.invited_id,
                            s.ai_level,
                            change.game_id,
                            s.seat,
                        )
                        for s in change.seats
                    ],
                )
            for result in change.results:
                await self._record_result(tx, result)
            if change.announce:
                await self._insert_announcements(
                    tx, change.game_id, change.expected_version + 1, change.announce
                )
            if change.rating is not None:
                await self._write_rating(tx, change.rating)
            await self._count_explored(tx, change.explored)

    @staticmethod
    async def _record_result(tx: Session, r: UserResult) -> None:
        win, loss, draw = (int(r.result is x) for x in (Result.WIN, Result.LOSS, Result.DRAW))
        await tx.execute(
            "INSERT INTO user_stats (user_id, game_type, games, wins, losses, draws, streak, "
            "best_streak) VALUES (?, ?, 1, ?, ?, ?, ?, ?) "
            "ON CONFLICT (user_id, game_type) DO UPDATE SET games = user_stats.games + 1, "
            "wins = user_stats.wins + excluded.wins, "
            "losses = user_stats.losses + excluded.losses, "
            "draws = user_stats.draws + excluded.draws, "
            "streak = CASE WHEN excluded.wins = 1 THEN user_stats.streak + 1 ELSE 0 END, "
            "best_streak = CASE WHEN excluded.wins = 1 "
            "AND user_stats.streak + 1 > user_stats.best_streak "
            "THEN user_stats.streak + 1 ELSE user_stats.best_streak END",
            (r.user_id, r.game_type, win, loss, draw, win, win),
        )

    async def paused_games(self) -> list[GameRow]:
        """Running games whose clock a vacation stopped (read at start-up)."""
        async with self._reading() as tx:
            rows = await tx.fetchall(
                f"SELECT {_GAME_COLUMNS} FROM games "
                "WHERE status = 'active' AND paused_ms IS NOT NULL"
            )
            seats = await self._seats(tx, [int(r[0]) for r in rows])
        return [_game_row(r, seats.get(int(r[0]), ())) for r in rows]

    async def timed_games(self) -> list[GameRow]:
        """Running games with a deadline and open challenges that lapse (restored at start-up)."""
        async with self._reading() as tx:
            rows = await tx.fetchall(
                f"SELECT {_GAME_COLUMNS} FROM games WHERE (status = 'active' "
                "AND deadline_ms IS NOT NULL) OR (status = 'open' AND expires_ms IS NOT NULL)"
            )
            seats = await self._seats(tx, [int(r[0]) for r in rows])
        return [_game_row(r, seats.get(int(r[0]), ())) for r in rows]

    async def user_games(self, user_id: str, statuses: Sequence[str]) -> list[GameSummary]:
        marks = ",".join("?" * len(statuses))
        async with self._reading() as tx:
            rows = await tx.fetchall(
                "SELECT DISTINCT g.id, g.game_type, g.status, g.guild_id, g.created_ms, "
                "g.deadline_ms FROM games g JOIN seats s ON s.game_id = g.id "
                f"WHERE s.user_id = ? AND g.status IN ({marks}) ORDER BY g.id",
                (user_id, *statuses),
            )
            seats = await self._seats(tx, [int(r[0]) for r in rows])
        return [_summary(r, seats) for r in rows]

    async def active_games(self) -> list[GameSummary]:
        """Every open or running game (for the in-memory index of who plays where)."""
        async with self._reading() as tx:
            rows = await tx.fetchall(
                "SELECT id, game_type, status, guild_id, created_ms, deadline_ms FROM games "
                "WHERE status IN ('open', 'active') ORDER BY id"
            )
            seats = await self._seats(tx, [int(r[0]) for r in rows])
        return [_summary(r, seats) for r in rows]

    async def games_at(self, channel_id: str, thread_id: str | None) -> list[int]:
        """Open or running games that live in this thread (newest first), else in this channel
        outside any thread."""
        async with self._reading() as tx:
            if thread_id is not None:
                rows = await tx.fetchall(
                    "SELECT id FROM games WHERE thread_id = ? ORDER BY id DESC", (thread_id,)
                )
                if rows:
                    return [int(r[0]) for r in rows]
            rows = await tx.fetchall(
                "SELECT id FROM games WHERE channel_id = ? AND thread_id IS NULL "
                "AND status IN ('open', 'active') ORDER BY id DESC",
                (channel_id,),
            )
        return [int(r[0]) for r in rows]

    async def running_in(self, channel_id: str) -> list[int]:
        """Running games whose thread is this channel, or that live in it (newest first): the
        games a Discord Activity launched there may show."""
        async with self._reading() as tx:
            rows = await tx.fetchall(
                "SELECT id FROM games WHERE (thread_id = ? OR channel_id = ?) "
                "AND status = 'active' ORDER BY id DESC",
                (channel_id, channel_id),
            )
        return [int(r[0]) for r in rows]

    async def count_active(self, user_id: str | None, guild_id: str | None) -> int:
        async with self._reading() as tx:
            if user_id is not None:
                rows = await tx.fetchall(
                    "SELECT count(DISTINCT g.id) FROM games g JOIN seats s ON s.game_id = g.id "
                    "WHERE s.user_id = ? AND g.status IN ('open', 'active')",
                    (user_id,),
                )
            else:
                where, params = _same("guild_id", guild_id)
                rows = await tx.fetchall(
                    f"SELECT count(*) FROM games WHERE {where} AND status IN ('open', 'active')",
                    params,
                )
        return int(rows[0][0])


class _SqliteSession:
    def __init__(self, db: aiosqlite.Connection) -> None:
        self.db = db

    # Each call is one hop to the connection's thread and back (aiosqlite's execute, fetchall
    # and close would be three): on a busy process the hops, not SQLite, cost the most.
    async def execute(self, sql: str, params: Sequence[Any] = ()) -> None:
        await self.db.execute_fetchall(sql, params)

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if rows:
            await self.db.executemany(sql, rows)

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Sequence[Any]]:
        return list(await self.db.execute_fetchall(sql, params))


class SqliteStore(SqlStore):
    """The SQLite store: one file, one connection, one transaction per change."""

    GUILD_SHARD_KEY = (
        "CASE WHEN {col} GLOB '[0-9]*' AND {col} NOT GLOB '*[^0-9]*' "
        "THEN CAST({col} AS INTEGER) >> 22 ELSE 0 END"
    )
    CROSS_JOIN = "CROSS JOIN"

    def __init__(
        self, path: str | Path, *, target_version: int | None = None, synchronous: str = "FULL"
    ) -> None:
        if synchronous.upper() not in ("FULL", "NORMAL"):
            raise ValueError(f"synchronous must be FULL or NORMAL, not {synchronous!r}")
        self.path = str(path)
        # FULL: an acknowledged move survives a power cut too; NORMAL (WAL): it survives a crash
        # of the process, and a commit costs no fsync.
        self.synchronous = synchronous.upper()
        self._target = LATEST_VERSION if target_version is None else target_version
        self._db: aiosqlite.Connection | None = None
        # One connection is shared by every coroutine: statements of two transactions must never
        # interleave, so each store call holds this lock for its whole transaction.
        self._lock = asyncio.Lock()

    # -- lifecycle -------------------------------------------------------------------------
    async def open(self) -> None:
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        db = await aiosqlite.connect(self.path, isolation_level=None)
        await db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        for attempt in range(BUSY_TIMEOUT_MS // 100):
            # Switching a new file to WAL needs it to itself: a second process opening it at the
            # same moment is told "locked" at once (no busy wait), so it tries again.
            try:
                await db.execute("PRAGMA journal_mode = WAL")
                break
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or attempt == BUSY_TIMEOUT_MS // 100 - 1:
                    await db.close()
                    raise
                await asyncio.sleep(0.1)
        await db.execute(f"PRAGMA synchronous = {self.synchronous}")
        await db.execute("PRAGMA foreign_keys = ON")
        self._db = db
        try:
            await self.migrate(self._target)
        except BaseException:
            # e.g. the file stays locked: the connection's thread would keep the process alive
            await self.close()
            raise

    async def close(self) -> None:
        # A change in progress (a command answered while the bot shuts down) ends first: a
        # connection closed under it would hold the file's write lock until its cursors are
        # collected, and the next start would find the database locked.
        async with self._lock:
            if self._db is not None:
                await self._db.close()
                self._db = None

    @property
    def db(self) -> aiosqlite.Connection:
        if self._db is None:
            raise RuntimeError("the store is not open")
        return self._db

    async def user_version(self) -> int:
        async with self.db.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        return int(row[0]) if row else 0

    async def migrate(self, target: int | None = None) -> int:
        """Apply every migration above the file's ``user_version`` up to ``target``, each in
        one transaction with the version it reaches (a second process starting at the same
        moment waits, then finds the step done)."""
        target = LATEST_VERSION if target is None else target
        for number, _name, sql in migrations():
            if number > target:
                break
            async with self._writing() as tx:
                if await self.user_version() >= number:
                    continue
                for statement in _statements(sql):
                    await tx.execute(statement)
                await tx.execute(f"PRAGMA user_version = {number}")
        return await self.user_version()

    # -- sessions --------------------------------------------------------------------------
    @asynccontextmanager
    async def _reading(self) -> AsyncIterator[Session]:
        async with self._lock:
            yield _SqliteSession(self.db)

    @asynccontextmanager
    async def _writing(self) -> AsyncIterator[Session]:
        async with self._lock:
            await self._begin()
            try:
                yield _SqliteSession(self.db)
            except sqlite3.IntegrityError as exc:
                await asyncio.shield(self.db.execute("ROLLBACK"))
                raise ConflictError(str(exc)) from exc
            except BaseException:
                await asyncio.shield(self.db.execute("ROLLBACK"))
                raise
            await self.db.execute("COMMIT")

    async def _begin(self) -> None:
        """``BEGIN IMMEDIATE``, undone if the caller is cancelled while it is on its way: the
        connection's thread runs it all the same, and the next write would find the
        connection inside a transaction nobody ends ("cannot start a transaction within a
        transaction": a process stopped in the middle of a delivery round)."""
        begin = asyncio.ensure_future(self.db.execute("BEGIN IMMEDIATE"))
        try:
            await asyncio.shield(begin)
        except asyncio.CancelledError:
            with contextlib.suppress(Exception):
                await begin
                await self.db.execute("ROLLBACK")
            raise

    @asynccontextmanager
    async def _snapshot(self) -> AsyncIterator[Session]:
        async with self._lock:
            await self.db.execute("BEGIN")
            try:
                yield _SqliteSession(self.db)
            finally:
                await self.db.execute("COMMIT")

    async def _serialize(self, tx: Session, keys: Sequence[str]) -> None:
        """Nothing to do: ``BEGIN IMMEDIATE`` already makes every write wait for the last."""


def _summary(r: Sequence[Any], seats: dict[int, tuple[SeatRow, ...]]) -> GameSummary:
    """A row of ``id, game_type, status, guild_id, created_ms, deadline_ms`` with its seats."""
    game_id = int(r[0])
    return GameSummary(
        game_id, r[1], GameStatus(r[2]), r[3], seats.get(game_id, ()), int(r[4]), r[5]
    )


_RATING_COLUMNS = (
    "r.user_id, r.game_type, r.mu, r.sigma, r.ordinal, r.games, r.wins, r.losses, r.draws, u.name"
)


def _rating_row(r: Sequence[Any]) -> RatingRow:
    return RatingRow(
        user_id=r[0],
        game_type=r[1],
        mu=float(r[2]),
        sigma=float(r[3]),
        ordinal=float(r[4]),
        games=int(r[5]),
        wins=int(r[6]),
        losses=int(r[7]),
        draws=int(r[8]),
        name=r[9],
    )


def _game_row(r: Sequence[Any], seats: tuple[SeatRow, ...]) -> GameRow:
    return GameRow(
        id=int(r[0]),
        game_type=r[1],
        players=int(r[2]),
        options=json.loads(r[3]),
        seed=r[4],
        status=GameStatus(r[5]),
        guild_id=r[6],
        channel_id=r[7],
        thread_id=r[8],
        message_id=r[9],
        creator_id=r[10],
        clock=r[11],
        reminders=_ints(r[12]),
        created_ms=int(r[13]),
        started_ms=r[14],
        finished_ms=r[15],
        result=_outcome(r[16]),
        turn_started_ms=r[17],
        deadline_ms=r[18],
        reminders_sent=_ints(r[19]),
        offer=Offer.from_json(json.loads(r[20])) if r[20] else None,
        version=int(r[21]),
        seats=seats,
        expires_ms=r[22],
        offers_made=tuple(OfferMade(OfferKind(k), int(s), int(m)) for k, s, m in json.loads(r[23])),
        imported_ms=r[24],
        rated=bool(r[25]),
        daily_day=r[26],
        reseed=r[27],
        reseed_from=int(r[28]),
        paused_ms=r[29],
        paused_until_ms=r[30],
        conditional=Conditional.from_json(json.loads(r[31])) if r[31] else None,
        reach=r[32],
    )


__all__ = [
    "BUSY_TIMEOUT_MS",
    "Change",
    "ConflictError",
    "GameRow",
    "GameSummary",
    "LimitError",
    "MoveRow",
    "NewGame",
    "OutboxRow",
    "RatingConflict",
    "SeatRow",
    "SqlStore",
    "SqliteStore",
    "Stats",
    "Store",
    "StoreUncertain",
    "StoreUnreachable",
]


# -- tournaments (issue 34) ------------------------------------------------------------------------
def _int_or_none(value: Any) -> int | None:
    return None if value is None else int(value)


def _tournament_row(r: Sequence[Any]) -> TournamentRow:
    new = NewTournament(
        creator_id=r[1],
        name=r[2],
        game_type=r[3],
        options=json.loads(r[4]),
        format=r[5],
        clock=r[6],
        rated=bool(r[7]),
        rounds=int(r[8]),
        max_players=int(r[9]),
        created_ms=int(r[10]),
        guild_id=r[11],
        channel_id=r[12],
        signup_until_ms=_int_or_none(r[13]),
        seed=r[14],
    )
    return TournamentRow(
        int(r[0]),
        new,
        TournamentStatus(r[15]),
        int(r[16]),
        r[17],
        _int_or_none(r[18]),
        _int_or_none(r[19]),
    )


def _board_result_text(result: BoardResult) -> str:
    return json.dumps(
        {"points": list(result.points), "ranks": list(result.ranks), "forfeit": result.forfeit}
    )


def _board_result(text: str | None) -> BoardResult | None:
    if text is None:
        return None
    data = json.loads(text)
    return BoardResult(
        tuple(float(p) for p in data["points"]),
        tuple(int(r) for r in data["ranks"]),
        bool(data.get("forfeit", False)),
    )
