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

from engines.core import Outcome, PositionError, Text
from engines.socrates.board import (
    ALL_EIGHT,
    BLACK,
    CELLS,
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
AREA_CELLS = tuple(c for c in range(CELLS) if AREA[c])
ROW = tuple(row_of(c) for c in range(CELLS))


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
ADJACENT = tuple(tuple(t for d in ALL_EIGHT if (t := NEIGHBOURS[d][c]) >= 0) for c in range(CELLS))
CHECKED_BY = {"P": "m", "M": "p", "p": "M", "m": "P"}
"""A piece is in check next to an enemy of the other face: plain by marked, marked by plain."""
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


def jump_ends(board: str, start: int) -> list[int]:
    """Every cell a chain of jumps from ``start`` can stop on (any direction, no revisits)."""
    ends: list[int] = []
    _chain(board, start, start, {start}, ends)
    return ends


def _chain(board: str, start: int, c: int, visited: set[int], ends: list[int]) -> None:
    for over, land in JUMPS[c]:
        if land in visited or board[land] != EMPTY or board[over] == EMPTY or over == start:
            continue
        visited.add(land)
        ends.append(land)
        _chain(board, start, land, visited, ends)
        visited.discard(land)


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
        b = self.board
        own = OWN[seat]
        out = []
        for s in AREA_CELLS:
            ch = b[s]
            if ch in own:
                threat = CHECKED_BY[ch]
                for t in ADJACENT[s]:
                    if b[t] == threat:
                        out.append(s)
                        break
        return out

    def _moves_of(self, cells: Iterable[int], seat: int) -> list[Move]:
        """The moves of the pieces on ``cells``: steps first, then jump chains ending forward."""
        b = self.board
        fwd = FORWARD[seat]
        steps = STEP_FORWARD[seat]
        out: list[Move] = []
        for s in cells:
            dests = [t for t in steps[s] if b[t] == EMPTY]
            for over, land in JUMPS[s]:
                if b[over] != EMPTY and b[land] == EMPTY:
                    ends: list[int] = []
                    _chain(b, s, s, {s}, ends)
                    r = ROW[s]
                    for t in ends:
                        if (ROW[t] - r) * fwd > 0 and t not in dests:
                            dests.append(t)
                    break
            row = STEPS[s]
            out.extend(row[t] for t in dests)
        return out

    def _choices(self) -> tuple[Move, ...]:
        b = self.board
        me = self.turn
        if self.phase == FLIP_PHASE:
            plain = PLAIN[me]
            flips = [FLIPS[c] for c in AREA_CELLS if b[c] == plain]
            return (*flips, PASS)
        checked = self.in_check(me)
        if checked and (forced := self._moves_of(checked, me)):
            return tuple(forced)
        own = OWN[me]
        return tuple(self._moves_of([s for s in AREA_CELLS if b[s] in own], me))

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
        state = KokutanState(
            board, turn, ply, passes, tuple(options.items()), phase=phase, last_passed=passed
        )
        sealed = seal(state)
        assert isinstance(sealed, KokutanState)
        return sealed

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
            raise PositionError(
                Text(
                    f"The phase is flip, flip-pass or move, not {extra[0]!r}.",
                    f"段階は flip・flip-pass・move のいずれかです（「{extra[0]}」）。",
                )
            )
        phase, passed = phases[extra[0]]
        check_counts(board, {"P": 12, "M": 12, "p": 12, "m": 12}, AREA)
        for seat in (0, 1):
            if sum(board.count(ch) for ch in OWN[seat]) > 12:
                raise PositionError(
                    Text("Each side has at most 12 pieces.", "駒は各自12個までです。")
                )
        return self._state(board, turn, phase, passed, ply, passes, options)


GAME = Kokutan()
KokutanState.game = GAME
