"""The picture of a 略式易双六 (Ryakushiki Yōsukō) table.

The six majors lie in the seed's layout (6 4 / 5 / 2 / 3 1): upper trigram (上卦) above the
divider, lower (下卦) below. Each line shows its card (reversed cards upside down), its M Major
and F Major, and its stack of Coins or Cups with the highest card (the F Minor) outlined. The
token is a yellow disc on its card; the winning lines carry a 勝 tag once the start is chosen.
The left panel holds the set-aside X card and the round, the right one the talon and discard
counts and the card just drawn; the bottom band works the last judgement out in numbers.

Only what is on the table is drawn: the talon is a count, never a card.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from engines.core import Outcome
from engines.yosuko import (
    CARD_DEATH,
    COINS,
    CUPS,
    DEATH,
    FOOL,
    GAME,
    LINE_JA,
    MAJORS,
    MINORS,
    SUIT_JA,
    SWORDS,
    WANDS,
    WIN_LINES,
    Judgement,
    YosukoState,
    card_name,
    is_upper,
    major_name,
    suit_of,
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
    name_sprite,
    renderer,
    seat_names,
)

RGB = tuple[int, int, int]
WIDTH, HEIGHT = 720, 720
HEADER = 44
FOOTER_Y = 604

CARD_W, CARD_H = 86, 128
CHIP_W, CHIP_H, CHIP_COLS = 25, 19, 4

FACE = (242, 234, 214)
FACE_EDGE = (128, 104, 70)
INK = (44, 34, 26)
RED = (213, 94, 0)
"""Loss, a reversed card, a line that stays (Okabe-Ito's vermillion; always with words)."""
GREEN = (0, 158, 115)
"""Win, the goal, a line that moves (Okabe-Ito's bluish green: apart from RED for every
colour vision, issue 46)."""
BLUE_TEXT = (140, 190, 255)
M_COLOUR = (240, 150, 90)
F_COLOUR = (110, 180, 255)
"""The badge's M (orange) and F (blue): apart for every colour vision, and lettered."""
BACK_COLOUR = (92, 62, 120)

# Slot (top-left) of each line, as the seed lays them out: 6 4 / 5 / 2 / 3 1.
SLOTS: dict[int, tuple[int, int]] = {
    6: (20, 56),
    4: (494, 56),
    5: (257, 176),
    2: (257, 336),
    3: (20, 456),
    1: (494, 456),
}
DIVIDER_Y = 324
LEFT_PANEL = (20, 212, 236, 440)
RIGHT_PANEL = (494, 212, 710, 440)

SUIT_CHIP: dict[int, tuple[RGB, RGB]] = {
    WANDS: ((96, 142, 64), (245, 245, 235)),
    CUPS: ((62, 112, 196), (245, 248, 255)),
    SWORDS: ((132, 142, 158), (20, 22, 28)),
    COINS: ((212, 170, 52), (36, 28, 10)),
}


@lru_cache(maxsize=4096)
def _fit(text: str, width: int, size: int, style: str = "gothic") -> int:
    """The largest font size up to ``size`` at which ``text`` fits ``width`` pixels."""
    while size > 8 and font(size, style).getlength(text) > width:
        size -= 1
    return size


@cache
def _major_face(number: int, reversed_: bool) -> Image.Image:
    """A major arcanum as a card: numeral, number, Japanese and English name; turned 180° when
    reversed (逆位置)."""
    m = MAJORS[number]
    img = Image.new("RGBA", (CARD_W, CARD_H), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, CARD_W - 1, CARD_H - 1), 8, fill=FACE, outline=FACE_EDGE, width=2)
    d.rounded_rectangle((5, 5, CARD_W - 6, CARD_H - 6), 5, outline=(196, 176, 140), width=1)
    cx = CARD_W // 2
    d.text(
        (cx, 20),
        m.roman,
        font=font(_fit(m.roman, CARD_W - 14, 20, "mincho"), "mincho"),
        fill=INK,
        anchor="mm",
    )
    if m.number:
        d.text((cx, 38), str(m.number), font=font(11), fill=(120, 100, 80), anchor="mm")
    ja_size = _fit(m.ja, CARD_W - 12, 28, "mincho")
    d.text((cx, 68), m.ja, font=font(ja_size, "mincho"), fill=INK, anchor="mm")
    words = m.en.split()
    lines = (
        [m.en]
        if font(11).getlength(m.en) <= CARD_W - 10
        else [
            " ".join(words[: len(words) // 2 + (len(words) % 2)]),
            " ".join(words[len(words) // 2 + (len(words) % 2) :]),
        ]
    )
    for i, line in enumerate(lines):
        y = CARD_H - 22 - 7 * (len(lines) - 1) + 14 * i
        d.text(
            (cx, y), line, font=font(_fit(line, CARD_W - 10, 11)), fill=(80, 64, 48), anchor="mm"
        )
    return img.rotate(180) if reversed_ else img


@cache
def _card_back(w: int, h: int) -> Image.Image:
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, w - 1, h - 1), 6, fill=BACK_COLOUR, outline=(200, 180, 230), width=2)
    d.rounded_rectangle((6, 6, w - 7, h - 7), 4, outline=(160, 130, 190), width=1)
    d.text((w // 2, h // 2), "易", font=font(w // 2, "mincho"), fill=(200, 180, 230), anchor="mm")
    return img


@cache
def _chip(card: int, highlighted: bool) -> Image.Image:
    """A minor card as a small coloured chip with its notation (``C10``, ``PK``)."""
    bg, fg = SUIT_CHIP[suit_of(card)]
    img = Image.new("RGBA", (CHIP_W, CHIP_H), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    edge = HIGHLIGHT if highlighted else (20, 20, 24)
    d.rounded_rectangle(
        (0, 0, CHIP_W - 1, CHIP_H - 1), 4, fill=bg, outline=edge, width=2 if highlighted else 1
    )
    name = card_name(card)
    d.text(
        (CHIP_W // 2, CHIP_H // 2 + 1),
        name,
        font=font(_fit(name, CHIP_W - 4, 12)),
        fill=fg,
        anchor="mm",
    )
    return img


@cache
def _big_card(card: int) -> Image.Image:
    """The card just drawn, large: a minor with its suit name, or The Fool / Death."""
    w, h = 64, 92
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    if card >= MINORS:
        m = MAJORS[card - MINORS]
        d.rounded_rectangle((0, 0, w - 1, h - 1), 6, fill=FACE, outline=RED, width=3)
        d.text((w // 2, 24), m.roman, font=font(18, "mincho"), fill=INK, anchor="mm")
        d.text(
            (w // 2, 56),
            m.ja,
            font=font(_fit(m.ja, w - 10, 22, "mincho"), "mincho"),
            fill=INK,
            anchor="mm",
        )
        return img
    bg, fg = SUIT_CHIP[suit_of(card)]
    d.rounded_rectangle((0, 0, w - 1, h - 1), 6, fill=bg, outline=HIGHLIGHT, width=3)
    name = card_name(card)
    d.text((w // 2, 34), name, font=font(_fit(name, w - 8, 26)), fill=fg, anchor="mm")
    suit = SUIT_JA[suit_of(card)]
    d.text((w // 2, 66), suit, font=font(_fit(suit, w - 8, 14)), fill=fg, anchor="mm")
    return img


@cache
def _small_major(number: int) -> Image.Image:
    """The X card (The Fool or Death) in the left panel."""
    face = _major_face(number, False)
    return face.resize((58, 86), Image.Resampling.LANCZOS)


@cache
def _values(m_major: int, f_major: int) -> Image.Image:
    """The badge ``M 5  F 3`` (M Major, F Major) of one line."""
    img = Image.new("RGBA", (104, 20), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    f = font(15)
    d.text((0, 10), f"M{m_major}", font=f, fill=M_COLOUR, anchor="lm")
    d.text((52, 10), f"F{f_major}", font=f, fill=F_COLOUR, anchor="lm")
    return img


@cache
def _token() -> Image.Image:
    img = Image.new("RGBA", (36, 36), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.ellipse((1, 1, 34, 34), fill=(20, 20, 24))
    d.ellipse((4, 4, 31, 31), fill=HIGHLIGHT)
    d.ellipse((11, 11, 24, 24), fill=(255, 236, 150))
    return img


@cache
def _frame(colour: RGB) -> Image.Image:
    img = Image.new("RGBA", (CARD_W + 8, CARD_H + 8), (0, 0, 0, 0))
    ImageDraw.Draw(img).rounded_rectangle(
        (0, 0, CARD_W + 7, CARD_H + 7), 11, outline=colour, width=4
    )
    return img


@cache
def _tag(text: str, colour: RGB) -> Image.Image:
    f = font(12)
    w = int(f.getlength(text)) + 10
    img = Image.new("RGBA", (w, 18), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, w - 1, 17), 4, fill=colour)
    d.text((w // 2, 9), text, font=f, fill=(16, 16, 20), anchor="mm")
    return img


@cache
def _background() -> Image.Image:
    """Bands, the trigram divider, line labels and panel frames (drawn once)."""
    img = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, WIDTH, HEADER - 4), fill=PANEL)
    d.text((16, HEADER // 2 - 2), "略式易双六", font=font(22, "mincho"), fill=TEXT, anchor="lm")
    d.text((134, HEADER // 2), "Ryakushiki Yōsukō", font=font(14), fill=MUTED, anchor="lm")
    d.rectangle((0, FOOTER_Y, WIDTH, HEIGHT), fill=PANEL)
    for x0, x1 in ((250, 470),):
        for x in range(x0, x1, 12):
            d.line((x, DIVIDER_Y, x + 6, DIVIDER_Y), fill=(90, 94, 102), width=1)
    d.text((470, DIVIDER_Y - 9), "上卦 upper ↑", font=font(12), fill=MUTED, anchor="rm")
    d.text((470, DIVIDER_Y + 9), "下卦 lower ↓", font=font(12), fill=MUTED, anchor="rm")
    for line, (x, y) in SLOTS.items():
        d.text((x + CARD_W + 10, y + 8), f"{line}", font=font(20), fill=TEXT, anchor="lm")
        d.text((x + CARD_W + 28, y + 9), LINE_JA[line], font=font(14), fill=MUTED, anchor="lm")
    for box in (LEFT_PANEL, RIGHT_PANEL):
        d.rounded_rectangle(box, 8, outline=(70, 73, 80), width=1)
    return img


@lru_cache(maxsize=4096)
def _label(
    text: str, fnt: ImageFont.FreeTypeFont, fill: RGB, anchor: str
) -> tuple[Image.Image, int, int]:
    """``text`` drawn once as a sprite, with its offset from the anchor point."""
    left, top, right, bottom = fnt.getbbox(text, anchor=anchor)
    left, top = int(left) - 1, int(top) - 1
    img = Image.new("RGBA", (max(1, int(right) + 2 - left), max(1, int(bottom) + 2 - top)))
    ImageDraw.Draw(img).text((-left, -top), text, font=fnt, fill=fill, anchor=anchor)
    return img, left, top


class _Writer:
    """Text onto the picture through the sprite cache (glyph rendering is the slow part)."""

    def __init__(self, img: Canvas) -> None:
        self.img = img

    def text(
        self,
        xy: tuple[int, int],
        text: str,
        font: ImageFont.FreeTypeFont,
        fill: RGB,
        anchor: str = "la",
    ) -> None:
        sprite, dx, dy = _label(text, font, fill, anchor)
        x, y = xy[0] + dx, xy[1] + dy
        if x >= 0 and y >= 0:
            paste(self.img, sprite, (x, y))


def _status(state: YosukoState, outcome: Outcome | None) -> tuple[str, RGB]:
    """The header: the result (``outcome``, the one drawn; with the reason of an end the host
    decided), else what the player does next."""
    if outcome is not None:
        r = outcome.result(0)
        words = {
            "win": ("勝ち  You win", GREEN),
            "loss": ("負け  You lose", RED),
            "none": ("中止  Aborted", MUTED),
        }
        text, colour = words.get(r, ("引き分け  Draw", MUTED))
        reason = host_reason(outcome)
        if reason and r == "draw":  # 合意の引き分け draw agreed
            text = f"{reason[0]}  {reason[1]}"
        elif reason and r != "none":
            text += f" · {reason[0]} {reason[1]}"
        return text, colour
    phase = state.phase
    if phase == "deal":
        return f"配札中 Dealing {len(state.lines)}/6", MUTED
    if phase == "start":
        return "開始位置を選ぶ  Choose a start line", HIGHLIGHT
    if phase == "choose":
        return "進む／留まる  Move or stay?", HIGHLIGHT
    if phase == "card":
        return "引いています  Drawing…", MUTED
    return "引く  Draw a card", TEXT


def paste(img: Canvas, sprite: Image.Image, xy: tuple[int, int]) -> None:
    img.paste(sprite, xy)


def render(
    state: YosukoState,
    viewer: int | None = None,
    last_move: Any = None,
    outcome: Outcome | None = None,
    names: Sequence[str] | None = None,
) -> bytes:
    """The PNG of ``state`` (``last_move`` is not needed: the state keeps the last card);
    ``outcome`` (an end the host decided) overrides the state's own; ``names``: the player's."""
    palette = _palette()
    picture = _draw(Canvas(_background(), palette), state, outcome, names)
    return encode_png(picture, palette, reuse=GAME.id)


NAME_X = 264
"""Where the player's name starts in the header (after the title)."""


def compose(
    state: YosukoState,
    viewer: int | None = None,
    last_move: Any = None,
    outcome: Outcome | None = None,
    names: Sequence[str] | None = None,
) -> Image.Image:
    """The picture of ``state`` as an RGB image, the same for every ``viewer`` and without
    ``last_move`` (the state keeps the last card); ``outcome``: shown instead of
    ``state.outcome()``; ``names``: the player's name, in the header after the title."""
    return _draw(Canvas(_background()), state, outcome, names)


def _draw(
    img: Canvas, state: YosukoState, outcome: Outcome | None, names: Sequence[str] | None
) -> Image.Image:
    """:func:`compose` onto ``img`` (RGB, or straight onto the palette for :func:`render`)."""
    shown = final_outcome(state, outcome)
    d = _Writer(img)
    status, colour = _status(state, shown)
    right = WIDTH - 16
    d.text((right, HEADER // 2 - 2), status, font=font(17), fill=colour, anchor="rm")
    players = seat_names(names, 1)
    if players is not None:
        room = right - int(font(17).getlength(status)) - 16 - NAME_X
        name = name_sprite(players[0], 15, TEXT, max(1, room))
        paste(img, name, (NAME_X, HEADER // 2 - 2 - name.height // 2))
    params = state.params
    j = state.last_judgement
    goal = WIN_LINES[is_upper(state.start)] if state.start else ()

    if j is not None:
        _arrow(img, j)
    for line, (x, y) in SLOTS.items():
        if line > len(state.lines):
            paste(img, _card_back(CARD_W, CARD_H), (x, y))
            continue
        code = state.lines[line - 1]
        paste(img, _major_face(code // 2, bool(code % 2)), (x, y))
        paste(img, _values(params.m_major(code), params.f_major(code)), (x + CARD_W + 10, y + 24))
        if code % 2:
            paste(img, _tag("逆 reversed", RED), (x + CARD_W + 66, y))
        _stack(img, state, line, x + CARD_W + 8, y + 48)
    if state.token:
        x, y = SLOTS[state.token]
        paste(img, _frame(HIGHLIGHT), (x - 4, y - 4))
    for line in goal:
        x, y = SLOTS[line]
        paste(img, _tag("勝 goal", GREEN), (x + 6, y - 10))
    if j is not None:
        for line, tag in ((j.from_line, "From"), (j.to_line, "To")):
            x, y = SLOTS[line]
            paste(img, _tag(tag, BLUE_TEXT), (x + 6, y + CARD_H - 8))
    if state.token:
        x, y = SLOTS[state.token]
        paste(img, _token(), (x + CARD_W - 24, y + CARD_H - 26))
    _left_panel(img, d, state)
    _right_panel(img, d, state)
    _footer(img, d, state, shown)
    return img.image


COLOURS: tuple[RGB, ...] = (
    BACKGROUND,
    PANEL,
    TEXT,
    MUTED,
    HIGHLIGHT,
    FACE,
    FACE_EDGE,
    INK,
    (196, 176, 140),
    (120, 100, 80),
    (80, 64, 48),
    RED,
    GREEN,
    BLUE_TEXT,
    M_COLOUR,
    F_COLOUR,
    BACK_COLOUR,
    (200, 180, 230),
    (160, 130, 190),
    *(c for pair in SUIT_CHIP.values() for c in pair),
    (20, 20, 24),
    (16, 16, 20),
    (70, 73, 80),
    (90, 94, 102),
    (255, 236, 150),
    (255, 255, 255),
)
"""Every colour the picture draws with: the palette covers their anti-aliased blends."""


@cache
def _palette() -> Image.Image:
    """A fixed 256-colour palette from a swatch of every blend of two of :data:`COLOURS`."""
    steps = 12
    pairs = [(a, b) for i, a in enumerate(COLOURS) for b in COLOURS[i + 1 :]]
    swatch = Image.new("RGB", (steps, len(pairs)))
    for row, (a, b) in enumerate(pairs):
        for k in range(steps):
            t = k / (steps - 1)
            swatch.putpixel(
                (k, row), tuple(round(x + (y - x) * t) for x, y in zip(a, b, strict=True))
            )
    # The pure colours are weighted heavily so each keeps an exact entry.
    pure = Image.new("RGB", (len(COLOURS), 400))
    for i, c in enumerate(COLOURS):
        pure.paste(c, (i, 0, i + 1, 400))
    sheet = Image.new("RGB", (steps + len(COLOURS), max(len(pairs), 400)), BACKGROUND)
    sheet.paste(swatch, (0, 0))
    sheet.paste(pure, (steps, 0))
    return sheet.quantize(256, Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def _arrow(img: Canvas, j: Judgement) -> None:
    """A line from the judgement's From card to its To card, under the cards."""
    (x0, y0), (x1, y1) = SLOTS[j.from_line], SLOTS[j.to_line]
    c0 = (x0 + CARD_W // 2, y0 + CARD_H // 2)
    c1 = (x1 + CARD_W // 2, y1 + CARD_H // 2)
    box = (
        min(c0[0], c1[0]) - 5,
        min(c0[1], c1[1]) - 5,
        max(c0[0], c1[0]) + 5,
        max(c0[1], c1[1]) + 5,
    )
    img.draw(box).line((*c0, *c1), fill=img.ink(GREEN if j.moved else RED), width=5)


def _stack(img: Canvas, state: YosukoState, line: int, x: int, y: int) -> None:
    stack = state.stacks[line - 1]
    if not stack:
        return
    best = state.f_minor(line)[1]
    for i, card in enumerate(stack[: CHIP_COLS * 4]):
        col, row = i % CHIP_COLS, i // CHIP_COLS
        paste(img, _chip(card, card == best), (x + col * (CHIP_W + 2), y + row * 21))
    if len(stack) > CHIP_COLS * 4:
        _Writer(img).text((x, y + 86), f"+{len(stack) - 16}", font=font(12), fill=MUTED)


def _left_panel(img: Canvas, d: _Writer, state: YosukoState) -> None:
    x0, y0, x1, _ = LEFT_PANEL
    d.text((x0 + 10, y0 + 14), "X 除外札 set aside", font=font(13), fill=MUTED, anchor="lm")
    if state.set_aside is not None:
        paste(img, _small_major(state.set_aside - MINORS), (x0 + 12, y0 + 28))
        term = MAJORS[FOOL if state.set_aside == CARD_DEATH else DEATH]
        d.text((x0 + 80, y0 + 42), "終了札 ends:", font=font(12), fill=MUTED, anchor="lm")
        d.text((x0 + 80, y0 + 62), f"{term.roman} {term.ja}", font=font(15), fill=TEXT, anchor="lm")
        d.text((x0 + 80, y0 + 80), term.en, font=font(12), fill=TEXT, anchor="lm")
        goal = "・".join(map(str, WIN_LINES[is_upper(state.start)]))
        d.text((x0 + 80, y0 + 104), f"勝ち goal: {goal}", font=font(13), fill=GREEN, anchor="lm")
    else:
        paste(img, _card_back(58, 86), (x0 + 12, y0 + 28))
        for i, text in enumerate(
            ("start 4–6: 0 愚者", "  → 勝 goal 5・6", "start 1–3: XIII 死神", "  → 勝 goal 2・5")
        ):
            d.text((x0 + 80, y0 + 40 + 20 * i), text, font=font(12), fill=MUTED, anchor="lm")
    rounds = state.params.rounds
    d.text(
        (x0 + 10, y0 + 140),
        f"回 Round {state.round}/{rounds}",
        font=font(16),
        fill=TEXT,
        anchor="lm",
    )
    if state.start:
        d.text(
            (x0 + 10, y0 + 166), f"開始 start {state.start}", font=font(14), fill=MUTED, anchor="lm"
        )
    opts = state.options()
    extra = [f"×{opts['influence']}"] if opts["influence"] != "1" else []
    if opts["compare"] == "ge":
        extra.append("≥")
    if opts["court"] != "K14":
        extra.append(opts["court"])
    if extra:
        d.text((x0 + 10, y0 + 192), " ".join(extra), font=font(13), fill=MUTED, anchor="lm")
    del x1


def _right_panel(img: Canvas, d: _Writer, state: YosukoState) -> None:
    x0, y0, _, _ = RIGHT_PANEL
    paste(img, _card_back(44, 64), (x0 + 12, y0 + 12))
    talon = str(len(state.talon)) if state.start else "–"
    d.text((x0 + 64, y0 + 30), f"山 {talon}", font=font(18), fill=TEXT, anchor="lm")
    d.text((x0 + 64, y0 + 54), "talon", font=font(12), fill=MUTED, anchor="lm")
    d.text((x0 + 130, y0 + 30), f"捨 {len(state.discards)}", font=font(18), fill=TEXT, anchor="lm")
    d.text((x0 + 130, y0 + 54), "discards", font=font(12), fill=MUTED, anchor="lm")
    d.text((x0 + 12, y0 + 100), "引いた札", font=font(14), fill=MUTED, anchor="lm")
    d.text((x0 + 12, y0 + 118), "drawn", font=font(12), fill=MUTED, anchor="lm")
    if state.last_card is not None:
        paste(img, _big_card(state.last_card), (x0 + 86, y0 + 86))
        d.text((x0 + 108, y0 + 198), _where(state), font=font(14), fill=TEXT, anchor="mm")


def _where(state: YosukoState) -> str:
    """Where the card just drawn went (a stack, the discards, or the end)."""
    card = state.last_card
    if card is None:
        return ""
    if card >= MINORS:
        return "終了 end" if state.phase == "end" else "混ぜ直し reshuffle"
    for line in range(1, 7):
        if card in state.stacks[line - 1]:
            return f"→ {line}（{LINE_JA[line]}）に積む  stacked"
    return "→ 捨て札  discarded"


def _footer(img: Canvas, d: _Writer, state: YosukoState, outcome: Outcome | None) -> None:
    """The last judgement in numbers, or what the last card did, or the result (``outcome``,
    the one drawn: an end the host decided replaces even a pending judgement's question)."""
    y = FOOTER_Y
    j = state.last_judgement
    reason = host_reason(outcome)
    if reason is not None:
        ja, en = f"{reason[0]}により終了", f"The game ended: {reason[1]}."
        d.text((16, y + 30), ja, font=font(16), fill=TEXT, anchor="lm")
        d.text((16, y + 66), en, font=font(15), fill=MUTED, anchor="lm")
    elif j is not None:
        left, right = j.sums()
        head = f"判定 {j.from_line}→{j.to_line}"
        d.text((16, y + 22), head, font=font(16), fill=BLUE_TEXT, anchor="lm")
        formula = f"{left}  {j.sign()}  {right}"
        d.text(
            (16, y + 52), formula, font=font(_fit(formula, WIDTH - 32, 17)), fill=TEXT, anchor="lm"
        )
        if not j.from_wins:
            res = "To の勝ち：留まる  To wins: the token stays"
            colour = RED
        elif j.choice == "pending":
            res = f"From の勝ち：{j.to_line}へ進む？ 留まる？  From wins: move or stay?"
            colour = HIGHLIGHT
        elif j.choice == "stay":
            res = "From の勝ち、留まる  From wins, the player stays"
            colour = HIGHLIGHT
        else:
            res = f"From の勝ち：{j.to_line}へ移動  From wins: the token moves to {j.to_line}"
            colour = GREEN
        gone = "捨て " + " ".join(card_name(c) for c in j.discarded)
        d.text((16, y + 82), res, font=font(_fit(res, WIDTH - 150, 15)), fill=colour, anchor="lm")
        d.text((WIDTH - 16, y + 22), gone, font=font(14), fill=MUTED, anchor="rm")
    elif outcome is not None:
        d.text(
            (16, y + 30),
            outcome.text.ja,
            font=font(_fit(outcome.text.ja, WIDTH - 32, 16)),
            fill=TEXT,
            anchor="lm",
        )
        d.text(
            (16, y + 66),
            outcome.text.en,
            font=font(_fit(outcome.text.en, WIDTH - 32, 15)),
            fill=MUTED,
            anchor="lm",
        )
    else:
        hint = _hint(state)
        d.text(
            (16, y + 30), hint[0], font=font(_fit(hint[0], WIDTH - 32, 16)), fill=TEXT, anchor="lm"
        )
        d.text(
            (16, y + 66), hint[1], font=font(_fit(hint[1], WIDTH - 32, 15)), fill=MUTED, anchor="lm"
        )
    del img


def _hint(state: YosukoState) -> tuple[str, str]:
    """What the last card did (when no judgement), else what the player does next."""
    card = state.last_card
    if card is not None and card < MINORS:
        name = card_name(card)
        for line in range(1, 7):
            if card in state.stacks[line - 1]:
                return (
                    f"{name} を {line}（{LINE_JA[line]}）のカード群に加えた",
                    f"{name} went onto line {line}'s stack; the token is on {state.token}.",
                )
    if card is not None and card >= MINORS:
        return (
            f"{MAJORS[card - MINORS].ja}が出た：捨て札を混ぜ直して {state.round} 回目",
            f"{MAJORS[card - MINORS].en} came up: discards reshuffled, round {state.round}.",
        )
    if state.phase == "start":
        return (
            "トークンを置く爻を選ぶ：上卦 4–6 なら愚者、下卦 1–3 なら死神が山に入る",
            "Choose the token's line: upper 4–6 shuffles in The Fool, lower 1–3 Death.",
        )
    if state.phase == "deal":
        return ("大アルカナを配っています", "Dealing the major arcana.")
    return ("カードを引いてください", "Draw a card.")


def locate(state: YosukoState, viewer: int | None, line: int) -> Spot:
    """Where a teaching mark of line ``line`` (1-6) goes: a badge on its card's lower right
    corner, so the card stays readable."""
    x, y = SLOTS[line]
    return x + CARD_W - 6, y + CARD_H - 6, 18


RENDERERS = {GAME.id: renderer(YosukoState, render, locate)}
IMAGES = {GAME.id: renderer(YosukoState, compose, locate)}
LOCATORS: dict[str, Locate[Any]] = {GAME.id: locate}
"""Where each game draws a cell (the site's buttons over the picture: issue 51, 2)."""

# --- samples -----------------------------------------------------------------------------------


def _play(state: YosukoState, *moves: str) -> YosukoState:
    for text in moves:
        state = state.apply(state.parse_move(text))
    return state


def _sample_positions() -> list[tuple[str, YosukoState]]:
    """A few meaningful tables (file stem, state), for docs/images."""
    deal = _play(
        GAME.new_game(),
        "deal XVIIr",
        "deal VIII",
        "deal III",
        "deal XIr",
        "deal XIXr",
        "deal VI",
    )
    out = [("yosuko-start", deal)]
    mid = GAME.from_position(
        f"{','.join(_names(deal))} 2 2 C3,C8/CQ,C4/C1/P9,P2/P5/PK S4,W10,P6,W3 1 card 30"
    )
    out.append(("yosuko-stack", _play(mid, "C6")))
    out.append(("yosuko-judgement", _play(mid, "S9")))
    upper = GAME.from_position(
        f"{','.join(_names(deal))} 2 5 C3,C8/CQ,C4/C1/P9,P2/P5/PK S4,W10,P6,W3 1 card 40"
    )
    out.append(("yosuko-blocked", _play(upper, "S2")))
    end = GAME.from_position(
        f"{','.join(_names(deal))} 2 5 C8/C4/C1,C10/P9,P2/P5,P3/PK,P7 S4,W10,P6,W3,S1,CQ,C3 "
        "1 card 50"
    )
    out.append(("yosuko-win", _play(end, "XIII")))
    return out


def samples() -> dict[str, bytes]:
    """A few meaningful tables, for docs/images (file stem -> PNG)."""
    return {stem: render(state, names=SAMPLE_NAMES) for stem, state in _sample_positions()}


def _names(state: YosukoState) -> list[str]:
    return [major_name(c) for c in state.lines]
