"""Replays: a game's pictures, one per ply, as an animated GIF.

A pure function of the frames it is given, like every picture: each frame is a state already
reduced to what the viewer may see (``state.observe(viewer)``), the move that led to it, and
for the last frame perhaps an end the host decided. The pictures are drawn as Pillow images
(:func:`render.render_image`, never through PNG), mapped onto one shared palette and written by
Pillow's GIF writer, which stores each frame as the box that changed since the one before.

A GIF larger than ``max_bytes`` is drawn again with fewer frames (the first and the last kept,
the others sampled evenly) and, when even few frames do not fit, smaller.
"""

from __future__ import annotations

import io
import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageChops

from engines.core import Outcome, State
from render.base import palette_of

FRAME_MS = 1000
"""How long each ply shows."""
LAST_FRAME_MS = 4000
"""How long the last picture (the end, or the position now) shows before the loop."""
DEFAULT_MAX_BYTES = 8 * 1024 * 1024
"""Discord's upload limit for a bot without boosts."""
SCALES = (1.0, 0.75, 0.5, 0.35, 0.25)
"""The sizes tried, largest first, once dropping frames alone does not fit the budget."""
MIN_FRAMES = 8
"""Fewer frames than this (or than the game has) and a smaller picture is tried first."""


@dataclass(frozen=True)
class Frame:
    """One picture of a replay: ``state`` as the viewer sees it, the move that led to it
    (``None`` for the start, or for a move the viewer may not see), and ``outcome``: an end
    the host decided, drawn instead of the state's own (usually only on the last frame)."""

    state: State[Any]
    last_move: Any = None
    outcome: Outcome | None = None


@dataclass(frozen=True)
class Animation:
    """A built replay: the GIF, how many of the ``total`` frames it shows, and at what size
    (1.0: the pictures as drawn)."""

    data: bytes
    frames: int
    total: int
    scale: float


class ReplayTooLargeError(ValueError):
    """Even the smallest replay (first and last picture, at the smallest size) is larger than
    the budget."""


def replay_gif(
    frames: Sequence[Frame],
    viewer: int | None = None,
    *,
    names: Sequence[str] | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    frame_ms: int = FRAME_MS,
    last_frame_ms: int = LAST_FRAME_MS,
) -> bytes:
    """The animated GIF of ``frames`` as ``viewer`` sees them, looping, at most ``max_bytes``.

    Every frame is shown ``frame_ms``, the last one ``last_frame_ms``. ``names`` are the
    players' names by seat, in every picture's header. When the GIF would be larger than
    ``max_bytes``, fewer frames are kept (always the first and the last, the rest evenly
    spaced) and then the pictures are made smaller; :class:`ReplayTooLargeError` says that
    not even two small pictures fit.
    """
    return animate(
        frames,
        viewer,
        names=names,
        max_bytes=max_bytes,
        frame_ms=frame_ms,
        last_frame_ms=last_frame_ms,
    ).data


def animate(
    frames: Sequence[Frame],
    viewer: int | None = None,
    *,
    names: Sequence[str] | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    frame_ms: int = FRAME_MS,
    last_frame_ms: int = LAST_FRAME_MS,
) -> Animation:
    """:func:`replay_gif`, saying also how many frames were kept and at what size."""
    if not frames:
        raise ValueError("a replay needs at least one frame")
    from render import render_image

    pictures = [render_image(f.state, viewer, f.last_move, f.outcome, names) for f in frames]
    palette = palette_of(
        [pictures[0], pictures[len(pictures) // 2], pictures[-1]], colors=TRANSPARENT
    )
    total = len(pictures)
    count, size, previous = total, 0, 1.0
    for scale in SCALES:
        scaled = _scaled(pictures, scale)
        if size:  # as many frames as the smaller pictures should leave room for
            area = (scale / previous) ** 2
            count = min(total, max(count, int(count * max_bytes / (size * area) * 0.9)))
        previous = scale
        floor = min(2 if scale == SCALES[-1] else MIN_FRAMES, total)
        while True:
            picked = [scaled[i] for i in _sample(total, count)]
            data = _gif(picked, palette, frame_ms, last_frame_ms)
            size = len(data)
            if size <= max_bytes:
                return Animation(data, len(picked), total, scale)
            if count <= floor:
                break
            # the size is about proportional to the frames kept; aim a little under
            count = max(floor, min(count - 1, int(count * max_bytes / size * 0.9)))
    raise ReplayTooLargeError(
        f"a replay of two pictures at {SCALES[-1]:.0%} size takes {size} bytes, over the "
        f"{max_bytes} allowed"
    )


def pick_frames(total: int, limit: int, tail: int) -> list[int]:
    """At most ``limit`` of ``total`` frame indices: all of them when they fit, else the first,
    evenly spaced ones and the last ``tail`` (a long game's end is what its replay is watched
    for). Drawing a frame is most of a replay's time: this bounds it before any is drawn."""
    if total <= limit:
        return list(range(total))
    tail = max(0, min(tail, limit - 2))  # room for the first frame and one more
    head = total - tail
    return _sample(head, limit - tail) + list(range(head, total))


def _sample(total: int, count: int) -> list[int]:
    """``count`` indices out of ``total``, evenly spaced, the first and the last included."""
    if count >= total:
        return list(range(total))
    if count <= 1:
        return [total - 1]
    return sorted({round(k * (total - 1) / (count - 1)) for k in range(count)})


def _scaled(pictures: list[Image.Image], scale: float) -> list[Image.Image]:
    if scale == 1.0:
        return pictures
    w, h = pictures[0].size
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    return [p.resize(size, Image.Resampling.BILINEAR, reducing_gap=2.0) for p in pictures]


TRANSPARENT = 255
"""The palette index left free for "unchanged since the last frame"."""


def _gif(pictures: list[Image.Image], palette: Image.Image, frame_ms: int, last_ms: int) -> bytes:
    """The GIF of ``pictures``, all on ``palette`` (one colour table for the whole file).

    Each frame after the first keeps only the pixels that changed: the rest are the
    transparent index over the frame before, which Pillow crops to the changed box and LZW
    packs into almost nothing (a ply changes a few cells of a board).
    """
    mapped = [p.quantize(palette=palette, dither=Image.Dither.NONE) for p in pictures]
    frames = [mapped[0]]
    for before, after in itertools.pairwise(mapped):
        changed = ImageChops.difference(_indices(before), _indices(after)).point(
            lambda v: 255 if v else 0
        )
        frame = Image.new("P", after.size, TRANSPARENT)
        frame.putpalette(after.getpalette() or [])
        frame.paste(after, (0, 0), changed)
        frames.append(frame)
    durations = [frame_ms] * (len(frames) - 1) + [last_ms]
    buf = io.BytesIO()
    frames[0].save(
        buf,
        format="GIF",
        save_all=True,
        append_images=frames[1:],
        duration=durations,
        loop=0,
        disposal=1,
        transparency=TRANSPARENT,
        optimize=False,
    )
    return buf.getvalue()


def _indices(img: Image.Image) -> Image.Image:
    """A palette image's indices as a greyscale image (to compare two frames pixel by pixel)."""
    return Image.frombytes("L", img.size, img.tobytes())
