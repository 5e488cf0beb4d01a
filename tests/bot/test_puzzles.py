"""``/puzzle`` through the Discord double: a puzzle answered with ``/move`` outside a game (a
wrong answer and its refutation, autocomplete, the modal), and the daily post with its Solve
button after restarts: posted once, pinging nobody."""

from __future__ import annotations

import contextlib
import json
import sqlite3
from typing import Any

from bot.learn import puzzles as data
from bot.service import Kind
from bot.service.learn.puzzles import daily_puzzle
from tests.bot.conftest import Harness
from tests.discord_double import DiscordDouble
from tests.helpers import a_wrong_move, assert_png, solver_moves


async def test_a_puzzle_answered_as_a_game_is(harness: Harness, double: DiscordDouble) -> None:
    shown = await double.slash(double.alice, "puzzle", {"game": "rokumentai"})
    assert shown.ephemeral and "to play and win in" in shown.text
    assert_png(shown, double)
    assert shown.message is not None
    assert set(double.buttons(shown.message)) == {"Move", "Hint", "Solution"}
    assert harness.service is not None
    puzzle_id = await harness.service.learn.puzzle_of(str(double.alice.id))
    assert puzzle_id is not None
    puzzle = data.by_id()[puzzle_id]

    # /move in the channel (no game here) goes to the puzzle: a wrong one is refuted
    wrong = await double.slash(double.alice, "move", {"notation": a_wrong_move(puzzle)})
    assert wrong.ephemeral and "Not this one" in wrong.text
    assert await harness.service.learn.puzzle_of(str(double.alice.id)) == puzzle_id

    # autocomplete offers the puzzle's legal moves
    state = puzzle.start()
    first = state.display_move(state.parse_move(puzzle.solution[0]), "en")
    typed = await double.autocomplete(double.alice, "move", {"notation": first}, "notation")
    assert first in [c["value"] for c in typed.choices]

    # the first move through the Move button's modal, the rest with /move
    message = shown.message
    opened = await double.click(double.alice, message, double.buttons(message)["Move"])
    moves = solver_moves(puzzle)
    answered = await double.submit_modal(double.alice, opened, {"text": moves[0]})
    for move in moves[1:]:
        answered = await double.slash(double.alice, "move", {"notation": move})
    assert answered.ephemeral and "solved" in answered.text
    assert answered.message is not None
    assert set(double.buttons(answered.message)) == {"Next puzzle"}
    for said in (shown, wrong, answered):
        assert "docs/" not in json.dumps(said.data, ensure_ascii=False)
    assert await harness.service.learn.puzzle_of(str(double.alice.id)) is None
    # bob has no puzzle: his /move is answered as before (no game here)
    refused = await double.slash(double.bob, "move", {"notation": moves[0]})
    assert refused.ephemeral and "Not this one" not in refused.text
    assert not double.unhandled


async def test_the_daily_post_survives_restarts(harness: Harness, double: DiscordDouble) -> None:
    """The daily post is a row of the outbox, posted by the one delivery loop (the timers cog);
    a crash after the post and before its report does not post it twice (its key is in the
    channel)."""
    channel = double.channel_id
    await double.slash(
        double.owner, "settings", {"key": "puzzle_channel", "value": f"<#{channel}>"}
    )
    bot = await harness.restart()  # the loop looks at once after a start
    cog: Any = bot.get_cog("TimersCog")  # (the extension's own module: no isinstance)
    post = await double.wait_for_message(channel, lambda m: "Daily puzzle" in json.dumps(m))
    assert post["mentions"] == [] and post["allowed_mentions"]["parse"] == []
    assert set(double.buttons(post)) == {"Solve"}
    await cog.delivered.wait()
    before = len(double.channel_messages(channel))

    post.pop("nonce", None)  # long ago: Discord no longer holds its nonce
    await harness.stop()
    with contextlib.closing(sqlite3.connect(harness.db_path)) as db, db:
        db.execute("UPDATE puzzle_posts SET delivered_ms = NULL")  # never reported
    bot = await harness.start()
    cog = bot.get_cog("TimersCog")
    await cog.delivered.wait()  # its first round: the pending post looked at
    assert harness.service is not None
    assert await harness.service.pending_announcements(Kind.PUZZLE) == []  # reported this time
    assert len(double.channel_messages(channel)) == before  # found in the channel: not again

    solve = await double.click(double.bob, post, double.buttons(post)["Solve"])
    assert solve.ephemeral and "の今日のパズル" in solve.text  # bob reads Japanese
    assert harness.service is not None
    day = harness.clock.now().date().isoformat()
    assert await harness.service.learn.puzzle_of(str(double.bob.id)) == daily_puzzle(day).id
    assert not double.unhandled
