"""The host's data model: the rows the store keeps and the words they use.

Shared by the store (which writes them) and the service (which computes them); standard library
only, so a second store (PostgreSQL) implements the same :class:`bot.store.Store` over the same
values. The enums are ``StrEnum``s whose values are the ones in the database.
"""

from __future__ import annotations

import enum
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from datetime import UTC, datetime
from typing import Any, Literal, TypeAlias, TypeVar


class GameStatus(enum.StrEnum):
    OPEN = "open"
    """Waiting for players (a lobby or a challenge)."""
    ACTIVE = "active"
    FINISHED = "finished"
    CANCELLED = "cancelled"
    """Withdrawn, declined or expired before it started."""
    ABORTED = "aborted"
    """Stopped without a result (a moderator, or nobody acted in time)."""

    @property
    def is_live(self) -> bool:
        """Open or running: the game still counts toward the limits and the indexes."""
        return self in (GameStatus.OPEN, GameStatus.ACTIVE)

    @property
    def is_over(self) -> bool:
        return self in (GameStatus.FINISHED, GameStatus.ABORTED)


LIVE_STATUSES = (GameStatus.OPEN, GameStatus.ACTIVE)


class SeatKind(enum.StrEnum):
    HUMAN = "human"
    OPEN = "open"
    """Free; with ``invited_id`` set, kept for that user (a challenge)."""
    HOST = "host"
    """Played by the host itself: by its computer player when the seat has an ``ai_level``,
    else by the host's own code acting as ``HOST_ID`` (tests, scripts)."""


class Result(enum.StrEnum):
    """One seat's result, as personal statistics count it."""

    WIN = "win"
    LOSS = "loss"
    DRAW = "draw"


class OfferKind(enum.StrEnum):
    DRAW = "draw"
    TAKEBACK = "takeback"


@dataclass(frozen=True, slots=True)
class Offer:
    """A pending draw or takeback offer: who made it, at which log length."""

    kind: OfferKind
    seat: int
    ply: int

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind.value, "seat": self.seat, "ply": self.ply}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Offer:
        return cls(OfferKind(data["kind"]), int(data["seat"]), int(data["ply"]))


@dataclass(frozen=True, slots=True)
class OfferMade:
    """A draw offer or takeback a seat made, at which move number (plies of play)."""

    kind: OfferKind
    seat: int
    move: int


@dataclass(frozen=True, slots=True)
class StoredOutcome:
    """How a game ended, as a game row keeps it (the ``result`` column, JSON) and a record file
    writes it: why it ended (an ``engines.core.Termination`` value), the winning seats, each
    seat's place (1 = first) and the end in words, in English and Japanese."""

    termination: str
    winners: tuple[int, ...]
    ranks: tuple[int, ...]
    en: str
    ja: str

    def to_json(self) -> dict[str, object]:
        return {
            "termination": self.termination,
            "winners": sorted(self.winners),
            "ranks": list(self.ranks),
            "en": self.en,
            "ja": self.ja,
        }

    @classmethod
    def from_json(cls, data: object) -> StoredOutcome:
        """The one parser of a stored or written result; :class:`ValueError` says which part
        is missing or wrong (a stored row, an imported record's ``result``)."""
        if not isinstance(data, Mapping):
            raise ValueError("the result is not an object")
        termination = data.get("termination")
        if not isinstance(termination, str) or not termination:
            raise ValueError("'termination' is missing or wrong")
        places = {"winners": data.get("winners"), "ranks": data.get("ranks")}
        for name, value in places.items():
            if not isinstance(value, list) or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in value
            ):
                raise ValueError(f"{name!r} is missing or wrong")
        en, ja = data.get("en", ""), data.get("ja", "")
        if not isinstance(en, str) or not isinstance(ja, str):
            raise ValueError("'en' or 'ja' is not a text")
        return cls(termination, tuple(data["winners"]), tuple(data["ranks"]), en, ja)

    def fits(self, players: int) -> bool:
        """A place for each of ``players`` seats, and every winner one of them."""
        return len(self.ranks) == players and all(0 <= w < players for w in self.winners)


@dataclass(frozen=True, slots=True)
class SeatRow:
    seat: int
    kind: SeatKind
    user_id: str | None = None
    name: str | None = None
    bank_ms: int | None = None
    invited_id: str | None = None
    """For an open seat of a challenge: the only user who may take it."""
    ai_level: int | None = None
    """For a host seat: the strength (1-8) of the computer player that plays it."""

    @property
    def is_ai(self) -> bool:
        """Played by the host's computer player (which moves by itself when it is due)."""
        return self.kind is SeatKind.HOST and self.ai_level is not None


@dataclass(frozen=True, slots=True)
class MoveRow:
    """One log entry: ``ply`` is its index in the log (chance outcomes included)."""

    ply: int
    actor: int
    move: str
    user_id: str | None
    secret: bool
    at_ms: int


@dataclass(frozen=True, slots=True)
class Conditional:
    """A waiting player's conditional moves (条件付きの手): ``lines`` are move sequences in
    canonical notation, the opponent's move first and the seat's reply second (then the
    opponent's next, the reply to it, ...); ``due`` is the reply to play now, once the
    opponent's move matched a line (the lines are then what follows it)."""

    seat: int
    lines: tuple[tuple[str, ...], ...]
    due: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "lines": [list(line) for line in self.lines], "due": self.due}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Conditional:
        lines = tuple(tuple(str(m) for m in line) for line in data["lines"])
        due = data.get("due")
        return cls(int(data["seat"]), lines, None if due is None else str(due))


@dataclass(frozen=True, slots=True)
class GameRow:
    id: int
    game_type: str
    players: int
    options: dict[str, str]
    seed: str
    status: GameStatus
    guild_id: str | None
    channel_id: str | None
    thread_id: str | None
    message_id: str | None
    creator_id: str
    clock: str
    reminders: tuple[int, ...]
    created_ms: int
    started_ms: int | None
    finished_ms: int | None
    result: StoredOutcome | None
    turn_started_ms: int | None
    deadline_ms: int | None
    reminders_sent: tuple[int, ...]
    offer: Offer | None
    version: int
    seats: tuple[SeatRow, ...] = ()
    expires_ms: int | None = None
    """When an open challenge lapses (``None``: a lobby, or no expiry)."""
    offers_made: tuple[OfferMade, ...] = ()
    """Every draw offer and takeback made in the game (the limits on repeating them)."""
    imported_ms: int | None = None
    """When the game was made from a record file (``None``: played here). An imported game is
    unrated and counts in no statistics, also if it is played on to its end."""

    rated: bool = False
    """Created rated (see docs/ratings.md for what else a rated game needs)."""
    daily_day: str | None = None
    """The UTC day of the daily deal this game is (``None``: no daily game)."""
    reseed: str | None = None
    """The secret seed an imported unfinished game goes on with: it picks every chance step
    from engine ply ``reseed_from`` on (``seed``, the file's, picked the ones before)."""
    reseed_from: int = 0
    paused_ms: int | None = None
    """Since when the game's clock stands still (a player to move is on vacation; ``None``: it
    runs). ``deadline_ms`` and ``turn_started_ms`` are as they were then."""
    paused_until_ms: int | None = None
    """When the absent player said they would be back (``None``: until they say so)."""
    conditional: Conditional | None = None
    """A waiting player's conditional moves (never shown to anyone else)."""
    reach: str | None = None
    """How the bot reaches the game's place (issue 48): ``None`` it posts there;
    ``"interaction"`` only through the interactions people make there (a DM or group DM
    between people, a server that did not add the bot)."""

    def seed_at(self, ply: int) -> str:
        """The seed that picks the chance step at engine ply ``ply``."""
        return self.reseed if self.reseed is not None and ply >= self.reseed_from else self.seed

    @property
    def is_imported(self) -> bool:
        return self.imported_ms is not None

    @property
    def is_challenge(self) -> bool:
        return any(s.invited_id for s in self.seats if s.kind is SeatKind.OPEN)

    @property
    def ai_levels(self) -> tuple[int, ...]:
        """The levels of the computer players seated (empty: no AI in this game)."""
        return ai_levels(self.seats)


@dataclass(frozen=True, slots=True)
class ShardSlice:
    """The Discord shards one process runs: ``ids`` of ``count`` (a guild belongs to shard
    ``(guild_id >> 22) % count``). Stores filter what such a process delivers by it."""

    ids: tuple[int, ...]
    count: int


@dataclass(frozen=True, slots=True)
class Limits:
    """How many open or running games users and a server may have, checked by the store in the
    same transaction that would add a seat or a game (so concurrent requests cannot overshoot)."""

    per_user: int
    users: tuple[str, ...]
    """Users who take a seat with this change."""
    per_guild: int = 0
    guild_id: str | None = None
    """The server a new game is created in (None: no server limit to check)."""


def new_seed() -> str:
    """A fresh secret seed (what a game's chance outcomes are picked from: nobody can know
    them before they happen)."""
    return secrets.token_hex(16)


@dataclass(frozen=True, slots=True)
class NewGame:
    """What :meth:`Store.create_game` needs; ``entries`` are written with it (chance at start).

    Made with a fresh secret seed (:func:`new_seed`) and as an open lobby unless told
    otherwise."""

    game_type: str
    players: int
    options: dict[str, str]
    creator_id: str
    seats: tuple[SeatRow, ...]
    seed: str = field(default_factory=new_seed)
    status: GameStatus = GameStatus.OPEN
    guild_id: str | None = None
    channel_id: str | None = None
    clock: str = "none"
    reminders: tuple[int, ...] = ()
    created_ms: int = 0
    started_ms: int | None = None
    finished_ms: int | None = None
    result: StoredOutcome | None = None
    turn_started_ms: int | None = None
    deadline_ms: int | None = None
    entries: tuple[MoveRow, ...] = ()
    daily_day: str | None = None
    expires_ms: int | None = None
    limits: Limits | None = None
    imported_ms: int | None = None
    rated: bool = False
    reseed: str | None = None
    reseed_from: int = 0
    tournament: TournamentSlot | None = None
    """The tournament board this game is (written with the game: never made twice)."""
    explored: tuple[ExplorerCount, ...] = ()
    """A finished game's (an import's) moves added to the opening explorer's counts."""
    paused_ms: int | None = None
    """Made with its clock stopped (its first player to move is on vacation)."""
    paused_until_ms: int | None = None


@dataclass(frozen=True, slots=True)
class UserResult:
    """A finished game's result for one human player (personal statistics)."""

    user_id: str
    game_type: str
    result: Result


@dataclass(frozen=True, slots=True)
class Announcement:
    """Something a change must announce, kept in the outbox until it is delivered.

    Its key is the game, the version the change produced and ``n`` (its place among that
    change's announcements); ``body`` is the presentation-neutral reply as JSON text."""

    n: int
    ply: int
    event: str
    body: str
    at_ms: int


@dataclass(frozen=True, slots=True)
class OutboxRow:
    """A pending announcement as the store hands it back."""

    game_id: int
    version: int
    n: int
    ply: int
    event: str
    body: str
    created_ms: int
    attempts: int
    next_ms: int

    @property
    def key(self) -> str:
        return outbox_key(self.game_id, self.version, self.n)


def outbox_key(game_id: int, version: int, n: int) -> str:
    """``"12.34.0"``: an announcement's key (also shown in its message, to find it again)."""
    return f"{game_id}.{version}.{n}"


def parse_outbox_key(key: str) -> tuple[int, int, int] | None:
    parts = key.split(".")
    if len(parts) != 3 or not all(p.isdigit() and len(p) <= 19 for p in parts):
        return None
    game_id, version, n = (int(p) for p in parts)
    return game_id, version, n


@dataclass(frozen=True, slots=True)
class RatingRow:
    """One player's rating in one game (``ordinal`` is mu - 3 sigma, what boards sort by)."""

    user_id: str
    game_type: str
    mu: float
    sigma: float
    ordinal: float
    games: int
    wins: int = 0
    losses: int = 0
    draws: int = 0
    name: str | None = None
    """The player's latest display name (filled in by reads)."""


@dataclass(frozen=True, slots=True)
class RatingChange:
    """One player's rating change in one rated game (a ``rating_history`` row).

    The ``*_before`` values are also the guard: the store writes the change only if the player's
    rating is still exactly that (else :class:`bot.store.RatingConflict`, nothing written).
    """

    game_id: int
    user_id: str
    game_type: str
    guild_id: str | None
    place: int
    result: Result
    games_before: int
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float
    at_ms: int
    seq: int = 0
    """End order of the game among rated games (given by the store when it is written)."""
    name: str | None = None


@dataclass(frozen=True, slots=True)
class RatedGame:
    """What a rated game changes: each player's history row and new rating."""

    changes: tuple[RatingChange, ...]
    after: tuple[RatingRow, ...]


@dataclass(frozen=True, slots=True)
class EndedGame:
    """A finished game as the ratings read it (the rebuild replays these in end order)."""

    id: int
    game_type: str
    guild_id: str | None
    finished_ms: int
    rated: bool
    result: StoredOutcome | None
    seats: tuple[SeatRow, ...]


class Unchanged(enum.Enum):
    """What an :class:`Update` field holds when it leaves its column as it is."""

    UNCHANGED = "unchanged"


UNCHANGED = Unchanged.UNCHANGED
T = TypeVar("T")
Settable: TypeAlias = T | Literal[Unchanged.UNCHANGED]
"""A column's new value, or :data:`UNCHANGED` (``None`` is a value: it clears the column)."""


@dataclass(frozen=True, slots=True)
class Update:
    """The columns of a game row one :class:`Change` sets, each typed as :class:`GameRow` has
    it (the same names); the others keep their values. ``a | b`` is ``a`` and then ``b``."""

    status: Settable[GameStatus] = UNCHANGED
    channel_id: Settable[str | None] = UNCHANGED
    thread_id: Settable[str | None] = UNCHANGED
    message_id: Settable[str | None] = UNCHANGED
    started_ms: Settable[int | None] = UNCHANGED
    finished_ms: Settable[int | None] = UNCHANGED
    result: Settable[StoredOutcome | None] = UNCHANGED
    turn_started_ms: Settable[int | None] = UNCHANGED
    deadline_ms: Settable[int | None] = UNCHANGED
    reminders_sent: Settable[tuple[int, ...]] = UNCHANGED
    offer: Settable[Offer | None] = UNCHANGED
    expires_ms: Settable[int | None] = UNCHANGED
    offers_made: Settable[tuple[OfferMade, ...]] = UNCHANGED
    paused_ms: Settable[int | None] = UNCHANGED
    paused_until_ms: Settable[int | None] = UNCHANGED
    conditional: Settable[Conditional | None] = UNCHANGED
    reach: Settable[str | None] = UNCHANGED

    def given(self) -> dict[str, object]:
        """The fields this update sets, by name."""
        return {
            name: value
            for name in _UPDATE_FIELDS
            if (value := getattr(self, name)) is not UNCHANGED
        }

    def __or__(self, other: Update) -> Update:
        more = other.given()
        if not more:  # every move's amenders mostly add nothing: no copy to make
            return self
        return replace(self, **more)  # type: ignore[arg-type]


_UPDATE_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(Update))
"""Its column names, read once (``dataclasses.fields`` costs a call per move otherwise)."""


@dataclass(frozen=True, slots=True)
class ExplorerCount:
    """Counts of the opening explorer (issue 50): the games that played ``move`` from the
    position ``position`` (a key of :mod:`engines.explore`), in one pool: ``scope`` is ``""``
    for every server or a guild id, ``rated`` true for rated games only; ``wins`` per seat."""

    game_type: str
    position: int
    move: str
    scope: str
    rated: bool
    games: int
    draws: int
    wins: tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class Change:
    """One atomic change of a game, computed from ``expected_version``.

    ``append`` entries must continue the log exactly (their ``ply`` is the log index);
    ``truncate_from`` (a takeback) deletes the log from that index first. ``update`` sets
    columns of the game row; ``seats`` replaces seat rows; ``results`` updates personal
    statistics; ``rating`` writes the players' rating changes (a rated end). ``announce`` goes
    to the outbox in the same transaction.
    """

    game_id: int
    expected_version: int
    append: tuple[MoveRow, ...] = ()
    truncate_from: int | None = None
    update: Update = field(default_factory=Update)
    seats: tuple[SeatRow, ...] = ()
    results: tuple[UserResult, ...] = ()
    limits: Limits | None = None
    announce: tuple[Announcement, ...] = ()
    rating: RatedGame | None = None
    explored: tuple[ExplorerCount, ...] = ()
    """The game's moves added to the opening explorer's counts (when this change ends it)."""


@dataclass(frozen=True, slots=True)
class Stats:
    game_type: str
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    streak: int = 0
    best_streak: int = 0

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


@dataclass(frozen=True, slots=True)
class VacationRow:
    """A user's vacation (``since_ms`` set while it runs) and the allowance spent in ``year``
    (UTC): ``used_ms`` settled so far, and ``holding_ms``, since when it has been holding a
    clock (not yet settled; ``None``: it holds none)."""

    user_id: str
    since_ms: int | None
    until_ms: int | None
    year: int
    used_ms: int = 0
    holding_ms: int | None = None


@dataclass(frozen=True, slots=True)
class NotifyPrefs:
    """How a user is told (``/notify``): a ping on their turn, a daily digest by direct message
    at ``digest_hour`` in their time zone ``tz``, quiet hours (local, ``quiet_from`` to
    ``quiet_to``) when turn messages come silently; ``dm_closed``: their direct messages
    refused the last digest (no more are tried until they change a preference)."""

    user_id: str
    ping: bool = True
    digest: bool = False
    digest_hour: int = 8
    tz: str = "UTC"
    quiet_from: int | None = None
    quiet_to: int | None = None
    last_digest_ms: int | None = None
    dm_closed: bool = False


@dataclass(frozen=True, slots=True)
class GameSummary:
    """A line of a user's game list."""

    id: int
    game_type: str
    status: GameStatus
    guild_id: str | None
    seats: tuple[SeatRow, ...]
    created_ms: int
    deadline_ms: int | None


def ai_levels(seats: Sequence[SeatRow]) -> tuple[int, ...]:
    """The levels of the computer players among ``seats`` (an AI game when not empty; such a
    game is marked as one wherever it is listed, and is never rated)."""
    return tuple(s.ai_level for s in seats if s.is_ai and s.ai_level is not None)


def updated(row: GameRow, update: Update, seats: Sequence[SeatRow] = ()) -> GameRow:
    """``row`` after a :class:`Change` with this update and these seats (the version bumped)."""
    new_seats = list(row.seats)
    for s in seats:
        new_seats[s.seat] = s
    # the names and types are GameRow's own (tests/service/test_store.py checks it)
    columns = update.given()
    return replace(row, **columns, seats=tuple(new_seats), version=row.version + 1)  # type: ignore[arg-type]


def row_of_new(new: NewGame, game_id: int) -> GameRow:
    """The row :meth:`Store.create_game` writes for ``new`` as game ``game_id`` (version 0),
    with the seats' names as given (what a created game announces is made before it is read
    back)."""
    given = {f.name for f in fields(NewGame)}
    shared = {f.name: getattr(new, f.name) for f in fields(GameRow) if f.name in given}
    return GameRow(
        id=game_id,
        thread_id=None,
        message_id=None,
        reminders_sent=(),
        offer=None,
        version=0,
        **shared,
    )


# -- lessons (issue 31) ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PracticeRow:
    """The one practice board a user has open: which (a lesson by id) and what was played."""

    user_id: str
    kind: str
    """``lesson``."""
    item: str
    moves: tuple[str, ...]
    """Every move since the start (the learner's accepted ones and the answers), in notation."""
    learner: int
    """How many of ``moves`` were the learner's."""
    tries: int
    """The learner's moves tried so far, wrong ones included (they count against the stars)."""
    hints: int
    at_ms: int


# --- puzzles (issue 31) -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class OpenPuzzle:
    """The puzzle a user has open: the line played so far (notation) and, when it was opened
    as a server's daily puzzle, that day (UTC, ``YYYY-MM-DD``)."""

    user_id: str
    puzzle_id: str
    moves: tuple[str, ...]
    daily_day: str | None
    opened_ms: int


@dataclass(frozen=True, slots=True)
class PuzzleStreak:
    """Consecutive UTC days on which a user solved the daily puzzle, up to ``last_day``."""

    last_day: str
    streak: int
    best: int


@dataclass(frozen=True, slots=True)
class PuzzlePost:
    """A server's daily puzzle post of one day, in its channel (delivered or not yet)."""

    guild_id: str
    day: str
    channel_id: str
    puzzle_id: str
    delivered_ms: int | None


@dataclass(frozen=True, slots=True)
class ReviewRow:
    """A stored computer review of a finished game (issue 32): its JSON ``data`` (read by
    ``bot/service/review/reviews.py``), whether it is shown in the game's thread, and when it was
    made."""

    game_id: int
    data: str
    public: bool
    created_ms: int


# -- tournaments (issue 34, docs/tournaments.md) -------------------------------------------------
class TournamentStatus(enum.StrEnum):
    SIGNUP = "signup"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


@dataclass(frozen=True, slots=True)
class TournamentSlot:
    """Board ``board`` of round ``round`` of a tournament: where a tournament game belongs."""

    tournament_id: int
    round: int
    board: int


@dataclass(frozen=True, slots=True)
class NewTournament:
    """What :meth:`Store.create_tournament` needs."""

    creator_id: str
    name: str
    game_type: str
    options: dict[str, str]
    format: str
    clock: str
    rated: bool
    rounds: int
    max_players: int
    created_ms: int
    guild_id: str | None = None
    channel_id: str | None = None
    signup_until_ms: int | None = None
    seed: str = field(default_factory=new_seed)


@dataclass(frozen=True, slots=True)
class TournamentRow:
    """A stored tournament: what it was made with, where it stands."""

    id: int
    new: NewTournament
    status: TournamentStatus
    round: int
    message_id: str | None = None
    started_ms: int | None = None
    finished_ms: int | None = None


@dataclass(frozen=True, slots=True)
class EntrantRow:
    user_id: str
    name: str
    joined_ms: int
    withdrawn_round: int | None = None


@dataclass(frozen=True, slots=True)
class BoardResult:
    """How a board ended: each seat's points and placement; ``forfeit``: decided without play
    (a bye, a withdrawal, an aborted game)."""

    points: tuple[float, ...]
    ranks: tuple[int, ...]
    forfeit: bool = False


@dataclass(frozen=True, slots=True)
class BoardRow:
    """One board of a round: its players in seat order, its game (None: a bye, a forfeit, or
    not made yet) and its result (None: still being played)."""

    round: int
    board: int
    players: tuple[str, ...]
    game_type: str
    game_id: int | None = None
    result: BoardResult | None = None


JoinOutcome = Literal["joined", "already", "full", "closed"]
"""What :meth:`Store.join_tournament` did: joined, or why not."""


@dataclass(frozen=True, slots=True)
class TournamentPost:
    """A tournament's announcement waiting to be posted (its round, its end): ``name`` is
    ``round3``, ``final`` or ``cancelled``; ``body`` the reply as JSON."""

    tournament_id: int
    name: str
    body: str
    attempts: int
    guild_id: str | None
    next_ms: int = 0
    """When it is handed out (again)."""

    @property
    def key(self) -> str:
        return tournament_post_key(self.tournament_id, self.name)


TOURNAMENT_POST = "t"
"""The first letter of a tournament post's key (a game announcement's key starts with a digit)."""


def tournament_post_key(tournament_id: int, name: str) -> str:
    """``"t3.round2"``: a tournament post's key (also in its message, to find it again)."""
    return f"{TOURNAMENT_POST}{tournament_id}.{name}"


def parse_tournament_post_key(key: str) -> tuple[int, str] | None:
    head, _, name = key.partition(".")
    number = head[len(TOURNAMENT_POST) :]
    if not head.startswith(TOURNAMENT_POST) or not number.isdigit() or len(number) > 19:
        return None
    if not name or not name.isalnum():
        return None
    return int(number), name


DAILY_POST = "puzzle:"
"""The prefix of a daily puzzle post's key: ``puzzle:<guild>:<day>``."""


def daily_post_key(guild_id: str, day: str) -> str:
    return f"{DAILY_POST}{guild_id}:{day}"


def parse_daily_post_key(key: str) -> tuple[str, str] | None:
    if not key.startswith(DAILY_POST):
        return None
    guild_id, _, day = key[len(DAILY_POST) :].partition(":")
    return (guild_id, day) if guild_id and day else None


DIGEST = "digest:"
"""The prefix of a daily digest's key: ``digest:<user>:<ms of its mark>``."""


@dataclass(frozen=True, slots=True)
class DigestRow:
    """A user's daily digest, written with its mark (``mark_ms``: when it fell due and was
    marked sent) and waiting to be delivered by direct message; ``body`` the reply as JSON."""

    user_id: str
    mark_ms: int
    body: str
    attempts: int
    next_ms: int
    """When it is handed out (again)."""

    @property
    def key(self) -> str:
        return digest_key(self.user_id, self.mark_ms)


def digest_key(user_id: str, mark_ms: int) -> str:
    return f"{DIGEST}{user_id}:{mark_ms}"


def parse_digest_key(key: str) -> tuple[str, int] | None:
    if not key.startswith(DIGEST):
        return None
    user_id, _, mark = key[len(DIGEST) :].partition(":")
    if not user_id or not mark.isdigit() or len(mark) > 19:
        return None
    return user_id, int(mark)


def delivery_mark(key: str) -> str:
    """What a message delivered as ``key`` shows of it (its footer): short, readable and one
    per key, so the delivery loop finds it in the channel after a crash. ``#12 · 35.1`` (game
    12's 35th change, its second announcement), ``🏆 #3 · 2`` (tournament 3's round 2), ``🏆 #3 ·
    🏁`` (its end), ``🧩 2026-11-28`` (a server's daily puzzle), ``📬 2026-11-28 09:00`` (a user's
    digest, by the UTC minute it fell due): never a bare internal key."""
    game = parse_outbox_key(key)
    if game is not None:
        game_id, version, n = game
        return f"#{game_id} · {version}" + (f".{n}" if n else "")
    tournament = parse_tournament_post_key(key)
    if tournament is not None:
        number, name = tournament
        is_round = name.startswith("round") and name[5:].isdigit()
        return f"🏆 #{number} · " + ("🏁" if name == "final" else name[5:] if is_round else name)
    daily = parse_daily_post_key(key)
    if daily is not None:
        return f"🧩 {daily[1]}"
    digest = parse_digest_key(key)
    if digest is not None:  # a user's digests are a day apart: the minute of its mark is one
        return "📬 " + datetime.fromtimestamp(digest[1] / 1000, UTC).strftime("%Y-%m-%d %H:%M")
    return key


# --- the site's sign-in (issue 51) ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SiteSessionRow:
    """A signed-in visitor of the site: the SHA-256 of the secret in their cookie (never the
    secret), the Discord user, the token their writes must carry (CSRF), and the session's
    start and end."""

    secret_hash: str
    user_id: str
    name: str
    csrf: str
    created_ms: int
    expires_ms: int


# --- heavy work handed to worker processes (issue 49) -------------------------------------------


@dataclass(frozen=True, slots=True)
class JobRow:
    """A job of the queue workers take (``bot/service/jobs.py``): its signed payload, its
    priority (lower first), when it was queued, the wall-clock time its answer is useless after
    (``None``: whenever), who took it and until when their lease runs, and once done its signed
    result or why it failed."""

    id: int
    kind: str
    priority: int
    payload: bytes
    queued_ms: int
    deadline_ms: int | None
    taken_by: str | None
    lease_ms: int | None
    done_ms: int | None
    result: bytes | None
    failed: str | None
