"""Games with a secret setup (数字将棋), a solitaire (略式易双六), and the move modal."""

from __future__ import annotations

from typing import Any

from tests.bot.conftest import Harness
from tests.discord_double import DiscordDouble
from tests.helpers import assert_png, start_challenge


async def _suji_thread(double: DiscordDouble) -> tuple[int, dict[str, Any]]:
    challenge = await double.slash(double.alice, "play", {"suji-shogi": {"opponent": double.bob}})
    assert challenge.message is not None
    await double.click(double.bob, challenge.message, double.buttons(challenge.message)["Accept"])
    thread = (await double.wait_for(double.threads))[0]
    turn = await double.wait_for_message(int(thread["id"]), lambda m: bool(m["components"]))
    return int(thread["id"]), turn


async def test_secret_setup_is_private(harness: Harness, double: DiscordDouble) -> None:
    thread_id, turn = await _suji_thread(double)
    assert "Setup" in double.buttons(turn)
    # Both players are due at once: both are pinged.
    assert {int(u["id"]) for u in turn["mentions"]} == {double.alice.id, double.bob.id}

    # The setup choices are the player's own options, privately suggested.
    choices = (
        await double.autocomplete(double.alice, "setup", {"text": ""}, "text", channel=thread_id)
    ).choices
    assert 0 < len(choices) <= 25
    # /move during the setup is refused.
    wrong = await double.slash(
        double.alice, "move", {"notation": choices[0]["value"]}, channel=thread_id
    )
    assert wrong.ephemeral

    before = len(double.channel_messages(thread_id))
    mine = await double.slash(
        double.alice, "setup", {"text": choices[0]["value"]}, channel=thread_id
    )
    assert mine.ephemeral  # the setup itself is shown only to alice

    def public_after() -> list[dict[str, object]]:
        new = double.channel_messages(thread_id)[before:]
        return [m for m in new if not int(str(m.get("flags") or 0)) & 64]

    public = await double.wait_for(public_after)
    # The public note says alice has sent a setup, without showing it.
    assert public
    assert all(choices[0]["value"] not in double.text_of(m) for m in public)
    assert all(not m["attachments"] for m in public)

    # bob uses the Setup button: a modal, then his setup; then the board is revealed.
    opened = await double.click(double.bob, turn, double.buttons(turn)["Setup"])
    assert opened.callback is not None and opened.callback.type == 9
    bob_choices = (
        await double.autocomplete(double.bob, "setup", {"text": ""}, "text", channel=thread_id)
    ).choices
    submitted = await double.submit_modal(double.bob, opened, {"text": bob_choices[0]["value"]})
    assert submitted.response_time < 3.0
    revealed = await double.wait_for_message(
        thread_id, lambda m: bool(m["attachments"]) and not int(m.get("flags") or 0) & 64
    )
    assert_png(revealed, double)


async def test_solitaire_buttons(harness: Harness, double: DiscordDouble) -> None:
    started = await double.slash(double.alice, "play", {"yosuko": {}})
    assert not started.ephemeral
    thread = (await double.wait_for(double.threads))[0]
    turn = await double.wait_for_message(int(thread["id"]), lambda m: bool(m["attachments"]))
    assert_png(turn, double)
    buttons = double.buttons(turn)
    # The start-line choice: one button per legal move (six).
    plays = [label for label, cid in buttons.items() if cid.startswith("banmen:play:")]
    assert len(plays) == 6
    chose = await double.click(double.alice, turn, buttons[plays[2]])
    assert not chose.ephemeral
    assert chose.message is not None
    assert_png(chose, double)
    nxt = double.buttons(chose.message)
    assert any(cid.startswith("banmen:play:") for cid in nxt.values())
    # Nobody else can play alice's solitaire.
    label = next(k for k, v in nxt.items() if v.startswith("banmen:play:"))
    other = await double.click(double.bob, chose.message, nxt[label])
    assert other.ephemeral
    # A move button left on an older turn message does not play into the new position.
    await double.click(double.alice, chose.message, nxt[label])
    stale = await double.click(double.alice, chose.message, nxt[label])
    assert stale.ephemeral


async def test_move_modal(harness: Harness, double: DiscordDouble) -> None:
    thread_id, turn = await start_challenge(double)
    to_move = double.alice if str(double.alice.id) in double.text_of(turn) else double.bob
    opened = await double.click(to_move, turn, double.buttons(turn)["Move"])
    assert opened.response_time < 3.0
    assert opened.modal["title"]
    move = (
        await double.autocomplete(to_move, "move", {"notation": ""}, "notation", channel=thread_id)
    ).choices[0]["value"]
    # A bad move typed in the modal: a private refusal.
    bad = await double.submit_modal(to_move, opened, {"text": "nonsense"})
    assert bad.ephemeral
    again = await double.click(to_move, turn, double.buttons(turn)["Move"])
    played = await double.submit_modal(to_move, again, {"text": move})
    assert not played.ephemeral
    assert_png(played, double)


async def test_own_setup_in_moves_and_record_is_private(
    harness: Harness, double: DiscordDouble
) -> None:
    """Alice's /moves, /record and Board button after her setup show it: to her alone."""
    thread_id, turn = await _suji_thread(double)
    await double.slash(double.alice, "setup", {"text": "321/654"}, channel=thread_id)
    before = len(double.channel_messages(thread_id))
    for command in ("moves", "record"):
        answer = await double.slash(double.alice, command, {}, channel=thread_id)
        assert answer.ephemeral, command
    # the game's newest card holds the buttons (her setup's card took them from the first)
    card = [m for m in double.channel_messages(thread_id) if double.buttons(m)][-1]
    assert int(card["id"]) > int(turn["id"])
    assert {"Draw", "Takeback", "Moves"}.isdisjoint(double.buttons(card))  # no offers at setup
    pressed = await double.click(double.alice, card, double.buttons(card)["Board"])
    assert pressed.ephemeral
    public = [
        m
        for m in double.channel_messages(thread_id)[before:]
        if not int(str(m.get("flags") or 0)) & 64
    ]
    assert all("321/654" not in str(m) for m in public)
    spectator = await double.slash(double.carol, "moves", {}, channel=thread_id)
    assert "321/654" not in spectator.text
