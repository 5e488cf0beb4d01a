"""宇宙遊泳 (Space Walk): five in a row with pieces that place, step, leap, walk space and jump.

Each player holds 6 plain and 6 marked pieces. A turn places one from hand or moves one: the
plain piece steps (up/down/left/right, or all 8 ways with the option ``plain=king``), the marked
piece leaps like a knight, a piece on space (宇宙) walks any distance along a straight line of
space cells, and any piece jumps over an unbroken line of enemy pieces. Five in a row wins.
"""

from __future__ import annotations

import re
from collections.abc import Hashable
from dataclasses import dataclass, replace
from typing import ClassVar

from engines.core import OptionSpec, Outcome, Text, position_error
from engines.socrates.board import (
    ALL_EIGHT,
    CELLS,
    EMPTY,
    KNIGHT,
    MARKED,
    MOVE,
    NEIGHBOURS,
    ORTHOGONAL,
    OWN,
    PLACE,
    PLACES,
    PLAIN,
    SPACE,
    STEPS,
    Move,
    SocratesGame,
    SocratesState,
    check_counts,
    moved,
    put,
    seal,
    win_for,
)

HAND_EACH = 6


def _targets(c: int, dirs: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    return tuple(t for d in dirs if (t := NEIGHBOURS[d][c]) >= 0)


def _ray(c: int, d: tuple[int, int], space_only: bool) -> tuple[int, ...]:
    out: list[int] = []
    c = NEIGHBOURS[d][c]
    while c >= 0 and (SPACE[c] or not space_only):
        out.append(c)
        c = NEIGHBOURS[d][c]
    return tuple(out)


CROSS_STEPS = tuple(_targets(c, ORTHOGONAL) for c in range(CELLS))
KING_STEPS = tuple(_targets(c, ALL_EIGHT) for c in range(CELLS))
KNIGHT_LEAPS = tuple(_targets(c, KNIGHT) for c in range(CELLS))
SPACE_RAYS = tuple(
    tuple(r for d in ORTHOGONAL if (r := _ray(c, d, True))) if SPACE[c] else ()
    for c in range(CELLS)
)
"""The space walk (宇宙遊泳) lines from each space cell: consecutive space cells, no turning."""
JUMP_RAYS = tuple(
    tuple(r for d in ALL_EIGHT if len(r := _ray(c, d, False)) >= 2) for c in range(CELLS)
)
AXES = ((1, 0), (0, 1), (1, 1), (1, -1))
LINE_RAYS = tuple(
    tuple((_ray(c, d, False), _ray(c, (-d[0], -d[1]), False)) for d in AXES) for c in range(CELLS)
)


@dataclass(frozen=True)
class UchuState(SocratesState):
    """A 宇宙遊泳 position: the board plus both hands (plain, marked for Black then White)."""

    hands: tuple[int, int, int, int] = (HAND_EACH,) * 4

    def _extra_key(self) -> Hashable:
        return self.hands

    def _extra_tokens(self) -> tuple[str, ...]:
        bp, bm, wp, wm = self.hands
        return (f"P{bp}M{bm}p{wp}m{wm}",)

    def _choices(self) -> tuple[Move, ...]:
        b = self.board
        me = self.turn
        plain_ch = PLAIN[me]
        opp = OWN[1 - me]
        steps = KING_STEPS if self.option("plain") == "king" else CROSS_STEPS
        out: list[Move] = []
        for s in range(CELLS):
            ch = b[s]
            if ch == EMPTY or ch in opp:
                continue
            row = STEPS[s]
            seen: set[int] = set()
            for t in steps[s] if ch == plain_ch else KNIGHT_LEAPS[s]:
                if b[t] == EMPTY:
                    seen.add(t)
                    out.append(row[t])
            for ray in SPACE_RAYS[s]:
                for t in ray:
                    if b[t] != EMPTY:
                        break
                    if t not in seen:
                        seen.add(t)
                        out.append(row[t])
            for ray in JUMP_RAYS[s]:
                if b[ray[0]] not in opp:
                    continue
                i = 1
                n = len(ray)
                while i < n and b[ray[i]] in opp:
                    i += 1
                if i < n and b[ray[i]] == EMPTY:
                    out.append(row[ray[i]])
        empties = [c for c in range(CELLS) if b[c] == EMPTY]
        if self.hands[2 * me]:
            out.extend(PLACES[0][c] for c in empties)
        if self.hands[2 * me + 1]:
            out.extend(PLACES[1][c] for c in empties)
        return tuple(out)

    def _play(self, move: Move) -> tuple[SocratesState, Outcome | None, bool]:
        me = self.turn
        hands = self.hands
        if move.kind == PLACE:
            board = put(self.board, move.to, (MARKED if move.marked else PLAIN)[me])
            h = list(hands)
            h[2 * me + move.marked] -= 1
            hands = (h[0], h[1], h[2], h[3])
        elif move.kind == MOVE:
            board = moved(self.board, move.frm, move.to)
        else:
            board = self.board
        nxt = replace(self, board=board, turn=1 - me, ply_count=self.ply_count + 1, hands=hands)
        ending = None
        if has_five(board, me):
            ending = win_for(me, "five in a row.", "五目並びました。")
        return nxt, ending, move.kind == PLACE


def has_five(board: str, seat: int) -> bool:
    """True when five or more of ``seat``'s pieces stand in an unbroken line anywhere.

    The spec counts any line on the board after the mover's turn, not only one through the piece
    just moved: a line that was already there (a loaded position, or one a pass left standing)
    wins at the mover's next turn.
    """
    own = OWN[seat]
    for c in range(CELLS):
        if board[c] not in own:
            continue
        for fwd, back in LINE_RAYS[c]:
            if back and board[back[0]] in own:
                continue  # not the start of this run
            n = 1
            for t in fwd:
                if board[t] not in own:
                    break
                n += 1
            if n >= 5:
                return True
    return False


_HANDS_RE = re.compile(r"P([0-9])M([0-9])p([0-9])m([0-9])")


class Uchu(SocratesGame):
    """ソクラテス 宇宙遊泳 (Space Walk)."""

    id: ClassVar[str] = "socrates-uchu"
    title_en: ClassVar[str] = "Socrates: Space Walk"
    title_ja: ClassVar[str] = "ソクラテス 宇宙遊泳"
    extra_tokens: ClassVar[int] = 1
    game_options: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec(
            "plain",
            ("cross", "king"),
            "cross",
            Text(
                "How a plain piece steps: up/down/left/right (cross) or all 8 ways (king, the "
                "Miracle 5 rule).",
                "普通の駒の動き：上下左右1マス（十字）か8方向1マス（8方向、ミラクル5の規則）。",
            ),
            Text("plain", "普通の駒"),
            (("cross", Text("cross", "十字")), ("king", Text("king (8 ways)", "8方向"))),
        ),
    )
    summary: ClassVar[Text] = Text(
        "Five in a row on the Socrates board. Place one of your 6 plain or 6 marked pieces, or "
        "move one: plain pieces step, marked pieces leap like knights, pieces in space slide, and "
        "any piece may jump over a line of enemy pieces. Five of yours in a line wins.",
        "ソクラテス盤の五目並べ。普通の駒6個・印の駒6個を打つか、駒を動かします。普通の駒は"
        "上下左右1マス、印の駒は桂馬飛び、宇宙では真っ直ぐ滑り、相手の駒の列は飛び越せます。"
        "自分の駒が5つ並べば勝ち。",
    )

    def initial_state(self, players: int, options: dict[str, str]) -> UchuState:
        return self._state(EMPTY * CELLS, 0, (HAND_EACH,) * 4, 0, 0, options)

    def _state(
        self,
        board: str,
        turn: int,
        hands: tuple[int, int, int, int],
        ply: int,
        passes: int,
        options: dict[str, str],
    ) -> UchuState:
        return seal(UchuState(board, turn, ply, passes, tuple(options.items()), hands=hands))

    def build(
        self,
        board: str,
        turn: int,
        extra: tuple[str, ...],
        ply: int,
        passes: int,
        options: dict[str, str],
    ) -> UchuState:
        m = _HANDS_RE.fullmatch(extra[0])
        if not m:
            raise position_error(
                self,
                f"bad hands {extra[0]!r}; write like P6M6p6m6",
                f"持ち駒「{extra[0]}」が不正です（P6M6p6m6 のように）",
            )
        bp, bm, wp, wm = (int(g) for g in m.groups())
        hands = (bp, bm, wp, wm)
        limits = {
            "P": HAND_EACH - bp,
            "M": HAND_EACH - bm,
            "p": HAND_EACH - wp,
            "m": HAND_EACH - wm,
        }
        if min(limits.values()) < 0:
            raise position_error(
                self, "a hand holds at most 6 of a kind", "持ち駒は各種6個までです"
            )
        check_counts(self, board, limits)
        return self._state(board, turn, hands, ply, passes, options)


GAME = Uchu()
UchuState.game = GAME
