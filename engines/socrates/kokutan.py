"""黒壇の馬 (Ebony Horse, also 黒檀の馬): a checkers race on the ground and the equator.

Phase 1: players flip (反転) plain pieces to marked or pass; two passes in a row start phase 2.
Phase 2: a piece steps one cell diagonally forward, or makes a chain of diagonal jumps over any
pieces, reflecting off the outer ring (a wall) by 90°, never visiting a cell twice, and ending
strictly forward of where it began. A piece next to an enemy of the other face is in check
(チェック) and must be moved if it can. Filling the enemy's four back ground cells wins.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field, replace
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
# Pieces stand on rows 2-8 only, so generation reads the board's cells 11-78 (``_SPAN``; the ring
# cells among them stay empty) as one number, ``kinds``: a hex digit per cell, cell 11 the most
# significant, one bit per kind of piece as the side to move sees them (``_SEAT_HEX``). A set of
# cells is the sum of their ``BIT`` (each cell's lowest digit bit); the set of one kind of piece
# is ``kinds`` shifted and masked with ``_ONES``.

_FIRST, _LAST = cell(1, 2), cell(COLS - 2, 8)
_SPAN = slice(_FIRST, _LAST + 1)
BIT = tuple(1 << 4 * (_LAST - c) if _FIRST <= c <= _LAST else 0 for c in range(CELLS))
"""A cell's lowest bit in ``kinds`` (0 for the rows no piece reaches)."""
_ONES = sum(BIT[c] for c in range(CELLS) if AREA[c])
"""The lowest bit of every area cell's digit."""
_SEAT_HEX = (
    str.maketrans({EMPTY: "0", "P": "1", "M": "2", "m": "4", "p": "8"}),
    str.maketrans({EMPTY: "0", "p": "1", "m": "2", "M": "4", "P": "8"}),
)
"""Per seat, ``kinds`` as that seat sees it: 1 = its plain piece, 2 = its marked piece,
4 = an enemy marked one, 8 = an enemy plain one."""
_THREES = 3 * _ONES
_SEVENS = 7 * _ONES
_CELL_AT_BIT = tuple(_LAST - b // 4 for b in range(4 * (_LAST - _FIRST + 1)))
"""The cell of a bit of ``kinds``."""


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
    return {key: _ONE[lands[0]] if len(lands) == 1 else lands for key, lands in table.items()}


_ONE = tuple((c,) for c in range(CELLS))
"""The one-cell tuples, shared by the tables rather than built again in each."""


_JUMP_MASK = tuple(_cells_mask(cell for pair in JUMPS[c] for cell in pair) for c in range(CELLS))
_JUMP_LANDS = tuple(_jump_table(c) for c in range(CELLS))
"""``_JUMP_LANDS[c][occupied & _JUMP_MASK[c]]``: where a piece on ``c`` can jump to."""


Land = tuple[int, "Move | None", dict[int, tuple[int, ...]], int, frozenset[int]]
"""A first jump: (landing cell, the move there if it ends forward, the landing cell's
``_JUMP_LANDS`` and ``_JUMP_MASK`` for the jumps on from there, and the first jumps' landing
cells up to this one)."""


def _near_table(seat: int, c: int) -> dict[int, tuple[tuple[Move, ...], tuple[Land, ...]]]:
    """For each occupancy of the cells a piece of ``seat`` on ``c`` steps to, jumps over or
    lands on (masked with ``_NEAR_MASK``): its steps and its first jumps."""
    steps = STEP_FORWARD[seat][c]
    cells = sorted({*steps, *(x for pair in JUMPS[c] for x in pair)})
    lim = _BEYOND[seat][c]
    forward = {t: STEPS[c][t] for t in range(CELLS) if (t >= lim) is (seat == BLACK)}
    out: dict[int, tuple[tuple[Move, ...], tuple[Land, ...]]] = {}
    for bits in range(1 << len(cells)):
        occ = sum(BIT[x] for i, x in enumerate(cells) if bits >> i & 1)
        moves = tuple(STEPS[c][t] for t in steps if not occ & BIT[t])
        ends = [land for over, land in JUMPS[c] if occ & BIT[over] and not occ & BIT[land]]
        lands = tuple(
            (land, forward.get(land), _JUMP_LANDS[land], _JUMP_MASK[land], frozenset(ends[: i + 1]))
            for i, land in enumerate(ends)
        )
        out[occ] = (moves, lands)
    return out


_NEAR_MASK = tuple(
    tuple(_cells_mask((*steps[c], *(x for pair in JUMPS[c] for x in pair))) for c in range(CELLS))
    for steps in STEP_FORWARD
)
_NEAR = tuple(
    tuple(_near_table(seat, c) if AREA[c] else {} for c in range(CELLS)) for seat in (0, 1)
)
"""``_NEAR[seat][c][occupied & _NEAR_MASK[seat][c]]``: (the steps of a piece on ``c``, its first
jumps), one look-up for both."""
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


Piece = tuple[int, dict[int, tuple[tuple[Move, ...], tuple[Land, ...]]], int]
"""A cell with its ``_NEAR`` table and ``_NEAR_MASK`` for one seat."""


_OFF_COLOUR = sum(0xF * BIT[c] for c in range(CELLS) if (col_of(c) + row_of(c)) % 2 == 0)
"""Every bit of the digits of the cells a piece never reaches from the start."""


def _set_table(seat: int, cells: list[int]) -> tuple[int, int, dict[int, tuple[Piece, ...]]]:
    """A set of ``cells`` (in cell order, a few rows' worth) at a time: the shift that brings
    their digits (see ``kinds``) to the bottom, the mask that then keeps theirs only, and for
    each set of them the pieces on it in cell order, each with its tables."""
    shift = 4 * (_LAST - cells[-1])
    table: dict[int, tuple[Piece, ...]] = {0: ()}
    for c in cells:  # each cell doubles the table; in cell order, so pieces come in cell order
        piece, bit = (c, _NEAR[seat][c], _NEAR_MASK[seat][c]), BIT[c] >> shift
        table.update({key | bit: (*pieces, piece) for key, pieces in table.items()})
    return shift, sum(BIT[c] for c in cells) >> shift, table


def _reachable(c: int) -> bool:
    """Whether a piece can stand on ``c`` in a game from the start (see ``_OFF_COLOUR``)."""
    return AREA[c] and not _OFF_COLOUR & BIT[c]


_ROWS = tuple(
    tuple(_set_table(seat, [cell(col, row) for col in range(1, COLS - 1)]) for row in range(2, 9))
    for seat in (0, 1)
)
"""Per seat, the area's cells a row at a time (``_set_table``)."""
_GROUPS = tuple(
    tuple(
        _set_table(
            seat, [c for c in range(cell(1, rows[0]), cell(1, rows[-1] + 1)) if _reachable(c)]
        )
        for rows in (range(2, 5), range(5, 8), range(8, 9))
    )
    for seat in (0, 1)
)
"""Per seat, the cells a piece can reach from the start (see ``_OFF_COLOUR``), three rows at a
time: fewer look-ups than ``_ROWS`` while no piece stands off them (none does, but in a
hand-made position)."""


def _around(m: int) -> int:
    """Each cell's digit of ``m`` (see ``kinds``) or-ed onto the digits of its 8 neighbours: 1,
    9, 10 or 11 cells away, 4 bits a cell. (A shift wraps across rows only from columns a and
    j, off the area; only area cells are read from the result.)"""
    return m << 4 | m >> 4 | m << 36 | m >> 36 | m << 40 | m >> 40 | m << 44 | m >> 44


def kinds_of(board: str) -> tuple[int, int]:
    """``kinds`` (see above) of ``board`` as each seat sees it."""
    span = board[_SPAN]
    return int(span.translate(_SEAT_HEX[0]), 16), int(span.translate(_SEAT_HEX[1]), 16)


_DIGITS = {ch: tuple(int(ch.translate(view), 16) for view in _SEAT_HEX) for ch in "PMmp"}
"""A piece's digit in ``kinds`` as each seat sees it (``_SEAT_HEX``)."""
_FLIPPED = tuple(
    tuple(_DIGITS[MARKED[s]][view] - _DIGITS[PLAIN[s]][view] for view in (0, 1)) for s in (0, 1)
)
"""Per seat flipping a piece, what its digit in ``kinds`` gains in each seat's view."""


def _masks(kinds: int) -> tuple[int, int, int]:
    """``occupied`` (see ``BIT``), and the digits (see ``kinds``) of the pieces in check
    (チェック) of the seat that sees the board as ``kinds``, and of all its pieces."""
    # Each cell's digit: the kinds of pieces next to it. Pieces keep to the cells of one colour
    # (col + row odd: every move is diagonal), whose orthogonal neighbours are always empty;
    # only a hand-made position may use the others.
    if kinds & _OFF_COLOUR:
        near = _around(kinds)
    else:  # the 4 diagonal neighbours only (9 or 11 cells away), as _around does
        near = kinds << 36 | kinds >> 36 | kinds << 44 | kinds >> 44
    # Bit 0: my plain piece next to a marked enemy; bit 1: my marked one next to a plain enemy.
    # (Adding 3 to a digit 0-3, or 7 to a digit 0-8, sets bit 2, or bit 3, when it was not 0.)
    checked = ((kinds & near >> 2 & _THREES) + _THREES) >> 2 & _ONES
    occupied = (kinds + _SEVENS) >> 3 & _ONES
    return occupied, checked, ((kinds & _THREES) + _THREES) >> 2 & _ONES


def _walk(
    occupied: int,
    lands: tuple[int, ...],
    seen: set[int],
    out: list[Move],
    row: tuple[Move, ...],
    lim: int,
    black: bool,
) -> None:
    """Follow every chain of jumps on through ``lands`` to cells not yet in ``seen``, depth
    first, adding to ``out`` the move (from ``row``) to each cell strictly forward (past
    ``lim``, see ``_BEYOND``) the first time it is reached. ``occupied``: with the moving
    piece lifted off its start.

    A cell reachable by some chain is reachable by one without repeats, so visiting each cell
    once finds every end, in the order a walk over every path first arrives at them."""
    for land in lands:
        if land in seen:
            continue
        seen.add(land)
        if (land >= lim) is black:
            out.append(row[land])
        more = _JUMP_LANDS[land][occupied & _JUMP_MASK[land]]
        for m in more:
            if m not in seen:
                _walk(occupied, more, seen, out, row, lim, black)
                break


def _cells_of(mask: int) -> list[int]:
    """The cells of a set of digits (see ``kinds``), in cell order."""
    out = []
    at = _CELL_AT_BIT
    while mask:
        top = mask.bit_length() - 1
        out.append(at[top])
        mask ^= 1 << top
    return out


def _moves_of(pieces: int, checked: int, seat: int, occupied: int) -> list[Move]:
    """The moves of ``seat``'s pieces on the digits ``pieces`` (see ``kinds``), piece by piece in
    cell order: steps first, then jump chains ending forward. When some of the pieces in
    ``checked`` can move, only theirs (a piece in check must move)."""
    if checked:
        forced = _piece_moves(checked, seat, occupied)
        if forced:
            return forced
        pieces &= ~checked
    return _piece_moves(pieces, seat, occupied)


def _piece_moves(pieces: int, seat: int, occupied: int) -> list[Move]:
    """The moves of ``seat``'s pieces on the digits ``pieces``, piece by piece in cell order:
    steps first, then jump chains ending forward.

    A jump moves a piece by an even number of columns and of rows (two, or none after a
    wall), so a chain never ends on a step's cell and the two lists need no merging."""
    out: list[Move] = []
    for shift, mask, group in _ROWS[seat] if pieces & _OFF_COLOUR else _GROUPS[seat]:
        for s, near, near_mask in group[pieces >> shift & mask]:
            steps, lands = near[occupied & near_mask]
            if steps:
                out.extend(steps)
            if not lands:
                continue
            # The first jumps, as in _walk (inlined: most lead nowhere). The jumps on from a
            # landing cell are looked up with the piece still on its start: it is never the
            # cell jumped over (it stands two rows away), so this only leaves out the way back.
            seen = None
            for land, move, jump_lands, jump_mask, before in lands:
                if seen is not None:
                    if land in seen:
                        continue
                    seen.add(land)
                if move is not None:
                    out.append(move)
                more = jump_lands[occupied & jump_mask]
                if not more:
                    continue
                if seen is None:
                    seen = {s, *before}
                for m in more:
                    if m not in seen:
                        lifted = occupied ^ BIT[s]
                        lim = _BEYOND[seat][s]
                        _walk(lifted, more, seen, out, STEPS[s], lim, seat == BLACK)
                        break
    return out


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
    kinds: tuple[int, int] | None = field(default=None, compare=False, repr=False)
    """The board as two numbers (``kinds`` as each seat sees it, see above), kept up to date by
    each move as python-chess keeps its bitboards; derived from ``board`` when missing."""

    def _kinds(self, seat: int) -> int:
        kinds = self.kinds
        if kinds is None:
            kinds = kinds_of(self.board)
            object.__setattr__(self, "kinds", kinds)
        return kinds[seat]

    def _extra_key(self) -> Hashable:
        return (self.phase, self.last_passed)

    def _extra_tokens(self) -> tuple[str, ...]:
        if self.phase == MOVE_PHASE:
            return ("move",)
        return ("flip-pass" if self.last_passed else "flip",)

    def piece_moves(self, s: int) -> list[int]:
        """The end cells of the moves of the piece on ``s`` (steps, then jump chains)."""
        return [m.to for m in self._moves_of((s,), 0 if self.board[s] in OWN[0] else 1)]

    def moves_for(self, seat: int) -> list[Move]:
        """The moves ``seat`` would have in phase 2 if it were its turn (for the computer's
        evaluation; no pass)."""
        occupied, checked, mine = _masks(self._kinds(seat))
        return _moves_of(mine, checked, seat, occupied)

    def in_check(self, seat: int) -> list[int]:
        """The cells of ``seat``'s pieces in check (チェック), in cell order."""
        return _cells_of(_masks(self._kinds(seat))[1])

    def _moves_of(self, cells: Iterable[int], seat: int, occupied: int = -1) -> list[Move]:
        """The moves of the pieces on ``cells``: steps first, then jump chains ending forward.

        A jump moves a piece by an even number of columns and of rows (two, or none after a
        wall), so a chain never ends on a step's cell and the two lists need no merging."""
        if occupied < 0:
            occupied = _masks(self._kinds(seat))[0]
        return _moves_of(sum(BIT[c] for c in set(cells)), 0, seat, occupied)

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
        occupied, checked, mine = _masks(self._kinds(me))
        return tuple(_moves_of(mine, checked, me, occupied))

    def _play(self, move: Move) -> tuple[SocratesState, Outcome | None, bool]:
        me = self.turn
        board = self.board
        phase, passed = self.phase, False
        ending = None
        kinds = self.kinds
        if move.kind == FLIP:
            board = put(board, move.frm, MARKED[me])
            if kinds is not None:
                gain, bit = _FLIPPED[me], BIT[move.frm]
                kinds = (kinds[0] + gain[0] * bit, kinds[1] + gain[1] * bit)
        elif move.kind == MOVE:
            if kinds is not None:
                digits, step = _DIGITS[board[move.frm]], BIT[move.to] - BIT[move.frm]
                kinds = (kinds[0] + digits[0] * step, kinds[1] + digits[1] * step)
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
            kinds=kinds,
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
                board,
                turn,
                ply,
                passes,
                tuple(options.items()),
                phase=phase,
                last_passed=passed,
                kinds=kinds_of(board),
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
