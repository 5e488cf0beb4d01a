"""Components V2 as the Discord double checks them (issue 47, 5): a message whose flags carry
``IS_COMPONENTS_V2`` (1 << 15) is a layout of components, and Discord refuses one that breaks
its rules with a 400 (code 50035, Invalid Form Body), saying where:

- no ``content``, ``embeds``, ``sticker_ids`` or ``poll`` beside the flag, and the layout
  components (types 9-17) only with it;
- at the top: action rows (1), sections (9), text displays (10), media galleries (12), files
  (13), separators (14) and containers (17); in a container the same but containers;
- a section holds 1 to 3 text displays and one accessory, a thumbnail (11) or a button (2); an
  action row holds 1 to 5 buttons or one select menu;
- at most 40 components in all, counted at every depth, and at most 4,000 characters of text
  in all its text displays;
- a media gallery holds 1 to 10 items; every ``attachment://name`` (a gallery item, a
  thumbnail, a file) names a file uploaded with the message (or kept by it, for an edit);
- a message sent with the flag keeps it: an edit cannot take it away.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

IS_COMPONENTS_V2 = 1 << 15
MAX_COMPONENTS = 40
MAX_TEXT = 4000
LAYOUT_TYPES = frozenset({9, 10, 11, 12, 13, 14, 17})
TOP = frozenset({1, 9, 10, 12, 13, 14, 17})
IN_CONTAINER = TOP - {17}
SELECTS = frozenset({3, 5, 6, 7, 8})

JSON = dict[str, Any]


class Invalid(Exception):
    """What Discord would say of a bad layout (the path of the part and why)."""


def _walk(components: Iterable[JSON]) -> Iterable[JSON]:
    for c in components:
        yield c
        yield from _walk(c.get("components") or [])
        if isinstance(c.get("accessory"), dict):
            yield c["accessory"]


def _media(url: Any, names: set[str], where: str) -> None:
    if not isinstance(url, str) or not url:
        raise Invalid(f"{where}: a media item needs a url")
    if url.startswith("attachment://") and url.removeprefix("attachment://") not in names:
        raise Invalid(f"{where}: {url} names no file of this message")


def _check(c: JSON, allowed: frozenset[int], names: set[str], where: str) -> None:
    kind = c.get("type")
    if kind not in allowed:
        raise Invalid(f"{where}: a component of type {kind} cannot stand here")
    children = c.get("components") or []
    if kind == 1:
        if not 1 <= len(children) <= 5:
            raise Invalid(f"{where}: an action row holds 1 to 5 components")
        kinds = {ch.get("type") for ch in children}
        if not (kinds == {2} or (len(children) == 1 and kinds <= SELECTS)):
            raise Invalid(f"{where}: an action row holds buttons or one select menu")
    elif kind == 9:
        if not 1 <= len(children) <= 3 or any(ch.get("type") != 10 for ch in children):
            raise Invalid(f"{where}: a section holds 1 to 3 text displays")
        accessory = c.get("accessory")
        if not isinstance(accessory, dict) or accessory.get("type") not in (2, 11):
            raise Invalid(f"{where}: a section needs a thumbnail or a button beside it")
        if accessory.get("type") == 11:
            _media((accessory.get("media") or {}).get("url"), names, f"{where}.accessory")
    elif kind == 10:
        if not isinstance(c.get("content"), str) or not c["content"]:
            raise Invalid(f"{where}: a text display needs content")
    elif kind == 12:
        items = c.get("items") or []
        if not 1 <= len(items) <= 10:
            raise Invalid(f"{where}: a media gallery holds 1 to 10 items")
        for i, item in enumerate(items):
            _media((item.get("media") or {}).get("url"), names, f"{where}.items[{i}]")
            if len(str(item.get("description") or "")) > 1024:
                raise Invalid(f"{where}.items[{i}]: a description is at most 1024 characters")
    elif kind == 13:
        url = (c.get("file") or {}).get("url", "")
        if not str(url).startswith("attachment://"):
            raise Invalid(f"{where}: a file component shows an uploaded file (attachment://)")
        _media(url, names, where)
    elif kind == 17:
        for i, child in enumerate(children):
            _check(child, IN_CONTAINER, names, f"{where}.components[{i}]")


def check(body: JSON, files: Iterable[str], existing: JSON | None = None) -> None:
    """Raise :class:`Invalid` when ``body`` (a message's create or edit payload, with the names
    of the files it uploads; ``existing``: the message an edit changes) breaks the rules."""
    flags = body.get("flags")
    was = int((existing or {}).get("flags") or 0) & IS_COMPONENTS_V2
    if existing is not None and was and flags is not None and not int(flags) & IS_COMPONENTS_V2:
        raise Invalid("flags: a message sent as components cannot lose IS_COMPONENTS_V2")
    layout = bool(int(flags or 0) & IS_COMPONENTS_V2) or bool(was)
    components = body.get("components")
    if not layout:
        if any(c.get("type") in LAYOUT_TYPES for c in _walk(components or [])):
            raise Invalid("components: layout components need the IS_COMPONENTS_V2 flag")
        return
    for field in ("content", "embeds", "sticker_ids", "poll"):
        if body.get(field):
            raise Invalid(f"{field}: not allowed with IS_COMPONENTS_V2")
    if components is None:
        return  # an edit that changes no component
    names = set(files) | {str(a.get("filename")) for a in (existing or {}).get("attachments") or []}
    for i, c in enumerate(components):
        _check(c, TOP, names, f"components[{i}]")
    every = list(_walk(components))
    if len(every) > MAX_COMPONENTS:
        raise Invalid(f"components: {len(every)} components, at most {MAX_COMPONENTS}")
    text = sum(len(c.get("content") or "") for c in every if c.get("type") == 10)
    if text > MAX_TEXT:
        raise Invalid(f"components: {text} characters of text, at most {MAX_TEXT}")
