"""Buttons posted before the typed action seam still work through the Discord double: Discord
keeps a message's custom ids forever, so a lesson's ``banmen:learn_*:0:<lesson>``, a
tournament's ``banmen:t_join:0:<id>`` and a puzzle's ``banmen-pz:<action>[:<arg>]`` are pressed
here on messages whose buttons are rewritten to those old forms; new buttons say their target
(``p``, ``t<id>``)."""

from __future__ import annotations

from typing import Any

from tests.bot.conftest import Harness
from tests.discord_double import DiscordDouble, payloads
from tests.helpers import described, start_challenge

JSON = dict[str, Any]


def as_posted_before(double: DiscordDouble, message: JSON, old: dict[str, str]) -> JSON:
    """``message`` with the buttons whose custom id is a key of ``old`` carrying its value."""
    stored: JSON = double.messages.get(int(message["id"]), message)
    for button in payloads.find_components(stored.get("components") or [], 2):
        if button.get("custom_id") in old:
            button["custom_id"] = old[button["custom_id"]]
    return stored


async def test_a_tournaments_old_buttons(harness: Harness, double: DiscordDouble) -> None:
    created = await double.slash(
        double.owner,
        "tournament",
        {"create": {"game": "rokumentai", "format": "round-robin", "name": "Spring Cup"}},
    )
    assert created.message is not None
    buttons = double.buttons(created.message)
    assert buttons["Join"] == "banmen:t_join:t1" and buttons["Leave"] == "banmen:t_leave:t1"
    message = as_posted_before(
        double,
        created.message,
        {buttons["Join"]: "banmen:t_join:0:1", buttons["Leave"]: "banmen:t_leave:0:1"},
    )
    joined = await double.click(double.alice, message, "banmen:t_join:0:1")
    assert not joined.ephemeral and "Alice" in str(double.messages[int(message["id"])])
    message = as_posted_before(double, created.message, {"banmen:t_join:t1": "banmen:t_join:0:1"})
    again = await double.click(double.alice, message, "banmen:t_join:0:1")
    assert again.ephemeral  # already in: the same tournament
    message = as_posted_before(double, created.message, {"banmen:t_leave:t1": "banmen:t_leave:1"})
    left = await double.click(double.alice, message, "banmen:t_leave:1")  # the id as its number
    assert not left.ephemeral
    assert not double.unhandled


async def test_a_lessons_old_buttons(harness: Harness, double: DiscordDouble) -> None:
    opened = await double.slash(double.alice, "learn", {"game": "rokumentai"})
    assert opened.message is not None
    buttons = double.buttons(opened.message)
    assert buttons["💡 Hint"] == "banmen:learn_hint:p"
    restart = buttons["↺ Restart"]
    assert restart.startswith("banmen:learn_restart:p:")
    lesson = restart.rsplit(":", 1)[1]
    old_hint, old_restart = f"banmen:learn_hint:0:{lesson}", f"banmen:learn_restart:0:{lesson}"
    # a button pressed on the lesson's message replaces it in place
    message = as_posted_before(double, opened.message, {buttons["💡 Hint"]: old_hint})
    await double.click(double.alice, message, old_hint)
    now = double.messages[int(message["id"])]
    assert "💡" in described(now)
    message = as_posted_before(double, now, {restart: old_restart})
    await double.click(double.alice, message, old_restart)
    now = double.messages[int(message["id"])]
    assert "The warrior's step" in described(now) and "💡" not in described(now)
    assert not double.unhandled


async def test_a_puzzles_old_buttons(harness: Harness, double: DiscordDouble) -> None:
    shown = await double.slash(double.alice, "puzzle", {"game": "rokumentai"})
    assert shown.message is not None
    buttons = double.buttons(shown.message)
    assert buttons["Hint"] == "banmen:puzzle_hint:p" and buttons["Move"] == "banmen:puzzle_move:p"
    message = as_posted_before(
        double,
        shown.message,
        {
            buttons["Hint"]: "banmen-pz:puzzle_hint",
            buttons["Move"]: "banmen-pz:puzzle_move",
            buttons["Solution"]: "banmen-pz:puzzle_solve:2026-11-27",
        },
    )
    hint = await double.click(double.alice, message, "banmen-pz:puzzle_hint")
    assert hint.ephemeral and "The winning move is one of these" in hint.text
    opened = await double.click(double.alice, message, "banmen-pz:puzzle_move")
    assert opened.modal  # the move is typed, as on a new button
    solve = await double.click(double.bob, message, "banmen-pz:puzzle_solve:2026-11-27")
    assert solve.ephemeral and "2026-11-27" in solve.text
    as_posted_before(
        double, message, {"banmen-pz:puzzle_solve:2026-11-27": "banmen-pz:puzzle_solve:2026-02-30"}
    )
    bad = await double.click(double.alice, message, "banmen-pz:puzzle_solve:2026-02-30")
    assert bad.ephemeral and "not understood" in bad.text
    assert not double.unhandled


def as_embed_before_the_cards(double: DiscordDouble, message: JSON) -> JSON:
    """``message`` as a turn message was posted before the cards: an embed with its text and
    footer, the ping as content, its buttons in plain action rows, no layout flag."""
    stored: JSON = double.messages[int(message["id"])]
    buttons = payloads.find_components(stored["components"], 2)
    text = payloads.text_of(stored)
    stored.update(
        flags=0,
        content=" ".join(f"<@{u['id']}>" for u in stored.get("mentions") or []),
        embeds=[{"description": text, "footer": {"text": double.mark(stored)}}],
        components=[
            {"type": 1, "components": buttons[i : i + 5]} for i in range(0, len(buttons), 5)
        ],
    )
    return stored


async def test_a_turn_message_from_before_the_cards(
    harness: Harness, double: DiscordDouble
) -> None:
    # A game's turn message posted as an embed by the version before: its buttons still
    # answer, and the game's next card takes them off it (the message keeps its embed).
    thread_id, turn = await start_challenge(double)
    old = as_embed_before_the_cards(double, turn)
    await harness.restart()  # the upgrade
    to_move = double.alice if double.alice.mention in old["content"] else double.bob
    board = await double.click(double.carol, old, double.buttons(old)["Board"])
    assert board.ephemeral and board.files  # a spectator's look
    typed = await double.autocomplete(
        to_move, "move", {"notation": ""}, "notation", channel=thread_id
    )
    moved = await double.slash(
        to_move, "move", {"notation": typed.choices[0]["value"]}, channel=thread_id
    )
    assert moved.message is not None and double.buttons(moved.message)
    await double.wait_for(lambda: not double.buttons(old))
    assert double.messages[int(old["id"])]["embeds"] and not layout(old)
    assert not [r for r in double.requests if r.status >= 400]


def layout(message: JSON) -> bool:
    return bool(int(message.get("flags") or 0) & (1 << 15))
