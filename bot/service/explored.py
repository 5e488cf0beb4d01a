"""What a finished game adds to the opening explorer (issue 50): computed from its row and log
when the change that ends it is committed (the same transaction), and by the rebuild.

Which games count (docs/explorer.md): finished games only (an aborted or unfinished game is no
evidence of how a game goes), imported records included; a game without a server (played in
private messages) is private and stays out; 略式易双六 (one player, dice) has no explorer. A
secret setup (数字将棋) counts in its own table, under the seat's setup key, never in the tree.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.model import ExplorerCount, GameRow, GameStatus, MoveRow
from engines.explore import walk
from engines.registry import get_game

NO_EXPLORER = frozenset({"yosuko"})
"""Games without an explorer: 略式易双六 is played alone against the dice (no opening to study)."""


def is_private(row: GameRow) -> bool:
    """A game played outside any server (in private messages) stays out of the explorer."""
    return row.guild_id is None


def explorer_counts(row: GameRow, entries: Sequence[MoveRow]) -> tuple[ExplorerCount, ...]:
    """The explorer counts ``row`` (finished, with its log ``entries``) adds: each distinct
    (position, move) of the game once, in the global and the server pool, and in the rated
    pools too when the game is rated."""
    if (
        row.status is not GameStatus.FINISHED
        or row.result is None
        or row.game_type in NO_EXPLORER
        or is_private(row)
    ):
        return ()
    game: Any = get_game(row.game_type)
    start = game.new_game(row.players, row.options)
    steps = {
        (s.key, s.move) for s in walk(row.game_type, start, ((e.actor, e.move) for e in entries))
    }
    draw = int(not row.result.winners)
    wins = tuple(int(seat in row.result.winners) for seat in range(3))
    win3 = (wins[0], wins[1], wins[2])
    rated = row.rated and not row.is_imported
    pools = [
        (scope, r)
        for scope in ("", row.guild_id or "")
        for r in ((False, True) if rated else (False,))
    ]
    return tuple(
        ExplorerCount(row.game_type, key, move, scope, r, 1, draw, win3)
        for key, move in sorted(steps)
        for scope, r in pools
    )
