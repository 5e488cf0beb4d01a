"""``/board text`` through the Discord double (issue 46, 3): the board in words privately, a
filter's value offered by autocomplete, and a bad value answered with what there is."""

from __future__ import annotations

from tests.bot.conftest import Harness
from tests.discord_double import DiscordDouble
from tests.helpers import play_three, start_challenge


async def test_the_board_in_words(harness: Harness, double: DiscordDouble) -> None:
    thread_id, turn = await start_challenge(double)
    await play_three(double, thread_id, turn)
    whole = await double.slash(double.carol, "board", {"text": "all"}, channel=thread_id)
    assert whole.ephemeral and "Rokumentai, ply 3" in whole.text
    assert not [r for r in whole.replies if r.files]  # words, no picture
    offered = await double.autocomplete(
        double.carol, "board", {"text": "kind", "value": ""}, "value", channel=thread_id
    )
    kinds = [c["value"] for c in offered.choices]
    assert kinds
    part = await double.slash(
        double.carol, "board", {"text": "kind", "value": kinds[0]}, channel=thread_id
    )
    assert part.ephemeral and f"Only {kinds[0]}." in part.text
    clocks = await double.slash(double.alice, "board", {"text": "clocks"}, channel=thread_id)
    assert clocks.ephemeral and ("Clock:" in clocks.text or "no clock" in clocks.text)
    bad = await double.slash(
        double.carol, "board", {"text": "kind", "value": "queen"}, channel=thread_id
    )
    assert bad.ephemeral and "No piece of the kind 'queen' here" in bad.text
    assert kinds[0] in bad.text
    picture = await double.slash(double.carol, "board", {}, channel=thread_id)
    assert any(r.files for r in picture.replies)  # /board alone: the picture as before
    assert not double.unhandled
