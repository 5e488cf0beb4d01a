"""The computer player through the Discord double: ``/play … opponent:@Banmen level:N``, a
computer seat in a three-player lobby, its moves posted in the thread after the human reply they
answer (pinging the next human), a pending AI turn played after a restart, and ``/hint``."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.service import InlineThinker, StepClock
from tests.bot.conftest import Harness
from tests.discord_double import DiscordDouble, payloads
from tests.discord_double.payloads import User, snowflake
from tests.helpers import Silent


def _says(text: str) -> Any:
    return lambda m: text in payloads.text_of(m)


async def _thread(double: DiscordDouble, before: set[str]) -> int:
    threads = await double.wait_for(lambda: [t for t in double.threads() if t["id"] not in before])
    return int(threads[0]["id"])


async def test_play_the_computer_in_a_thread(harness: Harness, double: DiscordDouble) -> None:
    started = await double.slash(
        double.alice, "play", {"rokumentai": {"opponent": double.bot_user, "level": 2}}
    )
    assert not started.ephemeral
    thread = await _thread(double, set())
    turn = await double.wait_for_message(thread, lambda m: bool(m["attachments"]))
    assert "Banmen AI Lv.2" in double.text_of(turn)
    assert double.alice.mention in double.text_of(turn)

    assert harness.bot is not None
    cog: Any = harness.bot.get_cog("ComputerCog")  # (the extension's own module: no isinstance)
    cog.posted.clear()
    moved = await double.slash(double.alice, "move", {"notation": "一01占"}, channel=thread)
    assert not moved.ephemeral and moved.message is not None
    # The computer's answer comes after alice's move, in the thread, with the board, and pings
    # only alice (whose turn it is again).
    answer = await double.wait_for_message(
        thread, _says("Banmen AI Lv.2: △"), after=int(moved.message["id"])
    )
    assert answer["attachments"]
    assert double.pinged(answer) == [double.alice.id]
    assert {int(u) for u in answer["allowed_mentions"].get("users", [])} == {double.alice.id}
    # It was reported to the outbox as posted: never posted again.
    assert harness.service is not None
    await asyncio.wait_for(cog.posted.wait(), 10)
    harness.clock.advance(minutes=5)
    assert await harness.service.pending_announcements() == []

    # Resigning ends it; the end message says it was a game against the computer.
    resigned = await double.slash(double.alice, "resign", channel=thread)
    assert "against the computer (level 2)" in resigned.text


async def test_other_bots_are_still_refused(harness: Harness, double: DiscordDouble) -> None:
    robot = User(snowflake(), "robot", bot=True)
    refused = await double.slash(double.alice, "play", {"rokumentai": {"opponent": robot}})
    assert refused.ephemeral and "not a bot" in refused.text


async def test_a_computer_seat_in_a_three_player_lobby(
    harness: Harness, double: DiscordDouble
) -> None:
    lobby = await double.slash(double.alice, "play", {"sangokushi": {"ai_seats": 1, "level": 3}})
    assert lobby.message is not None and not lobby.ephemeral
    assert "computer (level 3)" in lobby.text
    await double.click(double.bob, lobby.message, double.buttons(lobby.message)["Join"])
    thread = await _thread(double, set())
    first = await double.wait_for_message(thread, lambda m: bool(m["attachments"]))
    assert double.alice.mention in double.text_of(first)  # seats: alice, the computer, bob
    typed = await double.autocomplete(
        double.alice, "move", {"notation": ""}, "notation", channel=thread
    )
    moved = await double.slash(
        double.alice, "move", {"notation": typed.choices[0]["value"]}, channel=thread
    )
    assert moved.message is not None
    answer = await double.wait_for_message(
        thread, _says("Banmen AI Lv.3"), after=int(moved.message["id"])
    )
    assert double.pinged(answer) == [double.bob.id]


async def test_a_pending_ai_turn_is_played_after_a_restart(
    harness: Harness, double: DiscordDouble
) -> None:
    silent = Silent()
    harness.thinker = silent
    await harness.restart()
    await double.slash(double.alice, "play", {"rokumentai": {"opponent": double.bot_user}})
    thread = await _thread(double, set())
    moved = await double.slash(double.alice, "move", {"notation": "一01占"}, channel=thread)
    assert moved.message is not None
    await silent.asked.wait()  # the AI is thinking when the host stops
    harness.thinker = InlineThinker(StepClock(0.005))
    await harness.restart()
    answer = await double.wait_for_message(
        thread, _says("Banmen AI Lv.4: △"), after=int(moved.message["id"])
    )
    assert double.pinged(answer) == [double.alice.id]
    assert harness.service is not None
    assert len(await harness.service.play.entries(1)) == 2


async def test_hint_for_the_solitaire(harness: Harness, double: DiscordDouble) -> None:
    await double.slash(double.alice, "play", {"yosuko": {}})
    thread = await _thread(double, set())
    hint = await double.slash(double.alice, "hint", channel=thread)
    assert hint.ephemeral and "%" in hint.text
    other = await double.slash(double.bob, "hint", {"game": 1}, channel=thread)
    assert other.ephemeral and "対局者ではありません" in other.text  # bob reads Japanese


async def test_the_computers_first_answer_waits_for_the_thread(
    harness: Harness, double: DiscordDouble
) -> None:
    # 数字将棋 starts with a secret setup: the computer sends its arrangement at once, while the
    # bot is still opening the game's thread; its message belongs in that thread.
    started = await double.slash(
        double.alice, "play", {"suji-shogi": {"opponent": double.bot_user, "level": 1}}
    )
    assert not started.ephemeral
    thread = await _thread(double, set())
    waiting = await double.wait_for_message(thread, _says("Banmen AI Lv.1 has sent"))
    assert double.pinged(waiting) == [double.alice.id]
    assert not [m for m in double.channel_messages(double.channel_id) if _says("has sent")(m)]


async def test_two_computer_seats_answer_each_human_move_with_one_card(
    harness: Harness, double: DiscordDouble
) -> None:
    # alice alone against two computer seats at a 三国志 table: between two of her moves
    # the thread gets her move's card and one card of the computer's, listing both of its
    # moves, with one picture after the last, pinging her.
    started = await double.slash(double.alice, "play", {"sangokushi": {"ai_seats": 2, "level": 1}})
    assert not started.ephemeral
    thread = await _thread(double, set())
    cog: Any = harness.bot.get_cog("ComputerCog") if harness.bot else None
    for _ in range(3):
        turn = await double.wait_for_message(
            thread, lambda m: double.alice.id in double.pinged(m) and bool(m["attachments"])
        )
        before = len(double.channel_messages(thread))
        assert cog is not None
        cog.posted.clear()
        typed = await double.autocomplete(
            double.alice, "move", {"notation": ""}, "notation", channel=thread
        )
        moved = await double.slash(
            double.alice, "move", {"notation": typed.choices[0]["value"]}, channel=thread
        )
        assert moved.message is not None and int(moved.message["id"]) > int(turn["id"])
        answer = await double.wait_for_message(
            thread, _says("The computer's 2 moves"), after=int(moved.message["id"])
        )
        assert double.pinged(answer) == [double.alice.id]
        assert len(answer["attachments"]) == 1
        text = payloads.text_of(answer)
        assert text.count("Banmen AI Lv.1") >= 2
        await asyncio.wait_for(cog.posted.wait(), 10)
        # her move's card and the computer's one: nothing else
        assert len(double.channel_messages(thread)) == before + 2
    assert harness.service is not None
    harness.clock.advance(minutes=15)
    assert await harness.service.pending_announcements() == []
