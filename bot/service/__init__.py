"""The game service: every use case of a game host, with no Discord in it.

A small kernel (the modules at this folder's top: values, context, cache, guard, actions,
present, endings, outbox, thinking, ratings, pausing) and one folder per capability, each with
one front the adapters call (docs/architecture.md):

- ``service.play`` (:class:`~bot.service.play.front.Play`): lobbies, challenges, rematches,
  moves, offers, boards and records, finding games, the clocks and the computer player;
- ``service.review`` (:class:`~bot.service.review.front.Review`): replays, the computer's
  review, the web site's pages;
- ``service.learn`` (:class:`~bot.service.learn.front.Learn`): rules pages, lessons, puzzles;
- ``service.correspond`` (:class:`~bot.service.correspond.front.Correspond`): vacations,
  conditional moves, notices and digests, threads;
- ``service.compete`` (:class:`~bot.service.compete.front.Compete`): ratings, leaderboards,
  tournaments.

:class:`GameService` is the root that wires them: it opens the store, restores what was running,
runs the timers and hands out what the outbox holds. Each use case returns presentation-neutral
replies or raises :class:`Refusal` (nothing written).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from datetime import datetime
from typing import Any, TypedDict, Unpack

from bot.clock import Clock, SystemClock, from_ms
from bot.config import Settings
from bot.kifu import MAX_RECORD_BYTES
from bot.model import (
    delivery_mark,
    parse_outbox_key,
    parse_tournament_post_key,
)
from bot.service import context, routes
from bot.service.actions import (
    ANSWERS,
    TURN_ACTIONS,
    Action,
    Button,
    GameTarget,
    On,
    Practice,
    Style,
    Takes,
    Target,
    TournamentTarget,
    parse_arg,
    play_arg,
    split_play,
)
from bot.service.cache import MAX_GAME_ID, GameCache
from bot.service.compete.front import Compete
from bot.service.compete.tournaments import TournamentOptions
from bot.service.context import Context, Shuffle
from bot.service.correspond.front import Correspond
from bot.service.endings import Endings
from bot.service.guard import entry
from bot.service.jobs import JobWorker, QueuedThinker
from bot.service.learn.front import Learn
from bot.service.learn.practice import Practising
from bot.service.outbox import Kind, Outbox
from bot.service.play.community import catalogue
from bot.service.play.directory import MoveChoices
from bot.service.play.front import Play
from bot.service.play.seat_board import SeatBoard
from bot.service.present import Pictures
from bot.service.review.activity import NOT_HERE as ACTIVITY_NOT_HERE
from bot.service.review.activity import Entered, Gathering, Instance
from bot.service.review.analysis import KIND as ANALYSIS
from bot.service.review.front import Review
from bot.service.review.replays import REPLAY_MAX_BYTES
from bot.service.review.reviews import Progress
from bot.service.review.site import (
    BUSY,
    NOT_FOUND,
    RECORD_KINDS,
    WebBoard,
    WebGame,
    WebGuild,
    WebListed,
    WebPlayer,
    WebPly,
    WebRank,
    WebRated,
    WebUpdate,
)
from bot.service.routes import ACTIONS, ActionSpec, button_words, target_of
from bot.service.thinking import InlineThinker, ProcessThinker, StepClock, Thinker
from bot.service.values import (
    AI_DEFAULT_LEVEL,
    AI_LEVELS,
    ALT_LIMIT,
    HOST_ID,
    INTERACTION_ONLY,
    LOBBY_EVENTS,
    PRACTICE_EVENTS,
    TURN_EVENTS,
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
from engines.core import Text

log = logging.getLogger("banmen.service")

__all__ = [
    "ACTIONS",
    "ACTIVITY_NOT_HERE",
    "AI_DEFAULT_LEVEL",
    "AI_LEVELS",
    "ALT_LIMIT",
    "ANSWERS",
    "BUSY",
    "HOST_ID",
    "INTERACTION_ONLY",
    "LOBBY_EVENTS",
    "MAX_GAME_ID",
    "MAX_RECORD_BYTES",
    "NOT_FOUND",
    "PRACTICE_EVENTS",
    "RECORD_KINDS",
    "REPLAY_MAX_BYTES",
    "TURN_ACTIONS",
    "TURN_EVENTS",
    "Action",
    "ActionSpec",
    "Button",
    "Entered",
    "Event",
    "File",
    "GameInfo",
    "GameService",
    "GameTarget",
    "Gathering",
    "GuildSettings",
    "InlineThinker",
    "Instance",
    "JobWorker",
    "Kind",
    "Lang",
    "Line",
    "Location",
    "MoveChoices",
    "On",
    "OptionInfo",
    "Page",
    "Practice",
    "Press",
    "ProcessThinker",
    "Progress",
    "QueuedThinker",
    "Refusal",
    "Reply",
    "RulesPage",
    "Scope",
    "SeatBoard",
    "Shuffle",
    "StepClock",
    "StoreUnreachable",
    "Style",
    "Takes",
    "Target",
    "Text",
    "Thinker",
    "TournamentOptions",
    "TournamentTarget",
    "User",
    "WebBoard",
    "WebGame",
    "WebGuild",
    "WebListed",
    "WebPlayer",
    "WebPly",
    "WebRank",
    "WebRated",
    "WebUpdate",
    "button_words",
    "catalogue",
    "delivery_mark",
    "parse_arg",
    "parse_outbox_key",
    "parse_tournament_post_key",
    "play_arg",
    "split_play",
    "target_of",
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


LOGIN_MARGIN_MS = 500
"""Logins are spaced this much more than the interval Discord asks (or a tenth of it, if
more): 5.5 s for Discord's 5."""
REST_BURST_MS = 200
"""How far ahead of the shared REST budget's rate an urgent request may run: at 30 a second,
6 requests; so any second's slots are at most 30 + 6 + 1 = 37 of Discord's 50 (the rest for
requests that reach Discord bunched, late after their slots: docs/operations.md)."""


class GameService:
    """The root of the service: its five capabilities' fronts, wired, and what runs across
    them (start-up, the timers, the outbox). One instance per process; see docs/service.md."""

    play: Play
    review: Review
    learn: Learn
    correspond: Correspond
    compete: Compete

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
        thinker = thinker or InlineThinker()
        away = None
        if settings.job_queue and settings.job_key:  # heavy work to the workers (issue 49)
            thinker = QueuedThinker(store, thinker, settings.job_key)
            away = thinker.draw if settings.site_process else None  # the site's pictures too
        pictures = Pictures(render_images, away)
        ctx = Context(store, self.clock, settings, games, pictures, shuffle)
        self.ctx = ctx
        endings = Endings(ctx)
        self.play = Play(ctx, endings, thinker)
        self.review = Review(ctx, self.play, thinker)
        self.learn = Learn(ctx, self.play, thinker, mistakes=self.review.reviews)
        self.correspond = Correspond(ctx, self.play, self.play.timers.changed)
        self.compete = Compete(ctx, self.play, endings)
        self.play.wire(replies=self.correspond.premoves, link=self.review.linked)
        self.outbox = Outbox(ctx)  # the games' kind, and each capability's own:
        self._following: Callable[[], Awaitable[None]] | None = None
        self._rereads: set[asyncio.Task[None]] = set()
        self.outbox.register(self.compete.tournaments.posts)
        self.outbox.register(self.learn.daily_posts)
        self.outbox.register(self.correspond.digests)

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
        await self.correspond.restore()  # stopped clocks are no deadlines to the timers
        await self.play.restore()
        await self.compete.restore()

    async def follow_other_processes(self) -> None:
        """Learn of the changes other processes commit (PostgreSQL's notifications; nothing on
        SQLite, where one process runs): a game of this process's shards changed elsewhere (a
        move clicked on a site process) is read again, its clocks and its computer's turn follow
        it, and the delivery loop looks at once for what it announced (not at the next rescan).
        A copy of another process's game is dropped (the next command reads it afresh)."""
        if self._following is None:
            self._following = await self.ctx.store.listen_games(
                self._changed_elsewhere, self._hearing_again
            )

    def _changed_elsewhere(
        self, game_id: int, version: int, guild_id: str | None, shown: bool = True
    ) -> None:
        cached = self.ctx.games.cached(game_id)
        if cached is not None and cached.row.version >= version:
            return  # committed here (or read since)
        if not self.owns(guild_id):
            self.ctx.games.forget(game_id)
            return
        self._follow_up(self._reread(game_id, version))

    def _hearing_again(self, hearing: bool) -> None:
        """The notifications were lost (``False``) or are heard again (``True``): once they
        are, the games in memory are checked against the store, since what other processes
        committed meanwhile went untold."""
        if hearing:
            self._follow_up(self._catch_up())

    def _follow_up(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` (a read a notification asked for) as a task of its own, kept until
        it ends and cancelled when the service closes."""
        task = asyncio.create_task(work, name="banmen-follow-up")
        self._rereads.add(task)
        task.add_done_callback(self._rereads.discard)

    async def _catch_up(self) -> None:
        games = self.ctx.games
        try:
            versions = await self.ctx.store.game_versions(games.held_ids())
        except StoreUnreachable as exc:  # the next command reads what it needs
            log.warning("could not check the games in memory: %s", exc)
            return
        for game_id, version in versions.items():
            held = games.cached(game_id)
            if held is not None:
                self._changed_elsewhere(game_id, version, held.row.guild_id)

    async def _reread(self, game_id: int, version: int) -> None:
        try:
            await self.ctx.games.refresh(game_id, version)
        except Refusal:  # gone, or no longer replays: nothing of it to follow
            pass
        except StoreUnreachable as exc:  # the rescan or the next command reads it
            log.warning("could not read game %s changed elsewhere: %s", game_id, exc)
        finally:
            self.timer_changed.set()

    async def close(self) -> None:
        if self._following is not None:
            await self._following()
            self._following = None
        for task in list(self._rereads):
            task.cancel()
        await self.review.site.stop()
        await self.play.computer.thinker.close()
        await self.ctx.store.close()

    @property
    def settings(self) -> Settings:
        return self.ctx.settings

    def owns(self, guild_id: str | None) -> bool:
        """Does this process deliver for ``guild_id`` (its shards hold the guild)? The timers
        keep only such games; the outbox hands out only their announcements."""
        return self.ctx.settings.owns(guild_id)

    async def act(self, action: Action, press: Press) -> Reply | Sequence[Reply]:
        """Run what a button offers (see :data:`~bot.service.routes.ACTIONS`)."""
        return await routes.run(self, action, press)

    # -- the practice board: a lesson, a puzzle, a retry (learn) or an analysis (review) ------
    @entry
    async def practice_of(self, user_id: str) -> str | None:
        """What the user has open on their practice board, or ``None``: where a move,
        ``/legal`` or ``/hint`` that names no game and is not in a game's thread goes (the one
        routing rule; adapters ask here)."""
        return await self.learn.practice_of(user_id)

    def practice_board(self, kind: str) -> Practising:
        """The use cases of the practice board of ``kind`` (what :meth:`practice_of` said)."""
        if kind == ANALYSIS:
            return self.review.analysis
        return self.learn.practice_board(kind)

    @staticmethod
    def catalogue() -> tuple[GameInfo, ...]:
        return catalogue()

    async def warm_up_pictures(self) -> None:
        """Build every game's picture caches in a worker thread (so no first move waits)."""
        await asyncio.to_thread(Pictures.warm_up)

    # -- clocks: the games' deadlines, vacations' ends --------------------------------------
    @property
    def timer_changed(self) -> asyncio.Event:
        """Set whenever the next due time may have moved."""
        return self.play.timers.changed

    def next_timer_at(self) -> datetime | None:
        return self.correspond.next_at(self.play.timers.next_at())

    async def process_due(self, now: datetime | None = None) -> list[Reply]:
        # the vacations first: a clock that runs again runs from the moment it was due to
        back = await self.correspond.vacations.process_due(now)
        return back + await self.play.timers.process_due(now)  # (the digests: the outbox's)

    # -- the outbox: everything posted later (announcements, tournament and daily posts) ------
    async def pending_announcements(self, kind: Kind | None = None) -> list[Reply]:
        """What nobody delivered yet (after a crash, a failed send; a daily post fallen due),
        of every kind or of ``kind`` (:class:`~bot.service.outbox.Kind`), oldest first;
        report each with :meth:`announced` or :meth:`announcement_failed`."""
        return await self.outbox.pending(kind=kind)

    async def pending_of_game(self, game_id: int, limit: int = 4) -> list[Reply]:
        """The game's announcements nobody delivered yet, oldest first, those waiting for a
        retry too: for an adapter that reaches the game's place only when somebody acts
        there (issue 48); report each with :meth:`announced` or :meth:`announcement_failed`."""
        return await self.outbox.pending_of_game(game_id, limit)

    async def next_announcement_at(self) -> datetime | None:
        at = await self.outbox.next_at_ms()
        return None if at is None else from_ms(at)

    async def login_turn(self, bucket: int, now_ms: int) -> float:
        """Seconds to wait before a shard of login bucket ``bucket`` may log in to Discord
        (0: its turn is taken now, for :attr:`Settings.identify_interval`), across every
        process on this store. ``now_ms`` is the wall clock: Discord's limit is real time."""
        if self.settings.identify_interval <= 0:
            return 0.0
        # Discord times a login when it arrives; a turn is taken a moment before it is sent,
        # and a busy process sends later: turns are spaced a little more than Discord asks
        asked = int(self.settings.identify_interval * 1000)
        interval = asked + max(LOGIN_MARGIN_MS, asked // 10)
        return await self.ctx.store.take_login_turn(bucket, now_ms, interval) / 1000

    async def rest_slot(self, now_ms: int, urgent: bool = True) -> float:
        """Seconds to wait before one request to Discord may be sent (0: its slot is taken
        now), across every process on this store (issue 49: Discord's global limit is the
        bot's, not a process's). An urgent request (a move's card, an answer) may run up to
        :data:`REST_BURST_MS` ahead of the budget's rate; a non-urgent one (a digest, a
        reminder, a tournament's post) only where the budget is idle, so it yields to moves."""
        rate = self.settings.rest_per_second
        if rate <= 0:
            return 0.0
        interval = max(1, int(1000 / rate))
        ahead = REST_BURST_MS if urgent else 0
        return await self.ctx.store.take_rest_slot(now_ms, interval, ahead) / 1000

    async def announced(self, *keys: str) -> None:
        """The replies whose ``outbox`` are ``keys`` were posted (whatever their kinds; a
        delivery loop reports its batch in one call)."""
        await self.outbox.delivered(keys)

    async def announcement_failed(self, key: str) -> None:
        """Posting it failed: it is handed out again later."""
        await self.outbox.failed(key)
        self.timer_changed.set()  # the delivery loop recomputes when to look again
