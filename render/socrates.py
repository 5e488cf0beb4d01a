"""Pictures of the Socrates board (ソクラテス盤) for its four games.

The board is drawn as on the Miracle 5 box: ground (地上) green, space (宇宙: the outer ring and
the equator) blue. Black sits at the bottom; White's own picture is turned 180° so that White's
pieces are at the bottom too. Static layers (cells, labels, goals, walls) and piece sprites are
drawn once per game and cached; a turn's picture is a copy, a few pastes and one encode.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from functools import cache
from typing import Any

from PIL import Image, ImageDraw

from engines.core import Outcome
from engines.registry import get_game
from engines.socrates.board import (
    CELLS,
    COLS,
    EMPTY,
    FILES,
    MOVE,
    OWN,
    PASS,
    PLACE,
    RING,
    ROWS,
    SPACE,
    Move,
    SocratesState,
    cell,
    col_of,
    moved,
    row_of,
)
from engines.socrates.kokutan import AREA, GOALS, JUMPS, MOVE_PHASE, KokutanState, jump_path
from engines.socrates.shinken import RING_PATHS, ShinkenState
from engines.socrates.twothree import HOMES, STRIP, TwoThreeState
from engines.socrates.uchu import UchuState
from render.base import (
    BACKGROUND,
    BLACK_PIECE,
    CHECK,
    HIGHLIGHT,
    MUTED,
    SAMPLE_NAMES,
    TEXT,
    WHITE_PIECE,
    Canvas,
    Locate,
    Spot,
    draw_text_centered,
    encode_png,
    final_outcome,
    font,
    host_reason,
    name_sprite,
    palette_of,
    renderer,
    seat_names,
)

SIZE = 58
"""Cell size in pixels."""
LEFT = 30
TOP = 54
BOTTOM = 30
RIGHT = 14
WIDTH = LEFT + COLS * SIZE + RIGHT
HEIGHT = TOP + ROWS * SIZE + BOTTOM
HANDS = 40
"""Extra height below the board for 宇宙遊泳's hands."""
SCALE = 4

GROUND = (74, 140, 82)
GROUND_LINE = (52, 104, 60)
SPACE_BLUE = (52, 98, 170)
SPACE_LINE = (36, 72, 132)
WALL = (70, 72, 80)
WALL_LINE = (54, 56, 62)
DIM = (48, 50, 55)
DIM_LINE = (40, 42, 46)
STAR = (214, 48, 52)
GROUNDS = (GROUND, SPACE_BLUE, WALL, DIM)
"""The cells' grounds that the last move's frame (:data:`render.base.HIGHLIGHT`) and the check
ring (:data:`render.base.CHECK`) are drawn on: each must stay apart from both by ΔE 20 or more
for every kind of colour vision."""

Colour = tuple[int, int, int]


def _center(c: int, flipped: bool) -> tuple[int, int]:
    col, row = col_of(c), row_of(c)
    if flipped:
        col, row = COLS - 1 - col, ROWS + 1 - row
    return LEFT + col * SIZE + SIZE // 2, TOP + (ROWS - row) * SIZE + SIZE // 2


def _box(c: int, flipped: bool, inset: int = 0) -> tuple[int, int, int, int]:
    x, y = _center(c, flipped)
    h = SIZE // 2
    return x - h + inset, y - h + inset, x + h - inset, y + h - inset


def _cell_colours(game_id: str, c: int) -> tuple[Colour, Colour]:
    if game_id == "socrates-kokutan" and not AREA[c]:
        return WALL, WALL_LINE
    if game_id == "socrates-twothree" and not STRIP[c]:
        return DIM, DIM_LINE
    return (SPACE_BLUE, SPACE_LINE) if SPACE[c] else (GROUND, GROUND_LINE)


def _goals(game_id: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The cells each seat aims for (drawn as corner marks in that seat's colour)."""
    if game_id == "socrates-shinken":
        return tuple(cell(c, ROWS) for c in range(COLS)), tuple(cell(c, 1) for c in range(COLS))
    if game_id == "socrates-kokutan":
        return GOALS[0], GOALS[1]
    if game_id == "socrates-twothree":
        return HOMES[1], HOMES[0]
    return (), ()


@cache
def _static(game_id: str, flipped: bool) -> Image.Image:
    """The board without pieces: cells, walls, goals, coordinates and the title."""
    height = HEIGHT + (HANDS if game_id == "socrates-uchu" else 0)
    img = Image.new("RGB", (WIDTH, height), BACKGROUND)
    draw = ImageDraw.Draw(img)
    for c in range(CELLS):
        fill, line = _cell_colours(game_id, c)
        draw.rectangle(_box(c, flipped), fill=fill, outline=line, width=2)
    if game_id == "socrates-kokutan":
        # The wall: diagonal hatching over the outer ring.
        for c in range(CELLS):
            if RING[c]:
                x0, y0, x1, y1 = _box(c, flipped, 3)
                for k in range(0, SIZE, 10):
                    draw.line(
                        [
                            (x0 + k, y1),
                            (min(x1, x0 + k + (y1 - y0)), y1 - min(y1 - y0, x1 - x0 - k)),
                        ],
                        fill=WALL_LINE,
                        width=2,
                    )
    # Goal cells: two corner marks in the colour of the side that races there.
    for seat, cells in enumerate(_goals(game_id)):
        colour = (BLACK_PIECE, WHITE_PIECE)[seat]
        for c in cells:
            x0, y0, x1, y1 = _box(c, flipped, 3)
            t = SIZE // 3
            draw.polygon([(x0, y0), (x0 + t, y0), (x0, y0 + t)], fill=colour)
            draw.polygon([(x1, y1), (x1 - t, y1), (x1, y1 - t)], fill=colour)
    label = font(17)
    for col in range(COLS):
        x, _ = _center(cell(col, 1), flipped)
        draw_text_centered(draw, (x, TOP + ROWS * SIZE + BOTTOM // 2), FILES[col], label, MUTED)
    for row in range(1, ROWS + 1):
        _, y = _center(cell(0, row), flipped)
        draw_text_centered(draw, (LEFT // 2, y), str(row), label, MUTED)
    _title(draw, game_id, TOP // 2)
    return img


def _title(draw: ImageDraw.ImageDraw, game_id: str, y: int) -> None:
    draw.text((LEFT, y), get_game(game_id).title_ja, font=font(20), fill=TEXT, anchor="lm")


@cache
def _named_static(game_id: str, flipped: bool) -> Image.Image:
    """:func:`_static` with the title raised, leaving a line under it for the names."""
    img = _static(game_id, flipped).copy()
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, WIDTH, TOP - 3), fill=BACKGROUND)
    _title(draw, game_id, 15)
    return img


@cache
def _disc(ch: str, size: int) -> Image.Image:
    """A piece sprite: a black or white disc; the marked face (印) carries a red star."""
    big = size * SCALE
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    black = ch in OWN[0]
    fill = BLACK_PIECE if black else WHITE_PIECE
    edge = (120, 120, 128) if black else (70, 70, 70)
    pad = big // 14
    draw.ellipse((pad, pad, big - pad, big - pad), fill=fill, outline=edge, width=big // 22)
    if ch in "Mm":
        cx = cy = big / 2
        r_out, r_in = big * 0.30, big * 0.12
        pts = []
        for k in range(10):
            r = r_out if k % 2 == 0 else r_in
            a = -math.pi / 2 + k * math.pi / 5
            pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
        draw.polygon(pts, fill=STAR)
        ring = big * 0.37
        draw.ellipse(
            (cx - ring, cy - ring, cx + ring, cy + ring), outline=STAR, width=max(2, big // 28)
        )
    return img.resize((size, size), Image.Resampling.LANCZOS)


def _move_path(state: SocratesState, move: Move) -> list[int]:
    """The cells the last move went through, for drawing (a jump chain needs a search)."""
    if move.kind != MOVE:
        return [move.to]
    frm, to = move.frm, move.to
    adjacent = max(abs(col_of(frm) - col_of(to)), abs(row_of(frm) - row_of(to))) == 1
    if isinstance(state, KokutanState) and not adjacent:
        before = moved(state.board, to, frm)
        path = jump_path(before, frm, to)
        if path:
            # Through each jumped piece, so a reflection off the wall shows where it bounced.
            points = [frm]
            for a, b in itertools.pairwise(path):
                over = next(o for o, land in JUMPS[a] if land == b and before[o] != EMPTY)
                points += [over, b]
            return points
    if isinstance(state, ShinkenState) and RING[frm] and RING[to]:
        seat = 0 if state.board[to] in OWN[0] else 1
        for ring in RING_PATHS[seat][frm]:
            if to in ring:
                steps = [frm, *ring[: ring.index(to) + 1]]
                corners = [frm]
                for a, b, c in zip(steps, steps[1:], steps[2:], strict=False):
                    if (col_of(b) - col_of(a), row_of(b) - row_of(a)) != (
                        col_of(c) - col_of(b),
                        row_of(c) - row_of(b),
                    ):
                        corners.append(b)
                return [*corners, to]
    return [frm, to]


def _status(state: SocratesState, outcome: Outcome | None) -> str:
    """The header's status: whose turn, or the result (``outcome``, the one drawn), with the
    reason of an end the host decided."""
    if outcome is not None:
        reason = host_reason(outcome)
        if outcome.winners:
            won = ("▲ 先手 Black" if 0 in outcome.winners else "△ 後手 White") + " wins"
            return f"{won} · {reason[0]} {reason[1]}" if reason else won
        if reason:  # 合意の引き分け draw agreed, 中止 aborted
            return f"{reason[0]} {reason[1]}"
        return "引き分け Draw"
    who = "▲ 先手 Black" if state.turn == 0 else "△ 後手 White"
    phase = ""
    if isinstance(state, ShinkenState) and state.flips_left:
        phase = "反転 flip · "
    if isinstance(state, KokutanState) and state.phase != MOVE_PHASE:
        phase = "反転 flip · "
    return f"{phase}{who} to move"


@cache
def _text_sprite(text: str, size: int, colour: Colour) -> Image.Image:
    fnt = font(size)
    left, top, right, bottom = (round(v) for v in fnt.getbbox(text))
    img = Image.new("RGBA", (right - left + 2, bottom - top + 2), (0, 0, 0, 0))
    ImageDraw.Draw(img).text((1 - left, 1 - top), text, font=fnt, fill=colour)
    return img


def _paste(img: Canvas, sprite: Image.Image, x: int, y: int) -> None:
    img.paste(sprite, (x, y))


def render_socrates(
    state: SocratesState,
    viewer: int | None,
    last_move: Any,
    outcome: Outcome | None = None,
    names: Sequence[str] | None = None,
) -> bytes:
    """The board as ``viewer`` sees it (White: turned 180°), last move and checks marked;
    ``outcome`` (an end the host decided) overrides the state's own; ``names`` are the
    players' by seat."""
    palette = _palette()
    picture = _draw(state, viewer, last_move, outcome, names, palette)
    return encode_png(picture, palette, reuse=(state.game.id, viewer == 1))


@cache
def _palette() -> Image.Image:
    """One fixed palette for every Socrates picture, taken from the sample positions."""
    return palette_of(
        [_draw(state, viewer, last) for _, state, viewer, last in _sample_positions()]
    )


def _draw(
    state: SocratesState,
    viewer: int | None,
    last_move: Any,
    outcome: Outcome | None = None,
    names: Sequence[str] | None = None,
    palette: Image.Image | None = None,
) -> Image.Image:
    """The picture before encoding (``outcome``: shown instead of ``state.outcome()``;
    ``names``: the players' names by seat, on a line under the title). With ``palette``, drawn
    straight onto it (a ``P`` image)."""
    flipped = viewer == 1
    players = seat_names(names, 2)
    static = _static if players is None else _named_static
    img = Canvas(static(state.game.id, flipped), palette)
    board = state.board
    if isinstance(last_move, Move) and last_move != PASS:
        path = _move_path(state, last_move)
        for c in {path[0], path[-1]}:
            box = _box(c, flipped, 2)
            img.draw(box).rectangle(box, outline=img.ink(HIGHLIGHT), width=4)
        if len(path) > 1:
            _draw_path(img, [_center(c, flipped) for c in path])
    disc = SIZE - 8
    for c in range(CELLS):
        ch = board[c]
        if ch == EMPTY:
            continue
        x, y = _center(c, flipped)
        _paste(img, _disc(ch, disc), x - disc // 2, y - disc // 2)
    if isinstance(last_move, Move) and last_move.kind == PLACE:
        x, y = _center(last_move.to, flipped)
        dot = (x - 5, y - 5, x + 5, y + 5)
        img.draw(dot).ellipse(dot, fill=img.ink(HIGHLIGHT))
    shown = final_outcome(state, outcome)
    if isinstance(state, KokutanState) and state.phase == MOVE_PHASE and shown is None:
        for c in state.in_check(state.turn):
            ring = _box(c, flipped, 1)
            img.draw(ring).ellipse(ring, outline=img.ink(CHECK), width=4)
    # The header: whose turn, and the hands of 宇宙遊泳.
    status = _text_sprite(_status(state, shown), 17, TEXT)
    _paste(img, status, WIDTH - RIGHT - status.width, TOP // 2 - status.height // 2)
    if players is not None:
        _draw_names(img, players, WIDTH - RIGHT - status.width - 16)
    if isinstance(state, UchuState):
        _draw_hands(img, state)
    return img.image


def _draw_path(img: Canvas, points: list[tuple[int, int]]) -> None:
    """The way the last move went: a translucent line through ``points``, a dot at each
    bend, laid over the board as one sprite."""
    left = min(x for x, _ in points) - 8
    top = min(y for _, y in points) - 8
    size = (max(x for x, _ in points) - left + 9, max(y for _, y in points) - top + 9)
    shifted = [(x - left, y - top) for x, y in points]
    line = Image.new("RGBA", size, (0, 0, 0, 0))
    ImageDraw.Draw(line).line(shifted, fill=(*HIGHLIGHT, 190), width=6, joint="curve")
    dots = Image.new("RGBA", size, (0, 0, 0, 0))
    for x, y in shifted[1:-1]:
        ImageDraw.Draw(dots).ellipse((x - 6, y - 6, x + 6, y + 6), fill=(*HIGHLIGHT, 230))
    img.paste(Image.alpha_composite(line, dots), (left, top), once=True)


def _draw_names(img: Canvas, players: tuple[str, ...], right: int) -> None:
    """``▲ 先手 name  △ 後手 name`` under the title, kept left of ``right`` (the status)."""
    x, y = LEFT, 32
    share = (right - LEFT) // 2
    for seat, mark in enumerate(("▲ 先手", "△ 後手")):
        label = _text_sprite(mark, 14, MUTED)
        tag = name_sprite(players[seat], 14, TEXT, max(1, share - label.width - 16))
        _paste(img, label, x, y + 3)
        _paste(img, tag, x + label.width + 5, y)
        x += label.width + 5 + tag.width + 16


def _draw_hands(img: Canvas, state: UchuState) -> None:
    """Both hands (持ち駒): plain and marked counts, in a strip under the board."""
    small = 24
    y = HEIGHT + (HANDS - small) // 2 - 6
    x = LEFT
    for seat in (0, 1):
        label = _text_sprite(("▲ 先手 hand", "△ 後手 hand")[seat], 16, MUTED)
        _paste(img, label, x, y + (small - label.height) // 2)
        x += label.width + 12
        for k, ch in enumerate(OWN[seat]):
            _paste(img, _disc(ch, small), x, y)
            n = _text_sprite(f"×{state.hands[2 * seat + k]}", 17, TEXT)
            _paste(img, n, x + small + 4, y + (small - n.height) // 2)
            x += small + 44
        x = LEFT + (WIDTH - LEFT - RIGHT) // 2 + 10


STATES: dict[str, type[SocratesState]] = {
    "socrates-uchu": UchuState,
    "socrates-shinken": ShinkenState,
    "socrates-kokutan": KokutanState,
    "socrates-twothree": TwoThreeState,
}
"""Each Socrates game's own state type (the pictures share one drawing)."""


def locate(state: SocratesState, viewer: int | None, cell: int) -> Spot:
    """Where ``cell`` is drawn for ``viewer`` (teaching marks; White's picture is turned)."""
    x, y = _center(cell, viewer == 1)
    return x, y, SIZE / 2 - 3


RENDERERS = {game_id: renderer(cls, render_socrates, locate) for game_id, cls in STATES.items()}
IMAGES = {game_id: renderer(cls, _draw, locate) for game_id, cls in STATES.items()}
LOCATORS: dict[str, Locate[Any]] = dict.fromkeys(STATES, locate)
"""Where each game draws a cell (the site's buttons over the picture: issue 51, 2)."""


_Sample = tuple[str, SocratesState, int | None, Move | None]


def _sample_positions() -> list[_Sample]:
    """Positions that show each game's rules and, between them, every colour the board draws
    (the docs pictures and the palette both come from here)."""
    out: list[_Sample] = []

    def add(
        stem: str, game_id: str, text: str | None, moves: tuple[str, ...], viewer: int | None = None
    ) -> None:
        game = get_game(game_id)
        state = game.new_game() if text is None else game.from_position(text)
        last = None
        for move in moves:
            last = state.parse_move(move)
            state = state.apply(last)
        assert isinstance(state, SocratesState)
        out.append((stem, state, viewer, last))

    # 宇宙遊泳: Black's plain e5 jumps the White marked piece on d5, landing on c5.
    add(
        "socrates-uchu",
        "socrates-uchu",
        "10/10/10/2pM6/3mPP1M2/3p6/2m1P5/10/10 b P3M4p4m4 0 10",
        ("e5-c5",),
    )
    # 真剣勝負: the start after the flips, and a marked piece's journey round the ring.
    add("socrates-shinken-start", "socrates-shinken", None, ("c1!", "e9!", "f1!", "i9!"))
    add(
        "socrates-shinken",
        "socrates-shinken",
        "pp1pmp1pmp/10/2p7/6m3/10/4P5/7P2/10/2M1PM1PP1 b move 0 16",
        ("c1-a8",),
    )
    # 黒壇の馬: the start, and a jump chain that goes back before it ends forward (d4-f6);
    # White's marked e7 is now in check.
    add("socrates-kokutan-start", "socrates-kokutan", None, ())
    add(
        "socrates-kokutan",
        "socrates-kokutan",
        "10/1p1m1p1p2/2p1m1p3/1p1p3m2/6p3/3P6/2M1m1P3/1P1M3M2/10 b move 0 21",
        ("d4-f6",),
    )
    # ツースリー: White answers e4-e5 by jumping back over it.
    add("socrates-twothree", "socrates-twothree", None, ("e4-e5", "e6-e4"))
    return out


def samples() -> dict[str, bytes]:
    """A few positions that show each game's rules (file stem -> PNG)."""
    return {
        stem: render_socrates(state, viewer, last, None, SAMPLE_NAMES)
        for stem, state, viewer, last in _sample_positions()
    }
