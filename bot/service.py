"""The game service: every use case of a game host, with no Discord in it.

Adapters (the Discord cogs, the terminal sandbox) call one :class:`GameService`. Each use case
returns a presentation-neutral :class:`Reply` (an i18n message key with parameters, the picture to
attach, the actions now available, who to ping) or raises :class:`Refusal` (nothing written).

The move log in the store is the source of truth. A game's current state is rebuilt by replaying
its log through the engine and kept in a bounded LRU; every change is one store transaction
guarded by the game's version and the log's (game, ply) key, under a per-game asyncio lock.
See docs/service.md.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import unicodedata
import weakref
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from typing import Any

import render
from bot import i18n
from bot.clock import (
    Clock,
    ClockError,
    ClockSpec,
    SystemClock,
    from_ms,
    parse_clock,
    to_ms,
    with_reminders,
)
from bot.config import Settings
from bot.records import RecordMeta, export_json, import_json, kif_text
from bot.store import (
    Change,
    ConflictError,
    GameRow,
    MoveRow,
    NewGame,
    SeatRow,
    SqliteStore,
    Store,
    with_fields,
)
from engines.core import (
    CHANCE,
    MAX_INPUT,
    SIMULTANEOUS,
    EngineError,
    Game,
    Outcome,
    State,
    Termination,
    Text,
    chance_pick,
    normalise,
)
from engines.record import Entry, Record
from engines.registry import all_games, get_game

log = logging.getLogger(__name__)

HOST_ID = "host"
"""The user id that plays host-controlled seats (later: AI players)."""

ACTIVE = ("open", "active")
HOST_ENDS = frozenset(
    {Termination.RESIGNATION, Termination.TIMEOUT, Termination.AGREEMENT, Termination.ABORTED}
)
"""Ends the host decides and the engine state cannot know (its pictures must be told)."""
DAILY_GAME = "yosuko"
PASS_WORDS = frozenset({"PASS", "パス"})


# --- values the adapters see ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class User:
    """A platform user: id (a Discord snowflake as text, or a sandbox name) and display name."""

    id: str
    name: str


@dataclass(frozen=True, slots=True)
class Line:
    """One more message line: an i18n key and its parameters."""

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class File:
    """A file to attach (a game record)."""

    name: str
    data: bytes


@dataclass(frozen=True, slots=True)
class Location:
    channel_id: str | None
    thread_id: str | None
    message_id: str | None


@dataclass(frozen=True)
class Reply:
    """A presentation-neutral answer; :meth:`text` renders it in English or Japanese."""

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)
    game_id: int | None = None
    public: bool = True
    audience: str | None = None
    image: bytes | None = None
    image_viewer: int | None = None
    actions: tuple[str, ...] = ()
    notify: tuple[str, ...] = ()
    to_move: tuple[str, ...] = ()
    deadline: datetime | None = None
    lines: tuple[Line, ...] = ()
    files: tuple[File, ...] = ()
    choices: tuple[str, ...] = ()

    def text(self, lang: str = "en") -> str:
        parts = [i18n.t(self.key, lang, **self.params)]
        parts += [i18n.t(line.key, lang, **line.params) for line in self.lines]
        if self.to_move and self.key in i18n.TURN_KEYS:
            parts.append(i18n.t("turn.next", lang, to_move=self.params.get("to_move", "")))
            if self.deadline is not None:
                parts.append(i18n.t("turn.deadline", lang, deadline=self.deadline))
        return "\n".join(p for p in parts if p)


class Refusal(Exception):
    """A use case refused: a specific reason (i18n key + params); nothing was written."""

    def __init__(self, key: str, suggestions: Sequence[str] = (), /, **params: Any) -> None:
        super().__init__(i18n.t(key, "en", **params))
        self.key = key
        self.params: Mapping[str, Any] = params
        self.suggestions = tuple(suggestions)

    def text(self, lang: str = "en") -> str:
        out = i18n.t(self.key, lang, **self.params)
        if self.suggestions:
            out += "\n" + i18n.t("refuse.suggestions", lang, moves=", ".join(self.suggestions))
        return out


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """Per-server settings (stored as text; defaults here)."""

    lang: str = "en"
    threads: bool = True
    clock: str = "none"
    max_active_per_user: int | None = None
    max_active_per_guild: int | None = None


GUILD_KEYS: dict[str, tuple[str, ...] | None] = {
    "lang": ("en", "ja"),
    "threads": ("on", "off"),
    "clock": None,
    "max_active_per_user": None,
    "max_active_per_guild": None,
}


# --- the cached game --------------------------------------------------------------------------


@dataclass(slots=True)
class Loaded:
    """A game as the service holds it: its row, its log and the replayed current state."""

    row: GameRow
    entries: list[MoveRow]
    state: State[Any]
    last_move: Any = None
    choices: dict[int, list[tuple[str, str]]] = field(default_factory=dict)

    @property
    def game(self) -> Game[Any]:
        return self.state.game

    def seats_of(self, user_id: str) -> list[int]:
        return [
            s.seat
            for s in self.row.seats
            if s.user_id == user_id or (s.kind == "host" and user_id == HOST_ID)
        ]

    def acting_seats(self) -> tuple[int, ...]:
        if self.row.status != "active":
            return ()
        return self.state.acting_players()

    def user_ids(self, seats: Sequence[int]) -> tuple[str, ...]:
        out: list[str] = []
        for seat in seats:
            row = self.row.seats[seat]
            if row.kind == "human" and row.user_id and row.user_id not in out:
                out.append(row.user_id)
        return tuple(out)

    def move_number(self, upto: int | None = None) -> int:
        """Player moves (chance outcomes not counted) in the log, up to index ``upto``."""
        entries = self.entries if upto is None else self.entries[: upto + 1]
        return sum(e.actor != CHANCE for e in entries)

    def name(self, seat: int) -> str:
        row = self.row.seats[seat]
        if row.kind == "host":
            return "Banmen"
        return row.name or row.user_id or "?"

    def hidden_from(self, viewer_seats: Sequence[int]) -> set[int]:
        """Log indices a viewer with these seats may not see (secret moves not yet revealed)."""
        if not self.state.hides_moves():
            return set()
        return {e.ply for e in self.entries if e.secret and e.actor not in viewer_seats}


def _title(game: Game[Any]) -> Text:
    return Text(game.title_en, game.title_ja)


def _outcome_json(outcome: Outcome) -> dict[str, Any]:
    return {
        "termination": outcome.termination.value,
        "winners": sorted(outcome.winners),
        "ranks": list(outcome.ranks),
        "en": outcome.text.en,
        "ja": outcome.text.ja,
    }


def _result_text(result: Mapping[str, Any]) -> Text:
    return Text(str(result.get("en", "")), str(result.get("ja", "")))


def _outcome_from_json(result: Mapping[str, Any]) -> Outcome:
    return Outcome(
        Termination(result["termination"]),
        frozenset(int(w) for w in result["winners"]),
        tuple(int(r) for r in result["ranks"]),
        _result_text(result),
    )


def _host_outcome(row: GameRow) -> Outcome | None:
    """The stored outcome of a game the host ended (resignation, timeout, agreed draw, abort):
    the engine state still shows a turn, so the picture is given this. ``None`` while the game
    goes on, when its own rules ended it, or when a stored (imported) result does not fit."""
    if row.status not in ("finished", "aborted") or not row.result:
        return None
    try:
        outcome = _outcome_from_json(row.result)
    except (KeyError, ValueError, TypeError):
        return None
    fits = len(outcome.ranks) == row.players and all(0 <= w < row.players for w in outcome.winners)
    return outcome if fits and outcome.termination in HOST_ENDS else None


def _names(names: Sequence[str], lang: str) -> str:
    """``a``, ``a and b``, ``a, b and c``; in Japanese ``aさんとb`` (the template adds the last
    さん)."""
    if lang.startswith("ja"):
        return "さんと".join(names)
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _fold(text: str) -> str:
    return normalise(unicodedata.normalize("NFKC", text)).casefold()


# --- the service ------------------------------------------------------------------------------


class GameService:
    """Every use case of the host. One instance per process; see docs/service.md."""

    def __init__(
        self,
        store: Store,
        clock: Clock | None = None,
        settings: Settings | None = None,
        *,
        render_images: bool = True,
    ) -> None:
        self.store = store
        self.clock: Clock = clock or SystemClock()
        self.settings = settings or Settings()
        self.render_images = render_images
        self.timer_changed = asyncio.Event()
        # Weak: a game's lock lives while someone holds or awaits it, so there is never a second
        # lock for the same game, and idle games cost no memory.
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._cache: OrderedDict[int, Loaded] = OrderedDict()
        self._timers: dict[int, GameRow] = {}
        self._pending: list[Reply] = []
        self._locations: dict[int, Location] = {}
        # Server settings are read on every reply and change only through this service.
        self._guild_settings: dict[str, GuildSettings] = {}
        # game id -> (game type, seated user ids) of every open or running game: answers
        # game-id autocomplete without touching the store.
        self._active: dict[int, tuple[str, frozenset[str]]] = {}

    @classmethod
    async def open(
        cls,
        path: str,
        *,
        clock: Clock | None = None,
        settings: Settings | None = None,
        render_images: bool = True,
    ) -> GameService:
        """Open (and migrate) the store at ``path`` and restore every pending deadline."""
        settings = settings or Settings(db_path=path)
        store = SqliteStore(path, synchronous=settings.sqlite_synchronous)
        await store.open()
        service = cls(store, clock, settings, render_images=render_images)
        await service.restore_timers()
        return service

    async def close(self) -> None:
        await self.store.close()

    async def restore_timers(self) -> None:
        """Read every running deadline from the store (so a restart never forgets one)."""
        self._timers = {row.id: row for row in await self.store.timed_games()}
        self._active = {
            g.id: (g.game_type, frozenset(s.user_id for s in g.seats if s.user_id))
            for g in await self.store.active_games()
        }
        self.timer_changed.set()

    # -- small helpers ---------------------------------------------------------------------
    def _now_ms(self) -> int:
        return to_ms(self.clock.now())

    def _lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    async def _load(self, game_id: int) -> Loaded:
        loaded = self._cache.get(game_id)
        if loaded is not None:
            self._cache.move_to_end(game_id)
            return loaded
        row = await self.store.load_game(game_id)
        if row is None:
            raise Refusal("refuse.unknown_game", id=game_id)
        entries = await self.store.load_moves(game_id)
        try:
            loaded = self._replay(row, entries)
        except EngineError as exc:  # the engine changed under a stored game
            log.error("game %s does not replay: %s", game_id, exc)
            raise Refusal("refuse.broken_game", id=game_id) from exc
        self._remember(loaded)
        return loaded

    def _replay(self, row: GameRow, entries: list[MoveRow]) -> Loaded:
        game = get_game(row.game_type)
        state: State[Any] = game.new_game(row.players, row.options)
        last_move: Any = None
        for e in entries:
            player = e.actor if e.actor >= 0 else None
            move = state.parse_move(e.move, player)
            state = state.apply(move, player)
            if e.actor != CHANCE:
                last_move = None if e.secret else move
        return Loaded(row, list(entries), state, last_move)

    def _remember(self, loaded: Loaded) -> None:
        self._cache[loaded.row.id] = loaded
        self._cache.move_to_end(loaded.row.id)
        while len(self._cache) > self.settings.state_cache_size:
            self._cache.popitem(last=False)
        row = loaded.row
        if row.status in ACTIVE:
            users = frozenset(s.user_id for s in row.seats if s.user_id)
            self._active[row.id] = (row.game_type, users)
        else:
            self._active.pop(row.id, None)
        if loaded.row.channel_id or loaded.row.thread_id or loaded.row.message_id:
            self._locations[loaded.row.id] = Location(
                loaded.row.channel_id, loaded.row.thread_id, loaded.row.message_id
            )

    def _forget(self, game_id: int) -> None:
        self._cache.pop(game_id, None)

    async def warm(self, game_id: int) -> None:
        """Load a game into the cache (so :meth:`legal_move_choices` can answer)."""
        async with self._lock(game_id):
            await self._load(game_id)

    def _clock_of(self, row: GameRow) -> ClockSpec:
        spec = parse_clock(row.clock)
        return with_reminders(spec, row.reminders) if spec.timed else spec

    async def _commit(
        self, loaded: Loaded, change: Change, state: State[Any] | None = None, last_move: Any = ...
    ) -> Loaded:
        """Write ``change``; on success update the cached game, else refuse (nothing written)."""
        try:
            await self.store.apply(change)
        except ConflictError as exc:
            self._forget(loaded.row.id)
            raise Refusal("refuse.position_changed", id=loaded.row.id) from exc
        row = with_fields(loaded.row, change.fields, change.seats)
        entries = loaded.entries
        if change.truncate_from is not None:
            entries = entries[: change.truncate_from]
        entries = entries + list(change.append)
        new = Loaded(
            row,
            entries,
            state if state is not None else loaded.state,
            loaded.last_move if last_move is ... else last_move,
        )
        self._remember(new)
        self._track_timer(row)
        return new

    def _track_timer(self, row: GameRow) -> None:
        before = self._timers.get(row.id)
        if row.status == "active" and row.deadline_ms is not None:
            self._timers[row.id] = row
        else:
            self._timers.pop(row.id, None)
        if before is None or self._timers.get(row.id) is None or before != self._timers[row.id]:
            self.timer_changed.set()

    async def _user(self, user: User) -> None:
        await self.store.upsert_user(user.id, user.name, self._now_ms())

    def _reply(self, loaded: Loaded, key: str, **kw: Any) -> Reply:
        """A reply about ``loaded`` with the turn, deadline, actions and pings filled in."""
        acting = loaded.acting_seats()
        to_move = loaded.user_ids(acting)
        params = {"id": loaded.row.id, "game": _title(loaded.game), **kw.pop("params", {})}
        if to_move:
            params.setdefault("to_move", ", ".join(loaded.name(s) for s in acting))
        deadline = from_ms(loaded.row.deadline_ms) if loaded.row.deadline_ms is not None else None
        return Reply(
            key,
            params,
            game_id=loaded.row.id,
            actions=kw.pop("actions", self._actions(loaded)),
            notify=kw.pop("notify", to_move),
            to_move=to_move,
            deadline=deadline if loaded.row.status == "active" else None,
            **kw,
        )

    def _actions(self, loaded: Loaded) -> tuple[str, ...]:
        status = loaded.row.status
        if status == "open":
            return ("join", "leave", "start", "cancel")
        if status != "active":
            return ("board", "moves", "record")
        out: list[str] = []
        state = loaded.state
        if state.current_player() == SIMULTANEOUS:
            out.append("setup")
        else:
            out.append("move")
            legal = state.legal_moves()
            if len(legal) == 1 and normalise(state.format_move(legal[0])) in PASS_WORDS:
                out.append("pass")
        out.append("resign")
        offer = loaded.row.offer
        if loaded.row.players == 2:
            if offer and offer.get("kind") == "draw":
                out += ["accept_draw", "decline_draw"]
            else:
                out.append("offer_draw")
        if offer and offer.get("kind") == "takeback":
            out += ["accept_takeback", "decline_takeback"]
        elif loaded.row.players >= 1 and loaded.entries:
            out.append("takeback")
        out += ["board", "moves"]
        return tuple(out)

    async def _image(self, loaded: Loaded, viewer: int | None) -> bytes | None:
        """The picture for ``viewer`` (drawn off the event loop), or None without a renderer.

        A game the host ended (resigned, timed out, agreed drawn, aborted) is drawn with its
        stored outcome, so the picture shows the result instead of a turn."""
        last = loaded.last_move
        if loaded.entries and loaded.entries[-1].secret and viewer != loaded.entries[-1].actor:
            last = None
        outcome = _host_outcome(loaded.row)
        return await self._draw(loaded.row.id, loaded.state, viewer, last, outcome)

    async def _draw(
        self,
        game_id: int,
        state: State[Any],
        viewer: int | None,
        last: Any,
        outcome: Outcome | None = None,
    ) -> bytes | None:
        if not self.render_images or not render.has_renderer(state.game.id):
            return None
        try:
            return await asyncio.to_thread(render.render_png, state, viewer, last, outcome)
        except Exception:  # a broken picture must not hide a move that is already stored
            log.exception("render failed for game %s", game_id)
            return None

    def _check_active(self, loaded: Loaded) -> None:
        status = loaded.row.status
        if status == "open":
            raise Refusal("refuse.not_started", id=loaded.row.id)
        if status != "active":
            raise Refusal("refuse.game_over", id=loaded.row.id)

    def _seat_of(self, loaded: Loaded, user: User) -> list[int]:
        seats = loaded.seats_of(user.id)
        if not seats:
            raise Refusal("refuse.not_a_player", id=loaded.row.id)
        return seats

    def _check_len(self, loaded: Loaded, expected: int | None) -> None:
        if expected is not None and expected != len(loaded.entries):
            raise Refusal("refuse.position_changed", id=loaded.row.id)

    # -- turn bookkeeping ------------------------------------------------------------------
    def _turn_fields(
        self,
        loaded: Loaded,
        before: State[Any],
        after: State[Any],
        movers: Sequence[int],
        now: int,
        seats: list[SeatRow],
    ) -> dict[str, Any]:
        """Deadline and bank updates after ``movers`` acted (``before`` -> ``after``)."""
        row = loaded.row
        spec = self._clock_of(row)
        fields: dict[str, Any] = {}
        if spec.kind == "bank" and row.turn_started_ms is not None:
            elapsed = now - row.turn_started_ms
            for seat in movers:
                srow = next((s for s in seats if s.seat == seat), row.seats[seat])
                bank = srow.bank_ms if srow.bank_ms is not None else spec.bank * 1000
                bank = min(spec.cap * 1000, max(0, bank - elapsed) + spec.bonus * 1000)
                seats = [s for s in seats if s.seat != seat]
                seats.append(replace(srow, bank_ms=bank))
        same_step = (
            before.current_player() == SIMULTANEOUS
            and after.current_player() == SIMULTANEOUS
            and set(after.acting_players()) < set(before.acting_players())
        )
        if not same_step:
            fields["turn_started_ms"] = now
            fields["deadline_ms"] = self._deadline(row, after, now, seats)
            fields["reminders_sent"] = ()
        elif spec.kind == "bank" and row.turn_started_ms is not None:
            # the step goes on: its deadline follows the smallest bank of those still due
            fields["deadline_ms"] = self._deadline(row, after, row.turn_started_ms, seats)
        return fields | {"_seats": seats}

    def _deadline(
        self, row: GameRow, state: State[Any], now: int, seats: Sequence[SeatRow]
    ) -> int | None:
        spec = self._clock_of(row)
        if not spec.timed or state.is_over():
            return None
        if spec.kind in ("live", "corr"):
            return now + spec.per_move * 1000
        banks = {s.seat: s.bank_ms for s in row.seats} | {s.seat: s.bank_ms for s in seats}
        due = state.acting_players()
        if not due:
            return None
        left = [banks.get(seat) for seat in due]
        return now + min(b if b is not None else spec.bank * 1000 for b in left)

    def _finish_fields(
        self, loaded: Loaded, outcome: Outcome, now: int
    ) -> tuple[dict[str, Any], tuple[tuple[str, str, str], ...]]:
        aborted = outcome.termination is Termination.ABORTED
        fields: dict[str, Any] = {
            "status": "aborted" if aborted else "finished",
            "finished_ms": now,
            "result": _outcome_json(outcome),
            "deadline_ms": None,
            "turn_started_ms": None,
            "offer": None,
        }
        results: list[tuple[str, str, str]] = []
        if not aborted:
            for s in loaded.row.seats:
                if s.kind == "human" and s.user_id:
                    results.append((s.user_id, loaded.row.game_type, outcome.result(s.seat)))
        return fields, tuple(results)

    async def _advance(
        self,
        loaded: Loaded,
        before: State[Any],
        after: State[Any],
        rows: list[MoveRow],
        movers: Sequence[int],
        last_move: Any,
        now: int,
        extra: Mapping[str, Any] | None = None,
        truncate_from: int | None = None,
        picture: bool = False,
    ) -> tuple[Loaded, list[MoveRow], bytes | None]:
        """Resolve chance steps, finish or time the next turn, and commit: one transaction.

        With ``picture``, the spectator's picture of the new position is drawn in a thread
        while the transaction commits (it is dropped if the commit is refused).
        """
        chance_entries: list[Entry] = []
        if after.current_player() == CHANCE:
            after = self._resolve_chance(after, loaded.row.seed, chance_entries)
        start = (truncate_from if truncate_from is not None else len(loaded.entries)) + len(rows)
        secret = after.hides_moves()  # a deal made during a secret step stays secret too
        chance_rows = [
            MoveRow(start + i, CHANCE, e.move, None, secret, now)
            for i, e in enumerate(chance_entries)
        ]
        rows = rows + chance_rows
        fields: dict[str, Any] = dict(extra or {})
        if loaded.row.offer is not None and "offer" not in fields:
            fields["offer"] = None
        outcome = after.outcome()
        results: tuple[tuple[str, str, str], ...] = ()
        seats: list[SeatRow] = []
        if outcome is not None:
            f, results = self._finish_fields(loaded, outcome, now)
            fields |= f
        else:
            turn = self._turn_fields(loaded, before, after, movers, now, [])
            seats = turn.pop("_seats")
            fields |= turn
        change = Change(
            loaded.row.id,
            loaded.row.version,
            append=tuple(rows),
            truncate_from=truncate_from,
            fields=fields,
            seats=tuple(seats),
            results=results,
        )
        drawing = (
            asyncio.ensure_future(self._draw(loaded.row.id, after, None, last_move))
            if picture
            else None
        )
        try:
            new = await self._commit(loaded, change, after, last_move)
        except BaseException:
            if drawing is not None:
                drawing.cancel()
            raise
        image = await drawing if drawing is not None else None
        return new, chance_rows, image

    @staticmethod
    def _resolve_chance(state: State[Any], seed: str, entries: list[Entry]) -> State[Any]:
        while state.current_player() == CHANCE:
            move = chance_pick(state, seed, state.ply)
            entries.append(Entry(CHANCE, state.format_move(move)))
            state = state.apply(move)
        return state

    def _chance_lines(self, state_before: State[Any], rows: Sequence[MoveRow]) -> tuple[Line, ...]:
        """One line per chance outcome in ``rows`` (played from ``state_before``), shown as the
        game displays it in each language (``PQ`` is コインクイーン in Japanese)."""
        lines: list[Line] = []
        state = state_before
        for r in rows:
            shown: Any = r.move
            try:
                move = state.parse_move(r.move)
                shown = Text(state.display_move(move, "en"), state.display_move(move, "ja"))
                state = state.apply(move)
            except EngineError:  # not replayable from here: the canonical text will do
                log.warning("chance outcome %r not displayable", r.move)
            lines.append(Line("move.chance", {"move": shown}))
        return tuple(lines)

    @staticmethod
    def _announcement_lines(state: State[Any]) -> tuple[Line, ...]:
        """What the game itself announces about the action just played (王手, a turn jump), in
        both languages; nothing while moves are secret."""
        if state.hides_moves():
            return ()
        en, ja = state.announcement("en"), state.announcement("ja")
        if not en and not ja:
            return ()
        return (Line("move.announcement", {"text": Text(en or ja or "", ja or en or "")}),)

    def _end_lines(self, loaded: Loaded) -> tuple[Line, ...]:
        result = loaded.row.result
        if loaded.row.status in ("finished", "aborted") and result:
            return (Line("game.result", {"result": _result_text(result)}),)
        return ()

    # -- timeouts --------------------------------------------------------------------------
    async def _check_timeout(self, loaded: Loaded) -> Loaded:
        """End the game now if its deadline has passed (the reply goes out via process_due)."""
        row = loaded.row
        if (
            row.status == "active"
            and row.deadline_ms is not None
            and self._now_ms() > row.deadline_ms
        ):
            loaded, reply = await self._timeout(loaded, self._now_ms())
            self._pending.append(reply)
            self.timer_changed.set()
        return loaded

    def _leaver_text(self, loaded: Loaded, key: str, losers: Sequence[int]) -> Text:
        """``key`` ("outcome.resigned" / "outcome.timeout") naming who left and who wins: with
        three players, the leaver is last and the two others share first place."""
        n = loaded.row.players
        winners = [s for s in range(n) if s not in losers]

        def one(lang: str) -> str:
            names = _names([loaded.name(s) for s in losers], lang) or "?"
            if not winners:
                rest = i18n.t("outcome.solo_lost", lang)
            elif len(winners) == 1:
                rest = i18n.t("outcome.wins", lang, name=loaded.name(winners[0]))
            else:
                both = _names([loaded.name(s) for s in winners], lang)
                rest = i18n.t("outcome.share_first", lang, names=both)
            return i18n.t(key, lang, names=names, rest=rest)

        return Text(one("en"), one("ja"))

    def _timeout_outcome(self, loaded: Loaded) -> Outcome:
        n = loaded.row.players
        due = loaded.state.acting_players()
        if not due or (len(due) == n and n > 1):
            abort = Text(i18n.t("outcome.timeout_all", "en"), i18n.t("outcome.timeout_all", "ja"))
            return Outcome(Termination.ABORTED, frozenset(), (1,) * n, abort)
        text = self._leaver_text(loaded, "outcome.timeout", due)
        if len(due) == 1:
            return Outcome.loss(due[0], n, Termination.TIMEOUT, text)
        winners = frozenset(s for s in range(n) if s not in due)
        ranks = tuple(n if s in due else 1 for s in range(n))
        return Outcome(Termination.TIMEOUT, winners, ranks, text)

    async def _timeout(self, loaded: Loaded, now: int) -> tuple[Loaded, Reply]:
        outcome = self._timeout_outcome(loaded)
        losers = loaded.user_ids(loaded.state.acting_players())
        fields, results = self._finish_fields(loaded, outcome, now)
        change = Change(loaded.row.id, loaded.row.version, fields=fields, results=results)
        loaded = await self._commit(loaded, change)
        reply = self._reply(
            loaded,
            "game.timeout",
            params={"result": outcome.text},
            notify=losers,
            image=await self._image(loaded, None),
        )
        return loaded, reply

    def next_timer_at(self) -> datetime | None:
        """When :meth:`process_due` next has something to do (UTC), or None."""
        if self._pending:
            return self.clock.now()
        best: int | None = None
        for row in self._timers.values():
            at = self._next_point(row)
            if at is not None and (best is None or at < best):
                best = at
        return from_ms(best) if best is not None else None

    def _next_point(self, row: GameRow) -> int | None:
        if row.deadline_ms is None:
            return None
        points = [
            row.deadline_ms - off * 1000 for off in row.reminders if off not in row.reminders_sent
        ]
        points.append(row.deadline_ms + 1)  # a timeout is strictly after the deadline
        return min(points)

    async def process_due(self, now: datetime | None = None) -> list[Reply]:
        """Send due reminders and end timed-out games; each reminder is handed out once."""
        now_ms = to_ms(now) if now is not None else self._now_ms()
        out, self._pending = self._pending, []
        for game_id, row in sorted(self._timers.items()):
            at = self._next_point(row)
            if at is None or at > now_ms:
                continue
            async with self._lock(game_id):
                try:
                    loaded = await self._load(game_id)
                except Refusal:
                    self._timers.pop(game_id, None)
                    continue
                row = loaded.row
                if row.status != "active" or row.deadline_ms is None:
                    self._timers.pop(game_id, None)
                    continue
                if now_ms > row.deadline_ms:
                    try:
                        _, reply = await self._timeout(loaded, now_ms)
                    except Refusal:
                        continue
                    out.append(reply)
                    continue
                due = [
                    off
                    for off in row.reminders
                    if off not in row.reminders_sent and row.deadline_ms - off * 1000 <= now_ms
                ]
                if not due:
                    continue
                sent = tuple(sorted({*row.reminders_sent, *due}, reverse=True))
                change = Change(game_id, row.version, fields={"reminders_sent": sent})
                try:
                    loaded = await self._commit(loaded, change)
                except Refusal:
                    continue
                left = from_ms(row.deadline_ms) - from_ms(now_ms)
                out.append(
                    self._reply(
                        loaded,
                        "clock.reminder",
                        params={"left": left, "deadline": from_ms(row.deadline_ms)},
                        actions=("move", "board"),
                    )
                )
        return out

    # -- creating and joining --------------------------------------------------------------
    async def _check_limits(self, users: Sequence[User], guild_id: str | None) -> None:
        gs = await self.guild_settings(guild_id) if guild_id else GuildSettings()
        per_user = gs.max_active_per_user or self.settings.max_active_per_user
        per_guild = gs.max_active_per_guild or self.settings.max_active_per_guild
        for u in {u.id: u for u in users}.values():
            if u.id != HOST_ID and await self.store.count_active(u.id, None) >= per_user:
                raise Refusal("refuse.limit_user", name=u.name, limit=per_user)
        if guild_id is not None and await self.store.count_active(None, guild_id) >= per_guild:
            raise Refusal("refuse.limit_guild", limit=per_guild)

    async def create_game(
        self,
        creator: User,
        game_type: str,
        *,
        guild_id: str | None = None,
        channel_id: str | None = None,
        invite: Sequence[User] = (),
        open_seats: int = 0,
        host_seats: int = 0,
        players: int | None = None,
        options: Mapping[str, str] | None = None,
        clock: str | ClockSpec | None = None,
        creator_plays: bool = True,
        seed: str | None = None,
        _daily_day: str | None = None,
    ) -> Reply:
        """Create a game; it starts at once when every seat is filled."""
        try:
            game = get_game(game_type)
        except EngineError as exc:
            raise Refusal("refuse.unknown_game_type", reason=exc.text) from exc
        humans = ([creator] if creator_plays else []) + list(invite)
        n = players if players is not None else len(humans) + open_seats + host_seats
        if players is None and n not in game.player_counts:
            n = max(n, game.player_counts[0]) if n < game.player_counts[0] else n
        try:
            n = game.check_players(n)
            resolved = game.resolve_options(options)
        except EngineError as exc:
            raise Refusal("refuse.bad_option", reason=exc.text) from exc
        if len(humans) + host_seats > n:
            raise Refusal("refuse.too_many_players", game=_title(game), players=n)
        if clock is None and guild_id is not None:
            clock = (await self.guild_settings(guild_id)).clock
        try:
            spec = clock if isinstance(clock, ClockSpec) else parse_clock(clock)
        except ClockError as exc:
            raise Refusal("refuse.bad_clock", clock=str(clock)) from exc
        await self._check_limits(humans, guild_id)
        for u in {u.id: u for u in [creator, *humans]}.values():
            await self._user(u)
        seats: list[SeatRow] = []
        for u in humans:
            seats.append(SeatRow(len(seats), "human", u.id, u.name))
        for _ in range(host_seats):
            seats.append(SeatRow(len(seats), "host", None, "Banmen"))
        while len(seats) < n:
            seats.append(SeatRow(len(seats), "open"))
        if spec.kind == "bank":
            seats = [replace(s, bank_ms=spec.bank * 1000) for s in seats]
        now = self._now_ms()
        new = NewGame(
            game_type=game.id,
            players=n,
            options=resolved,
            seed=seed if seed is not None else secrets.token_hex(8),
            status="open",
            guild_id=guild_id,
            channel_id=channel_id,
            creator_id=creator.id,
            clock=spec.text(),
            reminders=spec.reminders,
            created_ms=now,
            seats=tuple(seats),
            daily_day=_daily_day,
        )
        full = all(s.kind != "open" for s in seats)
        if full:
            new = self._started(new, game, now)
        try:
            game_id = await self.store.create_game(new)
        except ConflictError as exc:
            raise Refusal("refuse.daily_done") from exc
        async with self._lock(game_id):
            loaded = await self._load(game_id)
            self._track_timer(loaded.row)
            if full:
                return await self._started_reply(loaded)
            return self._reply(
                loaded,
                "game.created",
                params={"open": sum(s.kind == "open" for s in loaded.row.seats)},
            )

    def _started(self, new: NewGame, game: Game[Any], now: int) -> NewGame:
        """``new`` as a running game: chance steps at the start resolved, the clock started."""
        state: State[Any] = game.new_game(new.players, new.options)
        entries: list[Entry] = []
        state = self._resolve_chance(state, new.seed, entries)
        rows = tuple(MoveRow(i, CHANCE, e.move, None, False, now) for i, e in enumerate(entries))
        row_like = GameRow(
            0, new.game_type, new.players, new.options, new.seed, "active", None, None, None,
            None, new.creator_id, new.clock, new.reminders, now, now, None, None, now, None, (),
            None, 0, new.seats,
        )  # fmt: skip
        return replace(
            new,
            status="active",
            started_ms=now,
            turn_started_ms=now,
            deadline_ms=self._deadline(row_like, state, now, new.seats),
            entries=rows,
        )

    async def _started_reply(self, loaded: Loaded) -> Reply:
        start = loaded.game.new_game(loaded.row.players, loaded.row.options)
        lines = self._chance_lines(start, loaded.entries)
        return self._reply(
            loaded,
            "game.started",
            params={"players": self._seat_list(loaded)},
            image=await self._image(loaded, None),
            lines=lines + self._end_lines(loaded),
        )

    def _seat_list(self, loaded: Loaded) -> Text:
        n = loaded.row.players

        def part(seat: SeatRow, lang: str) -> str:
            who = loaded.name(seat.seat) if seat.kind != "open" else "—"
            return f"{loaded.game.seat_name(seat.seat, lang, n)}: {who}"

        return Text(
            ", ".join(part(s, "en") for s in loaded.row.seats),
            "、".join(part(s, "ja") for s in loaded.row.seats),
        )

    async def join(self, game_id: int, user: User) -> Reply:
        async with self._lock(game_id):
            loaded = await self._load(game_id)
            if loaded.row.status != "open":
                raise Refusal("refuse.already_started", id=game_id)
            if loaded.seats_of(user.id):
                raise Refusal("refuse.already_joined", id=game_id)
            free = [s for s in loaded.row.seats if s.kind == "open"]
            if not free:
                raise Refusal("refuse.game_full", id=game_id)
            await self._check_limits([user], loaded.row.guild_id)
            await self._user(user)
            seat = replace(free[0], kind="human", user_id=user.id, name=user.name)
            if len(free) == 1:
                return await self._start(loaded, (seat,))
            change = Change(game_id, loaded.row.version, seats=(seat,))
            loaded = await self._commit(loaded, change)
            return self._reply(
                loaded,
                "game.joined",
                params={"name": user.name, "open": len(free) - 1},
            )

    async def _start(self, loaded: Loaded, seats: tuple[SeatRow, ...]) -> Reply:
        now = self._now_ms()
        entries: list[Entry] = []
        state = self._resolve_chance(loaded.state, loaded.row.seed, entries)
        rows = tuple(
            MoveRow(len(loaded.entries) + i, CHANCE, e.move, None, False, now)
            for i, e in enumerate(entries)
        )
        merged = list(loaded.row.seats)
        for s in seats:
            merged[s.seat] = s
        fields: dict[str, Any] = {"status": "active", "started_ms": now, "turn_started_ms": now}
        fields["deadline_ms"] = self._deadline(loaded.row, state, now, merged)
        change = Change(loaded.row.id, loaded.row.version, append=rows, fields=fields, seats=seats)
        loaded = await self._commit(loaded, change, state)
        return await self._started_reply(loaded)

    async def start(self, game_id: int, user: User) -> Reply:
        """Start a game whose seats are all taken (normally automatic)."""
        async with self._lock(game_id):
            loaded = await self._load(game_id)
            if loaded.row.status != "open":
                raise Refusal("refuse.already_started", id=game_id)
            if any(s.kind == "open" for s in loaded.row.seats):
                raise Refusal(
                    "refuse.not_full",
                    id=game_id,
                    open=sum(s.kind == "open" for s in loaded.row.seats),
                )
            return await self._start(loaded, ())

    async def leave(self, game_id: int, user: User) -> Reply:
        """Leave a game that has not started (a running game is resigned instead)."""
        async with self._lock(game_id):
            loaded = await self._load(game_id)
            if loaded.row.status != "open":
                raise Refusal("refuse.already_started", id=game_id)
            seats = self._seat_of(loaded, user)
            if user.id == loaded.row.creator_id:
                raise Refusal("refuse.creator_leaves", id=game_id)
            change = Change(
                game_id,
                loaded.row.version,
                seats=tuple(
                    SeatRow(s, "open", None, None, loaded.row.seats[s].bank_ms) for s in seats
                ),
            )
            loaded = await self._commit(loaded, change)
            return self._reply(loaded, "game.left", params={"name": user.name})

    async def cancel(self, game_id: int, user: User) -> Reply:
        async with self._lock(game_id):
            loaded = await self._load(game_id)
            if loaded.row.status != "open":
                raise Refusal("refuse.already_started", id=game_id)
            if user.id != loaded.row.creator_id:
                raise Refusal("refuse.not_creator", id=game_id)
            change = Change(
                game_id,
                loaded.row.version,
                fields={"status": "cancelled", "finished_ms": self._now_ms()},
            )
            loaded = await self._commit(loaded, change)
            return self._reply(loaded, "game.cancelled")

    def location(self, game_id: int) -> Location | None:
        """Where the game lives (channel, thread, message), as set by the adapter."""
        return self._locations.get(game_id)

    async def set_game_location(
        self,
        game_id: int,
        channel_id: str | None,
        thread_id: str | None = None,
        message_id: str | None = None,
    ) -> None:
        """Record where the adapter placed the game (its channel, thread and message)."""
        async with self._lock(game_id):
            loaded = await self._load(game_id)
            fields = {"channel_id": channel_id, "thread_id": thread_id, "message_id": message_id}
            await self._commit(loaded, Change(game_id, loaded.row.version, fields=fields))
            self._locations[game_id] = Location(channel_id, thread_id, message_id)

    # -- playing ---------------------------------------------------------------------------
    def _cached_len(self, game_id: int) -> int | None:
        loaded = self._cache.get(game_id)
        return len(loaded.entries) if loaded is not None else None

    async def play(self, game_id: int, user: User, text: str, *, ply: int | None = None) -> Reply:
        """Play ``text`` for ``user``. ``ply`` is the log length the user saw (optional): a
        submission made against an older position is refused as "the position has changed"."""
        if isinstance(text, str) and len(text.strip()) > MAX_INPUT:
            raise Refusal("refuse.too_long", limit=MAX_INPUT, length=len(text.strip()))
        expected = ply if ply is not None else self._cached_len(game_id)
        async with self._lock(game_id):
            loaded = await self._check_timeout(await self._load(game_id))
            self._check_active(loaded)
            self._check_len(loaded, expected)
            seats = self._seat_of(loaded, user)
            state = loaded.state
            current = state.current_player()
            if current == SIMULTANEOUS:
                raise Refusal("refuse.use_setup", id=game_id)
            if current not in seats:
                raise Refusal(
                    "refuse.not_your_turn",
                    id=game_id,
                    to_move=", ".join(loaded.name(s) for s in state.acting_players()),
                )
            move = self._parse(state, text, current)
            after = state.apply(move, current)
            now = self._now_ms()
            row = MoveRow(
                len(loaded.entries), current, state.format_move(move), user.id, False, now
            )
            loaded, chance_rows, image = await self._advance(
                loaded, state, after, [row], [current], move, now, picture=True
            )
            shown = Text(state.display_move(move, "en"), state.display_move(move, "ja"))
            return self._reply(
                loaded,
                "move.played",
                params={
                    "name": loaded.name(current),
                    "move": shown,
                    "ply": loaded.move_number(row.ply),
                },
                image=image,
                lines=self._announcement_lines(after)
                + self._chance_lines(after, chance_rows)
                + self._end_lines(loaded),
            )

    def _parse(self, state: State[Any], text: str, seat: int) -> Any:
        try:
            return state.parse_move(text, seat)
        except EngineError as exc:
            raise Refusal("refuse.bad_move", exc.suggestions, reason=exc.text) from exc

    async def setup(
        self, game_id: int, user: User, text: str, *, ply: int | None = None
    ) -> list[Reply]:
        """A secret move (a hidden setup): nothing of it is shown to others until all are in."""
        if isinstance(text, str) and len(text.strip()) > MAX_INPUT:
            raise Refusal("refuse.too_long", limit=MAX_INPUT, length=len(text.strip()))
        async with self._lock(game_id):
            loaded = await self._check_timeout(await self._load(game_id))
            self._check_active(loaded)
            self._check_len(loaded, ply)
            seats = self._seat_of(loaded, user)
            state = loaded.state
            if state.current_player() != SIMULTANEOUS:
                raise Refusal("refuse.not_setup", id=game_id)
            due = [s for s in seats if s in state.acting_players()]
            # A seat whose setup is in may still change it while the engine allows that.
            changing = [s for s in seats if s not in due and state.legal_moves(s)]
            if not due and not changing:
                raise Refusal("refuse.setup_done", id=game_id)
            seat = due[0] if due else changing[0]
            move = self._parse(state, text, seat)
            after = state.apply(move, seat)
            now = self._now_ms()
            row = MoveRow(len(loaded.entries), seat, state.format_move(move), user.id, True, now)
            loaded, chance_rows, _ = await self._advance(
                loaded, state, after, [row], [seat], move, now
            )
            private = Reply(
                "setup.accepted" if due else "setup.changed",
                {"id": game_id, "game": _title(loaded.game), "move": row.move},
                game_id=game_id,
                public=False,
                audience=user.id,
                image=await self._image(loaded, seat),
                image_viewer=seat,
            )
            if loaded.row.status == "active" and loaded.state.current_player() == SIMULTANEOUS:
                public = self._reply(
                    loaded,
                    "setup.waiting" if due else "setup.changed_public",
                    params={"name": loaded.name(seat)},
                )
            else:
                public = self._reply(
                    loaded,
                    "setup.revealed",
                    image=await self._image(loaded, None),
                    lines=self._chance_lines(after, chance_rows) + self._end_lines(loaded),
                )
            return [private, public]

    async def resign(self, game_id: int, user: User) -> Reply:
        async with self._lock(game_id):
            loaded = await self._check_timeout(await self._load(game_id))
            self._check_active(loaded)
            seats = self._seat_of(loaded, user)
            acting = [s for s in seats if s in loaded.state.acting_players()]
            seat = acting[0] if acting else seats[0]
            name = loaded.name(seat)
            text = self._leaver_text(loaded, "outcome.resigned", [seat])
            outcome = Outcome.loss(seat, loaded.row.players, Termination.RESIGNATION, text)
            return await self._end(loaded, outcome, "game.resigned", name=name)

    async def _end(self, loaded: Loaded, outcome: Outcome, key: str, **params: Any) -> Reply:
        fields, results = self._finish_fields(loaded, outcome, self._now_ms())
        change = Change(loaded.row.id, loaded.row.version, fields=fields, results=results)
        loaded = await self._commit(loaded, change)
        return self._reply(
            loaded,
            key,
            params={**params, "result": outcome.text},
            image=await self._image(loaded, None),
        )

    async def abort(self, game_id: int, moderator: User) -> Reply:
        """Stop a game with no result (the adapter checks the moderator's permission)."""
        async with self._lock(game_id):
            loaded = await self._load(game_id)
            if loaded.row.status not in ACTIVE:
                raise Refusal("refuse.game_over", id=game_id)
            text = Text(
                i18n.t("outcome.aborted", "en", name=moderator.name),
                i18n.t("outcome.aborted", "ja", name=moderator.name),
            )
            outcome = Outcome(Termination.ABORTED, frozenset(), (1,) * loaded.row.players, text)
            return await self._end(loaded, outcome, "game.aborted", name=moderator.name)

    # -- draws and takebacks ---------------------------------------------------------------
    async def offer_draw(self, game_id: int, user: User) -> Reply:
        async with self._lock(game_id):
            loaded = await self._check_timeout(await self._load(game_id))
            self._check_active(loaded)
            seats = self._seat_of(loaded, user)
            if loaded.row.players != 2:
                raise Refusal("refuse.two_player_only", id=game_id)
            offer = loaded.row.offer
            if offer and offer.get("kind") == "draw" and offer.get("seat") not in seats:
                return await self._agree_draw(loaded)
            if offer and offer.get("kind") == "draw":
                raise Refusal("refuse.already_offered", id=game_id)
            new_offer = {"kind": "draw", "seat": seats[0], "ply": len(loaded.entries)}
            change = Change(game_id, loaded.row.version, fields={"offer": new_offer})
            loaded = await self._commit(loaded, change)
            return self._reply(loaded, "draw.offered", params={"name": user.name})

    async def _agree_draw(self, loaded: Loaded) -> Reply:
        text = Text(i18n.t("outcome.agreed", "en"), i18n.t("outcome.agreed", "ja"))
        outcome = Outcome.draw(loaded.row.players, Termination.AGREEMENT, text)
        return await self._end(loaded, outcome, "draw.agreed")

    def _offer_for(self, loaded: Loaded, user: User, kind: str) -> tuple[dict[str, Any], list[int]]:
        self._check_active(loaded)
        seats = self._seat_of(loaded, user)
        offer = loaded.row.offer
        if not offer or offer.get("kind") != kind or offer.get("seat") in seats:
            raise Refusal("refuse.no_offer", id=loaded.row.id)
        return offer, seats

    async def accept_draw(self, game_id: int, user: User) -> Reply:
        async with self._lock(game_id):
            loaded = await self._check_timeout(await self._load(game_id))
            self._offer_for(loaded, user, "draw")
            return await self._agree_draw(loaded)

    async def decline_draw(self, game_id: int, user: User) -> Reply:
        return await self._decline(game_id, user, "draw")

    async def _decline(self, game_id: int, user: User, kind: str) -> Reply:
        async with self._lock(game_id):
            loaded = await self._check_timeout(await self._load(game_id))
            self._offer_for(loaded, user, kind)
            change = Change(game_id, loaded.row.version, fields={"offer": None})
            loaded = await self._commit(loaded, change)
            return self._reply(loaded, f"{kind}.declined", params={"name": user.name})

    def _takeback_point(self, loaded: Loaded, seats: Sequence[int]) -> int:
        """The log index of the last move by ``seats``; refuse if it cannot be taken back."""
        index = next(
            (e.ply for e in reversed(loaded.entries) if e.actor in seats and e.actor != CHANCE),
            None,
        )
        if index is None:
            raise Refusal("refuse.no_takeback", id=loaded.row.id)
        if any(e.secret or e.actor == CHANCE for e in loaded.entries[index:]):
            raise Refusal("refuse.no_takeback", id=loaded.row.id)
        return index

    async def request_takeback(self, game_id: int, user: User) -> Reply:
        """Take back your last move: at once while nobody has replied and within the grace
        time, else as an offer the opponent accepts or declines."""
        async with self._lock(game_id):
            loaded = await self._check_timeout(await self._load(game_id))
            self._check_active(loaded)
            seats = self._seat_of(loaded, user)
            index = self._takeback_point(loaded, seats)
            now = self._now_ms()
            last = loaded.entries[-1]
            quick = index == len(loaded.entries) - 1 and (
                now - last.at_ms <= self.settings.takeback_grace * 1000
                or loaded.row.players == 1
                or all(s.seat in seats for s in loaded.row.seats)
            )
            if quick:
                return await self._take_back(loaded, index, user)
            offer = loaded.row.offer
            if offer and offer.get("kind") == "takeback":
                raise Refusal("refuse.already_offered", id=game_id)
            new_offer = {"kind": "takeback", "seat": seats[0], "ply": len(loaded.entries)}
            change = Change(game_id, loaded.row.version, fields={"offer": new_offer})
            loaded = await self._commit(loaded, change)
            return self._reply(loaded, "takeback.offered", params={"name": user.name})

    async def accept_takeback(self, game_id: int, user: User) -> Reply:
        async with self._lock(game_id):
            loaded = await self._check_timeout(await self._load(game_id))
            offer, _ = self._offer_for(loaded, user, "takeback")
            seat = int(offer["seat"])
            index = self._takeback_point(loaded, [seat])
            return await self._take_back(
                loaded, index, User(loaded.row.seats[seat].user_id or "", loaded.name(seat))
            )

    async def decline_takeback(self, game_id: int, user: User) -> Reply:
        return await self._decline(game_id, user, "takeback")

    async def _take_back(self, loaded: Loaded, index: int, user: User) -> Reply:
        kept = loaded.entries[:index]
        rebuilt = self._replay(loaded.row, kept)
        now = self._now_ms()
        fields: dict[str, Any] = {
            "offer": None,
            "turn_started_ms": now,
            "deadline_ms": self._deadline(loaded.row, rebuilt.state, now, ()),
            "reminders_sent": (),
        }
        change = Change(loaded.row.id, loaded.row.version, truncate_from=index, fields=fields)
        loaded = await self._commit(loaded, change, rebuilt.state, rebuilt.last_move)
        return self._reply(
            loaded,
            "takeback.done",
            params={"name": user.name, "count": len(loaded.entries)},
            image=await self._image(loaded, None),
        )

    # -- looking -------------------------------------------------------------------------------
    def _viewer_seat(self, loaded: Loaded, viewer: User | None) -> int | None:
        if viewer is None:
            return None
        seats = loaded.seats_of(viewer.id)
        if not seats:
            return None
        acting = [s for s in seats if s in loaded.state.acting_players()]
        return acting[0] if acting else seats[0]

    async def board(self, game_id: int, viewer: User | None = None) -> Reply:
        """The current picture for ``viewer`` (their seat's view; spectators see the public one)."""
        async with self._lock(game_id):
            loaded = await self._check_timeout(await self._load(game_id))
        seat = self._viewer_seat(loaded, viewer)
        image = await self._image(loaded, seat)
        params: dict[str, Any] = {"players": self._seat_list(loaded), "ply": loaded.move_number()}
        lines: tuple[Line, ...] = ()
        if image is None:
            lines = (Line("board.text", {"position": loaded.state.observe(seat).position()}),)
        return self._reply(
            loaded,
            f"board.{loaded.row.status}",
            params=params,
            image=image,
            image_viewer=seat,
            public=seat is None or not loaded.state.hides_moves(),
            audience=viewer.id
            if viewer and seat is not None and loaded.state.hides_moves()
            else None,
            notify=(),
            lines=lines + self._end_lines(loaded),
        )

    def _record(self, loaded: Loaded, hidden: set[int]) -> Record:
        entries = tuple(Entry(e.actor, "?" if e.ply in hidden else e.move) for e in loaded.entries)
        return Record(
            loaded.row.game_type, loaded.row.players, loaded.row.options, loaded.row.seed, entries
        )

    def _meta(self, loaded: Loaded) -> RecordMeta:
        row = loaded.row
        return RecordMeta(
            game_id=row.id,
            title_en=loaded.game.title_en,
            title_ja=loaded.game.title_ja,
            players=tuple(loaded.name(s.seat) if s.kind != "open" else "" for s in row.seats),
            seat_names=tuple(
                (
                    loaded.game.seat_name(s.seat, "en", row.players),
                    loaded.game.seat_name(s.seat, "ja", row.players),
                )
                for s in row.seats
            ),
            created=from_ms(row.created_ms),
            started=from_ms(row.started_ms) if row.started_ms else None,
            finished=from_ms(row.finished_ms) if row.finished_ms else None,
            status=row.status,
            result=row.result,
            clock=row.clock,
        )

    async def moves(self, game_id: int, viewer: User | None = None) -> Reply:
        """The numbered move list (secret moves of others shown as hidden)."""
        async with self._lock(game_id):
            loaded = await self._load(game_id)
        seats = loaded.seats_of(viewer.id) if viewer else []
        hidden = loaded.hidden_from(seats)
        text = kif_text(self._meta(loaded), self._record(loaded, hidden), "en", header=False)
        text_ja = kif_text(self._meta(loaded), self._record(loaded, hidden), "ja", header=False)
        return self._reply(
            loaded,
            "moves.list" if loaded.entries else "moves.none",
            params={"moves": Text(text, text_ja), "count": loaded.move_number()},
            notify=(),
            public=not hidden or not seats,
            audience=viewer.id if viewer and hidden and seats else None,
        )

    async def record(self, game_id: int, viewer: User | None = None) -> Reply:
        """The game record as a KIF-like text file and as JSON (secret moves masked)."""
        async with self._lock(game_id):
            loaded = await self._load(game_id)
        seats = loaded.seats_of(viewer.id) if viewer else []
        hidden = loaded.hidden_from(seats)
        meta = self._meta(loaded)
        rec = self._record(loaded, hidden)
        files = [File(f"banmen-{game_id}.kif", kif_text(meta, rec, "ja").encode("utf-8"))]
        if not hidden:
            files.append(File(f"banmen-{game_id}.json", export_json(meta, rec).encode("utf-8")))
        return self._reply(loaded, "record.ready", notify=(), files=tuple(files), public=not hidden)

    async def import_record(
        self,
        user: User,
        json_text: str,
        *,
        guild_id: str | None = None,
        seats: Sequence[User] = (),
    ) -> Reply:
        """Re-create a game from its JSON record (a finished game stays finished)."""
        try:
            meta, rec = import_json(json_text)
            state = rec.replay()
        except EngineError as exc:
            raise Refusal("refuse.bad_record", reason=exc.text) from exc
        except (ValueError, KeyError, TypeError) as exc:
            raise Refusal("refuse.bad_record", reason=Text(str(exc), str(exc))) from exc
        game = get_game(rec.game)
        users = list(seats) or [user] * rec.players
        if len(users) != rec.players:
            raise Refusal(
                "refuse.bad_record", reason=Text("wrong number of players", "人数が違います")
            )
        await self._user(user)
        for u in users:
            await self._user(u)
        now = self._now_ms()
        result = meta.get("result")
        outcome = state.outcome()
        if outcome is not None:
            result = _outcome_json(outcome)
        status = "finished" if result else "active"
        if result and result.get("termination") == "aborted":
            status = "aborted"
        rows = tuple(
            MoveRow(
                i, e.actor, e.move, None if e.actor == CHANCE else users[e.actor].id, False, now
            )
            for i, e in enumerate(rec.entries)
        )
        new = NewGame(
            game_type=game.id,
            players=rec.players,
            options=dict(rec.options),
            seed=rec.seed,
            status=status,
            guild_id=guild_id,
            channel_id=None,
            creator_id=user.id,
            clock="none",
            reminders=(),
            created_ms=now,
            seats=tuple(SeatRow(i, "human", u.id, u.name) for i, u in enumerate(users)),
            started_ms=now,
            finished_ms=now if result else None,
            result=result,
            turn_started_ms=None if result else now,
            entries=rows,
        )
        game_id = await self.store.create_game(new)
        async with self._lock(game_id):
            loaded = await self._load(game_id)
        return self._reply(
            loaded,
            "record.imported",
            params={"count": len(rows)},
            image=await self._image(loaded, None),
            lines=self._end_lines(loaded),
        )

    async def list_games(self, user: User, guild_id: str | None = None) -> Reply:
        """The user's open and running games, those where it is their move first."""
        summaries = await self.store.user_games(user.id, ACTIVE)
        mine: list[tuple[int, int, str]] = []
        for s in summaries:
            if guild_id is not None and s.guild_id != guild_id:
                continue
            loaded = await self._load(s.id)
            seats = loaded.seats_of(user.id)
            turn = any(seat in loaded.acting_seats() for seat in seats)
            mine.append((0 if turn else 1, s.id, s.game_type))
        mine.sort()
        lines = []
        for order, gid, _gt in mine:
            loaded = await self._load(gid)
            deadline = from_ms(loaded.row.deadline_ms) if loaded.row.deadline_ms else None
            lines.append(
                Line(
                    "games.item_turn" if order == 0 else f"games.item_{loaded.row.status}",
                    {
                        "id": gid,
                        "game": _title(loaded.game),
                        "players": self._seat_list(loaded),
                        "deadline": deadline or "",
                    },
                )
            )
        key = "games.list" if lines else "games.none"
        return Reply(key, {"count": len(lines)}, public=False, audience=user.id, lines=tuple(lines))

    # -- autocomplete (synchronous, cached, no writes) -----------------------------------------
    def legal_move_choices(
        self, game_id: int, user_id: str, typed: str, limit: int = 25
    ) -> list[str]:
        """Canonical legal moves of ``user_id`` matching ``typed`` (prefix, then substring)."""
        loaded = self._cache.get(game_id)
        if loaded is None or loaded.row.status != "active":
            return []
        acting = loaded.state.acting_players()
        seats = [s for s in loaded.seats_of(user_id) if s in acting]
        if not seats:
            return []
        seat = seats[0]
        names = loaded.choices.get(seat)
        if names is None:
            state = loaded.state
            names = [
                (_fold(state.format_move(m)), state.format_move(m)) for m in state.legal_moves(seat)
            ]
            loaded.choices[seat] = names
        key = _fold(typed[:MAX_INPUT])
        if not key:
            return [n for _, n in names[:limit]]
        prefix = [n for k, n in names if k.startswith(key)]
        if len(prefix) >= limit:
            return prefix[:limit]
        inner = [n for k, n in names if key in k and not k.startswith(key)]
        return (prefix + inner)[:limit]

    def game_choices(self, user_id: str, typed: str = "", limit: int = 25) -> list[tuple[int, str]]:
        """The user's open and running games (id, label), newest first, for autocomplete."""
        out: list[tuple[int, str]] = []
        key = _fold(typed)
        for gid in sorted(self._active, reverse=True):
            game_type, users = self._active[gid]
            if user_id not in users:
                continue
            try:
                game = get_game(game_type)
                label = f"#{gid} {game.title_en} / {game.title_ja}"
            except EngineError:
                label = f"#{gid} {game_type}"
            if not key or key in _fold(label):
                out.append((gid, label))
            if len(out) >= limit:
                break
        return out

    @staticmethod
    def game_type_choices(typed: str = "", limit: int = 25) -> list[tuple[str, str]]:
        key = _fold(typed)
        out = []
        for g in all_games():
            label = f"{g.title_en} / {g.title_ja}"
            if not key or key in _fold(g.id + " " + label):
                out.append((g.id, label))
        return out[:limit]

    def current_state(self, game_id: int, viewer_seat: int | None = None) -> State[Any] | None:
        """The cached state as ``viewer_seat`` may see it (None if the game is not cached)."""
        loaded = self._cache.get(game_id)
        return None if loaded is None else loaded.state.observe(viewer_seat)

    def log_length(self, game_id: int) -> int | None:
        """Entries in the game's log (for ``ply=`` guards in buttons), if cached."""
        return self._cached_len(game_id)

    # -- statistics, server settings, daily deal -----------------------------------------------
    async def stats(self, user: User, game_type: str | None = None) -> Reply:
        rows = await self.store.stats(user.id, game_type)
        lines = []
        for s in rows:
            try:
                title: Any = _title(get_game(s.game_type))
            except EngineError:
                title = s.game_type
            lines.append(
                Line(
                    "stats.item",
                    {
                        "game": title,
                        "games": s.games,
                        "wins": s.wins,
                        "losses": s.losses,
                        "draws": s.draws,
                        "rate": f"{100 * s.win_rate:.0f}%",
                        "streak": s.streak,
                        "best": s.best_streak,
                    },
                )
            )
        return Reply(
            "stats.show" if lines else "stats.none",
            {"name": user.name},
            public=True,
            lines=tuple(lines),
        )

    async def guild_settings(self, guild_id: str | None) -> GuildSettings:
        if guild_id is None:
            return GuildSettings()
        cached = self._guild_settings.get(guild_id)
        if cached is not None:
            return cached
        raw = await self.store.guild_settings(guild_id)

        def num(key: str) -> int | None:
            v = raw.get(key)
            return int(v) if v and v.isdigit() else None

        settings = GuildSettings(
            lang=raw.get("lang", "en"),
            threads=raw.get("threads", "on") == "on",
            clock=raw.get("clock", "none"),
            max_active_per_user=num("max_active_per_user"),
            max_active_per_guild=num("max_active_per_guild"),
        )
        self._guild_settings[guild_id] = settings
        return settings

    async def set_guild_setting(self, guild_id: str, key: str, value: str) -> Reply:
        if key not in GUILD_KEYS:
            raise Refusal("refuse.bad_setting", key=key, keys=", ".join(GUILD_KEYS))
        value = value.strip().lower()
        allowed = GUILD_KEYS[key]
        ok = value in allowed if allowed is not None else True
        if key == "clock":
            try:
                value = parse_clock(value).text()
            except ClockError:
                ok = False
        elif key.startswith("max_"):
            ok = bool(value.isdigit() and int(value) > 0)
        if not ok:
            raise Refusal("refuse.bad_setting_value", key=key, value=value)
        await self.store.set_guild_setting(guild_id, key, value)
        self._guild_settings.pop(guild_id, None)
        return Reply("settings.saved", {"key": key, "value": value})

    @property
    def daily_game(self) -> str:
        """The game type of the daily deal (adapters offer ``daily`` for it alone)."""
        return DAILY_GAME

    def _today(self) -> str:
        return self.clock.now().date().isoformat()

    async def daily(self, user: User, guild_id: str | None = None) -> Reply:
        """Today's deal of the solitaire (the same for everyone; one game per user per UTC day)."""
        day = self._today()
        existing = await self.store.daily_game(DAILY_GAME, day, user.id)
        if existing is not None:
            loaded = await self._load(existing)
            if loaded.row.status != "active":
                raise Refusal("refuse.daily_done", id=existing, day=day)
            return await self.board(existing, user)
        return await self.create_game(
            user, DAILY_GAME, guild_id=guild_id, seed=f"daily:{day}", _daily_day=day
        )

    async def daily_board(self, guild_id: str | None, day: date | str | None = None) -> Reply:
        day_text = day.isoformat() if isinstance(day, date) else (day or self._today())
        lines = []
        for gid in await self.store.daily_games(DAILY_GAME, day_text, guild_id):
            loaded = await self._load(gid)
            result = loaded.row.result
            lines.append(
                Line(
                    "daily.item",
                    {
                        "name": loaded.name(0),
                        "id": gid,
                        "result": _result_text(result) if result else Text("playing", "対局中"),
                        "ply": len(loaded.entries),
                    },
                )
            )
        return Reply(
            "daily.board" if lines else "daily.empty", {"day": day_text}, lines=tuple(lines)
        )

    # -- read-only views for adapters and tests ------------------------------------------------
    async def game_info(self, game_id: int) -> GameRow:
        """The stored game row (seats included)."""
        async with self._lock(game_id):
            return (await self._load(game_id)).row

    async def entries(self, game_id: int) -> list[MoveRow]:
        async with self._lock(game_id):
            return list((await self._load(game_id)).entries)

    async def export_record(self, game_id: int) -> Record:
        """The full record (no masking: for the host's own use and tests)."""
        async with self._lock(game_id):
            loaded = await self._load(game_id)
        return self._record(loaded, set())

    def outcome_of(self, row: GameRow) -> Outcome | None:
        return _outcome_from_json(row.result) if row.result else None
