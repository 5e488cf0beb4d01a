"""The picture of a 六面体 (Rokumentai) position.

A wooden 7×7 board labelled 一..七 across the top and 01..07 down the right, as in the seed's
diagrams. Each cube shows its face kanji in its owner's colours (Black: dark die, light kanji;
White: light die, dark kanji); ghosts (怨霊) are purple dice. White's bar is above the board and
Black's below, with cubes in hand, 占 on the board and whose turn it is. The last move is
outlined in yellow; a struck square (ghost strike) is marked in red.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from PIL import Image, ImageDraw

from engines.core import Outcome
from engines.rokumentai import (
    COLUMNS,
    FACE,
    FACES,
    GHOST,
    HAND,
    OCCUPY,
    OWNER,
    ROKUMENTAI,
    SIZE,
    SQUARES,
    Move,
    RokumentaiState,
    cell,
)
from render.base import (
    BACKGROUND,
    CHECK,
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

CELL = 78
MARGIN = 22
BAR = 56
LABEL = 30
BOARD_X = MARGIN
BOARD_Y = BAR + LABEL
BOARD_PX = CELL * SIZE
WIDTH = BOARD_X + BOARD_PX + 48
HEIGHT = BOARD_Y + BOARD_PX + 10 + BAR

WOOD = (214, 178, 118)
WOOD_LINE = (120, 86, 44)
RGB = tuple[int, int, int]

# (die body, kanji, rim) per owner; ghosts per owner of the ghost.
DIE_COLOURS: dict[tuple[int, bool], tuple[RGB, RGB, RGB]] = {
    (0, False): ((30, 30, 36), (246, 244, 236), (90, 90, 100)),
    (1, False): ((246, 243, 232), (24, 24, 28), (150, 140, 120)),
    (0, True): ((96, 64, 150), (226, 208, 246), (48, 32, 66)),
    (1, True): ((180, 160, 220), (60, 36, 86), (122, 96, 150)),
}
DIE_BODIES = (*(body for body, _, _ in DIE_COLOURS.values()), WOOD)
"""Each side's dice, each side's ghosts (幽霊) and the wood under them: apart by ΔE 20 or more
for every kind of colour vision (the ghosts' purples are strong enough to stay apart from the
plain dice for blue-yellow colour blindness)."""


def _square_box(sq: int) -> tuple[int, int, int, int]:
    col, row = sq % SIZE, sq // SIZE
    x, y = BOARD_X + col * CELL, BOARD_Y + row * CELL
    return x, y, x + CELL, y + CELL


@cache
def _board_layer() -> Image.Image:
    """Background, wood, grid and the 一..七 / 01..07 labels (drawn once)."""
    img = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, WIDTH, BAR - 4), fill=PANEL)
    draw.rectangle((0, HEIGHT - BAR + 4, WIDTH, HEIGHT), fill=PANEL)
    x0, y0 = BOARD_X, BOARD_Y
    draw.rounded_rectangle((x0 - 6, y0 - 6, x0 + BOARD_PX + 6, y0 + BOARD_PX + 6), 6, fill=WOOD)
    for i in range(SIZE + 1):
        w = 2 if i in (0, SIZE) else 1
        draw.line((x0 + i * CELL, y0, x0 + i * CELL, y0 + BOARD_PX), fill=WOOD_LINE, width=w)
        draw.line((x0, y0 + i * CELL, x0 + BOARD_PX, y0 + i * CELL), fill=WOOD_LINE, width=w)
    label = font(20)
    for i in range(SIZE):
        draw.text(
            (x0 + i * CELL + CELL / 2, y0 - LABEL / 2 - 4),
            COLUMNS[i],
            font=label,
            fill=TEXT,
            anchor="mm",
        )
        draw.text(
            (x0 + BOARD_PX + 26, y0 + i * CELL + CELL / 2),
            f"{i + 1:02d}",
            font=label,
            fill=TEXT,
            anchor="mm",
        )
    return img


@cache
def _die(code: int) -> Image.Image:
    """The sprite of one cube (board code ``code``): a rounded die with its face kanji."""
    owner, face = OWNER[code], FACE[code]
    body, ink, rim = DIE_COLOURS[(owner, face == GHOST)]
    size = CELL - 12
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    draw.rounded_rectangle((1, 3, size - 1, size - 1), 11, fill=(0, 0, 0, 90))  # shadow
    draw.rounded_rectangle((0, 0, size - 2, size - 4), 11, fill=body, outline=rim, width=2)
    if face == GHOST:  # a dashed inner ring marks a ghost at a glance
        for i in range(0, size - 20, 8):
            draw.line((9 + i, 8, 13 + i, 8), fill=ink, width=2)
            draw.line((9 + i, size - 12, 13 + i, size - 12), fill=ink, width=2)
    draw.text(
        ((size - 2) / 2, (size - 4) / 2 + 1),
        FACES[owner][face],
        font=font(42, "mincho"),
        fill=ink,
        anchor="mm",
    )
    return img


@cache
def _icon(owner: int, face: int, size: int) -> Image.Image:
    """A small die for the bars (``face`` -1: a blank cube in hand)."""
    body, ink, rim = DIE_COLOURS[(owner, face == GHOST)]
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    draw.rounded_rectangle((0, 0, size - 1, size - 1), 6, fill=body, outline=rim, width=2)
    if face < 0:  # a blank cube: one still in hand
        return img
    draw.text(
        (size / 2, size / 2),
        FACES[owner][face],
        font=font(size - 12, "mincho"),
        fill=ink,
        anchor="mm",
    )
    return img


NAME_AT = (20, 28)
"""Where a player's name goes in their bar."""


def _draw_bar(
    canvas: Canvas,
    top: int,
    owner: int,
    hand: int,
    occupy: int,
    to_move: bool,
    result: str,
    reason: str,
    player: str | None,
) -> None:
    """One player's bar at ``top``: seat, cubes in hand, 占 on the board, and the turn marker
    (or, once the game is over, ``result``: ``win``, ``loss``, ``draw`` or ``none`` (aborted),
    with the ``reason`` of an end the host decided, e.g. ``投了 resigned``, under it).
    ``player``, when given, is the player's name, under the seat's. The bar is cached by its
    counts alone and the name pasted on it in the picture: a name in the cache's key would make
    it grow without end and miss on every game's first picture."""
    canvas.paste(_plain_bar(owner, hand, occupy, to_move, result, reason, player is not None),
                 (0, top))  # fmt: skip
    if player is not None:
        tag = name_sprite(player, 14, MUTED, 180)
        canvas.paste(tag, (NAME_AT[0], top + NAME_AT[1]), once=True)


@cache
def _plain_bar(
    owner: int, hand: int, occupy: int, to_move: bool, result: str, reason: str, named: bool
) -> Image.Image:
    """:func:`_draw_bar`'s bar without the player's name (``named``: laid out to take one)."""
    over = bool(result)
    img = Image.new("RGB", (WIDTH, BAR - 4), PANEL)
    draw = ImageDraw.Draw(img)
    big, small = font(22), font(17)
    mark = ("▲", "△")[owner]
    name = ("先手 Black", "後手 White")[owner]
    if to_move and not over:
        draw.rounded_rectangle((6, 6, WIDTH - 6, BAR - 10), 8, outline=HIGHLIGHT, width=3)
    if not named:
        draw.text((18, (BAR - 4) / 2), f"{mark} {name}", font=big, fill=TEXT, anchor="lm")
    else:
        draw.text((18, 16), f"{mark} {name}", font=font(19), fill=TEXT, anchor="lm")
    x = 210
    icon = _icon(owner, -1, 30)
    img.paste(icon, (x, (BAR - 4 - 30) // 2), icon)
    draw.text((x + 38, (BAR - 4) / 2), f"×{hand} 持駒", font=small, fill=TEXT, anchor="lm")
    x = 350
    icon = _icon(owner, OCCUPY, 30)
    img.paste(icon, (x, (BAR - 4 - 30) // 2), icon)
    colour = CHECK if occupy <= 1 else TEXT
    draw.text((x + 38, (BAR - 4) / 2), f"×{occupy} 盤上", font=small, fill=colour, anchor="lm")
    if to_move and not over:
        draw.text(
            (WIDTH - 20, (BAR - 4) / 2), "手番 to move", font=small, fill=HIGHLIGHT, anchor="rm"
        )
    if over:
        label, colour = {
            "win": ("勝ち win", HIGHLIGHT),
            "loss": ("負け loss", MUTED),
            "draw": ("引き分け draw", TEXT),
            "none": ("中止 aborted", MUTED),
        }[result]
        y = (BAR - 4) / 2 - (9 if reason else 0)
        draw.text((WIDTH - 20, y), label, font=big, fill=colour, anchor="rm")
        if reason:
            draw.text((WIDTH - 20, y + 23), reason, font=font(14), fill=MUTED, anchor="rm")
    return img


@cache
def _frame(colour: RGB, width: int) -> Image.Image:
    img = Image.new("RGBA", (CELL, CELL), (0, 0, 0, 0))
    ImageDraw.Draw(img).rectangle((1, 1, CELL - 2, CELL - 2), outline=(*colour, 255), width=width)
    return img


MOVED_ALPHA = 90
"""How strongly the last move's squares are washed in :data:`render.base.HIGHLIGHT`."""
MOVED_TINTS = (WOOD, mix(WOOD, HIGHLIGHT, MOVED_ALPHA / 255))
"""A square, and a square of the last move: apart by ΔE 10 or more for every colour vision."""
MOVED_FRAMES = (WOOD, HIGHLIGHT, CHECK)
"""The wood, the last move's frame and a struck die's cross."""


@cache
def _tint(colour: RGB) -> Image.Image:
    return Image.new("RGBA", (CELL - 2, CELL - 2), (*colour, MOVED_ALPHA))


@cache
def _cross() -> Image.Image:
    """The red mark of a struck square."""
    img = Image.new("RGBA", (CELL, CELL), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    draw.rectangle((1, 1, CELL - 2, CELL - 2), outline=(*CHECK, 255), width=5)
    draw.line((4, 4, 16, 16), fill=(*CHECK, 255), width=4)
    draw.line((CELL - 5, 4, CELL - 17, 16), fill=(*CHECK, 255), width=4)
    draw.line((4, CELL - 5, 16, CELL - 17), fill=(*CHECK, 255), width=4)
    draw.line((CELL - 5, CELL - 5, CELL - 17, CELL - 17), fill=(*CHECK, 255), width=4)
    return img


def render(
    state: RokumentaiState,
    viewer: int | None = None,
    last_move: Any = None,
    outcome: Outcome | None = None,
    names: Sequence[str] | None = None,
) -> bytes:
    """The PNG of ``state``; ``last_move`` (a :class:`Move`) is highlighted; ``outcome`` (an end
    the host decided) overrides the state's own; ``names`` are the players' by seat. Both
    players and spectators see the same picture."""
    palette = _palette()
    picture = _draw(Canvas(_board_layer(), palette), state, last_move, outcome, names)
    return encode_png(picture, palette, reuse=ROKUMENTAI.id)


def compose(
    state: RokumentaiState,
    viewer: int | None = None,
    last_move: Any = None,
    outcome: Outcome | None = None,
    names: Sequence[str] | None = None,
) -> Image.Image:
    """The picture of ``state`` as an RGB image (the same for every ``viewer``), ``last_move``
    outlined (and a strike crossed); ``outcome``, when given, is the result shown instead of
    ``state.outcome()``; ``names``, the players' names by seat, under the seat names."""
    return _draw(Canvas(_board_layer()), state, last_move, outcome, names)


def _draw(
    canvas: Canvas,
    state: RokumentaiState,
    last_move: Any,
    outcome: Outcome | None,
    names: Sequence[str] | None,
) -> Image.Image:
    """:func:`compose` onto ``canvas`` (RGB, or straight onto the palette for :func:`render`)."""
    b = state.board
    if isinstance(last_move, Move):
        marks = [last_move.to] if last_move.frm < 0 else [last_move.frm, last_move.to]
        for sq in marks:
            x, y, _, _ = _square_box(sq)
            canvas.paste(_tint(HIGHLIGHT), (x + 1, y + 1))
    for sq in range(SQUARES):
        c = b[sq]
        if c:
            x, y, _, _ = _square_box(sq)
            canvas.paste(_die(c), (x + 6, y + 5))
    if isinstance(last_move, Move):
        frame = _frame(HIGHLIGHT, 4)
        for sq in [last_move.to] if last_move.frm < 0 else [last_move.frm, last_move.to]:
            x, y, _, _ = _square_box(sq)
            canvas.paste(frame, (x, y))
        if last_move.struck >= 0:
            x, y, _, _ = _square_box(last_move.struck)
            canvas.paste(_cross(), (x, y))
    shown = final_outcome(state, outcome)
    reason = host_reason(shown, short=True)
    players = seat_names(names, 2)
    for owner, top in ((1, 0), (0, HEIGHT - BAR + 4)):
        occupy = b.count(cell(owner, OCCUPY))
        result = "" if shown is None else shown.result(owner)
        # The reason goes under a loss or a draw (a win needs none; 中止 aborted says it all).
        why = " ".join(reason) if reason and result in ("loss", "draw") else ""
        player = None if players is None else players[owner]
        _draw_bar(canvas, top, owner, state.hands[owner], occupy, state.to_move == owner, result,
                  why, player)  # fmt: skip
    return canvas.image


@cache
def _palette() -> Image.Image:
    """The fixed palette of every 六面体 picture, taken from the sample positions."""
    return palette_of([compose(state, None, last) for _, state, last in _sample_positions()])


def locate(state: RokumentaiState, viewer: int | None, square: int) -> Spot:
    """Where ``square`` is drawn (teaching marks; every viewer sees the same board)."""
    x0, y0, x1, y1 = _square_box(square)
    return (x0 + x1) / 2, (y0 + y1) / 2, CELL / 2 - 4


RENDERERS = {ROKUMENTAI.id: renderer(RokumentaiState, render, locate)}
IMAGES = {ROKUMENTAI.id: renderer(RokumentaiState, compose, locate)}
LOCATORS: dict[str, Locate[Any]] = {ROKUMENTAI.id: locate}
"""Where each game draws a cell (the site's buttons over the picture: issue 51, 2)."""

# --- samples -----------------------------------------------------------------------------------

STRIKE_4_1 = ".....怨./....巫../...士..士/..矢..矢./.馬..巫../...怨.../..馬.... b 9/9 ++ 40"
"""The seed's example ④-1 (Black's ghost on 六01 can strike 四03 and land on 一06)."""


def _play(state: RokumentaiState, *moves: str) -> tuple[RokumentaiState, Move | None]:
    last: Move | None = None
    for text in moves:
        last = state.parse_move(text)
        state = state.apply(last)
    return state, last


def _sample_positions() -> list[tuple[str, RokumentaiState, Move | None]]:
    """Meaningful positions (file stem, state, last move): the docs pictures, and between them
    every colour the picture draws, so they also make the palette."""
    start = ROKUMENTAI.new_game()
    opening, last = _play(
        start, "四04占", "三03領", "二06占", "六02領", "六06占", "三05領", "五04武", "四03士"
    )
    out = [("rokumentai-opening", opening, last)]
    beat, last = _play(opening, "武五04-四03")
    out.append(("rokumentai-beat", beat, last))
    seed = ROKUMENTAI.from_position(STRIKE_4_1)
    out.append(("rokumentai-strike-before", seed, None))
    after, last = _play(seed, "怨六01-四03-一06")
    out.append(("rokumentai-strike", after, last))
    end = ROKUMENTAI.from_position(
        "......./.矢巫怨士馬./......./..士領馬巫怨/......./.占..武../......."
        f" b {HAND - 8}/{HAND - 6} ++ 57"
    )
    end, last = _play(end, "怨七04-四04-一04")
    out.append(("rokumentai-end", end, last))
    return out


def samples() -> dict[str, bytes]:
    """A few meaningful positions, for docs/images (file stem -> PNG)."""
    return {
        stem: render(state, None, last, None, SAMPLE_NAMES)
        for stem, state, last in _sample_positions()
    }
