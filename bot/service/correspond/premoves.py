"""Conditional moves (``/premove``, 条件付きの手): while the opponent thinks, a player of a
two-player game with open information keeps up to ten lines "if they play X, I reply Y (then if
Z, W ...)", privately.

The lines live in the game's row (``GameRow.conditional``), which nobody but their owner is ever
shown. Every commit of a move asks :meth:`Premoves.amend` (the game cache's hook) what the moves
it appends do to them (:func:`~bot.service.correspond.premove_rules.after_moves`): in the very
transaction
of the opponent's move, a matching line makes its reply *due*, and any other move clears them.
The due reply is then played by the computer player's driver (:class:`~bot.service.play.computer.
Computer` marks such a game due, as it marks an AI's turn) through the one move use case,
``Turns.play``, guarded by the log length: a process killed between the two finds the reply
still due at its next start (:meth:`restore`) and plays it once; a reply that lost its race
(the game changed) is refused by the guard and never played twice.
"""

from __future__ import annotations

import logging
from typing import Any

from bot.model import UNCHANGED, Change, Conditional, GameRow, GameStatus, Update
from bot.service import present
from bot.service.cache import Loaded
from bot.service.context import Context
from bot.service.correspond import premove_rules as rules
from bot.service.guard import entry
from bot.service.play.turns import Turns, check_length, seats_of
from bot.service.values import Event, Line, Refusal, Reply, User
from engines.core import State

log = logging.getLogger("banmen.premoves")

MAX_CHOICES = 25


def due_reply(row: GameRow) -> str | None:
    """The conditional reply to play now in ``row`` (None: none)."""
    cond = row.conditional
    if row.status is not GameStatus.ACTIVE or cond is None:
        return None
    return cond.due


class Premoves:
    """The use cases of ``/premove`` and the hook that follows the lines as moves are played."""

    def __init__(self, ctx: Context, turns: Turns) -> None:
        self.ctx = ctx
        self.turns = turns
        ctx.games.amend_with(self.amend)

    def is_due(self, row: GameRow) -> bool:
        """Is a conditional reply due in ``row`` (the computer player's driver plays it)?"""
        return due_reply(row) is not None

    # -- the game cache's hook ------------------------------------------------------------
    def amend(self, row: GameRow, state: State[Any], change: Change) -> Update:
        cond = row.conditional
        if cond is None or change.update.conditional is not UNCHANGED:
            return Update()  # nothing kept, or the use case set them itself
        if row.status is not GameStatus.ACTIVE or change.truncate_from is not None:
            return Update(conditional=None)  # over, or taken back: the lines looked elsewhere
        if not change.append:
            return Update()
        after = rules.after_moves(cond, change.append)
        return Update() if after == cond else Update(conditional=after)

    # -- the use cases ------------------------------------------------------------------------
    async def _waiting(self, game_id: int, user: User) -> tuple[Loaded, int]:
        """The game (under its lock) and the user's seat, if conditional moves apply: refuses
        a game they do not apply to, and a player whose turn it is."""
        loaded = await self.turns.open_active(game_id)
        seat = seats_of(loaded, user)[0]
        if loaded.row.players != 2 or len(set(loaded.seats_of(user.id))) != 1:
            raise Refusal("refuse.premove_players", id=game_id)
        if not rules.open_position(loaded.state):
            raise Refusal("refuse.premove_secret", id=game_id)
        if seat in loaded.acting_seats():
            raise Refusal("refuse.premove_your_turn", id=game_id)
        return loaded, seat

    @entry
    async def add(self, game_id: int, user: User, line: str) -> Reply:
        """Keep one more line (privately); refuses a line with an illegal move, saying which
        and why, and one that contradicts a kept line."""
        check_length(line)
        async with self.ctx.games.lock(game_id):
            loaded, seat = await self._waiting(game_id, user)
            texts = rules.words(line)
            try:
                read = rules.read_line(loaded.state, seat, texts)
                kept = rules.added(loaded.row.conditional, seat, read)
            except rules.LineError as exc:
                shown = texts[exc.index] if exc.index < len(texts) else ""
                suggestions = [str(s) for s in exc.suggestions][:5]
                raise Refusal(
                    f"refuse.{exc.key}",
                    suggestions,
                    id=game_id,
                    n=exc.index + 1,
                    move=shown,
                    reason=exc.reason or "",
                    limit=exc.index,
                ) from exc
            change = Change(game_id, loaded.row.version, update=Update(conditional=kept))
            new = await self.ctx.games.commit(loaded, change)
            return self._listed(new, user, "premove.added")

    @entry
    async def show(self, game_id: int, user: User) -> Reply:
        """The user's lines in this game (privately)."""
        async with self.ctx.games.lock(game_id):
            loaded, _ = await self._waiting(game_id, user)
            return self._listed(loaded, user, "premove.list")

    @entry
    async def clear(self, game_id: int, user: User) -> Reply:
        """Forget the user's lines in this game."""
        async with self.ctx.games.lock(game_id):
            loaded, seat = await self._waiting(game_id, user)
            cond = loaded.row.conditional
            if cond is not None and cond.seat == seat:
                change = Change(game_id, loaded.row.version, update=Update(conditional=None))
                loaded = await self.ctx.games.commit(loaded, change)
            return self._listed(loaded, user, "premove.cleared")

    def _listed(self, loaded: Loaded, user: User, key: str) -> Reply:
        cond = loaded.row.conditional
        seat = loaded.seats_of(user.id)[0]
        lines = cond.lines if cond is not None and cond.seat == seat else ()
        return Reply(
            key,
            {
                "id": loaded.id,
                "game": present.title(loaded.game),
                "count": len(lines),
                "limit": rules.MAX_LINES,
            },
            event=Event.PREMOVE,
            game_id=loaded.id,
            public=False,
            audience=user.id,
            lines=tuple(Line("premove.line", {"line": " ".join(line)}) for line in lines),
        )

    async def choices(self, game_id: int, user: User, typed: str) -> list[str]:
        """Autocomplete: whole lines that continue what was typed, each next move legal in the
        position it is played in (the opponent's first). Nothing when conditional moves do not
        apply here."""
        try:
            async with self.ctx.games.lock(game_id):
                loaded, seat = await self._waiting(game_id, user)
        except Refusal:
            return []
        texts = rules.words(typed)
        partial = "" if not texts or typed[-1:].isspace() else texts.pop()
        if len(texts) >= rules.MAX_LINE_MOVES:
            return []
        state = rules.position_after(loaded.state, seat, texts)
        if state is None or state.is_over():
            return []
        actor = state.current_player()
        if actor < 0:
            return []
        head = " ".join(texts)
        out: list[str] = []
        folded = partial.casefold()
        for move in state.legal_moves(actor):
            shown = state.format_move(move)
            if shown.casefold().startswith(folded):
                out.append(f"{head} {shown}".strip())
            if len(out) >= MAX_CHOICES:
                break
        return out

    # -- the due reply --------------------------------------------------------------------
    async def play_due(self, game_id: int) -> Reply | None:
        """Play the conditional reply due in ``game_id`` (None: none is due). A reply the
        position no longer allows clears the lines, quietly."""
        async with self.ctx.games.lock(game_id):
            loaded = await self.ctx.games.load(game_id)
            reply = due_reply(loaded.row)
            cond = loaded.row.conditional
            if reply is None or cond is None or cond.seat not in loaded.acting_seats():
                return None
            seat = loaded.row.seats[cond.seat]
            if seat.user_id is None:
                return None
            user = User(seat.user_id, seat.name or seat.user_id)
            ply = len(loaded.entries)
        try:
            return await self.turns.play(game_id, user, reply, ply=ply, conditional=True)
        except Refusal as refusal:
            if refusal.key in ("refuse.position_changed", "refuse.game_over"):
                return None  # the game moved on meanwhile: that change decided the lines
            log.warning("game %s: the conditional reply %r was refused", game_id, reply)
            await self._drop(game_id, cond)
            return None

    async def _drop(self, game_id: int, cond: Conditional) -> None:
        async with self.ctx.games.lock(game_id):
            loaded = await self.ctx.games.load(game_id)
            if loaded.row.conditional == cond:
                change = Change(game_id, loaded.row.version, update=Update(conditional=None))
                await self.ctx.games.commit(loaded, change)

    async def restore(self) -> list[int]:
        """The running games where a conditional reply may be due (after a restart)."""
        return await self.ctx.store.conditional_games()
