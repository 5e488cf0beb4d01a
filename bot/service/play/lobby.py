"""Lobbies and challenges: creating a game, joining, leaving, starting, withdrawing.

A lobby has open seats anyone may take. A challenge keeps an open seat for each invited user
(``SeatRow.invited_id``) until ``expires_ms``: only that user may take it (accept) or decline it,
and the timers withdraw it when it lapses. The game starts the moment its last seat is taken.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any, Literal, TypedDict, Unpack

from bot import i18n
from bot.clock import UNITS, ClockError, ClockSpec, parse_clock
from bot.i18n import clean_text
from bot.model import Change, GameStatus, Limits, MoveRow, NewGame, SeatKind, SeatRow, Update
from bot.service import present
from bot.service.cache import Loaded
from bot.service.context import Context
from bot.service.endings import Endings
from bot.service.play.timers import banks, clock_of, deadline
from bot.service.values import AI_LEVELS, HOST_ID, Event, Refusal, Reply, User, ai_name
from bot.store import ConflictError, LimitError
from engines.core import CHANCE, EngineError, Game, State, Text, chance_pick
from engines.registry import get_game


def resolve_chance(
    state: State[Any], seed: str | Callable[[int], str], start: int, now: int, secret: bool = False
) -> tuple[State[Any], list[MoveRow]]:
    """Play every chance step due at ``state`` (outcomes picked from the game's seed, or from
    ``seed(ply)``: :meth:`GameRow.seed_at`); the log rows they add, numbered from ``start``."""
    rows: list[MoveRow] = []
    while state.current_player() == CHANCE:
        move = chance_pick(state, seed if isinstance(seed, str) else seed(state.ply), state.ply)
        rows.append(MoveRow(start + len(rows), CHANCE, state.format_move(move), None, secret, now))
        state = state.apply(move)
    return state, rows


Seating = Literal["random", "listed"]
"""How the people named when a game is made sit: drawn at random, or in the order listed
(creator, ``seated``, ``invite``, host seats)."""


class CreateOptions(TypedDict, total=False):
    """How to create a game (every key optional); see :meth:`Lobby.create`."""

    guild_id: str | None
    channel_id: str | None
    invite: Sequence[User]
    seated: Sequence[User]
    open_seats: int
    host_seats: int
    ai: Sequence[int]
    players: int | None
    options: Mapping[str, str] | None
    clock: str | ClockSpec | None
    creator_plays: bool
    seed: str | None
    daily_day: str | None
    rated: bool | None
    seating: Seating | None


class Lobby:
    def __init__(self, ctx: Context, endings: Endings) -> None:
        self.ctx = ctx
        self.endings = endings

    async def limits(self, users: Sequence[User], guild_id: str | None, new: bool) -> Limits:
        """The limits a change seating ``users`` (and, if ``new``, adding a game in the server)
        must respect; the store checks them in the change's own transaction."""
        gs = await self.ctx.guild(guild_id)
        return Limits(
            per_user=gs.max_active_per_user or self.ctx.settings.max_active_per_user,
            users=tuple(u.id for u in users if u.id != HOST_ID),
            per_guild=gs.max_active_per_guild or self.ctx.settings.max_active_per_guild,
            guild_id=guild_id if new else None,
        )

    async def create(self, creator: User, game_type: str, **how: Unpack[CreateOptions]) -> Reply:
        """Create a game. ``invite``: users challenged (each gets a seat kept for them);
        ``seated``: users seated at once (imports, tests); ``open_seats``: seats anyone may take;
        ``ai``: the level (1-8) of each computer player seated (such a game is never rated).
        ``rated``: None (default) rates a game of two or more humans; False makes it casual.
        The game starts at once when every seat is filled.

        ``seating``: ``"random"`` draws who sits where (so who moves first) with the context's
        shuffle, ``"listed"`` keeps the order given (a rematch's rotation). By default a game
        made full with ``seated`` users keeps their order and every other game is drawn; people
        who join a lobby later take one of its free seats at random."""
        guild_id = how.get("guild_id")
        invite = list(how.get("invite", ()))
        seated = list(how.get("seated", ()))
        open_seats = how.get("open_seats", 0)
        host_seats = how.get("host_seats", 0)
        ai = list(how.get("ai", ()))
        players = how.get("players")
        clock = how.get("clock")
        seed = how.get("seed")
        try:
            game = get_game(game_type)
        except EngineError as exc:
            raise Refusal("refuse.unknown_game_type", reason=exc.text) from exc
        bad_level = next((lv for lv in ai if lv not in AI_LEVELS), None)
        if bad_level is not None:
            raise Refusal("refuse.bad_level", level=bad_level, low=AI_LEVELS[0], high=AI_LEVELS[-1])
        if ai and max(game.player_counts) == 1:
            raise Refusal("refuse.no_ai_solo", game=present.title(game))
        host_seats += len(ai)
        humans = ([creator] if how.get("creator_plays", True) else []) + seated
        ids = [u.id for u in humans + invite]
        if len(set(ids)) != len(ids):
            raise Refusal("refuse.same_player_twice")
        n = players if players is not None else len(ids) + open_seats + host_seats
        if players is None and n not in game.player_counts and n < game.player_counts[0]:
            n = game.player_counts[0]
        try:
            n = game.check_players(n)
            resolved = game.resolve_options(how.get("options"))
        except EngineError as exc:
            raise Refusal("refuse.bad_option", reason=exc.text) from exc
        if len(ids) + host_seats > n:
            raise Refusal("refuse.too_many_players", game=present.title(game), players=n)
        # Rated is the default for games between humans; a computer seat or a solitaire cannot be.
        ratable = n >= 2 and host_seats == 0
        rated = how.get("rated")
        if rated and not ratable:
            raise Refusal("refuse.cannot_rate", game=present.title(game))
        if clock is None and guild_id is not None:
            clock = (await self.ctx.guild(guild_id)).clock
        try:
            spec = clock if isinstance(clock, ClockSpec) else parse_clock(clock)
        except ClockError as exc:
            raise clock_refusal(exc) from exc
        seats: list[SeatRow] = []
        for u in humans:
            seats.append(SeatRow(len(seats), SeatKind.HUMAN, u.id, u.name))
        for u in invite:
            seats.append(SeatRow(len(seats), SeatKind.OPEN, invited_id=u.id))
        for _ in range(host_seats - len(ai)):
            seats.append(SeatRow(len(seats), SeatKind.HOST, None, "Banmen"))
        for lv in ai:
            seats.append(SeatRow(len(seats), SeatKind.HOST, None, ai_name(lv), ai_level=lv))
        while len(seats) < n:
            seats.append(SeatRow(len(seats), SeatKind.OPEN))
        seating = how.get("seating") or (
            "listed" if seated and len(seats) == len(ids) else "random"
        )
        if seating == "random":
            self.ctx.shuffle(seats)
            seats = [replace(s, seat=i) for i, s in enumerate(seats)]
        new = NewGame(
            game_type=game.id,
            players=n,
            options=resolved,
            creator_id=creator.id,
            seats=tuple(seats),
            guild_id=guild_id,
            channel_id=how.get("channel_id"),
            clock=spec.text(),
            reminders=spec.reminders,
            daily_day=how.get("daily_day"),
            rated=ratable if rated is None else rated,
        )
        if seed is not None:  # a seed given: the daily deal's (the same for everyone), a test's
            new = replace(new, seed=seed)
        key = "challenge.created" if invite else "game.created"
        return await self.open_game(new, creator, humans, invite, key)

    async def open_game(
        self,
        new: NewGame,
        creator: User,
        humans: Sequence[User],
        invite: Sequence[User],
        key: str,
        **params: Any,
    ) -> Reply:
        """Store ``new`` (its seats as planned: ``humans`` seated, a seat kept for each of
        ``invite``) and say so: a lobby or challenge (``key``), or the start when it is full."""
        for u in {u.id: u for u in [creator, *humans, *invite]}.values():
            await self.ctx.remember_user(u)
        spec = parse_clock(new.clock)
        # names as the store keeps them (a created game's first message is made from these)
        seats = [replace(s, name=clean_text(s.name)) if s.name else s for s in new.seats]
        if spec.kind == "bank":
            seats = [replace(s, bank_ms=spec.bank * 1000) for s in seats]
        now = self.ctx.now_ms()
        ttl = self.ctx.settings.challenge_ttl
        new = replace(
            new,
            created_ms=now,
            seats=tuple(seats),
            # a tournament's round is owed to its players: no limit holds it back
            limits=None if new.tournament else await self.limits(humans, new.guild_id, new=True),
            expires_ms=now + ttl * 1000 if invite and ttl > 0 else None,
        )
        game = get_game(new.game_type)
        full = all(s.kind is not SeatKind.OPEN for s in seats)
        if full:
            new = self._started(new, game, now)
        try:
            # a game full at once: its first message goes to the outbox with it
            loaded, first = await self.ctx.games.create(
                new, (lambda loaded: [started(loaded)]) if full else None, now
            )
        except ConflictError as exc:
            if new.tournament is not None:  # the board has its game already: the caller's
                raise
            raise Refusal("refuse.daily_done") from exc
        except LimitError as exc:
            raise limit_refusal(exc, humans) from exc
        if full:
            (reply,) = first
            return await self.ctx.pictures.on(reply, loaded, None)
        return present.reply(
            loaded,
            Event.CREATED,
            key,
            params={
                "open": _open_count(loaded),
                "invited": _invited_names(invite),
                **params,
            },
            notify=tuple(u.id for u in invite),
            lines=present.ai_lines(loaded),
        )

    def _started(self, new: NewGame, game: Game[Any], now: int) -> NewGame:
        """``new`` as a running game: chance steps at the start resolved, the clock started."""
        state, rows = resolve_chance(game.new_game(new.players, new.options), new.seed, 0, now)
        clock = parse_clock(new.clock)
        return replace(
            new,
            status=GameStatus.ACTIVE,
            started_ms=now,
            turn_started_ms=now,
            deadline_ms=deadline(clock, state, now, banks(new.seats)),
            expires_ms=None,
            entries=tuple(rows),
        )

    async def join(self, game_id: int, user: User) -> Reply:
        """Take a free seat (a seat kept for ``user`` first); the last seat starts the game."""
        async with self.ctx.games.lock(game_id):
            loaded = await self.ctx.games.load(game_id)
            row = loaded.row
            if row.status is not GameStatus.OPEN:
                raise Refusal("refuse.already_started", id=game_id)
            if loaded.seats_of(user.id):
                raise Refusal("refuse.already_joined", id=game_id)
            if row.expires_ms is not None and self.ctx.now_ms() >= row.expires_ms:
                return await self.endings.withdraw(loaded, "challenge.expired")
            open_seats = [s for s in row.seats if s.kind is SeatKind.OPEN]
            kept = [s for s in open_seats if s.invited_id == user.id]
            free = kept or [s for s in open_seats if s.invited_id is None]
            if not kept:
                self.ctx.shuffle(free)  # someone joining a lobby sits at a free seat drawn
            if not free:
                if open_seats:
                    raise Refusal("refuse.not_invited", id=game_id)
                raise Refusal("refuse.game_full", id=game_id)
            await self.ctx.remember_user(user)
            seat = replace(free[0], kind=SeatKind.HUMAN, user_id=user.id, name=user.name)
            limits = await self.limits([user], row.guild_id, new=False)
            try:
                if len(open_seats) == 1:
                    return await self._start(loaded, (seat,), limits)
                change = Change(game_id, row.version, seats=(seat,), limits=limits)
                loaded = await self.ctx.games.commit(loaded, change)
            except LimitError as exc:
                raise limit_refusal(exc, [user]) from exc
            return present.reply(
                loaded,
                Event.JOINED,
                "game.joined",
                params={"name": user.name, "open": _open_count(loaded)},
                lines=present.ai_lines(loaded),
            )

    async def _start(
        self, loaded: Loaded, seats: tuple[SeatRow, ...], limits: Limits | None = None
    ) -> Reply:
        now = self.ctx.now_ms()
        state, rows = resolve_chance(loaded.state, loaded.row.seed_at, len(loaded.entries), now)
        merged = list(loaded.row.seats)
        for s in seats:
            merged[s.seat] = s
        update = Update(
            status=GameStatus.ACTIVE,
            started_ms=now,
            turn_started_ms=now,
            expires_ms=None,
            deadline_ms=deadline(clock_of(loaded.row), state, now, banks(merged)),
        )
        change = Change(
            loaded.id,
            loaded.row.version,
            append=tuple(rows),
            update=update,
            seats=seats,
            limits=limits,
        )
        # the start (its first ping) is announced through the outbox, like a move
        return await self.ctx.announce(loaded, change, lambda new: [started(new)], state)

    async def start(self, game_id: int, user: User) -> Reply:
        """Start a game whose seats are all taken (normally automatic)."""
        async with self.ctx.games.lock(game_id):
            loaded = await self.ctx.games.load(game_id)
            if loaded.status is not GameStatus.OPEN:
                raise Refusal("refuse.already_started", id=game_id)
            if _open_count(loaded):
                raise Refusal("refuse.not_full", id=game_id, open=_open_count(loaded))
            return await self._start(loaded, ())

    async def leave(self, game_id: int, user: User) -> Reply:
        """Leave a game that has not started (a running game is resigned instead)."""
        async with self.ctx.games.lock(game_id):
            loaded = await self.ctx.games.load(game_id)
            if loaded.status is not GameStatus.OPEN:
                raise Refusal("refuse.already_started", id=game_id)
            seats = loaded.seats_of(user.id)
            if not seats:
                raise Refusal("refuse.not_a_player", id=game_id)
            if user.id == loaded.row.creator_id:
                raise Refusal("refuse.creator_leaves", id=game_id)
            freed = tuple(
                SeatRow(
                    s,
                    SeatKind.OPEN,
                    None,
                    None,
                    loaded.row.seats[s].bank_ms,
                    loaded.row.seats[s].invited_id,
                )
                for s in seats
            )
            loaded = await self.ctx.games.commit(
                loaded, Change(game_id, loaded.row.version, seats=freed)
            )
            return present.reply(loaded, Event.LEFT, "game.left", params={"name": user.name})

    async def cancel(self, game_id: int, user: User) -> Reply:
        """The creator withdraws a game that has not started."""
        async with self.ctx.games.lock(game_id):
            loaded = await self.ctx.games.load(game_id)
            if loaded.status is not GameStatus.OPEN:
                raise Refusal("refuse.already_started", id=game_id)
            if user.id != loaded.row.creator_id:
                raise Refusal("refuse.not_creator", id=game_id)
            return await self.endings.withdraw(loaded, "game.cancelled")

    async def decline(self, game_id: int, user: User) -> Reply:
        """An invited user declines the challenge: it is withdrawn for everyone."""
        async with self.ctx.games.lock(game_id):
            loaded = await self.ctx.games.load(game_id)
            if loaded.status is not GameStatus.OPEN:
                raise Refusal("refuse.already_started", id=game_id)
            if not any(s.invited_id == user.id for s in loaded.row.seats):
                raise Refusal("refuse.not_invited", id=game_id)
            return await self.endings.withdraw(loaded, "challenge.declined", name=user.name)


def started(loaded: Loaded) -> Reply:
    """The message of a game that has just started (the spectator's picture goes with it)."""
    start = loaded.game.new_game(loaded.row.players, loaded.row.options)
    return present.reply(
        loaded,
        Event.STARTED,
        "game.started",
        params={"players": present.seat_list(loaded)},
        picture=True,
        lines=present.chance_lines(start, loaded.entries) + present.end_lines(loaded),
    )


CLOCK_PARTS = {
    "live": i18n.text("clock.part.live"),
    "corr": i18n.text("clock.part.corr"),
    "bank": i18n.text("clock.part.bank"),
    "bonus": i18n.text("clock.part.bonus"),
    "cap": i18n.text("clock.part.cap"),
}


def clock_refusal(error: ClockError) -> Refusal:
    """What was wrong with a clock: the part out of range and its range, or how to write one."""
    if error.part is None or error.bounds is None:
        return Refusal("refuse.bad_clock")
    low, high = (duration_text(s) for s in error.bounds)
    shown = i18n.text("clock.range", low=low, high=high)
    return Refusal("refuse.clock_range", part=CLOCK_PARTS[error.part], range=shown)


def duration_text(seconds: int) -> Text:
    """``3600``: "1 hour" (1時間), in the largest unit that divides it."""
    unit, name = next((u, name) for u, name in UNITS if seconds % u == 0)
    return i18n.text(f"clock.unit.{name}", n=seconds // unit)


def limit_refusal(error: LimitError, users: Sequence[User]) -> Refusal:
    if error.user_id is None:
        return Refusal("refuse.limit_guild", limit=error.limit)
    name = next((u.name for u in users if u.id == error.user_id), error.user_id)
    return Refusal("refuse.limit_user", name=name, limit=error.limit)


def _open_count(loaded: Loaded) -> int:
    return sum(s.kind is SeatKind.OPEN for s in loaded.row.seats)


def _invited_names(users: Sequence[User]) -> str:
    return ", ".join(u.name for u in users)
