"""The Discord double knows where an interaction comes from (issue 48, 4): a server, the bot's
DM, or a DM or group DM between people (context 2, no server, the user only, authorized by
the user's install); there it refuses the bot's own posts, allows five follow-ups a token and
lets a token expire after 15 minutes; a command is offered only where it allows itself."""

from __future__ import annotations

import aiohttp
import pytest

from tests.bot.conftest import Harness
from tests.discord_double import DiscordDouble


async def test_a_group_dm_is_reached_only_through_interactions(
    harness: Harness, double: DiscordDouble
) -> None:
    group = double.open_private(double.alice, double.bob, double.carol)
    asked = await double.slash(double.alice, "rules", {"game": "rokumentai"}, channel=group)
    payload = asked.payload
    assert payload["context"] == 2 and "guild_id" not in payload and "member" not in payload
    assert payload["user"]["id"] == str(double.alice.id)
    assert payload["authorizing_integration_owners"] == {"1": str(double.alice.id)}
    bot = {"Authorization": f"Bot {double.token}"}
    hook = f"{double.api_base}/webhooks/{double.application_id}/{asked.token}"
    async with aiohttp.ClientSession() as http:
        async with http.post(
            f"{double.api_base}/channels/{group}/messages", json={"content": "hi"}, headers=bot
        ) as posted:
            assert posted.status == 403 and (await posted.json())["code"] == 50001
        async with http.get(f"{double.api_base}/channels/{group}/messages", headers=bot) as read:
            assert read.status == 403
        already = sum(1 for r in asked.replies if r.kind == "followup")
        for n in range(5 - already):
            async with http.post(hook, json={"content": f"follow-up {n}"}) as sent:
                assert sent.status == 200
        async with http.post(hook, json={"content": "one too many"}) as sixth:
            assert sixth.status == 400 and (await sixth.json())["code"] == 40094
        later = await double.slash(double.bob, "rules", {"game": "rokumentai"}, channel=group)
        double.age(15 * 60 + 1)
        late = f"{double.api_base}/webhooks/{double.application_id}/{later.token}"
        async with http.post(late, json={"content": "too late"}) as expired:
            assert expired.status == 401 and (await expired.json())["code"] == 50027


async def test_commands_say_where_they_work(harness: Harness, double: DiscordDouble) -> None:
    dm = double.open_private(double.alice, double.bob)
    commands = {c["name"]: c for scope in double.commands.values() for c in scope}
    for name in ("play", "move", "learn", "puzzle", "rules", "review", "record", "rating"):
        assert 1 in commands[name]["integration_types"], name
        assert set(commands[name]["contexts"]) == {0, 1, 2}, name
    for name in ("settings", "tournament", "abort"):
        assert commands[name]["integration_types"] == [0], name
        assert commands[name]["contexts"] == [0], name
    with pytest.raises(KeyError, match="not offered"):
        await double.slash(double.alice, "settings", {}, channel=dm)
    # a server's leaderboard where there is no server: said so, and what works instead
    board = await double.slash(
        double.alice, "leaderboard", {"game": "rokumentai", "scope": "server"}, channel=dm
    )
    assert board.ephemeral and "every server" in board.text
    everywhere = await double.slash(double.alice, "leaderboard", {"game": "rokumentai"}, channel=dm)
    assert everywhere.text and "no server here" not in everywhere.text
