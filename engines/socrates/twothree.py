"""ツースリー (Two-Three): a jump race on the two middle columns, e–f × 2–8.

Each side's six pieces move only along their column: one cell forward, or a jump forward over an
unbroken line of enemy pieces (跳び). A side may go back (the same two kinds of move backward)
only when none of its pieces can go forward (option ``retreat=piece``: when that piece cannot).
Whoever first stands on all six of the enemy's starting cells wins.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import product
from operator import attrgetter
from typing import ClassVar

from engines.core import OptionSpec, Outcome, Text
from engines.socrates.board import (
    BLACK,
    CELLS,
    COLS,
    EMPTY,
    FORWARD,
    MOVE,
    OWN,
    PLAIN,
    STEPS,
    Move,
    SocratesGame,
    SocratesState,
    cell,
    check_counts,
    col_of,
    moved,
    row_of,
    seal,
    win_for,
)

STRIP = tuple(col_of(c) in (4, 5) and 2 <= row_of(c) <= 8 for c in range(CELLS))
"""The cells in play: columns e and f, rows 2 to 8."""
STRIP_CELLS = tuple(c for c in range(CELLS) if STRIP[c])
HOMES = (
    tuple(cell(col, row) for row in (2, 3, 4) for col in (4, 5)),
    tuple(cell(col, row) for row in (6, 7, 8) for col in (4, 5)),
)
"""Each seat's starting cells (Black: e2–f4, White: e6–f8); the enemy's are the goal."""
START = "".join("P" if c in HOMES[0] else "p" if c in HOMES[1] else EMPTY for c in range(CELLS))


def _column(c: int, dr: int) -> tuple[int, ...]:
    if not STRIP[c]:
        return ()
    out: list[int] = []
    row = row_of(c) + dr
    while 2 <= row <= 8:
        out.append(cell(col_of(c), row))
        row += dr
    return tuple(out)


AHEAD = tuple(tuple(_column(c, f) for c in range(CELLS)) for f in FORWARD)
BEHIND = tuple(tuple(_column(c, -f) for c in range(CELLS)) for f in FORWARD)


def _column_move(board: str, line: tuple[int, ...], enemy: str) -> int:
    """The end of a step or jump along ``line`` (cells in order), or -1."""
    if not line:
        return -1
    i = 0
    n = len(line)
    while i < n and board[line[i]] in enemy:
        i += 1
    return line[i] if i < n and board[line[i]] == EMPTY else -1


def _line_end(content: str, i: int, d: int, enemy: str) -> int:
    """Within one column's ``content``: the end of the step or jump of the piece at index ``i``
    in direction ``d`` (as :func:`_column_move`), or -1."""
    j = i + d
    while 0 <= j < len(content) and content[j] == enemy:
        j += d
    return j if 0 <= j < len(content) and content[j] == EMPTY else -1


_Table = dict[str, tuple[tuple[Move, ...], ...]]


def _column_tables(seat: int) -> tuple[_Table, _Table]:
    """The moves of ``seat``'s pieces in columns e and f for every content of a column's seven
    strip cells (rows 2 to 8, bottom first: a 7-character string of ``.``, ``P`` and ``p``).

    Each entry: the forward moves, the backward moves, and for each piece its forward move or
    else its backward one (``retreat=piece``), all in cell order. A move stays in its column, so
    a column's moves depend on nothing else."""
    own, enemy = PLAIN[seat], PLAIN[1 - seat]
    d = 1 if FORWARD[seat] > 0 else -1
    tables: tuple[_Table, _Table] = ({}, {})
    move_of = [  # per column: (from index, to index) -> that move
        {(i, j): STEPS[cells[i]][cells[j]] for i in range(7) for j in range(7)}
        for cells in ([cell(col, row) for row in range(2, 9)] for col in (4, 5))
    ]
    for letters in product(EMPTY + "Pp", repeat=7):
        key = "".join(letters)
        fwd, bwd, per = [], [], []
        i = key.find(own)
        while i >= 0:
            ahead, back = _line_end(key, i, d, enemy), _line_end(key, i, -d, enemy)
            if ahead >= 0:
                fwd.append((i, ahead))
            if back >= 0:
                bwd.append((i, back))
            if ahead >= 0 or back >= 0:
                per.append((i, ahead if ahead >= 0 else back))
            i = key.find(own, i + 1)
        for table, moves in zip(tables, move_of, strict=True):
            table[key] = (
                tuple([moves[p] for p in fwd]),
                tuple([moves[p] for p in bwd]),
                tuple([moves[p] for p in per]),
            )
    return tables


COLUMN_MOVES = (_column_tables(0), _column_tables(1))
"""``COLUMN_MOVES[seat][0 or 1][column content]``: see :func:`_column_tables` (e, then f)."""
_E = slice(cell(4, 2), cell(4, 8) + 1, COLS)
_F = slice(cell(5, 2), cell(5, 8) + 1, COLS)
"""The strip's two columns as slices of the board string (rows 2 to 8)."""
_FROM = attrgetter("frm")


def _merge(e: tuple[Move, ...], f: tuple[Move, ...]) -> tuple[Move, ...]:
    """Two columns' moves in cell order (e2 f2 e3 f3 ...)."""
    if not e:
        return f
    if not f:
        return e
    return tuple(sorted(e + f, key=_FROM))


@dataclass(frozen=True)
class TwoThreeState(SocratesState):
    """A ツースリー position."""

    def _choices(self) -> tuple[Move, ...]:
        b = self.board
        me = self.turn
        e_table, f_table = COLUMN_MOVES[me]
        e = e_table.get(b[_E])
        f = f_table.get(b[_F])
        if e is None or f is None:  # not a board of this game's pieces: the plain scan
            return self._scan()
        if self.option("retreat") == "piece":
            return _merge(e[2], f[2])
        if e[0] or f[0]:
            return _merge(e[0], f[0])
        return _merge(e[1], f[1])

    def _scan(self) -> tuple[Move, ...]:
        """:meth:`_choices` cell by cell (the tables hold every board of ``.``, ``P``, ``p``)."""
        b = self.board
        me = self.turn
        enemy = OWN[1 - me]
        own = OWN[me]
        mine = [c for c in STRIP_CELLS if b[c] != EMPTY and b[c] in own]
        ahead, behind = AHEAD[me], BEHIND[me]
        forward = {s: _column_move(b, ahead[s], enemy) for s in mine}
        per_piece = self.option("retreat") == "piece"
        any_forward = any(t >= 0 for t in forward.values())
        out: list[Move] = []
        for s in mine:
            t = forward[s]
            if t < 0 and (per_piece or not any_forward):
                t = _column_move(b, behind[s], enemy)
            if t >= 0:
                out.append(STEPS[s][t])
        return tuple(out)

    def _play(self, move: Move) -> tuple[SocratesState, Outcome | None, bool]:
        me = self.turn
        board = moved(self.board, move.frm, move.to) if move.kind == MOVE else self.board
        nxt = replace(self, board=board, turn=1 - me, ply_count=self.ply_count + 1)
        ending = None
        if all(board[c] in OWN[me] for c in HOMES[1 - me]):
            ending = win_for(
                me, "all six pieces stand on the enemy's start.", "6個すべてが敵陣に入りました。"
            )
        return nxt, ending, False


class TwoThree(SocratesGame):
    """ソクラテス ツースリー (Two-Three)."""

    id: ClassVar[str] = "socrates-twothree"
    title_en: ClassVar[str] = "Socrates: Two-Three"
    title_ja: ClassVar[str] = "ソクラテス ツースリー"
    game_options: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec(
            "retreat",
            ("all", "piece"),
            "all",
            Text(
                "When a piece may go back: only when none of your pieces can go forward (all), "
                "or when that piece cannot (piece).",
                "後退できる時：自分のどの駒も前進できない時だけ（全駒）、その駒が前進できない時"
                "（その駒）。",
            ),
            Text("retreat", "後退"),
            (("all", Text("all", "全駒")), ("piece", Text("piece", "その駒"))),
        ),
    )
    summary: ClassVar[Text] = Text(
        "A jump race on the two middle columns of the Socrates board. Pieces step forward or "
        "jump forward over a line of enemy pieces, and go back only when no piece can go "
        "forward. Occupy all six enemy starting cells to win. Solved: White wins with perfect "
        "play.",
        "ソクラテス盤の中央2列での跳び競走。駒は前へ1マス進むか、前の敵駒の列を飛び越します。"
        "どの駒も前進できない時だけ後退できます。敵の初期位置6マスを全部占めれば勝ち。"
        "完全解析済み：最善なら後手の勝ち。",
    )

    def initial_state(self, players: int, options: dict[str, str]) -> TwoThreeState:
        return self._state(START, BLACK, 0, 0, options)

    def _state(
        self, board: str, turn: int, ply: int, passes: int, options: dict[str, str]
    ) -> TwoThreeState:
        return seal(TwoThreeState(board, turn, ply, passes, tuple(options.items())))

    def build(
        self,
        board: str,
        turn: int,
        extra: tuple[str, ...],
        ply: int,
        passes: int,
        options: dict[str, str],
    ) -> TwoThreeState:
        check_counts(self, board, {"P": 6, "p": 6}, STRIP)
        return self._state(board, turn, ply, passes, options)


GAME = TwoThree()
TwoThreeState.game = GAME
