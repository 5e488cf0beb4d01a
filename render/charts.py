"""Charts: a finished game's winning chances and a player's rating history, drawn by matplotlib.

matplotlib is imported inside each function (most processes never draw a chart, and the import
costs a second) and used through its object API on the Agg canvas (no pyplot, no global figure
state, safe in threads and worker processes). The text is in the boards' CJK font
(:func:`render.base.font_path`); the pictures carry the boards' own opaque dark background, so
they read the same on Discord's light and dark themes. Each PNG stays well under
:data:`MAX_CHART_BYTES`.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING

from render.base import BACKGROUND, MUTED, PANEL, TEXT, font_path

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

MAX_CHART_BYTES = 200_000
"""The largest chart the host posts (a chart is a few tens of KB)."""
SIZE = (8.0, 4.0)
"""Inches at :data:`DPI`: 800 x 400 pixels, Discord's width for an attached picture."""
DPI = 100
SEAT_COLOURS = ("#f2f0e8", "#f0a030", "#50a0f0", "#e05050")
"""Lines by seat: the first player's light (their pieces are 先手's), then amber, blue, red."""
SWING = "#b4b4b4"
SWING_ALPHA = 0.35
"""The swings' faint bars: grey, so that no seat's line is mistaken for one under any colour
vision (an amber bar met the amber line under deuteranopia, ΔE 11); the swings are also dots
on every line and named in the alt text."""


def _hex(rgb: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


@cache
def _family() -> str:
    """Register the boards' CJK font with matplotlib once; its family name."""
    from matplotlib import font_manager

    path = str(font_path())
    font_manager.fontManager.addfont(path)
    return font_manager.FontProperties(fname=path).get_name()


def _figure() -> tuple[Figure, Axes]:
    from matplotlib.figure import Figure

    fig = Figure(figsize=SIZE, dpi=DPI, facecolor=_hex(BACKGROUND))
    ax = fig.add_subplot()
    ax.set_facecolor(_hex(PANEL))
    for spine in ax.spines.values():
        spine.set_color(_hex(MUTED))
    ax.tick_params(colors=_hex(TEXT), labelsize=10)
    ax.grid(True, color=_hex(MUTED), alpha=0.25, linewidth=0.8)
    return fig, ax


def _png(fig: Figure) -> bytes:
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(fig)
    out = io.BytesIO()
    fig.savefig(out, format="png", dpi=DPI, facecolor=fig.get_facecolor())
    if out.tell() <= MAX_CHART_BYTES:
        return out.getvalue()
    # A busy chart (many plies, three crossing lines): the same picture in 256 colours.
    from PIL import Image

    with Image.open(io.BytesIO(out.getvalue())) as image:
        small = io.BytesIO()
        image.convert("RGB").quantize(256).save(small, format="PNG", optimize=True)
    return small.getvalue()


def _text(ax: Axes, title: str, xlabel: str, ylabel: str) -> None:
    ax.set_title(title, color=_hex(TEXT), fontsize=13, loc="left")
    ax.set_xlabel(xlabel, color=_hex(TEXT), fontsize=10)
    ax.set_ylabel(ylabel, color=_hex(TEXT), fontsize=10)


def _legend(ax: Axes, columns: int) -> None:
    legend = ax.legend(loc="upper left", fontsize=10, frameon=True, ncols=min(columns, 4))
    legend.get_frame().set_facecolor(_hex(BACKGROUND))
    legend.get_frame().set_edgecolor(_hex(MUTED))
    for label in legend.get_texts():
        label.set_color(_hex(TEXT))


def win_chances(
    curves: Sequence[Sequence[float]],
    names: Sequence[str],
    swings: Sequence[int],
    *,
    title: str,
    xlabel: str,
    ylabel: str,
) -> bytes:
    """One line a seat of its winning chance (0-1) at the start and after each ply
    (``curves[seat][ply]``), named ``names[seat]``; the plies in ``swings`` (the biggest
    changes) are marked with a dot on every line and a faint bar."""
    from matplotlib import rc_context

    with rc_context({"font.family": _family()}):
        fig, ax = _figure()
        plies = max((len(c) for c in curves), default=1) - 1
        for seat, curve in enumerate(curves):
            colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
            xs = range(len(curve))
            ys = [100 * v for v in curve]
            ax.plot(xs, ys, color=colour, linewidth=2, label=names[seat], drawstyle="default")
            marked = [p for p in swings if 0 <= p < len(curve)]
            ax.scatter(marked, [ys[p] for p in marked], color=colour, s=36, zorder=3)
        for p in swings:
            ax.axvline(p, color=SWING, alpha=SWING_ALPHA, linewidth=6, zorder=0)
        ax.set_xlim(0, max(1, plies))
        ax.set_ylim(0, 100)
        ax.set_yticks([0, 25, 50, 75, 100])
        _text(ax, title, xlabel, ylabel)
        _legend(ax, len(curves))
        fig.tight_layout()
        return _png(fig)


def rating_history(
    series: Sequence[tuple[str, Sequence[float]]], *, title: str, xlabel: str, ylabel: str
) -> bytes:
    """A player's displayed rating before their first rated game (at 0) and after each one,
    oldest first, one line with a dot a game for each ``(game, ratings)`` of ``series``: a
    single game is a line from where they started, not a lone dot."""
    from matplotlib import rc_context
    from matplotlib.ticker import MaxNLocator

    with rc_context({"font.family": _family()}):
        fig, ax = _figure()
        longest = max((len(r) for _, r in series), default=1)
        for k, (label, ratings) in enumerate(series):
            colour = SEAT_COLOURS[(k + 1) % len(SEAT_COLOURS)]
            xs = range(len(ratings))
            ax.plot(xs, list(ratings), color=colour, linewidth=2, marker="o", markersize=4,
                    label=label)  # fmt: skip
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlim(-0.5, max(longest - 0.5, 1.5))
        _text(ax, title, xlabel, ylabel)
        if len(series) > 1:
            _legend(ax, len(series))
        fig.tight_layout()
        return _png(fig)
