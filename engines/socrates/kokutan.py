"""黒壇の馬 (Ebony Horse, also 黒檀の馬): a checkers race on the ground and the equator.

Phase 1: players flip (反転) plain pieces to marked or pass; two passes in a row start phase 2.
Phase 2: a piece steps one cell diagonally forward, or makes a chain of diagonal jumps over any
pieces, reflecting off the outer ring (a wall) by 90°, never visiting a cell twice, and ending
strictly forward of where it began. A piece next to an enemy of the other face is in check
(チェック) and must be moved if it can. Filling the enemy's four back ground cells wins.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass, replace
from typing import ClassVar

from engines.core import Outcome, Text, position_error
from engines.socrates.board import (
    BLACK,
    CELLS,
    COLS,
    DIAGONAL,
    EMPTY,
    FLIP,
    FLIPS,
    FORWARD,
    MARKED,
    MOVE,
    NEIGHBOURS,
    OWN,
    PASS,
    PLAIN,
    STEPS,
    Move,
    SocratesGame,
    SocratesState,
    cell,
    check_counts,
    col_of,
    moved,
    put,
    row_of,
    seal,
    win_for,
)


def in_area(col: int, row: int) -> bool:
    """The cells a piece may stand on: b–i × 2–8 (ground and equator; the ring is a wall)."""
    return 1 <= col <= 8 and 2 <= row <= 8


AREA = tuple(in_area(col_of(c), row_of(c)) for c in range(CELLS))


def _jump(c: int, d: tuple[int, int]) -> tuple[int, int] | None:
    """The jump from ``c`` in direction ``d``: (jumped cell, landing cell), reflected off the
    wall when the landing would leave the area in one direction; None in a corner."""
    col, row = col_of(c), row_of(c)
    oc, orow = col + d[0], row + d[1]
    if not in_area(oc, orow):
        return None
    dc, dr = d
    if not 1 <= oc + dc <= 8:
        dc = -dc
    if not 2 <= orow + dr <= 8:
        dr = -dr
    if (dc, dr) == (-d[0], -d[1]):
        return None
    return cell(oc, orow), cell(oc + dc, orow + dr)


JUMPS = tuple(
    tuple(j for d in DIAGONAL if (j := _jump(c, d)) is not None) if AREA[c] else ()
    for c in range(CELLS)
)
STEP_FORWARD = tuple(
    tuple(
        tuple(t for d in ((-1, f), (1, f)) if (t := NEIGHBOURS[d][c]) >= 0 and AREA[t])
        for c in range(CELLS)
    )
    for f in FORWARD
)
"""A piece is in check next to an enemy of the other face: plain by marked, marked by plain."""
_BEYOND = (
    tuple((row_of(c) + 1) * COLS for c in range(CELLS)),
    tuple((row_of(c) - 1) * COLS for c in range(CELLS)),
)
"""A cell ``t`` is strictly forward of ``c`` for Black when ``t >= _BEYOND[0][c]``, for White
when ``t < _BEYOND[1][c]`` (the first cell of the row above; of its own row)."""

# --- the board as one number (move generation) --------------------------------------------------
# Each cell is a hex digit of ``int(board.translate(_HEX), 16)``, cell 0 the most significant:
# 1 = P, 2 = M, 4 = p, 8 = m, so one bit per cell and kind. A set of cells is the sum of their
# ``BIT``; the masks of one kind of piece are the number shifted and masked with ``_ONES``.

_HEX = str.maketrans({EMPTY: "0", "P": "1", "M": "2", "p": "4", "m": "8"})
BIT = tuple(1 << 4 * (CELLS - 1 - c) for c in range(CELLS))
_ONES = sum(BIT)
_KIND_SHIFT = ((0, 1, 2, 3), (2, 3, 0, 1))
"""Per seat, the digit bit of its plain and marked pieces, then the enemy's plain and marked."""


def _cells_mask(cells: Iterable[int]) -> int:
    return sum(BIT[c] for c in set(cells))


def _jump_table(c: int) -> dict[int, tuple[int, ...]]:
    """For each occupancy of the cells the jumps from ``c`` cross and land on (the key is the
    occupancy masked with ``_JUMP_MASK[c]``): the landing cells of the possible jumps, in
    ``JUMPS[c]`` order. Jumps from one cell cross and land on distinct cells."""
    table: dict[int, tuple[int, ...]] = {0: ()}
    for over, land in JUMPS[c]:
        ob, lb = BIT[over], BIT[land]
        table = {
            key | extra: (*lands, land) if extra == ob else lands
            for key, lands in table.items()
            for extra in (0, ob, lb, ob | lb)
        }
    return table


_JUMP_MASK = tuple(_cells_mask(cell for pair in JUMPS[c] for cell in pair) for c in range(CELLS))
_JUMP_LANDS = tuple(_jump_table(c) for c in range(CELLS))
"""``_JUMP_LANDS[c][occupied & _JUMP_MASK[c]]``: where a piece on ``c`` can jump to."""
_STEP_MASK = tuple(tuple(_cells_mask(steps[c]) for c in range(CELLS)) for steps in STEP_FORWARD)


def _step_table(c: int, steps: tuple[int, ...]) -> dict[int, tuple[Move, ...]]:
    """For each occupancy of the cells ``steps`` (masked as ``_STEP_MASK``): the step moves
    from ``c`` to the empty ones, in order."""
    table: dict[int, tuple[Move, ...]] = {0: ()}
    for t in steps:
        bit = BIT[t]
        table = {
            key | extra: moves if extra else (*moves, STEPS[c][t])
            for key, moves in table.items()
            for extra in (0, bit)
        }
    return table


_STEP_MOVES = tuple(tuple(_step_table(c, steps[c]) for c in range(CELLS)) for steps in STEP_FORWARD)
"""``_STEP_MOVES[seat][c][occupied & _STEP_MASK[seat][c]]``: the steps of a piece on ``c``."""
_BLOCKED = tuple(
    tuple(_cells_mask(steps[c] + tuple(land for _, land in JUMPS[c])) for c in range(CELLS))
    for steps in STEP_FORWARD
)
"""A piece on ``c`` with all of ``_BLOCKED[seat][c]`` occupied has no move."""
_MINE = tuple(str.maketrans({ch: "x" for ch in own}) for own in OWN)
"""Translation tables that turn a seat's pieces into ``x`` (to find them with ``str.find``)."""
GOALS = (
    tuple(cell(col, 8) for col in (1, 3, 5, 7)),
    tuple(cell(col, 2) for col in (1, 3, 5, 7)),
)
"""Each seat's goal: the enemy's back ground row (Black: b8 d8 f8 h8; White: b2 d2 f2 h2)."""
START = "".join(
    "P"
    if (row <= 4 and (col + row) % 2 == 1 and AREA[c])
    else "p"
    if (row >= 6 and (col + row) % 2 == 1 and AREA[c])
    else EMPTY
    for c in range(CELLS)
    for col, row in [(col_of(c), row_of(c))]
)

FLIP_PHASE, MOVE_PHASE = 0, 1


def _occupied(board: str) -> tuple[int, int]:
    """``board`` as a number (see ``BIT``) and its occupied cells."""
    kinds = int(board.translate(_HEX), 16)
    return kinds, (kinds | kinds >> 1 | kinds >> 2 | kinds >> 3) & _ONES


def _around(m: int) -> int:
    """Each cell's digit of ``m`` (see ``BIT``) or-ed onto the digits of its 8 neighbours: 1, 9,
    10 or 11 cells away, 4 bits a cell. (A shift wraps across rows only from columns a and j,
    off the area; only area cells are read from the result.)"""
    return m << 4 | m >> 4 | m << 36 | m >> 36 | m << 40 | m >> 40 | m << 44 | m >> 44


def _pieces(board: str, seat: int, kinds: int) -> tuple[list[int], list[int]]:
    """The area cells of ``seat``'s pieces, and of those in check, in cell order."""
    find = board.translate(_MINE[seat]).find
    mine = []
    c = find("x")
    while c >= 0:
        if AREA[c]:
            mine.append(c)
        c = find("x", c + 1)
    plain, marked, their_plain, their_marked = _KIND_SHIFT[seat]
    near = _around(kinds)  # each cell's digit: the kinds of pieces next to it
    checked = (
        kinds >> plain & near >> their_marked | kinds >> marked & near >> their_plain
    ) & _ONES
    return mine, [c for c in mine if checked & BIT[c]] if checked else []


def _reach(occupied: int, c: int, seen: set[int], ends: list[int]) -> None:
    """Add to ``ends`` every cell a chain of jumps from ``c`` reaches through cells not yet in
    ``seen``, in depth-first order (``occupied``: with the moving piece lifted off its start).

    A cell reachable by some chain is reachable by one without repeats, so visiting each cell
    once finds every end, in the order a walk over every path first arrives at them."""
    for land in _JUMP_LANDS[c][occupied & _JUMP_MASK[c]]:
        if land not in seen:
            seen.add(land)
            ends.append(land)
            _reach(occupied, land, seen, ends)


def jump_path(board: str, start: int, end: int) -> list[int] | None:
    """One chain of jumps from ``start`` to ``end`` (cells landed on, start first), for
    drawing a move that only names its two ends; None if there is none."""
    path = [start]

    def go(c: int) -> bool:
        for over, land in JUMPS[c]:
            if board[over] == EMPTY or over == start or land in path or board[land] != EMPTY:
                continue
            path.append(land)
            if land == end or go(land):
                return True
            path.pop()
        return False

    return path if go(start) else None


@dataclass(frozen=True)
class KokutanState(SocratesState):
    """A 黒壇の馬 position: ``phase`` (flips, then moves) and whether the last turn passed."""

    phase: int = FLIP_PHASE
    last_passed: bool = False

    def _extra_key(self) -> Hashable:
        return (self.phase, self.last_passed)

    def _extra_tokens(self) -> tuple[str, ...]:
        if self.phase == MOVE_PHASE:
            return ("move",)
        return ("flip-pass" if self.last_passed else "flip",)

    def piece_moves(self, s: int) -> list[int]:
        """The end cells of the moves of the piece on ``s`` (steps, then jump chains)."""
        return [m.to for m in self._moves_of((s,), 0 if self.board[s] in OWN[0] else 1)]

    def in_check(self, seat: int) -> list[int]:
        """The cells of ``seat``'s pieces in check (チェック), in cell order."""
        return _pieces(self.board, seat, _occupied(self.board)[0])[1]

    def _moves_of(self, cells: Iterable[int], seat: int, occupied: int = -1) -> list[Move]:
        """The moves of the pieces on ``cells``: steps first, then jump chains ending forward.

        A jump moves a piece by an even number of columns and of rows (two, or none after a
        wall), so a chain never ends on a step's cell and the two lists need no merging."""
        if occupied < 0:
            occupied = _occupied(self.board)[1]
        blocked = _BLOCKED[seat]
        step_mask, step_moves = _STEP_MASK[seat], _STEP_MOVES[seat]
        jump_mask, jump_lands = _JUMP_MASK, _JUMP_LANDS
        beyond = _BEYOND[seat]
        black = seat == BLACK
        out: list[Move] = []
        for s in cells:
            need = blocked[s]
            if occupied & need == need:
                continue
            out.extend(step_moves[s][occupied & step_mask[s]])
            lands = jump_lands[s][occupied & jump_mask[s]]
            if lands:
                lifted = occupied & ~BIT[s]
                seen = {s}
                ends: list[int] = []
                for land in lands:
                    if land not in seen:
                        seen.add(land)
                        ends.append(land)
                        _reach(lifted, land, seen, ends)
                row = STEPS[s]
                lim = beyond[s]
                if black:
                    out.extend([row[t] for t in ends if t >= lim])
                else:
                    out.extend([row[t] for t in ends if t < lim])
        return out

    def _choices(self) -> tuple[Move, ...]:
        b = self.board
        me = self.turn
        if self.phase == FLIP_PHASE:
            plain = PLAIN[me]
            flips = []
            c = b.find(plain)
            while c >= 0:
                if AREA[c]:
                    flips.append(FLIPS[c])
                c = b.find(plain, c + 1)
            flips.append(PASS)
            return tuple(flips)
        kinds, occupied = _occupied(b)
        mine, checked = _pieces(b, me, kinds)
        if checked and (forced := self._moves_of(checked, me, occupied)):
            return tuple(forced)
        return tuple(self._moves_of(mine, me, occupied))

    def _play(self, move: Move) -> tuple[SocratesState, Outcome | None, bool]:
        me = self.turn
        board = self.board
        phase, passed = self.phase, False
        ending = None
        if move.kind == FLIP:
            board = put(board, move.frm, MARKED[me])
        elif move.kind == MOVE:
            board = moved(board, move.frm, move.to)
            if all(board[c] in OWN[me] for c in GOALS[me]):
                ending = win_for(
                    me, "the enemy's back row is filled.", "敵陣の最終段を占めました。"
                )
        elif phase == FLIP_PHASE:
            passed = True
            if self.last_passed:
                phase, passed = MOVE_PHASE, False
        nxt = replace(
            self,
            board=board,
            turn=1 - me,
            ply_count=self.ply_count + 1,
            phase=phase,
            last_passed=passed,
        )
        return nxt, ending, move.kind != "pass" or phase != self.phase


class Kokutan(SocratesGame):
    """ソクラテス 黒壇の馬 (Ebony Horse)."""

    id: ClassVar[str] = "socrates-kokutan"
    title_en: ClassVar[str] = "Socrates: Ebony Horse"
    title_ja: ClassVar[str] = "ソクラテス 黒壇の馬"
    extra_tokens: ClassVar[int] = 1
    summary: ClassVar[Text] = Text(
        "A checkers race on the Socrates board. First both players flip pieces until both pass; "
        "then pieces step diagonally forward or chain diagonal jumps over any pieces, bouncing "
        "off the outer wall, as long as the move ends further forward. A piece next to an enemy "
        "of the other face is in check and must move. Fill the enemy's four back cells to win.",
        "ソクラテス盤のチェッカー風競走。まず両者が駒を反転し、続けてパスしたら移動開始。駒は斜め"
        "前へ1マス、または敵味方の駒を斜めに連続で飛び越せ（外周で反射）、最後に前進していれば"
        "よい。表裏の違う敵駒に隣接した駒はチェックで、動かさなければなりません。敵陣の4マスを"
        "埋めれば勝ち。",
    )

    def initial_state(self, players: int, options: dict[str, str]) -> KokutanState:
        return self._state(START, BLACK, FLIP_PHASE, False, 0, 0, options)

    def _state(
        self,
        board: str,
        turn: int,
        phase: int,
        passed: bool,
        ply: int,
        passes: int,
        options: dict[str, str],
    ) -> KokutanState:
        return seal(
            KokutanState(
                board, turn, ply, passes, tuple(options.items()), phase=phase, last_passed=passed
            )
        )

    def build(
        self,
        board: str,
        turn: int,
        extra: tuple[str, ...],
        ply: int,
        passes: int,
        options: dict[str, str],
    ) -> KokutanState:
        phases = {"flip": (FLIP_PHASE, False), "flip-pass": (FLIP_PHASE, True)}
        phases["move"] = (MOVE_PHASE, False)
        if extra[0] not in phases:
            raise position_error(
                self,
                f"the phase is flip, flip-pass or move, not {extra[0]!r}",
                f"段階は flip・flip-pass・move のいずれかです（「{extra[0]}」）",
            )
        phase, passed = phases[extra[0]]
        check_counts(self, board, {"P": 12, "M": 12, "p": 12, "m": 12}, AREA)
        for seat in (0, 1):
            if sum(board.count(ch) for ch in OWN[seat]) > 12:
                raise position_error(
                    self, "each side has at most 12 pieces", "駒は各自12個までです"
                )
        return self._state(board, turn, phase, passed, ply, passes, options)


GAME = Kokutan()
KokutanState.game = GAME
