"""ツースリー (Two-Three): a jump race on the two middle columns, e–f × 2–8.

Each side's six pieces move only along their column: one cell forward, or a jump forward over an
unbroken line of enemy pieces (跳び). A side may go back (the same two kinds of move backward)
only when none of its pieces can go forward (option ``retreat=piece``: when that piece cannot).
Whoever first stands on all six of the enemy's starting cells wins.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from engines.core import OptionSpec, Outcome, Text
from engines.socrates.board import (
    BLACK,
    CELLS,
    EMPTY,
    FORWARD,
    MOVE,
    OWN,
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


@dataclass(frozen=True)
class TwoThreeState(SocratesState):
    """A ツースリー position."""

    def _choices(self) -> tuple[Move, ...]:
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
                "後退できる時：自分のどの駒も前進できない時だけ（all）、その駒が前進できない時"
                "（piece）。",
            ),
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
        state = TwoThreeState(board, turn, ply, passes, tuple(options.items()))
        sealed = seal(state)
        assert isinstance(sealed, TwoThreeState)
        return sealed

    def build(
        self,
        board: str,
        turn: int,
        extra: tuple[str, ...],
        ply: int,
        passes: int,
        options: dict[str, str],
    ) -> TwoThreeState:
        check_counts(board, {"P": 6, "p": 6}, STRIP)
        return self._state(board, turn, ply, passes, options)


GAME = TwoThree()
TwoThreeState.game = GAME
