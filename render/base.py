"""Shared drawing helpers: the CJK font, the palette, sprite caches and PNG encoding.

Every game's picture is a pure function ``(state, viewer, last_move, outcome) -> PNG bytes``.
Static layers (the board, its labels) and piece sprites are drawn once and cached, so a turn's
picture is a few pastes and one PNG encode.
"""

from __future__ import annotations

import io
import os
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from engines.core import Outcome, State, Termination

# Discord's dark theme background is #313338; pictures carry their own opaque background so they
# read the same on the light theme.
BACKGROUND = (43, 45, 49)
PANEL = (30, 31, 34)
TEXT = (235, 236, 240)
MUTED = (160, 164, 172)
HIGHLIGHT = (250, 200, 60)
CHECK = (230, 60, 60)
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


def rotated_text(
    text: str,
    fnt: ImageFont.FreeTypeFont,
    fill: tuple[int, int, int] | tuple[int, int, int, int],
    angle: float,
) -> Image.Image:
    """A transparent sprite of ``text`` turned by ``angle`` degrees (counter-clockwise)."""
    left, top, right, bottom = fnt.getbbox(text)
    w, h = int(right - left) + 4, int(bottom - top) + 4
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    ImageDraw.Draw(img).text((2 - left, 2 - top), text, font=fnt, fill=fill)
    return img.rotate(angle, resample=Image.Resampling.BICUBIC, expand=True)


def paste_centered(base: Image.Image, sprite: Image.Image, center: tuple[float, float]) -> None:
    x = round(center[0] - sprite.width / 2)
    y = round(center[1] - sprite.height / 2)
    if base.mode == "RGBA":
        base.alpha_composite(sprite, (x, y))
    else:
        base.paste(sprite, (x, y), sprite)


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


def encode_png(img: Image.Image, palette: Image.Image | None = None) -> bytes:
    """Encode as PNG: through ``palette`` when given (fast and small), else as RGB.

    Board pictures have few flat colours plus anti-aliased text. With a game's fixed palette
    the nearest-colour map keeps them sharp; without one, an RGB PNG at the fastest zlib level
    is used, palette-reduced only if it would exceed :data:`MAX_PNG_BYTES`.
    """
    rgb = img.convert("RGB") if img.mode != "RGB" else img
    if palette is not None:
        buf = io.BytesIO()
        rgb.quantize(palette=palette, dither=Image.Dither.NONE).save(
            buf, format="PNG", compress_level=1
        )
        if buf.tell() <= MAX_PNG_BYTES:
            return buf.getvalue()
    buf = io.BytesIO()
    rgb.save(buf, format="PNG", compress_level=1)
    if buf.tell() <= MAX_PNG_BYTES:
        return buf.getvalue()
    pal = rgb.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    buf = io.BytesIO()
    pal.save(buf, format="PNG", optimize=True)
    return buf.getvalue()
