"""六面体 (Rokumentai): dice placed on a 7×7 board, each showing the power it was given.

Each player has 15 cubes. A turn places a cube from hand (占 first, then 武 巫 騎 弓 next to an
own 占) or moves one piece. Beaten pieces turn to their ghost face (怨霊) and stay for ever as
obstacles that only a 巫 (shrine maiden) can move. A player whose last 占 turns into a ghost, or
who can neither place nor move, loses. Rules: ``/work/shared/rules/rokumentai.md``.

Squares are numbered ``row * 7 + col`` with row 0 = ``01`` (top) and col 0 = ``一`` (left), as in
the seed's diagrams.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import ClassVar, NamedTuple

from engines.core import (
    DRAW_TEXTS,
    TERMINAL,
    AmbiguousMoveError,
    Game,
    History,
    IllegalMoveError,
    InvalidMoveError,
    OptionSpec,
    Outcome,
    State,
    Termination,
    Text,
    cached,
    normalise,
    ply_cap,
    position_error,
    repetition_limit,
)

# --- board geometry (tables, built once) -----------------------------------------------------

SIZE = 7
SQUARES = SIZE * SIZE
HAND = 15
"""Cubes per player (all in hand at the start)."""

COLUMNS = "一二三四五六七"

DIRECTIONS: tuple[tuple[int, int], ...] = (
    (0, -1),
    (1, -1),
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
)
"""The 8 directions as (column step, row step), clockwise from up."""
OPPOSITE = tuple((d + 4) % 8 for d in range(8))
KNIGHT_LEAPS = ((1, -2), (2, -1), (2, 1), (1, 2), (-1, 2), (-2, 1), (-2, -1), (-1, -2))
ARCHER_SHOTS = tuple(
    (dc * k, dr * k) for dc, dr in ((0, -1), (1, 0), (0, 1), (-1, 0)) for k in (2, 3)
)


def _on_board(col: int, row: int) -> bool:
    return 0 <= col < SIZE and 0 <= row < SIZE


def _offsets(sq: int, offsets: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    col, row = sq % SIZE, sq // SIZE
    return tuple(
        (row + dr) * SIZE + col + dc for dc, dr in offsets if _on_board(col + dc, row + dr)
    )


def _ray(sq: int, d: int) -> tuple[int, ...]:
    dc, dr = DIRECTIONS[d]
    col, row = sq % SIZE + dc, sq // SIZE + dr
    out: list[int] = []
    while _on_board(col, row):
        out.append(row * SIZE + col)
        col, row = col + dc, row + dr
    return tuple(out)


NEIGHBOURS = tuple(_offsets(sq, DIRECTIONS) for sq in range(SQUARES))
"""The (up to) 8 squares adjacent to each square: the 武's moves and the "within one" zone."""
KNIGHT = tuple(_offsets(sq, KNIGHT_LEAPS) for sq in range(SQUARES))
"""The 騎's 8 knight leaps (八方桂馬)."""
ARCHER = tuple(_offsets(sq, ARCHER_SHOTS) for sq in range(SQUARES))
"""The 弓's shots: 2 or 3 squares straight, jumping."""
RAYS = tuple(tuple(_ray(sq, d) for d in range(8)) for sq in range(SQUARES))
"""``RAYS[sq][d]``: the squares from ``sq`` outwards in direction ``d`` (``sq`` excluded)."""
ADJACENT = tuple(
    tuple((d, ray[0]) for d, ray in enumerate(RAYS[sq]) if ray) for sq in range(SQUARES)
)
"""``(direction, square)`` of each neighbour, for the 巫's abilities."""

# --- faces and cells ----------------------------------------------------------------------------

OCCUPY, WARRIOR, MIKO, HORSE, ARCHER_FACE, GHOST = range(6)
FACES = (("占", "武", "巫", "騎", "弓", "怨"), ("領", "士", "女", "馬", "矢", "霊"))
"""Face kanji by owner (0 = Black 先手, 1 = White 後手) and power."""
ASCII_FACES = "OWMHAG"

EMPTY = 0


def cell(owner: int, face: int) -> int:
    """The board code of ``owner``'s cube showing ``face`` (``0`` is an empty square)."""
    return 1 + owner * 6 + face


OWNER = (-1, *(c // 6 for c in range(12)))
FACE = (-1, *(c % 6 for c in range(12)))
CELL_CHAR = ("", *(FACES[c // 6][c % 6] for c in range(12)))
CHAR_CELL = {ch: cell(o, f) for o in range(2) for f, ch in enumerate(FACES[o])}
CHAR_POWER = {ch: f for o in range(2) for f, ch in enumerate(FACES[o])} | {
    ch: f for f, ch in enumerate(ASCII_FACES)
}
PLACEABLE = (WARRIOR, MIKO, HORSE, ARCHER_FACE)
"""Faces that may be placed next to an own 占."""


def square_name(sq: int) -> str:
    """``四04``: column kanji and two-digit row."""
    return f"{COLUMNS[sq % SIZE]}{sq // SIZE + 1:02d}"


# --- moves ------------------------------------------------------------------------------------


class Move(NamedTuple):
    """One action. A placement has ``frm == -1`` and a ``face``; a move of a piece or a ghost
    has ``frm`` and ``to``; a ghost strike (④) also names the ``struck`` square."""

    frm: int
    to: int
    face: int = -1
    struck: int = -1

    def __str__(self) -> str:
        """The move in notation, as far as the move alone says it: ``四04O`` (a placement, with
        the ASCII face letter, since the kanji depends on the owner), ``四04-五03`` (a move,
        without the moving face, which only the board knows) and ``六01-四03-一06`` (a strike).
        Every one of these is an accepted input spelling; ``format_move`` adds the kanji."""
        if self.frm < 0:
            return square_name(self.to) + ASCII_FACES[self.face]
        if self.struck >= 0:
            return f"{square_name(self.frm)}-{square_name(self.struck)}-{square_name(self.to)}"
        return f"{square_name(self.frm)}-{square_name(self.to)}"


PLACEMENTS = tuple(tuple(Move(-1, sq, f) for f in range(6)) for sq in range(SQUARES))
STEPS = tuple(tuple(Move(a, b) for b in range(SQUARES)) for a in range(SQUARES))
"""Every (from, to) move, built once so move generation allocates nothing."""

# --- texts --------------------------------------------------------------------------------------


def _t(en: str, ja: str) -> Text:
    return Text(en, ja)


SEAT_TEXT = (("Black", "先手"), ("White", "後手"))


def _illegal(en: str, ja: str, suggestions: tuple[str, ...]) -> IllegalMoveError:
    return IllegalMoveError(_t(en, ja), suggestions)


# --- state ----------------------------------------------------------------------------------------


RepKey = tuple[tuple[int, ...], tuple[int, int], tuple[bool, bool], int]


@dataclass(frozen=True)
class RokumentaiState(State[Move]):
    """A position: the 49 cells, both hands, whether each player has placed a non-占 face, the
    player to move and the ply. ``history`` (repetition keys) and ``event`` (a loss the last move
    caused) are not part of the position text and do not take part in equality."""

    game: ClassVar[Game[RokumentaiState]]

    board: tuple[int, ...]
    hands: tuple[int, int] = (HAND, HAND)
    committed: tuple[bool, bool] = (False, False)
    """Whether each player has already placed a non-占 face (then 占 may not be placed)."""
    to_move: int = 0
    plies: int = 0
    option_items: tuple[tuple[str, str], ...] = ()
    history: History = field(default=History(), compare=False, repr=False)
    event: Outcome | None = field(default=None, compare=False, repr=False)

    # -- whose turn ------------------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return 2

    @property
    def ply(self) -> int:
        return self.plies

    def current_player(self) -> int:
        return TERMINAL if self.outcome() is not None else self.to_move

    def options(self) -> dict[str, str]:
        return dict(self.option_items)

    def repetition_key(self) -> RepKey:
        """Board, both hands, the non-占 flags and the player to move (the rules' key)."""
        return (self.board, self.hands, self.committed, self.to_move)

    # -- end -------------------------------------------------------------------------------------
    def outcome(self) -> Outcome | None:
        return self._outcome

    @cached
    def _outcome(self) -> Outcome | None:
        # Precedence: the move's own result, repetition, cap, then the no-move loss.
        if self.event is not None:
            return self.event
        opts = self.options()
        limit = repetition_limit(opts)
        if limit and self.history.count(self.repetition_key()) >= limit:
            return Outcome.draw(2, Termination.REPETITION, DRAW_TEXTS[Termination.REPETITION])
        cap = ply_cap(opts)
        if cap and self.plies >= cap:
            return Outcome.draw(2, Termination.CAP, DRAW_TEXTS[Termination.CAP])
        if not self._moves:
            en, ja = SEAT_TEXT[self.to_move]
            return Outcome.loss(
                self.to_move,
                2,
                Termination.NO_MOVES,
                _t(
                    f"{en} can neither place nor move and loses.",
                    f"{ja}は置ける駒も動かせる駒も無いため負けです。",
                ),
            )
        return None

    # -- moves -----------------------------------------------------------------------------------
    def legal_moves(self, player: int | None = None) -> tuple[Move, ...]:
        self.check_player(player)
        if player is not None and player != self.to_move:
            return ()
        if self.outcome() is not None:
            return ()
        return self._moves

    @cached
    def _legal_set(self) -> frozenset[Move]:
        return frozenset(self.legal_moves())

    @cached
    def _moves(self) -> tuple[Move, ...]:
        """Every move in a stable order: placements by square, then each own piece's moves by
        square, then ghost moves (step, fling, strike), effect-equal ones listed once."""
        b = self.board
        p = self.to_move
        base = 1 + 6 * p
        occupy, warrior, miko, horse, archer = base, base + 1, base + 2, base + 3, base + 4
        enemy_lo, enemy_hi = 7 - 6 * p, 11 - 6 * p  # enemy non-ghost codes
        out: list[Move] = []
        if self.hands[p]:
            near: set[int] = set()
            for sq in range(SQUARES):
                if b[sq] == occupy:
                    near.update(NEIGHBOURS[sq])
            uncommitted = not self.committed[p]
            for sq in range(SQUARES):
                if b[sq]:
                    continue
                row = PLACEMENTS[sq]
                if uncommitted:
                    out.append(row[OCCUPY])
                if sq in near:
                    out.extend(row[1:5])
        ghosts: dict[Move, None] = {}
        strikes: list[Move] = []
        for sq in range(SQUARES):
            c = b[sq]
            if c < base or c > archer or c == occupy:
                continue
            steps = STEPS[sq]
            if c == miko:
                self._miko(sq, steps, out, ghosts, strikes, enemy_lo, enemy_hi)
                continue
            targets = NEIGHBOURS[sq] if c == warrior else KNIGHT[sq] if c == horse else ARCHER[sq]
            for t in targets:
                x = b[t]
                if not x or enemy_lo <= x <= enemy_hi:
                    out.append(steps[t])
        out.extend(ghosts)
        out.extend(strikes)
        return tuple(out)

    def _miko(
        self,
        m: int,
        steps: tuple[Move, ...],
        out: list[Move],
        ghosts: dict[Move, None],
        strikes: list[Move],
        enemy_lo: int,
        enemy_hi: int,
    ) -> None:
        """The four 巫 abilities for the 巫 on ``m``: leap, ghost step, fling and strike."""
        b = self.board
        rays = RAYS[m]
        for d, g in ADJACENT[m]:
            if FACE[b[g]] != GHOST:
                continue
            # ① leap: over the ghost to any empty square beyond it.
            for t in rays[d][1:]:
                if not b[t]:
                    out.append(steps[t])
            gsteps = STEPS[g]
            # ② step: the ghost to any empty square next to the 巫.
            for _, t in ADJACENT[m]:
                if not b[t]:
                    ghosts[gsteps[t]] = None
            # ③ fling: over the 巫 to any empty square on the far side.
            far = rays[OPPOSITE[d]]
            for t in far:
                if not b[t]:
                    ghosts[gsteps[t]] = None
            # ④ strike: an enemy beyond the 巫; land anywhere empty on the whole line.
            victims = [s for s in far if enemy_lo <= b[s] <= enemy_hi]
            if victims:
                landings = [t for t in rays[d][1:] if not b[t]] + [t for t in far if not b[t]]
                for s in victims:
                    for t in landings:
                        strikes.append(Move(g, t, -1, s))

    def apply(self, move: Move, player: int | None = None) -> RokumentaiState:
        self.check_player(player)
        if (player is not None and player != self.to_move) or move not in self._legal_set:
            shown = repr(move)
            valid = -1 <= move.frm < SQUARES and 0 <= move.to < SQUARES
            if valid and (move.frm >= 0 or 0 <= move.face < 6) and move.struck < SQUARES:
                shown = self.format_move(move)
            raise IllegalMoveError(
                _t(f"{shown} is not a legal move here.", f"{shown}はこの局面では指せません。")
            )
        p = self.to_move
        q = 1 - p
        board = list(self.board)
        hands = self.hands
        committed = self.committed
        irreversible = False
        victim = EMPTY
        if move.frm < 0:
            board[move.to] = cell(p, move.face)
            hands = (hands[0] - 1, hands[1]) if p == 0 else (hands[0], hands[1] - 1)
            if move.face != OCCUPY and not committed[p]:
                committed = (True, committed[1]) if p == 0 else (committed[0], True)
            irreversible = True
        else:
            mover = board[move.frm]
            target = board[move.to]
            if target:  # beating (武, 騎, 弓): turn it to its ghost face and swap squares
                victim = target
                board[move.frm] = cell(q, GHOST)
                irreversible = True
            else:
                board[move.frm] = EMPTY
            board[move.to] = mover
            if move.struck >= 0:
                victim = board[move.struck]
                board[move.struck] = cell(q, GHOST)
                irreversible = True
        new_board = tuple(board)
        event = None
        if victim == cell(q, OCCUPY) and cell(q, OCCUPY) not in new_board:
            en, ja = SEAT_TEXT[q]
            event = Outcome.loss(
                q,
                2,
                Termination.RULE,
                _t(
                    f"{en}'s last {FACES[q][OCCUPY]} was turned to a ghost: {en} loses.",
                    f"{ja}の最後の「{FACES[q][OCCUPY]}」が怨霊になり、{ja}の負けです。",
                ),
            )
        key: RepKey = (new_board, hands, committed, q)
        return RokumentaiState(
            new_board,
            hands,
            committed,
            q,
            self.plies + 1,
            self.option_items,
            self.history.push(key, irreversible),
            event,
        )

    # -- notation --------------------------------------------------------------------------------
    def format_move(self, move: Move) -> str:
        if move.frm < 0:
            return square_name(move.to) + FACES[self.to_move][move.face]
        head = CELL_CHAR[self.board[move.frm]] + square_name(move.frm)
        if move.struck >= 0:
            return f"{head}-{square_name(move.struck)}-{square_name(move.to)}"
        return f"{head}-{square_name(move.to)}"

    def display_move(self, move: Move, lang: str = "en") -> str:
        return ("▲", "△")[self.to_move] + self.format_move(move)

    def read_move(self, text: str, legal: tuple[Move, ...]) -> Move:
        return _Reader(self, text, legal).read()

    # -- position text ---------------------------------------------------------------------------
    def position(self) -> str:
        rows = "/".join(
            "".join(CELL_CHAR[c] or "." for c in self.board[r * SIZE : (r + 1) * SIZE])
            for r in range(SIZE)
        )
        flags = "".join("+" if f else "-" for f in self.committed)
        return f"{rows} {'bw'[self.to_move]} {self.hands[0]}/{self.hands[1]} {flags} {self.plies}"


# --- reading moves ------------------------------------------------------------------------------

_SQUARE = r"([一二三四五六七1-7])(0?[1-7])"
_FACE_CHARS = "占武巫騎弓怨領士女馬矢霊OWMHAG"
_MOVE_RE = re.compile(
    rf"^([▲△]?)([{_FACE_CHARS}]?){_SQUARE}(?:-{_SQUARE})?(?:-{_SQUARE})?([{_FACE_CHARS}]?)$"
)
_DASHES = str.maketrans({c: "-" for c in "‐‑‒–—―−ｰ→"})


def _parse_square(col: str, row: str) -> int:
    c = COLUMNS.index(col) if col in COLUMNS else int(col) - 1
    return (int(row) - 1) * SIZE + c


class _Reader:
    """Reads one move in any accepted spelling and explains precisely why a move is refused."""

    def __init__(self, state: RokumentaiState, raw: str, legal: tuple[Move, ...]) -> None:
        self.state = state
        self.raw = raw
        self.legal = legal
        self.p = state.to_move
        self.me = SEAT_TEXT[self.p]

    def suggest(self, keep: list[Move] | None = None) -> tuple[str, ...]:
        pool = tuple(keep) if keep else self.legal
        return self.state.closest(self.raw, pool)

    def invalid(self) -> InvalidMoveError:
        return InvalidMoveError(
            _t(
                f"{self.raw!r} is not a move I can read. Write e.g. 四04占 (place), 武四04-五03 "
                "(move) or 怨六01-四03-一06 (strike); ASCII: 44O, W44-53, G61-43-16.",
                f"「{self.raw}」は指し手として読めません。例: 四04占（置く）、武四04-五03"
                "（動かす）、怨六01-四03-一06（怨霊で倒す）。",
            ),
            self.suggest(),
        )

    def read(self) -> Move:
        text = normalise(self.raw).translate(_DASHES)
        text = text.strip("()")
        if text.endswith("怨霊"):
            text = text[:-2]
        match = _MOVE_RE.match(text)
        if not match:
            raise self.invalid()
        mark, pre, c1, r1, c2, r2, c3, r3, post = match.groups()
        if mark and "▲△".index(mark) != self.p:
            who = SEAT_TEXT[1 - self.p]
            raise _illegal(
                f"{mark} marks a move of {who[0]}, but it is {self.me[0]}'s turn.",
                f"{mark}は{who[1]}の手ですが、今は{self.me[1]}の番です。",
                self.suggest(),
            )
        if pre and post:
            raise self.invalid()
        squares = [_parse_square(c, r) for c, r in ((c1, r1), (c2, r2), (c3, r3)) if c]
        power = CHAR_POWER[pre or post] if (pre or post) else None
        if len(squares) == 1:
            if pre and power is not None:
                return self.to_square(power, squares[0])
            return self.placement(squares[0], power)
        return self.movement(squares, power)

    # -- placements ------------------------------------------------------------------------------
    def placement(self, sq: int, power: int | None) -> Move:
        s = self.state
        name = square_name(sq)
        if power is None:
            here = [m for m in self.legal if m.frm < 0 and m.to == sq]
            here += [m for m in self.legal if m.frm >= 0 and m.to == sq]
            if len(here) == 1:
                return here[0]
            if here:
                names = "、".join(s.format_move(m) for m in here)
                raise AmbiguousMoveError(
                    _t(
                        f"{self.raw!r} fits several moves: {names}. Add the face.",
                        f"「{self.raw}」には複数の手が当てはまります: {names}。"
                        "面を書いてください。",
                    ),
                    self.suggest(here),
                )
            raise _illegal(
                f"No move ends on {name}.", f"{name}に行ける手はありません。", self.suggest()
            )
        face_char = FACES[self.p][power]
        move = PLACEMENTS[sq][power]
        if move in self.legal:
            return move
        p = self.p
        if power == GHOST:
            en, ja = (
                f"{face_char} can never be chosen when placing.",
                f"{face_char}を選んで置くことは出来ません。",
            )
        elif not s.hands[p]:
            en, ja = "You have no cubes left in hand.", "持ち駒がもうありません。"
        elif s.board[sq]:
            occupant = CELL_CHAR[s.board[sq]]
            en, ja = (
                f"{name} is occupied ({occupant}).",
                f"{name}には既に駒（{occupant}）があります。",
            )
        elif power == OCCUPY:
            en = f"You have already placed another face, so you may not place {face_char} again."
            ja = f"既に他の面を置いたので、もう「{face_char}」は置けません。"
        elif cell(p, OCCUPY) not in s.board:
            occ = FACES[p][OCCUPY]
            if not s.committed[p]:
                en = f"You must place {occ} first: {face_char} goes next to your own {occ}."
                ja = (
                    f"はじめは「{occ}」を置かなければなりません"
                    f"（「{face_char}」は自分の「{occ}」のとなりに置けます）。"
                )
            else:
                en = f"You have no {occ} on the board, so you cannot place {face_char}."
                ja = f"盤上に自分の「{occ}」が無いので、「{face_char}」は置けません。"
        else:
            occ = FACES[p][OCCUPY]
            en = f"{face_char} may only be placed next to your own {occ}; {name} is not."
            ja = (
                f"「{face_char}」は自分の「{occ}」のまわり1マス以内にしか置けません"
                f"（{name}は違います）。"
            )
        near = [m for m in self.legal if m.frm < 0 and m.face == power] or None
        raise _illegal(en, ja, self.suggest(near))

    def to_square(self, power: int, sq: int) -> Move:
        """Face + one square (``武五03``): the one legal move of that face ending there."""
        s = self.state
        fits = [
            m
            for m in self.legal
            if m.to == sq
            and m.struck < 0
            and ((m.frm < 0 and m.face == power) or (m.frm >= 0 and FACE[s.board[m.frm]] == power))
        ]
        if len(fits) == 1:
            return fits[0]
        if fits:
            names = "、".join(s.format_move(m) for m in fits)
            raise AmbiguousMoveError(
                _t(
                    f"{self.raw!r} fits several moves: {names}.",
                    f"「{self.raw}」には複数の手が当てはまります: {names}。",
                ),
                self.suggest(fits),
            )
        if power != GHOST and not any(FACE[c] == power and OWNER[c] == self.p for c in s.board):
            return self.placement(sq, power)
        name = square_name(sq)
        ch = FACES[self.p][power]
        raise _illegal(
            f"No {ch} can move to {name}.", f"{name}に動ける「{ch}」はありません。", self.suggest()
        )

    # -- movements -------------------------------------------------------------------------------
    def movement(self, squares: list[int], power: int | None) -> Move:
        s = self.state
        b = s.board
        p = self.p
        frm = squares[0]
        to = squares[-1]
        struck = squares[1] if len(squares) == 3 else -1
        move = Move(frm, to, -1, struck)
        if move in s._legal_set and (power is None or power == FACE[b[frm]]):
            return move
        here = [m for m in self.legal if m.frm == frm] or None
        fname, tname = square_name(frm), square_name(to)
        c = b[frm]
        if not c:
            raise _illegal(
                f"There is no piece on {fname}.", f"{fname}には駒がありません。", self.suggest()
            )
        ch = CELL_CHAR[c]
        if power is not None and power != FACE[c]:
            wanted = FACES[p][power] if power != GHOST else "怨/霊"
            raise _illegal(
                f"{fname} holds {ch}, not {wanted}.",
                f"{fname}の駒は「{ch}」で、「{wanted}」ではありません。",
                self.suggest(here),
            )
        face = FACE[c]
        if face == GHOST:
            return self.ghost_move(frm, to, struck, here)
        if OWNER[c] != p:
            raise _illegal(
                f"{fname} holds your opponent's {ch}; you may only move your own pieces.",
                f"{fname}の「{ch}」は相手の駒です。自分の駒しか動かせません。",
                self.suggest(),
            )
        if struck >= 0:
            raise _illegal(
                "Only a flying ghost strikes (ghost face, from, struck square, landing).",
                "敵を倒して飛べるのは怨霊だけです（怨霊・元の位置・倒す駒・着地点）。",
                self.suggest(here),
            )
        if face == OCCUPY:
            raise _illegal(
                f"{ch} never moves.", f"「{ch}」は置いた後に動かせません。", self.suggest()
            )
        target = b[to]
        if target and OWNER[target] == p and FACE[target] != GHOST:
            en, ja = (
                f"{tname} holds your own {CELL_CHAR[target]}.",
                f"{tname}には味方の「{CELL_CHAR[target]}」があります。",
            )
        elif target and FACE[target] == GHOST:
            en, ja = (
                f"{tname} holds a ghost ({CELL_CHAR[target]}); nothing may move onto a ghost.",
                f"{tname}には怨霊（{CELL_CHAR[target]}）があり、そこへは動けません。",
            )
        elif face == MIKO and target:
            en, ja = f"A {ch} never captures.", f"「{ch}」は他の駒を取ることが出来ません。"
        elif face == MIKO:
            en = f"A {ch} only leaps over an adjacent ghost to an empty square beyond it."
            ja = f"「{ch}」はとなりの怨霊を飛び越えて、その向こうの空いているマスにだけ移れます。"
        else:
            how = {
                WARRIOR: (
                    "moves one square in any of the 8 directions",
                    "タテ・ヨコ・ナナメに1マス進みます",
                ),
                HORSE: ("leaps like a knight (2+1) in 8 ways", "八方桂馬に進みます"),
                ARCHER_FACE: (
                    "moves exactly 2 or 3 squares straight up, down, left or right",
                    "タテ・ヨコに2マスか3マス進みます",
                ),
            }[face]
            en = f"{ch} cannot go from {fname} to {tname}: it {how[0]}."
            ja = f"「{ch}」は{fname}から{tname}へは動けません（{how[1]}）。"
        raise _illegal(en, ja, self.suggest(here))

    def ghost_move(self, g: int, to: int, struck: int, here: list[Move] | None) -> Move:
        s = self.state
        b = s.board
        p = self.p
        gname, tname = square_name(g), square_name(to)
        miko = cell(p, MIKO)
        mikos = [(d, m) for d, m in ADJACENT[g] if b[m] == miko]
        if not mikos:
            en = (
                f"Only your own {FACES[p][MIKO]} can move a ghost, and none stands next to {gname}."
            )
            ja = (
                f"怨霊を動かせるのは自分の「{FACES[p][MIKO]}」だけで、"
                f"{gname}のとなりにはありません。"
            )
        elif b[to] and to != g:
            en, ja = (
                f"{tname} is occupied ({CELL_CHAR[b[to]]}); a ghost lands only on an empty square.",
                f"{tname}には駒（{CELL_CHAR[b[to]]}）があります。怨霊は空いているマスにしか置けません。",
            )
        elif struck >= 0:
            sname = square_name(struck)
            victim = b[struck]
            if not victim or OWNER[victim] == p or FACE[victim] == GHOST:
                en = f"{sname} holds no enemy piece to strike."
                ja = f"{sname}には倒せる敵の駒がありません。"
            else:
                en = (
                    f"{sname} is not beyond your {FACES[p][MIKO]} on the line from {gname}, or the "
                    f"ghost cannot land on {tname} (an empty square of that line, not {gname})."
                )
                ja = (
                    f"{sname}は{gname}から「{FACES[p][MIKO]}」を越えた先の筋に無いか、{tname}に着地"
                    f"出来ません（着地はその筋の空いているマス、{gname}以外）。"
                )
        else:
            en = (
                f"The ghost on {gname} cannot go to {tname}: it may step next to your "
                f"{FACES[p][MIKO]} or fly over it along the line."
            )
            ja = (
                f"{gname}の怨霊は{tname}へは動かせません（「{FACES[p][MIKO]}」のとなりに置きなおすか、"
                "「巫」を飛び越えさせて筋の先へ飛ばします）。"
            )
        raise _illegal(en, ja, self.suggest(here))


# --- game -----------------------------------------------------------------------------------------


_ROW_SEP = re.compile(r"[/|]")
_EMPTY_CHARS = ".○・-0"
_ASCII_CELL = {ch: cell(0, f) for f, ch in enumerate(ASCII_FACES)} | {
    ch.lower(): cell(1, f) for f, ch in enumerate(ASCII_FACES)
}


class Rokumentai(Game[RokumentaiState]):
    """六面体 (written 6面体 on the box)."""

    id = "rokumentai"
    title_en = "Rokumentai"
    title_ja = "六面体"
    player_counts = (2,)
    game_options: ClassVar[tuple[OptionSpec, ...]] = ()
    rules_doc = "docs/rules/rokumentai.md"
    summary = Text(
        "Place dice on a 7×7 board, each showing a power: 占 (occupy) first, then warriors, "
        "horses, archers and shrine maidens next to your 占. Beaten pieces turn into ghosts that "
        "block the board for ever; only a shrine maiden can move them, or fling them to strike. "
        "Lose your last 占, or be left with no move, and you lose.",
        "7×7の盤に面を選んだサイコロを置き、動かします。はじめは「占」、その後は「占」のまわりに"
        "武・騎・弓・巫を置きます。倒された駒は怨霊となって盤に残り、巫だけが動かせます。"
        "最後の「占」を失うか、置ける駒も動かせる駒も無くなると負けです。",
    )

    def initial_state(self, players: int, options: dict[str, str]) -> RokumentaiState:
        board = (EMPTY,) * SQUARES
        key: RepKey = (board, (HAND, HAND), (False, False), 0)
        return RokumentaiState(board, option_items=tuple(options.items()), history=History((key,)))

    def parse_position(self, text: str, options: dict[str, str], players: int) -> RokumentaiState:
        parts = text.split()
        if len(parts) != 5:
            raise position_error(
                self,
                f"expected 5 fields, found {len(parts)}",
                f"5つの項目が必要ですが{len(parts)}つです",
                text,
            )
        rows_text, side, hands_text, flags_text, ply_text = parts
        rows = _ROW_SEP.split(rows_text)
        if len(rows) != SIZE:
            raise position_error(
                self, f"expected 7 rows, found {len(rows)}", f"7行必要ですが{len(rows)}行です", text
            )
        board: list[int] = []
        for r, row in enumerate(rows, 1):
            if len(row) != SIZE:
                raise position_error(
                    self,
                    f"row {r:02d} has {len(row)} cells, not 7",
                    f"{r:02d}行目のマスが{len(row)}個です（7個必要）",
                    text,
                )
            for ch in row:
                if ch in _EMPTY_CHARS:
                    board.append(EMPTY)
                elif ch in CHAR_CELL:
                    board.append(CHAR_CELL[ch])
                elif ch in _ASCII_CELL:
                    board.append(_ASCII_CELL[ch])
                else:
                    raise position_error(
                        self,
                        f"unknown cell {ch!r} in row {r:02d}",
                        f"{r:02d}行目の「{ch}」は不明です",
                        text,
                    )
        if side not in ("b", "w"):
            raise position_error(
                self,
                f"the side to move must be b or w, not {side!r}",
                f"手番はbかwです（「{side}」）",
                text,
            )
        hand_parts = hands_text.split("/")
        if len(hand_parts) != 2 or not all(h.isascii() and h.isdigit() for h in hand_parts):
            raise position_error(
                self, f"bad hands {hands_text!r}", f"持ち駒数「{hands_text}」が不正です", text
            )
        hands = (int(hand_parts[0]), int(hand_parts[1]))
        if len(flags_text) != 2 or any(f not in "+-" for f in flags_text):
            raise position_error(
                self, f"bad flags {flags_text!r}", f"「{flags_text}」が不正です（+か-を2つ）", text
            )
        committed = (flags_text[0] == "+", flags_text[1] == "+")
        if not (ply_text.isascii() and ply_text.isdigit()) or len(ply_text) > 6:
            raise position_error(
                self, f"bad ply {ply_text!r}", f"手数「{ply_text}」が不正です", text
            )
        for owner in range(2):
            en, ja = SEAT_TEXT[owner]
            on_board = sum(1 for c in board if OWNER[c] == owner)
            if on_board + hands[owner] > HAND:
                raise position_error(
                    self,
                    f"{en} has {on_board} cubes on the board and {hands[owner]} in hand: more "
                    f"than {HAND}",
                    f"{ja}の駒が盤上{on_board}個と持ち駒{hands[owner]}個で{HAND}個を超えます",
                    text,
                )
            shown = any(OWNER[c] == owner and FACE[c] in PLACEABLE for c in board)
            if shown and not committed[owner]:
                raise position_error(
                    self,
                    f"{en} has a non-{FACES[owner][0]} face on the board, so its flag must be '+'",
                    f"{ja}は「{FACES[owner][0]}」以外の面を盤上に持つので、フラグは「+」です",
                    text,
                )
        tup = tuple(board)
        to_move = 0 if side == "b" else 1
        key: RepKey = (tup, hands, committed, to_move)
        return RokumentaiState(
            tup,
            hands,
            committed,
            to_move,
            int(ply_text),
            tuple(options.items()),
            History((key,)),
        )


ROKUMENTAI = Rokumentai()
RokumentaiState.game = ROKUMENTAI
GAMES = (ROKUMENTAI,)
