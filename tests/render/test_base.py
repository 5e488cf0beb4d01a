"""The shared PNG path: a stream of pictures reuses unchanged rows, yet every PNG is byte for
byte the one a cold encode writes, and decodes to the picture ``render_image`` draws."""

from __future__ import annotations

import io
import struct
import zlib

import pytest
from PIL import Image

from engines.registry import all_games, get_game
from render import has_renderer, render_image, render_png
from render.base import Canvas, encode_png, forget_streams, palette_of
from tests.engines.playout import random_game

IDS = [g.id for g in all_games() if has_renderer(g.id)]


def _idat(png: bytes) -> bytes:
    pos, data = 8, b""
    while pos < len(png):
        (n,) = struct.unpack(">I", png[pos : pos + 4])
        kind, body = png[pos + 4 : pos + 8], png[pos + 8 : pos + 8 + n]
        assert zlib.crc32(kind + body) == struct.unpack(">I", png[pos + 8 + n : pos + 12 + n])[0]
        if kind == b"IDAT":
            data += body
        pos += 12 + n
    return data


@pytest.mark.parametrize("game_id", IDS)
def test_a_stream_of_plies_encodes_as_cold_pictures_do(game_id: str) -> None:
    states, _ = random_game(get_game(game_id), 2, 12)
    forget_streams()
    warm = [render_png(s, 0) for s in states]
    cold = []
    for s in states:
        forget_streams()
        cold.append(render_png(s, 0))
    assert warm == cold
    for state, png in zip(states, warm, strict=True):
        image = render_image(state, 0)
        decoded = Image.open(io.BytesIO(png))
        assert decoded.size == image.size
        width, height = image.size
        assert len(zlib.decompress(_idat(png))) == (width + 1) * height  # checksums hold


def test_decoded_pixels_are_the_palette_mapping() -> None:
    img = Image.new("RGB", (37, 53), (10, 20, 30))
    for y in range(0, 53, 3):
        img.paste((200, y * 4, 40), (y % 37, y, 37, y + 2))
    palette = palette_of([img])
    png = encode_png(img, palette, reuse="test")
    again = encode_png(img, palette, reuse="test")
    assert png == again == encode_png(img, palette)
    want = img.quantize(palette=palette, dither=Image.Dither.NONE).convert("RGB")
    assert Image.open(io.BytesIO(png)).convert("RGB").tobytes() == want.tobytes()


def test_a_canvas_on_the_palette_draws_what_the_rgb_canvas_draws() -> None:
    """Cached blends never stand in for what was drawn under a sprite in this picture."""
    background = Image.new("RGB", (64, 48), (40, 40, 40))
    sprite = Image.new("RGBA", (20, 20), (250, 200, 60, 255))
    sprite.paste((0, 0, 0, 0), (6, 6, 14, 14))  # a hole the picture shows through
    sprite.paste((250, 200, 60, 120), (0, 0, 20, 3))  # and a soft edge
    pictures = []
    for under in (None, (200, 30, 30), None, (30, 200, 30)):
        rgb = Canvas(background)
        if under is not None:
            rgb.draw((5, 5, 40, 40)).rectangle((5, 5, 40, 40), fill=rgb.ink(under))
        rgb.paste(sprite, (10, 10))
        pictures.append(rgb.image)
    palette = palette_of(pictures)
    for under, want in zip((None, (200, 30, 30), None, (30, 200, 30)), pictures, strict=True):
        canvas = Canvas(background, palette)
        if under is not None:
            canvas.draw((5, 5, 40, 40)).rectangle((5, 5, 40, 40), fill=canvas.ink(under))
        canvas.paste(sprite, (10, 10))
        mapped = want.quantize(palette=palette, dither=Image.Dither.NONE)
        assert canvas.image.convert("RGB").tobytes() == mapped.convert("RGB").tobytes(), under


def test_labels_mark_cells_and_change_only_their_picture() -> None:
    from engines.registry import get_game
    from render import render_png
    from render.base import Marks

    state = get_game("rokumentai").new_game()
    plain = render_png(state, None, None)
    labelled = render_png(state, None, None, marks=Marks(labels=((10, "1"), (11, "2"))))
    assert labelled != plain
    assert render_png(state, None, None, marks=Marks()) != b""
