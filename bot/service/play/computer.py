"""The computer player (コンピュータ対局): AI seats that move by themselves, and hints.

A host seat with an ``ai_level`` is played by the host's AI. Whenever a commit leaves a running
game with such a seat (a move, a start, a takeback; at start-up every running AI game), the game
is marked due and :attr:`Computer.changed` is set (when several processes run the Discord shards,
only in the process whose shards hold the game's guild). A driver (the Discord cog, the sandbox, a
test) takes the due games and calls :meth:`Computer.play` for each: the AI is shown only what its
seat may see (``state.observe(seat)``), thinks through the injected :class:`Thinker` without
holding the game's lock, and its move then goes through the very use case a human's goes through
(``Turns.play`` / ``Turns.setup``: validation, the log-length guard, clocks, the reply with the
board and the ping of the next human). A move refused because the position changed meanwhile
(a resignation, a takeback) is dropped; the change itself marks the game due again.

Computer moves that follow each other (a 三国志 table of one person and two computer seats) are
folded into one reply: a move after which another computer seat is to act is held (its
announcement stays claimed, unposted) and the next computer move's reply lists it and absorbs
its key (:attr:`Reply.absorbs`), so the thread gets one card, with one picture after the last
move, per human move. A held move is given back as it is whenever the chain breaks (a failed
search, the game over meanwhile); if the process dies while holding it, its claim dies with it
and the outbox posts it by itself: folded or not, every move is announced exactly once.

略式易双六 has no opponent: :meth:`Computer.hint` estimates each choice's win chance from
sampled draws (the thinker sees the observed state, never the real talon).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from dataclasses import replace
from typing import Protocol

from bot.model import GameRow, GameStatus, ai_levels
from bot.service.context import Context
from bot.service.play.turns import Turns, seats_of
from bot.service.thinking import Thinker, ThinkRequest
from bot.service.values import HOST_ID, Event, Line, Refusal, Reply, User
from engines.ai import LEVELS
from engines.core import SIMULTANEOUS, EngineError, State, Text

log = logging.getLogger("banmen.computer")

AI_USER = User(HOST_ID, "Banmen")
"""Who the computer player's moves are made as (the host, which holds every host seat)."""
HOLD_MS = 600_000
"""How long a computer move's announcement may wait for the next computer move to fold into
(far longer than any search; past it the outbox posts it alone)."""
MAX_FOLDED = 6
"""The most computer moves one card lists (a longer chain is shown in several)."""
HINT_SAMPLES = 200
"""Sampled futures per choice for a hint (fewer when the time runs out first)."""


def ai_seed(row: GameRow, ply: int, seat: int) -> int:
    """The AI's own randomness for one decision: reproducible from the game (a replay of an AI
    game can be re-searched), and telling nothing of the game's seed (a one-way hash; an imported
    game's secret one, not the file's)."""
    digest = hashlib.sha256(f"banmen-ai:{row.reseed or row.seed}:{ply}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


class Responder(Protocol):
    """Replies the computer player's driver plays for a person as soon as they are due (the
    conditional moves of :mod:`bot.service.correspond`, wired in by the service's root: play
    imports no other capability)."""

    def is_due(self, row: GameRow) -> bool:
        """May a reply be due in ``row`` now (checked again when it is played)?"""
        ...

    async def restore(self) -> list[int]:
        """The running games where a reply may be due (after a restart)."""
        ...

    async def play_due(self, game_id: int) -> Reply | None:
        """Play the reply due in ``game_id`` (None: none is due)."""
        ...


def folded(held: list[Reply], last: Reply) -> Reply:
    """``last`` (a computer move's reply) with the held moves before it listed first, each as
    its own line with the lines it brought, and their announcements absorbed."""
    before = [line for r in held for line in (_listed(r), *r.lines)]
    return replace(
        last,
        lines=(*before, _listed(last), *last.lines),
        key="ai.folded",
        params={**last.params, "count": len(held) + 1},
        absorbs=(*(k for r in held for k in r.announcements), *last.absorbs),
    )


def _listed(reply: Reply) -> Line:
    """A folded move as its card lists it (under the card's "#12", without the game's number)."""
    return Line("move.listed" if reply.key == "move.played" else reply.key, reply.params)


class Computer:
    """Which AI games are due, playing their turns, and hints."""

    def __init__(
        self, ctx: Context, turns: Turns, thinker: Thinker, premoves: Responder | None = None
    ) -> None:
        self.ctx = ctx
        self.turns = turns
        self.thinker = thinker
        self.premoves = premoves
        """Conditional replies are played by this driver too, as soon as they are due."""
        self.changed = asyncio.Event()
        """Set when a game may have become an AI's turn (the driver waits on it)."""
        self._pending: set[int] = set()
        self._busy: set[int] = set()
        self._held: dict[int, list[Reply]] = {}
        """Per game, computer moves whose announcement waits for the next computer move."""
        ctx.games.listen(self.track)

    @property
    def seconds(self) -> float:
        """The hard time limit of one AI move (level 8's budget; lower levels use less)."""
        return self.ctx.settings.ai_seconds

    @property
    def budget_scale(self) -> float:
        return self.seconds / LEVELS[max(LEVELS)].budget

    def track(self, row: GameRow) -> None:
        if not self.ctx.settings.owns(row.guild_id):
            return  # another process's shards hold this guild: its AI moves are theirs
        if row.status is GameStatus.ACTIVE and (row.ai_levels or self._reply_due(row)):
            self._pending.add(row.id)
            self.changed.set()

    def _reply_due(self, row: GameRow) -> bool:
        return self.premoves is not None and self.premoves.is_due(row)

    async def restore(self) -> None:
        """Every running game with an AI seat is due after a restart (its turn may be now)."""
        owns = self.ctx.settings.owns
        for game in await self.ctx.store.active_games():
            if game.status is GameStatus.ACTIVE and ai_levels(game.seats) and owns(game.guild_id):
                self._pending.add(game.id)
        if self.premoves is not None:  # a conditional reply may be due (checked when played)
            self._pending.update(await self.premoves.restore())
        if self._pending:
            self.changed.set()

    def due(self) -> list[int]:
        """The games where an AI may be due, each handed out once (not while it is thinking
        there); a later commit marks a game due again."""
        ready = sorted(self._pending - self._busy)
        self._pending.difference_update(ready)
        return ready

    async def play(self, game_id: int) -> list[Reply]:
        """Play the AI's turn in ``game_id`` if one is due: the public replies to announce
        (none when no AI is due, or when the position changed while it thought)."""
        self._busy.add(game_id)
        try:
            return await self._fold(game_id, await self._play(game_id))
        finally:
            self._busy.discard(game_id)
            if game_id in self._pending:
                self.changed.set()

    async def _fold(self, game_id: int, replies: list[Reply]) -> list[Reply]:
        """What to announce of the computer's turn ``replies`` in ``game_id``: nothing yet
        when its move leaves another computer seat to act (held), else one reply with every
        held move folded in (or the held ones as they were, when no move came)."""
        held = self._held.pop(game_id, [])
        if len(replies) == 1 and len(held) < MAX_FOLDED - 1 and await self._chains(replies[0]):
            self._held[game_id] = [*held, replies[0]]
            key = replies[0].outbox
            if key is not None:  # the delivery loop leaves it alone while it waits
                self.ctx.games.claims.claim(key, self.ctx.now_ms() + HOLD_MS)
            return []
        if not held:
            return replies
        if not replies or replies[0].event is not Event.MOVED:
            return [*held, *replies]
        return [folded(held, replies[0]), *replies[1:]]

    async def _chains(self, reply: Reply) -> bool:
        """Whether ``reply`` (a computer move) leaves the game running with only computer
        seats to act, so the next computer move may fold it in."""
        if reply.event is not Event.MOVED or reply.game_id is None or reply.outbox is None:
            return False
        loaded = await self.ctx.games.load(reply.game_id)
        if loaded.status is not GameStatus.ACTIVE:
            return False
        if loaded.state.current_player() == SIMULTANEOUS:
            return False
        seats = loaded.row.seats
        if all(s.is_ai for s in seats):  # nobody waits for the card: every move is shown
            return False
        acting = loaded.acting_seats()
        return bool(acting) and all(seats[s].is_ai for s in acting)

    async def _play(self, game_id: int) -> list[Reply]:
        if self.premoves is not None and (due := await self.premoves.play_due(game_id)):
            return [due]
        async with self.ctx.games.lock(game_id):
            try:
                loaded = await self.turns.open_active(game_id)
            except Refusal:  # over, or gone: nothing to play
                return []
            row = loaded.row
            seat = next((s for s in loaded.acting_seats() if row.seats[s].is_ai), None)
            if seat is None:
                return []
            level = row.seats[seat].ai_level or 1
            ply = len(loaded.entries)
            secret = loaded.state.current_player() == SIMULTANEOUS
            request = ThinkRequest(
                game_id,
                loaded.state.observe(seat),
                seat,
                level,
                self.seconds,
                self.budget_scale,
                ai_seed(row, ply, seat),
            )
        log.debug("game %s: the computer (level %s) thinks for seat %s", game_id, level, seat)
        try:
            text = await self.thinker.choose(request)
        except Exception:
            # A failing search must not stop the driver (nor the sandbox): the game waits for
            # its next change (or its clock), and the failure is logged with the game's id.
            log.exception("the AI could not think in game %s (seat %s)", game_id, seat)
            return []
        try:
            if secret:
                # A secret setup depends on nothing the other seats did meanwhile.
                replies = await self.turns.setup(game_id, AI_USER, text, only_seat=seat)
                return [r for r in replies if r.public]
            return [await self.turns.play(game_id, AI_USER, text, ply=ply)]
        except Refusal as refusal:
            if refusal.key in ("refuse.position_changed", "refuse.game_over"):
                log.debug("game %s moved on while the AI thought", game_id)
            else:
                log.error("the AI's move %r in game %s was refused: %s", text, game_id, refusal)
            return []

    async def settle(self, limit: int = 1000) -> list[Reply]:
        """Play every due AI turn, one after another, until none is due (at most ``limit``
        turns): for drivers that run one command at a time (the sandbox, tests)."""
        out: list[Reply] = []
        for _ in range(limit):
            due = self.due()
            if not due:
                break
            for game_id in due:
                out += await self.play(game_id)
        self.changed.clear()
        return out

    async def hint(self, game_id: int, user: User) -> Reply:
        """A solitaire's choices with their estimated win chances, privately for its player."""
        async with self.ctx.games.lock(game_id):
            loaded = await self.turns.open_active(game_id)
            seats = seats_of(loaded, user)
            if loaded.row.players != 1:
                raise Refusal("refuse.no_hint", id=game_id)
            seat = seats[0]
            if seat not in loaded.acting_seats():
                raise loaded.not_your_turn()
            view = loaded.state.observe(seat)
            request = ThinkRequest(
                game_id,
                view,
                seat,
                max(LEVELS),
                self.seconds,
                self.budget_scale,
                ai_seed(loaded.row, len(loaded.entries), seat),
            )
        choices = await self.thinker.hint(request, HINT_SAMPLES)
        lines = tuple(
            Line(
                "hint.item",
                {
                    "move": _shown(view, c.move),
                    "chance": round(c.win_chance * 100),
                    "samples": c.samples,
                },
            )
            for c in choices
        )
        return Reply(
            "hint.show",
            {"id": game_id, "samples": max((c.samples for c in choices), default=0)},
            event=Event.HINT,
            game_id=game_id,
            public=False,
            audience=user.id,
            lines=lines,
        )


def _shown(view: State[object], text: str) -> Text | str:
    """A move as the game displays it in each language (its notation if it does not parse)."""
    try:
        move = view.parse_move(text)
    except EngineError:
        return text
    return Text(view.display_move(move, "en"), view.display_move(move, "ja"))
