"""What a player reads, through the Discord double: people named beside their seats, one
notation, threads that stay readable, rematches, words, and seats drawn at random."""

from __future__ import annotations

from typing import Any

from engines.registry import get_game
from render import render_png
from tests.bot.conftest import Harness
from tests.discord_double import DiscordDouble, payloads
from tests.discord_double.payloads import User
from tests.helpers import assert_png, game_of, image_pixels, public, restricted


def text_of(message: dict[str, Any]) -> str:
    return payloads.text_of(message)


def picture(message: dict[str, Any], double: DiscordDouble) -> bytes:
    return double.files[int(message["attachments"][0]["id"])]


async def accepted(
    double: DiscordDouble, game: str, by: User, opponent: User, **options: Any
) -> tuple[int, int]:
    """``by`` challenges ``opponent``, who accepts; returns (game id, thread id)."""
    before = {t["id"] for t in double.threads()}
    challenge = await double.slash(by, "play", {game: {"opponent": opponent, **options}})
    assert challenge.message is not None, challenge.text
    await double.click(opponent, challenge.message, double.buttons(challenge.message)["Accept"])
    thread = await double.wait_for(lambda: [t for t in double.threads() if t["id"] not in before])
    thread_id = int(thread[0]["id"])
    await double.wait_for_message(thread_id, lambda m: bool(m["attachments"]))
    return game_of(challenge), thread_id


# --- 2. people, not seats ---------------------------------------------------------------------

SUJI_SAMPLE = (
    "▲3三1(34)",
    "△2三5(32)",
    "▲2三3(14)",
    "△2三4(22)",
    "▲1四5(15)",
    "3a2b",  # any spelling is still read
    "▲3四6(25)",
    "△1三4(23)",
    "▲1三5(14)",
    "△1三1(12)",
    "5*2c",
)
"""数字将棋's sample game (実戦譜) in the kifu the thread shows, two moves as typed in ASCII."""


async def test_the_end_names_the_winner_and_pictures_name_the_players(
    harness: Harness, double: DiscordDouble
) -> None:
    alice, bob = double.alice, double.bob
    gid, thread = await accepted(double, "suji-shogi", alice, bob, directions="sample")
    await double.slash(alice, "setup", {"text": "465/123"}, channel=thread)
    await double.slash(bob, "setup", {"text": "362/541"}, channel=thread)
    for i, move in enumerate(SUJI_SAMPLE):
        played = await double.slash((alice, bob)[i % 2], "move", {"notation": move}, channel=thread)
        assert not played.ephemeral, played.text
    # /games names who is to move in a game where it is not your turn
    games = await double.slash(alice, "games", {})
    assert games.ephemeral and f"#{gid}" in games.text and "Bob to move" in games.text
    answer = (
        await double.autocomplete(bob, "move", {"notation": ""}, "notation", channel=thread)
    ).choices[0]["value"]
    reply = await double.slash(bob, "move", {"notation": answer}, channel=thread)
    assert not reply.ephemeral, reply.text
    service = harness.service
    assert service is not None
    state = service.play.current_state(gid)
    assert state is not None
    win = next(m for m in state.legal_moves() if (o := state.apply(m).outcome()) and o.winners)
    end = await double.slash(alice, "move", {"notation": state.display_move(win)}, channel=thread)
    # The rules' words name seats ("Black wins: ..."); the next line names the person.
    assert "Result: Black wins" in end.text and "Winner: Alice (Black)" in end.text
    final = service.play.current_state(gid)
    assert final is not None and final.is_over()
    shown = image_pixels(end.files[0].data)
    assert shown == image_pixels(render_png(final, None, win, None, ("Alice", "Bob")))
    assert shown != image_pixels(render_png(final, None, win))  # the names are in the header


# --- 3. one notation --------------------------------------------------------------------------


async def test_autocomplete_and_buttons_show_the_games_own_notation(
    harness: Harness, double: DiscordDouble
) -> None:
    alice, bob = double.alice, double.bob
    gid, thread = await accepted(double, "suji-shogi", alice, bob)
    await double.slash(alice, "setup", {"text": "465/123"}, channel=thread)
    await double.slash(bob, "setup", {"text": "362/541"}, channel=thread)
    choices = (
        await double.autocomplete(alice, "move", {"notation": ""}, "notation", channel=thread)
    ).choices
    assert choices and all(c["name"].startswith("▲") for c in choices), choices
    assert all(c["name"] == c["value"] for c in choices)  # what is picked is what is shown
    # typing the ASCII notation still finds the move, shown in kifu
    typed = (
        await double.autocomplete(alice, "move", {"notation": "3d3c"}, "notation", channel=thread)
    ).choices
    assert [c["name"] for c in typed] == ["▲3三1(34)"]
    played = await double.slash(alice, "move", {"notation": typed[0]["value"]}, channel=thread)
    assert "▲3三1(34)" in played.text
    # a refused move suggests moves in the same notation
    bad = await double.slash(bob, "move", {"notation": "2c9z"}, channel=thread)
    assert bad.ephemeral and "近い合法手" in bad.text  # bob's client is Japanese
    assert "△" in bad.text.split("近い合法手")[-1] and "2c" not in bad.text.split("近い合法手")[-1]
    assert f"#{gid}" in played.text

    # Buttons: 略式易双六's start lines, in the server's language, as the thread writes them.
    await double.slash(double.owner, "settings", {"key": "lang", "value": "ja"})
    deal = await double.slash(double.carol, "play", {"yosuko": {}})
    solo = game_of(deal)
    found = await double.wait_for(
        lambda: [t for t in double.threads() if t["name"].startswith(f"#{solo} ")]
    )
    turn = await double.wait_for_message(int(found[0]["id"]), lambda m: bool(m["components"]))
    buttons = double.buttons(turn)
    assert "開始 4（四爻）" in buttons
    assert buttons["開始 4（四爻）"].endswith("|start 4")  # the action keeps the parser's text
    pressed = await double.click(double.carol, turn, buttons["開始 4（四爻）"])
    assert not pressed.ephemeral


# --- 4. threads stay readable -----------------------------------------------------------------


async def test_a_lobby_keeps_one_message_through_join_and_start(
    harness: Harness, double: DiscordDouble
) -> None:
    lobby = await double.slash(double.alice, "play", {"sangokushi": {}})
    message = lobby.message
    assert message is not None and "2 seats free" in lobby.text
    mid = int(message["id"])
    joined = await double.slash(double.bob, "join", {"game": game_of(message)})
    assert joined.ephemeral  # bob is told privately ...
    now = double.messages[mid]  # ... and the lobby's own message changed
    assert "Bob joined" in text_of(now) and "1 seat still free" in text_of(now)
    assert "Join" in double.buttons(now)
    assert [m["id"] for m in double.channel_messages(double.channel_id) if public(m)] == [
        message["id"]
    ]  # no second copy of the lobby
    started = await double.slash(double.carol, "join", {"game": game_of(message)})
    assert started.ephemeral
    thread = (await double.wait_for(double.threads))[0]
    assert int(thread["id"]) == mid  # the thread starts from the lobby's own message
    turn = await double.wait_for_message(mid, lambda m: bool(m["attachments"]))
    assert_png(turn, double)
    announcement = double.messages[mid]
    assert not double.buttons(announcement)
    # The channel's announcement says what began and who plays, never whose turn it is.
    assert "begins" in text_of(announcement) and "Alice" in text_of(announcement)
    assert "to move" not in text_of(announcement)
    assert not double.pinged(announcement)
    assert [m["id"] for m in double.channel_messages(double.channel_id) if public(m)] == [
        message["id"]
    ]


async def test_a_lapsed_challenge_changes_its_own_message(
    harness: Harness, double: DiscordDouble
) -> None:
    challenge = await double.slash(double.alice, "play", {"rokumentai": {"opponent": double.bob}})
    assert challenge.message is not None
    mid = int(challenge.message["id"])
    harness.clock.advance(hours=25)
    assert harness.service is not None
    harness.service.timer_changed.set()
    lapsed = await double.wait_for(lambda: not double.buttons(double.messages[mid]))
    assert lapsed
    assert "Nobody answered the challenge in time" in text_of(double.messages[mid])
    assert [m["id"] for m in double.channel_messages(double.channel_id) if public(m)] == [str(mid)]


async def test_looks_are_private_unless_it_is_your_turn_and_the_deadline_shows_once(
    harness: Harness, double: DiscordDouble
) -> None:
    gid, thread = await accepted(double, "rokumentai", double.alice, double.bob, clock="live:5")
    turn = double.channel_messages(thread)[-1]
    # the deadline: once, in Discord timestamps, never as a UTC time
    assert text_of(turn).count("Deadline") == 1 and "<t:" in text_of(turn)
    assert "UTC" not in text_of(turn)
    spectator = await double.slash(double.carol, "board", {}, channel=thread)
    assert spectator.ephemeral and spectator.files
    waiting = await double.slash(double.bob, "moves", {}, channel=thread)
    assert waiting.ephemeral
    mine = await double.slash(double.alice, "board", {}, channel=thread)
    assert not mine.ephemeral  # the player to move may show the board to the thread
    assert f"#{gid}" in mine.text
    # /stats: privately, in the asker's language (bob's client is Japanese)
    stats = await double.slash(double.bob, "stats", {"user": double.alice})
    assert stats.ephemeral and "終局した対局はまだありません" in stats.text


# --- 5. rematch -------------------------------------------------------------------------------


async def test_rematch_from_the_end_message_after_a_restart(
    harness: Harness, double: DiscordDouble
) -> None:
    alice, bob = double.alice, double.bob
    gid, thread = await accepted(double, "rokumentai", alice, bob, clock="corr:3")
    end = await double.slash(alice, "resign", {}, channel=thread)
    assert end.message is not None
    assert "Rematch" in double.buttons(end.message)
    await harness.restart()  # the button outlives the process
    asked = await double.click(bob, end.message, double.buttons(end.message)["Rematch"])
    assert not asked.ephemeral and asked.message is not None
    challenge = asked.message
    new_id = game_of(challenge)
    assert new_id != gid and f"rematch of game #{gid}" in asked.text
    assert set(double.buttons(challenge)) == {"Accept", "Decline"}
    restricted(challenge["allowed_mentions"], {alice.id})  # the other player is asked
    assert int(challenge["channel_id"]) == thread  # in the game's thread
    again = await double.click(bob, end.message, double.buttons(end.message)["Rematch"])
    assert again.ephemeral and f"#{new_id}" in again.text  # one rematch at a time
    # alice answers with the end message's own button: that accepts the waiting rematch
    yes = await double.click(alice, end.message, double.buttons(end.message)["Rematch"])
    assert yes.ephemeral  # told privately; the thread gets the game
    turn = await double.wait_for_message(
        thread, lambda m: bool(m["attachments"]) and game_of(m) == new_id
    )
    assert bob.mention in double.text_of(turn)  # seats swapped: bob (was second) moves first
    assert not double.buttons(double.messages[int(challenge["id"])])
    assert harness.service is not None
    old = await harness.service.play.game_info(gid)
    new = await harness.service.play.game_info(new_id)
    assert [s.user_id for s in new.seats] == [str(bob.id), str(alice.id)]
    assert (new.clock, new.options) == (old.clock, old.options)
    # commands in the thread now mean the new game
    board = await double.slash(bob, "board", {}, channel=thread)
    assert f"#{new_id}" in board.text


async def test_a_rematch_can_be_declined(harness: Harness, double: DiscordDouble) -> None:
    gid, thread = await accepted(double, "rokumentai", double.alice, double.bob)
    end = await double.slash(double.bob, "resign", {}, channel=thread)
    assert end.message is not None
    asked = await double.click(double.alice, end.message, double.buttons(end.message)["Rematch"])
    assert asked.message is not None
    no = await double.click(double.bob, asked.message, double.buttons(asked.message)["Decline"])
    assert not no.ephemeral and "declined" in no.text
    assert not double.buttons(double.messages[int(asked.message["id"])])
    # the thread's commands mean its game again, not the withdrawn rematch
    board = await double.slash(double.carol, "board", {}, channel=thread)
    assert f"Game #{gid} " in board.text and "finished" in board.text


# --- 6. words ---------------------------------------------------------------------------------


async def test_plurals_option_names_and_clock_ranges(
    harness: Harness, double: DiscordDouble
) -> None:
    lobby = await double.slash(double.alice, "play", {"rokumentai": {}})
    assert "1 seat free" in lobby.text and "seat(s)" not in lobby.text
    # Japanese names for every option and every choice of every game
    for sub in double.command("play")["options"]:
        game = get_game(sub["name"])
        for spec in game.options:
            option = next(o for o in sub["options"] if o["name"] == spec.name)
            assert option["name_localizations"]["ja"] == spec.title().ja != spec.name
            for choice in option["choices"]:
                assert choice["name_localizations"]["ja"], choice
    sangokushi = next(o for o in double.command("play")["options"] if o["name"] == "sangokushi")
    spear = next(o for o in sangokushi["options"] if o["name"] == "spear")
    assert spear["name_localizations"]["ja"] == "槍兵"
    assert [c["name_localizations"]["ja"] for c in spear["choices"]] == [
        "斜め4方向（既定）",
        "前斜め2方向",
    ]
    # /move's option is not named like the command
    move = double.command("move")
    assert move["options"][0]["name"] == "notation"
    assert move["options"][0]["name_localizations"]["ja"] == "指し手"
    # a clock below the minimum: refused with the part and its range, nothing else
    typo = await double.slash(double.alice, "play", {"rokumentai": {"clock": "live:5s"}})
    assert typo.ephemeral
    assert "a live clock's time per move must be 1 minute to 2 hours" in typo.text
    assert "30 days" not in typo.text and "live:5s" not in typo.text
    jp = await double.slash(double.bob, "play", {"rokumentai": {"clock": "live:5s"}})
    assert "ライブ対局の1手の持ち時間は1分〜2時間" in jp.text


# --- 7. seats drawn at random -----------------------------------------------------------------


async def test_seats_are_drawn_not_given_to_the_creator(
    harness: Harness, double: DiscordDouble
) -> None:
    """The draw is injected: reversed, the challenged player moves first; as listed, the
    challenger. Both orders occur; neither depends on luck."""
    assert harness.service is not None
    firsts = []
    for draw in (list.reverse, lambda seats: None):
        harness.service.ctx.shuffle = draw
        gid, thread = await accepted(double, "sangokushi-2p", double.alice, double.bob)
        turn = await double.wait_for_message(thread, lambda m: bool(m["attachments"]))
        firsts.append(double.bob if double.bob.mention in double.text_of(turn) else double.alice)
        seats = (await harness.service.play.game_info(gid)).seats
        assert seats[0].user_id == str(firsts[-1].id)
    assert firsts == [double.bob, double.alice]
