"""Conditional moves as pure rules (条件付きの手): reading a line, adding it to a player's
lines, and following the lines as moves are played. No I/O: :mod:`bot.service.correspond.premoves`
reads and writes.

A line is "if they play X, I reply Y (then if Z, W ...)": moves in canonical notation, the
opponent's first. The lines form a tree: two lines that agree on the opponent's moves must
agree on the replies (else the second is refused). When the opponent plays, the lines that
start with that move are kept (what follows the reply), and the reply is *due*; any other move
clears them all.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from bot.model import Conditional, MoveRow
from engines.core import CHANCE, SIMULTANEOUS, EngineError, State, Text

MAX_LINES = 10
"""Lines one player may keep in one game."""
MAX_LINE_MOVES = 20
"""Moves in one line (ten of theirs, ten replies)."""

_SPLIT = re.compile(r"[\s,;、，]+")


class LineError(ValueError):
    """A line that cannot be kept: ``index`` is the move (0-based) that is wrong, ``key`` the
    catalogue key of why, ``reason`` the engine's words (when it refused a move)."""

    def __init__(
        self, key: str, index: int, reason: Text | None = None, suggestions: Sequence[Any] = ()
    ) -> None:
        super().__init__(key)
        self.key = key
        self.index = index
        self.reason = reason
        self.suggestions = tuple(suggestions)


def words(text: str) -> list[str]:
    """The moves of a typed line (separated by spaces, commas or semicolons)."""
    return [w for w in _SPLIT.split(text.strip()) if w]


def open_position(state: State[Any]) -> bool:
    """Nothing hidden and nothing simultaneous: the position conditional moves may look at."""
    return state.current_player() != SIMULTANEOUS and not state.hides_moves()


def read_line(state: State[Any], seat: int, texts: Sequence[str]) -> tuple[str, ...]:
    """Check ``texts`` (the opponent's move first) from ``state``, each legal in the position
    it is played in: the line in canonical notation, or a :class:`LineError`."""
    if not texts:
        raise LineError("premove_empty", 0)
    if len(texts) > MAX_LINE_MOVES:
        raise LineError("premove_too_long", MAX_LINE_MOVES)
    out: list[str] = []
    for index, text in enumerate(texts):
        actor = state.current_player()
        mine = index % 2 == 1
        if actor == CHANCE:
            raise LineError("premove_chance", index)
        if state.is_over() or actor < 0 or (actor == seat) != mine:
            raise LineError("premove_not_their_turn" if not mine else "premove_not_yours", index)
        try:
            move = state.parse_move(text, actor)
        except EngineError as exc:
            raise LineError("premove_illegal", index, exc.text, exc.suggestions) from exc
        out.append(state.format_move(move))
        state = state.apply(move, actor)
    if len(out) % 2:
        raise LineError("premove_no_reply", len(out) - 1)
    return tuple(out)


def position_after(state: State[Any], seat: int, texts: Sequence[str]) -> State[Any] | None:
    """The position after the (complete) moves ``texts`` of a line being typed, or None when
    one of them is no legal move there (autocomplete offers nothing further)."""
    for index, text in enumerate(texts):
        actor = state.current_player()
        if actor < 0 or state.is_over() or (actor == seat) != (index % 2 == 1):
            return None
        try:
            state = state.apply(state.parse_move(text, actor), actor)
        except EngineError:
            return None
    return state


def added(current: Conditional | None, seat: int, line: tuple[str, ...]) -> Conditional:
    """``current`` with ``line`` added. A :class:`LineError` when it contradicts a kept line
    (another reply to the same moves of theirs) or there are :data:`MAX_LINES` already."""
    lines = current.lines if current is not None and current.seat == seat else ()
    if line in lines:
        return Conditional(seat, lines)
    for kept in lines:
        for index, (a, b) in enumerate(zip(kept, line, strict=False)):
            if a != b:
                if index % 2 == 1:  # the same moves of theirs, another reply of ours
                    raise LineError("premove_conflict", index)
                break
    if len(lines) >= MAX_LINES:
        raise LineError("premove_too_many", MAX_LINES)
    return Conditional(seat, (*lines, line))


def after_moves(current: Conditional | None, rows: Sequence[MoveRow]) -> Conditional | None:
    """The lines once ``rows`` are played: the opponent's move that starts lines makes their
    reply due (the lines go on with what follows it); the due reply played, the rest wait;
    anything else clears them."""
    for row in rows:
        if current is None:
            return None
        if row.actor == CHANCE:
            continue
        seat = current.seat
        if current.due is not None:
            played = row.actor == seat and row.move == current.due
            current = Conditional(seat, current.lines) if played and current.lines else None
        elif row.actor != seat:
            matched = [line for line in current.lines if line[0] == row.move]
            if not matched:
                return None
            rest = tuple(line[2:] for line in matched if len(line) > 2)
            current = Conditional(seat, rest, due=matched[0][1])
        else:
            return None  # they played themselves while waiting: the lines no longer apply
    return current
