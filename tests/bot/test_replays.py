"""Replays and record files through the Discord double: /replay with its step buttons and jump
list (also after a restart), a private replay for a player who sees more, /import of an
attachment, and a refused file that changes nothing."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image

from tests.bot.conftest import Harness
from tests.discord_double import DiscordDouble, Interaction, Upload, payloads
from tests.helpers import PNG, game_of, play_three, snapshot, start_challenge, suji_game

GIF = b"GIF8"


def attached(double: DiscordDouble, message: dict[str, Any]) -> list[tuple[str, bytes]]:
    """The files on a message as the double stores it now (name, bytes)."""
    message = double.messages[int(message["id"])]
    return [(a["filename"], double.files[int(a["id"])]) for a in message["attachments"]]


def gif_frames(data: bytes) -> int:
    with Image.open(io.BytesIO(data)) as image:
        return int(getattr(image, "n_frames", 1))


def jump_list(message: dict[str, Any]) -> dict[str, Any]:
    """The replay's select menu on a message (its latest stored version)."""
    for component in payloads.find_components(message["components"], 3):
        return dict(component)
    raise AssertionError(f"no jump list on {message['id']}")


async def test_replay_steps_in_place_and_survives_a_restart(
    harness: Harness, double: DiscordDouble
) -> None:
    thread_id, turn = await start_challenge(double)
    await play_three(double, thread_id, turn)
    replay = await double.slash(double.carol, "replay", {}, channel=thread_id)
    assert not replay.ephemeral and replay.message is not None
    message = replay.message
    ((name, gif),) = attached(double, message)
    assert name.startswith("replay-") and name.endswith(".gif") and gif.startswith(GIF)
    assert gif_frames(gif) == 4  # the start and three moves
    assert not replay.embeds  # a card: the replay in its media gallery, described
    assert replay.files[0].description
    assert set(double.buttons(message)) == {"⏮ Start", "◀ Back"}
    jumps = jump_list(message)
    assert [o["value"] for o in jumps["options"]] == ["0", "1", "2", "3"]
    assert jumps["options"][0]["label"] == "The start"

    # A step replaces the GIF with the picture after that move, in the same message.
    back = await double.click(double.carol, message, double.buttons(message)["◀ Back"])
    assert back.callback is not None and back.callback.type == 7
    ((name, png),) = attached(double, message)
    assert name.endswith(".png") and png.startswith(PNG)
    assert "move 2 of 3" in back.text
    assert set(double.buttons(message)) == {"⏮ Start", "◀ Back", "Next ▶", "End ⏭", "▶ Play"}
    # The jump list: to the start.
    start = await double.click(double.bob, message, jumps["custom_id"], values=["0"])
    assert start.callback is not None and start.callback.type == 7
    assert "the start" in double.text_of(message)
    assert set(double.buttons(message)) == {"Next ▶", "End ⏭", "▶ Play"}

    # After a restart the buttons still work: the ply is in each button's id.
    await harness.restart()
    step = await double.click(double.alice, message, double.buttons(message)["Next ▶"])
    assert step.callback is not None and step.callback.type == 7 and not step.ephemeral
    assert "move 1 of 3" in step.text
    play = await double.click(double.carol, message, double.buttons(message)["▶ Play"])
    assert play.callback is not None and play.callback.type == 7
    ((name, gif),) = attached(double, message)
    assert gif.startswith(GIF) and gif_frames(gif) == 4


async def test_a_player_who_sees_more_gets_a_private_replay(
    harness: Harness, double: DiscordDouble
) -> None:
    thread_id, _ = await suji_game(double, "123/456")
    other_thread, _ = await suji_game(double, "654/321")
    spectator = await double.slash(double.carol, "replay", {}, channel=thread_id)
    assert not spectator.ephemeral
    own = await double.slash(double.alice, "replay", {}, channel=thread_id)
    assert own.ephemeral and own.files and own.files[0].data.startswith(GIF)
    assert own.files[0].data != spectator.files[0].data
    # What is posted for everyone is the same for both arrangements, byte for byte.
    again = await double.slash(double.carol, "replay", {}, channel=other_thread)
    assert again.files[0].data == spectator.files[0].data
    public = [m for m in double.channel_messages(thread_id) if not int(m.get("flags") or 0) & 64]
    assert "123/456" not in str(public)


async def test_import_an_attachment_then_replay_it(harness: Harness, double: DiscordDouble) -> None:
    thread_id, turn = await start_challenge(double)
    await play_three(double, thread_id, turn)
    await double.slash(double.alice, "resign", {}, channel=thread_id)
    record = await double.slash(double.carol, "record", {}, channel=thread_id)
    files = {f.filename.rpartition(".")[2]: f.data for f in record.files}
    assert set(files) == {"kifu", "kif", "json"}
    assert files["kif"].decode("cp932") == files["kifu"].decode("utf-8")

    imported = await double.slash(
        double.carol, "import", {"file": Upload("g.kif", files["kif"], "")}
    )
    assert not imported.ephemeral, imported.text
    assert "Imported as game #" in imported.text and "unrated" in imported.text
    new_game = game_of(imported)
    assert harness.service is not None
    original = await harness.service.play.export_record(game_of(record))
    assert await harness.service.play.export_record(new_game) == original
    replay = await double.slash(double.carol, "replay", {"game": new_game})
    assert replay.files and gif_frames(replay.files[0].data) == 4


async def test_a_bad_file_is_refused_and_changes_nothing(
    harness: Harness, double: DiscordDouble
) -> None:
    before = snapshot(str(harness.db_path))
    bad = "# Banmen\n棋戦: 六面体 (rokumentai)\n\n   1 ▲九九\n".encode()
    refused: Interaction = await double.slash(
        double.bob, "import", {"file": Upload("bad.kifu", bad, "")}
    )
    assert refused.ephemeral
    assert "4行目" in refused.text  # bob reads Japanese: the line that is wrong
    assert snapshot(str(harness.db_path)) == before
