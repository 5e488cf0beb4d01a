"""Playing, as adapters reach it: ``service.play`` (one front over the play capability's use
cases, as lila's ``Api`` objects are one door into their module).

Lobbies and challenges (:mod:`.lobby`), rematches (:mod:`.rematch`), turns (:mod:`.turns`),
offers (:mod:`.offers`), boards and record files (:mod:`.records`), where games are
(:mod:`.directory`), statistics, settings and the daily deal (:mod:`.community`), the clocks
(:mod:`.timers`) and the computer player (:mod:`.computer`). Every method returns
presentation-neutral replies or raises :class:`~bot.service.values.Refusal` with nothing written.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from datetime import date
from typing import Any, Unpack

from bot.model import UNCHANGED, GameRow, MoveRow, OfferKind, Unchanged
from bot.service.context import Context
from bot.service.endings import Endings
from bot.service.guard import check_text, entry
from bot.service.play.community import DAILY_GAME, Community
from bot.service.play.computer import Computer, Responder
from bot.service.play.directory import Directory, MoveChoices
from bot.service.play.lobby import CreateOptions, Lobby
from bot.service.play.offers import Offers
from bot.service.play.records import Records, check_record_size
from bot.service.play.rematch import Rematches
from bot.service.play.seat_board import SeatBoard, SeatBoards
from bot.service.play.timers import Timers
from bot.service.play.turns import Turns
from bot.service.play.words import BoardWords
from bot.service.thinking import Thinker
from bot.service.values import GuildSettings, Location, Reply, User
from engines.core import State
from engines.record import Record

Link = Callable[[Reply], Awaitable[Reply]]
"""What adds a record's web page to its reply (the review capability's site, wired by the root)."""


async def _unlinked(reply: Reply) -> Reply:
    return reply


class Play:
    """The play capability's use cases (``service.play``)."""

    def __init__(self, ctx: Context, endings: Endings, thinker: Thinker) -> None:
        self.ctx = ctx
        self.timers = Timers(ctx, endings)
        self.lobby = Lobby(ctx, endings)
        self.rematches = Rematches(ctx, self.lobby)
        self.turns = Turns(ctx, self.timers, endings)
        self.offers = Offers(ctx, self.turns, endings)
        self.records = Records(ctx, self.timers)
        self.words = BoardWords(ctx, self.timers)
        self.directory = Directory(ctx)
        self.community = Community(ctx, self.lobby, self.records)
        self.computer = Computer(ctx, self.turns, thinker)
        self.seat_boards = SeatBoards(ctx, self.turns, self.timers)
        self._link: Link = _unlinked

    def wire(self, *, replies: Responder, link: Link) -> None:
        """What other capabilities lend play (the root calls this once): the replies the
        computer player's driver plays for people (conditional moves), and the site's link."""
        self.computer.premoves = replies
        self._link = link

    async def restore(self) -> None:
        await self.timers.restore()
        await self.computer.restore()

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
    async def move(self, game_id: int, user: User, text: str, *, ply: int | None = None) -> Reply:
        """Play ``text`` (any accepted spelling); ``ply``: the log length a button was made at."""
        return await self.turns.play(game_id, user, text, ply=ply)

    @entry
    async def move_from_site(
        self, game_id: int, user: User, text: str, *, ply: int | None = None
    ) -> Reply:
        """A move (or a secret setup) sent from the site's board: played as :meth:`move` (or
        :meth:`setup`) plays it, its announcements left to the delivery loop (the site posts
        nothing to Discord); the answer for the user."""
        return await self.seat_boards.play(game_id, user, text, ply)

    @entry
    async def seat_board(self, game_id: int, user: User) -> SeatBoard:
        """``user``'s board on the site: their seat's picture, its cells, their moves now."""
        return await self.seat_boards.board(game_id, user)

    @entry
    async def seat_picture(self, game_id: int, user: User) -> bytes:
        """The picture ``user``'s seat sees now (their own secret setup; nobody else's)."""
        return await self.seat_boards.picture(game_id, user)

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

    # -- the computer player -------------------------------------------------------------------
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

    # -- looking -------------------------------------------------------------------------------
    @entry
    async def board(self, game_id: int, viewer: User | None = None) -> Reply:
        return await self.records.board(game_id, viewer)

    @entry
    async def board_text(
        self,
        game_id: int,
        viewer: User | None = None,
        what: str | None = None,
        value: str | None = None,
    ) -> Reply:
        """The board in words, privately (``/board text``): all of it, or one part (``kind``,
        ``row``, ``last``, ``moves`` of a square's piece, ``clocks``); see
        :mod:`bot.service.play.words`."""
        return await self.words.board_text(game_id, viewer, what, value)

    @entry
    async def board_text_choices(
        self, game_id: int, viewer: User | None, what: str | None, lang: str = "en"
    ) -> list[str]:
        """What a ``/board text`` filter's value may be here (for autocomplete)."""
        return await self.words.choices(game_id, viewer, what, lang)

    @entry
    async def moves(self, game_id: int, viewer: User | None = None) -> Reply:
        return await self.records.moves(game_id, viewer)

    @entry
    async def record(self, game_id: int, viewer: User | None = None) -> Reply:
        """The record files, with the game's web page when the site shows it."""
        return await self._link(await self.records.record(game_id, viewer))

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
        *,
        reach: str | Unchanged | None = UNCHANGED,
    ) -> None:
        """Record where the adapter placed the game; ``reach``: how it reaches the place
        (``None`` posts, ``INTERACTION_ONLY`` through interactions alone), when it knows."""
        await self.directory.set_location(game_id, channel_id, thread_id, message_id, reach)

    # -- around the games ----------------------------------------------------------------------
    @entry
    async def stats(
        self, user: User, game_type: str | None = None, asker: User | None = None
    ) -> Reply:
        """``user``'s statistics, privately for ``asker`` (default: the user)."""
        return await self.community.stats(user, game_type, asker)

    @entry
    async def guild_settings(self, guild_id: str | None) -> GuildSettings:
        return await self.community.guild_settings(guild_id)

    @entry
    async def set_guild_setting(self, guild_id: str, key: str, value: str) -> Reply:
        saved = await self.community.set_guild_setting(guild_id, key, value)
        self.timers.changed.set()  # the delivery loop looks again (a daily post may be due)
        return saved

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
