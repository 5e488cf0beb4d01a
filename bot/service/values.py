"""What the service hands the adapters: users, replies, refusals, settings and the catalogue.

Every use case returns presentation-neutral :class:`Reply` values (an i18n message key with its
parameters, an explicit :class:`Event`, the picture to attach, the actions now available, who to
ping) or raises :class:`Refusal` (nothing written). Adapters choose where and how to show them by
their ``event`` and ``public``/``audience``, never by parsing text.
"""

from __future__ import annotations

import enum
import json
import re
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields, is_dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from bot import i18n
from bot.clock import ClockError, parse_clock
from bot.i18n import Lang as Lang
from bot.service.actions import Button, Target
from engines.core import Text
from render.describe import DISCORD_LIMIT

ALT_LIMIT = DISCORD_LIMIT
"""The longest alt text a picture carries (Discord's attachment description)."""

HOST_ID = "host"
"""The user id that plays host-controlled seats (computer players)."""
AI_LEVELS = range(1, 9)
"""The computer player's strengths, shown as a level number."""
AI_DEFAULT_LEVEL = 4
"""The level of a computer player when none is named."""


def ai_name(level: int) -> str:
    """The computer player's name at a level, the same in every language."""
    return f"Banmen AI Lv.{level}"


@dataclass(frozen=True, slots=True)
class User:
    """A platform user: id (a Discord snowflake as text, or a sandbox name) and display name."""

    id: str
    name: str


@dataclass(frozen=True, slots=True)
class Press:
    """One use of an action: on what (a game, the presser's practice board, a tournament), by
    whom, with what argument (as posted: :func:`bot.service.routes.run` checks both against the
    action's row before its use case runs)."""

    target: Target
    user: User
    arg: str | None = None
    max_bytes: int | None = None
    """The largest picture the adapter can post (a replay's GIF), if it has a limit."""
    guild_id: str | None = None
    """The server the press was made in (None: a direct message), for what depends on it (the
    explorer's "this server's games")."""


class Event(enum.StrEnum):
    """What happened, for adapters: where a reply goes and what it replaces."""

    CREATED = "created"
    """A lobby or a challenge was opened (seats free)."""
    JOINED = "joined"
    LEFT = "left"
    STARTED = "started"
    CANCELLED = "cancelled"
    """A game that had not started was withdrawn, declined or lapsed."""
    MOVED = "moved"
    SETUP_ACCEPTED = "setup_accepted"
    """A player's own secret setup (private to them)."""
    SETUP_WAITING = "setup_waiting"
    REVEALED = "revealed"
    ENDED = "ended"
    """Resigned, aborted, timed out or agreed drawn."""
    REMINDER = "reminder"
    OFFERED = "offered"
    DECLINED = "declined"
    TAKEN_BACK = "taken_back"
    BOARD = "board"
    MOVES = "moves"
    RECORD = "record"
    IMPORTED = "imported"
    REPLAY = "replay"
    """A replay (the GIF, or one step of it): a button on it replaces it in place."""
    GAMES = "games"
    STATS = "stats"
    SETTINGS = "settings"
    DAILY_BOARD = "daily_board"
    RATING = "rating"
    LEADERBOARD = "leaderboard"
    """A leaderboard page (a page button replaces the message it is on)."""
    RATINGS_REBUILT = "ratings_rebuilt"
    HINT = "hint"
    """A solitaire's choices with their estimated win chances (private)."""
    LESSON = "lesson"
    """A lesson's board, goal and what just happened (private; a button on it replaces it)."""
    LESSON_MENU = "lesson_menu"
    """The games with the learner's stars per lesson (private)."""
    ANALYSIS = "analysis"
    EXPLORE = "explore"
    """The opening explorer at a position (private; a step button on it replaces it)."""
    """The analysis board (private; a button on it replaces it; opened, a new message)."""
    PUZZLE = "puzzle"
    """A puzzle, an answer to it, its hint or solution (private to the solver)."""
    PUZZLE_DAILY = "puzzle_daily"
    """A server's daily puzzle post (public, with its Solve button; nobody is pinged)."""
    VACATION = "vacation"
    """A vacation began or ended (privately), or a game's clock stopped or runs again."""
    PREMOVE = "premove"
    """A player's conditional moves (private to them)."""
    NOTIFY = "notify"
    """A user's notification preferences (private)."""
    DIGEST = "digest"
    """A user's daily digest: a direct message."""
    REVIEW = "review"
    """The computer's review of a finished game (its chart and mistakes): a new message."""
    REVIEW_MOVE = "review_move"
    """A ply with the computer's better move drawn on it: a new message, private when asked
    from a private one."""
    # tournaments (issue 34)
    TOURNAMENT_SIGNUP = "tournament_signup"
    """A tournament's sign-up message (a join or a leave replaces it in place)."""
    TOURNAMENT_ROUND = "tournament_round"
    """A round's boards, paired."""
    TOURNAMENT_STANDINGS = "tournament_standings"
    TOURNAMENT_ENDED = "tournament_ended"
    OPEN_BOARD = "open_board"
    """The card's "Open the board": the Activity launched (``launch`` in its params), else a
    private link to the game's page (issue 51, 3)."""


TURN_EVENTS = frozenset(
    {
        Event.STARTED,
        Event.JOINED,
        Event.MOVED,
        Event.SETUP_WAITING,
        Event.REVEALED,
        Event.TAKEN_BACK,
        Event.DECLINED,
        Event.BOARD,
    }
)
"""Replies that end with whose turn it is."""

PRACTICE_EVENTS = frozenset({Event.LESSON, Event.LESSON_MENU, Event.ANALYSIS, Event.EXPLORE})
"""Private replies about a user's practice board: a button on one replaces it in place."""

LOBBY_EVENTS = frozenset({Event.JOINED, Event.LEFT, Event.CANCELLED})
"""Replies that replace the lobby or challenge message they answer."""


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


class Scope(enum.StrEnum):
    """Whose ratings a leaderboard lists."""

    SERVER = "server"
    """Players who played rated games of that kind in this server."""
    GLOBAL = "global"


@dataclass(frozen=True, slots=True)
class Page:
    """Where a leaderboard page stands: adapters offer buttons for the pages either side, each
    asking :meth:`GameService.leaderboard` for the same board at another ``number``."""

    game_type: str
    scope: Scope
    number: int
    """1-based."""
    count: int
    provisional: bool = False
    """Provisional players are listed too."""


INTERACTION_ONLY = "interaction"
"""A game's place the bot reaches only through interactions (issue 48)."""


@dataclass(frozen=True, slots=True)
class Location:
    channel_id: str | None
    thread_id: str | None
    message_id: str | None
    reach: str | None = None
    """``None``: the bot posts in the place; ``"interaction"``: only through interactions
    there (:data:`INTERACTION_ONLY`)."""
    guild_id: str | None = None
    """The game's server (None: direct messages)."""

    @property
    def interaction_only(self) -> bool:
        return self.reach == INTERACTION_ONLY


@dataclass(frozen=True)
class Reply:
    """A presentation-neutral answer; :meth:`text` renders it in English or Japanese."""

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)
    event: Event = Event.BOARD
    game_id: int | None = None
    public: bool = True
    audience: str | None = None
    """For a private reply: the only user it is for."""
    image: bytes | None = None
    image_viewer: int | None = None
    image_format: str = "png"
    """``png`` (a board), or ``gif`` (an animated replay)."""
    image_alt: Text | None = None
    """The picture in words (its alt text, in both languages): a board's description from the
    same state, viewer and last move as the picture (:mod:`render.describe`), a chart's title
    and figures. Drawn again with the picture, so the outbox does not keep it."""
    actions: tuple[Button, ...] = ()
    notify: tuple[str, ...] = ()
    to_move: tuple[str, ...] = ()
    deadline: datetime | None = None
    lines: tuple[Line, ...] = ()
    files: tuple[File, ...] = ()
    picture: bool = False
    """The reply shows the spectator's picture of its game (``image``, once drawn)."""
    outbox: str | None = None
    """The key of the announcement this reply is (see :mod:`bot.service.outbox`): the adapter
    reports it delivered once posted, else the outbox posts it again."""
    page: Page | None = None
    """For a leaderboard: which page this is (adapters offer the others)."""
    silent: bool = False
    """Sent without a notification (everyone it pings is in their quiet hours)."""
    over: bool = False
    """The reply is about a finished game (its card is the game's result card)."""
    seats: tuple[Line, ...] = ()
    """A running or finished game's seats, one line each (who plays which side, whose turn,
    the hand): a card shows each as its own part."""
    absorbs: tuple[str, ...] = ()
    """Announcements this reply carries as well (outbox keys): the computer's moves folded
    into the card of the last of them. The adapter reports them delivered with :attr:`outbox`."""

    @property
    def announcements(self) -> tuple[str, ...]:
        """The outbox keys this reply delivers: its own and those it absorbs."""
        return ((self.outbox,) if self.outbox is not None else ()) + self.absorbs

    @property
    def subject(self) -> str:
        """What the reply is about, as one word for a file's name (its event's first word:
        ``lesson``, ``puzzle``, ``rating``, ``tournament``, ``review``)."""
        return "".join(c for c in str(self.event).split("_")[0] if "a" <= c <= "z") or "picture"

    def to_json(self) -> str:
        """The reply as JSON text for the outbox (without image or files: an announcement's
        picture is drawn again from the log when it is delivered after a restart)."""
        if self.files:
            raise TypeError(f"an announcement carries no files ({self.key})")
        body = {name: _encode(getattr(self, name)) for name in _KEPT_FIELDS}
        return json.dumps(body, ensure_ascii=False, sort_keys=True)

    @classmethod
    def from_json(cls, text: str, outbox: str | None = None) -> Reply:
        """The reply :meth:`to_json` wrote (its image not yet drawn)."""
        body = json.loads(text)
        hints = _hints(cls)
        if "labels" in body:  # written before buttons carried their own labels
            labels = body.pop("labels")
            body["actions"] = [_old_button(a, labels) for a in body["actions"]]
        kept = {name: _typed(hints[name], value) for name, value in body.items() if name in _KEPT}
        return cls(**kept, outbox=outbox)

    def text(
        self,
        lang: str = "en",
        *,
        turn: bool = True,
        deadline: bool = True,
        times: Callable[[datetime], str] | None = None,
    ) -> str:
        """The whole message in ``lang``: with whose turn it is (unless ``turn`` is false: a
        channel's announcement of a game that lives in its thread) and the deadline line
        (unless ``deadline`` is false: an adapter that shows :attr:`deadline` itself, once).
        ``times`` writes the times in the text (a Discord timestamp, each reader's own zone);
        by default they read as UTC."""

        def say(key: str, params: Mapping[str, Any]) -> str:
            if times is not None:
                params = {k: times(v) if isinstance(v, datetime) else v for k, v in params.items()}
            return i18n.t(key, lang, **params)

        parts = [say(self.key, self.params)]
        parts += [say(line.key, line.params) for line in self.lines]
        if turn and self.to_move and self.event in TURN_EVENTS:
            parts.append(say("turn.next", {"to_move": self.params.get("to_move", "")}))
        due = self.event is Event.REMINDER or (self.to_move and self.event in TURN_EVENTS)
        if turn and deadline and due and self.deadline is not None:
            parts.append(say("turn.deadline", {"deadline": self.deadline}))
        return "\n".join(p for p in parts if p)


_DRAWN = ("image", "image_format", "image_alt", "files", "outbox", "absorbs")
_KEPT = frozenset(f.name for f in fields(Reply) if f.name not in _DRAWN)
"""What an announcement keeps in the outbox: all but its picture, the picture's words and its
files (drawn or made again when it is delivered) and its outbox key (the row it is kept in)."""


_KEPT_FIELDS = tuple(f.name for f in fields(Reply) if f.name in _KEPT)
_PLAIN = frozenset({str, int, float, bool, type(None)})
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}
"""The field names of each small dataclass kept so far (``fields()`` is slow on a hot path:
every move's announcement is encoded)."""


def _encode(value: Any) -> Any:
    """A value as JSON: texts in both languages, times and durations tagged, enums by value,
    a small value (a line, a button) as the list of its fields."""
    kind = type(value)
    if kind in _PLAIN:  # (an enum's type is its own class: it is not taken for its value here)
        return value
    if kind is tuple or kind is list:
        return [_encode(v) for v in value]
    names = _FIELD_NAMES.get(kind)
    if names is not None:
        return [_encode(getattr(value, name)) for name in names]
    if isinstance(value, enum.Enum):
        return value.value
    if value is None or isinstance(value, str | bool | int | float):
        return value
    if isinstance(value, Text):
        return {"$text": [value.en, value.ja]}
    if is_dataclass(value) and not isinstance(value, type):
        names = _FIELD_NAMES.setdefault(kind, tuple(f.name for f in fields(value)))
        return [_encode(getattr(value, name)) for name in names]
    if isinstance(value, datetime):
        return {"$time": int(value.timestamp() * 1000)}
    if isinstance(value, timedelta):
        return {"$seconds": value.total_seconds()}
    if isinstance(value, list | tuple):
        return [_encode(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _encode(v) for k, v in value.items()}
    raise TypeError(f"cannot keep {type(value).__name__} in an announcement")


def _decode(value: Any) -> Any:
    if isinstance(value, list):
        return [_decode(v) for v in value]
    if not isinstance(value, dict):
        return value
    if "$text" in value:
        en, ja = value["$text"]
        return Text(en, ja)
    if "$time" in value:
        return datetime.fromtimestamp(value["$time"] / 1000, UTC)
    if "$seconds" in value:
        return timedelta(seconds=value["$seconds"])
    return {k: _decode(v) for k, v in value.items()}


_HINTS: dict[str, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    """``cls``'s resolved field types (resolving them compiles every annotation: once)."""
    name = f"{cls.__module__}.{cls.__qualname__}"
    if name not in _HINTS:
        _HINTS[name] = typing.get_type_hints(cls)
    return _HINTS[name]


def _typed(hint: Any, value: Any) -> Any:
    """``value`` as :func:`_encode` wrote it, read back as the type ``hint``."""
    origin = typing.get_origin(hint)
    if origin in (types.UnionType, typing.Union):
        if value is None:
            return None
        hint = next(h for h in typing.get_args(hint) if h is not type(None))
        origin = typing.get_origin(hint)
    if origin is tuple:
        return tuple(_typed(typing.get_args(hint)[0], v) for v in value)
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return hint(value)
    if isinstance(hint, type) and is_dataclass(hint) and isinstance(value, list):
        inner = _hints(hint)
        parts = [_typed(inner[f.name], v) for f, v in zip(fields(hint), value, strict=False)]
        return hint(*parts)
    return _decode(value)


def _old_button(text: str, labels: Mapping[str, Any]) -> list[Any]:
    label = labels.get(text)
    action, _, arg = text.partition(":")
    return [action, arg or None, label]


class Refusal(Exception):
    """A use case refused: a specific reason (i18n key + params); nothing was written."""

    def __init__(self, key: str, suggestions: Sequence[str | Text] = (), /, **params: Any) -> None:
        super().__init__(i18n.t(key, "en", **params))
        self.key = key
        self.params: Mapping[str, Any] = params
        self.suggestions = tuple(suggestions)
        """For a refused move: the closest legal moves, as the game writes them."""

    def suggested(self, lang: str = "en") -> tuple[str, ...]:
        """The suggestions in ``lang``."""
        return tuple(s.get(lang) if isinstance(s, Text) else s for s in self.suggestions)

    def text(self, lang: str = "en") -> str:
        out = i18n.t(self.key, lang, **self.params)
        if self.suggestions:
            moves = ", ".join(self.suggested(lang))
            out += "\n" + i18n.t("refuse.suggestions", lang, moves=moves)
        return out


# --- server settings ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """Per-server settings, typed (stored as text, one row per key; defaults here)."""

    lang: Lang = Lang.EN
    threads: bool = True
    clock: str = "none"
    max_active_per_user: int | None = None
    max_active_per_guild: int | None = None
    puzzle_channel: str | None = None
    """The channel the daily puzzle is posted in (None: no daily puzzle; opt-in)."""
    vacation: bool = True
    """Players may stop their clocks in this server's games with ``/vacation``."""
    archive_after: str = "1d"
    """How long a finished game's thread stays before it is archived (``ARCHIVE_MINUTES``)."""
    tournament_role: str | None = None
    """The role (its id) whose members manage tournaments besides Manage Server."""
    web: str = "private"
    """``public``: the server's games are listed and its leaderboards shown on the web pages."""

    @classmethod
    def from_stored(cls, raw: Mapping[str, str]) -> GuildSettings:
        """Read what the store holds; a value that no longer parses keeps its default."""
        values: dict[str, Any] = {}
        for key, text in raw.items():
            if key in SETTING_KEYS:
                try:
                    values[key] = parse_setting(key, text)
                except ValueError:
                    continue
        return cls(**values)

    def shown(self) -> dict[str, str]:
        """Each setting as a user would type it."""
        return {key: setting_text(getattr(self, key)) for key in SETTING_KEYS}


SETTING_KEYS = (
    "lang",
    "threads",
    "clock",
    "max_active_per_user",
    "max_active_per_guild",
    "puzzle_channel",
    "vacation",
    "archive_after",
    "tournament_role",
    "web",
)
_CHANNEL = re.compile(r"<#([0-9]{1,20})>|([0-9]{1,20})")
ARCHIVE_MINUTES = {"1h": 60, "1d": 1440, "3d": 4320, "1w": 10080}
"""The idle times after which Discord may archive a thread (the only ones it allows)."""


def parse_setting(key: str, text: str) -> Any:
    """The typed value of setting ``key`` from user text; ``ValueError`` if it is not one."""
    value = text.strip().lower()
    if key == "lang":
        return Lang(value)
    if key in ("threads", "vacation"):
        if value not in ("on", "off"):
            raise ValueError(value)
        return value == "on"
    if key == "clock":
        try:
            return parse_clock(value).text()
        except ClockError as exc:
            raise ValueError(value) from exc
    if key == "archive_after":
        if value not in ARCHIVE_MINUTES:
            raise ValueError(value)
        return value
    if key in ("max_active_per_user", "max_active_per_guild"):
        if not value.isdigit() or not 0 < int(value) <= 100_000:
            raise ValueError(value)
        return int(value)
    if key == "puzzle_channel":  # a channel (its mention or id), or off
        if value in ("off", "-"):
            return None
        channel = _CHANNEL.fullmatch(value)
        if channel is None:
            raise ValueError(value)
        return channel[1] or channel[2]
    if key == "tournament_role":  # a role's id, or its mention <@&id>; "-" for none
        if value in ("-", "none"):
            return None
        role = value.removeprefix("<@&").removesuffix(">")
        if not role.isdigit() or len(role) > 20:
            raise ValueError(value)
        return role
    if key == "web":
        if value not in ("public", "private"):
            raise ValueError(value)
        return value
    raise ValueError(key)


def setting_text(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return "-" if value is None else str(value)


# --- the catalogue ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class OptionInfo:
    """A game option as adapters offer it: ``name`` is what is typed (``repetition``),
    ``label`` how players read it (``千日手``), ``labels`` each value's reading."""

    name: str
    values: tuple[str, ...]
    default: str
    help: Text
    label: Text
    labels: tuple[Text, ...]
    """One per value, in the order of ``values``."""


@dataclass(frozen=True, slots=True)
class RulesPage:
    """One page of a game's rules (``/rules``), in both languages: the page's own title and
    text, its picture (``None`` without pictures), where it stands among ``count`` pages and
    the sections (each with the index of its first page, for a jump list), and a link to the
    whole rules when the operator configured one."""

    game: str
    title: Text
    """The game's title."""
    index: int
    """0-based."""
    count: int
    heading: Text
    body: Text
    section: int
    """The index in ``sections`` of the section this page belongs to."""
    sections: tuple[tuple[int, Text], ...]
    png: bytes | None
    link: str | None
    alt: Text | None = None
    """The diagram in words (its alt text): the page's heading, then the position drawn."""


@dataclass(frozen=True, slots=True)
class GameInfo:
    """A game as adapters offer it: names, seats and options (no rules)."""

    id: str
    title: Text
    summary: Text
    player_counts: tuple[int, ...]
    options: tuple[OptionInfo, ...]
    rules_doc: str
    daily: bool
    """Has a daily deal (``/daily``)."""

    @property
    def label(self) -> str:
        return f"{self.title.en} / {self.title.ja}"
