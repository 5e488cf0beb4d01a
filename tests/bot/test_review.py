"""/review through the Discord double: one progress message edited while the computer
reviews, then the chart privately with its Better-move buttons; a player shows it in the thread;
a running game is refused; a stored review comes at once."""

from __future__ import annotations

from dataclasses import replace

from tests.bot.conftest import Harness
from tests.discord_double import DiscordDouble
from tests.helpers import PNG, play_three, start_challenge


async def test_review_through_discord(harness: Harness, double: DiscordDouble) -> None:
    service = harness.service
    assert service is not None
    service.ctx.settings = replace(service.ctx.settings, review_nodes=100)
    thread_id, turn = await start_challenge(double)
    early = await double.slash(double.carol, "review", {}, channel=thread_id)
    assert early.ephemeral and "is not over" in early.text

    await play_three(double, thread_id, turn)
    last = await double.wait_for_message(
        thread_id, lambda m: "Resign" in double.buttons(m) and "move 3" not in double.text_of(m)
    )
    resigned = await double.click(double.alice, last, double.buttons(last)["Resign"])
    assert not resigned.ephemeral

    review = await double.slash(double.carol, "review", {}, channel=thread_id)
    await double.wait_for(lambda: any(r.files for r in review.replies))
    progress = [r for r in review.replies if "reviewing game" in str(r.body)]
    assert progress and "move 0 of 3" in str(progress[0].body)  # one message, then edited
    assert all(r.kind != "followup" for r in progress)
    answer = next(r for r in review.replies if r.files)
    assert answer.kind == "followup" and answer.files[0].data.startswith(PNG)
    assert int((answer.body or {}).get("flags") or 0) & 64  # private to carol
    assert answer.message is not None
    assert "Computer review of game" in str(answer.body)
    ids = double.buttons(answer.message).values()
    assert not [i for i in ids if "review_public" in i]  # carol does not play: no publishing

    # bob plays: his (stored, at once) review offers to show it in the thread.
    mine = await double.slash(double.bob, "review", {}, channel=thread_id)
    await double.wait_for(lambda: any(r.files for r in mine.replies))
    own = next(r for r in mine.replies if r.files)
    assert not [r for r in mine.replies if "reviewing game" in str(r.body)]
    assert own.message is not None
    (show,) = [i for i in double.buttons(own.message).values() if "review_public" in i]
    shown = await double.click(double.bob, own.message, show)
    await double.wait_for(lambda: any(r.files for r in shown.replies))
    public = next(r for r in shown.replies if r.files)
    assert not int((public.body or {}).get("flags") or 0) & 64
    assert not [r for r in double.requests if r.status >= 400]
