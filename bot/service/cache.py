"""The game cache: per-game locks, loading and replaying the log, and committing changes.

The move log in the store is the source of truth. A game's current state is rebuilt by replaying
its log through the engine and kept in a bounded LRU; every change is one store transaction
guarded by the game's version and the log's (game, ply) key, under the game's asyncio lock.
Committing keeps the cached game, the index of who plays in which live game, and whoever listens
(the timers) in step, in one place.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any

from bot.model import (
    Announcement,
    Change,
    GameRow,
    GameStatus,
    MoveRow,
    NewGame,
    SeatKind,
    Update,
    outbox_key,
    row_of_new,
    updated,
)
from bot.service.explored import explorer_counts
from bot.service.footprint import Sizer
from bot.service.values import HOST_ID, Location, Refusal, Reply, ai_name
from bot.store import ConflictError, Store, StoreUncertain
from engines.core import CHANCE, EngineError, Game, State
from engines.registry import get_game

log = logging.getLogger(__name__)

CLAIM_MS = 120_000
"""How long an announcement handed to a caller is theirs to deliver before the outbox's loop
may post it instead (a caller that neither reports success nor failure)."""

MAX_GAME_ID = 2**63
"""Game ids are SQLite integers (64-bit): anything at or above this is no game."""


NEW_GAME_FIELDS = frozenset(f.name for f in fields(NewGame))
"""The columns a created game can be made with (what an amender adds beyond them, e.g. a
premove's line, cannot exist before the game does)."""


@dataclass(slots=True)
class Loaded:
    """A game as the service holds it: its row, its log and the replayed current state."""

    row: GameRow
    entries: list[MoveRow]
    state: State[Any]
    last_move: Any = None
    choices: dict[tuple[int, str], list[tuple[tuple[str, ...], str]]] = field(default_factory=dict)
    """Per seat and language, the legal moves as (folded spellings, shown) pairs
    (autocomplete; filled lazily)."""

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def game(self) -> Game[Any]:
        return self.state.game

    @property
    def status(self) -> GameStatus:
        return self.row.status

    def seats_of(self, user_id: str) -> list[int]:
        return [
            s.seat
            for s in self.row.seats
            if s.user_id == user_id or (s.kind is SeatKind.HOST and user_id == HOST_ID)
        ]

    def acting_seats(self) -> tuple[int, ...]:
        if self.row.status is not GameStatus.ACTIVE:
            return ()
        return self.state.acting_players()

    def acting_names(self) -> str:
        """Who is due to act now, by name (empty when the game is not running)."""
        return ", ".join(self.name(s) for s in self.acting_seats())

    def not_your_turn(self) -> Refusal:
        """The refusal of someone acting out of turn: it names who is to act."""
        return Refusal("refuse.not_your_turn", id=self.id, to_move=self.acting_names())

    def is_turn_of(self, user_id: str) -> bool:
        """True when ``user_id`` is due to act now (their move, their secret setup)."""
        acting = self.acting_seats()
        return any(seat in acting for seat in self.seats_of(user_id))

    def user_ids(self, seats: Sequence[int]) -> tuple[str, ...]:
        out: list[str] = []
        for seat in seats:
            row = self.row.seats[seat]
            if row.kind is SeatKind.HUMAN and row.user_id and row.user_id not in out:
                out.append(row.user_id)
        return tuple(out)

    def move_number(self, upto: int | None = None) -> int:
        """Plies of play in the log up to index ``upto``: chance outcomes and secret setup
        steps are not plies (a changed arrangement does not push 数字将棋's first move to 3)."""
        entries = self.entries if upto is None else self.entries[: upto + 1]
        return sum(e.actor != CHANCE and not e.secret for e in entries)

    def name(self, seat: int) -> str:
        row = self.row.seats[seat]
        if row.kind is SeatKind.HOST:
            return "Banmen" if row.ai_level is None else ai_name(row.ai_level)
        return row.name or row.user_id or "?"

    def hidden_from(self, viewer_seats: Sequence[int]) -> set[int]:
        """Log indices a viewer with these seats may not see (secret moves not yet revealed)."""
        if not self.state.hides_moves():
            return set()
        return {e.ply for e in self.entries if e.secret and e.actor not in viewer_seats}

    def viewer_seat(self, user_id: str | None) -> int | None:
        """The seat whose view ``user_id`` gets (the one due to act first), or None."""
        if user_id is None:
            return None
        seats = self.seats_of(user_id)
        if not seats:
            return None
        acting = [s for s in seats if s in self.state.acting_players()]
        return acting[0] if acting else seats[0]


def replayed(
    row: GameRow, entries: Sequence[MoveRow]
) -> Iterator[tuple[MoveRow, Any, State[Any], State[Any]]]:
    """Each log entry with its move, the state it was played from and the state after it
    (raises EngineError if the log no longer plays)."""
    game = get_game(row.game_type)
    state: State[Any] = game.new_game(row.players, row.options)
    for e in entries:
        player = e.actor if e.actor >= 0 else None
        move = state.parse_move(e.move, player)
        before, state = state, state.apply(move, player)
        yield e, move, before, state


def replay(row: GameRow, entries: Sequence[MoveRow]) -> Loaded:
    """Rebuild a game from its row and log (raises EngineError if the log no longer plays)."""
    state: State[Any] = get_game(row.game_type).new_game(row.players, row.options)
    last_move: Any = None
    for e, move, _, after in replayed(row, entries):
        state = after
        if e.actor != CHANCE:
            last_move = None if e.secret else move
    return Loaded(row, list(entries), state, last_move)


Announce = Callable[[Loaded], Sequence[Reply]]
"""Makes a change's announcements from the game as it will be once the change is committed."""


@dataclass(frozen=True, slots=True)
class LiveGame:
    """What the cache remembers of every open or running game (answers autocomplete)."""

    game_type: str
    users: frozenset[str]


Listener = Callable[[GameRow], None]
Amend = Callable[[GameRow, State[Any], Change], Update]
"""What a commit must add, given the game row it leaves, the state and the change itself (the
vacations' stopped clocks, the conditional moves the change matches)."""
"""Told of every committed row, a created game's included (the timers keep their deadlines
from it; the computer player looks for its turns)."""


class Claims:
    """Announcements (outbox keys) a caller of this process is delivering, each until a time
    (ms): the delivery loop leaves them alone until then."""

    def __init__(self) -> None:
        self._until: dict[str, int] = {}

    def __len__(self) -> int:
        return len(self._until)

    def __contains__(self, key: object) -> bool:
        return key in self._until

    def claim(self, key: str, until: int) -> None:
        self._until[key] = until

    def release(self, key: str) -> None:
        self._until.pop(key, None)

    def expire(self, now: int) -> None:
        """Release every claim that ended by ``now``."""
        for key in [k for k, until in self._until.items() if until <= now]:
            del self._until[key]

    def next_end(self) -> int | None:
        """When the first claim ends (None: no claims)."""
        return min(self._until.values(), default=None)


class GameCache:
    """Locks, loads, replays and commits games; one instance per service."""

    def __init__(self, store: Store, size: int, budget: int | None = None) -> None:
        self.store = store
        self.size = size
        """The most games kept in memory."""
        self.budget = budget
        """The most bytes the games kept in memory may hold, as :func:`footprint` estimates
        them (``None``: no limit but :attr:`size`)."""
        # Weak: a game's lock lives while someone holds or awaits it, so there is never a second
        # lock for the same game, and idle games cost no memory.
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._games: OrderedDict[int, Loaded] = OrderedDict()
        self._sizer = Sizer()
        self._sizes: dict[int, int] = {}
        """Per cached game, its estimated bytes."""
        self._bytes = 0
        """The sum of the cached games' estimates."""
        self._live: dict[int, LiveGame] = {}
        self._by_user: dict[str, set[int]] = {}
        """The live games' ids by the users seated in them (the index of ``_live``: a user's
        games without a look at everyone's)."""
        self._locations: dict[int, Location] = {}
        """Where the games live that are live or in memory (a game's place is read back from
        its row when it is loaded again)."""
        self._listeners: list[Listener] = []
        self._claims = Claims()
        self._amenders: list[Amend] = []

    async def restore(self) -> None:
        """Read the index of live games (at start-up)."""
        self._live, self._by_user = {}, {}
        for g in await self.store.active_games():
            self._set_live(
                g.id, LiveGame(g.game_type, frozenset(s.user_id for s in g.seats if s.user_id))
            )

    def _set_live(self, game_id: int, live: LiveGame | None) -> None:
        """Keep ``game_id`` in the live index as ``live`` (None: no longer live), with the
        index by user in step."""
        old = self._live.pop(game_id, None)
        if old is not None:
            for user in old.users:
                games = self._by_user.get(user)
                if games is not None:
                    games.discard(game_id)
                    if not games:
                        del self._by_user[user]
        if live is not None:
            self._live[game_id] = live
            for user in live.users:
                self._by_user.setdefault(user, set()).add(game_id)

    @property
    def claims(self) -> Claims:
        """The announcements this process is delivering (the outbox reads and releases them)."""
        return self._claims

    def amend_with(self, amend: Amend) -> None:
        """Let ``amend`` add to every change before it is written (in the same transaction)."""
        self._amenders.append(amend)

    def listen(self, listener: Listener) -> None:
        """Tell ``listener`` of every row committed from now on."""
        self._listeners.append(listener)

    def live_games(self, user_id: str | None = None) -> list[tuple[int, LiveGame]]:
        """The open and running games (of ``user_id``: those where they hold a seat), newest
        first."""
        if user_id is None:
            return sorted(self._live.items(), reverse=True)
        mine = self._by_user.get(user_id, ())
        return [(gid, self._live[gid]) for gid in sorted(mine, reverse=True)]

    def players(self, game_id: int) -> frozenset[str]:
        """Who holds a seat in the live game ``game_id`` (nobody: not a live game)."""
        live = self._live.get(game_id)
        return live.users if live is not None else frozenset()

    def location(self, game_id: int) -> Location | None:
        """Where the game lives, if it is live or in memory and has a place."""
        return self._locations.get(game_id)

    def lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    def held_ids(self) -> list[int]:
        """The games in memory."""
        return list(self._games)

    def cached(self, game_id: int) -> Loaded | None:
        """The cached game, if it is in memory (never touches the store)."""
        return self._games.get(game_id)

    async def load(self, game_id: int) -> Loaded:
        """The game, from memory or replayed from the store; refuses an unknown game."""
        loaded = self._games.get(game_id)
        if loaded is not None:
            self._games.move_to_end(game_id)
            return loaded
        if not 0 < game_id < MAX_GAME_ID:  # SQLite integers are 64-bit: no such game
            raise Refusal("refuse.unknown_game", id=game_id)
        record = await self.store.load_record(game_id)
        if record is None:
            raise Refusal("refuse.unknown_game", id=game_id)
        row, entries = record
        try:
            loaded = replay(row, entries)
        except EngineError as exc:  # the engine changed under a stored game
            log.error("game %s does not replay: %s", game_id, exc)
            raise Refusal("refuse.broken_game", id=game_id) from exc
        self._remember(loaded)
        return loaded

    async def read(self, game_id: int) -> Loaded:
        """Load under the game's lock (for read-only use cases)."""
        async with self.lock(game_id):
            return await self.load(game_id)

    async def read_many(self, game_ids: Iterable[int]) -> dict[int, Loaded]:
        """Several games to read, not to change: those in memory as they are, the others from
        one snapshot of the store, replayed and not kept (a batch of digests must not push
        the games being played out of memory). An unknown or broken game is left out."""
        ids = sorted(set(game_ids))
        out = {gid: loaded for gid in ids if (loaded := self._games.get(gid)) is not None}
        missing = [gid for gid in ids if gid not in out and 0 < gid < MAX_GAME_ID]
        for gid, (row, entries) in (await self.store.load_records(missing)).items():
            try:
                out[gid] = replay(row, entries)
            except EngineError as exc:  # the engine changed under a stored game
                log.error("game %s does not replay: %s", gid, exc)
        return out

    @property
    def held(self) -> tuple[int, int]:
        """How many games are in memory and the bytes they hold (estimated)."""
        return len(self._games), self._bytes

    def _remember(self, loaded: Loaded) -> None:
        """Keep ``loaded`` in memory and the indexes in step with its row."""
        row = loaded.row
        if self.budget is not None:
            size = self._sizer.estimate(row.game_type, loaded, loaded.entries)
            self._bytes += size - self._sizes.get(row.id, 0)
            self._sizes[row.id] = size
        self._games[row.id] = loaded
        self._games.move_to_end(row.id)
        if row.status.is_live:
            users = frozenset(s.user_id for s in row.seats if s.user_id)
            self._set_live(row.id, LiveGame(row.game_type, users))
        else:
            self._set_live(row.id, None)
        if row.channel_id or row.thread_id or row.message_id:
            self._locations[row.id] = Location(
                row.channel_id, row.thread_id, row.message_id, row.reach, row.guild_id
            )
        while len(self._games) > self.size or (
            self.budget is not None and self._bytes > self.budget and len(self._games) > 1
        ):
            evicted, _ = self._games.popitem(last=False)
            self._bytes -= self._sizes.pop(evicted, 0)
            self._drop_location(evicted)

    async def refresh(self, game_id: int, version: int) -> None:
        """Another process committed ``version`` of ``game_id``: unless this one has it
        already, read the game again and tell every listener of it as of a commit here (its
        clocks, its computer's turn, its pages)."""
        async with self.lock(game_id):
            cached = self._games.get(game_id)
            if cached is not None and cached.row.version >= version:
                return
            self.forget(game_id)
            new = await self.load(game_id)
        for listener in self._listeners:
            listener(new.row)

    def forget(self, game_id: int) -> None:
        self._games.pop(game_id, None)
        self._bytes -= self._sizes.pop(game_id, 0)
        self._drop_location(game_id)

    def _drop_location(self, game_id: int) -> None:
        """A game neither live nor in memory keeps no place here (it is read with the game)."""
        if game_id not in self._live and game_id not in self._games:
            self._locations.pop(game_id, None)

    def _committed(self, new: Loaded) -> None:
        """The one way a written game (created, changed or imported) enters the cache: kept,
        indexed, and told to every listener."""
        self._remember(new)
        for listener in self._listeners:
            listener(new.row)

    async def commit(
        self,
        loaded: Loaded,
        change: Change,
        state: State[Any] | None = None,
        last_move: Any = ...,
    ) -> Loaded:
        """Write ``change``; on success update the cached game, else refuse (nothing written)."""
        new, _ = await self.commit_announcing(loaded, change, state, last_move)
        return new

    async def commit_announcing(
        self,
        loaded: Loaded,
        change: Change,
        state: State[Any] | None = None,
        last_move: Any = ...,
        *,
        announce: Announce | None = None,
        at_ms: int = 0,
    ) -> tuple[Loaded, tuple[Reply, ...]]:
        """Write ``change`` and what it announces, in one transaction.

        ``announce`` makes the replies from the game as it will be once committed; they go to
        the outbox with the change (at ``at_ms``) and come back keyed and claimed: the caller
        delivers them and reports each (see :class:`bot.service.outbox.Outbox`)."""
        row = updated(loaded.row, change.update, change.seats)
        for amend in self._amenders:
            extra = amend(row, state if state is not None else loaded.state, change)
            if extra.given():
                change = replace(change, update=change.update | extra)
                row = updated(loaded.row, change.update, change.seats)
        entries = loaded.entries
        if change.truncate_from is not None:
            entries = entries[: change.truncate_from]
        entries = entries + list(change.append)
        if row.status is GameStatus.FINISHED and loaded.row.status is not GameStatus.FINISHED:
            change = replace(change, explored=explorer_counts(row, entries))
        new = Loaded(
            row,
            entries,
            state if state is not None else loaded.state,
            loaded.last_move if last_move is ... else last_move,
        )
        replies: tuple[Reply, ...] = ()
        if announce is not None:
            replies, rows = self._announced(new, announce, at_ms)
            change = replace(change, announce=rows)
        try:
            await self.store.apply(change)
        except ConflictError as exc:
            self._unclaim(replies)
            self.forget(loaded.id)
            raise Refusal("refuse.position_changed", id=loaded.id) from exc
        except StoreUncertain:
            # written or not: the next use reads the game from the store again, and the outbox
            # (unclaimed) delivers its announcements if it was
            self._unclaim(replies)
            self.forget(loaded.id)
            raise
        except BaseException:
            self._unclaim(replies)
            raise
        self._committed(new)
        return new, replies

    async def create(
        self, new: NewGame, announce: Announce | None = None, at_ms: int = 0
    ) -> tuple[Loaded, tuple[Reply, ...]]:
        """Write the game ``new`` (a lobby, a rematch, an import) and what its creation
        announces, in one transaction (a game that starts at once: its first message is not
        lost either), and read it back into the cache. The replies come back keyed and
        claimed, as from :meth:`commit_announcing`."""
        new = self._amended(new)
        if new.status is GameStatus.FINISHED:
            new = replace(new, explored=explorer_counts(row_of_new(new, 0), new.entries))
        made: tuple[Reply, ...] = ()

        def announcements(game_id: int) -> tuple[Announcement, ...]:
            nonlocal made
            if announce is None:
                return ()
            loaded = replay(row_of_new(new, game_id), list(new.entries))
            made, rows = self._announced(loaded, announce, at_ms)
            return rows

        try:
            game_id = await self.store.create_game(new, announcements if announce else None)
        except BaseException:
            self._unclaim(made)
            raise
        async with self.lock(game_id):
            loaded = await self.load(game_id)  # with the seats' names as the store keeps them
            self._committed(loaded)
        return loaded, tuple(made)

    def _amended(self, new: NewGame) -> NewGame:
        """``new`` with what the amenders add to a game's first turn (a game made running while
        its first player to move is on vacation starts with its clock stopped): a game is
        created through the same hooks as every change, so no way in forgets one. A lobby, a
        challenge or a finished import has no turn to amend (and is not replayed for it)."""
        if not self._amenders or new.status is not GameStatus.ACTIVE:
            return new
        row = row_of_new(new, 0)
        state = replay(row, list(new.entries)).state
        change = Change(0, 0, update=Update(turn_started_ms=new.turn_started_ms))
        given: dict[str, object] = {}
        for amend in self._amenders:
            given |= amend(row, state, change).given()
        settable = {k: v for k, v in given.items() if k in NEW_GAME_FIELDS}
        return replace(new, **settable) if settable else new  # type: ignore[arg-type]

    def _announced(
        self, new: Loaded, announce: Announce, at_ms: int
    ) -> tuple[tuple[Reply, ...], tuple[Announcement, ...]]:
        """The public replies ``announce`` makes of ``new`` (the game as its change leaves it),
        keyed by its id and version and claimed for this process before the write (the
        delivery loop never takes what this caller sends), and their outbox rows."""
        made = [r for r in announce(new) if r.public]
        row = new.row
        replies = tuple(
            replace(r, outbox=outbox_key(row.id, row.version, n)) for n, r in enumerate(made)
        )
        for r in replies:
            if r.outbox is not None:
                self._claims.claim(r.outbox, at_ms + CLAIM_MS)
        rows = tuple(
            Announcement(n, len(new.entries), str(r.event), r.to_json(), at_ms)
            for n, r in enumerate(replies)
        )
        return replies, rows

    def _unclaim(self, replies: Sequence[Reply]) -> None:
        for r in replies:
            if r.outbox is not None:
                self._claims.release(r.outbox)
