"""Alt text through the Discord double (issue 46): every picture the bot uploads carries the
position in words as its attachment description, naming the last move; a 数字将棋 picture
before the reveal says nothing of the other side's digits."""

from __future__ import annotations

from typing import Any

from tests.bot.conftest import Harness
from tests.discord_double import DiscordDouble
from tests.helpers import play_three, public, start_challenge, suji_game


def descriptions(double: DiscordDouble, thread_id: int) -> list[tuple[str, str | None]]:
    """Every picture in the thread as the double keeps it now: (file name, description)."""
    return [
        (a["filename"], a.get("description"))
        for m in double.channel_messages(thread_id)
        for a in m["attachments"]
        if a["filename"].endswith(".png")
    ]


def last_picture(double: DiscordDouble, thread_id: int) -> dict[str, Any]:
    pictured = [m for m in double.channel_messages(thread_id) if m["attachments"]]
    assert pictured
    return dict(pictured[-1]["attachments"][0])


async def test_every_picture_names_the_last_move(harness: Harness, double: DiscordDouble) -> None:
    thread_id, turn = await start_challenge(double)
    first = last_picture(double, thread_id)
    assert first["description"].startswith("Rokumentai, ply 0. Black to move.")
    for move, answer in await play_three(double, thread_id, turn):
        named = f"Last move: {move.lstrip('▲△')}."  # the canonical notation, without the mark
        (picture,) = answer.files
        assert picture.description is not None and named in picture.description
        assert len(picture.description) <= 1024
    # every picture posted in the thread is described (the last one names the last move)
    assert named in last_picture(double, thread_id)["description"]
    shown = [d for _, d in descriptions(double, thread_id)]
    assert len(shown) >= 4 and all(d is not None for d in shown)
    after_a_move = [d for d in shown if d and ", ply 0." not in d]
    assert len(after_a_move) >= 3 and all("Last move: " in d for d in after_a_move)


async def test_a_secret_setup_is_described_without_its_digits(
    harness: Harness, double: DiscordDouble
) -> None:
    first, mine = await suji_game(double, "123/456")
    second, other = await suji_game(double, "654/321")
    # alice's own picture (to her alone) names her digits, which differ between the games.
    (own,), (own_other,) = mine.files, other.files
    assert own.description and own_other.description
    assert "face down" not in own.description.split("White")[0]
    assert own.description != own_other.description
    # What anyone else reads is the same for both arrangements: no digit of alice's shows.
    for thread_id in (first, second):
        shown = [d for m in double.channel_messages(thread_id) if public(m) for d in words(m)]
        assert shown and all("Secret setup" in d for d in shown)
    assert public_words(double, first) == public_words(double, second)
    for viewer in (double.bob, double.carol):
        boards = [await double.slash(viewer, "board", {}, channel=t) for t in (first, second)]
        texts = [b.files[0].description for b in boards]
        assert texts[0] and texts[0] == texts[1]
        assert (
            "face down 3四, 2四, 1四" in texts[0] or "伏せ駒 3四、2四、1四" in texts[0]
        )  # bob reads Japanese


def words(message: dict[str, Any]) -> list[str]:
    return [str(a.get("description")) for a in message["attachments"]]


def public_words(double: DiscordDouble, thread_id: int) -> list[str]:
    return [d for m in double.channel_messages(thread_id) if public(m) for d in words(m)]
