"""The Discord double checks Components V2 as Discord does (issue 47, 5): a layout message
with its flag, a media gallery pointing at the uploaded picture, buttons inside a container,
passes (sent by discord.py's own ``LayoutView``); content beside the flag, layout parts without
it, 41 components, 4,001 characters of text, a gallery naming no uploaded file, and an edit that
drops the flag are each refused with Discord's 400 (50035)."""

from __future__ import annotations

import io
import json
from typing import Any

import aiohttp
import discord

from tests.bot.conftest import Harness
from tests.discord_double import DiscordDouble
from tests.discord_double.layout import IS_COMPONENTS_V2
from tests.helpers import PNG


def _text(content: str) -> dict[str, Any]:
    return {"type": 10, "content": content}


def _card(*parts: dict[str, Any]) -> dict[str, Any]:
    return {"flags": IS_COMPONENTS_V2, "components": [{"type": 17, "components": list(parts)}]}


GALLERY = {"type": 12, "items": [{"media": {"url": "attachment://board.png"}, "description": "x"}]}
BUTTON_ROW = {
    "type": 1,
    "components": [{"type": 2, "style": 2, "label": "Resign", "custom_id": "banmen:resign:1"}],
}


async def _post(
    double: DiscordDouble,
    payload: dict[str, Any],
    *,
    with_file: bool = True,
    mid: int | None = None,
) -> tuple[int, dict[str, Any]]:
    """A raw create (or edit, ``mid``) of a message in the double's channel, as the bot."""
    url = f"{double.api_base}/channels/{double.channel_id}/messages"
    form = aiohttp.FormData()
    if with_file:
        payload = {**payload, "attachments": [{"id": 0, "filename": "board.png"}]}
    form.add_field("payload_json", json.dumps(payload), content_type="application/json")
    if with_file:
        form.add_field("files[0]", PNG + b"\0" * 8, filename="board.png", content_type="image/png")
    headers = {"Authorization": f"Bot {double.token}"}
    async with aiohttp.ClientSession() as http:
        if mid is None:
            async with http.post(url, data=form, headers=headers) as answer:
                return answer.status, await answer.json()
        async with http.patch(f"{url}/{mid}", data=form, headers=headers) as answer:
            return answer.status, await answer.json()


async def test_a_card_passes_and_a_broken_one_is_refused(
    harness: Harness, double: DiscordDouble
) -> None:
    status, card = await _post(double, _card(_text("Game #1 · Black to move"), GALLERY, BUTTON_ROW))
    assert status == 200 and card["flags"] & IS_COMPONENTS_V2
    refusals = {
        "content beside the flag": {**_card(_text("a")), "content": "hello"},
        "a layout without the flag": {"components": [_text("a")]},
        "41 components": _card(*[_text(str(i)) for i in range(40)]),
        "4,001 characters": _card(_text("a" * 4000), _text("b")),
        "a gallery naming no file": _card(
            {"type": 12, "items": [{"media": {"url": "attachment://other.png"}}]}
        ),
        "a section without an accessory": _card({"type": 9, "components": [_text("a")]}),
        "six buttons in a row": _card({**BUTTON_ROW, "components": BUTTON_ROW["components"] * 6}),
    }
    for why, payload in refusals.items():
        status, said = await _post(double, payload)
        assert status == 400 and said["code"] == 50035, why
    # an edit cannot turn a card back into a plain message
    status, said = await _post(double, {"flags": 0, "content": "plain"}, mid=int(card["id"]))
    assert status == 400 and said["code"] == 50035
    # ... but may change its parts, its file kept
    status, edited = await _post(
        double,
        _card(_text("Game #1 · White to move"), GALLERY),
        with_file=False,
        mid=int(card["id"]),
    )
    assert status == 200 and "White to move" in json.dumps(edited["components"])


async def test_discord_py_layout_view_is_accepted(harness: Harness, double: DiscordDouble) -> None:
    """discord.py's own LayoutView (what the cards will be built with) passes the double."""
    assert harness.bot is not None
    channel = harness.bot.get_channel(double.channel_id) or await harness.bot.fetch_channel(
        double.channel_id
    )
    assert isinstance(channel, discord.TextChannel)

    class Card(discord.ui.LayoutView):
        container: discord.ui.Container[Any] = discord.ui.Container(
            discord.ui.TextDisplay("Game #1 · Black to move"),
            discord.ui.MediaGallery(
                discord.MediaGalleryItem("attachment://board.png", description="the board")
            ),
            accent_colour=discord.Colour(0x3B2F20),
        )

    picture = discord.File(io.BytesIO(PNG + b"\0" * 8), filename="board.png")
    sent = await channel.send(view=Card(), file=picture)
    stored = double.messages[sent.id]
    assert stored["flags"] & IS_COMPONENTS_V2 and stored["components"][0]["type"] == 17
    assert not [r for r in double.requests if r.status >= 400]
