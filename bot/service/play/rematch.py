"""Rematches (再戦): the same game again among the same people, seats turned.

A rematch is a challenge like any other (the others accept or decline it; it lapses): the same
game, options, player count and clock, and every player moved one seat on, so with two players
the colours swap and with three the order turns. Host seats stay host seats. A rematch that is
already waiting is answered instead of made twice: by its invited players it is accepted.
"""

from __future__ import annotations

from bot.clock import parse_clock, with_reminders
from bot.model import GameStatus, NewGame, SeatKind, SeatRow
from bot.service.cache import Loaded
from bot.service.context import Context
from bot.service.play.lobby import Lobby
from bot.service.values import HOST_ID, Refusal, Reply, User


def turned(loaded: Loaded) -> list[SeatRow]:
    """The game's seats for a rematch: whoever sat at seat ``i + 1`` now sits at ``i`` (a
    computer player with its level)."""
    seats = loaded.row.seats
    n = len(seats)
    return [
        SeatRow(i, s.kind, s.user_id, s.name, ai_level=s.ai_level)
        for i, s in enumerate(seats[(j + 1) % n] for j in range(n))
    ]


class Rematches:
    def __init__(self, ctx: Context, lobby: Lobby) -> None:
        self.ctx = ctx
        self.lobby = lobby

    async def rematch(self, game_id: int, user: User) -> Reply:
        """``user``, a player of the finished game ``game_id``, asks the others for a rematch
        (or accepts the one they asked for)."""
        loaded = await self.ctx.games.read(game_id)
        row = loaded.row
        if row.status is not GameStatus.FINISHED:
            raise Refusal("refuse.not_finished", id=game_id)
        if not loaded.seats_of(user.id) or user.id == HOST_ID:
            raise Refusal("refuse.not_a_player", id=game_id)
        plan = turned(loaded)
        people = {s.user_id: s.name or s.user_id for s in plan if s.user_id}
        waiting = await self.waiting(row.game_type, set(people))
        if waiting is not None:
            if any(s.invited_id == user.id for s in waiting.row.seats):
                return await self.lobby.join(waiting.id, user)  # accepting it
            raise Refusal("refuse.rematch_waiting", id=waiting.id)
        others = [User(uid, name) for uid, name in people.items() if uid != user.id]
        seats = [
            SeatRow(s.seat, SeatKind.OPEN, invited_id=s.user_id)
            if s.kind is SeatKind.HUMAN and s.user_id != user.id
            else s
            for s in plan
        ]
        me = next(s for s in plan if s.user_id == user.id)
        seats[me.seat] = SeatRow(me.seat, SeatKind.HUMAN, user.id, user.name)
        spec = with_reminders(parse_clock(row.clock), row.reminders)
        new = NewGame(
            game_type=row.game_type,
            players=row.players,
            options=dict(row.options),
            creator_id=user.id,
            seats=tuple(seats),
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            clock=spec.text(),
            reminders=spec.reminders,
            rated=row.rated,
        )
        return await self.lobby.open_game(
            new, user, [user], others, "rematch.created", name=user.name, old=game_id
        )

    async def waiting(self, game_type: str, people: set[str]) -> Loaded | None:
        """An open challenge of ``game_type`` among exactly ``people`` (a rematch already
        asked for), newest first; from the index of live games, so it survives a restart."""
        games = self.ctx.games
        for gid, live in games.live_games():
            if live.game_type != game_type or not live.users <= people:
                continue
            loaded = await games.read(gid)
            if loaded.status is not GameStatus.OPEN:
                continue
            seated = {s.user_id or s.invited_id for s in loaded.row.seats} - {None}
            if seated == people:
                return loaded
        return None
