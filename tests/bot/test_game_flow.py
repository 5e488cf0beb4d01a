"""A complete game through the Discord double: challenge, accept, thread, moves, resign, restart."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from tests.bot.conftest import Harness
from tests.discord_double import DiscordDouble, payloads
from tests.helpers import assert_png, public, restricted, start_challenge


def challenge_of(double: DiscordDouble) -> dict[str, Any]:
    """The one message the game left in the channel."""
    (line,) = [m for m in double.channel_messages(double.channel_id) if public(m)]
    return line


async def test_full_game(harness: Harness, double: DiscordDouble) -> None:
    thread_id, turn = await start_challenge(double)
    service = harness.service
    assert service is not None
    # The player to move (seat 0 = the challenger) is pinged, nobody else.
    to_move = double.alice if str(double.alice.id) in double.text_of(turn) else double.bob
    other = double.bob if to_move is double.alice else double.alice
    assert to_move.mention in double.text_of(turn)
    restricted(turn["allowed_mentions"], {to_move.id})
    labels = set(double.buttons(turn))
    assert {"Move", "Resign"} <= labels

    # Autocomplete: the legal moves of the player to move, filtered by what was typed.
    choices = (
        await double.autocomplete(to_move, "move", {"notation": ""}, "notation", channel=thread_id)
    ).choices
    assert 0 < len(choices) <= 25
    typed = choices[0]["value"][:2]
    filtered = (
        await double.autocomplete(
            to_move, "move", {"notation": typed}, "notation", channel=thread_id
        )
    ).choices
    assert filtered and all(typed in c["value"] for c in filtered)
    # The other player gets no suggestions (it is not their turn).
    none = await double.autocomplete(other, "move", {"notation": ""}, "notation", channel=thread_id)
    assert none.choices == []

    # The wrong user: an ephemeral refusal.
    wrong = await double.slash(other, "move", {"notation": choices[0]["value"]}, channel=thread_id)
    assert wrong.ephemeral
    assert wrong.response_time < 3.0
    # An illegal move: ephemeral, with the closest legal moves.
    bad = await double.slash(to_move, "move", {"notation": "九99占"}, channel=thread_id)
    assert bad.ephemeral
    assert "Closest legal moves" in bad.text or "近い合法手" in bad.text

    # A legal move: the board for the next player, who alone is pinged.
    played = await double.slash(
        to_move, "move", {"notation": choices[0]["value"]}, channel=thread_id
    )
    assert not played.ephemeral
    assert played.response_time < 3.0
    assert_png(played, double)
    assert other.mention in played.text
    assert to_move.mention not in played.text
    body = played.answer.body.get("data", played.answer.body)
    restricted(body.get("allowed_mentions"), {other.id})
    old_turn = played.message
    assert old_turn is not None
    # One card per turn: the card before it kept its text, seats and picture, and gave its
    # buttons to the new one; each card has a part per seat, an arrow on whose turn it is.
    await double.wait_for(lambda: not double.buttons(double.messages[int(turn["id"])]))
    first = double.messages[int(turn["id"])]
    assert double.buttons(old_turn)
    assert payloads.find_components(first["components"], 12) and first["attachments"]
    seats = [t for t in payloads.texts(old_turn["components"]) if " · " in t and "**" in t]
    assert len(seats) == 2 and sum(t.startswith("▶ ") for t in seats) == 1
    assert other.name.lower() in next(t for t in seats if t.startswith("▶ ")).lower()

    # Restart the bot mid-game; the old message's Resign button still works.
    await harness.restart()
    resign_id = double.buttons(old_turn)["Resign"]
    resigned = await double.click(other, old_turn, resign_id)
    assert resigned.response_time < 3.0
    assert not resigned.ephemeral
    assert resigned.text
    # The channel has one line for the game: its start, now saying how it ended.
    start = challenge_of(double)
    await double.wait_for(lambda: "resigned" in double.text_of(start))
    assert not double.buttons(start) and "#1" in double.mark(start)
    # The game is over: a further move is refused politely.
    late = await double.slash(to_move, "move", {"notation": choices[0]["value"]}, channel=thread_id)
    assert late.ephemeral

    # Every interaction was answered within Discord's 3 seconds; nothing unknown was called.
    assert all(i.response_time < 3.0 for i in double.interactions.values())
    assert not double.unhandled
    assert not [r for r in double.requests if r.status >= 400]


async def test_the_result_card(harness: Harness, double: DiscordDouble) -> None:
    # A finished game's card: the result, each seat's place, Review and Rematch, the record
    # behind its button, and the game's page on the site (when the site has an address).
    harness.settings = replace(harness.settings, public_url="https://banmen.example")
    await harness.restart()
    thread_id, turn = await start_challenge(double)
    resigned = await double.slash(double.alice, "resign", channel=thread_id)
    assert resigned.message is not None
    card = resigned.message
    text = double.text_of(card)
    assert "resigned" in text and "https://banmen.example/g/" in text
    assert text.count("place 1 of 2") == 1 and text.count("place 2 of 2") == 1
    assert {"Review", "Rematch", "Record"} <= set(double.buttons(card))
    await double.wait_for(lambda: not double.buttons(double.messages[int(turn["id"])]))
