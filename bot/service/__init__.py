"""The game service: every use case of a game host, with no Discord in it.

Adapters (the Discord cogs, the terminal sandbox) talk to one :class:`GameService`, a small front
over the use-case modules (see docs/architecture.md):

- :mod:`~bot.service.values`: what adapters see (``User``, ``Reply``, ``Refusal``, ``Event``,
  server settings, the game catalogue);
- :mod:`~bot.service.cache`: locks, loading, replaying and committing games;
- :mod:`~bot.service.play.timers`: deadlines, reminders, timeouts, lapsing challenges;
- :mod:`~bot.service.play.lobby` (lobbies and challenges, seats drawn),
  :mod:`~bot.service.play.rematch`
  (the same game again, seats turned), :mod:`~bot.service.play.turns` (moves, setups,
  resignations, aborts), :mod:`~bot.service.play.offers` (draws, takebacks),
  :mod:`~bot.service.play.records`
  (board, moves, record files, import), :mod:`~bot.service.review.replays` (animated and
  step-by-step replays), :mod:`~bot.service.play.directory` (where games are,
  autocomplete, a user's games), :mod:`~bot.service.play.community` (catalogue, statistics,
  settings,
  the daily deal), :mod:`~bot.service.outbox` (announcements committed with their change and
  delivered at least once, recognised by their key), :mod:`~bot.service.ratings` (ratings,
  leaderboards, the rebuild), :mod:`~bot.service.play.computer` (AI seats moving by themselves,
  hints;
  the search runs in an injected :mod:`~bot.service.thinking` thinker, so the service starts no
  process).

Each use case returns presentation-neutral replies or raises :class:`Refusal` (nothing written).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import date, datetime
from typing import Any, TypedDict, Unpack

from bot.clock import Clock, SystemClock, from_ms
from bot.config import Settings
from bot.kifu import MAX_RECORD_BYTES
from bot.model import (
    GameRow,
    MoveRow,
    OfferKind,
    parse_outbox_key,
    parse_tournament_post_key,
)
from bot.service import context, routes
from bot.service.actions import (
    ANSWERS,
    PRACTICE_GAME,
    TURN_ACTIONS,
    Action,
    Button,
    Style,
    Takes,
    play_arg,
    split_play,
)
from bot.service.cache import MAX_GAME_ID, GameCache
from bot.service.compete.leaderboards import Ratings
from bot.service.compete.tournaments import TournamentFront, TournamentOptions, Tournaments
from bot.service.context import Context, Shuffle
from bot.service.correspond.notices import Notices
from bot.service.correspond.premoves import Premoves
from bot.service.correspond.threads import Threads
from bot.service.correspond.vacation import Vacations
from bot.service.endings import Endings
from bot.service.guard import check_text, entry
from bot.service.learn.front import LearnFront
from bot.service.learn.lessons import Lessons
from bot.service.learn.practice import Practice
from bot.service.learn.puzzles import DailyPost, Puzzles
from bot.service.learn.rules import RulesPages
from bot.service.outbox import Outbox
from bot.service.play.community import DAILY_GAME, Community, catalogue
from bot.service.play.computer import Computer
from bot.service.play.directory import Directory, MoveChoices
from bot.service.play.lobby import CreateOptions, Lobby
from bot.service.play.offers import Offers
from bot.service.play.records import Records, check_record_size
from bot.service.play.rematch import Rematches
from bot.service.play.timers import Timers
from bot.service.play.turns import Turns
from bot.service.present import Pictures
from bot.service.review.front import ReplayFront
from bot.service.review.replays import REPLAY_MAX_BYTES, Replays
from bot.service.review.reviews import Progress, Reviews
from bot.service.review.site import (
    BUSY,
    NOT_FOUND,
    RECORD_KINDS,
    Site,
    WebBoard,
    WebGame,
    WebGuild,
    WebListed,
    WebPlayer,
    WebPly,
    WebRank,
    WebRated,
)
from bot.service.routes import ACTIONS, ActionSpec
from bot.service.thinking import InlineThinker, ProcessThinker, StepClock, Thinker
from bot.service.values import (
    AI_DEFAULT_LEVEL,
    AI_LEVELS,
    HOST_ID,
    LOBBY_EVENTS,
    PRACTICE_EVENTS,
    Event,
    File,
    GameInfo,
    GuildSettings,
    Lang,
    Line,
    Location,
    OptionInfo,
    Page,
    Press,
    Refusal,
    Reply,
    RulesPage,
    Scope,
    User,
)
from bot.store import SqliteStore, Store, StoreUnreachable, is_postgres_url
from engines.core import State, Text
from engines.record import Record

__all__ = [
    "ACTIONS",
    "AI_DEFAULT_LEVEL",
    "AI_LEVELS",
    "ANSWERS",
    "BUSY",
    "HOST_ID",
    "LOBBY_EVENTS",
    "MAX_GAME_ID",
    "MAX_RECORD_BYTES",
    "NOT_FOUND",
    "PRACTICE_EVENTS",
    "PRACTICE_GAME",
    "RECORD_KINDS",
    "REPLAY_MAX_BYTES",
    "TURN_ACTIONS",
    "Action",
    "ActionSpec",
    "Button",
    "DailyPost",
    "Event",
    "File",
    "GameInfo",
    "GameService",
    "GuildSettings",
    "InlineThinker",
    "Lang",
    "Line",
    "Location",
    "MoveChoices",
    "OptionInfo",
    "Page",
    "Press",
    "ProcessThinker",
    "Progress",
    "Refusal",
    "Reply",
    "RulesPage",
    "Scope",
    "Shuffle",
    "Site",
    "StepClock",
    "StoreUnreachable",
    "Style",
    "Takes",
    "Text",
    "Thinker",
    "TournamentOptions",
    "User",
    "WebBoard",
    "WebGame",
    "WebGuild",
    "WebListed",
    "WebPlayer",
    "WebPly",
    "WebRank",
    "WebRated",
    "catalogue",
    "parse_outbox_key",
    "parse_tournament_post_key",
    "play_arg",
    "split_play",
]


def open_store(location: str, settings: Settings) -> Store:
    """The store ``BANMEN_DB`` names: PostgreSQL for a ``postgresql://`` URL, else SQLite."""
    if is_postgres_url(location):
        from bot.store_postgres import PostgresStore

        return PostgresStore(
            location,
            pool_size=settings.pg_pool_size,
            timeout=settings.store_timeout,
            connect_timeout=3 * settings.store_timeout,
        )
    return SqliteStore(location, synchronous=settings.sqlite_synchronous)


class ServiceOptions(TypedDict, total=False):
    """What a :class:`GameService` may be given besides its store (see its ``__init__``)."""

    clock: Clock | None
    settings: Settings | None
    render_images: bool
    thinker: Thinker | None
    shuffle: Shuffle | None


class GameService(LearnFront, ReplayFront, TournamentFront):
    """Every use case of the host. One instance per process; see docs/service.md."""

    def __init__(
        self,
        store: Store,
        clock: Clock | None = None,
        settings: Settings | None = None,
        *,
        render_images: bool = True,
        thinker: Thinker | None = None,
        shuffle: Shuffle | None = None,
    ) -> None:
        settings = settings or Settings()
        self.clock: Clock = clock or SystemClock()
        games = GameCache(store, settings.state_cache_size, settings.state_cache_mb * 2**20 or None)
        shuffle = shuffle or context.draw_seats
        ctx = Context(store, self.clock, settings, games, Pictures(render_images), shuffle)
        self.ctx = ctx
        endings = Endings(ctx)
        self.timers = Timers(ctx, endings)
        self.lobby = Lobby(ctx, endings)
        self.rematches = Rematches(ctx, self.lobby)
        self.turns = Turns(ctx, self.timers, endings)
        self.offers = Offers(ctx, self.turns, endings)
        self.records = Records(ctx, self.timers)
        thinker = thinker or InlineThinker()
        self.replays = Replays(ctx, thinker)
        self.directory = Directory(ctx)
        self.community = Community(ctx, self.lobby, self.records)
        self.rules = RulesPages(ctx)
        self.outbox = Outbox(ctx)
        self.ratings = Ratings(ctx)
        self.premoves = Premoves(ctx, self.turns)
        """``/premove`` (issue 33): adapters call its entry points directly."""
        self.computer = Computer(ctx, self.turns, thinker, self.premoves)
        self.lessons: Lessons = Lessons(ctx, Practice(ctx, self.computer))
        self.puzzles: Puzzles = Puzzles(ctx, thinker)
        self.notices = Notices(ctx, self.timers.changed)
        self.threads = Threads(ctx)
        self.vacations = Vacations(ctx, self.timers.changed)
        """``/vacation`` (issue 33): adapters call its entry points directly."""
        self.reviews = Reviews(ctx, thinker)
        self.tournaments = Tournaments(ctx, self.lobby, endings)
        self.web = Site(ctx, self.replays, self.records)
        """The read-only web pages' use cases (a sub-front: see bot/service/review/site.py)."""

    @classmethod
    async def open(cls, path: str, **options: Unpack[ServiceOptions]) -> GameService:
        """Open (and migrate) the store at ``path`` (a SQLite file or a ``postgresql://`` URL)
        and restore every pending deadline and AI turn. ``thinker``: where AI searches run
        (default: inline, on the calling thread; the bot passes a :class:`ProcessThinker`).
        ``shuffle`` draws the seats (by default from the operating system's randomness)."""
        settings = options.pop("settings", None) or Settings(db_path=path)
        store = open_store(path, settings)
        await store.open()
        try:
            service = cls(store, **(options | {"settings": settings}))
            await service.restore()
        except BaseException:
            await store.close()  # a failed start leaves no connection (nor its thread) behind
            raise
        return service

    async def restore(self) -> None:
        """Read the live games, every pending deadline and every running AI game from the store
        (at start-up)."""
        await self.ctx.games.restore()
        await self.vacations.restore()  # stopped clocks are no deadlines to the timers
        await self.notices.restore()
        await self.timers.restore()
        await self.computer.restore()
        await self.tournaments.restore()

    async def close(self) -> None:
        await self.computer.thinker.close()
        await self.ctx.store.close()

    @property
    def settings(self) -> Settings:
        return self.ctx.settings

    # -- clocks ------------------------------------------------------------------------------
    @property
    def timer_changed(self) -> asyncio.Event:
        """Set whenever the next due time may have moved."""
        return self.timers.changed

    def next_timer_at(self) -> datetime | None:
        return self.notices.next_at(self.vacations.next_at(self.timers.next_at()))

    async def process_due(self, now: datetime | None = None) -> list[Reply]:
        # the vacations first: a clock that runs again runs from the moment it was due to
        back = await self.vacations.process_due(now) + await self.timers.process_due(now)
        return back + await self.notices.due(now)  # the digests: direct messages

    # -- the outbox: announcements committed with their change --------------------------------
    async def pending_announcements(self) -> list[Reply]:
        """Announcements nobody delivered yet (after a crash, a failed send), oldest first;
        report each with :meth:`announced` or :meth:`announcement_failed`."""
        return await self.outbox.pending()

    async def next_announcement_at(self) -> datetime | None:
        at = await self.outbox.next_at_ms()
        return None if at is None else from_ms(at)

    async def announced(self, key: str) -> None:
        """The reply whose ``outbox`` is ``key`` was posted (a game's announcement, or a
        tournament's post)."""
        if parse_tournament_post_key(key) is not None:
            await self.tournaments.posts.posted(key)
            return
        await self.outbox.delivered(key)

    async def announcement_failed(self, key: str) -> None:
        """Posting it failed: it is handed out again later."""
        if parse_tournament_post_key(key) is not None:
            await self.tournaments.posts.failed(key)
            return
        await self.outbox.failed(key)
        self.timers.changed.set()  # the delivery loop recomputes when to look again

    # -- the computer player ------------------------------------------------------------------
    @property
    def ai_changed(self) -> asyncio.Event:
        """Set when a game may have become a computer player's turn (a driver waits on it)."""
        return self.computer.changed

    def due_ai_games(self) -> list[int]:
        """Games where a computer player may be due; hand each to :meth:`play_ai`."""
        return self.computer.due()

    async def play_ai(self, game_id: int) -> list[Reply]:
        """The computer player's turn in ``game_id`` if it is due: the replies to announce."""
        return await self.computer.play(game_id)

    async def settle_ai(self) -> list[Reply]:
        """Play every due AI turn one after another (drivers that run one command at a time)."""
        return await self.computer.settle()

    async def warm_up_ai(self) -> None:
        """Start the thinker's workers (so no first AI move pays for their start-up)."""
        await self.computer.thinker.warm_up()

    @entry
    async def hint(self, game_id: int, user: User) -> Reply:
        """略式易双六: each choice with its estimated win chance (private to the player)."""
        return await self.computer.hint(game_id, user)

    def owns(self, guild_id: str | None) -> bool:
        """Does this process deliver for ``guild_id`` (its shards hold the guild)? The timers
        keep only such games; the outbox hands out only their announcements."""
        return self.ctx.settings.owns(guild_id)

    async def act(self, action: Action, press: Press) -> Reply | Sequence[Reply]:
        """Run what a button offers (see :data:`~bot.service.routes.ACTIONS`)."""
        return await routes.run(self, action, press)

    # -- lobbies and challenges ----------------------------------------------------------------
    @entry
    async def create_game(
        self, creator: User, game_type: str, **how: Unpack[CreateOptions]
    ) -> Reply:
        """Create a lobby, a challenge or a running game (see :meth:`Lobby.create`)."""
        return await self.lobby.create(creator, game_type, **how)

    @entry
    async def join(self, game_id: int, user: User) -> Reply:
        return await self.lobby.join(game_id, user)

    @entry
    async def leave(self, game_id: int, user: User) -> Reply:
        return await self.lobby.leave(game_id, user)

    @entry
    async def start(self, game_id: int, user: User) -> Reply:
        return await self.lobby.start(game_id, user)

    @entry
    async def cancel(self, game_id: int, user: User) -> Reply:
        return await self.lobby.cancel(game_id, user)

    @entry
    async def decline(self, game_id: int, user: User) -> Reply:
        return await self.lobby.decline(game_id, user)

    @entry
    async def rematch(self, game_id: int, user: User) -> Reply:
        """A player of a finished game asks the others for the same game again, seats turned
        (a challenge); if they already asked, this accepts theirs."""
        return await self.rematches.rematch(game_id, user)

    # -- playing -------------------------------------------------------------------------------
    @entry
    async def play(self, game_id: int, user: User, text: str, *, ply: int | None = None) -> Reply:
        return await self.turns.play(game_id, user, text, ply=ply)

    @entry
    async def setup(
        self, game_id: int, user: User, text: str, *, ply: int | None = None
    ) -> list[Reply]:
        return await self.turns.setup(game_id, user, text, ply=ply)

    @entry
    async def resign(self, game_id: int, user: User) -> Reply:
        return await self.turns.resign(game_id, user)

    @entry
    async def abort(self, game_id: int, moderator: User, guild_id: str | None = None) -> Reply:
        return await self.turns.abort(game_id, moderator, guild_id)

    @entry
    async def offer_draw(self, game_id: int, user: User) -> Reply:
        return await self.offers.offer_draw(game_id, user)

    @entry
    async def accept_draw(self, game_id: int, user: User) -> Reply:
        return await self.offers.accept_draw(game_id, user)

    @entry
    async def decline_draw(self, game_id: int, user: User) -> Reply:
        return await self.offers.decline(game_id, user, OfferKind.DRAW)

    @entry
    async def request_takeback(self, game_id: int, user: User) -> Reply:
        return await self.offers.request_takeback(game_id, user)

    @entry
    async def accept_takeback(self, game_id: int, user: User) -> Reply:
        return await self.offers.accept_takeback(game_id, user)

    @entry
    async def decline_takeback(self, game_id: int, user: User) -> Reply:
        return await self.offers.decline(game_id, user, OfferKind.TAKEBACK)

    # -- looking -------------------------------------------------------------------------------
    @entry
    async def board(self, game_id: int, viewer: User | None = None) -> Reply:
        return await self.records.board(game_id, viewer)

    @entry
    async def moves(self, game_id: int, viewer: User | None = None) -> Reply:
        return await self.records.moves(game_id, viewer)

    @entry
    async def record(self, game_id: int, viewer: User | None = None) -> Reply:
        return await self.web.linked(await self.records.record(game_id, viewer))

    @entry
    async def import_record(
        self,
        user: User,
        data: str | bytes,
        *,
        guild_id: str | None = None,
        seats: Sequence[User] = (),
    ) -> Reply:
        """A game from a record file (JSON or KIF-like text; bytes in UTF-8 or Shift-JIS)."""
        return await self.records.import_record(user, data, guild_id=guild_id, seats=seats)

    @staticmethod
    def check_record_size(size: int) -> None:
        """Refuse a record file of ``size`` bytes that is too large to read (before reading)."""
        check_record_size(size)

    @entry
    async def export_record(self, game_id: int) -> Record:
        return await self.records.export(game_id)

    # -- finding games -------------------------------------------------------------------------
    @entry
    async def list_games(self, user: User, guild_id: str | None = None) -> Reply:
        return await self.directory.list_games(user, guild_id)

    def game_choices(self, user_id: str, typed: str = "", limit: int = 25) -> list[tuple[int, str]]:
        check_text((user_id, typed))
        return self.directory.game_choices(user_id, typed, limit)

    @entry
    async def legal_move_choices(
        self, game_id: int, user_id: str, typed: str, limit: int = 25, lang: str = "en"
    ) -> list[str]:
        """The user's legal moves matching ``typed``, as the game writes them in ``lang``."""
        found = await self.directory.legal_moves(game_id, user_id, typed, limit, lang)
        return list(found.moves)

    @entry
    async def legal_moves(
        self, game_id: int, user_id: str, typed: str, limit: int = 25, lang: str = "en"
    ) -> MoveChoices:
        """Like :meth:`legal_move_choices`, with how many moves matched in all."""
        return await self.directory.legal_moves(game_id, user_id, typed, limit, lang)

    @entry
    async def games_to_play(self, user_id: str) -> list[int]:
        """The user's running games where it is their turn now (newest first)."""
        return await self.directory.games_to_play(user_id)

    @entry
    async def game_at(self, user_id: str, channel_id: str, thread_id: str | None) -> int | None:
        return await self.directory.game_at(user_id, channel_id, thread_id)

    def location(self, game_id: int) -> Location | None:
        return self.directory.location(game_id)

    @entry
    async def place(self, game_id: int) -> Location | None:
        return await self.directory.place(game_id)

    @entry
    async def private_place(self, game_id: int) -> bool:
        """Must the game live where only its players see it (a daily deal: everyone plays the
        same one that day, so its draws must not be seen by the others)?"""
        return (await self.ctx.games.read(game_id)).row.daily_day is not None

    @entry
    async def set_game_location(
        self,
        game_id: int,
        channel_id: str | None,
        thread_id: str | None = None,
        message_id: str | None = None,
    ) -> None:
        await self.directory.set_location(game_id, channel_id, thread_id, message_id)

    # -- around the games ----------------------------------------------------------------------
    @staticmethod
    def catalogue() -> tuple[GameInfo, ...]:
        return catalogue()

    async def warm_up_pictures(self) -> None:
        """Build every game's picture caches in a worker thread (so no first move waits)."""
        await asyncio.to_thread(Pictures.warm_up)

    @entry
    async def stats(
        self, user: User, game_type: str | None = None, asker: User | None = None
    ) -> Reply:
        """``user``'s statistics, privately for ``asker`` (default: the user)."""
        return await self.community.stats(user, game_type, asker)

    @entry
    async def rating(self, user: User, game_type: str | None = None) -> Reply:
        """``user``'s ratings (in one game, or all), record and last rated games."""
        return await self.ratings.profile(user, game_type)

    @entry
    async def leaderboard(
        self,
        game_type: str,
        guild_id: str | None = None,
        scope: Scope = Scope.SERVER,
        page: int = 1,
        *,
        provisional: bool = False,
    ) -> Reply:
        """A page of a game's leaderboard (``reply.page`` says which; adapters page on)."""
        return await self.ratings.leaderboard(
            game_type, guild_id, scope, page, provisional=provisional
        )

    async def rebuild_ratings(self) -> Reply:
        """Recompute every rating from the finished games (``python -m bot ratings rebuild``)."""
        return await self.ratings.rebuild()

    @entry
    async def guild_settings(self, guild_id: str | None) -> GuildSettings:
        return await self.community.guild_settings(guild_id)

    @entry
    async def set_guild_setting(self, guild_id: str, key: str, value: str) -> Reply:
        return await self.community.set_guild_setting(guild_id, key, value)

    @property
    def daily_game(self) -> str:
        """The game type of the daily deal (adapters offer ``daily`` for it alone)."""
        return DAILY_GAME

    @entry
    async def daily(self, user: User, guild_id: str | None = None) -> Reply:
        return await self.community.daily(user, guild_id)

    @entry
    async def daily_board(self, guild_id: str | None, day: date | str | None = None) -> Reply:
        return await self.community.daily_board(guild_id, day)

    # -- read-only views for the host's own use and tests --------------------------------------
    @entry
    async def game_info(self, game_id: int) -> GameRow:
        """The stored game row (seats included)."""
        return (await self.ctx.games.read(game_id)).row

    @entry
    async def entries(self, game_id: int) -> list[MoveRow]:
        return list((await self.ctx.games.read(game_id)).entries)

    def current_state(self, game_id: int, viewer_seat: int | None = None) -> State[Any] | None:
        """The cached state as ``viewer_seat`` may see it (None if the game is not cached)."""
        loaded = self.ctx.games.cached(game_id)
        return None if loaded is None else loaded.state.observe(viewer_seat)
