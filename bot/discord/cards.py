"""Banmen's one card: every message the bot posts is a Components V2 layout built here.

A card is a container (its accent the wood of a shogi board while someone is to act, grey once
nothing is) holding, in this order: what happened (the reply's text), the picture in a media
gallery with the position in words as its description (Discord reads it to screen readers), the
record files, a part per seat (side, player, an arrow on the seats to act, the hand), whose turn
it is and until when, the buttons (each a restart-proof
``DynamicItem``), and the delivery mark (``#12 · 35``, small) by which the delivery loop finds
an announcement already posted after a crash. The users a card pings stand above the container,
where Discord's notification shows them. Discord refuses a card of more than 40 components or
4,000 characters of text: :func:`build` cuts buttons, then text, to fit, so no card is refused.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import discord

WOOD = discord.Colour(0xC8A24A)
"""The accent of a card where someone is to act (the wood of a shogi board)."""
STONE = discord.Colour(0x8A8F98)
"""The accent of a card where nobody is (a finished game, a menu, a result)."""
MAX_COMPONENTS = 40
MAX_TEXT = 4000
TEXT_DISPLAY = discord.ComponentType.text_display
ROW = 5
"""Buttons an action row holds."""


@dataclass(frozen=True, slots=True)
class Picture:
    """An uploaded picture the card shows: its file name and its description."""

    name: str
    alt: str


@dataclass(frozen=True, slots=True)
class CardText:
    """What a card says, in its order (every part may be empty)."""

    pings: str = ""
    body: str = ""
    seats: tuple[str, ...] = ()
    extra: tuple[str, ...] = ()
    turn: str = ""
    mark: str = ""
    active: bool = False


class Card(discord.ui.LayoutView):
    """A posted card (persistent: its buttons are dynamic items, which answer their own errors
    through :class:`bot.discord.views.Persistent`, so it never times out)."""

    def __init__(self) -> None:
        super().__init__(timeout=None)


def _rows(items: Sequence[discord.ui.Item[Any]]) -> list[discord.ui.ActionRow[Any]]:
    """Buttons five to a row; a select menu alone in its row."""
    rows: list[discord.ui.ActionRow[Any]] = []
    buttons: list[discord.ui.Item[Any]] = []
    for item in items:
        if isinstance(_inner(item), discord.ui.Select):
            rows.append(discord.ui.ActionRow(item))
            continue
        buttons.append(item)
    chunks = [buttons[i : i + ROW] for i in range(0, len(buttons), ROW)]
    return [discord.ui.ActionRow(*chunk) for chunk in chunks] + rows


def _inner(item: discord.ui.Item[Any]) -> discord.ui.Item[Any]:
    return item.item if isinstance(item, discord.ui.DynamicItem) else item


def _count(items: Sequence[discord.ui.Item[Any]]) -> int:
    """Components the buttons take: each one, and each row."""
    return len(items) + len(_rows(items))


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: max(0, limit - 1)] + "…"


def build(
    text: CardText,
    *,
    picture: Picture | None = None,
    files: Iterable[str] = (),
    items: Sequence[discord.ui.Item[Any]] = (),
) -> Card:
    """The card: ``text`` in its parts, the picture and files (by their uploaded names) and the
    buttons ``items``, cut to Discord's limits (the last buttons first, then the body's end)."""
    files = list(files)
    fixed = 1 + bool(text.pings) + 1 + bool(picture) + len(files)  # container, texts, media
    fixed += len([p for p in (*text.seats, *text.extra, text.turn, text.mark) if p])
    shown = list(items)
    while shown and fixed + 1 + _count(shown) > MAX_COMPONENTS:  # (+1: the separator)
        shown.pop()
    mark = f"-# {text.mark}" if text.mark else ""
    others = sum(len(p) for p in (text.pings, *text.seats, *text.extra, text.turn, mark))
    body = _clip(text.body or "\u200b", MAX_TEXT - others)

    inside: list[discord.ui.Item[Any]] = [discord.ui.TextDisplay(body)]
    if picture is not None:
        item = discord.MediaGalleryItem(f"attachment://{picture.name}", description=picture.alt)
        inside.append(discord.ui.MediaGallery(item))
    inside += [discord.ui.File(f"attachment://{name}") for name in files]
    inside += [discord.ui.TextDisplay(seat) for seat in text.seats if seat]
    inside += [discord.ui.TextDisplay(line) for line in text.extra if line]
    if text.turn:
        inside.append(discord.ui.TextDisplay(text.turn))
    if shown:
        inside.append(discord.ui.Separator())
        inside += _rows(shown)
    if mark:
        inside.append(discord.ui.TextDisplay(mark))
    card = Card()
    if text.pings:
        card.add_item(discord.ui.TextDisplay(text.pings))
    card.add_item(discord.ui.Container(*inside, accent_colour=WOOD if text.active else STONE))
    return card


def texts_of(components: Iterable[Any]) -> list[str]:
    """Every text display's content in a posted message's components (discord.py's parsed
    components, at any depth), in order."""
    out: list[str] = []
    for c in components:
        content = getattr(c, "content", None)
        if isinstance(content, str) and getattr(c, "type", None) == TEXT_DISPLAY:
            out.append(content)
        for attr in ("children", "components"):
            inner = getattr(c, attr, None)
            if isinstance(inner, list):
                out += texts_of(inner)
    return out
