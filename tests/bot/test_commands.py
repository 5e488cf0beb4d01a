"""The other commands end to end: draw, takeback, record, games, abort, settings, errors."""

from __future__ import annotations

import json
import logging

import discord
import pytest

from tests.bot.conftest import Harness
from tests.discord_double import DiscordDouble
from tests.helpers import start_challenge


async def _first_move(double: DiscordDouble, thread_id: int, turn: dict[str, object]) -> tuple:  # type: ignore[type-arg]
    to_move = double.alice if double.alice.mention in double.text_of(turn) else double.bob
    other = double.bob if to_move is double.alice else double.alice
    move = (
        await double.autocomplete(to_move, "move", {"notation": ""}, "notation", channel=thread_id)
    ).choices[0]["value"]
    played = await double.slash(to_move, "move", {"notation": move}, channel=thread_id)
    assert not played.ephemeral
    return to_move, other, played


async def test_draw_offer_and_accept_with_buttons(harness: Harness, double: DiscordDouble) -> None:
    thread_id, turn = await start_challenge(double)
    to_move, other, _ = await _first_move(double, thread_id, turn)
    offer = await double.slash(to_move, "draw", {}, channel=thread_id)
    assert not offer.ephemeral
    assert offer.message is not None
    buttons = double.buttons(offer.message)
    assert "Accept draw" in buttons
    # The offerer cannot accept their own offer.
    own = await double.click(to_move, offer.message, buttons["Accept draw"])
    assert own.ephemeral
    agreed = await double.click(other, offer.message, buttons["Accept draw"])
    assert not agreed.ephemeral
    assert agreed.message is not None
    assert agreed.message["mentions"] == []


async def test_takeback_record_games(harness: Harness, double: DiscordDouble) -> None:
    thread_id, turn = await start_challenge(double)
    to_move, other, _ = await _first_move(double, thread_id, turn)
    back = await double.slash(to_move, "takeback", {}, channel=thread_id)
    assert back.response_time < 3.0
    assert back.text

    record = await double.slash(other, "record", {}, channel=thread_id)
    names = [f.filename for f in record.files]
    assert any(n.endswith(".json") for n in names)
    data = next(f.data for f in record.files if f.filename.endswith(".json"))
    assert json.loads(data)["game"] == "rokumentai"

    games = await double.slash(other, "games", {})
    assert games.ephemeral
    assert "#" in games.text
    assert f"https://discord.com/channels/{double.guild_id}/{thread_id}" in games.text

    # /board outside the thread needs the game option; with it, it works.
    nowhere = await double.slash(double.carol, "board", {})
    assert nowhere.ephemeral
    game_id = int(thread_id and double.channels[thread_id]["name"].split()[0].lstrip("#"))
    board = await double.slash(double.carol, "board", {"game": game_id})
    assert board.files


async def test_abort_needs_manage_threads(harness: Harness, double: DiscordDouble) -> None:
    thread_id, _ = await start_challenge(double)
    assert int(double.command("abort")["default_member_permissions"]) == 1 << 34
    refused = await double.slash(double.bob, "abort", {}, channel=thread_id)
    assert refused.ephemeral
    assert "スレッドの管理" in refused.text  # bob reads Japanese
    game_id = int(double.channels[thread_id]["name"].split()[0].lstrip("#"))
    aborted = await double.slash(double.mod, "abort", {"game": game_id}, channel=thread_id)
    assert not aborted.ephemeral
    assert aborted.message is not None and aborted.message["mentions"] == []


async def test_settings_language_changes_public_messages(
    harness: Harness, double: DiscordDouble
) -> None:
    refused = await double.slash(double.alice, "settings", {"key": "lang", "value": "ja"})
    assert refused.ephemeral
    shown = await double.slash(double.owner, "settings", {})
    assert shown.ephemeral and "lang" in shown.text
    await double.slash(double.owner, "settings", {"key": "lang", "value": "ja"})
    lobby = await double.slash(double.alice, "play", {"rokumentai": {}})
    assert lobby.message is not None
    assert "募集" in lobby.text
    assert {"参加", "開始", "取消"} <= set(double.buttons(lobby.message))
    # alice's client is English: her private refusals stay English.
    early = await double.click(double.alice, lobby.message, double.buttons(lobby.message)["開始"])
    assert early.ephemeral
    assert early.text.isascii() or "#" in early.text


async def test_unexpected_error_is_logged_and_answered(
    harness: Harness, double: DiscordDouble, caplog: pytest.LogCaptureFixture
) -> None:
    thread_id, turn = await start_challenge(double)
    assert harness.service is not None

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the database caught fire")

    harness.service.play.resign = broken  # type: ignore[method-assign,assignment]
    with caplog.at_level(logging.ERROR, logger="banmen"):
        slash = await double.slash(double.alice, "resign", {}, channel=thread_id)
        click = await double.click(double.alice, turn, double.buttons(turn)["Resign"])
    assert slash.ephemeral and "Sorry" in slash.text
    assert click.ephemeral and "Sorry" in click.text
    assert "database caught fire" in caplog.text
    assert double.token not in caplog.text
    # The bot is still alive and answering.
    assert (await double.slash(double.alice, "games", {})).ephemeral


async def test_autocomplete_after_restart(harness: Harness, double: DiscordDouble) -> None:
    thread_id, turn = await start_challenge(double)
    to_move = double.alice if double.alice.mention in double.text_of(turn) else double.bob
    await harness.restart()
    answer = await double.autocomplete(
        to_move, "move", {"notation": "四"}, "notation", channel=thread_id
    )
    assert answer.response_time < 3.0
    assert answer.choices and all("四" in c["value"] for c in answer.choices)


async def test_a_move_takeback_loop_is_cut_off(harness: Harness, double: DiscordDouble) -> None:
    """The loop that posted 400 pictures and 200 pings: after the limit a takeback is refused
    privately, and nothing more reaches the thread."""
    thread_id, turn = await start_challenge(double)
    mover = double.alice if double.alice.mention in double.text_of(turn) else double.bob
    limit = harness.settings.takeback_limit
    for _ in range(limit):
        await _first_move(double, thread_id, turn)
        back = await double.slash(mover, "takeback", {}, channel=thread_id)
        assert not back.ephemeral and back.files
    await _first_move(double, thread_id, turn)

    def public() -> int:
        return sum(not int(m.get("flags") or 0) & 64 for m in double.channel_messages(thread_id))

    posted = public()
    refused = await double.slash(mover, "takeback", {}, channel=thread_id)
    assert refused.ephemeral
    assert f"at most {limit} a game" in refused.text
    assert public() == posted


async def test_a_global_sync_keeps_the_activity_entry_point(
    harness: Harness, double: DiscordDouble
) -> None:
    """Enabling Activities makes a global Entry Point command ("Launch", type 4) that discord.py
    does not know; Discord refuses a bulk overwrite dropping it (50240), which would leave no
    command synced. The bot's global sync carries it along (issue 51, 3)."""
    bot = harness.bot
    assert bot is not None
    entry = double.add_entry_point()
    with pytest.raises(discord.HTTPException) as refused:
        await bot.tree.sync()  # what discord.py alone sends
    assert refused.value.code == 50_240
    synced = await bot.sync_global_commands()
    names = {c["name"]: c for c in double.commands[None]}
    assert names["launch"]["type"] == 4 and names["launch"]["handler"] == entry["handler"]
    assert {c.name for c in synced} == set(names) - {"launch"} and "open" in names
    assert names["open"]["name_localizations"] == {"ja": "盤を開く"}
