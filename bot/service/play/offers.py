"""Draw offers and takebacks (引き分けの提案と待った).

A takeback is immediate while nobody has replied and within the grace time (or in a solitaire,
or when every other seat is the user's or the computer's); otherwise it is an offer the others
accept or decline.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.model import Change, Offer, OfferKind, OfferMade, Update
from bot.service import present
from bot.service.cache import Loaded, replay
from bot.service.context import Context
from bot.service.endings import Endings
from bot.service.play.timers import banks, clock_of, deadline
from bot.service.play.turns import Turns, seats_of
from bot.service.values import Event, Refusal, Reply, User
from engines.core import CHANCE


def takeback_point(loaded: Loaded, seats: Sequence[int]) -> int:
    """The log index of the last move by ``seats``; refuses if it cannot be taken back (no
    such move, or a secret or chance step came after it)."""
    index = next(
        (e.ply for e in reversed(loaded.entries) if e.actor in seats and e.actor != CHANCE),
        None,
    )
    if index is None or any(e.secret or e.actor == CHANCE for e in loaded.entries[index:]):
        raise Refusal("refuse.no_takeback", id=loaded.id)
    return index


class Offers:
    def __init__(self, ctx: Context, turns: Turns, endings: Endings) -> None:
        self.ctx = ctx
        self.turns = turns
        self.endings = endings

    def _check_repeat(self, loaded: Loaded, kind: OfferKind, seat: int) -> None:
        """Refuse a takeback past the seat's limit, or a draw offered again too soon."""
        made = [o for o in loaded.row.offers_made if o.kind is kind and o.seat == seat]
        settings = self.ctx.settings
        if kind is OfferKind.TAKEBACK and len(made) >= settings.takeback_limit:
            raise Refusal("refuse.takeback_limit", id=loaded.id, limit=settings.takeback_limit)
        if kind is OfferKind.DRAW and made:
            at = made[-1].move + settings.draw_reoffer
            if loaded.move_number() < at:
                raise Refusal("refuse.draw_again", id=loaded.id, at=at + 1)

    @staticmethod
    def _noted(loaded: Loaded, kind: OfferKind, seat: int) -> tuple[OfferMade, ...]:
        return (*loaded.row.offers_made, OfferMade(kind, seat, loaded.move_number()))

    async def _make(self, loaded: Loaded, user: User, kind: OfferKind, seat: int) -> Reply:
        self._check_repeat(loaded, kind, seat)
        offer = Offer(kind, seat, len(loaded.entries))
        update = Update(offer=offer, offers_made=self._noted(loaded, kind, seat))
        change = Change(loaded.id, loaded.row.version, update=update)
        answerers = loaded.user_ids([s.seat for s in loaded.row.seats if s.seat != seat])

        def announce(new: Loaded) -> list[Reply]:
            return [
                present.reply(
                    new,
                    Event.OFFERED,
                    f"{kind}.offered",
                    params={"name": user.name},
                    notify=tuple(u for u in answerers if u != user.id),
                )
            ]

        return await self.ctx.announce(loaded, change, announce)

    def _pending(self, loaded: Loaded, user: User, kind: OfferKind) -> Offer:
        """The offer of ``kind`` that ``user`` may answer (made by someone else)."""
        seats = seats_of(loaded, user)
        offer = loaded.row.offer
        if offer is None or offer.kind is not kind or offer.seat in seats:
            raise Refusal("refuse.no_offer", id=loaded.id)
        return offer

    # -- draws -------------------------------------------------------------------------------
    async def offer_draw(self, game_id: int, user: User) -> Reply:
        """Offer a draw; offering back when the other player has offered agrees to it."""
        async with self.ctx.games.lock(game_id):
            loaded = await self.turns.open_active(game_id)
            seats = seats_of(loaded, user)
            if loaded.row.players != 2:
                raise Refusal("refuse.two_player_only", id=game_id)
            if any(s.is_ai for s in loaded.row.seats if s.seat not in seats):
                # An offer would wait unanswered until the computer's next move: say so now.
                raise Refusal("refuse.computer_plays_on", id=game_id)
            offer = loaded.row.offer
            if offer is not None and offer.kind is OfferKind.DRAW:
                if offer.seat in seats:
                    raise Refusal("refuse.already_offered", id=game_id)
                return await self.endings.agree_draw(loaded)
            return await self._make(loaded, user, OfferKind.DRAW, seats[0])

    async def accept_draw(self, game_id: int, user: User) -> Reply:
        async with self.ctx.games.lock(game_id):
            loaded = await self.turns.open_active(game_id)
            self._pending(loaded, user, OfferKind.DRAW)
            return await self.endings.agree_draw(loaded)

    async def decline(self, game_id: int, user: User, kind: OfferKind) -> Reply:
        async with self.ctx.games.lock(game_id):
            loaded = await self.turns.open_active(game_id)
            self._pending(loaded, user, kind)
            change = Change(game_id, loaded.row.version, update=Update(offer=None))
            return await self.ctx.announce(
                loaded,
                change,
                lambda new: [
                    present.reply(
                        new, Event.DECLINED, f"{kind}.declined", params={"name": user.name}
                    )
                ],
            )

    # -- takebacks ---------------------------------------------------------------------------
    async def request_takeback(self, game_id: int, user: User) -> Reply:
        """Take back your last move: at once while nobody has replied and within the grace
        time, else as an offer the others accept or decline."""
        async with self.ctx.games.lock(game_id):
            loaded = await self.turns.open_active(game_id)
            seats = seats_of(loaded, user)
            index = takeback_point(loaded, seats)
            last = loaded.entries[-1]
            # Nobody else to ask: every other seat is the user's or the computer's (which
            # agrees to every takeback, its own replies included).
            alone = all(s.seat in seats or s.is_ai for s in loaded.row.seats)
            quick = alone or (
                index == len(loaded.entries) - 1
                and (
                    self.ctx.now_ms() - last.at_ms <= self.ctx.settings.takeback_grace * 1000
                    or loaded.row.players == 1
                )
            )
            if quick:
                seat = loaded.entries[index].actor
                self._check_repeat(loaded, OfferKind.TAKEBACK, seat)
                made = self._noted(loaded, OfferKind.TAKEBACK, seat)
                return await self._take_back(loaded, index, user.name, made)
            offer = loaded.row.offer
            if offer is not None and offer.kind is OfferKind.TAKEBACK:
                raise Refusal("refuse.already_offered", id=game_id)
            return await self._make(loaded, user, OfferKind.TAKEBACK, seats[0])

    async def accept_takeback(self, game_id: int, user: User) -> Reply:
        async with self.ctx.games.lock(game_id):
            loaded = await self.turns.open_active(game_id)
            offer = self._pending(loaded, user, OfferKind.TAKEBACK)
            index = takeback_point(loaded, [offer.seat])
            return await self._take_back(loaded, index, loaded.name(offer.seat))

    async def _take_back(
        self, loaded: Loaded, index: int, name: str, made: tuple[OfferMade, ...] | None = None
    ) -> Reply:
        """Take the log back to ``index``; ``made``: the offers noted with it (a quick one)."""
        rebuilt = replay(loaded.row, loaded.entries[:index])
        now = self.ctx.now_ms()
        update = Update(
            offers_made=loaded.row.offers_made if made is None else made,
            offer=None,
            turn_started_ms=now,
            deadline_ms=deadline(clock_of(loaded.row), rebuilt.state, now, banks(loaded.row.seats)),
            reminders_sent=(),
        )
        change = Change(loaded.id, loaded.row.version, truncate_from=index, update=update)

        def announce(new: Loaded) -> list[Reply]:
            return [
                present.reply(
                    new,
                    Event.TAKEN_BACK,
                    "takeback.done",
                    params={"name": name, "count": len(new.entries)},
                    picture=True,
                )
            ]

        return await self.ctx.announce(loaded, change, announce, rebuilt.state, rebuilt.last_move)
