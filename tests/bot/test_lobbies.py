"""Lobbies and challenges: Join / Start / Cancel, three-seat challenges, declining, /join."""

from __future__ import annotations

from tests.bot.conftest import Harness
from tests.discord_double import DiscordDouble
from tests.discord_double.server import Request
from tests.helpers import assert_png, restricted


async def test_open_lobby_join_starts_game_in_a_thread(
    harness: Harness, double: DiscordDouble
) -> None:
    lobby = await double.slash(double.alice, "play", {"rokumentai": {}})
    assert not lobby.ephemeral
    message = lobby.message
    assert message is not None
    # An open lobby pings nobody.
    assert message["mentions"] == []
    restricted(message["allowed_mentions"], set())
    buttons = double.buttons(message)
    assert {"Join", "Start", "Cancel"} <= set(buttons)

    # Start before the lobby is full: refused, privately.
    early = await double.click(double.alice, message, buttons["Start"])
    assert early.ephemeral

    joined = await double.click(double.carol, message, buttons["Join"])
    assert joined.response_time < 3.0
    # The lobby message now announces the game, without buttons; the game has its thread.
    lobby_now = double.messages[int(message["id"])]
    assert not double.buttons(lobby_now)
    thread = (await double.wait_for(double.threads))[0]
    assert thread["id"] == message["id"]  # the thread starts from the lobby message
    turn = await double.wait_for_message(int(thread["id"]), lambda m: bool(m["attachments"]))
    assert_png(turn, double)
    assert double.alice.mention in double.text_of(turn)  # the creator plays first (先手)
    restricted(turn["allowed_mentions"], {double.alice.id})


async def test_cancel_only_by_creator(harness: Harness, double: DiscordDouble) -> None:
    lobby = await double.slash(double.alice, "play", {"rokumentai": {}})
    assert lobby.message is not None
    buttons = double.buttons(lobby.message)
    refused = await double.click(double.bob, lobby.message, buttons["Cancel"])
    assert refused.ephemeral
    assert "対局" in refused.text  # bob's client is Japanese: the refusal is in Japanese
    cancelled = await double.click(double.alice, lobby.message, buttons["Cancel"])
    assert not cancelled.ephemeral
    assert not double.buttons(double.messages[int(lobby.message["id"])])
    assert double.threads() == []


async def test_three_player_challenge(harness: Harness, double: DiscordDouble) -> None:
    challenge = await double.slash(
        double.alice,
        "play",
        {"sangokushi": {"opponent": double.bob, "opponent2": double.carol}},
    )
    message = challenge.message
    assert message is not None
    restricted(message["allowed_mentions"], {double.bob.id, double.carol.id})
    buttons = double.buttons(message)
    # Someone not invited cannot take a seat.
    intruder = await double.click(double.mod, message, buttons["Accept"])
    assert intruder.ephemeral
    first = await double.click(double.bob, message, buttons["Accept"])
    assert not first.ephemeral
    # The challenge keeps its buttons for the second invitee.
    assert set(double.buttons(message)) == {"Accept", "Decline"}
    assert double.threads() == []
    await double.click(double.carol, message, buttons["Accept"])
    thread = (await double.wait_for(double.threads))[0]
    turn = await double.wait_for_message(int(thread["id"]), lambda m: bool(m["attachments"]))
    assert_png(turn, double)
    pinged = {int(u["id"]) for u in turn["mentions"]}
    assert len(pinged) == 1 and pinged <= {double.alice.id, double.bob.id, double.carol.id}


async def test_declined_challenge(harness: Harness, double: DiscordDouble) -> None:
    challenge = await double.slash(double.alice, "play", {"rokumentai": {"opponent": double.bob}})
    assert challenge.message is not None
    buttons = double.buttons(challenge.message)
    declined = await double.click(double.bob, challenge.message, buttons["Decline"])
    assert not declined.ephemeral
    assert not double.buttons(double.messages[int(challenge.message["id"])])
    # A declined challenge cannot be joined any more.
    game_id = int(double.mark(challenge.message).lstrip("#").split()[0])
    late = await double.slash(double.bob, "join", {"game": game_id})
    assert late.ephemeral


async def test_cannot_challenge_yourself(harness: Harness, double: DiscordDouble) -> None:
    me = await double.slash(double.alice, "play", {"rokumentai": {"opponent": double.alice}})
    assert me.ephemeral


async def test_join_command_and_threads_off(harness: Harness, double: DiscordDouble) -> None:
    saved = await double.slash(double.owner, "settings", {"key": "threads", "value": "off"})
    assert saved.response_time < 3.0
    lobby = await double.slash(double.alice, "play", {"rokumentai": {}})
    assert lobby.message is not None
    game_id = int(double.mark(lobby.message).lstrip("#").split()[0])
    started = await double.slash(double.bob, "join", {"game": game_id})
    assert started.ephemeral  # bob is told; the channel gets the game itself
    turn = await double.wait_for_message(double.channel_id, lambda m: bool(m["attachments"]))
    assert double.threads() == []  # the server keeps games in the channel
    assert_png(turn, double)
    assert {"Move", "Resign"} <= set(double.buttons(turn))
    # The lobby's own message says the game began, its buttons gone (it was not copied).
    lobby_now = double.messages[int(lobby.message["id"])]
    assert not double.buttons(lobby_now) and "begins" in double.text_of(lobby_now)


async def test_challenge_expires(harness: Harness, double: DiscordDouble) -> None:
    challenge = await double.slash(double.alice, "play", {"rokumentai": {"opponent": double.bob}})
    assert challenge.message is not None
    harness.clock.advance(hours=25)
    late = await double.click(
        double.bob, challenge.message, double.buttons(challenge.message)["Accept"]
    )
    assert not double.buttons(double.messages[int(challenge.message["id"])])
    assert double.threads() == []
    assert late.response_time < 3.0


async def test_no_thread_permission_falls_back_to_the_channel(
    harness: Harness, double: DiscordDouble
) -> None:
    double.forbid_threads = True
    lobby = await double.slash(double.alice, "play", {"rokumentai": {}})
    assert lobby.message is not None
    await double.click(double.bob, lobby.message, double.buttons(lobby.message)["Join"])
    turn = await double.wait_for_message(double.channel_id, lambda m: bool(m["attachments"]))
    assert_png(turn, double)
    assert double.threads() == []


async def test_challenge_seat_is_kept_for_the_invited_player(
    harness: Harness, double: DiscordDouble
) -> None:
    """Alice challenges Bob; Carol can neither /join nor accept; Bob's accept starts the game."""
    challenge = await double.slash(double.alice, "play", {"rokumentai": {"opponent": double.bob}})
    message = challenge.message
    assert message is not None
    game_id = int(double.mark(message).lstrip("#").split()[0])
    restricted(message["allowed_mentions"], {double.bob.id})
    by_command = await double.slash(double.carol, "join", {"game": game_id})
    assert by_command.ephemeral and "invited" in by_command.text
    by_button = await double.click(double.carol, message, double.buttons(message)["Accept"])
    assert by_button.ephemeral
    assert (await harness.service.play.game_info(game_id)).status == "open"
    await double.click(double.bob, message, double.buttons(message)["Accept"])
    thread = (await double.wait_for(double.threads))[0]
    turn = await double.wait_for_message(int(thread["id"]), lambda m: bool(m["attachments"]))
    assert double.alice.mention in double.text_of(turn)
    seats = (await harness.service.play.game_info(game_id)).seats
    assert [s.user_id for s in seats] == [str(double.alice.id), str(double.bob.id)]


async def test_the_game_knows_its_thread_before_its_first_turn_is_posted(
    harness: Harness, double: DiscordDouble
) -> None:
    """A reminder, the computer's move or an announcement may come right after a game starts,
    before the start's own handler has finished: by the time the turn message reaches its
    thread, the game already says it lives there (else such a post went to the channel)."""
    seen: list[object] = []

    def at_turn_post(rec: Request) -> None:
        thread = next((t for t in double.threads()), None)
        if thread is None or rec.method != "POST" or not rec.files:
            return
        if rec.path == f"/channels/{thread['id']}/messages":
            assert harness.service is not None
            loc = harness.service.play.location(1)
            seen.append(loc.thread_id if loc is not None else None)

    double.after_request = at_turn_post
    challenge = await double.slash(double.alice, "play", {"rokumentai": {"opponent": double.bob}})
    assert challenge.message is not None
    await double.click(double.bob, challenge.message, double.buttons(challenge.message)["Accept"])
    thread = (await double.wait_for(double.threads))[0]
    await double.wait_for_message(int(thread["id"]), lambda m: bool(m["attachments"]))
    assert seen == [thread["id"]]
