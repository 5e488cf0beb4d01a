"""Ratings through the Discord double: the change in the end message, ``/rating``, and
``/leaderboard`` with page buttons that still work after a restart."""

from __future__ import annotations

from typing import Any

from bot.service import GameService, User
from tests.bot.conftest import Harness
from tests.discord_double import DiscordDouble, payloads
from tests.helpers import start_challenge


def description(message: dict[str, Any]) -> str:
    return payloads.text_of(message)


async def rated_games(service: GameService, guild: str, pairs: int) -> None:
    """``pairs`` games of 六面体 between new players, each resigned by its second player."""
    for i in range(pairs):
        a = User(str(9000 + 2 * i), f"player{2 * i:02d}")
        b = User(str(9001 + 2 * i), f"player{2 * i + 1:02d}")
        reply = await service.play.create_game(a, "rokumentai", seated=[b], guild_id=guild)
        assert reply.game_id is not None
        await service.play.resign(reply.game_id, b)


async def test_end_message_and_profile(harness: Harness, double: DiscordDouble) -> None:
    thread_id, _ = await start_challenge(double)
    resigned = await double.slash(double.alice, "resign", {}, channel=thread_id)
    assert not resigned.ephemeral
    assert "Rating: Alice 1000? →" in resigned.text
    assert "Bob 1000? →" in resigned.text
    mine = await double.slash(double.alice, "rating", {})
    assert mine.ephemeral  # issue 52: private unless shared
    shared = await double.slash(double.alice, "rating", {"share": True})
    assert not shared.ephemeral and "Ratings of Alice" in shared.text
    assert "Ratings of Alice" in mine.text and "Rokumentai" in mine.text
    assert "1 rated game (0 wins, 1 loss, 0 draws)" in mine.text
    assert "vs Bob: lost, 1000? →" in mine.text
    theirs = await double.slash(double.carol, "rating", {"user": double.bob, "game": "rokumentai"})
    assert "Ratings of Bob" in theirs.text and "(1 win, 0 losses, 0 draws)" in theirs.text
    assert not double.unhandled


async def test_leaderboard_pages_survive_a_restart(harness: Harness, double: DiscordDouble) -> None:
    assert harness.service is not None
    await rated_games(harness.service, str(double.guild_id), 12)
    # Everyone is provisional after one game: the default board is empty, and says why.
    empty = await double.slash(double.alice, "leaderboard", {"game": "rokumentai"})
    assert "Nobody is on the Rokumentai leaderboard (this server) yet" in empty.text
    assert empty.message is not None and not double.buttons(empty.message)

    board = await double.slash(
        double.alice, "leaderboard", {"game": "rokumentai", "scope": "global", "provisional": True}
    )
    assert not board.ephemeral and board.response_time < 3.0
    message = board.message
    assert message is not None
    assert "page 1 of 3; 24 players" in description(message)
    assert "1. player00" in description(message)
    buttons = double.buttons(message)
    assert set(buttons) == {"◀ Previous", "Next ▶"}

    turned = await double.click(double.bob, message, buttons["Next ▶"])
    assert turned.response_time < 3.0 and not turned.ephemeral
    now = double.messages[int(message["id"])]
    assert "page 2 of 3" in description(now) and "11. " in description(now)

    # After a restart the buttons on the message still work (their ids carry everything).
    await harness.restart()
    back = double.buttons(now)
    await double.click(double.carol, now, back["◀ Previous"])
    again = double.messages[int(message["id"])]
    assert "page 1 of 3" in description(again) and "1. player00" in description(again)
    assert all(i.response_time < 3.0 for i in double.interactions.values())
    assert not double.unhandled
    assert not [r for r in double.requests if r.status >= 400]


async def test_casual_game_from_play(harness: Harness, double: DiscordDouble) -> None:
    challenge = await double.slash(
        double.alice, "play", {"rokumentai": {"opponent": double.bob, "rated": False}}
    )
    assert challenge.message is not None
    await double.click(double.bob, challenge.message, double.buttons(challenge.message)["Accept"])
    thread = (await double.wait_for(lambda: double.threads()))[0]
    resigned = await double.slash(double.alice, "resign", {}, channel=int(thread["id"]))
    assert "resigned" in resigned.text and "Rating" not in resigned.text
    assert "no rated games" in (await double.slash(double.alice, "rating", {})).text
