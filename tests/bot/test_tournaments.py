"""Tournaments through the Discord double: create, Join buttons edited in place, start, rounds
posted as games end, refusals kept private."""

from __future__ import annotations

from bot.service import User
from tests.bot.conftest import Harness
from tests.discord_double import DiscordDouble


async def test_a_round_robin_runs_through_discord(harness: Harness, double: DiscordDouble) -> None:
    refused = await double.slash(
        double.alice, "tournament", {"create": {"game": "rokumentai", "format": "round-robin"}}
    )
    assert refused.ephemeral  # alice may not manage the server: nothing is made
    created = await double.slash(
        double.owner,
        "tournament",
        {"create": {"game": "rokumentai", "format": "round-robin", "name": "Spring Cup"}},
    )
    message = created.message
    assert message is not None and not created.ephemeral
    assert "Spring Cup" in message["content"] or "Spring Cup" in str(message.get("embeds"))
    buttons = double.buttons(message)
    assert {"Join", "Leave", "Start"} <= set(buttons)
    for user in (double.alice, double.carol):
        joined = await double.click(user, message, buttons["Join"])
        assert not joined.ephemeral
    again = await double.click(double.alice, message, buttons["Join"])
    assert again.ephemeral  # already in: said privately
    shown = double.messages[int(message["id"])]
    assert "Carol" in str(shown)  # the sign-up message itself lists the players now

    started = await double.slash(double.owner, "tournament", {"start": {"tournament": 1}})
    assert not started.ephemeral
    threads = await double.wait_for(double.threads)
    assert len(threads) == 1  # three players: one game a round and a bye
    late = await double.click(double.bob, message, buttons["Join"])
    assert late.ephemeral

    service = harness.service
    assert service is not None
    boards = await service.ctx.store.boards(1)
    game_id = boards[0].game_id
    assert game_id is not None
    row = await service.game_info(game_id)
    seat = row.seats[0]
    await service.resign(game_id, User(seat.user_id or "", seat.name or ""))
    await double.wait_for(lambda: len(double.threads()) == 2)  # round two's game
    await double.wait_for(
        lambda: any("round 2" in str(m) for m in double.channel_messages(double.channel_id))
    )
