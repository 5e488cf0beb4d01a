"""Shared drawing helpers: the CJK font, the palette, sprite caches and PNG encoding.

Every game's picture is a pure function ``(state, viewer, last_move, outcome, names) -> PNG
bytes`` over its own state type; :func:`renderer` makes it the entry of a module's
``RENDERERS`` (or ``IMAGES``), which takes any state and checks its type. Static layers (the
board, its labels) and piece sprites are drawn once and cached; a turn's picture is drawn
straight onto the game's fixed palette (:class:`Canvas`) and encoded by a writer that reuses the
rows a stream's previous picture already compressed (:func:`encode_png`). The bytes depend on
the picture only, never on what was drawn before.
"""

from __future__ import annotations

import io
import math
import os
import struct
import threading
import unicodedata
import zlib
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, Protocol, TypeVar

from PIL import Image, ImageDraw, ImageFont

from engines.core import Outcome, State, Termination

# Discord's dark theme background is #313338; pictures carry their own opaque background so they
# read the same on the light theme.
BACKGROUND = (43, 45, 49)
PANEL = (30, 31, 34)
TEXT = (235, 236, 240)
MUTED = (160, 164, 172)
HIGHLIGHT = (255, 140, 0)
"""The last move's cells, and what is the viewer's to act on: an orange, not a yellow, which
the wood boards swallow for blue-yellow colour blindness (tritanopia)."""
CHECK = (200, 20, 20)
"""A general in check: a deep red, apart from the green and wood grounds for red-green colour
blindness."""
BLACK_PIECE = (24, 24, 28)
WHITE_PIECE = (242, 240, 232)

MAX_PNG_BYTES = 100_000

HOST_REASONS: dict[Termination, tuple[str, str]] = {
    Termination.RESIGNATION: ("投了", "resigned"),
    Termination.TIMEOUT: ("時間切れ", "timeout"),
    Termination.AGREEMENT: ("合意の引き分け", "draw agreed"),
    Termination.ABORTED: ("中止", "aborted"),
}
"""The short (Japanese, English) reason of each end the host decides, not the game's rules."""


def final_outcome(state: State[Any], outcome: Outcome | None = None) -> Outcome | None:
    """The outcome a picture shows: ``outcome`` (an end the host decided) when given, else the
    state's own (``None`` while the game goes on)."""
    return outcome if outcome is not None else state.outcome()


def host_reason(outcome: Outcome | None, short: bool = False) -> tuple[str, str] | None:
    """``("投了", "resigned")`` and the like for an end the host decided; ``None`` for a
    result of the rules (or no result). ``short``: the form that goes under a seat's own
    引き分け / draw mark (``("合意", "agreed")``)."""
    if outcome is None:
        return None
    if short and outcome.termination is Termination.AGREEMENT:
        return ("合意", "agreed")
    return HOST_REASONS.get(outcome.termination)


T_co = TypeVar("T_co", covariant=True)
S = TypeVar("S", bound=State[Any])
P = TypeVar("P")


class Picture(Protocol[T_co]):
    """A registry's entry: any state (already reduced by ``observe``), the viewer and last move,
    and the host's ``outcome`` and the players' ``names`` as keywords; a PNG (``RENDERERS``) or
    an RGB image (``IMAGES``)."""

    def __call__(
        self,
        state: State[Any],
        viewer: int | None,
        last_move: Any,
        /,
        *,
        outcome: Outcome | None = None,
        names: Sequence[str] | None = None,
        marks: Marks | None = None,
    ) -> T_co: ...


Draw = Callable[[S, int | None, Any, Outcome | None, Sequence[str] | None], P]
"""A game's own picture function, typed by its state: ``(state, viewer, last_move, outcome,
names)``."""

Spot = tuple[float, float, float]
"""Where a cell is drawn: its centre (x, y) and the radius of a circle inside it."""
Box = tuple[float, float, float, float]
"""A rectangle ``(x0, y0, x1, y1)``."""
Locate = Callable[[S, int | None, int], Spot]
"""Where a game draws cell ``index`` (a board square, a yosuko line) for a viewer."""
LocateSeat = Callable[[S, int | None, int], Box]
"""Where a game draws a seat's heading for a viewer."""


@dataclass(frozen=True)
class Marks:
    """What a teaching diagram marks on top of a position (cells are the engine's indexes).

    ``reach``: the cells the piece on ``origin`` can go to; ``moved``: the cells of the move
    just made (from, to; a drop or a placement only its cell); ``captured``: cells where a piece
    was taken (a red badge with a cross on the cell's corner); ``next_seat``: the seat to move
    next (a frame round its heading); ``labels``: short texts on cells (the explorer's ranks of
    the most played moves: a white badge with a dark number, readable without colour)."""

    reach: frozenset[int] = frozenset()
    origin: int | None = None
    moved: tuple[int, ...] = ()
    captured: frozenset[int] = frozenset()
    next_seat: int | None = None
    labels: tuple[tuple[int, str], ...] = ()


REACH = (68, 248, 244)
"""Aqua, not green: a green as light as the wood is the wood for red-green colour blindness."""
ORIGIN = (80, 150, 255)
MOVED = HIGHLIGHT
CAPTURED = (235, 50, 50)
MARKS = (MOVED, CAPTURED, REACH, ORIGIN)
"""The teaching marks' colours, apart from each other and from every board's ground by ΔE 20 or
more for every kind of colour vision (tests/render/test_colour_vision.py)."""


def mix(a: tuple[int, int, int], b: tuple[int, int, int], t: float) -> tuple[int, int, int]:
    """``a`` moved the fraction ``t`` of the way to ``b`` (``b`` laid over ``a`` at opacity
    ``t``)."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def draw_marks(
    img: Image.Image, marks: Marks, cell: Callable[[int], Spot], seat: Callable[[int], Box] | None
) -> Image.Image:
    """``img`` with ``marks`` drawn over it (drawn at twice the size, then scaled down, so the
    rings and crosses are smooth); a new RGB image."""
    k = 2
    layer = Image.new("RGBA", (img.width * k, img.height * k), (0, 0, 0, 0))
    d = ImageDraw.Draw(layer)

    def ring(c: int, scale: float, colour: tuple[int, int, int], width: float) -> None:
        x, y, r = cell(c)
        r *= scale
        d.ellipse((k * (x - r), k * (y - r), k * (x + r), k * (y + r)),
                  outline=(*colour, 255), width=round(k * width))  # fmt: skip

    for c in marks.moved:
        ring(c, 0.9, MOVED, 4)
    if len(marks.moved) == 2:
        _arrow(d, cell(marks.moved[0]), cell(marks.moved[1]), k)
    for c in sorted(marks.reach):
        x, y, r = cell(c)
        s = max(7.0, r * 0.28)
        d.ellipse((k * (x - s), k * (y - s), k * (x + s), k * (y + s)),
                  fill=(*REACH, 230), outline=(255, 255, 255, 230), width=k * 2)  # fmt: skip
        ring(c, 0.8, REACH, 3)
    if marks.origin is not None:
        ring(marks.origin, 0.95, ORIGIN, 5)
    for c in sorted(marks.captured):  # a red badge with a cross on the cell's corner
        x, y, r = cell(c)
        bx, by, br = x + r * 0.7, y - r * 0.7, max(9.0, r * 0.32)
        d.ellipse((k * (bx - br), k * (by - br), k * (bx + br), k * (by + br)),
                  fill=(*CAPTURED, 255), outline=(255, 255, 255, 255), width=k * 2)  # fmt: skip
        s = br * 0.5
        for a, b in (((bx - s, by - s), (bx + s, by + s)), ((bx - s, by + s), (bx + s, by - s))):
            d.line((k * a[0], k * a[1], k * b[0], k * b[1]), fill=(255, 255, 255, 255), width=k * 3)
    if marks.next_seat is not None and seat is not None:
        x0, y0, x1, y1 = seat(marks.next_seat)
        d.rounded_rectangle((k * x0, k * y0, k * x1, k * y1), radius=k * 8,
                            outline=(*ORIGIN, 255), width=k * 4)  # fmt: skip
    seen: set[int] = set()
    for c, text in marks.labels:  # a second label on one cell goes beside the first
        x, y, r = cell(c)
        bx, by, br = x - r * 0.55 + (r * 0.6 if c in seen else 0), y + r * 0.55, max(12.0, r * 0.4)
        seen.add(c)
        d.ellipse((k * (bx - br), k * (by - br), k * (bx + br), k * (by + br)),
                  fill=(255, 255, 255, 255), outline=(20, 20, 20, 255), width=k * 2)  # fmt: skip
        fnt = font(round(k * br * 1.3), "gothic")
        d.text((k * bx, k * by), text, font=fnt, fill=(20, 20, 20, 255), anchor="mm")
    out = img.convert("RGBA")
    out.alpha_composite(layer.resize(out.size, Image.Resampling.LANCZOS))
    return out.convert("RGB")


def _arrow(d: ImageDraw.ImageDraw, a: Spot, b: Spot, k: int) -> None:
    """An arrow from cell ``a`` to cell ``b`` (scaled by ``k``), from edge to edge."""
    (x0, y0, r0), (x1, y1, r1) = a, b
    length = math.hypot(x1 - x0, y1 - y0)
    if length <= r0 + r1:
        return
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    sx, sy = x0 + ux * r0 * 0.9, y0 + uy * r0 * 0.9
    ex, ey = x1 - ux * r1 * 0.9, y1 - uy * r1 * 0.9
    head = 14
    bx, by = ex - ux * head, ey - uy * head
    d.line((k * sx, k * sy, k * bx, k * by), fill=(*MOVED, 235), width=k * 5)
    d.polygon(
        [(k * ex, k * ey),
         (k * (bx - uy * head * 0.6), k * (by + ux * head * 0.6)),
         (k * (bx + uy * head * 0.6), k * (by - ux * head * 0.6))],
        fill=(*MOVED, 235),
    )  # fmt: skip


def renderer(
    state_type: type[S],
    draw: Draw[S, P],
    locate: Locate[S] | None = None,
    seat: LocateSeat[S] | None = None,
) -> Picture[P]:
    """``draw`` as a registry's entry: a state of another type is a :class:`TypeError` (a
    registry that maps a game to the wrong module), never a picture drawn from the wrong
    fields. ``locate`` (and ``seat``) say where the game draws a cell (a seat's heading): with
    them the entry draws ``marks`` (:class:`Marks`) over the picture; without marks the picture
    is the game's own, byte for byte."""

    def checked(
        state: State[Any],
        viewer: int | None,
        last_move: Any,
        /,
        *,
        outcome: Outcome | None = None,
        names: Sequence[str] | None = None,
        marks: Marks | None = None,
    ) -> P:
        if not isinstance(state, state_type):
            raise TypeError(f"not a {state_type.__name__}: {type(state).__name__}")
        picture = draw(state, viewer, last_move, outcome, names)
        if marks is None or locate is None:
            return picture
        place = locate
        heading = seat

        def cell(c: int) -> Spot:
            return place(state, viewer, c)

        def seat_box(s: int) -> Box:
            assert heading is not None
            return heading(state, viewer, s)

        box = seat_box if heading is not None else None
        if isinstance(picture, Image.Image):
            return draw_marks(picture, marks, cell, box)  # type: ignore[return-value]
        assert isinstance(picture, bytes)
        with Image.open(io.BytesIO(picture)) as decoded:
            marked = draw_marks(decoded.convert("RGB"), marks, cell, box)
        return encode_png(marked)  # type: ignore[return-value]

    return checked


_FONT_FILES = {"gothic": "ipaexg.ttf", "mincho": "ipaexm.ttf"}
_FONT_DIRS = (
    "/usr/share/fonts/opentype/ipaexfont-gothic",
    "/usr/share/fonts/opentype/ipaexfont-mincho",
    "/usr/share/fonts/truetype/ipaexfont",
)


class FontMissingError(RuntimeError):
    """The CJK font is not installed (``make font`` installs it)."""


@cache
def font_path(style: str = "gothic") -> Path:
    """Where the IPAex font of ``style`` (``gothic`` or ``mincho``) lives."""
    name = _FONT_FILES[style]
    dirs = [os.environ.get("BANMEN_FONT_DIR", ""), *_FONT_DIRS]
    for d in dirs:
        if d and (Path(d) / name).is_file():
            return Path(d) / name
    raise FontMissingError(
        f"CJK font {name} not found; run `make font` (apt-get install fonts-ipaexfont-gothic "
        "fonts-ipaexfont-mincho) or set BANMEN_FONT_DIR"
    )


@cache
def font(size: int, style: str = "gothic") -> ImageFont.FreeTypeFont:
    """The CJK font at ``size`` pixels (cached: loading a font costs more than drawing)."""
    return ImageFont.truetype(str(font_path(style)), size)


def has_glyph(fnt: ImageFont.FreeTypeFont, char: str) -> bool:
    """True when ``fnt`` really draws ``char`` (not the empty box of a missing glyph)."""
    mask = fnt.getmask(char)
    if mask.getbbox() is None:
        return False
    notdef = fnt.getmask("\U0010fffd")
    return bytes(mask) != bytes(notdef) or mask.size != notdef.size


def draw_text_centered(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    fnt: ImageFont.FreeTypeFont,
    fill: tuple[int, int, int] | tuple[int, int, int, int],
) -> None:
    """Draw ``text`` centred on ``xy`` (by its ink box, so kanji sit visually centred)."""
    draw.text(xy, text, font=fnt, fill=fill, anchor="mm")


@lru_cache(maxsize=4096)
def text_sprite(
    text: str, size: int, fill: tuple[int, int, int], anchor: str = "la", style: str = "gothic"
) -> tuple[Image.Image, int, int]:
    """``text`` drawn once as a transparent sprite, with its offset from the anchor point
    (glyph rendering is the slow part of a picture; pasting a sprite is cheap)."""
    fnt = font(size, style)
    left, top, right, bottom = fnt.getbbox(text, anchor=anchor)
    left, top = int(left) - 1, int(top) - 1
    img = Image.new("RGBA", (max(1, int(right) + 2 - left), max(1, int(bottom) + 2 - top)))
    ImageDraw.Draw(img).text((-left, -top), text, font=fnt, fill=fill, anchor=anchor)
    return img, left, top


def draw_text(
    img: Image.Image | Canvas,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: tuple[int, int, int],
    anchor: str = "la",
    style: str = "gothic",
) -> tuple[int, int, int, int]:
    """Paste ``text`` at ``xy`` as ``ImageDraw.text`` would draw it (through
    :func:`text_sprite`); returns the box it covers."""
    sprite, dx, dy = text_sprite(text, size, fill, anchor, style)
    x, y = round(xy[0]) + dx, round(xy[1]) + dy
    if isinstance(img, Canvas):
        img.paste(sprite, (x, y))
    else:
        img.paste(sprite, (x, y), sprite)
    return x, y, x + sprite.width, y + sprite.height


def clean_name(name: str) -> str:
    """A player's name made safe to draw: one line, no control or format characters, no
    stacks of combining marks (NFC first, so a kana's dakuten stays)."""
    out: list[str] = []
    marks = 0
    for ch in unicodedata.normalize("NFC", name):
        cat = unicodedata.category(ch)
        if cat[0] == "Z" or ch in "\t\n\r":
            ch, marks = " ", 0
        elif cat[0] == "C":
            continue
        elif cat[0] == "M":
            marks += 1
            if marks > 1:
                continue
        else:
            marks = 0
        out.append(ch)
    return " ".join("".join(out).split())


def fit_text(text: str, fnt: ImageFont.FreeTypeFont, width: float) -> str:
    """``text`` cut to ``width`` pixels in ``fnt``, with an ellipsis when cut."""
    if fnt.getlength(text) <= width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:  # the longest prefix that fits with its ellipsis
        mid = (lo + hi + 1) // 2
        if fnt.getlength(text[:mid].rstrip() + "…") <= width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + "…"


@lru_cache(maxsize=512)
def name_sprite(
    name: str, size: int, fill: tuple[int, int, int], width: int, style: str = "gothic"
) -> Image.Image:
    """A player's name as a transparent sprite at most ``width`` pixels wide and one line
    high: cleaned (:func:`clean_name`), cut with an ellipsis, and clipped to its box, so no
    user text can reach outside the place the picture gives it."""
    fnt = font(size, style)
    text = fit_text(clean_name(name), fnt, width)
    ascent, descent = fnt.getmetrics()
    img = Image.new("RGBA", (max(1, min(width, math.ceil(fnt.getlength(text)) + 1)),
                             ascent + descent), (0, 0, 0, 0))  # fmt: skip
    ImageDraw.Draw(img).text((0, 0), text, font=fnt, fill=fill)
    return img


SAMPLE_NAMES = ("Aoi", "Ren", "Sora")
"""The players' names in the sample pictures (docs/images), as the bot shows Discord names."""


def seat_names(names: Sequence[str] | None, players: int) -> tuple[str, ...] | None:
    """``names`` as one entry per seat (missing ones empty), or ``None`` for no names."""
    if names is None:
        return None
    given = [str(n) for n in names][:players]
    return (*given, *([""] * (players - len(given))))


def paste_centered(base: Image.Image, sprite: Image.Image, center: tuple[float, float]) -> None:
    x = round(center[0] - sprite.width / 2)
    y = round(center[1] - sprite.height / 2)
    if base.mode == "RGBA":
        base.alpha_composite(sprite, (x, y))
    else:
        base.paste(sprite, (x, y), sprite)


class Canvas:
    """A picture being drawn, either in RGB (``palette`` ``None``: the source of truth, and what
    palettes are made from) or straight onto a game's fixed palette (a ``P`` image).

    On a palette, each sprite is blended once per distinct patch of picture it lands on, and
    the blend, mapped onto the palette, is cached: a turn's picture is then copies of cached
    patches, with no mapping of the whole picture and a third of the bytes to move. The result
    is the RGB picture mapped onto the palette, give or take the blend of a sprite's soft edge
    with an already mapped background. A patch nothing was drawn on yet is the background's,
    known by its place; any other is known by its pixels.
    """

    TILE = 16

    def __init__(self, background: Image.Image, palette: Image.Image | None = None) -> None:
        self.palette = palette
        self.background = background
        self.image = (background if palette is None else _mapped(background, palette)).copy()
        self._columns = -(-background.width // self.TILE)
        self._dirty = 0
        """Tiles drawn on so far, one bit each (row-major)."""

    def draw(self, within: tuple[float, float, float, float]) -> ImageDraw.ImageDraw:
        """An ``ImageDraw`` on the picture, for opaque shapes in :meth:`ink` colours drawn
        ``within`` the box ``(x0, y0, x1, y1)`` (the canvas then knows that part changed)."""
        self._touch(within)
        return ImageDraw.Draw(self.image)

    def ink(self, colour: tuple[int, int, int]) -> int | tuple[int, int, int]:
        """``colour`` as :meth:`draw` takes it: itself in RGB, its palette entry on a palette."""
        return colour if self.palette is None else _palette_index(self.palette, colour)

    def _touch(self, box: tuple[float, float, float, float]) -> bool:
        """Mark ``box`` drawn on; whether it was untouched before."""
        t = self.TILE
        x0, y0 = max(0, int(box[0]) // t), max(0, int(box[1]) // t)
        x1 = min(self._columns - 1, max(x0, (math.ceil(box[2]) - 1) // t))
        y1 = max(y0, (math.ceil(box[3]) - 1) // t)
        run = ((1 << (x1 - x0 + 1)) - 1) << x0
        tiles = 0
        for row in range(y0, y1 + 1):
            tiles |= run << (row * self._columns)
        clean = not self._dirty & tiles
        self._dirty |= tiles
        return clean

    def paste(self, sprite: Image.Image, xy: tuple[int, int], once: bool = False) -> None:
        """Paste ``sprite`` (RGB: opaque; RGBA: blended by its alpha) with its corner at ``xy``;
        ``once``: a sprite drawn for this picture only, whose blend is not worth keeping."""
        x, y = xy
        box = (x, y, x + sprite.width, y + sprite.height)
        clean = self._touch(box)
        if self.palette is None:
            self.image.paste(sprite, xy, sprite if sprite.mode == "RGBA" else None)
            return
        if sprite.mode != "RGBA":
            self.image.paste(_mapped(sprite, self.palette), box)
            return
        if once:
            patch, mask = self._blend(sprite, box, keep=False)
            self.image.paste(patch, box, mask)
            return
        if clean:  # the background's own patch: known by its place
            key: tuple[int, int, int, object] = (
                id(sprite),
                id(self.palette),
                id(self.background),
                box,
            )
        else:
            key = (id(sprite), id(self.palette), 0, self.image.crop(box).tobytes())
        hit = _BLENDS.get(key)
        if hit is None or hit[0] is not sprite or (clean and hit[1] is not self.background):
            patch, mask = self._blend(sprite, box)
            hit = (sprite, self.background if clean else None, patch, mask)
            with _CACHE_LOCK:
                _BLENDS[key] = hit
                if len(_BLENDS) > BLEND_CACHE:
                    _BLENDS.pop(next(iter(_BLENDS)))
        self.image.paste(hit[2], box, hit[3])

    def _blend(
        self, sprite: Image.Image, box: tuple[int, int, int, int], keep: bool = True
    ) -> tuple[Image.Image, Image.Image]:
        """``sprite`` over the picture at ``box``, on the palette, and where it shows (that
        mask kept for the next paste of the sprite unless not ``keep``)."""
        assert self.palette is not None
        rgb = self.image.crop(box).convert("RGB")
        rgb.paste(sprite, (0, 0), sprite)
        mask = _solid(sprite) if keep else sprite.getchannel("A").point(_SHOWS)
        return rgb.quantize(palette=self.palette, dither=Image.Dither.NONE), mask


BLEND_CACHE = 4096
"""How many blended patches stay cached (a few KB each)."""
_BLENDS: dict[
    tuple[int, int, int, object],
    tuple[Image.Image, Image.Image | None, Image.Image, Image.Image],
] = {}
_CACHE_LOCK = threading.Lock()


_DERIVED: dict[tuple[str, int, int], tuple[Image.Image, Image.Image | None, Image.Image]] = {}
"""Masks and mapped copies of cached images, by the images' ids (an image is not hashable);
each entry keeps its source, so a reused id is never taken for the old image."""


def _derived(kind: str, img: Image.Image, palette: Image.Image | None) -> Image.Image | None:
    hit = _DERIVED.get((kind, id(img), id(palette)))
    return hit[2] if hit is not None and hit[0] is img and hit[1] is palette else None


def _remember(
    kind: str, img: Image.Image, palette: Image.Image | None, result: Image.Image
) -> Image.Image:
    with _CACHE_LOCK:
        _DERIVED[(kind, id(img), id(palette))] = (img, palette, result)
        if len(_DERIVED) > BLEND_CACHE:
            _DERIVED.pop(next(iter(_DERIVED)))
    return result


def _palette_index(palette: Image.Image, colour: tuple[int, int, int]) -> int:
    """The entry of ``palette`` that a pixel of ``colour`` maps to."""
    swatch = Image.new("RGB", (1, 1), colour)
    cached = _derived(f"ink{colour}", palette, None)
    if cached is None:
        cached = _remember(
            f"ink{colour}",
            palette,
            None,
            swatch.quantize(palette=palette, dither=Image.Dither.NONE),
        )
    index = cached.getpixel((0, 0))
    assert isinstance(index, int)
    return index


_SHOWS = [0] + [255] * 255
"""The lookup table of a paste mask: where a sprite's alpha is above zero (a table, not a
function: ``Image.point`` would call a function 256 times a picture)."""


def _solid(sprite: Image.Image) -> Image.Image:
    """Where ``sprite`` shows at all (its alpha above zero), as a paste mask."""
    return _derived("solid", sprite, None) or _remember(
        "solid", sprite, None, sprite.getchannel("A").point(_SHOWS)
    )


def _mapped(img: Image.Image, palette: Image.Image) -> Image.Image:
    """``img`` (a cached layer or an opaque sprite) mapped onto ``palette`` once."""
    return _derived("mapped", img, palette) or _remember(
        "mapped",
        img,
        palette,
        img.convert("RGB").quantize(palette=palette, dither=Image.Dither.NONE),
    )


def palette_of(images: Sequence[Image.Image], colors: int = 256) -> Image.Image:
    """A fixed palette (a ``P`` image) covering the colours of typical pictures of a game.

    Mapping a picture onto a cached palette costs about a millisecond, against several for an
    adaptive quantize or a zlib pass over the RGB pixels, and the PNG is a third of the size.
    The octree keeps entries for the small-but-distinct colours (marks, coloured kanji, piece
    edges) that a median cut merges away under the large flat areas of board and background.
    """
    width = max(im.width for im in images)
    sheet = Image.new("RGB", (width, sum(im.height for im in images)), BACKGROUND)
    y = 0
    for im in images:
        sheet.paste(im.convert("RGB"), (0, y))
        y += im.height
    return sheet.quantize(colors=colors, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def encode_png(
    img: Image.Image, palette: Image.Image | None = None, *, reuse: Hashable | None = None
) -> bytes:
    """Encode as PNG: through ``palette`` when given (fast and small), else as RGB.

    Board pictures have few flat colours plus anti-aliased text. With a game's fixed palette
    the nearest-colour map keeps them sharp; without one, an RGB PNG at the fastest zlib level
    is used, palette-reduced only if it would exceed :data:`MAX_PNG_BYTES`.

    ``reuse`` names a stream of pictures (a game and a viewer): consecutive plies differ in a
    few cells, so the rows that did not change since the stream's last picture are taken
    already mapped and compressed (see :class:`_BandCoder`). The bytes never depend on it.
    """
    if palette is not None:
        data = _BAND_CODER.encode(img, palette, reuse)
        if len(data) <= MAX_PNG_BYTES:
            return data
    rgb = img.convert("RGB") if img.mode != "RGB" else img
    buf = io.BytesIO()
    rgb.save(buf, format="PNG", compress_level=1)
    if buf.tell() <= MAX_PNG_BYTES:
        return buf.getvalue()
    pal = rgb.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    buf = io.BytesIO()
    pal.save(buf, format="PNG", optimize=True)
    return buf.getvalue()


BAND = 16
"""Rows per independently compressed band of a palette PNG."""
WINDOW_BITS = 13
"""A band's deflate window: a band is about this size, so a larger window finds nothing more
and costs time to set up."""


@dataclass(frozen=True)
class _Band:
    rgb: bytes
    """The band's pixels, RGB or palette indices (what a later picture compares against)."""
    deflated: bytes
    """Its palette rows (each led by filter byte 0), raw deflate ending on a sync flush."""
    adler: int
    length: int


def _adler32_combine(a: int, b: int, length_b: int) -> int:
    """The Adler-32 of two byte strings joined, from each one's (zlib's adler32_combine)."""
    base = 65521
    rem = length_b % base
    sum1 = a & 0xFFFF
    sum2 = (rem * sum1) % base
    sum1 += (b & 0xFFFF) + base - 1
    sum2 += (a >> 16) + (b >> 16) + base - rem
    sum1 %= base
    sum2 %= base
    return (sum2 << 16) | sum1


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


class _BandCoder:
    """A palette PNG writer that keeps, per stream, the last picture's bands.

    The image data is cut into bands of :data:`BAND` rows, each deflated on its own (a fresh
    compressor, ending on a sync flush) and the pieces joined into one zlib stream. A band's
    bytes so depend on its pixels only: a band equal to the same band of the stream's previous
    picture is reused as it is, and the PNG is byte for byte the one a cold encode writes.
    Mapping onto the palette and deflating are most of a picture's cost, and between two plies
    most bands do not change.
    """

    STREAMS = 16
    """How many streams keep their last picture (about 1.3 MB each)."""

    def __init__(self) -> None:
        self._last: OrderedDict[Hashable, tuple[_Band, ...]] = OrderedDict()
        self._lock = threading.Lock()

    def forget(self) -> None:
        with self._lock:
            self._last.clear()

    def encode(self, img: Image.Image, palette: Image.Image, reuse: Hashable | None) -> bytes:
        """The PNG of ``img``: an RGB picture, or one already on ``palette`` (mode ``P``)."""
        mapped_already = img.mode == "P"
        rgb = img if mapped_already or img.mode == "RGB" else img.convert("RGB")
        width, height = rgb.size
        key = (reuse, rgb.size, id(palette), mapped_already)
        with self._lock:
            previous = self._last.get(key) if reuse is not None else None
        raw = rgb.tobytes()
        stride = width * (1 if mapped_already else 3) * BAND
        count = -(-height // BAND)
        chunks = [raw[i * stride : (i + 1) * stride] for i in range(count)]
        bands: list[_Band | None] = [None] * count
        if previous is not None:
            for i, old in enumerate(previous):
                if old.rgb == chunks[i]:
                    bands[i] = old
        i = 0
        while i < len(bands):  # map and deflate each run of changed bands
            if bands[i] is not None:
                i += 1
                continue
            j = i
            while j < len(bands) and bands[j] is None:
                j += 1
            top, bottom = i * BAND, min(height, j * BAND)
            mapped = rgb.crop((0, top, width, bottom))
            if not mapped_already:
                mapped = mapped.quantize(palette=palette, dither=Image.Dither.NONE)
            rows = Image.new("P", (width + 1, bottom - top), 0)  # column 0: filter byte 0
            rows.paste(mapped, (1, 0))
            data = rows.tobytes()
            band_bytes = (width + 1) * BAND
            for k in range(i, j):
                piece = data[(k - i) * band_bytes : (k - i + 1) * band_bytes]
                coder = zlib.compressobj(1, zlib.DEFLATED, -WINDOW_BITS)
                deflated = coder.compress(piece) + coder.flush(zlib.Z_SYNC_FLUSH)
                bands[k] = _Band(chunks[k], deflated, zlib.adler32(piece), len(piece))
            i = j
        done = [b for b in bands if b is not None]
        if reuse is not None:
            with self._lock:
                self._last[key] = tuple(done)
                self._last.move_to_end(key)
                while len(self._last) > self.STREAMS:
                    self._last.popitem(last=False)
        adler = 1
        for band in done:
            adler = _adler32_combine(adler, band.adler, band.length)
        stream = b"".join([b"\x78\x01", *(b.deflated for b in done), b"\x03\x00"])
        colours = palette.getpalette() or []
        return b"".join(
            [
                b"\x89PNG\r\n\x1a\n",
                _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)),
                _chunk(b"PLTE", bytes(colours[: 3 * 256])),
                _chunk(b"IDAT", stream + struct.pack(">I", adler)),
                _chunk(b"IEND", b""),
            ]
        )


_BAND_CODER = _BandCoder()


def forget_streams() -> None:
    """Drop every stream's last picture (the next encode of each is a cold one: benchmarks)."""
    _BAND_CODER.forget()
