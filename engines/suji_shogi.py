"""数字将棋 (suji shōgi, Number shogi): a 3×5 shogi whose pieces are the numbers 1 to 6.

A piece steps one square in as many directions as its number; captured pieces go to the captor's
hand (持ち駒) as numbers, and whoever first holds a set of two or more numbers adding up to 7 wins.
Each side arranges its pieces in secret (初期配置) before play. Rules: docs/rules/suji-shogi.md.

Squares are indexed 0..14 row by row as Black sees the board: index = 3 * (rank - 1) + (3 - file),
so 0 is 3一 (top left) and 14 is 1五 (bottom right). A board cell holds 0 (empty) or a signed code:
positive for Black (先手), negative for White (後手); 1..6 an unpromoted piece, 8 + n a promoted
piece (成り, shown as 8) whose front is n, and :data:`FACE_DOWN` a piece whose number is hidden.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from typing import ClassVar, TypeAlias

from engines.core import (
    CHANCE,
    DRAW_TEXTS,
    SIMULTANEOUS,
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
    check_input,
    normalise,
    ply_cap,
    position_error,
    repetition_limit,
)

BLACK, WHITE = 0, 1
SETUP_PHASE = -1
"""``State.to_move`` while the arrangements are not all in."""
FILES, RANKS = 3, 5
SQUARES = FILES * RANKS
PROMOTED = 8
"""A promoted piece's code is ``PROMOTED + front number``; its face shows 8."""
FACE_DOWN = 7
"""A piece seen from behind during the secret setup (its number is not in the state at all)."""
RANK_LETTERS = "abcde"
RANK_KANJI = "一二三四五"
MARKS = ("▲", "△")

# --- the direction table (data) -------------------------------------------------------------

DELTAS: dict[str, tuple[int, int]] = {
    "F": (0, -1),
    "FL": (-1, -1),
    "FR": (1, -1),
    "L": (-1, 0),
    "R": (1, 0),
    "BL": (-1, 1),
    "BR": (1, 1),
    "B": (0, 1),
}
"""(column, row) steps in Black's frame: column 0 is file 3 (Black's left), row 0 is rank 一."""

ALL_EIGHT = ("F", "FL", "FR", "L", "R", "BL", "BR", "B")

DIRECTION_TABLES: dict[str, dict[int, tuple[str, ...]]] = {
    "default": {
        1: ("F",),
        2: ("FL", "FR"),
        3: ("F", "BL", "BR"),
        4: ("FL", "FR", "BL", "BR"),
        5: ("F", "FL", "FR", "BL", "BR"),
        6: ("F", "FL", "FR", "L", "R", "B"),
        PROMOTED: ALL_EIGHT,
    },
    "sample": {
        1: ("F",),
        2: ("FL", "FR"),
        3: ("F", "FL", "FR"),
        4: ("F", "B", "L", "R"),
        5: ("F", "FL", "FR", "BL", "BR"),
        6: ("F", "FL", "FR", "L", "R", "B"),
        PROMOTED: ALL_EIGHT,
    },
}
"""Each piece's directions from its owner's point of view. ``sample``: the seed's sample game."""

CAMPS: tuple[tuple[int, ...], tuple[int, ...]] = (
    (12, 13, 14, 9, 10, 11),  # Black: 3五 2五 1五 then 3四 2四 1四
    (0, 1, 2, 3, 4, 5),  # White: 3一 2一 1一 then 3二 2二 1二
)
"""Each side's setup squares in the record order: file 3 to 1, back rank then front rank."""

FAR_RANK: tuple[frozenset[int], frozenset[int]] = (frozenset({0, 1, 2}), frozenset({12, 13, 14}))


def square_name(sq: int) -> str:
    """USI-like square: file digit and rank letter (``2c``)."""
    return f"{FILES - sq % FILES}{RANK_LETTERS[sq // FILES]}"


def square_kanji(sq: int) -> str:
    """Kifu square: file digit and kanji rank (``2三``)."""
    return f"{FILES - sq % FILES}{RANK_KANJI[sq // FILES]}"


def square_digits(sq: int) -> str:
    """Kifu origin: file and rank digits (``25``)."""
    return f"{FILES - sq % FILES}{sq // FILES + 1}"


def square_at(file: int, rank: int) -> int:
    return (rank - 1) * FILES + (FILES - file)


# --- moves ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Move:
    """A step of a piece (``frm`` >= 0) or a drop (打, ``drop`` = the number, ``frm`` = -1)."""

    to: int
    frm: int = -1
    drop: int = 0
    promote: bool = False

    @property
    def is_drop(self) -> bool:
        return self.frm < 0

    def __str__(self) -> str:
        """The canonical notation: ``2e2d``, ``2b2a+`` (promotes), ``5*2c``."""
        if self.is_drop:
            return f"{self.drop}*{square_name(self.to)}"
        return f"{square_name(self.frm)}{square_name(self.to)}{'+' if self.promote else ''}"


@dataclass(frozen=True, slots=True)
class Setup:
    """One side's secret arrangement: six numbers in the record order (see :data:`CAMPS`).

    It does not carry the seat: its text (``465/123``) is the same for both, and ``apply`` /
    ``parse_move`` take the seat as their ``player`` argument.
    """

    pieces: tuple[int, ...]

    def text(self) -> str:
        p = "".join(map(str, self.pieces))
        return f"{p[:3]}/{p[3:]}"

    def __str__(self) -> str:
        """The canonical notation, ``465/123``."""
        return self.text()


SujiMove: TypeAlias = Move | Setup

ALL_SETUPS: tuple[Setup, ...] = tuple(Setup(p) for p in itertools.permutations(range(1, 7)))
"""The 720 arrangements, in lexicographic order of their text."""

_BOARD_MOVES: dict[tuple[int, int, bool], Move] = {
    (f, t, p): Move(t, f, 0, p)
    for f in range(SQUARES)
    for t in range(SQUARES)
    for p in (False, True)
}
_DROPS: dict[int, tuple[Move, ...]] = {
    n: tuple(Move(t, -1, n) for t in range(SQUARES)) for n in range(1, 7)
}


def _step(sq: int, direction: str, seat: int) -> int | None:
    dc, dr = DELTAS[direction]
    if seat == WHITE:
        dc, dr = -dc, -dr
    c, r = sq % FILES + dc, sq // FILES + dr
    if 0 <= c < FILES and 0 <= r < RANKS:
        return r * FILES + c
    return None


StepTable: TypeAlias = tuple[tuple[tuple[tuple[int, Move, Move | None], ...], ...], ...]
"""``[kind][square]`` -> (target, plain move, promoting move or None); kind 1..6 or 8."""


@cache
def _steps(table: str, seat: int, promotion: bool) -> StepTable:
    """Every piece's steps from every square, with the promotion choice where there is one."""
    kinds: list[tuple[tuple[tuple[int, Move, Move | None], ...], ...]] = []
    for kind in range(PROMOTED + 1):
        dirs = DIRECTION_TABLES[table].get(kind, ())
        per_square = []
        for sq in range(SQUARES):
            out = []
            for d in dirs:
                to = _step(sq, d, seat)
                if to is None:
                    continue
                can_promote = promotion and kind != PROMOTED and to in FAR_RANK[seat]
                promo = _BOARD_MOVES[sq, to, True] if can_promote else None
                out.append((to, _BOARD_MOVES[sq, to, False], promo))
            per_square.append(tuple(out))
        kinds.append(tuple(per_square))
    return tuple(kinds)


def _hand_wins(counts: tuple[int, ...]) -> bool:
    """True when some two or more of the numbers in ``counts`` add up to exactly 7."""
    pool = [n for n in range(1, 7) for _ in range(counts[n - 1])]
    return any(
        sum(c) == 7 for k in range(2, len(pool) + 1) for c in itertools.combinations(pool, k)
    )


WINNING_HANDS: frozenset[tuple[int, ...]] = frozenset(
    c for c in itertools.product(range(3), repeat=6) if _hand_wins(c)
)
"""Every hand (count of 1s .. 6s, at most two of each) that holds a sum of 7."""

EMPTY_HAND = (0,) * 6


@dataclass(frozen=True, slots=True)
class Rules:
    """The resolved options, with the step tables they select."""

    directions: str
    promotion: bool
    random_setup: bool
    repetition: int
    cap: int
    items: tuple[tuple[str, str], ...]

    @property
    def steps(self) -> tuple[StepTable, StepTable]:
        return (
            _steps(self.directions, BLACK, self.promotion),
            _steps(self.directions, WHITE, self.promotion),
        )


@cache
def _rules(items: tuple[tuple[str, str], ...]) -> Rules:
    opts = dict(items)
    return Rules(
        opts["directions"],
        opts["promotion"] == "on",
        opts["setup"] == "random",
        repetition_limit(opts),
        ply_cap(opts),
        items,
    )


def rules_of(options: dict[str, str]) -> Rules:
    return _rules(tuple(sorted(options.items())))


# --- the state ------------------------------------------------------------------------------

Hands: TypeAlias = tuple[tuple[int, ...], tuple[int, ...]]


def front(code: int) -> int:
    """The number on a piece's front (a promoted piece counts as this when captured)."""
    a = abs(code)
    return a - PROMOTED if a > PROMOTED else a


def face(code: int) -> int:
    """What the piece shows: its number, 8 when promoted, :data:`FACE_DOWN` when hidden."""
    a = abs(code)
    return PROMOTED if a > PROMOTED else a


def _dir_names(kind: int, rules: Rules) -> str:
    return ", ".join(DIRECTION_TABLES[rules.directions][kind])


@dataclass(frozen=True)
class SujiState(State[SujiMove]):
    """A position: the board, both hands (counts of 1..6), the side to move, and the result.

    ``to_move`` is :data:`SETUP_PHASE` until both arrangements are in. ``winner`` is set by the
    capture that completes a sum of 7 (an event, so a position text without it is never won).
    ``ply_count`` counts every action (setups included: the host's chance index); ``turn_count``
    only the plies of play after the setup (what the cap counts and the position text shows).
    """

    game: ClassVar[Game[SujiState]]

    board: tuple[int, ...]
    hands: Hands
    to_move: int
    ply_count: int = field(compare=False)
    rules: Rules
    winner: int = -1
    history: History = field(default=History(), compare=False, repr=False)
    turn_count: int = 0

    # -- whose turn --------------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return 2

    @property
    def ply(self) -> int:
        return self.ply_count

    @property
    def turns(self) -> int:
        return self.turn_count

    def has_set_up(self, seat: int) -> bool:
        return self.board[CAMPS[seat][0]] != 0

    def current_player(self) -> int:
        if self.to_move == SETUP_PHASE:
            return CHANCE if self.rules.random_setup else SIMULTANEOUS
        if self.outcome() is not None:
            return TERMINAL
        return self.to_move

    def acting_players(self) -> tuple[int, ...]:
        p = self.current_player()
        if p == SIMULTANEOUS:
            return tuple(s for s in (BLACK, WHITE) if not self.has_set_up(s))
        return (p,) if p >= 0 else ()

    # -- moves -------------------------------------------------------------------------------
    @cached
    def _moves(self) -> tuple[Move, ...]:
        """The side to move's legal moves: steps in square and direction order, then drops."""
        me = self.to_move
        if me == SETUP_PHASE or self.winner >= 0:
            return ()
        sign = 1 if me == BLACK else -1
        board = self.board
        steps = self.rules.steps[me]
        out: list[Move] = []
        for sq, code in enumerate(board):
            own = code * sign
            if own <= 0:
                continue
            for to, plain, promo in steps[PROMOTED if own > PROMOTED else own][sq]:
                if board[to] * sign > 0:
                    continue
                out.append(plain)
                if promo is not None:
                    out.append(promo)
        hand = self.hands[me]
        if any(hand):
            empty = [sq for sq, code in enumerate(board) if code == 0]
            for n in range(1, 7):
                if hand[n - 1]:
                    drops = _DROPS[n]
                    out.extend(drops[sq] for sq in empty)
        return tuple(out)

    @cached
    def _move_set(self) -> frozenset[Move]:
        return frozenset(self._moves)

    def _setup_seat(self, player: int | None) -> int | None:
        """The seat a setup action is for (None when it cannot be told)."""
        if self.rules.random_setup:
            return BLACK if not self.has_set_up(BLACK) else WHITE
        if player is not None:
            return player
        due = self.acting_players()
        return due[0] if len(due) == 1 else None

    def legal_moves(self, player: int | None = None) -> tuple[SujiMove, ...]:
        self.check_player(player)
        if self.to_move == SETUP_PHASE:
            if self.rules.random_setup:
                return ALL_SETUPS if player in (None, CHANCE) else ()
            # A player may change their arrangement until both are in (the reveal starts play).
            return ALL_SETUPS
        if self.outcome() is not None or (player is not None and player != self.to_move):
            return ()
        return self._moves

    def chance_outcomes(self) -> tuple[tuple[SujiMove, Fraction], ...]:
        """With ``setup=random``: every arrangement of Black's, then of White's, equally likely."""
        if self.to_move != SETUP_PHASE or not self.rules.random_setup:
            return ()
        p = Fraction(1, len(ALL_SETUPS))
        return tuple((s, p) for s in ALL_SETUPS)

    def apply(self, move: SujiMove, player: int | None = None) -> SujiState:
        self.check_player(player)
        if isinstance(move, Setup):
            return self._apply_setup(move, player)
        if move not in self._move_set_or_empty(player):
            raise IllegalMoveError(self._why_illegal(move, player))
        me = self.to_move
        sign = 1 if me == BLACK else -1
        board = list(self.board)
        hands = list(self.hands)
        winner = -1
        if move.is_drop:
            board[move.to] = sign * move.drop
            hand = list(hands[me])
            hand[move.drop - 1] -= 1
            hands[me] = tuple(hand)
        else:
            code = board[move.frm]
            taken = board[move.to]
            board[move.frm] = 0
            if move.promote:
                code = sign * (PROMOTED + abs(code))
            board[move.to] = code
            if taken:
                hand = list(hands[me])
                hand[front(taken) - 1] += 1
                hands[me] = tuple(hand)
                if hands[me] in WINNING_HANDS:
                    winner = me
        new_board = tuple(board)
        new_hands = (hands[0], hands[1])
        nxt = 1 - me
        return SujiState(
            new_board,
            new_hands,
            nxt,
            self.ply_count + 1,
            self.rules,
            winner,
            self.history.push((new_board, new_hands, nxt)),
            self.turn_count + 1,
        )

    def _move_set_or_empty(self, player: int | None) -> frozenset[Move]:
        if self.to_move == SETUP_PHASE or (player is not None and player != self.to_move):
            return frozenset()
        if self.outcome() is not None:
            return frozenset()
        return self._move_set

    def _setup_seat_checked(self, setup: Setup, player: int | None) -> int:
        """The seat ``setup`` is for; raises :class:`IllegalMoveError` when it cannot be taken."""
        if self.to_move != SETUP_PHASE:
            raise IllegalMoveError(
                Text(
                    "The pieces are already set up; play has begun.",
                    "初期配置はもう終わっています。対局中です。",
                )
            )
        if sorted(setup.pieces) != [1, 2, 3, 4, 5, 6]:
            raise IllegalMoveError(_BAD_SETUP)
        if self.rules.random_setup and player not in (None, CHANCE):
            raise IllegalMoveError(
                Text(
                    "The host deals the arrangements in this game (setup=random).",
                    "この対局では初期配置はランダムに配られます（setup=random）。",
                )
            )
        seat = self._setup_seat(player)
        if seat is None:
            raise IllegalMoveError(
                Text(
                    "Both players are still to set up: say whose arrangement this is.",
                    "両者とも配置前です。どちらの配置か指定してください。",
                )
            )
        return seat

    def _apply_setup(self, setup: Setup, player: int | None) -> SujiState:
        seat = self._setup_seat_checked(setup, player)
        sign = 1 if seat == BLACK else -1
        board = list(self.board)
        for sq, n in zip(CAMPS[seat], setup.pieces, strict=True):
            board[sq] = sign * n
        new_board = tuple(board)
        done = all(new_board[CAMPS[s][0]] != 0 for s in (BLACK, WHITE))
        if done and any(abs(c) == FACE_DOWN for c in new_board):
            raise IllegalMoveError(
                Text(
                    "This is a masked view of the game; it cannot start play.",
                    "これは伏せられた局面なので対局を始められません。",
                )
            )
        if not done:
            return SujiState(
                new_board, self.hands, SETUP_PHASE, self.ply_count + 1, self.rules, -1, History(), 0
            )
        key = (new_board, self.hands, BLACK)
        return SujiState(
            new_board, self.hands, BLACK, self.ply_count + 1, self.rules, -1, History((key,)), 0
        )

    # -- end ---------------------------------------------------------------------------------
    @cached
    def _outcome(self) -> Outcome | None:
        if self.to_move == SETUP_PHASE:
            return None
        if self.winner >= 0:
            w = self.winner
            return Outcome.win(
                w,
                2,
                Termination.RULE,
                Text(
                    f"{_SEAT_EN[w]} wins: their hand holds numbers adding up to 7.",
                    f"{_SEAT_JA[w]}の勝ち：持ち駒に足して7になる組み合わせができました。",
                ),
            )
        if not self._moves:
            loser = self.to_move
            return Outcome.loss(
                loser,
                2,
                Termination.NO_MOVES,
                Text(
                    f"{_SEAT_EN[loser]} has no legal move and loses.",
                    f"{_SEAT_JA[loser]}は指せる手がなく負けです。",
                ),
            )
        limit = self.rules.repetition
        if limit and self.history.count((self.board, self.hands, self.to_move)) >= limit:
            return Outcome.draw(2, Termination.REPETITION, DRAW_TEXTS[Termination.REPETITION])
        if self.rules.cap and self.turn_count >= self.rules.cap:
            return Outcome.draw(2, Termination.CAP, DRAW_TEXTS[Termination.CAP])
        return None

    def outcome(self) -> Outcome | None:
        return self._outcome

    # -- information -------------------------------------------------------------------------
    def hides_moves(self) -> bool:
        return self.to_move == SETUP_PHASE and not self.rules.random_setup

    def observe(self, viewer: int | None) -> SujiState:
        """During the secret setup, the other side's pieces (both, for a spectator) face down."""
        if not self.hides_moves():
            return self
        hidden = {WHITE, BLACK} - ({viewer} if viewer is not None else set())
        board = list(self.board)
        for seat in hidden:
            sign = 1 if seat == BLACK else -1
            for sq in CAMPS[seat]:
                if board[sq]:
                    board[sq] = sign * FACE_DOWN
        return SujiState(
            tuple(board), self.hands, SETUP_PHASE, self.ply_count, self.rules, -1, History(), 0
        )

    # -- notation ----------------------------------------------------------------------------
    def format_move(self, move: SujiMove) -> str:
        """``2e2d``, ``2b2a+`` (promotes; ``2b2a`` declines), ``5*2c``, setup ``465/123``."""
        return str(move)

    def display_move(self, move: SujiMove, lang: str = "en") -> str:
        """Kifu form: ``▲2四5(25)``, ``▲2三5打``, ``▲2一5成(22)``, ``▲2一5不成(22)``."""
        if isinstance(move, Setup):
            return f"配置 {move.text()}" if lang.startswith("ja") else f"setup {move.text()}"
        mark = MARKS[self.to_move] if self.to_move in (BLACK, WHITE) else ""
        if move.is_drop:
            return f"{mark}{square_kanji(move.to)}{move.drop}打"
        code = self.board[move.frm]
        suffix = ""
        if move.promote:
            suffix = "成"
        elif self._may_promote(move):
            suffix = "不成"
        return f"{mark}{square_kanji(move.to)}{face(code)}{suffix}({square_digits(move.frm)})"

    def _may_promote(self, move: Move) -> bool:
        code = self.board[move.frm] if move.frm >= 0 else 0
        return (
            self.rules.promotion
            and not move.is_drop
            and 0 < abs(code) < PROMOTED
            and self.to_move in (BLACK, WHITE)
            and move.to in FAR_RANK[self.to_move]
        )

    def parse_move(self, text: str, player: int | None = None) -> SujiMove:
        """Read a move in any accepted spelling (see :meth:`read_move`) and check it is legal."""
        self.check_player(player)
        raw = check_input(text)
        legal = self.legal_moves(player)
        move = self.read_move(raw, legal, player)
        if isinstance(move, Setup):
            self._setup_seat_checked(move, player)
            return move
        if move not in legal:
            raise IllegalMoveError(self._why_illegal(move, player), self.closest(raw, legal))
        return move

    def read_move(
        self, text: str, legal: tuple[SujiMove, ...], player: int | None = None
    ) -> SujiMove:
        """USI-like (``2e2d``, ``2b2a+``, ``2b2a=``, ``5*2c``), kifu (``▲2四5(25)``, ``2三5打``,
        ``2一5成(22)``, ``2一5不成``, ``2四5``), full-width digits and kanji ranks, and setups
        (``465/123``)."""
        key = normalise(text)
        for k, letter in zip(RANK_KANJI, "ABCDE", strict=True):
            key = key.replace(k, letter)
        mark = key[:1]
        if mark in _MARK_SEATS:
            key = key[1:]
            seat = _MARK_SEATS[mark]
            if self.to_move in (BLACK, WHITE) and seat != self.to_move:
                raise IllegalMoveError(
                    Text(
                        f"{text!r} is marked for {_SEAT_EN[seat]}, but it is "
                        f"{_SEAT_EN[self.to_move]}'s turn.",
                        f"「{text}」は{_SEAT_JA[seat]}の手ですが、"
                        f"今は{_SEAT_JA[self.to_move]}の手番です。",
                    ),
                    self.closest(text, legal),
                )
        if m := _SETUP_RE.fullmatch(key):
            pieces = tuple(int(c) for c in m[1] + m[2])
            if sorted(pieces) != [1, 2, 3, 4, 5, 6]:
                raise InvalidMoveError(_BAD_SETUP, self.closest(text, legal))
            return Setup(pieces)
        if m := _USI_MOVE_RE.fullmatch(key):
            frm = square_at(int(m[1]), "ABCDE".index(m[2]) + 1)
            to = square_at(int(m[3]), "ABCDE".index(m[4]) + 1)
            return _BOARD_MOVES[frm, to, m[5] in ("+", "成")]
        if m := _USI_DROP_RE.fullmatch(key):
            return _DROPS[int(m[1])][square_at(int(m[2]), "ABCDE".index(m[3]) + 1)]
        if m := _KIFU_RE.fullmatch(key):
            return self._read_kifu(text, m, legal)
        raise InvalidMoveError(
            Text(
                f"{text!r} is not a move I can read. Write a step as 2e2d (2b2a+ to promote), "
                "a drop as 5*2c, or kifu such as 2四5(25) or 2三5打.",
                f"「{text}」は指し手として読めません。2e2d（成りは2b2a+）、打つ手は5*2c、"
                "または 2四5(25)・2三5打 のような棋譜の形で入力してください。",
            ),
            self.closest(text, legal),
        )

    def _read_kifu(self, text: str, m: re.Match[str], legal: tuple[SujiMove, ...]) -> Move:
        to = square_at(int(m[1]), "ABCDE".index(m[2]) + 1)
        shown = int(m[3])
        how = m[4] or ""
        origin = square_at(int(m[5]), int(m[6])) if m[5] else None
        if how == "打":
            if shown == PROMOTED or origin is not None:
                raise InvalidMoveError(
                    Text(
                        f"{text!r}: a drop names a number 1–6 and no origin.",
                        f"「{text}」：打つ手には1〜6の数字だけを書き、移動元は書きません。",
                    ),
                    self.closest(text, legal),
                )
            return _DROPS[shown][to]
        promote = how in ("成", "+")
        declined = how in ("不成", "=")
        if origin is not None:
            return _BOARD_MOVES[origin, to, promote]
        moves = [x for x in legal if isinstance(x, Move)]
        steps = [
            x
            for x in moves
            if not x.is_drop and x.to == to and face(self.board[x.frm]) == shown
            if (x.promote if promote else not x.promote) or not (promote or declined)
        ]
        if not steps and not (promote or declined):
            steps = [x for x in moves if x.is_drop and x.to == to and x.drop == shown]
        if len(steps) == 2 and steps[0].frm == steps[1].frm:
            raise AmbiguousMoveError(
                Text(
                    f"{text!r}: say whether the piece promotes (成) or not (不成).",
                    f"「{text}」：成るか（成）成らないか（不成）を指定してください。",
                ),
                tuple(self.format_move(x) for x in steps),
            )
        if len(steps) == 1:
            return steps[0]
        if len(steps) > 1:
            raise AmbiguousMoveError(
                Text(
                    f"{text!r} fits several moves: add the origin, as in 2四5(25).",
                    f"「{text}」に当てはまる手が複数あります。2四5(25)のように移動元を加えてください。",
                ),
                tuple(self.format_move(x) for x in steps),
            )
        raise IllegalMoveError(
            Text(
                f"{text!r}: no {shown} of yours can go to {square_name(to)}.",
                f"「{text}」：{square_kanji(to)}へ行ける{shown}がありません。",
            ),
            self.closest(text, legal),
        )

    def _why_illegal(self, move: Move, player: int | None) -> Text:
        """Why ``move`` cannot be played here, in the players' terms."""
        if self.to_move != SETUP_PHASE and self.outcome() is not None:
            return Text("The game is over.", "対局は終了しています。")
        if self.to_move == SETUP_PHASE:
            return Text(
                "The pieces are not all set up yet: send your arrangement, such as 465/123.",
                "まだ初期配置の途中です。465/123 のように配置を送ってください。",
            )
        me = self.to_move
        if player is not None and player != me:
            return Text(
                f"It is {_SEAT_EN[me]}'s turn, not {_SEAT_EN[player]}'s.",
                f"今は{_SEAT_JA[me]}の手番です（{_SEAT_JA[player]}ではありません）。",
            )
        sign = 1 if me == BLACK else -1
        to = square_name(move.to)
        if self.board[move.to] * sign > 0:
            return Text(
                f"{to} holds a piece of your own.",
                f"{square_kanji(move.to)}には自分の駒があります。",
            )
        if move.is_drop:
            if not self.hands[me][move.drop - 1]:
                return Text(
                    f"You have no {move.drop} in hand.", f"持ち駒に{move.drop}がありません。"
                )
            return Text(
                f"{to} is occupied: a drop needs an empty square.",
                f"{square_kanji(move.to)}は空いていません。駒は空いたマスにしか打てません。",
            )
        code = self.board[move.frm]
        frm = square_name(move.frm)
        if code * sign <= 0:
            return Text(
                f"There is no piece of yours on {frm}.",
                f"{square_kanji(move.frm)}に自分の駒がありません。",
            )
        kind = face(code)
        if all(t != move.to for t, _, _ in self.rules.steps[me][kind][move.frm]):
            return Text(
                f"Your {kind} on {frm} cannot go to {to}: it steps one square "
                f"{_dir_names(kind, self.rules)}.",
                f"{square_kanji(move.frm)}の{kind}は{square_kanji(move.to)}へ動けません"
                f"（1マスずつ {_dir_names(kind, self.rules)} に動きます）。",
            )
        if not self.rules.promotion:
            return Text("Promotion is off in this game.", "この対局では成りはありません。")
        if kind == PROMOTED:
            return Text("That piece is already promoted.", "その駒はもう成っています。")
        return Text(
            "A piece promotes only when its move ends on the far rank.",
            "成れるのは相手陣の一番奥の段で止まる手だけです。",
        )

    # -- position text -----------------------------------------------------------------------
    def position(self) -> str:
        """``<rank 一>/…/<rank 五> <b|w|-> <Black hand> <White hand> <ply>[ win-b|win-w]``.

        A square is ``.`` (empty), ``N`` (Black's N), ``+N`` (Black's promoted N, showing 8),
        ``?`` (face down); a ``v`` prefix marks White's (as in the BOD board diagram).
        ``-`` as the side means the setup phase. A hand lists its numbers (``-`` if none).
        """
        rows = []
        for r in range(RANKS):
            rows.append("".join(_cell_text(c) for c in self.board[r * FILES : (r + 1) * FILES]))
        side = "-" if self.to_move == SETUP_PHASE else "bw"[self.to_move]
        hands = ["".join(str(n) * h[n - 1] for n in range(1, 7)) or "-" for h in self.hands]
        text = f"{'/'.join(rows)} {side} {hands[0]} {hands[1]} {self.turn_count}"
        if self.winner >= 0:
            text += f" win-{'bw'[self.winner]}"
        return text

    def options(self) -> dict[str, str]:
        return dict(self.rules.items)


_SEAT_EN = ("Black", "White")
_SEAT_JA = ("先手", "後手")
_MARK_SEATS = {"▲": BLACK, "☗": BLACK, "■": BLACK, "△": WHITE, "☖": WHITE, "□": WHITE}
_BAD_SETUP = Text(
    "An arrangement uses each number 1–6 once: file 3 to 1 of your back rank, then of your "
    "front rank, such as 465/123.",
    "配置は1〜6を1回ずつ、奥の段の3筋→1筋、続いて前の段の3筋→1筋の順に 465/123 のように書きます。",
)
_SETUP_RE = re.compile(r"(?:(?:BLACK|WHITE|先手|後手)?(?:SETUP|配置)?:?)?([1-6]{3})/?([1-6]{3})")
_USI_MOVE_RE = re.compile(r"([1-3])([A-E])-?X?([1-3])([A-E])(\+|=|成|不成)?")
_USI_DROP_RE = re.compile(r"([1-6])\*([1-3])([A-E])")
_KIFU_RE = re.compile(r"([1-3])([A-E])([1-68])(打|成|不成|\+|=)?(?:\(([1-3])([1-5])\))?")
_CELL_RE = re.compile(r"v?\+?[1-6]|v?\?|\.")


def _cell_text(code: int) -> str:
    if code == 0:
        return "."
    prefix = "v" if code < 0 else ""
    a = abs(code)
    if a == FACE_DOWN:
        return prefix + "?"
    return prefix + (f"+{a - PROMOTED}" if a > PROMOTED else str(a))


def _cell_code(token: str) -> int:
    if token == ".":
        return 0
    sign = -1 if token.startswith("v") else 1
    token = token.lstrip("v")
    if token == "?":
        return sign * FACE_DOWN
    if token.startswith("+"):
        return sign * (PROMOTED + int(token[1:]))
    return sign * int(token)


class SujiShogi(Game[SujiState]):
    """数字将棋: the game's static facts and its start position."""

    id = "suji-shogi"
    title_en = "Number shogi"
    title_ja = "数字将棋"
    player_counts = (2,)
    has_chance = True
    has_secret_setup = True
    rules_doc = "docs/rules/suji-shogi.md"
    summary = Text(
        "A 3×5 shogi with pieces numbered 1 to 6: each steps one square in as many directions "
        "as its number, and captured pieces join your hand as numbers. The first player whose "
        "hand holds numbers adding up to exactly 7 (1+6, 3+4, 1+2+4, …) wins. Both sides "
        "arrange their pieces in secret before play.",
        "1〜6の数字の駒で遊ぶ3×5の将棋。駒は数字と同じ数の方向に1マスずつ動き、取った駒は"
        "数字として持ち駒になります。持ち駒の中に足して7になる組み合わせ（1+6、3+4、1+2+4など）を"
        "先に作った方が勝ち。初期配置は互いに秘密で決めます。",
    )
    game_options = (
        OptionSpec(
            "directions",
            ("default", "sample"),
            "default",
            Text(
                "Directions of pieces 3 and 4: default (3 = F, BL, BR; 4 = diagonals) or sample "
                "(3 = F, FL, FR; 4 = F, B, L, R, as in the 2009 sample game).",
                "3と4の移動方向：標準（3＝前・左後ろ・右後ろ、4＝斜め4方向）または実戦譜"
                "（3＝前・左前・右前、4＝前後左右。2009年の実戦譜の動き）。",
            ),
            Text("directions", "3と4の動き"),
            (
                ("default", Text("default", "標準")),
                ("sample", Text("sample (2009 game)", "実戦譜（2009年）")),
            ),
        ),
        OptionSpec(
            "promotion",
            ("on", "off"),
            "on",
            Text(
                "on: a piece reaching the far rank may turn over to 8; off: no promotion "
                "(the 2014 versions).",
                "あり：一番奥の段に進んだ駒は8に成れる。なし：成りなし（2014年版）。",
            ),
            Text("promotion", "成り"),
            (("on", Text("on", "あり")), ("off", Text("off", "なし"))),
        ),
        OptionSpec(
            "setup",
            ("secret", "random"),
            "secret",
            Text(
                "secret: each player arranges their pieces unseen; random: the host shuffles "
                "them (the 2014 versions).",
                "秘密：各自が相手に見せずに配置する。ランダム：配置をランダムに決める（2014年版）。",
            ),
            Text("setup", "初期配置"),
            (("secret", Text("secret", "秘密")), ("random", Text("random", "ランダム"))),
        ),
    )

    def initial_state(self, players: int, options: dict[str, str]) -> SujiState:
        return SujiState(
            (0,) * SQUARES, (EMPTY_HAND, EMPTY_HAND), SETUP_PHASE, 0, rules_of(options)
        )

    def parse_position(self, text: str, options: dict[str, str], players: int) -> SujiState:
        parts = text.split()
        if len(parts) not in (5, 6):
            raise position_error(
                self,
                "expected board, side, two hands, ply",
                "盤面・手番・持ち駒2つ・手数が必要",
                text,
            )
        rows = parts[0].split("/")
        if len(rows) != RANKS:
            raise position_error(self, "the board needs 5 ranks", "盤面は5段必要", text)
        board: list[int] = []
        for row in rows:
            tokens = _CELL_RE.findall(row)
            if "".join(tokens) != row or len(tokens) != FILES:
                raise position_error(
                    self, f"rank {row!r} is not 3 squares", f"段「{row}」が3マスではない", text
                )
            board.extend(_cell_code(t) for t in tokens)
        side = parts[1]
        if side not in ("b", "w", "-"):
            raise position_error(self, "the side is b, w or -", "手番は b・w・- のいずれか", text)
        hands: list[tuple[int, ...]] = []
        for h in parts[2:4]:
            if h != "-" and not re.fullmatch(r"[1-6]+", h):
                raise position_error(self, f"bad hand {h!r}", f"持ち駒「{h}」が不正", text)
            hands.append(tuple(h.count(str(n)) for n in range(1, 7)) if h != "-" else EMPTY_HAND)
        if not (parts[4].isascii() and parts[4].isdigit()) or len(parts[4]) > 6:
            raise position_error(self, "the ply is a number", "手数は数字", text)
        ply = int(parts[4])
        winner = -1
        if len(parts) == 6:
            if parts[5] not in ("win-b", "win-w"):
                raise position_error(
                    self, "the result is win-b or win-w", "結果は win-b か win-w", text
                )
            winner = "bw".index(parts[5][-1])
        for n in range(1, 7):
            total = sum(1 for c in board if c and front(c) == n and abs(c) != FACE_DOWN)
            total += hands[0][n - 1] + hands[1][n - 1]
            if total > 2:
                raise position_error(
                    self, f"more than two pieces numbered {n}", f"{n}の駒が2枚より多い", text
                )
        hidden = any(abs(c) == FACE_DOWN for c in board)
        if side == "-":
            self._check_setup_board(text, board, hands, winner)
            to_move = SETUP_PHASE
        else:
            if hidden:
                raise position_error(
                    self, "face-down pieces only during the setup", "伏せ駒は配置中のみ", text
                )
            to_move = "bw".index(side)
        key = (tuple(board), (hands[0], hands[1]), to_move)
        history = History((key,)) if to_move != SETUP_PHASE else History()
        return SujiState(
            tuple(board),
            (hands[0], hands[1]),
            to_move,
            ply,
            rules_of(options),
            winner,
            history,
            ply,  # the text's ply counts plies of play, never the setup steps
        )

    def _check_setup_board(
        self, text: str, board: list[int], hands: list[tuple[int, ...]], winner: int
    ) -> None:
        if any(any(h) for h in hands) or winner >= 0:
            raise position_error(
                self, "no hands or result during the setup", "配置中は持ち駒・結果なし", text
            )
        camp_squares = set(CAMPS[0]) | set(CAMPS[1])
        if any(board[sq] for sq in range(SQUARES) if sq not in camp_squares):
            raise position_error(self, "the middle rank starts empty", "中央の段は空", text)
        for seat, sign in ((BLACK, 1), (WHITE, -1)):
            cells = [board[sq] * sign for sq in CAMPS[seat]]
            if all(c == 0 for c in cells) or all(c == FACE_DOWN for c in cells):
                continue
            if sorted(cells) != [1, 2, 3, 4, 5, 6]:
                raise position_error(
                    self,
                    f"{_SEAT_EN[seat]}'s camp is empty or its 1–6",
                    f"{_SEAT_JA[seat]}の陣は空か1〜6",
                    text,
                )


GAME = SujiShogi()
SujiState.game = GAME
GAMES = (GAME,)
