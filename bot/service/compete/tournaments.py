"""Tournaments in a server: sign-up, rounds of normal games, standings (docs/tournaments.md).

A tournament is made by a manager (the adapter says who is one: Discord's manage-server
permission or the manager role of ``/settings``) with a rule set, a format
(:class:`bot.tournament.Format`), a clock, a number of rounds and a field size. Players join
and leave while it signs up; it starts by a manager's start or at its sign-up deadline. Each
round is paired by :mod:`bot.tournament` and its boards written in one conditional write
(:meth:`Store.start_round`: of two managers starting at once, or two processes pairing the
same round, one does it); each board's game is then made through the same path as ``/play``
(:meth:`Lobby.open_game`), and written with its board (:meth:`Store.create_game` claims the
board in the game's own transaction), so no board gets two games.

Nothing here needs to happen at a precise moment: :meth:`Tournaments.advance` looks at what is
stored (games ended, boards without their game, a round complete) and does what is missing, so
after a crash, a restart or on another process, the next call finds the tournament where it was.
Every committed game that ends marks its tournament to advance (:meth:`Tournaments.settle`,
called by the adapters' drivers as they do for the computer player's turns); at start-up every
running tournament is looked at once.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.clock import ClockError, parse_clock
from bot.i18n import clean_text
from bot.model import (
    BoardResult,
    BoardRow,
    EntrantRow,
    GameRow,
    GameStatus,
    NewGame,
    NewTournament,
    SeatKind,
    SeatRow,
    TournamentRow,
    TournamentSlot,
    TournamentStatus,
)
from bot.service import present
from bot.service.compete.posts import TournamentPosts
from bot.service.compete.replies import (
    FORMAT_NAMES,
    TournamentReplies,
    about,
    ai_entrant,
    ai_level,
    played,
)
from bot.service.context import Context
from bot.service.endings import Endings
from bot.service.play.lobby import Lobby, clock_refusal
from bot.service.values import AI_LEVELS, Event, Refusal, Reply, User, ai_name
from bot.store import ConflictError
from bot.tournament import (
    Format,
    berger,
    pair_round,
    placement_points,
    standings,
)
from engines.core import EngineError, Game, Termination
from engines.registry import get_game

log = logging.getLogger(__name__)

SIGNUP_ENDED = "round0"
"""The post that says a sign-up deadline started the tournament: the sign-up as round 0, so
that pending posts written in the same millisecond (ordered by time, then name) give it
before round 1's."""

TWO_PLAYER_TABLE = "sangokushi-2p"
"""What a table of two plays in a tournament of three-player tables."""
ROUNDS = range(1, 21)
"""How many rounds a Swiss or tables tournament may have."""
DEFAULT_ROUNDS = {Format.SWISS: 5, Format.TABLES: 4}
PLAYERS = range(2, 257)
"""How many players a tournament may take."""
ROUND_ROBIN_MAX = 32
"""A round-robin of more would last too long."""
DEFAULT_MAX_PLAYERS = 32
SIGNUP_HOURS = range(0, 24 * 30 + 1)
BYE_POINTS = {
    Format.ROUND_ROBIN: 0.0,  # everyone sits out once: nobody gains from it
    Format.DOUBLE_ROUND_ROBIN: 0.0,
    Format.SWISS: 1.0,
    Format.TABLES: 1.0,
}
NAME_LENGTH = 60


@dataclass(frozen=True, slots=True)
class TournamentOptions:
    """How to create a tournament (see :meth:`Tournaments.create`)."""

    game_type: str
    format: str
    name: str | None = None
    options: Mapping[str, str] | None = None
    clock: str | None = None
    rated: bool = True
    rounds: int | None = None
    max_players: int | None = None
    signup_hours: int | None = None
    join: bool = True
    """The creator plays in it."""


def result_of(row: GameRow) -> BoardResult | None:
    """A board's result from its ended game (None while it goes on): placement points; an
    aborted game (a moderator's abort, nobody moved in time) scores nothing for anyone."""
    if row.status is GameStatus.ABORTED or row.status is GameStatus.CANCELLED:
        return BoardResult((0.0,) * row.players, (row.players,) * row.players, True)
    if row.status is not GameStatus.FINISHED or row.result is None:
        return None
    if row.result.termination == Termination.ABORTED.value:
        return BoardResult((0.0,) * row.players, (row.players,) * row.players, True)
    ranks = tuple(row.result.ranks)
    return BoardResult(placement_points(ranks), ranks)


def forfeit(ranks: tuple[int, ...]) -> BoardResult:
    """A board decided without play: the players still in (rank 1) share its point."""
    points = placement_points(ranks) if 1 in ranks else (0.0,) * len(ranks)
    return BoardResult(points, ranks, True)


def rounds_in_all(t: TournamentRow, everyone: Sequence[str]) -> int | None:
    """How many rounds ``t`` has once it starts with ``everyone``: a round-robin's from its
    field, the others' as they were made."""
    fmt = Format(t.new.format)
    if fmt.is_round_robin:
        return len(berger(everyone, fmt is Format.DOUBLE_ROUND_ROBIN))
    return t.new.rounds


class Tournaments:
    def __init__(self, ctx: Context, lobby: Lobby, endings: Endings) -> None:
        self.ctx = ctx
        self.lobby = lobby
        self.endings = endings
        self.changed = asyncio.Event()
        """Set when a tournament may have something to do (a driver calls :meth:`settle`)."""
        self._ended: set[int] = set()
        """Games that ended since the last settle (each may be a tournament's board)."""
        self._due: set[int] = set()
        self._locks: dict[int, asyncio.Lock] = {}
        self.replies = TournamentReplies(ctx)
        self.posts = TournamentPosts(ctx, self.replies)
        ctx.games.listen(self._committed)

    def _committed(self, row: GameRow) -> None:
        if not row.status.is_live:
            self._ended.add(row.id)
            self.changed.set()

    def _lock(self, tournament_id: int) -> asyncio.Lock:
        return self._locks.setdefault(tournament_id, asyncio.Lock())

    async def restore(self) -> None:
        """At start-up: look at every running or signing-up tournament once."""
        live = await self.ctx.store.tournaments((TournamentStatus.SIGNUP, TournamentStatus.RUNNING))
        self._due.update(t.id for t in live)
        if self._due:
            self.changed.set()

    # -- reading --------------------------------------------------------------------------
    async def _load(self, tournament_id: int) -> TournamentRow:
        return await self.replies.load(tournament_id)

    # -- creating and signing up ----------------------------------------------------------
    async def create(
        self,
        user: User,
        how: TournamentOptions,
        *,
        manager: bool,
        guild_id: str | None,
        channel_id: str | None,
    ) -> Reply:
        """A new tournament, signing up; refused (nothing written) without the permission or
        with a format that does not fit the rule set."""
        if not manager:
            raise Refusal("refuse.tournament_manager")
        try:
            game = get_game(how.game_type)
        except EngineError as exc:
            raise Refusal("refuse.unknown_game_type", reason=exc.text) from exc
        try:
            fmt = Format(how.format)
        except ValueError as exc:
            raise Refusal("refuse.tournament_format", format=how.format) from exc
        check_format(fmt, game)
        try:
            options = game.resolve_options(how.options)
        except EngineError as exc:
            raise Refusal("refuse.bad_option", reason=exc.text) from exc
        clock = how.clock
        if clock is None:
            clock = (await self.ctx.guild(guild_id)).clock
        try:
            spec = parse_clock(clock)
        except ClockError as exc:
            raise clock_refusal(exc) from exc
        rounds = how.rounds if how.rounds is not None else DEFAULT_ROUNDS.get(fmt, 0)
        if fmt.is_round_robin:
            rounds = DEFAULT_ROUNDS.get(fmt, 0)  # the field decides a round-robin's rounds
        elif rounds not in ROUNDS:
            raise Refusal("refuse.tournament_rounds", low=ROUNDS[0], high=ROUNDS[-1])
        most = PLAYERS[-1] if not fmt.is_round_robin else ROUND_ROBIN_MAX
        max_players = how.max_players if how.max_players is not None else DEFAULT_MAX_PLAYERS
        if not min_players(fmt) <= max_players <= most:
            raise Refusal("refuse.tournament_players", low=min_players(fmt), high=most)
        hours = how.signup_hours
        if hours is not None and hours not in SIGNUP_HOURS:
            raise Refusal("refuse.tournament_signup", high=SIGNUP_HOURS[-1])
        now = self.ctx.now_ms()
        name = clean_text((how.name or "").strip())[:NAME_LENGTH] or present.title(game).en
        user = User(user.id, clean_text(user.name))
        new = NewTournament(
            creator_id=user.id,
            name=name,
            game_type=game.id,
            options=dict(options),
            format=str(fmt),
            clock=spec.text(),
            rated=how.rated,
            rounds=rounds,
            max_players=max_players,
            created_ms=now,
            guild_id=guild_id,
            channel_id=channel_id,
            signup_until_ms=None if hours is None else now + hours * 3_600_000,
        )
        await self.ctx.remember_user(user)
        tournament_id = await self.ctx.store.create_tournament(new, user.name if how.join else None)
        if hours is not None:
            self.changed.set()
        return await self.replies.signup_reply(await self._load(tournament_id))

    async def join(self, tournament_id: int, user: User) -> Reply:
        """Sign up (a computer player ``@ai:N`` too: the sandbox's scripted players)."""
        t = await self._load(tournament_id)
        name = ai_entrant(user.id) if ai_level(user.id) else clean_text(user.name)
        joined = await self.ctx.store.join_tournament(t.id, user.id, name, self.ctx.now_ms())
        if joined == "closed":
            raise Refusal("refuse.tournament_closed", name=t.new.name)
        if joined == "already":
            raise Refusal("refuse.tournament_already", name=t.new.name)
        if joined == "full":
            raise Refusal("refuse.tournament_full", name=t.new.name, max=t.new.max_players)
        if ai_level(user.id) is None:  # a refused join changes nothing, not even the name
            await self.ctx.remember_user(User(user.id, name))
        return await self.replies.signup_reply(t)

    async def leave(self, tournament_id: int, user: User) -> Reply | list[Reply]:
        """Leave while it signs up; withdraw once it runs (see :meth:`withdraw`)."""
        t = await self._load(tournament_id)
        if t.status is TournamentStatus.RUNNING:
            return await self.withdraw(t, user.id, user.name)
        if t.status is not TournamentStatus.SIGNUP:
            raise Refusal("refuse.tournament_over", name=t.new.name)
        if not await self.ctx.store.leave_tournament(t.id, user.id):
            raise Refusal("refuse.tournament_not_in", name=t.new.name)
        return await self.replies.signup_reply(await self._load(t.id))

    async def remove(
        self, tournament_id: int, manager: User, target: User, *, is_manager: bool
    ) -> Reply | list[Reply]:
        """A manager takes a player out (late removal: their remaining games are forfeited)."""
        if not is_manager:
            raise Refusal("refuse.tournament_manager")
        return await self.leave(tournament_id, target)

    async def withdraw(self, t: TournamentRow, user_id: str, name: str) -> list[Reply]:
        """A player leaves a running tournament: their running game is resigned, the boards
        they have left are forfeited, the games they played stand."""
        async with self._lock(t.id):
            t = await self._load(t.id)  # the round as it is now
            if not await self.ctx.store.withdraw_entrant(t.id, user_id, t.round):
                raise Refusal("refuse.tournament_not_in", name=t.new.name)
            boards = await self.ctx.store.boards(t.id)
        out: list[Reply] = []
        for b in boards:
            if b.round == t.round and b.result is None and b.game_id and user_id in b.players:
                out += await self._resign(b.game_id, user_id)
        self._due.add(t.id)
        self.changed.set()
        out.append(
            Reply(
                "tournament.withdrawn",
                {**about(t), "player": name},
                event=Event.TOURNAMENT_ROUND,
            )
        )
        return out + await self.advance(t.id)

    async def _resign(self, game_id: int, user_id: str) -> list[Reply]:
        async with self.ctx.games.lock(game_id):
            loaded = await self.ctx.games.load(game_id)
            seats = loaded.seats_of(user_id)
            if loaded.status is not GameStatus.ACTIVE or not seats:
                return []
            return [await self.endings.resign(loaded, seats[0])]

    # -- starting and running --------------------------------------------------------------
    async def start(self, tournament_id: int, user: User, *, manager: bool) -> list[Reply]:
        """Start it now (its creator or a manager): round one is paired and its games made.
        Two pressing at once: one starts it, the other is told it has started."""
        t = await self._load(tournament_id)
        if not manager and user.id != t.new.creator_id:
            raise Refusal("refuse.tournament_manager")
        return await self._start(t)

    async def _start(self, t: TournamentRow) -> list[Reply]:
        if t.status is not TournamentStatus.SIGNUP:
            raise Refusal("refuse.tournament_started", name=t.new.name)
        entrants = await self.ctx.store.entrants(t.id)
        fmt = Format(t.new.format)
        if len(entrants) < min_players(fmt):
            raise Refusal("refuse.tournament_few", name=t.new.name, low=min_players(fmt))
        async with self._lock(t.id):
            if not await self._pair(t, entrants, [], expected=0):
                raise Refusal("refuse.tournament_started", name=t.new.name)
        started = await self._load(t.id)
        first = await self.replies.signup_reply(started, "tournament.started")
        return [first, *await self.advance(t.id)]

    async def _pair(
        self,
        t: TournamentRow,
        entrants: Sequence[EntrantRow],
        boards: Sequence[BoardRow],
        expected: int,
        post: tuple[str, Reply] | None = None,
    ) -> bool:
        """Write round ``expected + 1`` if nobody did yet (False: someone did), with the post
        (name, reply) if given, in the same transaction (the first round only: what says a
        start nobody pressed for, the sign-up deadline's)."""
        fmt = Format(t.new.format)
        everyone = [e.user_id for e in entrants]
        active = {e.user_id for e in entrants if e.withdrawn_round is None}
        results = played(boards)
        order = [s.player for s in standings(fmt, everyone, results) if s.player in active]
        round_no = expected + 1
        rng = random.Random(f"{t.new.seed}:{round_no}")
        total = rounds_in_all(t, everyone) if expected == 0 else None
        rnd = pair_round(fmt, order, results, round_no, rng, entrants=everyone)
        rows: list[BoardRow] = []
        for b in rnd.boards:
            game_type = TWO_PLAYER_TABLE if b.two_player else t.new.game_type
            gone = [p for p in b.players if p not in active]
            result = None
            if gone:  # a round-robin's board of a withdrawn player: forfeited
                result = forfeit(tuple(2 if p in gone else 1 for p in b.players))
            rows.append(BoardRow(round_no, len(rows) + 1, b.players, game_type, None, result))
        for p in rnd.byes:
            bye = BYE_POINTS[fmt] if p in active else 0.0
            rows.append(
                BoardRow(
                    round_no,
                    len(rows) + 1,
                    (p,),
                    t.new.game_type,
                    None,
                    BoardResult((bye,), (1,), True),
                )
            )
        return await self.ctx.store.start_round(
            t.id,
            expected,
            rows,
            self.ctx.now_ms(),
            total,
            post=None if post is None else (post[0], post[1].to_json()),
        )

    async def advance(self, tournament_id: int) -> list[Reply]:
        """Do whatever is due in a tournament: start it at its sign-up deadline, record the
        results of its ended games, make the games its round lacks (and announce the round),
        pair the next round once every board of this one has its result, or end it after the
        last. Safe to call at any time, any number of times, from any process."""
        out: list[Reply] = []
        async with self._lock(tournament_id):
            while True:
                t = await self._load(tournament_id)
                if t.status is TournamentStatus.SIGNUP:
                    due = t.new.signup_until_ms
                    if due is None or due > self.ctx.now_ms():
                        return out
                    started = await self._start_when_due(t)
                    out += started
                    if not started or started[0].key != "tournament.started":
                        return out
                    continue
                if t.status is not TournamentStatus.RUNNING:
                    return out
                made = await self._play_round(t)
                out += made
                boards = await self.ctx.store.boards(t.id)
                current = [b for b in boards if b.round == t.round]
                if all(b.game_id is not None or b.result is not None for b in current):
                    name = f"round{t.round}"  # every game made: the round is announced once
                    if not self.posts.known(t.id, name):
                        out += await self.posts.announce(
                            t.id, name, await self.replies.round_reply(t, current)
                        )
                if any(b.result is None for b in current):
                    return out
                entrants = await self.ctx.store.entrants(t.id)
                active = [e for e in entrants if e.withdrawn_round is None]
                fmt = Format(t.new.format)
                if t.round >= t.new.rounds or len(active) < min_players_running(fmt):
                    ended = replace(t, status=TournamentStatus.FINISHED)
                    final = await self.replies.final_reply(ended)
                    if await self.ctx.store.end_tournament(
                        t.id,
                        TournamentStatus.FINISHED,
                        t.round,
                        self.ctx.now_ms(),
                        post=("final", final.to_json()),
                    ):
                        out.append(self.posts.claimed(t.id, "final", final))
                    return out
                if not await self._pair(t, entrants, boards, t.round):
                    return out  # another process paired it: it announces it

    async def _play_round(self, t: TournamentRow) -> list[Reply]:
        """Record the current round's ended games and make the games it lacks: the games'
        first messages."""
        out: list[Reply] = []
        for b in await self.ctx.store.boards(t.id):
            if b.round != t.round or b.result is not None:
                continue
            if b.game_id is None:
                gone = {e.user_id for e in await self.ctx.store.entrants(t.id) if e.withdrawn_round}
                if gone & set(b.players):  # withdrew before its game was made: forfeited
                    ranks = tuple(2 if p in gone else 1 for p in b.players)
                    await self.ctx.store.record_board(
                        TournamentSlot(t.id, b.round, b.board), forfeit(ranks)
                    )
                    continue
                out += await self._make_game(t, b)
                continue
            result = result_of((await self.ctx.games.read(b.game_id)).row)
            if result is not None:
                await self.ctx.store.record_board(TournamentSlot(t.id, b.round, b.board), result)
        return out

    async def _start_when_due(self, t: TournamentRow) -> list[Reply]:
        """The sign-up ended: start with the players there are, or call it off without enough."""
        entrants = await self.ctx.store.entrants(t.id)
        if len(entrants) < min_players(Format(t.new.format)):
            ended = replace(t, status=TournamentStatus.CANCELLED)
            reply = await self.replies.signup_reply(ended, "tournament.cancelled")
            if await self.ctx.store.end_tournament(
                t.id,
                TournamentStatus.CANCELLED,
                0,
                self.ctx.now_ms(),
                post=("cancelled", reply.to_json()),
            ):
                return [self.posts.claimed(t.id, "cancelled", reply)]
            return []
        total = rounds_in_all(t, [e.user_id for e in entrants])
        reply = await self.replies.started_reply(t, total)
        if not await self._pair(t, entrants, [], expected=0, post=(SIGNUP_ENDED, reply)):
            return []  # another process started it: it posts that
        return [self.posts.claimed(t.id, SIGNUP_ENDED, reply)]

    async def _make_game(self, t: TournamentRow, b: BoardRow) -> list[Reply]:
        """Make board ``b``'s game (as ``/play`` makes one), unless another process just did."""
        names = {e.user_id: e.name for e in await self.ctx.store.entrants(t.id)}
        new, creator, humans = board_game(t, b, names)
        try:
            reply = await self.lobby.open_game(new, creator, humans, (), "game.created")
        except ConflictError:
            log.info("tournament %s: board %s.%s has its game already", t.id, b.round, b.board)
            return []
        # (marked: its thread opens with no post of its own; the round's post links it)
        return [replace(reply, params={**reply.params, "tournament": t.id})]

    async def signup_posted(self, tournament_id: int, message_id: str) -> None:
        """Keep where the sign-up message is (the first place reported: it is edited there)."""
        if message_id.isdigit():
            await self.ctx.store.set_tournament_message(tournament_id, message_id)

    async def standings(self, tournament_id: int) -> Reply:
        """The standings with their tie-breaks and the crosstable picture."""
        return await self.replies.standings(await self._load(tournament_id))

    async def cancel(self, tournament_id: int, user: User, *, manager: bool) -> Reply:
        """Call it off while it signs up (its creator or a manager); once it runs, players
        are taken out one by one (:meth:`remove`) or it plays to its end."""
        t = await self._load(tournament_id)
        if not manager and user.id != t.new.creator_id:
            raise Refusal("refuse.tournament_manager")
        if t.status is TournamentStatus.RUNNING:
            raise Refusal("refuse.tournament_cancel_running", name=t.new.name)
        if t.status is not TournamentStatus.SIGNUP:
            raise Refusal("refuse.tournament_over", name=t.new.name)
        ended = replace(t, status=TournamentStatus.CANCELLED)
        reply = await self.replies.signup_reply(ended, "tournament.called_off")
        reply = replace(reply, params={**reply.params, "by": clean_text(user.name)})
        if not await self.ctx.store.end_tournament(
            t.id,
            TournamentStatus.CANCELLED,
            0,
            self.ctx.now_ms(),
            post=("cancelled", reply.to_json()),
        ):  # started (or called off) a moment ago by someone else
            raise Refusal("refuse.tournament_started", name=t.new.name)
        return self.posts.claimed(t.id, "cancelled", reply)

    async def settle(self) -> list[Reply]:
        """Advance every tournament something happened to (a game of it ended, its sign-up
        deadline passed, the start-up look): the replies to announce."""
        self.changed.clear()
        ended, self._ended = self._ended, set()
        for game_id in sorted(ended):
            slot = await self.ctx.store.tournament_of_game(game_id)
            if slot is not None:
                self._due.add(slot.tournament_id)
        now = self.ctx.now_ms()
        for t in await self.ctx.store.tournaments((TournamentStatus.SIGNUP,)):
            if t.new.signup_until_ms is not None and t.new.signup_until_ms <= now:
                self._due.add(t.id)
        out: list[Reply] = []
        while self._due:
            tournament_id = min(self._due)
            self._due.discard(tournament_id)
            try:
                out += await self.advance(tournament_id)
            except Refusal as exc:  # a board's game that cannot be read: the others go on
                log.warning("tournament %s cannot advance: %s", tournament_id, exc)
        return out

    # -- what is shown ------------------------------------------------------------------------


def board_game(
    t: TournamentRow, b: BoardRow, names: Mapping[str, str]
) -> tuple[NewGame, User, list[User]]:
    """Board ``b``'s game as ``/play`` would make it: the game, who makes it, its people."""
    game = get_game(b.game_type)
    seats: list[SeatRow] = []
    humans: list[User] = []
    for seat, p in enumerate(b.players):
        level = ai_level(p)
        if level is not None and level in AI_LEVELS:
            seats.append(SeatRow(seat, SeatKind.HOST, None, ai_name(level), ai_level=level))
        else:
            seats.append(SeatRow(seat, SeatKind.HUMAN, p, names.get(p, p)))
            humans.append(User(p, names.get(p, p)))
    known = {o.name for o in game.options}
    options = game.resolve_options({k: v for k, v in t.new.options.items() if k in known})
    spec = parse_clock(t.new.clock)
    new = NewGame(
        game_type=game.id,
        players=len(seats),
        options=dict(options),
        creator_id=humans[0].id if humans else t.new.creator_id,
        seats=tuple(seats),
        guild_id=t.new.guild_id,
        channel_id=t.new.channel_id,
        clock=spec.text(),
        reminders=spec.reminders,
        rated=t.new.rated and len(humans) == len(seats) and len(seats) > 1,
        tournament=TournamentSlot(t.id, b.round, b.board),
    )
    creator = humans[0] if humans else User(t.new.creator_id, names.get(t.new.creator_id, "?"))
    return new, creator, humans


def min_players(fmt: Format) -> int:
    return 3 if fmt is Format.TABLES else 2


def min_players_running(fmt: Format) -> int:
    """Below this many players still in, a Swiss or tables event ends (a round-robin plays its
    schedule out: the withdrawn players' boards are forfeits)."""
    return 0 if fmt.is_round_robin else 2


def check_format(fmt: Format, game: Game[Any]) -> None:
    """Refuse a format the rule set cannot be played in."""
    if fmt is Format.TABLES:
        if game.id != "sangokushi":
            raise Refusal("refuse.tournament_tables", game=present.title(game))
    elif 2 not in game.player_counts:
        raise Refusal("refuse.tournament_two", game=present.title(game), format=FORMAT_NAMES[fmt])
