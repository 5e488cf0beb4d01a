"""A tournament's crosstable (対戦表) as a picture: a row per player in standing order, a column
per opponent (numbered as the rows), each cell the points scored against that opponent and the
seat they were scored from, then the total. Pure: names, cells and the headings' words in (the
caller says them, from the host's catalogue), PNG bytes out."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from PIL import Image

from render.base import (
    BACKGROUND,
    HIGHLIGHT,
    MUTED,
    PANEL,
    TEXT,
    clean_name,
    draw_text,
    encode_png,
    fit_text,
    font,
)


@dataclass(frozen=True, slots=True)
class CrossRow:
    """One player's row: their rank, name, total and, by opponent row index (0-based), what
    they scored against them (``1■``, ``½□``, ``0①``; several games: space-separated)."""

    rank: int
    name: str
    points: str
    cells: Mapping[int, str] = field(default_factory=dict)


PAD = 12
ROW_H = 30
SIZE = 17
TITLE_SIZE = 22
NAME_W = 190
RANK_W = 44
POINTS_W = 70
MIN_CELL_W = 38
MAX_ROWS = 64
"""Rows drawn at most (a larger field's picture would be unreadable: the text lists it all)."""


def render_crosstable(title: str, rows: Sequence[CrossRow], *, player: str, points: str) -> bytes:
    """The crosstable of ``rows`` (at most :data:`MAX_ROWS`), titled ``title``; ``player`` and
    ``points`` head the names' and the totals' columns."""
    rows = list(rows)[:MAX_ROWS]
    n = len(rows)
    cell_font = font(SIZE)
    widest = max((cell_font.getlength(c) for r in rows for c in r.cells.values()), default=0)
    cell_w = max(MIN_CELL_W, int(widest) + 12)
    width = PAD * 2 + RANK_W + NAME_W + cell_w * n + POINTS_W
    top = PAD + TITLE_SIZE + 14
    height = top + ROW_H * (n + 1) + PAD
    img = Image.new("RGB", (width, height), BACKGROUND)
    title_font = font(TITLE_SIZE)
    draw_text(
        img,
        (PAD, PAD),
        fit_text(clean_name(title), title_font, width - 2 * PAD),
        TITLE_SIZE,
        HIGHLIGHT,
    )
    x_cells = PAD + RANK_W + NAME_W
    x_points = x_cells + cell_w * n
    header_y = top + ROW_H // 2
    draw_text(img, (PAD + RANK_W // 2, header_y), "#", SIZE, MUTED, "mm")
    draw_text(img, (PAD + RANK_W, header_y), player, SIZE, MUTED, "lm")
    for j in range(n):
        draw_text(
            img, (x_cells + cell_w * j + cell_w // 2, header_y), str(j + 1), SIZE, MUTED, "mm"
        )
    draw_text(img, (x_points + POINTS_W // 2, header_y), points, SIZE, MUTED, "mm")
    labels = places(rows)
    for i, row in enumerate(rows):
        y0 = top + ROW_H * (i + 1)
        if i % 2 == 0:
            img.paste(PANEL, (PAD, y0, width - PAD, y0 + ROW_H))
        y = y0 + ROW_H // 2
        draw_text(img, (PAD + RANK_W // 2, y), f"{i + 1}", SIZE, MUTED, "mm")
        name = fit_text(f"{labels[i]} {clean_name(row.name)}", cell_font, NAME_W - 8)
        draw_text(img, (PAD + RANK_W, y), name, SIZE, TEXT, "lm")
        for j in range(n):
            cx = x_cells + cell_w * j + cell_w // 2
            if j == i:
                img.paste(
                    MUTED, (cx - cell_w // 2 + 3, y0 + 3, cx + cell_w // 2 - 3, y0 + ROW_H - 3)
                )
                continue
            cell = row.cells.get(j)
            if cell:
                draw_text(img, (cx, y), cell, SIZE, TEXT, "mm")
        draw_text(img, (x_points + POINTS_W // 2, y), row.points, SIZE, HIGHLIGHT, "mm")
    return encode_png(img)


def places(rows: Sequence[CrossRow]) -> list[str]:
    """Each row's place as printed beside its name: ``2.``, or ``1=`` for a place shared (the
    row's number keys the columns, so two players both first sit in rows 1 and 2, and the
    second must not read as second)."""
    counts = Counter(r.rank for r in rows)
    return [f"{r.rank}=" if counts[r.rank] > 1 else f"{r.rank}." for r in rows]


def samples() -> dict[str, bytes]:
    """A small Swiss-like crosstable (``make docs-images``)."""
    rows = [
        CrossRow(1, "Aoi", "2½", {1: "1■", 2: "½□", 3: "1□"}),
        CrossRow(2, "Ren", "2", {0: "0□", 2: "1■", 3: "1□"}),
        CrossRow(3, "Sora 空", "1½", {0: "½■", 1: "0□", 3: "1■"}),
        CrossRow(4, "Haru", "0", {0: "0■", 1: "0■", 2: "0□"}),
    ]
    headings = {"player": "Player 対局者", "points": "Pts 点"}
    return {"crosstable": render_crosstable("Banmen Cup 盤面杯", rows, **headings)}
