"""The picture of 三国志三人将棋: 61 pointy-top hexes, three armies, three hands.

Each player sees the board turned (in 120° steps; 180° in the 2-player game) so that their own
edge is at the bottom; spectators see 魏's view. Pieces are shogi-style pentagons in their
army's colour (魏 blue, 蜀 green, 呉 red) pointing toward their owner's forward, with the kanji
turned with them. Each camp (陣) is tinted and patterned in its army's way (stripes, dots,
bars), so it reads without telling colours apart; the colours are chosen to stay apart under
the common colour-vision deficiencies (docs/accessibility.md). The static board of each view
and every piece sprite are drawn once (cached); a turn's picture is a copy, two highlighted
cells and some pastes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache
from typing import Any

from PIL import Image, ImageChops, ImageDraw

from engines.core import Outcome
from engines.sangokushi import (
    CELL_OF,
    CELLS,
    CENTRE,
    GENERAL,
    HAND_KINDS,
    KANJI,
    N_CELLS,
    NAMES,
    TOKIN,
    Move,
    SangokushiState,
    frame_turn,
    tables,
    turn_cell,
)
from render.base import (
    BACKGROUND,
    CHECK,
    HIGHLIGHT,
    MUTED,
    SAMPLE_NAMES,
    TEXT,
    Box,
    Canvas,
    Locate,
    Spot,
    draw_text,
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

RGB = tuple[int, int, int]
R = 32
"""Hex radius (centre to corner) in pixels."""
SQ3 = math.sqrt(3)
PIECE = 46
"""Piece sprite size on the board (the hand shows them smaller)."""
WIDTH = 672
HEIGHT = 596
CX, CY = WIDTH / 2, 286

WOOD = (224, 196, 148)
LINE = (92, 66, 40)
CENTRE_TINT = (168, 155, 189)
ARMY = ((40, 70, 230), (0, 120, 90), (213, 94, 0))
"""魏 blue, 蜀 bluish green, 呉 vermilion (the 2-player game uses blue and vermilion): close to
Okabe and Ito's colour-blind-safe set, apart by ΔE 20 or more for every kind of colour vision."""
CAMP = ((175, 193, 241), (136, 170, 90), (236, 165, 159))
"""The camps (陣) in a pale shade of their army's colour (蜀's darker, to stay apart from 呉's
and the wood for red-green colour blindness)."""
CAMP_PATTERN = ("stripes", "dots", "bars")
"""What marks each army's camp besides its tint: 魏 diagonal stripes, 蜀 dots, 呉 level bars."""
MOVED_FILL = (246, 157, 44)
"""A cell the last move left or entered."""
CHECK_FILL = (196, 109, 102)
"""The cell of a general in check (also ringed in :data:`render.base.CHECK`)."""
TINTS = (WOOD, *CAMP, CENTRE_TINT, MOVED_FILL, CHECK_FILL)
"""Every fill a cell can have: apart by ΔE 10 or more for every kind of colour vision."""
TOKIN_RED = (214, 30, 30)
SEATS_JA = (("魏", "蜀", "呉"), ("先手", "後手"))
SEATS_EN = (("Wei", "Shu", "Wu"), ("Black", "White"))


def _army_of(players: int, seat: int) -> int:
    """The army a seat plays: the 2-player game's seats are 魏 and 呉."""
    return seat if players == 3 else 2 * seat


def _army(players: int, seat: int) -> RGB:
    return ARMY[_army_of(players, seat)]


def _view_turn(players: int, viewer: int | None) -> int:
    """How far (60° steps, anticlockwise) the board turns so the viewer's edge is at the bottom."""
    seat = viewer if viewer is not None and 0 <= viewer < players else 0
    return (-frame_turn(players, seat)) % 6


@cache
def _centres(players: int, viewer: int | None) -> tuple[tuple[float, float], ...]:
    """Pixel centre of every cell (by cell index) in this viewer's turned board."""
    turn = _view_turn(players, viewer)
    out: list[tuple[float, float]] = [(0.0, 0.0)] * N_CELLS
    for i in range(N_CELLS):
        q, r = CELLS[turn_cell(i, turn)]
        out[i] = (CX + R * SQ3 * (q + r / 2), CY + R * 1.5 * r)
    return tuple(out)


def _around(c: tuple[float, float], radius: float) -> tuple[float, float, float, float]:
    """The box of ``radius`` around ``c`` (where a shape is drawn, for :meth:`Canvas.draw`)."""
    return c[0] - radius, c[1] - radius, c[0] + radius, c[1] + radius


def _hex(c: tuple[float, float], radius: float) -> list[tuple[float, float]]:
    return [
        (c[0] + radius * math.cos(math.radians(60 * k - 90)),
         c[1] + radius * math.sin(math.radians(60 * k - 90)))
        for k in range(6)
    ]  # fmt: skip


@cache
def _static(players: int, viewer: int | None) -> Image.Image:
    """The board without pieces: cells, camps and centre tinted, cell names, edge labels."""
    img = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(img)
    centres = _centres(players, viewer)
    t = tables(players, "oblique", "corner")
    tint: dict[int, tuple[int, int, int]] = {}
    zones = t.camps if players == 3 else tuple(t.promo[1 - s] for s in range(2))
    army: dict[int, int] = {}
    for seat, camp in enumerate(zones):
        for cell in camp:
            army[cell] = _army_of(players, seat)
            tint[cell] = CAMP[army[cell]]
    if players == 3:
        tint[CENTRE] = CENTRE_TINT
    small = font(11)
    draw.fontmode = "1"  # crisp, unsmoothed small labels keep the PNG small and fast
    for i, c in enumerate(centres):
        draw.polygon(_hex(c, R), fill=tint.get(i, WOOD), outline=LINE, width=2)
        if i in army:
            a = army[i]
            img.paste(mix(CAMP[a], ARMY[a], 0.3), (round(c[0]) - R, round(c[1]) - R), _pattern(a))
        draw.text((c[0], c[1] + R * 0.72), NAMES[i], font=small, fill=mix(LINE, WOOD, 0.35),
                  anchor="mm")  # fmt: skip
    label = font(EDGE_LABEL)
    for name, pos in _edge_labels(players, viewer):
        draw.text(pos, name, font=label, fill=MUTED, anchor="mm")
    return img


@cache
def _pattern(army: int) -> Image.Image:
    """The mask of army ``army``'s camp pattern inside a hex (a box of side ``2 * R``), drawn
    unsmoothed: one more colour per army in the palette."""
    side = 2 * R
    pattern = Image.new("L", (side, side), 0)
    draw = ImageDraw.Draw(pattern)
    kind = CAMP_PATTERN[army]
    if kind == "stripes":
        for k in range(-side, side, 9):
            draw.line((k, side, k + side, 0), fill=255, width=3)
    elif kind == "dots":
        for y in range(4, side, 9):
            for x in range(4 + (y // 9 % 2) * 4, side, 9):
                draw.ellipse((x - 2, y - 2, x + 2, y + 2), fill=255)
    else:
        for y in range(2, side, 9):
            draw.line((0, y, side, y), fill=255, width=3)
    inside = Image.new("L", (side, side), 0)
    ImageDraw.Draw(inside).polygon(_hex((R, R), R - 4), fill=255)
    return ImageChops.darker(pattern, inside)


EDGE_LABEL = 13
"""Font size of the cell names outside the board."""


def _edge_labels(players: int, viewer: int | None) -> list[tuple[str, tuple[float, float]]]:
    """The edge cells' names again, outside the board where no piece covers them: each name
    and its centre in this viewer's picture."""
    out = []
    for i, c in enumerate(_centres(players, viewer)):
        q, r = CELLS[i]
        if max(abs(q), abs(r), abs(q + r)) != 4:
            continue
        dx, dy = c[0] - CX, c[1] - CY
        d = math.hypot(dx, dy)
        out.append((NAMES[i], (c[0] + dx / d * R * 1.45, c[1] + dy / d * R * 1.45)))
    return out


@cache
def _piece(kind: int, players: int, owner: int, angle: int, size: int) -> Image.Image:
    """A pentagon piece of ``owner`` pointing ``angle`` degrees clockwise from up."""
    scale = 3
    w = size * scale
    img = Image.new("RGBA", (w, w), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    army = _army(players, owner)
    m = w * 0.08
    top, shoulder, bottom = m, w * 0.30, w - m
    left, right = w * 0.14, w - w * 0.14
    inset = w * 0.06
    shape = [
        (w / 2, top),
        (right, shoulder),
        (right - inset, bottom),
        (left + inset, bottom),
        (left, shoulder),
    ]
    if kind == TOKIN:
        draw.polygon(shape, fill=(250, 246, 236), outline=army, width=int(w * 0.07))
        colour: tuple[int, int, int] = TOKIN_RED
    else:
        draw.polygon(shape, fill=army, outline=mix(army, (0, 0, 0), 0.45), width=scale * 2)
        colour = (255, 255, 255)
    glyph = font(int(w * (0.5 if kind != GENERAL else 0.54)), "mincho")
    draw.text((w / 2, w * 0.6), KANJI[kind], font=glyph, fill=colour, anchor="mm")
    if angle % 360:
        img = img.rotate(-angle, resample=Image.Resampling.BICUBIC, expand=True)
    side = round(img.width / scale)
    return _posterise(img.resize((side, side), Image.Resampling.LANCZOS))


@cache
def _piece_trimmed(
    kind: int, players: int, owner: int, angle: int, size: int
) -> tuple[Image.Image, int, int, int, int]:
    """:func:`_piece` cut to its visible box (a turned sprite is mostly transparent corners,
    and pasting them costs as much as the piece): the cut, its offset in the whole sprite,
    and the whole sprite's size."""
    full = _piece(kind, players, owner, angle, size)
    box = full.getchannel("A").getbbox() or (0, 0, full.width, full.height)
    return full.crop(box), box[0], box[1], full.width, full.height


def _paste_piece(
    img: Canvas, sprite: tuple[Image.Image, int, int, int, int], x: float, y: float
) -> None:
    """Paste a trimmed piece where :func:`paste_centered` would put the whole sprite."""
    piece, dx, dy, w, h = sprite
    img.paste(piece, (round(x - w / 2) + dx, round(y - h / 2) + dy))


def _posterise(img: Image.Image) -> Image.Image:
    """Few colours and four alpha levels: the PNG of a full board stays small and fast."""
    alpha = img.getchannel("A").point(lambda a: 0 if a < 40 else 255 if a > 215 else a // 64 * 64)
    rgb = img.convert("RGB").quantize(12, method=Image.Quantize.MEDIANCUT).convert("RGB")
    rgb.putalpha(alpha)
    return rgb


def _angle(players: int, owner: int, viewer: int | None) -> int:
    """Degrees clockwise from up of ``owner``'s forward in the viewer's picture."""
    seat = viewer if viewer is not None and 0 <= viewer < players else 0
    step = 120 if players == 3 else 180
    return (step * (owner - seat)) % 360


@cache
def _hand_anchor(players: int, viewer: int | None, seat: int) -> tuple[int, int, str]:
    """Where ``seat``'s hand goes: the board corner nearest their edge (x, y, side)."""
    me = viewer if viewer is not None and 0 <= viewer < players else 0
    rel = (seat - me) % players
    if players == 2:
        return (16, HEIGHT - 150, "l") if rel == 0 else (WIDTH - 16, 14, "r")
    return ((16, HEIGHT - 150, "l"), (16, 14, "l"), (WIDTH - 16, 14, "r"))[rel]


HEAD_WIDTH = 136
"""The widest a hand's heading may be: the bottom-left one stays clear of the edge labels."""


def _draw_hand(
    img: Canvas,
    state: SangokushiState,
    viewer: int | None,
    seat: int,
    over: bool,
    player: str | None = None,
) -> None:
    """A seat's heading (turn marker, seat name, 王手 when in check, the player's name under
    it when given) and the pieces in its hand."""
    n = state.players
    x, y, side = _hand_anchor(n, viewer, seat)
    army = _army(n, seat)
    ja, en = SEATS_JA[n == 2][seat], SEATS_EN[n == 2][seat]
    to_move = not over and state.current_player() == seat
    anchor = "la" if side == "l" else "ra"
    bright = mix(army, (255, 255, 255), 0.35)
    head = f"{'▶ ' if to_move else ''}{ja} {en}"
    colour = bright if to_move else MUTED
    # 王手 follows the seat name in a smaller red: the bottom-left heading then stays clear of
    # the edge labels beside it
    check = seat in state.in_check and state.general_cell(seat) >= 0
    if side == "l":
        box = draw_text(img, (x, y), head, 20, colour, anchor)
        if check:
            draw_text(img, (box[2] + 8, y + 2), "王手", 17, CHECK)
    else:
        right = x
        if check:
            right = draw_text(img, (x, y + 2), "王手", 17, CHECK, "ra")[0] - 8
        draw_text(img, (right, y), head, 20, colour, anchor)
    top = y + 46
    if player is not None:
        tag = name_sprite(player, 15, TEXT if to_move else MUTED, HEAD_WIDTH)
        tx = x if side == "l" else x - tag.width
        img.paste(tag, (tx, y + 25))
        top += 18
    items = [(k, c) for k, c in zip(HAND_KINDS, state.hands[seat], strict=True) if c]
    if not items:
        draw_text(img, (x, top - 16), "持ち駒なし", 14, MUTED, anchor)
        return
    size = 34
    for j, (kind, count) in enumerate(items):
        col, row = j % 3, j // 3
        dx = col * 58 + size / 2
        px = x + dx if side == "l" else x - 58 * 2 - size / 2 + col * 58
        py = top + row * 44
        _paste_piece(img, _piece_trimmed(kind, n, seat, 0, size), px, py)
        if count > 1:
            draw_text(img, (px + size / 2 + 1, py + 6), f"{count}", 16, TEXT, "lm")


def _draw_status(img: Canvas, state: SangokushiState, outcome: Outcome | None) -> None:
    """The result (or whose turn comes back after a check), with the host's reason when the
    host ended the game, and the ply."""
    n = state.players
    lines: list[str] = []
    reason = host_reason(outcome)
    if outcome is not None:
        winners = sorted(outcome.winners)
        if winners:
            ja = "・".join(SEATS_JA[n == 2][w] for w in winners)
            en = " and ".join(SEATS_EN[n == 2][w] for w in winners)
            lines.append(f"勝ち {ja}  {en} {'wins' if len(winners) == 1 else 'win'}")
        elif reason is None:  # a draw of the rules (the host's draw or abort says so below)
            lines.append("引き分け  draw")
        if reason:
            lines.append(f"{reason[0]}  {reason[1]}")
    elif state.return_to >= 0:
        back = state.return_to
        lines.append(f"次は{SEATS_JA[0][back]}に戻る  then back to {SEATS_EN[0][back]}")
    lines.append(f"{state.ply}手目  ply {state.ply}")
    y = HEIGHT - 8
    for text in reversed(lines):
        draw_text(img, (WIDTH - 16, y), text, 15, MUTED, "rd")
        y -= 22


def render(
    state: SangokushiState,
    viewer: int | None,
    last_move: Any,
    outcome: Outcome | None = None,
    names: Sequence[str] | None = None,
) -> bytes:
    """The PNG of ``state`` as ``viewer`` sees it (the board turned to their edge); ``outcome``
    (an end the host decided) overrides the state's own; ``names`` are the players' by seat."""
    palette = _palette()
    img = _image(state, viewer, last_move, outcome=outcome, names=names, palette=palette)
    return encode_png(img, palette, reuse=(state.game.id, viewer))


def image(
    state: SangokushiState,
    viewer: int | None,
    last_move: Any,
    outcome: Outcome | None = None,
    names: Sequence[str] | None = None,
) -> Image.Image:
    """:func:`render`'s picture as an RGB image."""
    return _image(state, viewer, last_move, outcome=outcome, names=names)


@cache
def _palette() -> Image.Image:
    """The fixed palette of every 三国志 picture, taken from the sample positions."""
    return palette_of(
        [
            _image(state, viewer, last, marks)
            for _, state, viewer, last, marks in _sample_positions()
        ]
    )


def _image(
    state: SangokushiState,
    viewer: int | None,
    last_move: Any,
    marks: tuple[int, ...] = (),
    outcome: Outcome | None = None,
    names: Sequence[str] | None = None,
    palette: Image.Image | None = None,
) -> Image.Image:
    """The picture before encoding; ``marks`` ringed cells (the rules page's move diagrams);
    ``outcome``, when given, is the result shown instead of ``state.outcome()``; ``names``, the
    players' names by seat. With ``palette``, drawn straight onto it (a ``P`` image)."""
    n = state.players
    if viewer is not None and not 0 <= viewer < n:
        viewer = None
    img = Canvas(_static(n, viewer), palette)
    centres = _centres(n, viewer)
    if isinstance(last_move, Move):
        cells = [last_move.dst] if last_move.is_drop else [last_move.src, last_move.dst]
        for c in cells:
            img.draw(_around(centres[c], R)).polygon(
                _hex(centres[c], R - 3), fill=img.ink(MOVED_FILL)
            )
    for seat in state.in_check:
        g = state.general_cell(seat)
        if g >= 0:
            img.draw(_around(centres[g], R + 2)).polygon(
                _hex(centres[g], R - 1),
                fill=img.ink(CHECK_FILL),
                outline=img.ink(CHECK),
                width=4,
            )
    for i, code in enumerate(state.board):
        if code:
            owner = code >> 3
            sprite = _piece_trimmed(code & 7, n, owner, _angle(n, owner, viewer), PIECE)
            _paste_piece(img, sprite, centres[i][0], centres[i][1] - 4)
    for c in marks:
        x, y = centres[c]
        img.draw(_around((x, y), 14)).ellipse(
            (x - 11, y - 11, x + 11, y + 11), outline=img.ink(HIGHLIGHT), width=5
        )
    shown = final_outcome(state, outcome)
    players = seat_names(names, n)
    for seat in range(n):
        player = None if players is None else players[seat]
        _draw_hand(img, state, viewer, seat, shown is not None, player)
    _draw_status(img, state, shown)
    return img.image


def locate(state: SangokushiState, viewer: int | None, cell: int) -> Spot:
    """Where ``cell`` is drawn for ``viewer`` (teaching marks)."""
    x, y = _centres(state.players, viewer)[cell]
    return x, y, R - 4


def locate_seat(state: SangokushiState, viewer: int | None, seat: int) -> Box:
    """The box of ``seat``'s heading for ``viewer`` (the next-seat mark)."""
    x, y, side = _hand_anchor(state.players, viewer, seat)
    if side == "l":
        return x - 8, y - 8, x + HEAD_WIDTH + 8, y + 30
    return x - HEAD_WIDTH - 8, y - 8, x + 8, y + 30


GAME_IDS = ("sangokushi", "sangokushi-2p")
RENDERERS = dict.fromkeys(GAME_IDS, renderer(SangokushiState, render, locate, locate_seat))
IMAGES = dict.fromkeys(GAME_IDS, renderer(SangokushiState, image, locate, locate_seat))
LOCATORS: dict[str, Locate[Any]] = dict.fromkeys(GAME_IDS, locate)
"""Where each game draws a cell (the site's buttons over the picture: issue 51, 2)."""


_Sample = tuple[str, SangokushiState, int | None, Move | None, tuple[int, ...]]


def _sample_positions() -> list[_Sample]:
    """The rules page's pictures (file stem, state, viewer, last move, ringed cells): the start,
    each player's view, a check, the move diagrams. Between them they draw every colour of the
    game, so they also make the palette."""
    from engines.registry import get_game

    three = get_game("sangokushi")
    two = get_game("sangokushi-2p")
    start = three.new_game()
    assert isinstance(start, SangokushiState)
    out: list[_Sample] = [("sangokushi-start", start, None, None, ())]
    mid = start
    moves = (
        "PB3-C4", "PE2-D2", "PG8-F7", "BB6-D7", "BD1-C2", "BD8-E7",
        "BB1-D2", "PG4-F4", "GG9-G8", "PB2-C2", "HH4-G4",
    )  # fmt: skip
    last: Move | None = None
    for text in moves:
        last = mid.parse_move(text)
        nxt = mid.apply(last)
        assert isinstance(nxt, SangokushiState)
        mid = nxt
    for seat, name in enumerate(("wei", "shu", "wu")):
        out.append((f"sangokushi-view-{name}", mid, seat, last, ()))
    # a late position: 蜀 in check (王手), tokins (と) of all three armies, all three hands
    late = three.from_position(
        "....L2/P2.G1B0.B0/.P1....G2/+P0P2P2.H2..H2/.......L1P1/B1L0P0+P1.H0.P1/H2..P0.../"
        "H0...+P2./.H0G0B1B2 B/L3/P 2 0 200 0:2 167"
    )
    check = late.parse_move("HF6-F8")
    checked = late.apply(check)
    assert isinstance(checked, SangokushiState)
    out.append(("sangokushi-check", checked, 1, check, ()))
    start2 = two.new_game()
    assert isinstance(start2, SangokushiState)
    out.append(("sangokushi-2p-start", start2, None, None, ()))
    late2 = two.from_position(
        "...../.L1..G1./+P0P0.+P0B0L1H1/..H1.B0P0../.P0......./.B0..+P1.../...P0.../...B0.L0/"
        ".+P1H1.G0 H/L 0 - 10 1: 164"
    )
    check2 = late2.parse_move("PF7-G8")
    checked2 = late2.apply(check2)
    assert isinstance(checked2, SangokushiState)
    out.append(("sangokushi-2p-check", checked2, None, check2, ()))
    # move diagrams: one piece of 魏 on E5 (the general on E4), its moves ringed
    diagrams = {
        "general": ("E4", "G0", "E9 E1 I5"),
        "cavalry": ("E5", "H0", "E4 F5"),
        "spear": ("E5", "L0", "E8 F6"),
        "archer": ("E5", "B0", "F5 E6 D4 D5 F6 E4"),
        "pawn": ("E5", "P0", ""),
    }
    for name, (cell, piece, others) in diagrams.items():
        pieces = {c: "P1" for c in others.split()} | {cell: piece}
        pieces |= {"A3": "G0"} if piece != "G0" else {}
        pieces |= {"G3": "G1", "G9": "G2"}
        rows = [
            "".join(pieces.get(nm, ".") for nm in NAMES if nm[0] == row)
            for row in reversed("ABCDEFGHI")
        ]
        text = "/".join(rows) + " -/-/- 0 - --- -: 0"
        state = three.from_position(text)
        assert isinstance(state, SangokushiState)
        src = CELL_OF[cell]
        marks = tuple(m.dst for m in state.legal_moves() if m.src == src and not m.promote)
        out.append((f"sangokushi-moves-{name}", state, 0, None, marks))
    return out


def samples() -> dict[str, bytes]:
    """Sample pictures for the rules page: the start, a check, each player's view."""
    return {
        stem: encode_png(_image(state, viewer, last, marks, names=SAMPLE_NAMES), _palette())
        for stem, state, viewer, last, marks in _sample_positions()
    }
