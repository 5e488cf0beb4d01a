"""Issue 47: a whole game of every rule set through the Discord double, as cards. Alice plays
random legal moves (as `/move`'s autocomplete offers them) against the computer until the game
ends or she resigns; the double refuses any card over Discord's limits, so every post of the game
was a valid card. At the end the thread is cards only, the result card alone holds buttons, and
the channel has one line for the game."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.model import GameStatus
from engines import all_games
from tests.bot.conftest import Harness
from tests.discord_double import DiscordDouble
from tests.helpers import game_of, public

LAYOUT = 1 << 15
MOVES = 40
"""Alice's moves before she resigns a game that is still going."""


def _options(game: str, double: DiscordDouble) -> dict[str, Any]:
    if game == "yosuko":
        return {}
    if game == "sangokushi":
        return {"ai_seats": 2, "level": 1}
    return {"opponent": double.bot_user, "level": 1}


@pytest.mark.parametrize("game", [g.id for g in all_games()])
async def test_a_whole_game_as_cards(harness: Harness, double: DiscordDouble, game: str) -> None:
    rng = random.Random(game)
    # the test plays far faster than people do (dozens of moves a second, the computer's at
    # once): Discord's global 50 requests a second is not what it is about (issue 49's test is)
    double.limits.global_per_second = None
    started = await double.slash(double.alice, "play", {game: _options(game, double)})
    assert not started.ephemeral, started.text
    (thread,) = await double.wait_for(double.threads)
    thread_id = int(thread["id"])
    first = await double.wait_for_message(thread_id, lambda m: bool(double.buttons(m)))
    gid = game_of(first)
    service = harness.service
    assert service is not None
    if game == "suji-shogi":
        await double.slash(double.alice, "setup", {"text": "321/654"}, channel=thread_id)

    def over() -> bool:
        loaded = service.ctx.games.cached(gid)
        return loaded is not None and loaded.status is not GameStatus.ACTIVE

    def hers() -> bool:
        loaded = service.ctx.games.cached(gid)
        if loaded is None or loaded.status is not GameStatus.ACTIVE:
            return False
        return double.alice.id in {int(u) for u in loaded.user_ids(loaded.acting_seats())}

    for _ in range(MOVES):
        await double.wait_for(lambda: hers() or over())
        if over():
            break
        offered = await double.autocomplete(
            double.alice, "move", {"notation": ""}, "notation", channel=thread_id
        )
        move = rng.choice(offered.choices)["value"]
        moved = await double.slash(double.alice, "move", {"notation": move}, channel=thread_id)
        assert not moved.ephemeral, moved.text
    if not over():
        await double.slash(double.alice, "resign", channel=thread_id)
    await double.wait_for(over)

    # The thread is cards only; the newest is the result card and alone holds buttons.
    def settled() -> list[dict[str, Any]] | None:
        cards = [m for m in double.channel_messages(thread_id) if double.buttons(m)]
        return cards if len(cards) == 1 and "Rematch" in double.buttons(cards[0]) else None

    (result,) = await double.wait_for(settled)
    posts = [m for m in double.channel_messages(thread_id) if public(m)]
    assert posts and all(int(m["flags"]) & LAYOUT for m in posts)
    assert "place" in double.text_of(result) or game == "yosuko"
    # One line in the channel for the game; Discord refused nothing the bot sent.
    assert len([m for m in double.channel_messages(double.channel_id) if public(m)]) == 1
    assert not [r for r in double.requests if r.status >= 400]
