"""Pictures of 数字将棋 (Number shogi): the 3×5 board, pentagonal pieces and both hands.

Each piece (駒) shows its number and, as the physical pieces do, a red dot on its edge for every
direction it may step. The viewer's pieces point up; the other side's are turned around (180°).
A promoted piece (成り) shows 8 with all eight dots; a piece still hidden during the secret setup
is drawn face down. Both hands (持ち駒) sit on stands beside the board with their sums.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from PIL import Image, ImageDraw

from engines.core import Outcome
from engines.suji_shogi import (
    BLACK,
    DIRECTION_TABLES,
    FACE_DOWN,
    FILES,
    GAME,
    PROMOTED,
    RANK_KANJI,
    RANKS,
    SETUP_PHASE,
    WHITE,
    Move,
    Setup,
    SujiState,
    face,
)
from render.base import (
    BACKGROUND,
    HIGHLIGHT,
    MUTED,
    PANEL,
    SAMPLE_NAMES,
    TEXT,
    Canvas,
    Locate,
    Spot,
    encode_png,
    final_outcome,
    font,
    host_reason,
    mix,
    name_sprite,
    palette_of,
    renderer,
    seat_names,
)

CELL = 86
"""Side of a board square in pixels."""
LABEL = 30
STAND = 118
PAD = 14
BOARD_W, BOARD_H = FILES * CELL, RANKS * CELL
WIDTH = PAD + STAND + PAD + BOARD_W + LABEL + PAD + STAND + PAD
HEIGHT = PAD + LABEL + BOARD_H + PAD + 8
BOARD_X = PAD + STAND + PAD
BOARD_Y = PAD + LABEL

WOOD = (222, 184, 112)
WOOD_LINE = (92, 62, 30)
PIECE_FACE = (248, 230, 188)
PIECE_BACK = (170, 128, 74)
PIECE_EDGE = (70, 48, 24)
INK = (20, 18, 16)
PROMOTED_INK = (196, 30, 36)
DOT = (206, 36, 40)
SS = 3
"""Supersampling factor for the anti-aliased piece sprites."""

# Where each direction's dot sits on an upright piece, as fractions of its box.
DOT_AT: dict[str, tuple[float, float]] = {
    "F": (0.5, 0.13),
    "FL": (0.22, 0.3),
    "FR": (0.78, 0.3),
    "L": (0.15, 0.6),
    "R": (0.85, 0.6),
    "BL": (0.15, 0.88),
    "BR": (0.85, 0.88),
    "B": (0.5, 0.9),
}


def _outline(w: float, h: float) -> list[tuple[float, float]]:
    """The pentagon of a shogi piece (駒形), pointing up."""
    corners = ((0.5, 0.02), (0.9, 0.2), (0.98, 0.98), (0.02, 0.98), (0.1, 0.2))
    return [(w * x, h * y) for x, y in corners]


@cache
def piece_sprite(shown: int, table: str, turned: bool, size: int) -> Image.Image:
    """A piece showing ``shown`` (1..6, 8, or :data:`FACE_DOWN`), ``size`` pixels tall."""
    w, h = int(size * 0.84), size
    big = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    pts = _outline(w * SS, h * SS)
    hidden = shown == FACE_DOWN
    d.polygon(pts, fill=PIECE_BACK if hidden else PIECE_FACE, outline=PIECE_EDGE, width=2 * SS)
    if hidden:
        # A face-down piece: plain wood grain lines, no number.
        for i in range(3):
            y = h * SS * (0.45 + 0.15 * i)
            d.line([(w * SS * 0.2, y), (w * SS * 0.8, y)], fill=(150, 108, 60), width=SS)
    else:
        r = max(2.0, size * 0.045) * SS
        for direction in DIRECTION_TABLES[table][shown]:
            fx, fy = DOT_AT[direction]
            cx, cy = fx * w * SS, fy * h * SS
            d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=DOT)
        ink = PROMOTED_INK if shown == PROMOTED else INK
        fnt = font(int(size * 0.5 * SS))
        d.text((w * SS / 2, h * SS * 0.57), str(shown), font=fnt, fill=ink, anchor="mm")
        if shown == 6:
            # Underlined, so that a 6 turned around does not read as 9.
            y = h * SS * 0.8
            d.line([(w * SS * 0.36, y), (w * SS * 0.64, y)], fill=ink, width=2 * SS)
    img = big.resize((w, h), Image.Resampling.LANCZOS)
    return img.rotate(180) if turned else img


def file_label(col: int, flipped: bool) -> str:
    """The file digit over the board's ``col``-th column from the left, as the kifu
    (:func:`engines.suji_shogi.square_kanji`) names it: 3 2 1 for Black, 1 2 3 for White."""
    return str(col + 1 if flipped else FILES - col)


def rank_label(row: int, flipped: bool) -> str:
    """The rank kanji beside the board's ``row``-th row from the top (一 is Black's far rank)."""
    return RANK_KANJI[RANKS - 1 - row if flipped else row]


@cache
def _text_sprite(text: str, size: int, colour: tuple[int, int, int]) -> Image.Image:
    fnt = font(size)
    left, top, right, bottom = fnt.getbbox(text)
    img = Image.new("RGBA", (int(right - left) + 4, int(bottom - top) + 4), (0, 0, 0, 0))
    ImageDraw.Draw(img).text((2 - left, 2 - top), text, font=fnt, fill=colour)
    return img


@cache
def _background(flipped: bool) -> Image.Image:
    """The board, its file and rank labels, and the two empty stands."""
    img = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    d = ImageDraw.Draw(img)
    d.rectangle([BOARD_X, BOARD_Y, BOARD_X + BOARD_W, BOARD_Y + BOARD_H], fill=WOOD)
    for i in range(FILES + 1):
        x = BOARD_X + i * CELL
        d.line([(x, BOARD_Y), (x, BOARD_Y + BOARD_H)], fill=WOOD_LINE, width=2)
    for j in range(RANKS + 1):
        y = BOARD_Y + j * CELL
        d.line([(BOARD_X, y), (BOARD_X + BOARD_W, y)], fill=WOOD_LINE, width=2)
    lab = font(20)
    for col in range(FILES):
        x = BOARD_X + col * CELL + CELL // 2
        d.text((x, BOARD_Y - LABEL // 2), file_label(col, flipped), font=lab, fill=MUTED,
               anchor="mm")  # fmt: skip
    for row in range(RANKS):
        y = BOARD_Y + row * CELL + CELL // 2
        x = BOARD_X + BOARD_W + LABEL // 2 + 2
        d.text((x, y), rank_label(row, flipped), font=lab, fill=MUTED, anchor="mm")
    for x in (PAD, WIDTH - PAD - STAND):
        d.rounded_rectangle([x, BOARD_Y, x + STAND, BOARD_Y + BOARD_H], radius=10, fill=PANEL)
    return img


MOVED_ALPHA = 110
"""How strongly the last move's squares are washed in :data:`render.base.HIGHLIGHT`."""
MOVED_TINTS = (WOOD, mix(WOOD, HIGHLIGHT, MOVED_ALPHA / 255))
"""A square, and a square of the last move: apart by ΔE 10 or more for every colour vision."""


@cache
def _highlight() -> Image.Image:
    return Image.new("RGBA", (CELL - 2, CELL - 2), (*HIGHLIGHT, MOVED_ALPHA))


def _cell_xy(sq: int, flipped: bool) -> tuple[int, int]:
    """Top-left pixel of square ``sq`` (see :mod:`engines.suji_shogi` for the numbering)."""
    col, row = sq % FILES, sq // FILES
    if flipped:
        col, row = FILES - 1 - col, RANKS - 1 - row
    return BOARD_X + col * CELL, BOARD_Y + row * CELL


def _paste(img: Canvas, sprite: Image.Image, cx: float, cy: float) -> None:
    img.paste(sprite, (round(cx - sprite.width / 2), round(cy - sprite.height / 2)))


def _draw_stand(
    img: Canvas,
    state: SujiState,
    seat: int,
    viewer_side: int,
    shown: Outcome | None,
    player: str | None = None,
) -> None:
    """One player's stand (駒台): name, turn marker, the pieces in hand and their sum; once the
    game is over (``shown``: the outcome drawn), the seat's result instead of the marker.
    ``player``, when given, is the player's name, just outside the stand on its title's side
    (above the far stand, below the near one)."""
    near = seat == viewer_side
    x0 = WIDTH - PAD - STAND if near else PAD
    cx = x0 + STAND / 2
    mark = "▲" if seat == BLACK else "△"
    name = f"{mark}{'先手' if seat == BLACK else '後手'}"
    to_move = state.to_move == seat or (state.to_move == SETUP_PHASE and not state.has_set_up(seat))
    over = shown is not None
    colour = HIGHLIGHT if to_move and not over else TEXT
    if shown is not None and seat in shown.winners:
        colour = HIGHLIGHT
    hand = state.hands[seat]
    total = sum(n * c for n, c in enumerate(hand, start=1))
    title = _text_sprite(name, 22, colour)
    sum_text = _text_sprite(f"Σ = {total}", 20, TEXT if total else MUTED)
    table = state.rules.directions
    numbers = [n for n in range(1, 7) if hand[n - 1]]
    step = 56
    size = 50
    block = len(numbers) * step
    if near:
        # Near stand: pieces above, name and sum at the bottom (as the viewer's own side).
        y_name = BOARD_Y + BOARD_H - 46
        _paste(img, title, cx, y_name)
        _paste(img, sum_text, cx, y_name + 26)
        y = y_name - 30 - block + step / 2
    else:
        y_name = BOARD_Y + 22
        _paste(img, title, cx, y_name)
        _paste(img, sum_text, cx, y_name + 26)
        y = y_name + 60 + step / 2
    for n in numbers:
        sprite = piece_sprite(n, table, not near, size)
        count = hand[n - 1]
        px = cx - 14 if count > 1 else cx
        _paste(img, sprite, px, y)
        if count > 1:
            _paste(img, _text_sprite(f"×{count}", 20, TEXT), cx + 36, y)
        y += step
    if player is not None:
        tag = name_sprite(player, 15, colour if colour == HIGHLIGHT else MUTED, STAND)
        y_tag = BOARD_Y + BOARD_H + 2 if near else PAD + (LABEL - tag.height) // 2
        img.paste(tag, (round(cx - tag.width / 2), y_tag))
    if shown is not None:
        _draw_result(img, shown, seat, cx, BOARD_Y + BOARD_H / 2)
    elif state.to_move == SETUP_PHASE:
        status = "配置済" if state.has_set_up(seat) else "配置中…"
        _paste(img, _text_sprite(status, 18, MUTED), cx, BOARD_Y + BOARD_H / 2)


def _draw_result(img: Canvas, shown: Outcome, seat: int, cx: float, cy: float) -> None:
    """The seat's result mid-stand: 勝ち win, 引き分け, and for an end the host decided its
    reason in two short lines (投了 / resigned under the loser's name, 合意 / agreed)."""
    result = shown.result(seat)
    reason = host_reason(shown, short=True)
    if result == "win":
        _paste(img, _text_sprite("勝ち win", 22, HIGHLIGHT), cx, cy)
        return
    lines: list[tuple[str, int, tuple[int, int, int]]] = []
    if result == "draw":
        lines.append(("引き分け", 22, TEXT))
        if reason:
            lines.append((f"{reason[0]} {reason[1]}", 16, MUTED))
    elif reason:  # a loss or an abort the host decided
        lines += [(reason[0], 22, TEXT if result == "none" else MUTED), (reason[1], 16, MUTED)]
    y = cy - 13 * (len(lines) - 1)
    for text, size, colour in lines:
        _paste(img, _text_sprite(text, size, colour), cx, y)
        y += 26


def draw(
    state: SujiState,
    viewer: int | None,
    last_move: Any = None,
    outcome: Outcome | None = None,
    names: Sequence[str] | None = None,
    palette: Image.Image | None = None,
) -> Image.Image:
    """The picture as ``viewer`` sees it: their side at the bottom (a spectator: Black's); only
    a :class:`Move` is marked, never a setup (it would point at hidden pieces); ``outcome``, when
    given, is the result shown instead of ``state.outcome()``; ``names``, the players' names by
    seat. With ``palette``, drawn straight onto it (a ``P`` image)."""
    side = WHITE if viewer == WHITE else BLACK
    flipped = side == WHITE
    img = Canvas(_background(flipped), palette)
    if isinstance(last_move, Move):
        for sq in (last_move.frm, last_move.to):
            if sq >= 0:
                x, y = _cell_xy(sq, flipped)
                img.paste(_highlight(), (x + 1, y + 1))
    table = state.rules.directions
    size = int(CELL * 0.84)
    for sq, code in enumerate(state.board):
        if not code:
            continue
        owner = BLACK if code > 0 else WHITE
        x, y = _cell_xy(sq, flipped)
        sprite = piece_sprite(face(code), table, owner != side, size)
        _paste(img, sprite, x + CELL / 2, y + CELL / 2 + (2 if owner == side else -2))
    shown = final_outcome(state, outcome)
    players = seat_names(names, 2)
    for seat in (BLACK, WHITE):
        _draw_stand(img, state, seat, side, shown, None if players is None else players[seat])
    return img.image


def render(
    state: SujiState,
    viewer: int | None,
    last_move: Any = None,
    outcome: Outcome | None = None,
    names: Sequence[str] | None = None,
) -> bytes:
    """PNG bytes of ``state`` (already reduced by ``observe``) for ``viewer``; ``outcome`` (an
    end the host decided) overrides the state's own; ``names`` are the players' by seat."""
    palette = _palette()
    picture = draw(state, viewer, last_move, outcome, names, palette)
    return encode_png(picture, palette, reuse=(GAME.id, viewer == WHITE))


@cache
def _palette() -> Image.Image:
    """The fixed palette of every 数字将棋 picture, taken from the sample positions."""
    return palette_of([draw(state, viewer, last) for _, state, viewer, last in _sample_positions()])


def locate(state: SujiState, viewer: int | None, square: int) -> Spot:
    """Where ``square`` is drawn for ``viewer`` (teaching marks; White's picture is turned)."""
    x, y = _cell_xy(square, viewer == WHITE)
    return x + CELL / 2, y + CELL / 2, CELL / 2 - 4


RENDERERS = {GAME.id: renderer(SujiState, render, locate)}
IMAGES = {GAME.id: renderer(SujiState, draw, locate)}
LOCATORS: dict[str, Locate[Any]] = {GAME.id: locate}
"""Where each game draws a cell (the site's buttons over the picture: issue 51, 2)."""


def _play(state: SujiState, moves: list[str]) -> tuple[SujiState, Any]:
    last: Any = None
    for text in moves:
        last = state.parse_move(text)
        state = state.apply(last)
    return state, last


def _sample_positions() -> list[tuple[str, SujiState, int | None, Any]]:
    """Meaningful positions (file stem, state as the viewer sees it, viewer, last move): the
    rules page's pictures, and between them every colour drawn (face-down pieces, highlights,
    a win, a promotion, White's view), so they also make the palette."""
    out: list[tuple[str, SujiState, int | None, Any]] = []
    half = GAME.new_game().apply(Setup((4, 6, 5, 1, 2, 3)), BLACK)
    out.append(("suji-shogi-setup-hidden", half.observe(WHITE), WHITE, None))
    start = half.apply(Setup((3, 6, 2, 5, 4, 1)), WHITE)
    out.append(("suji-shogi-start", start, None, None))
    sample = GAME.new_game(2, {"directions": "sample"})
    sample = sample.apply(Setup((4, 6, 5, 1, 2, 3)), BLACK).apply(Setup((3, 6, 2, 5, 4, 1)), WHITE)
    moves = ["3d3c", "3b2c", "1d2c", "2b2c", "1e1d", "3a2b", "2e3d", "2c1c", "1d1c", "1b1c"]
    moves.append("5*2c")
    after, last = _play(sample, moves)
    out.append(("suji-shogi-sample-game", after, None, last))
    won, last = _play(after, ["1c1d", "2c2b"])
    out.append(("suji-shogi-sum-of-seven", won, None, last))
    promo = GAME.from_position("v3.v2/.5v6/.v+4./1.6/4.. b 1 3 30")
    promo, last = _play(promo, ["2b2a+"])
    out.append(("suji-shogi-promotion-white-view", promo, WHITE, last))
    return out


def samples() -> dict[str, bytes]:
    """A few meaningful positions for the rules page (file stem -> PNG)."""
    return {
        stem: render(state, viewer, last, None, SAMPLE_NAMES)
        for stem, state, viewer, last in _sample_positions()
    }
