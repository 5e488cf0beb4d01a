"""Playing: a move, a secret setup, resigning, a moderator's abort.

A move is parsed and checked by the engine, the chance steps it leads to are resolved from the
game's seed, and everything (the move, the chance outcomes, the clock, the end if it ended) is
one commit. The spectator's picture is drawn while that commit runs.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any

from bot.model import Change, GameStatus, MoveRow, RatedGame, SeatRow, Update
from bot.service import present
from bot.service.cache import Loaded
from bot.service.context import Context
from bot.service.endings import Endings, finish_update, rating_lines
from bot.service.play.lobby import resolve_chance
from bot.service.play.timers import Timers, turn_update
from bot.service.values import Event, Line, Refusal, Reply, User
from engines.core import MAX_INPUT, SIMULTANEOUS, EngineError, State

Announce = Callable[[Loaded, list[MoveRow], tuple[Line, ...]], Sequence[Reply]]
"""What a move announces, made from the new game, its chance steps and the rating lines of a
rated end (empty otherwise)."""


def check_active(loaded: Loaded) -> None:
    if loaded.status is GameStatus.OPEN:
        raise Refusal("refuse.not_started", id=loaded.id)
    if loaded.status is not GameStatus.ACTIVE:
        raise Refusal("refuse.game_over", id=loaded.id)


def seats_of(loaded: Loaded, user: User) -> list[int]:
    """The user's seats in the game; refuses someone who does not play in it."""
    seats = loaded.seats_of(user.id)
    if not seats:
        raise Refusal("refuse.not_a_player", id=loaded.id)
    return seats


def check_length(text: str) -> None:
    if len(text.strip()) > MAX_INPUT:
        raise Refusal("refuse.too_long", limit=MAX_INPUT, length=len(text.strip()))


def parse(state: State[Any], text: str, seat: int) -> Any:
    try:
        return state.parse_move(text, seat)
    except EngineError as exc:
        shown = [present.shown_move(state, s, seat) for s in exc.suggestions]
        raise Refusal("refuse.bad_move", shown, reason=exc.text) from exc


class Turns:
    def __init__(self, ctx: Context, timers: Timers, endings: Endings) -> None:
        self.ctx = ctx
        self.timers = timers
        self.endings = endings

    async def open_active(self, game_id: int, expected: int | None = None) -> Loaded:
        """The game under its lock (the caller holds it), timed out first if its time is up;
        refuses a game that is not running, or whose log is no longer ``expected`` long."""
        loaded = await self.timers.check(await self.ctx.games.load(game_id))
        check_active(loaded)
        if expected is not None and expected != len(loaded.entries):
            raise Refusal("refuse.position_changed", id=game_id)
        return loaded

    async def advance(
        self,
        loaded: Loaded,
        after: State[Any],
        row: MoveRow,
        last_move: Any,
        announce: Announce | None = None,
    ) -> tuple[Loaded, list[MoveRow], tuple[Reply, ...]]:
        """Commit ``row`` (played from ``loaded.state`` to ``after``): chance steps resolved,
        the game finished (with its rating changes) or the next turn timed, what it announces
        kept in the outbox, one transaction. ``announce`` makes the announcements from the new
        game, the chance steps and the lines of a rated end; the spectator's picture they show
        is drawn while the transaction commits."""
        now = row.at_ms
        after, chance_rows = resolve_chance(
            after, loaded.row.seed_at, row.ply + 1, now, secret=after.hides_moves()
        )
        update = Update() if loaded.row.offer is None else Update(offer=None)
        outcome = after.outcome()
        results: Sequence[Any] = ()
        seats: Sequence[SeatRow] = ()
        if outcome is not None:
            finish, results = finish_update(loaded, outcome, now)
            update |= finish
        else:
            timing, seats = turn_update(loaded.row, loaded.state, after, [row.actor], now)
            update |= timing
        change = Change(
            loaded.id,
            loaded.row.version,
            append=(row, *chance_rows),
            update=update,
            seats=tuple(seats),
            results=tuple(results),
        )
        drawing = None
        # a spectator never sees which secret move was made
        shown_last = None if row.secret else last_move
        if announce is not None:
            drawing = asyncio.ensure_future(
                self.ctx.pictures.draw(
                    loaded.id, after, None, shown_last, names=present.player_names(loaded)
                )
            )

        async def commit(
            final: Change, rated: RatedGame | None
        ) -> tuple[Loaded, tuple[Reply, ...]]:
            def made(new: Loaded) -> Sequence[Reply]:
                assert announce is not None
                return announce(new, chance_rows, rating_lines(new, rated))

            return await self.ctx.games.commit_announcing(
                loaded,
                final,
                after,
                last_move,
                announce=made if announce is not None else None,
                at_ms=now,
            )

        try:
            if outcome is not None:
                new, replies = await self.endings.commit_end(loaded, change, outcome, commit)
            else:
                new, replies = await commit(change, None)
        except BaseException:
            if drawing is not None:
                drawing.cancel()
            raise
        if drawing is not None:
            alt = present.alt_text(after, None, shown_last)
            replies = await present.with_picture(replies, drawing, alt)
        return new, chance_rows, replies

    async def play(
        self,
        game_id: int,
        user: User,
        text: str,
        *,
        ply: int | None = None,
        conditional: bool = False,
    ) -> Reply:
        """Play ``text`` for ``user``. ``ply`` is the log length the user saw (optional): a
        submission made against an older position is refused as "the position has changed".
        ``conditional``: the user's conditional move, due now (the announcement says so)."""
        check_length(text)
        if ply is None and (cached := self.ctx.games.cached(game_id)) is not None:
            ply = len(cached.entries)
        async with self.ctx.games.lock(game_id):
            loaded = await self.open_active(game_id, ply)
            seats = seats_of(loaded, user)
            state = loaded.state
            current = state.current_player()
            if current == SIMULTANEOUS:
                raise Refusal("refuse.use_setup", id=game_id)
            if current not in seats:
                raise loaded.not_your_turn()
            move = parse(state, text, current)
            after = state.apply(move, current)
            row = MoveRow(
                len(loaded.entries),
                current,
                state.format_move(move),
                user.id,
                False,
                self.ctx.now_ms(),
            )
            shown = present.display(state, move)

            def announce(
                new: Loaded, chance_rows: list[MoveRow], rated: tuple[Line, ...]
            ) -> list[Reply]:
                return [
                    present.reply(
                        new,
                        Event.MOVED,
                        "move.played",
                        params={
                            "name": new.name(current),
                            "move": shown,
                            "ply": new.move_number(row.ply),
                        },
                        picture=True,
                        lines=(Line("premove.played"),) * conditional
                        + present.announcement_lines(after)
                        + present.chance_lines(after, chance_rows)
                        + present.end_lines(new)
                        + rated,
                    )
                ]

            _, _, replies = await self.advance(loaded, after, row, move, announce)
            return replies[0]

    async def setup(
        self,
        game_id: int,
        user: User,
        text: str,
        *,
        ply: int | None = None,
        only_seat: int | None = None,
    ) -> list[Reply]:
        """A secret move (a hidden setup): nothing of it is shown to others until all are in.
        Returns the private answer for its owner and the public one for the thread.
        ``only_seat``: the seat it is for, when the user holds several (the computer player)."""
        check_length(text)
        async with self.ctx.games.lock(game_id):
            loaded = await self.open_active(game_id, ply)
            seats = [s for s in seats_of(loaded, user) if only_seat in (None, s)]
            state = loaded.state
            if state.current_player() != SIMULTANEOUS:
                raise Refusal("refuse.not_setup", id=game_id)
            due = [s for s in seats if s in state.acting_players()]
            # A seat whose setup is in may still change it while the engine allows that.
            changing = [s for s in seats if s not in due and state.legal_moves(s)]
            if not due and not changing:
                raise Refusal("refuse.setup_done", id=game_id)
            seat = due[0] if due else changing[0]
            move = parse(state, text, seat)
            after = state.apply(move, seat)
            row = MoveRow(
                len(loaded.entries), seat, state.format_move(move), user.id, True, self.ctx.now_ms()
            )

            def announce(
                new: Loaded, chance_rows: list[MoveRow], rated: tuple[Line, ...]
            ) -> list[Reply]:
                still_secret = (
                    new.status is GameStatus.ACTIVE and new.state.current_player() == SIMULTANEOUS
                )
                if still_secret:
                    return [
                        present.reply(
                            new,
                            Event.SETUP_WAITING,
                            "setup.waiting" if due else "setup.changed_public",
                            params={"name": new.name(seat)},
                            **({} if due else {"notify": ()}),  # a changed one pings nobody
                        )
                    ]
                return [
                    present.reply(
                        new,
                        Event.REVEALED,
                        "setup.revealed",
                        picture=True,
                        lines=present.chance_lines(after, chance_rows)
                        + present.end_lines(new)
                        + rated,
                    )
                ]

            loaded, _, replies = await self.advance(loaded, after, row, move, announce)
            public = replies[0]
            private = Reply(
                "setup.accepted" if due else "setup.changed",
                {"id": game_id, "game": present.title(loaded.game), "move": row.move},
                event=Event.SETUP_ACCEPTED,
                game_id=game_id,
                public=False,
                audience=user.id,
                image_viewer=seat,
            )
            private = await self.ctx.pictures.on(private, loaded, seat)
            return [private, public]

    async def resign(self, game_id: int, user: User) -> Reply:
        async with self.ctx.games.lock(game_id):
            loaded = await self.open_active(game_id)
            seats = seats_of(loaded, user)
            acting = [s for s in seats if s in loaded.state.acting_players()]
            return await self.endings.resign(loaded, acting[0] if acting else seats[0])

    async def abort(self, game_id: int, moderator: User, guild_id: str | None = None) -> Reply:
        """Stop a game with no result. The adapter checks the moderator's permission in
        ``guild_id``; a game of another server is refused (ids are sequential)."""
        async with self.ctx.games.lock(game_id):
            loaded = await self.ctx.games.load(game_id)
            if guild_id is not None and loaded.row.guild_id != guild_id:
                raise Refusal("refuse.other_server", id=game_id)
            if not loaded.status.is_live:
                raise Refusal("refuse.game_over", id=game_id)
            return await self.endings.abort(loaded, moderator.name)
