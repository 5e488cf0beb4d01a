"""``/vacation`` through the Discord double: a private answer, a notice in the game's thread."""

from __future__ import annotations

from tests.bot.conftest import Harness
from tests.discord_double import DiscordDouble


async def test_vacation_on_and_off_through_discord(harness: Harness, double: DiscordDouble) -> None:
    challenge = await double.slash(
        double.alice, "play", {"rokumentai": {"opponent": double.bob, "clock": "corr:3"}}
    )
    assert challenge.message is not None
    await double.click(double.bob, challenge.message, double.buttons(challenge.message)["Accept"])
    thread_id = int((await double.wait_for(double.threads))[0]["id"])
    turn = await double.wait_for_message(thread_id, lambda m: bool(m["attachments"]))
    away = double.alice if double.alice.mention in turn["content"] else double.bob
    other = double.bob if away is double.alice else double.alice

    answer = await double.slash(away, "vacation", {"on": {"until": "2d"}})
    assert answer.ephemeral and "vacation" in answer.text
    notice = await double.wait_for_message(
        thread_id, lambda m: "on vacation" in str(m["embeds"]), after=int(turn["id"])
    )
    listed = await double.slash(other, "games", {})
    assert listed.ephemeral and "（1）" in listed.text and "まで休暇中" in listed.text  # bob: ja

    again = await double.slash(away, "vacation", {"on": {}})
    assert again.ephemeral and "already on vacation" in again.text

    back = await double.slash(away, "vacation", {"off": {}})
    assert back.ephemeral and "Welcome back" in back.text
    await double.wait_for_message(
        thread_id, lambda m: "is back" in str(m["embeds"]), after=int(notice["id"])
    )
