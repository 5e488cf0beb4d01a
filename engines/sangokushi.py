"""三国志三人将棋 (Sangokushi san-nin shōgi, Three Kingdoms shogi): 3-player shogi on 61 hexes.

Rules: docs/rules/sangokushi.md (binding spec: shared/rules/sangokushi.md). Cells use axial
coordinates (q, r) named as in Abalone (A1 bottom-left .. I9 top-right, E5 the centre). Every
piece's move is data in seat 0's frame; seat k's frame is that frame turned by k × 120°
clockwise (a 180° turn for seat 1 of the 2-player variant). The turn order follows the 王手
(check) rule: a single check hands the turn to the checked player and remembers the checker as
the player to return to (``return_to``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import Any, ClassVar

from engines.core import (
    DRAW_TEXTS,
    TERMINAL,
    AmbiguousMoveError,
    Game,
    IllegalMoveError,
    InvalidMoveError,
    OptionSpec,
    Outcome,
    PositionError,
    State,
    Termination,
    Text,
    cached,
    check_input,
    normalise,
    ply_cap,
    position_error,
    repetition_limit,
)

# --- the board ------------------------------------------------------------------------------

ROWS = "ABCDEFGHI"
CELLS: tuple[tuple[int, int], ...] = tuple(
    (q, r) for r in range(4, -5, -1) for q in range(-4, 5) if abs(q + r) <= 4
)
"""Axial (q, r) of each cell, in name order A1..A5, B1..B6, .., I5..I9 (the stable order)."""
INDEX: dict[tuple[int, int], int] = {c: i for i, c in enumerate(CELLS)}
NAMES: tuple[str, ...] = tuple(f"{ROWS[4 - r]}{q + 5}" for q, r in CELLS)
CELL_OF: dict[str, int] = {n: i for i, n in enumerate(NAMES)}
CENTRE = CELL_OF["E5"]
N_CELLS = len(CELLS)

DIRS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
"""The six neighbour directions E, NE, NW, W, SW, SE: each index is 60° anticlockwise of the
one before, so turning a frame is adding to the index."""
E, NE, NW, W, SW, SE = range(6)


def _rot60(v: tuple[int, int], times: int) -> tuple[int, int]:
    """Turn an axial vector by ``times`` × 60° anticlockwise (as drawn: r grows downwards)."""
    q, r = v
    for _ in range(times % 6):
        q, r = q + r, -q
    return q, r


def _add(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    return a[0] + b[0], a[1] + b[1]


def frame_turn(players: int, seat: int) -> int:
    """Seat ``seat``'s frame as a turn of seat 0's, in 60° anticlockwise steps."""
    if players == 2:
        return 3 * seat  # 180°
    return (4 * seat) % 6  # k × 120° clockwise


def turn_cell(cell: int, times: int) -> int:
    """The cell that ``cell`` becomes when the board turns by ``times`` × 60° anticlockwise."""
    return INDEX[_rot60(CELLS[cell], times)]


# --- pieces, as data ------------------------------------------------------------------------

GENERAL, CAVALRY, SPEAR, ARCHER, PAWN, TOKIN = 1, 2, 3, 4, 5, 6
"""Piece kinds: 武将 general, 騎兵 cavalry, 槍兵 spear, 弓兵 archer, 歩兵 pawn, and the promoted
pawn (成り歩兵, drawn red). A board cell holds ``kind + 8 * seat`` (0: empty)."""
LETTERS = {GENERAL: "G", CAVALRY: "H", SPEAR: "L", ARCHER: "B", PAWN: "P", TOKIN: "+P"}
KANJI = {GENERAL: "将", CAVALRY: "騎", SPEAR: "槍", ARCHER: "弓", PAWN: "歩", TOKIN: "と"}
KIND_OF_LETTER = {v: k for k, v in LETTERS.items()}
HAND_KINDS = (GENERAL, CAVALRY, SPEAR, ARCHER, PAWN)
"""Hand order. A general in a hand means its captor has won (so a final position reads back)."""
DROP_KINDS = (CAVALRY, SPEAR, ARCHER, PAWN)


@dataclass(frozen=True)
class PieceMove:
    """A piece's move in seat 0's frame: single steps, slides (by direction) and leaps."""

    steps: tuple[int, ...] = ()
    slides: tuple[int, ...] = ()
    leaps: tuple[tuple[int, int], ...] = ()


OBLIQUE = (NE, NW, SW, SE)  # 斜め; E and W are 横 (sideways)
CORNER_LEAPS = ((1, -2), (2, -1), (1, 1), (-1, 2), (-2, 1), (-1, -1))
LINE_LEAPS = tuple((2 * q, 2 * r) for q, r in DIRS)

PIECE_MOVES: dict[str, PieceMove] = {
    "general": PieceMove(steps=(E, NE, NW, W, SW, SE)),
    "cavalry": PieceMove(slides=OBLIQUE),
    "spear": PieceMove(steps=OBLIQUE, slides=(E, W)),
    "spear=forward": PieceMove(steps=(NE, NW), slides=(E, W)),
    "archer": PieceMove(leaps=CORNER_LEAPS),
    "archer=line": PieceMove(leaps=LINE_LEAPS),
    "pawn": PieceMove(steps=(NE, NW)),
    "tokin": PieceMove(steps=(E, NE, NW, W, SW, SE)),
}

START_LAYOUT: dict[str, int] = {
    "A1": SPEAR, "A2": CAVALRY, "A3": GENERAL, "A4": CAVALRY, "A5": SPEAR,
    "B1": ARCHER, "B2": PAWN, "B3": PAWN, "B4": PAWN, "B5": PAWN, "B6": ARCHER,
}  # fmt: skip
"""Seat 0's army (the 初期配置 ruling); the other seats get it turned into their frame."""
CAMP_ROWS = "AB"
"""Seat 0's camp (自陣): the two rows along its edge, exactly where its army starts."""
CAMP_ROWS_2P = "ABC"
"""In the 2-player game a pawn promotes in the opponent's three nearest rows (敵陣)."""


def seat_cells(cells: Iterable[int], players: int, seat: int) -> frozenset[int]:
    turn = frame_turn(players, seat)
    return frozenset(turn_cell(c, turn) for c in cells)


@dataclass(frozen=True)
class Tables:
    """Per-cell move tables for one rule set, indexed by board code (kind + 8 × seat)."""

    jumps: tuple[tuple[tuple[int, ...], ...], ...]  # code -> cell -> single-step/leap targets
    rays: tuple[tuple[tuple[tuple[int, ...], ...], ...], ...]  # code -> cell -> slide rays
    slide_mask: tuple[int, ...]  # code -> bit d set when the piece slides along DIRS[d]
    jump_attackers: tuple[tuple[tuple[int, frozenset[int]], ...], ...]  # cell -> (from, codes)
    promo: tuple[frozenset[int], ...]  # seat -> cells where a pawn may promote (in or out)
    camps: tuple[frozenset[int], ...]  # seat -> its camp
    seat_jump_attackers: tuple[tuple[tuple[tuple[int, frozenset[int]], ...], ...], ...]
    """seat -> cell -> (from, codes of the other seats' pieces that reach the cell from there)"""
    seat_ray_attackers: tuple[tuple[frozenset[int], ...], ...]
    """seat -> d -> codes of the other seats' pieces that slide back along ``DIRS[d]``: a piece
    first met along ``RAYS[cell][d]`` attacks ``cell`` when its code is in this set"""


NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(INDEX.get(_add(c, d), -1) for d in DIRS) for c in CELLS
)
RAYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(
        tuple(
            INDEX[(c[0] + k * d[0], c[1] + k * d[1])]
            for k in range(1, 9)
            if (c[0] + k * d[0], c[1] + k * d[1]) in INDEX
        )
        for d in DIRS
    )
    for c in CELLS
)
ALIGNED: tuple[frozenset[int], ...] = tuple(frozenset(x for ray in rs for x in ray) for rs in RAYS)
"""Cells on one of the six lines through a cell: only a move from there can uncover a slide."""
LINES: tuple[tuple[tuple[int, tuple[int, ...]], ...], ...] = tuple(
    tuple((d, ray) for d, ray in enumerate(rs) if ray) for rs in RAYS
)
"""Per cell, (direction, ray) for each direction that leaves the board later than at once."""


@cache
def tables(players: int, spear: str, archer: str) -> Tables:
    """Build the move tables of one rule set (cached: they are pure data)."""
    moves = {
        GENERAL: PIECE_MOVES["general"],
        CAVALRY: PIECE_MOVES["cavalry"],
        SPEAR: PIECE_MOVES["spear=forward" if spear == "forward" else "spear"],
        ARCHER: PIECE_MOVES["archer=line" if archer == "line" else "archer"],
        PAWN: PIECE_MOVES["pawn"],
        TOKIN: PIECE_MOVES["tokin"],
    }
    codes = 8 * players
    jumps: list[tuple[tuple[int, ...], ...]] = [()] * codes
    rays: list[tuple[tuple[tuple[int, ...], ...], ...]] = [()] * codes
    slide_mask = [0] * codes
    attackers: list[dict[int, set[int]]] = [{} for _ in CELLS]
    for seat in range(players):
        turn = frame_turn(players, seat)
        for kind, pm in moves.items():
            code = kind + 8 * seat
            vectors = [DIRS[(d + turn) % 6] for d in pm.steps]
            vectors += [_rot60(v, turn) for v in pm.leaps]
            slides = [(d + turn) % 6 for d in pm.slides]
            slide_mask[code] = sum(1 << d for d in slides)
            cell_jumps: list[tuple[int, ...]] = []
            for i, c in enumerate(CELLS):
                targets = tuple(INDEX[x] for v in vectors if (x := _add(c, v)) in INDEX)
                cell_jumps.append(targets)
                for dst in targets:
                    attackers[dst].setdefault(i, set()).add(code)
            jumps[code] = tuple(cell_jumps)
            rays[code] = tuple(tuple(RAYS[i][d] for d in slides) for i in range(N_CELLS))
    jump_attackers = tuple(
        tuple((src, frozenset(cs)) for src, cs in sorted(a.items())) for a in attackers
    )
    if players == 2:
        camp0 = frozenset(i for i, n in enumerate(NAMES) if n[0] in CAMP_ROWS_2P)
        promo: tuple[frozenset[int], ...] = (seat_cells(camp0, 2, 1), camp0)
        camps = tuple(seat_cells(frozenset(CELL_OF[n] for n in START_LAYOUT), 2, s) for s in (0, 1))
    else:
        camp0 = frozenset(i for i, n in enumerate(NAMES) if n[0] in CAMP_ROWS)
        camps = tuple(seat_cells(camp0, 3, s) for s in range(3))
        promo = tuple(
            frozenset({CENTRE}).union(*(camps[o] for o in range(3) if o != s)) for s in range(3)
        )
    seat_jump_attackers = tuple(
        tuple(
            tuple(
                (src, others)
                for src, cs in a
                if (others := frozenset(c for c in cs if c >> 3 != seat))
            )
            for a in jump_attackers
        )
        for seat in range(players)
    )
    seat_ray_attackers = tuple(
        tuple(
            frozenset(
                c for c in range(1, codes) if c >> 3 != seat and slide_mask[c] >> (d + 3) % 6 & 1
            )
            for d in range(6)
        )
        for seat in range(players)
    )
    sorted_jumps = tuple(tuple(tuple(sorted(cells)) for cells in per) for per in jumps)
    return Tables(
        sorted_jumps,
        tuple(rays),
        tuple(slide_mask),
        jump_attackers,
        promo,
        camps,
        seat_jump_attackers,
        seat_ray_attackers,
    )


def attackers_of(board: tuple[int, ...] | list[int], cell: int, seat: int, t: Tables) -> list[int]:
    """Cells holding a piece of another player than ``seat`` that could move to ``cell``."""
    out: list[int] = []
    for src, codes in t.jump_attackers[cell]:
        c = board[src]
        if c in codes and c >> 3 != seat:
            out.append(src)
    mask = t.slide_mask
    for d, ray in enumerate(RAYS[cell]):
        back = (d + 3) % 6
        for x in ray:
            c = board[x]
            if c:
                if c >> 3 != seat and mask[c] >> back & 1:
                    out.append(x)
                break
    return out


def is_attacked(board: tuple[int, ...] | list[int], cell: int, seat: int, t: Tables) -> bool:
    """True when a piece of another player than ``seat`` could move to ``cell``."""
    for src, codes in t.seat_jump_attackers[seat][cell]:
        if board[src] in codes:
            return True
    sliders = t.seat_ray_attackers[seat]
    for d, ray in LINES[cell]:
        for x in ray:
            c = board[x]
            if c:
                if c in sliders[d]:
                    return True
                break
    return False


@cache
def _tables_for(players: int, opts: tuple[tuple[str, str], ...]) -> Tables:
    o = dict(opts)
    return tables(players, o["spear"], o["archer"])


@cache
def _limits(opts: tuple[tuple[str, str], ...]) -> tuple[int, int]:
    """The repetition limit and the ply cap of a set of options."""
    o = dict(opts)
    return repetition_limit(o), ply_cap(o)


def _pins(board: tuple[int, ...], g: int, seat: int, t: Tables) -> dict[int, tuple[int, ...]]:
    """``seat``'s pinned pieces: for each, the cells it may move to without exposing the general
    on ``g`` (the line from the general up to and including the enemy slider behind it)."""
    pins: dict[int, tuple[int, ...]] = {}
    sliders = t.seat_ray_attackers[seat]
    low, high = 8 * seat + 1, 8 * seat + 8
    for d, ray in LINES[g]:
        own = -1
        for i, x in enumerate(ray):
            c = board[x]
            if not c:
                continue
            if own < 0 and low <= c < high:
                own = x
                continue
            if own >= 0 and c in sliders[d]:
                pins[own] = ray[: i + 1]
            break
    return pins


def _safe_targets(
    work: list[int], src: int, targets: list[int], g: int, seat: int, t: Tables
) -> list[int]:
    """The ``targets`` that leave ``seat``'s general (on ``g``) unattacked when the piece on
    ``src`` moves there, tried on ``work`` (a copy of the board, restored before returning).
    Capturing a general is always legal."""
    code = work[src]
    out = []
    for dst in targets:
        captured = work[dst]
        if captured & 7 == GENERAL:
            out.append(dst)
            continue
        work[dst] = code
        work[src] = 0
        if not is_attacked(work, dst if src == g else g, seat, t):
            out.append(dst)
        work[src] = code
        work[dst] = captured
    return out


# --- moves ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, order=True)
class Move:
    """A move ``src``-``dst`` (cells), possibly promoting, or a drop (打ち): ``src`` = -1 and
    ``drop`` = the kind taken from the hand."""

    src: int
    dst: int
    promote: bool = False
    drop: int = 0

    @property
    def is_drop(self) -> bool:
        return self.src < 0

    def __str__(self) -> str:
        """The move in notation, as far as the move alone says it: ``A2-C4``, ``B3-C4+`` or
        ``P*E5``. The canonical form (``format_move``) also names the moving piece
        (``HA2-C4``), which only the board knows; the input accepts both."""
        if self.is_drop:
            return f"{LETTERS.get(self.drop, '?')}*{NAMES[self.dst]}"
        return f"{NAMES[self.src]}-{NAMES[self.dst]}{'+' if self.promote else ''}"


STEP_MOVES: tuple[tuple[Move, ...], ...] = tuple(
    tuple(Move(src, dst) for dst in range(N_CELLS)) for src in range(N_CELLS)
)
"""``STEP_MOVES[src][dst]``: the move ``src``-``dst`` (shared values: generation looks them up)."""
PROMOTIONS: tuple[tuple[Move, ...], ...] = tuple(
    tuple(Move(src, dst, True) for dst in range(N_CELLS)) for src in range(N_CELLS)
)
DROPS: dict[int, tuple[Move, ...]] = {
    kind: tuple(Move(-1, dst, False, kind) for dst in range(N_CELLS)) for kind in DROP_KINDS
}

SEAT_NAMES_3P = (("Wei", "魏"), ("Shu", "蜀"), ("Wu", "呉"))
SEAT_NAMES_2P = (("Black", "先手"), ("White", "後手"))


def _seat(players: int, seat: int, lang: str) -> str:
    names = SEAT_NAMES_3P if players == 3 else SEAT_NAMES_2P
    en, ja = names[seat]
    return ja if lang.startswith("ja") else en


def _seat_text(players: int, seat: int) -> Text:
    return Text(_seat(players, seat, "en"), _seat(players, seat, "ja"))


# --- the state ------------------------------------------------------------------------------

Options = tuple[tuple[str, str], ...]


@dataclass(frozen=True, eq=True)
class SangokushiState(State[Move]):
    """A position of 三国志三人将棋.

    ``return_to`` is the player remembered by the 王手 rule (-1: none); ``checked_by[s]`` the
    player whose turn most recently put seat ``s`` in check (-1: nobody yet; it names the winner
    when ``s`` has no legal turn); ``last_mover`` and ``last_checks`` describe the turn just
    played (its set S of newly checked players).
    """

    game: ClassVar[Game[Any]]

    players: int
    board: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    to_move: int
    return_to: int
    checked_by: tuple[int, ...]
    last_mover: int
    last_checks: tuple[int, ...]
    plies: int
    opts: Options
    history: tuple[int, ...] = field(default=(), compare=False, repr=False)
    """Hashes of the repetition keys of every position so far (this one included)."""

    # -- basics ------------------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return self.players

    @property
    def ply(self) -> int:
        return self.plies

    def options(self) -> dict[str, str]:
        return dict(self.opts)

    @cached
    def tables(self) -> Tables:
        return _tables_for(self.players, self.opts)

    def current_player(self) -> int:
        return TERMINAL if self.outcome() is not None else self.to_move

    def general_cell(self, seat: int) -> int:
        """Where ``seat``'s general stands (-1 when it has been captured)."""
        try:
            return self.board.index(GENERAL + 8 * seat)
        except ValueError:
            return -1

    @cached
    def in_check(self) -> frozenset[int]:
        """Seats whose general is attacked now (王手がかかっている)."""
        out = set()
        for seat in range(self.players):
            g = self.general_cell(seat)
            if g >= 0 and is_attacked(self.board, g, seat, self.tables):
                out.add(seat)
        return frozenset(out)

    def repetition_key(self) -> tuple[Any, ...]:
        """What the repetition rule compares: board, hands, player to move, player to return to."""
        return (self.board, self.hands, self.to_move, self.return_to)

    # -- moves -------------------------------------------------------------------------------
    def legal_moves(self, player: int | None = None) -> tuple[Move, ...]:
        if player is not None:
            self.check_player(player)
            if player != self.to_move:
                return ()
        moves = self._legal  # first, so that the outcome's test for a legal turn is free
        return () if self.outcome() is not None else moves

    @cached
    def _pseudo_legal(self) -> tuple[tuple[Move, ...], tuple[Move, ...]]:
        """(legal by the check rule, rejected because they leave one's general in check).

        Out of check only the general's own moves and the moves of a pinned piece (the only
        piece of its owner between the general and an enemy slider) can expose the general; in
        check every move is tried on the board."""
        t = self.tables
        me = self.to_move
        board = self.board
        g = self.general_cell(me)
        checked = g >= 0 and is_attacked(board, g, me, t)
        pins = {} if checked or g < 0 else _pins(board, g, me, t)
        promo = t.promo[me]
        pawn = PAWN + 8 * me
        jumps, rays = t.jumps, t.rays
        low, high = 8 * me + 1, 8 * me + 8
        ok: list[Move] = []
        bad: list[Move] = []
        work: list[int] = []
        for src, code in enumerate(board):
            if code < low or code >= high:
                continue
            slides = rays[code][src]
            if slides:
                targets = [dst for dst in jumps[code][src] if not low <= board[dst] < high]
                for ray in slides:
                    for dst in ray:
                        c = board[dst]
                        if not c:
                            targets.append(dst)
                            continue
                        if not low <= c < high:
                            targets.append(dst)
                        break
                targets.sort()
            else:
                targets = [dst for dst in jumps[code][src] if not low <= board[dst] < high]
            row = STEP_MOVES[src]
            promoting = code == pawn
            if checked or src == g:
                if not work:
                    work = list(board)
                legal_to = _safe_targets(work, src, targets, g, me, t)
            elif src in pins:
                line = pins[src]
                legal_to = [dst for dst in targets if dst in line or board[dst] & 7 == GENERAL]
            else:
                legal_to = targets
            if len(legal_to) != len(targets):
                for dst in targets:
                    if dst not in legal_to:
                        bad.append(row[dst])
                        if promoting and (src in promo or dst in promo):
                            bad.append(PROMOTIONS[src][dst])
            if promoting:
                promotions = PROMOTIONS[src]
                for dst in legal_to:
                    ok.append(row[dst])
                    if src in promo or dst in promo:
                        ok.append(promotions[dst])
            else:
                ok.extend([row[dst] for dst in legal_to])
        hand = self.hands[me]
        empty = [dst for dst in range(N_CELLS) if not board[dst]] if any(hand[1:]) else []
        for kind in DROP_KINDS:
            if not hand[HAND_KINDS.index(kind)]:
                continue
            drops = DROPS[kind]
            if not checked:
                ok.extend([drops[dst] for dst in empty])
                continue
            if not work:
                work = list(board)
            code = kind + 8 * me
            for dst in empty:
                work[dst] = code
                legal = not is_attacked(work, g, me, t)
                work[dst] = 0
                (ok if legal else bad).append(drops[dst])
        return tuple(ok), tuple(bad)

    @cached
    def _legal(self) -> tuple[Move, ...]:
        moves = self._pseudo_legal[0]
        banned = self._banned_keys
        if not banned:
            return moves
        return tuple(m for m in moves if hash(self._successor(m).repetition_key()) not in banned)

    @cached
    def _has_legal(self) -> bool:
        """Whether the player to move has a legal turn: out of check and without repetition
        bans, the first piece with a move it may make (or a piece in hand) answers; otherwise
        every move is generated."""
        if "_legal" in self.__dict__ or self._banned_keys:
            return bool(self._legal)
        me = self.to_move
        board = self.board
        g = self.general_cell(me)
        t = self.tables
        if g < 0 or is_attacked(board, g, me, t):
            return bool(self._legal)
        if any(self.hands[me][1:]) and 0 in board:
            return True  # a drop is legal anywhere out of check
        pins = _pins(board, g, me, t)
        low, high = 8 * me + 1, 8 * me + 8
        for src, code in enumerate(board):
            if code < low or code >= high or src == g or src in pins:
                continue
            if any(not low <= board[dst] < high for dst in t.jumps[code][src]):
                return True
            if any(ray and not low <= board[ray[0]] < high for ray in t.rays[code][src]):
                return True
        return bool(self._legal)

    @cached
    def _banned_keys(self) -> frozenset[int]:
        """Repetition keys already seen ``limit - 1`` times: no turn may produce them again."""
        limit = _limits(self.opts)[0]
        if not limit or len(set(self.history)) == len(self.history):
            return frozenset()
        seen: dict[int, int] = {}
        for k in self.history:
            seen[k] = seen.get(k, 0) + 1
        return frozenset(k for k, n in seen.items() if n >= limit - 1)

    @cached
    def _legal_set(self) -> frozenset[Move]:
        return frozenset(self.legal_moves())

    def apply(self, move: Move, player: int | None = None) -> SangokushiState:
        self.check_player(player)
        if move not in self._legal_set:
            raise IllegalMoveError(
                Text(
                    f"{move} is not a legal move here.",
                    f"{move} はこの局面では指せません。",
                ),
                self.closest(str(move), self.legal_moves()),
            )
        if player is not None and player != self.to_move:
            raise IllegalMoveError(
                Text("It is not that player's turn.", "その人の手番ではありません。")
            )
        return self._successor(move)

    def _successor(self, move: Move) -> SangokushiState:
        """The state after ``move`` (assumed legal): board, hands, and the 王手 turn order."""
        t = self.tables
        me = self.to_move
        n = self.players
        board = list(self.board)
        hands = [list(h) for h in self.hands]
        if move.is_drop:
            code = move.drop + 8 * me
            hands[me][HAND_KINDS.index(move.drop)] -= 1
            captured = 0
        else:
            code = board[move.src]
            captured = board[move.dst]
            board[move.src] = 0
            if move.promote:
                code = TOKIN + 8 * me
        board[move.dst] = code
        if captured:
            kind = captured & 7
            hands[me][HAND_KINDS.index(PAWN if kind == TOKIN else kind)] += 1
        new_board = tuple(board)
        new_hands = tuple(tuple(h) for h in hands)
        checked_by = list(self.checked_by)
        checks: list[int] = []
        if captured & 7 != GENERAL:
            for other in range(n):
                if other == me:
                    continue
                g = new_board.index(GENERAL + 8 * other)
                after = attackers_of(new_board, g, other, t)
                if not after:
                    continue
                # A piece keeps its identity when it moves: the moved piece is new only if it
                # did not already attack this general from its old cell (or was dropped).
                before = attackers_of(self.board, g, other, t)
                if any((move.src if a == move.dst else a) not in before for a in after):
                    checks.append(other)
                    checked_by[other] = me
        return_to = -1
        if n == 2:
            nxt = 1 - me
        elif len(checks) == 1:
            nxt, return_to = checks[0], me
        elif len(checks) == 2:
            nxt = (me + 1) % n
        elif self.return_to >= 0:
            nxt = self.return_to
        else:
            nxt = (me + 1) % n
        if captured & 7 == GENERAL:
            nxt, return_to = me, -1
        state = type(self)(
            n,
            new_board,
            new_hands,
            nxt,
            return_to,
            tuple(checked_by),
            me,
            tuple(checks),
            self.plies + 1,
            self.opts,
        )
        object.__setattr__(state, "history", (*self.history, hash(state.repetition_key())))
        return state

    # -- end ---------------------------------------------------------------------------------
    def captured_general(self) -> tuple[int, int] | None:
        """(captor, captured seat) once a general has been taken, else ``None``."""
        for seat, hand in enumerate(self.hands):
            if hand[0]:
                lost = next(s for s in range(self.players) if self.general_cell(s) < 0)
                return seat, lost
        return None

    def outcome(self) -> Outcome | None:
        return self._outcome

    @cached
    def _outcome(self) -> Outcome | None:
        n = self.players
        taken = self.captured_general()
        if taken is not None:
            w, lost = taken
            ws, ls = _seat_text(n, w), _seat_text(n, lost)
            return Outcome.win(
                w,
                n,
                Termination.RULE,
                Text(
                    f"{ws.en} wins by capturing {ls.en}'s general.",
                    f"{ws.ja}の勝ち：{ls.ja}の武将を捕獲しました。",
                ),
            )
        me = self.to_move
        if n == 3 and self.board[CENTRE] == GENERAL + 8 * me:
            ms = _seat_text(n, me)
            return Outcome.win(
                me,
                n,
                Termination.RULE,
                Text(
                    f"{ms.en} wins: its general held the centre E5 until its turn came round.",
                    f"{ms.ja}の勝ち：武将が中央（E5）で手番を迎えました。",
                ),
            )
        if not self._has_legal:
            winner = self.checked_by[me]
            why_en, why_ja = "the last to put them in check", "最後に王手をかけた"
            if winner < 0:
                winner = self.last_mover if self.last_mover >= 0 else (me - 1) % n
                why_en, why_ja = "who moved just before", "直前に指した"
            ws, ms = _seat_text(n, winner), _seat_text(n, me)
            return Outcome.win(
                winner,
                n,
                Termination.NO_MOVES,
                Text(
                    f"{ms.en} has no legal turn: {ws.en} wins ({why_en}).",
                    f"{ms.ja}は指せる手がありません：{why_ja}{ws.ja}の勝ち。",
                ),
            )
        cap = _limits(self.opts)[1]
        if cap and self.plies >= cap:
            return Outcome.draw(n, Termination.CAP, DRAW_TEXTS[Termination.CAP])
        return None

    def announcement(self, lang: str = "en") -> str | None:
        """What the bot says about the turn just played: 王手 and where the turn goes next."""
        if self.last_mover < 0 or self.outcome() is not None:
            return None
        n = self.players
        ja = lang.startswith("ja")

        def name(s: int) -> str:
            return _seat(n, s, lang)

        nxt = self.to_move
        if len(self.last_checks) == 1:
            c = self.last_checks[0]
            if n == 2:
                return f"王手：{name(c)}" if ja else f"Check (王手) on {name(c)}."
            back = name(self.return_to)
            if ja:
                return f"王手：{name(c)}の手番、その後{back}に戻ります。"
            return f"Check (王手) on {name(c)}: {name(c)} moves next, then back to {back}."
        if len(self.last_checks) == 2:
            both = "・".join(name(c) for c in self.last_checks)
            if ja:
                return f"両王手：{both}。時計回りで{name(nxt)}の手番です。"
            both_en = " and ".join(name(c) for c in self.last_checks)
            return f"Check (王手) on {both_en}: play goes on clockwise, {name(nxt)} next."
        if n == 3 and nxt != (self.last_mover + 1) % n:
            return f"手番は{name(nxt)}に戻ります。" if ja else f"The turn returns to {name(nxt)}."
        return None

    # -- notation ----------------------------------------------------------------------------
    def format_move(self, move: Move) -> str:
        if move.is_drop:
            return f"{LETTERS[move.drop]}*{NAMES[move.dst]}"
        kind = self.board[move.src] & 7
        letter = LETTERS.get(kind, "?")
        return f"{letter}{NAMES[move.src]}-{NAMES[move.dst]}{'+' if move.promote else ''}"

    def display_move(self, move: Move, lang: str = "en") -> str:
        """The record's form: seat, piece kanji, from-to (``魏 騎A2-C4``, ``蜀 歩B3-C4成``,
        ``呉 とE5-F6``, drop ``呉 歩打E5``); the seat is named in ``lang`` (``Wei 騎A2-C4``)."""
        seat = _seat(self.players, self.to_move, lang)
        if move.is_drop:
            return f"{seat} {KANJI.get(move.drop, '?')}打{NAMES[move.dst]}"
        kanji = KANJI.get(self.board[move.src] & 7, "?")
        return f"{seat} {kanji}{NAMES[move.src]}-{NAMES[move.dst]}{'成' if move.promote else ''}"

    def parse_move(self, text: str, player: int | None = None) -> Move:
        self.check_player(player)
        raw = check_input(text)
        if self.outcome() is not None:
            raise IllegalMoveError(Text("The game is over.", "対局は終了しています。"))
        if player is not None and player != self.to_move:
            raise IllegalMoveError(
                Text("It is not that player's turn.", "その人の手番ではありません。")
            )
        legal = self.legal_moves()
        move = self.read_move(raw, legal)
        if move in self._legal_set:
            return move
        shown = self.format_move(move)
        if move in self._pseudo_legal[1]:
            why = Text(
                f"{shown} would leave your general in check (王手).",
                f"{shown} は自分の武将が王手されたままになるので指せません。",
            )
        elif move in self._pseudo_legal[0]:
            why = Text(
                f"{shown} would repeat a position a fourth time; choose another move.",
                f"{shown} は同じ局面の繰り返しになるので指せません。手を変えてください。",
            )
        else:
            why = Text(f"{shown} is not a legal move here.", f"{shown} はこの局面では指せません。")
        raise IllegalMoveError(why, self.closest(shown, legal))

    def read_move(self, text: str, legal: tuple[Move, ...]) -> Move:
        key = _MOVE_WORDS.sub(lambda m: _WORDS[m.group(0)], normalise(text))
        key = _SEAT_PREFIX.sub("", key)
        if m := _DROP_RE.fullmatch(key):
            letter, cell = m.group(1), m.group(2)
            dst = self._cell(cell, text, legal)
            if letter is None:
                kinds = [k for k in DROP_KINDS if self.hands[self.to_move][HAND_KINDS.index(k)]]
                if len(kinds) != 1:
                    raise AmbiguousMoveError(
                        Text(
                            f"{text!r}: say which piece to drop (H, L, B or P).",
                            f"「{text}」：打つ駒を指定してください（騎・槍・弓・歩）。",
                        ),
                        self.closest(text, [x for x in legal if x.dst == dst and x.is_drop]),
                    )
                return Move(-1, dst, False, kinds[0])
            kind = KIND_OF_LETTER[letter]
            if kind not in DROP_KINDS:
                raise IllegalMoveError(
                    Text(
                        f"{text!r}: only a captured 騎, 槍, 弓 or 歩 can be dropped.",
                        f"「{text}」：打てるのは持ち駒の騎・槍・弓・歩だけです。",
                    ),
                    self.closest(text, legal),
                )
            if not self.hands[self.to_move][HAND_KINDS.index(kind)]:
                raise IllegalMoveError(
                    Text(
                        f"{text!r}: you have no {LETTERS[kind]} in hand.",
                        f"「{text}」：持ち駒に{KANJI[kind]}がありません。",
                    ),
                    self.closest(text, legal),
                )
            return Move(-1, dst, False, kind)
        if m := _MOVE_RE.fullmatch(key):
            letter, a, b, plus = m.groups()
            src, dst = self._cell(a, text, legal), self._cell(b, text, legal)
            code = self.board[src]
            if not code or code >> 3 != self.to_move:
                raise IllegalMoveError(
                    Text(
                        f"{text!r}: you have no piece on {a}.",
                        f"「{text}」：{a}に自分の駒がありません。",
                    ),
                    self.closest(text, [x for x in legal if x.dst == dst] or legal),
                )
            if letter is not None and KIND_OF_LETTER[letter] != code & 7:
                raise IllegalMoveError(
                    Text(
                        f"{text!r}: the piece on {a} is {LETTERS[code & 7]}, not {letter}.",
                        f"「{text}」：{a}の駒は{KANJI[code & 7]}です。",
                    ),
                    self.closest(text, [x for x in legal if x.src == src] or legal),
                )
            return Move(src, dst, plus is not None)
        raise InvalidMoveError(
            Text(
                f"{text!r} is not a move I can read (write e.g. HA2-C4, PB3-C4+ or P*E5).",
                f"「{text}」は指し手として読めません（例: HA2-C4、PB3-C4+、P*E5）。",
            ),
            self.closest(text, legal),
        )

    def _cell(self, name: str, text: str, legal: tuple[Move, ...]) -> int:
        if name not in CELL_OF:
            raise InvalidMoveError(
                Text(
                    f"{text!r}: there is no cell {name} (A1–A5 .. E1–E9 .. I5–I9).",
                    f"「{text}」：{name}というマスはありません。",
                ),
                self.closest(text, legal),
            )
        return CELL_OF[name]

    # -- position text -----------------------------------------------------------------------
    def position(self) -> str:
        rows = []
        for row in reversed(ROWS):
            cells = [i for i, n in enumerate(NAMES) if n[0] == row]
            rows.append("".join(_token(self.board[i]) for i in cells))
        hands = "/".join(
            "".join(
                f"{LETTERS[k]}{n if n > 1 else ''}" for k, n in zip(HAND_KINDS, h, strict=True) if n
            )
            or "-"
            for h in self.hands
        )
        checked = "".join(_seat_char(s) for s in self.checked_by)
        last = f"{_seat_char(self.last_mover)}:{''.join(map(str, self.last_checks))}"
        return " ".join(
            (
                "/".join(rows),
                hands,
                str(self.to_move),
                _seat_char(self.return_to),
                checked,
                last,
                str(self.plies),
            )
        )


def _token(code: int) -> str:
    return "." if not code else f"{LETTERS[code & 7]}{code >> 3}"


def _seat_char(seat: int) -> str:
    return "-" if seat < 0 else str(seat)


_WORDS = {
    "武将": "G", "騎兵": "H", "槍兵": "L", "弓兵": "B", "歩兵": "P",
    "将": "G", "騎": "H", "槍": "L", "弓": "B", "歩": "P", "と": "+P", "成": "+", "不成": "",
    "打": "*", "X": "-", "→": "-", "〜": "-", "~": "-",
}  # fmt: skip
_MOVE_WORDS = re.compile("|".join(sorted(map(re.escape, _WORDS), key=len, reverse=True)))
_SEAT_PREFIX = re.compile(r"^(魏|蜀|呉|WEI|SHU|WU|BLACK|WHITE|先手|後手|▲|△|☗|☖)")
_PIECE = r"(G|H|L|B|P|\+P)"
_MOVE_RE = re.compile(_PIECE + r"?([A-I][1-9])-?([A-I][1-9])(\+)?")
_DROP_RE = re.compile(_PIECE + r"?\*([A-I][1-9])")
_TOKEN_RE = re.compile(r"\.|(?:\+P|[GHLBP])[0-2]")
_HAND_RE = re.compile(r"([GHLBP])([0-9]{0,2})")


# --- the games ------------------------------------------------------------------------------

_SPEAR = OptionSpec(
    "spear",
    ("oblique", "forward"),
    "oblique",
    Text(
        "Spear (槍兵): one step to any of the 4 oblique cells (oblique), or only the 2 "
        "forward-oblique ones (forward); it always slides sideways.",
        "槍兵の斜め1マス：斜め4方向か前斜め2方向のみ。横には何マスでも。",
    ),
    Text("spear", "槍兵"),
    (
        ("oblique", Text("oblique (4 cells)", "斜め4方向")),
        ("forward", Text("forward (2 cells)", "前斜め2方向")),
    ),
)
_ARCHER = OptionSpec(
    "archer",
    ("corner", "line"),
    "corner",
    Text(
        "Archer (弓兵): leaps to the 6 cells two away between the lines (corner) or along the "
        "lines (line).",
        "弓兵の跳ぶ先：線と線の間の2マス先6か所か、6方向の直線上2マス先。",
    ),
    Text("archer", "弓兵"),
    (
        ("corner", Text("corner (between the lines)", "線と線の間")),
        ("line", Text("line (along the lines)", "直線上")),
    ),
)


class Sangokushi(Game[SangokushiState]):
    """三国志三人将棋 for three players (魏, 蜀, 呉)."""

    id = "sangokushi"
    title_en = "Three Kingdoms Shogi"
    title_ja = "三国志三人将棋"
    player_counts = (3,)
    game_options = (_SPEAR, _ARCHER)
    rules_doc = "docs/rules/sangokushi.md"
    summary = Text(
        "Three-player shogi on a hexagon of 61 cells: Wei, Shu and Wu each lead a general, "
        "cavalry, spears, archers and pawns, and captured pieces come back as your own. "
        "A check (王手) hands the turn to the checked player; capture a general, or keep your "
        "general on the centre E5 until your turn comes round, to win.",
        "61マスの六角盤で魏・蜀・呉の3人が戦う将棋。取った駒は自分の駒として打てます。"
        "王手をかけると王手された人に手番が移ります。相手の武将を取るか、"
        "自分の武将を中央E5に置いたまま手番を迎えれば勝ち。",
    )
    state_class: ClassVar[type[SangokushiState]]

    def seat_name(self, seat: int, lang: str = "en", players: int | None = None) -> str:
        n = players or self.player_counts[0]
        if n in (2, 3) and 0 <= seat < n:
            return _seat(n, seat, lang)
        return super().seat_name(seat, lang, players)

    def initial_state(self, players: int, options: dict[str, str]) -> SangokushiState:
        board = [0] * N_CELLS
        for name, kind in START_LAYOUT.items():
            for seat in range(players):
                board[turn_cell(CELL_OF[name], frame_turn(players, seat))] = kind + 8 * seat
        state = self.state_class(
            players,
            tuple(board),
            ((0,) * len(HAND_KINDS),) * players,
            0,
            -1,
            (-1,) * players,
            -1,
            (),
            0,
            tuple(sorted(options.items())),
        )
        object.__setattr__(state, "history", (hash(state.repetition_key()),))
        return state

    def parse_position(self, text: str, options: dict[str, str], players: int) -> SangokushiState:
        def bad(why_en: str, why_ja: str) -> PositionError:
            return position_error(self, why_en, why_ja, text)

        fields = text.split()
        if len(fields) != 7:
            raise bad(
                "expected board, hands, to move, return-to, checked-by, last turn and ply",
                "盤・持ち駒・手番・戻り先・王手記録・直前の手・手数の7項目が必要です",
            )
        rows_text, hands_text, mover, ret, checked, last, plies = fields
        seats = [str(s) for s in range(players)]
        rows = rows_text.split("/")
        if len(rows) != 9:
            raise bad("the board needs 9 rows, I to A", "盤はIからAまで9段必要です")
        board = [0] * N_CELLS
        for row, row_text in zip(reversed(ROWS), rows, strict=True):
            cells = [i for i, n in enumerate(NAMES) if n[0] == row]
            tokens = _TOKEN_RE.findall(row_text)
            if "".join(tokens) != row_text or len(tokens) != len(cells):
                raise bad(
                    f"row {row} must list its {len(cells)} cells ('.' or e.g. G0, +P1)",
                    f"{row}段は{len(cells)}マス分（. か G0・+P1 など）で書いてください",
                )
            for i, tok in zip(cells, tokens, strict=True):
                if tok != ".":
                    seat = int(tok[-1])
                    if seat >= players:
                        raise bad(f"no seat {seat}", f"{seat}番の席はありません")
                    board[i] = KIND_OF_LETTER[tok[:-1]] + 8 * seat
        hand_parts = hands_text.split("/")
        if len(hand_parts) != players:
            raise bad(
                "one hand per player, separated by '/'", "持ち駒は人数分を/で区切って書きます"
            )
        hands: list[tuple[int, ...]] = []
        for part in hand_parts:
            counts = [0] * len(HAND_KINDS)
            if part != "-":
                items = _HAND_RE.findall(part)
                if not items or "".join(a + b for a, b in items) != part:
                    raise bad(f"bad hand {part!r}", f"持ち駒「{part}」が読めません")
                for letter, num in items:
                    counts[HAND_KINDS.index(KIND_OF_LETTER[letter])] += int(num or 1)
            hands.append(tuple(counts))
        if any(sum(h) > 44 for h in hands):
            raise bad("too many pieces in hand", "持ち駒が多すぎます")
        if mover not in seats:
            raise bad("the player to move must be a seat number", "手番は席番号で書きます")
        to_move = int(mover)
        if ret not in [*seats, "-"] or ret == mover or (players == 2 and ret != "-"):
            raise bad("bad player to return to", "戻り先が正しくありません")
        if len(checked) != players or any(c not in [*seats, "-"] for c in checked):
            raise bad("bad checked-by field", "王手記録が正しくありません")
        checked_by = tuple(-1 if c == "-" else int(c) for c in checked)
        if any(c == s for s, c in enumerate(checked_by)):
            raise bad("nobody checks themselves", "自分で自分に王手はできません")
        lm, sep, lc = last.partition(":")
        if not sep or lm not in [*seats, "-"] or any(c not in seats for c in lc):
            raise bad("bad last-turn field (e.g. 0:1 or -:)", "直前の手の項目が正しくありません")
        last_checks = tuple(sorted({int(c) for c in lc}))
        last_mover = -1 if lm == "-" else int(lm)
        if (last_mover < 0 and last_checks) or last_mover in last_checks or len(last_checks) > 2:
            raise bad("bad last-turn field", "直前の手の項目が正しくありません")
        if not re.fullmatch("[0-9]{1,6}", plies):
            raise bad("the ply must be a number", "手数は数字で書きます")
        generals = [board.count(GENERAL + 8 * s) for s in range(players)]
        taken = [h[0] for h in hands]
        if any(g > 1 for g in generals) or sum(taken) != generals.count(0) or sum(taken) > 1:
            raise bad(
                "each general must be on the board, except one captured one in its captor's hand",
                "武将は各自1枚盤上に（取られた1枚だけは取った人の持ち駒に）あること",
            )
        for s, h in enumerate(hands):
            if h[0] and generals[s] == 0:
                raise bad("a general cannot be in its own hand", "自分の武将は持ち駒になりません")
        state = self.state_class(
            players,
            tuple(board),
            tuple(hands),
            to_move,
            -1 if ret == "-" else int(ret),
            checked_by,
            last_mover,
            last_checks,
            int(plies),
            tuple(sorted(options.items())),
        )
        object.__setattr__(state, "history", (hash(state.repetition_key()),))
        return state


class SangokushiTwoState(SangokushiState):
    """A position of the 2-player variant (plain alternation, no centre win)."""


class SangokushiTwo(Sangokushi):
    """三国志三人将棋's 2-player rules: opposite edges, promotion in the far three rows."""

    id = "sangokushi-2p"
    title_en = "Three Kingdoms Shogi (2 players)"
    title_ja = "三国志三人将棋（2人用）"
    player_counts = (2,)
    summary = Text(
        "The two-player game of Three Kingdoms Shogi: two armies face each other across a "
        "hexagon of 61 cells, captured pieces return as your own, and pawns promote in the far "
        "three rows. Capture the opponent's general (the centre gives no win here).",
        "三国志三人将棋の2人用ルール。61マスの六角盤で2軍が向かい合い、取った駒は自分の駒として"
        "打てます。歩兵は相手側3列で成れます。相手の武将を取れば勝ち（中央は勝ちになりません）。",
    )


SangokushiState.game = Sangokushi()
Sangokushi.state_class = SangokushiState
SangokushiTwoState.game = SangokushiTwo()
SangokushiTwo.state_class = SangokushiTwoState

GAMES = (SangokushiState.game, SangokushiTwoState.game)
