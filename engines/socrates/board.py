"""The Socrates board (ソクラテス盤) shared by its four games: cells, space, moves, notation.

The board has 10 columns ``a``–``j`` and 9 rows ``1``–``9``. The outer ring and the middle row
(the equator, 赤道) are **space** (宇宙); the two 8×3 blocks between them are **ground** (地上).
A cell is an index ``(row - 1) * 10 + column``. A board is a 90-character string (cheap to hash
and index): ``.`` empty, ``P``/``M`` Black plain/marked, ``p``/``m`` White plain/marked.

:class:`SocratesState` holds what the four games share: whose turn, the ply, forced passes,
repetition history and the ending; each game adds its own fields and move generator.
"""

from __future__ import annotations

import re
from abc import abstractmethod
from collections.abc import Hashable
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any, ClassVar, TypeVar

from engines.core import (
    DRAW_TEXTS,
    TERMINAL,
    AmbiguousMoveError,
    Game,
    History,
    IllegalMoveError,
    InvalidMoveError,
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

COLS = 10
ROWS = 9
CELLS = COLS * ROWS
FILES = "abcdefghij"
EMPTY = "."
BLACK, WHITE = 0, 1

OWN = ("PM", "pm")
"""The piece letters of each seat (plain, marked)."""
PLAIN = ("P", "p")
MARKED = ("M", "m")
FORWARD = (1, -1)
"""Row change of a forward step: up for Black, down for White."""


def cell(col: int, row: int) -> int:
    """The index of column ``col`` (0 = a) and row ``row`` (1–9)."""
    return (row - 1) * COLS + col


def col_of(c: int) -> int:
    return c % COLS


def row_of(c: int) -> int:
    return c // COLS + 1


def cell_name(c: int) -> str:
    return f"{FILES[c % COLS]}{c // COLS + 1}"


CELL_NAMES: tuple[str, ...] = tuple(cell_name(c) for c in range(CELLS))
_CELL_INDEX = {name.upper(): c for c, name in enumerate(CELL_NAMES)}


def parse_cell(text: str) -> int | None:
    """The cell named ``text`` (``e5``, any case), or None."""
    return _CELL_INDEX.get(text.upper())


def is_ring(c: int) -> bool:
    """The outer ring of space cells (外周)."""
    col, row = col_of(c), row_of(c)
    return row in (1, ROWS) or col in (0, COLS - 1)


def is_space(c: int) -> bool:
    """Space (宇宙): the outer ring and the equator (赤道, row 5)."""
    return is_ring(c) or row_of(c) == 5


SPACE: tuple[bool, ...] = tuple(is_space(c) for c in range(CELLS))
RING: tuple[bool, ...] = tuple(is_ring(c) for c in range(CELLS))

# --- directions, as (column change, row change) ------------------------------------------------

ORTHOGONAL = ((0, 1), (0, -1), (-1, 0), (1, 0))
DIAGONAL = ((-1, 1), (1, 1), (-1, -1), (1, -1))
ALL_EIGHT = ORTHOGONAL + DIAGONAL
KNIGHT = ((-1, 2), (1, 2), (-2, 1), (2, 1), (-2, -1), (2, -1), (-1, -2), (1, -2))


def _neighbour(c: int, d: tuple[int, int]) -> int:
    col, row = col_of(c) + d[0], row_of(c) + d[1]
    return cell(col, row) if 0 <= col < COLS and 1 <= row <= ROWS else -1


NEIGHBOURS: dict[tuple[int, int], tuple[int, ...]] = {
    d: tuple(_neighbour(c, d) for c in range(CELLS)) for d in ALL_EIGHT + KNIGHT
}
"""``NEIGHBOURS[d][c]``: the cell one ``d`` away from ``c``, or -1 off the board."""


def _ring_order() -> tuple[int, ...]:
    """The ring cells in clockwise order (as Black sees it), starting at a1."""
    path = [cell(0, r) for r in range(1, ROWS + 1)]
    path += [cell(col, ROWS) for col in range(1, COLS)]
    path += [cell(COLS - 1, r) for r in range(ROWS - 1, 0, -1)]
    path += [cell(col, 1) for col in range(COLS - 2, 0, -1)]
    return tuple(path)


RING_ORDER = _ring_order()
_RING_POS = {c: i for i, c in enumerate(RING_ORDER)}
RING_NEXT: tuple[dict[int, int], dict[int, int]] = (
    {c: RING_ORDER[(i + 1) % len(RING_ORDER)] for i, c in enumerate(RING_ORDER)},
    {c: RING_ORDER[(i - 1) % len(RING_ORDER)] for i, c in enumerate(RING_ORDER)},
)
"""The next ring cell going clockwise (``[0]``) and anticlockwise (``[1]``)."""

# --- moves --------------------------------------------------------------------------------------

MOVE, PLACE, FLIP, PASS_KIND = "move", "place", "flip", "pass"


@dataclass(frozen=True, slots=True)
class Move:
    """A Socrates move: ``e2-e4`` (any move, jumps included), ``P@e5``/``M@e5``, ``e2!``, pass."""

    kind: str
    frm: int = -1
    to: int = -1
    marked: bool = False

    def __str__(self) -> str:
        if self.kind == MOVE:
            return f"{CELL_NAMES[self.frm]}-{CELL_NAMES[self.to]}"
        if self.kind == PLACE:
            return f"{'M' if self.marked else 'P'}@{CELL_NAMES[self.to]}"
        if self.kind == FLIP:
            return f"{CELL_NAMES[self.frm]}!"
        return "pass"


STEPS: tuple[tuple[Move, ...], ...] = tuple(
    tuple(Move(MOVE, a, b) for b in range(CELLS)) for a in range(CELLS)
)
"""``STEPS[a][b]`` is the move ``a-b`` (shared objects: generation only looks them up)."""
PLACES: tuple[tuple[Move, ...], tuple[Move, ...]] = (
    tuple(Move(PLACE, -1, c, False) for c in range(CELLS)),
    tuple(Move(PLACE, -1, c, True) for c in range(CELLS)),
)
FLIPS: tuple[Move, ...] = tuple(Move(FLIP, c, c) for c in range(CELLS))
PASS = Move(PASS_KIND)

_SEP = r"\s*(?:-|X|:|TO|→|>)?\s*"
_MOVE_RE = re.compile(r"([A-J][1-9])" + _SEP + r"([A-J][1-9])")
_PLACE_RE = re.compile(r"([PM]|PLAIN|MARKED|普|印)?\s*[@*]\s*([A-J][1-9])|([PM])([A-J][1-9])")
_FLIP_RE = re.compile(r"([A-J][1-9])\s*(?:!|FLIP|反転|裏)|(?:!|FLIP|反転)\s*([A-J][1-9])")
_CELL_RE = re.compile(r"[A-J][1-9]")
_PASS_WORDS = {"PASS", "パス", "-", "--"}


def read_move_text(text: str, legal: tuple[Move, ...]) -> Move:
    """Read every spelling the Socrates notation allows; the move need not be legal.

    ``e2-e4`` (also ``e2e4``, ``e2 e4``, ``e2xe4``), ``P@e5``/``M@e5`` (``@e5`` when only one
    kind can be placed), ``e2!``, ``pass``, or a bare target cell when one legal move fits.
    """
    key = normalise(text).replace("▲", "").replace("△", "").replace("☗", "").replace("☖", "")
    if key in _PASS_WORDS:
        return PASS
    if m := _MOVE_RE.fullmatch(key):
        return STEPS[_CELL_INDEX[m.group(1)]][_CELL_INDEX[m.group(2)]]
    if m := _FLIP_RE.fullmatch(key):
        return FLIPS[_CELL_INDEX[m.group(1) or m.group(2)]]
    if m := _PLACE_RE.fullmatch(key):
        kind = m.group(1) or m.group(3)
        target = _CELL_INDEX[m.group(2) or m.group(4)]
        if kind is None:
            fits = [mv for mv in legal if mv.kind == PLACE and mv.to == target]
            return _one(text, fits, legal)
        return PLACES[kind in ("M", "MARKED", "印")][target]
    if _CELL_RE.fullmatch(key):
        target = _CELL_INDEX[key]
        fits = [mv for mv in legal if mv.to == target and mv.kind != FLIP]
        fits += [mv for mv in legal if mv.kind == FLIP and mv.frm == target]
        return _one(text, fits, legal)
    raise InvalidMoveError(
        Text(
            f"{text!r} is not a Socrates move (write e2-e4, P@e5, M@e5, e2! or pass).",
            f"「{text}」はソクラテスの指し手として読めません（e2-e4、P@e5、M@e5、e2!、pass）。",
        ),
        tuple(str(m) for m in legal[:5]),
    )


def _one(text: str, fits: list[Move], legal: tuple[Move, ...]) -> Move:
    if len(fits) == 1:
        return fits[0]
    if fits:
        raise AmbiguousMoveError(
            Text(
                f"{text!r} fits several moves: {', '.join(map(str, fits[:6]))}.",
                f"「{text}」に当てはまる手が複数あります: {', '.join(map(str, fits[:6]))}。",
            ),
            tuple(str(m) for m in fits[:5]),
        )
    raise IllegalMoveError(
        Text(f"No legal move fits {text!r}.", f"「{text}」に当てはまる合法手はありません。"),
        tuple(str(m) for m in legal[:5]),
    )


# --- position text ------------------------------------------------------------------------------


def board_to_text(board: str) -> str:
    """Rows 9 to 1 separated by ``/``, runs of empty cells as numbers (FEN-like)."""
    rows = []
    for row in range(ROWS, 0, -1):
        line = board[cell(0, row) : cell(0, row) + COLS]
        out, run = "", 0
        for ch in line:
            if ch == EMPTY:
                run += 1
                continue
            if run:
                out += str(run)
                run = 0
            out += ch
        rows.append(out + (str(run) if run else ""))
    return "/".join(rows)


def board_from_text(game: Game[Any], text: str) -> str:
    """Inverse of :func:`board_to_text`; raises :class:`PositionError` (of ``game``) on bad text."""
    rows = text.split("/")
    if len(rows) != ROWS:
        raise position_error(
            game,
            f"The board needs {ROWS} rows separated by '/', not {len(rows)}.",
            f"盤面は「/」で区切った{ROWS}段が必要です（{len(rows)}段あります）。",
        )
    lines: list[str] = []
    for n, row_text in enumerate(rows):
        line = ""
        for num, ch in re.findall(r"([0-9]+)|(.)", row_text, re.DOTALL):
            if num:
                if len(num) > 2 or int(num) == 0:
                    raise position_error(
                        game, f"bad count {num!r} in the board", f"盤面の数「{num}」が不正です"
                    )
                line += EMPTY * int(num)
            elif ch in "PMpm":
                line += ch
            else:
                raise position_error(
                    game,
                    f"unknown piece {ch!r}; use P M for Black, p m for White",
                    f"駒「{ch}」は不明です。黒は P M、白は p m",
                )
        if len(line) != COLS:
            raise position_error(
                game,
                f"row {ROWS - n} has {len(line)} cells, not {COLS}",
                f"{ROWS - n}段目のマス数が{len(line)}です（{COLS}必要）",
            )
        lines.append(line)
    return "".join(reversed(lines))


def parse_int(game: Game[Any], token: str, what: str, what_ja: str, high: int = 10**6) -> int:
    if not token.isdigit() or not token.isascii() or len(token) > 7 or int(token) > high:
        raise position_error(game, f"bad {what}: {token!r}", f"{what_ja}「{token}」が不正です")
    return int(token)


# --- the shared state ---------------------------------------------------------------------------

_SEATS = ("b", "w")


@dataclass(frozen=True)
class SocratesState(State[Move]):
    """A position of a Socrates game (not slots: legal moves are cached per state)."""

    board: str
    turn: int
    ply_count: int = 0
    passes: int = 0
    """Consecutive forced passes just made (two end the game)."""
    opts: tuple[tuple[str, str], ...] = ()
    history: History = field(default=History(), compare=False, repr=False)
    result: Outcome | None = field(default=None, compare=False)

    # -- game hooks ------------------------------------------------------------------------------
    @abstractmethod
    def _choices(self) -> tuple[Move, ...]:
        """Every legal move of the player to move, before the forced-pass rule."""

    @abstractmethod
    def _play(self, move: Move) -> tuple[SocratesState, Outcome | None, bool]:
        """The state after ``move`` (turn passed, ply counted), a rule ending, irreversibility."""

    def _extra_key(self) -> Hashable:
        """Game fields that belong to the repetition key (hands, phase)."""
        return None

    def _extra_tokens(self) -> tuple[str, ...]:
        return ()

    # -- State interface -------------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return 2

    @property
    def ply(self) -> int:
        return self.ply_count

    def current_player(self) -> int:
        return TERMINAL if self.result is not None else self.turn

    def options(self) -> dict[str, str]:
        return dict(self.opts)

    def option(self, name: str) -> str:
        for key, value in reversed(self.opts):  # the last one wins, as in options()
            if key == name:
                return value
        return ""

    @cached
    def _choice_list(self) -> tuple[Move, ...]:
        return self._choices()

    @cached
    def _legal_set(self) -> frozenset[Move]:
        return frozenset(self.legal_moves())

    def legal_moves(self, player: int | None = None) -> tuple[Move, ...]:
        if player is not None:
            self.check_player(player)
            if player != self.current_player():
                return ()
        cache = self.__dict__
        legal: tuple[Move, ...] | None = cache.get("_legal")
        if legal is None:
            if self.result is not None:
                legal = ()
            else:
                choices = self._choices()
                cache["_choice_list"] = choices
                legal = choices or (PASS,)
            cache["_legal"] = legal
        return legal

    def repetition_key(self) -> Hashable:
        return (self.board, self.turn, self._extra_key())

    def apply(self, move: Move, player: int | None = None) -> SocratesState:
        self.check_player(player)
        if player is not None and player != self.current_player():
            raise IllegalMoveError(
                Text("It is not that player's turn.", "その手番ではありません。"),
            )
        if move not in self._legal_set:
            raise IllegalMoveError(
                Text(f"{move} is not a legal move here.", f"{move} はこの局面では指せません。"),
                self.closest(str(move), self.legal_moves()),
            )
        forced = move == PASS and not self._choice_list
        nxt, ending, irreversible = self._play(move)
        passes = self.passes + 1 if forced else 0
        key = nxt.repetition_key()
        history = self.history.push(key, irreversible)
        if ending is None:
            ending = _common_ending(passes, history.count(key), nxt.ply_count, self.opts)
        # ``nxt`` is new and not yet seen by anyone (nor hashed, nor cached): finish it in
        # place rather than copy it again (a copy of a frozen dataclass costs a fifth of a move).
        object.__setattr__(nxt, "passes", passes)
        object.__setattr__(nxt, "history", history)
        object.__setattr__(nxt, "result", ending)
        return nxt

    def outcome(self) -> Outcome | None:
        return self.result

    def format_move(self, move: Move) -> str:
        return str(move)

    def display_move(self, move: Move, lang: str = "en") -> str:
        mark = "▲" if self.turn == BLACK else "△"
        if move == PASS:
            return mark + ("パス" if lang.startswith("ja") else "pass")
        return mark + str(move)

    def read_move(self, text: str, legal: tuple[Move, ...]) -> Move:
        return read_move_text(text, legal)

    def position(self) -> str:
        parts = [board_to_text(self.board), _SEATS[self.turn], *self._extra_tokens()]
        return " ".join([*parts, str(self.passes), str(self.ply_count)])

    # -- helpers for the games -------------------------------------------------------------------
    def pieces(self, seat: int) -> list[int]:
        """The cells of ``seat``'s pieces, in cell order."""
        own = OWN[seat]
        return [c for c, ch in enumerate(self.board) if ch in own]


@lru_cache(maxsize=64)
def _limits(opts: tuple[tuple[str, str], ...]) -> tuple[int, int]:
    """The repetition limit and the ply cap of a game's options: every move checks them, so each
    set of options is read once (a game has few sets; the newest 64 are kept)."""
    options = dict(opts)
    return repetition_limit(options), ply_cap(options)


def _common_ending(
    passes: int, seen: int, ply: int, opts: tuple[tuple[str, str], ...]
) -> Outcome | None:
    """The common endings in their order: two passes, repetition, the cap."""
    if passes >= 2:
        return Outcome.draw(2, Termination.TWO_PASSES, DRAW_TEXTS[Termination.TWO_PASSES])
    limit, cap = _limits(opts)
    if limit and seen >= limit:
        return Outcome.draw(2, Termination.REPETITION, DRAW_TEXTS[Termination.REPETITION])
    if cap and ply >= cap:
        return Outcome.draw(2, Termination.CAP, DRAW_TEXTS[Termination.CAP])
    return None


def win_for(seat: int, en: str, ja: str) -> Outcome:
    """A rule win for ``seat`` with a text naming the winner."""
    who = ("Black", "White")[seat]
    who_ja = ("先手（黒）", "後手（白）")[seat]
    return Outcome.win(
        seat, 2, Termination.RULE, Text(f"{who} wins: {en}", f"{who_ja}の勝ち：{ja}")
    )


def moved(board: str, frm: int, to: int) -> str:
    """``board`` with the piece on ``frm`` moved to ``to`` (whatever stood there is removed)."""
    chars = list(board)
    chars[to] = chars[frm]
    chars[frm] = EMPTY
    return "".join(chars)


def put(board: str, c: int, ch: str) -> str:
    return board[:c] + ch + board[c + 1 :]


class SocratesGame(Game[SocratesState]):
    """What the four Socrates games share: titles, the rules page and the position text."""

    rules_doc: ClassVar[str] = "docs/rules/socrates.md"
    extra_tokens: ClassVar[int] = 0

    def parse_position(self, text: str, options: dict[str, str], players: int) -> SocratesState:
        tokens = text.split()
        want = 4 + self.extra_tokens
        if len(tokens) != want:
            raise position_error(
                self,
                f"{want} fields: board, side, "
                + ("..., " if self.extra_tokens else "")
                + f"passes, ply; got {len(tokens)}",
                f"{want}項目（盤面・手番・…・パス数・手数）が必要です。{len(tokens)}項目あります",
                text,
            )
        board = board_from_text(self, tokens[0])
        if tokens[1] not in _SEATS:
            raise position_error(
                self,
                f"the side to move is 'b' or 'w', not {tokens[1]!r}",
                f"手番は b か w です（「{tokens[1]}」）",
            )
        passes = parse_int(self, tokens[-2], "pass count", "パス数", 1)
        ply = parse_int(self, tokens[-1], "ply", "手数")
        state = self.build(
            board, _SEATS.index(tokens[1]), tuple(tokens[2:-2]), ply, passes, options
        )
        return seal(state)

    @abstractmethod
    def build(
        self,
        board: str,
        turn: int,
        extra: tuple[str, ...],
        ply: int,
        passes: int,
        options: dict[str, str],
    ) -> SocratesState:
        """A state of this game from parsed fields; raises PositionError if impossible."""


_S = TypeVar("_S", bound="SocratesState")


def seal(state: _S) -> _S:
    """``state`` with its own position as the first entry of the repetition history."""
    return replace(state, history=History((state.repetition_key(),)))


def check_counts(
    game: Game[Any], board: str, limits: dict[str, int], where: tuple[bool, ...] | None = None
) -> None:
    """Refuse a board with more pieces of a kind than the game has, or pieces off its area."""
    for ch, most in limits.items():
        if board.count(ch) > most:
            raise position_error(
                game,
                f"too many {ch!r} pieces ({board.count(ch)}; at most {most})",
                f"駒「{ch}」が多すぎます（{board.count(ch)}個、最大{most}個）",
            )
    for ch in sorted(set(board) - set(limits) - {EMPTY}):
        raise position_error(
            game, f"piece {ch!r} is not used in this game", f"駒「{ch}」はこのゲームでは使いません"
        )
    if where is not None:
        for c, ch in enumerate(board):
            if ch != EMPTY and not where[c]:
                raise position_error(
                    game,
                    f"no piece may stand on {CELL_NAMES[c]} in this game",
                    f"このゲームでは {CELL_NAMES[c]} に駒を置けません",
                )
