"""Each game's own needs, end to end through the Discord double: 三国志三人将棋 for three with its
王手 announcements, 数字将棋's secret setup seen from outside, 略式易双六's daily deal and the
statistics, and every ソクラテス game under /play and /rules."""

from __future__ import annotations

import json
from typing import Any

from engines.registry import all_games, get_game
from tests.bot.conftest import Harness
from tests.discord_double import DiscordDouble, Interaction, payloads
from tests.discord_double.payloads import ALL_PERMISSIONS, User
from tests.helpers import (
    EPHEMERAL,
    PNG,
    assert_png,
    game_of,
    image_pixels,
    public,
    restricted,
    suji_game,
)

CHECK_LINE = ("PB4-C4", "BI6-G5", "PF8-F7", "HA4-B4")
"""From the start: 魏, 蜀, 呉, then 魏's cavalry checks 呉 (so 呉 moves next, then back to 魏)."""


def thread_pictures(double: DiscordDouble, thread_id: int) -> list[bytes]:
    """The decoded pixels of every picture posted publicly in a thread, in order."""
    return [
        image_pixels(double.files[int(a["id"])])
        for m in double.channel_messages(thread_id)
        if public(m)
        for a in m["attachments"]
        if double.files[int(a["id"])].startswith(PNG)
    ]


def private_part(inter: Interaction) -> tuple[str, list[bytes]]:
    """The embed text and files of the one ephemeral message among an interaction's replies."""
    for reply in inter.replies:
        data = reply.body.get("data", reply.body) if reply.kind == "callback" else reply.body
        if isinstance(data, dict) and int(data.get("flags") or 0) & EPHEMERAL:
            text = payloads.text_of(data)
            return text, [f.data for f in reply.files]
    raise AssertionError(f"no private message in {inter.replies}")


# --- 三国志三人将棋 -----------------------------------------------------------------------------


async def test_three_player_game_with_a_check(harness: Harness, double: DiscordDouble) -> None:
    challenge = await double.slash(
        double.alice,
        "play",
        {"sangokushi": {"opponent": double.bob, "opponent2": double.carol}},
    )
    assert challenge.message is not None
    buttons = double.buttons(challenge.message)
    await double.click(double.bob, challenge.message, buttons["Accept"])
    assert double.threads() == []  # one seat still waits for carol
    await double.click(double.carol, challenge.message, buttons["Accept"])
    thread = (await double.wait_for(double.threads))[0]
    thread_id = int(thread["id"])
    assert "三国志三人将棋" in thread["name"]
    turn = await double.wait_for_message(thread_id, lambda m: bool(m["attachments"]))
    restricted(turn["allowed_mentions"], {double.alice.id})  # 魏 (the challenger) first

    # Out of turn: refused privately (bob's client is Japanese), nothing posted.
    early = await double.slash(double.bob, "move", {"notation": CHECK_LINE[1]}, channel=thread_id)
    assert early.ephemeral and "手番ではありません" in early.text

    players = (double.alice, double.bob, double.carol, double.alice)
    played: list[Interaction] = []
    for user, move in zip(players, CHECK_LINE, strict=True):
        answer = await double.slash(user, "move", {"notation": move}, channel=thread_id)
        assert not answer.ephemeral, answer.text
        assert_png(answer, double)
        played.append(answer)
    assert not any("王手" in p.text for p in played[:3])
    check = played[-1]
    # The check is announced in the turn message, and the turn jumps to 呉 (carol), alone pinged.
    assert "Check (王手) on Wu: Wu moves next, then back to Wei." in check.text
    assert double.carol.mention in check.text and double.bob.mention not in check.text
    assert check.message is not None
    restricted(check.message["allowed_mentions"], {double.carol.id})
    # bob would be next in the usual order: refused.
    skipped = await double.slash(double.bob, "move", {"notation": "PH2-G3"}, channel=thread_id)
    assert skipped.ephemeral
    choices = (
        await double.autocomplete(
            double.carol, "move", {"notation": ""}, "notation", channel=thread_id
        )
    ).choices
    answered = await double.slash(
        double.carol, "move", {"notation": choices[0]["value"]}, channel=thread_id
    )
    assert not answered.ephemeral and double.alice.mention in answered.text

    # bob resigns: he is last, alice and carol share first; nobody is pinged.
    resigned = await double.slash(double.bob, "resign", {}, channel=thread_id)
    assert not resigned.ephemeral
    assert "Bob resigned: Alice and Carol share first place." in resigned.text
    assert resigned.message is not None and resigned.message["mentions"] == []


async def test_announcements_in_japanese(harness: Harness, double: DiscordDouble) -> None:
    await double.slash(double.owner, "settings", {"key": "lang", "value": "ja"})
    challenge = await double.slash(
        double.alice, "play", {"sangokushi": {"opponent": double.bob, "opponent2": double.carol}}
    )
    assert challenge.message is not None
    buttons = double.buttons(challenge.message)
    await double.click(double.bob, challenge.message, buttons["受ける"])
    await double.click(double.carol, challenge.message, buttons["受ける"])
    thread_id = int((await double.wait_for(double.threads))[0]["id"])
    players = (double.alice, double.bob, double.carol, double.alice)
    for user, move in zip(players, CHECK_LINE, strict=True):
        answer = await double.slash(user, "move", {"notation": move}, channel=thread_id)
    assert "王手：呉の手番、その後魏に戻ります。" in answer.text


# --- 数字将棋 ---------------------------------------------------------------------------------


async def test_secret_setup_pictures_reveal_nothing(
    harness: Harness, double: DiscordDouble
) -> None:
    first, mine = await suji_game(double, "123/456")
    second, other = await suji_game(double, "654/321")

    # Everything posted in the two threads looks the same, picture for picture.
    pictures = thread_pictures(double, first)
    assert pictures and pictures == thread_pictures(double, second)
    for thread_id in (first, second):
        texts = " ".join(double.text_of(m) for m in double.channel_messages(thread_id) if public(m))
        assert "123/456" not in texts and "654/321" not in texts
    # A spectator's /board and /moves (theirs alone): the same for both games.
    boards = [await double.slash(double.carol, "board", {}, channel=t) for t in (first, second)]
    assert all(b.ephemeral for b in boards)
    assert image_pixels(boards[0].files[0].data) == image_pixels(boards[1].files[0].data)
    lists = [await double.slash(double.carol, "moves", {}, channel=t) for t in (first, second)]
    assert all("123/456" not in m.text and "654/321" not in m.text for m in lists)
    # bob's own board comes to him alone, and shows nothing of alice's either.
    bobs = [await double.slash(double.bob, "board", {}, channel=t) for t in (first, second)]
    assert all(b.ephemeral for b in bobs)
    assert image_pixels(bobs[0].files[0].data) == image_pixels(bobs[1].files[0].data)
    # The record offered to bob has no JSON (it would hold the setup).
    record = await double.slash(double.bob, "record", {}, channel=first)
    gid = game_of(boards[0])
    assert [f.filename for f in record.files] == [f"banmen-{gid}.kifu", f"banmen-{gid}.kif"]
    assert all(b"123/456" not in f.data for f in record.files)
    # Autocomplete offers bob his own arrangements, the same in both games; carol none.
    suggestions = [
        (await double.autocomplete(double.bob, "setup", {"text": ""}, "text", channel=t)).choices
        for t in (first, second)
    ]
    assert suggestions[0] == suggestions[1]
    spectator = await double.autocomplete(
        double.carol, "setup", {"text": ""}, "text", channel=first
    )
    assert spectator.choices == []

    # alice's confirmation is private, names her arrangement and shows it from her side.
    (mine_text, mine_files), (other_text, other_files) = private_part(mine), private_part(other)
    assert "123/456" in mine_text and "654/321" in other_text
    assert len(mine_files) == len(other_files) == 1 and mine_files[0].startswith(PNG)
    assert image_pixels(mine_files[0]) != image_pixels(other_files[0])
    assert image_pixels(mine_files[0]) != image_pixels(boards[0].files[0].data)
    # ... while the public note of the same interaction has neither.
    assert "123/456" not in mine.text and not mine.answer.files
    # Until bob's is in, alice may change hers: privately confirmed, publicly only noted.
    again = await double.slash(double.alice, "setup", {"text": "654/321"}, channel=first)
    assert again.ephemeral and "changed: 654/321" in again.text
    posted = [m for m in double.channel_messages(first) if public(m)]
    seen = json.dumps(posted, ensure_ascii=False)
    assert "654/321" not in seen and "123/456" not in seen


# --- 略式易双六: the daily deal, and statistics --------------------------------------------------


def deal_lines(inter: Interaction) -> list[str]:
    return [line for line in inter.text.splitlines() if line.startswith("Chance: deal")]


async def thread_of(double: DiscordDouble, game_id: int) -> int:
    threads = await double.wait_for(
        lambda: [t for t in double.threads() if t["name"].startswith(f"#{game_id} ")]
    )
    return int(threads[0]["id"])


async def test_a_daily_needs_a_private_thread(harness: Harness, double: DiscordDouble) -> None:
    """Where the bot may not open a private thread (nor inside a thread), the day's deal is not
    begun at all, and the player is told why and what would work."""
    double.app_permissions &= ~(1 << 36)  # CREATE_PRIVATE_THREADS
    refused = await double.slash(double.alice, "daily", {"play": {}})
    assert refused.ephemeral and "Create Private Threads" in refused.text
    assert double.threads() == [] and harness.service is not None
    assert harness.service.play.game_choices(str(double.alice.id), "", limit=5) == []
    double.app_permissions = ALL_PERMISSIONS
    bob = await double.slash(double.bob, "play", {"yosuko": {}})  # an ordinary game's thread
    thread = await thread_of(double, game_of(bob))
    inside = await double.slash(double.alice, "daily", {"play": {}}, channel=thread)
    assert inside.ephemeral and "not in a thread" in inside.text


async def test_daily_deal_board_and_stats(harness: Harness, double: DiscordDouble) -> None:
    play = double.command("play")
    yosuko = next(o for o in play["options"] if o["name"] == "yosuko")
    assert any(o["name"] == "daily" for o in yosuko["options"])

    alice = await double.slash(double.alice, "play", {"yosuko": {"daily": True}})
    carol = await double.slash(double.carol, "daily", {"play": {}})
    assert not alice.ephemeral and not carol.ephemeral
    assert len(deal_lines(alice)) == 6
    assert deal_lines(alice) == deal_lines(carol)  # the same six majors for everyone today
    alice_game, carol_game = game_of(alice), game_of(carol)
    assert alice_game != carol_game
    alice_thread = await thread_of(double, alice_game)
    await thread_of(double, carol_game)
    # Everyone has the same deal today: each is played in a private thread of the player's,
    # and nobody else may look at it until the day's deal is over.
    thread = double.channels[alice_thread]
    assert thread["type"] == 12 and thread["thread_metadata"]["invitable"] is False
    assert double.thread_members[alice_thread] == {double.alice.id}
    turn = await double.wait_for_message(alice_thread, lambda m: bool(m["attachments"]))
    assert double.alice.mention in double.text_of(turn)
    assert not any(m["attachments"] for m in double.channel_messages(double.channel_id))
    peek = await double.slash(double.carol, "board", {"game": alice_game})
    assert peek.ephemeral and "only its player" in peek.text

    # While her game runs, the daily shows it again; once over, it is refused until tomorrow.
    again = await double.slash(double.alice, "daily", {"play": {}})
    assert game_of(again) == alice_game
    resigned = await double.slash(double.alice, "resign", {}, channel=alice_thread)
    assert not resigned.ephemeral
    refused = await double.slash(double.alice, "play", {"yosuko": {"daily": True}})
    assert refused.ephemeral and "already played today's deal" in refused.text

    board = await double.slash(double.bob, "daily", {"board": {}})
    assert not board.ephemeral
    assert "Alice" in board.text and "Carol" in board.text
    assert board.text.index("Alice") < board.text.index("Carol")
    assert "playing" in board.text
    past = await double.slash(double.bob, "daily", {"board": {"day": "2025-12-31"}})
    assert "Nobody has played the deal of 2025-12-31" in past.text
    bad = await double.slash(double.bob, "daily", {"board": {"day": "yesterday"}})
    assert bad.ephemeral

    mine = await double.slash(double.alice, "stats", {})
    assert mine.ephemeral  # statistics are answered privately
    assert "Ryakushiki Yōsukō: 1 game, 0 wins, 1 loss, 0 draws (0%)" in mine.text
    theirs = await double.slash(double.alice, "stats", {"game": "yosuko", "user": double.carol})
    assert theirs.ephemeral
    assert "Carol has no finished games yet." in theirs.text  # hers is still running
    assert theirs.message is not None and theirs.message["mentions"] == []


async def test_new_commands_speak_japanese(harness: Harness, double: DiscordDouble) -> None:
    for name, ja in (("stats", "成績"), ("daily", "日替わり")):
        command = double.command(name)
        assert command["name_localizations"]["ja"] == ja
        assert command["description_localizations"]["ja"]
        for option in command.get("options") or []:
            assert option["name_localizations"]["ja"], option
            assert option["description_localizations"]["ja"], option
            for sub in option.get("options") or []:
                assert sub["name_localizations"]["ja"], sub
                assert sub["description_localizations"]["ja"], sub
    yosuko = next(o for o in double.command("play")["options"] if o["name"] == "yosuko")
    daily = next(o for o in yosuko["options"] if o["name"] == "daily")
    assert daily["name_localizations"]["ja"] == "日替わり"
    assert daily["description_localizations"]["ja"]


async def test_japanese_board(harness: Harness, double: DiscordDouble) -> None:
    jp = double.bob  # a Japanese client; public messages follow the server's language
    await double.slash(double.owner, "settings", {"key": "lang", "value": "ja"})
    await double.slash(jp, "daily", {"play": {}})
    board = await double.slash(jp, "daily", {"board": {}})
    assert "今日の一局" in board.text and "対局中" in board.text
    stats = await double.slash(jp, "stats", {})
    assert "終局した対局はまだありません" in stats.text


# --- ソクラテス --------------------------------------------------------------------------------

SOCRATES = sorted(g.id for g in all_games() if g.id.startswith("socrates-"))


async def test_every_game_is_under_play_with_its_options(
    harness: Harness, double: DiscordDouble
) -> None:
    assert len(SOCRATES) == 4
    subcommands = {o["name"]: o for o in double.command("play")["options"]}
    assert set(SOCRATES) <= set(subcommands)
    for game in all_games():
        sub = subcommands[game.id]
        assert sub["type"] == 1
        assert game.title_en in sub["description"]
        options = {o["name"]: o for o in sub.get("options") or []}
        assert "opponent" in options and "clock" in options
        for spec in game.options:
            assert spec.name in options, (game.id, spec.name)
            values = [c["value"] for c in options[spec.name]["choices"]]
            assert values == list(spec.values[:25])
            assert options[spec.name]["description_localizations"]["ja"]


async def test_rules_answer_with_a_picture(harness: Harness, double: DiscordDouble) -> None:
    for game_id in SOCRATES:
        answer = await double.slash(double.alice, "rules", {"game": game_id})
        assert answer.ephemeral
        assert get_game(game_id).title_ja in answer.text
        assert_png(answer, double)
        # a plain attachment (not the embed's image), described by the page's heading and
        # the position it draws
        (picture,) = answer.files
        assert picture.filename == f"rules-{game_id}-1.png" and "image" not in answer.embeds[0]
        heading, _, position = (picture.description or "").partition(". ")
        assert heading and heading in answer.embeds[0]["description"]
        assert position.startswith(get_game(game_id).title_en)


async def test_socrates_lobby(harness: Harness, double: DiscordDouble) -> None:
    """A ソクラテス game from /play with an option to a first move."""
    game = get_game(SOCRATES[0])
    options: dict[str, Any] = {"opponent": double.bob}
    if game.options:
        options[game.options[0].name] = game.options[0].values[-1]
    challenge = await double.slash(double.alice, "play", {game.id: options})
    assert challenge.message is not None
    await double.click(double.bob, challenge.message, double.buttons(challenge.message)["Accept"])
    thread_id = int((await double.wait_for(double.threads))[0]["id"])
    turn = await double.wait_for_message(thread_id, lambda m: bool(m["attachments"]))
    to_move: User = double.alice if double.alice.mention in double.text_of(turn) else double.bob
    choices = (
        await double.autocomplete(to_move, "move", {"notation": ""}, "notation", channel=thread_id)
    ).choices
    played = await double.slash(
        to_move, "move", {"notation": choices[0]["value"]}, channel=thread_id
    )
    assert not played.ephemeral
    assert_png(played, double)
