"""真剣勝負 (Duel): a race from your outer row to the opponent's, never stepping backward.

Each side's 10 pieces start on its outer row. The first two turns of each player flip (反転) one
plain piece to marked. Then a piece runs forward any distance, steps one cell sideways, or (marked)
one cell diagonally forward; on the equator (赤道) it slides sideways; a marked piece on the outer
ring travels round it, turning corners. Only one-cell moves capture. A piece on the enemy's back
row that survives the reply wins; losing every piece loses.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, replace
from typing import ClassVar

from engines.core import Outcome, Text, position_error
from engines.socrates.board import (
    BLACK,
    CELLS,
    COLS,
    EMPTY,
    FLIP,
    FLIPS,
    FORWARD,
    MARKED,
    MOVE,
    NEIGHBOURS,
    OWN,
    PLAIN,
    RING,
    RING_NEXT,
    ROWS,
    STEPS,
    Move,
    SocratesGame,
    SocratesState,
    cell,
    check_counts,
    moved,
    parse_int,
    put,
    row_of,
    seal,
    win_for,
)

OPENING_FLIPS = 4
GOAL_ROW = (ROWS, 1)
"""The row each seat races to (the opponent's outer row)."""


def _line(c: int, d: tuple[int, int]) -> tuple[int, ...]:
    out: list[int] = []
    c = NEIGHBOURS[d][c]
    while c >= 0:
        out.append(c)
        c = NEIGHBOURS[d][c]
    return tuple(out)


FORWARD_LINE = tuple(tuple(_line(c, (0, f)) for c in range(CELLS)) for f in FORWARD)
SIDE_STEPS = tuple(
    tuple(t for d in ((-1, 0), (1, 0)) if (t := NEIGHBOURS[d][c]) >= 0) for c in range(CELLS)
)
DIAGONAL_FORWARD = tuple(
    tuple(tuple(t for d in ((-1, f), (1, f)) if (t := NEIGHBOURS[d][c]) >= 0) for c in range(CELLS))
    for f in FORWARD
)
EQUATOR_LINES = tuple(
    tuple(_line(c, d) for d in ((-1, 0), (1, 0))) if row_of(c) == 5 else () for c in range(CELLS)
)


def _ring_paths(c: int, forward: int) -> tuple[tuple[int, ...], ...]:
    """The outer-space (宇宙) journeys from ring cell ``c`` both ways round, cut where a step
    would go backward."""
    if not RING[c]:
        return ()
    paths = []
    for nxt in RING_NEXT:
        path: list[int] = []
        cur = nxt[c]
        prev = c
        while cur != c and row_of(cur) - row_of(prev) != -forward:
            path.append(cur)
            prev, cur = cur, nxt[cur]
        if path:
            paths.append(tuple(path))
    return tuple(paths)


RING_PATHS = tuple(tuple(_ring_paths(c, f) for c in range(CELLS)) for f in FORWARD)


@dataclass(frozen=True)
class ShinkenState(SocratesState):
    """A 真剣勝負 position; ``flips_left`` counts the opening flip turns still to come."""

    flips_left: int = OPENING_FLIPS

    def _extra_key(self) -> Hashable:
        return self.flips_left

    def _extra_tokens(self) -> tuple[str, ...]:
        return (f"flip{self.flips_left}" if self.flips_left else "move",)

    def _choices(self) -> tuple[Move, ...]:
        b = self.board
        me = self.turn
        if self.flips_left:
            return tuple(FLIPS[c] for c in range(CELLS) if b[c] == PLAIN[me])
        own = OWN[me]
        marked = MARKED[me]
        lines = FORWARD_LINE[me]
        diagonals = DIAGONAL_FORWARD[me]
        rings = RING_PATHS[me]
        out: list[Move] = []
        for s in range(CELLS):
            ch = b[s]
            if ch == EMPTY or ch not in own:
                continue
            row = STEPS[s]
            seen: set[int] = set()
            first = True
            for t in lines[s]:
                if b[t] == EMPTY:
                    seen.add(t)
                elif first and b[t] not in own:
                    seen.add(t)
                    break
                else:
                    break
                first = False
            for t in SIDE_STEPS[s]:
                if b[t] not in own:
                    seen.add(t)
            if ch == marked:
                for t in diagonals[s]:
                    if b[t] not in own:
                        seen.add(t)
                for path in rings[s]:
                    for t in path:
                        if b[t] != EMPTY:
                            break
                        seen.add(t)
            for line in EQUATOR_LINES[s]:
                for t in line:
                    if b[t] != EMPTY:
                        break
                    seen.add(t)
            out.extend(row[t] for t in sorted(seen))
        return tuple(out)

    def _play(self, move: Move) -> tuple[SocratesState, Outcome | None, bool]:
        me = self.turn
        board = self.board
        flips = self.flips_left
        irreversible = True
        if move.kind == FLIP:
            board = put(board, move.frm, MARKED[me])
            flips -= 1
        elif move.kind == MOVE:
            irreversible = board[move.to] != EMPTY or row_of(move.to) != row_of(move.frm)
            board = moved(board, move.frm, move.to)
        else:
            irreversible = False
        nxt = replace(
            self, board=board, turn=1 - me, ply_count=self.ply_count + 1, flips_left=flips
        )
        return nxt, _ending(board, me), irreversible


def _ending(board: str, mover: int) -> Outcome | None:
    """The rule endings after ``mover``'s turn: the opponent lost every piece, or the
    opponent's piece on ``mover``'s back row survived the reply (到達)."""
    other = 1 - mover
    if not any(ch in OWN[other] for ch in board):
        return win_for(mover, "the opponent has no pieces left.", "相手の駒がなくなりました。")
    goal = GOAL_ROW[other]
    start = cell(0, goal)
    if any(ch in OWN[other] for ch in board[start : start + COLS]):
        return win_for(
            other,
            "a piece reached the far row and survived the reply.",
            "敵陣に到達した駒が取られずに残りました。",
        )
    return None


class Shinken(SocratesGame):
    """ソクラテス 真剣勝負 (Duel)."""

    id: ClassVar[str] = "socrates-shinken"
    title_en: ClassVar[str] = "Socrates: Duel"
    title_ja: ClassVar[str] = "ソクラテス 真剣勝負"
    extra_tokens: ClassVar[int] = 1
    summary: ClassVar[Text] = Text(
        "A race across the Socrates board. After two flips each, pieces run forward, step "
        "sideways, slide along the equator, and marked pieces also step diagonally and travel "
        "round the outer ring; nothing ever goes back, and only one-cell moves capture. Reach "
        "the far row and survive the reply to win.",
        "ソクラテス盤の競走。各自2回駒を反転したあと、駒は前へ進み、横へ1マス、赤道では横へ"
        "滑り、反転した駒は斜め前へ1マスと外周の宇宙を回れます。後ろへは戻れず、敵駒を取れるのは"
        "1マスの移動だけ。敵陣の最終段に着き、取られずに残れば勝ち。",
    )

    def initial_state(self, players: int, options: dict[str, str]) -> ShinkenState:
        board = "P" * COLS + EMPTY * (CELLS - 2 * COLS) + "p" * COLS
        return self._state(board, BLACK, OPENING_FLIPS, 0, 0, options)

    def _state(
        self, board: str, turn: int, flips: int, ply: int, passes: int, options: dict[str, str]
    ) -> ShinkenState:
        return seal(
            ShinkenState(board, turn, ply, passes, tuple(options.items()), flips_left=flips)
        )

    def build(
        self,
        board: str,
        turn: int,
        extra: tuple[str, ...],
        ply: int,
        passes: int,
        options: dict[str, str],
    ) -> ShinkenState:
        token = extra[0]
        if token == "move":
            flips = 0
        elif token.startswith("flip"):
            flips = parse_int(self, token[4:], "flip count", "反転数", OPENING_FLIPS)
            if flips == 0:
                raise position_error(self, "write 'move', not 'flip0'", "flip0 ではなく move")
        else:
            raise position_error(
                self,
                f"the phase is flip1–flip4 or move, not {token!r}",
                f"段階は flip1〜flip4 か move です（「{token}」）",
            )
        check_counts(self, board, {"P": 10, "M": 10, "p": 10, "m": 10})
        for seat in (0, 1):
            if sum(board.count(ch) for ch in OWN[seat]) > COLS:
                raise position_error(
                    self, "each side has at most 10 pieces", "駒は各自10個までです"
                )
        return self._state(board, turn, flips, ply, passes, options)


GAME = Shinken()
ShinkenState.game = GAME
