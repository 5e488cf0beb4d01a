"""/explore through the Discord double: a private table of the moves played next."""

from __future__ import annotations

import random

import pytest

from bot.service import Action, GameService, Practice, Press, Refusal, User
from tests.bot.conftest import Harness
from tests.discord_double import DiscordDouble
from tests.helpers import ALICE, record_json
from tests.helpers import EXPLORED as GAME
from tests.helpers import explorer_record as random_record


async def _one_game_here(harness: Harness, double: DiscordDouble) -> tuple[GameService, list[str]]:
    """One finished game of the explorer's, imported in the double's server: its moves."""
    service = harness.service
    assert service is not None
    moves, result = random_record(random.Random(5))
    await service.play.import_record(
        ALICE, record_json(moves, result), guild_id=str(double.guild_id)
    )
    return service, list(moves)


async def test_explore_through_discord(harness: Harness, double: DiscordDouble) -> None:
    _, moves = await _one_game_here(harness, double)
    here = await double.slash(double.carol, "explore", {"game": GAME})
    assert here.ephemeral and f"{moves[0]}: 1 game (100%)" in here.text
    deeper = await double.slash(double.carol, "explore", {"game": GAME, "moves": moves[0]})
    assert deeper.ephemeral and f"{moves[1]}: 1 game (100%)" in deeper.text
    bad = await double.slash(double.carol, "explore", {"game": GAME, "moves": "zz99"})
    assert bad.ephemeral and "zz99" in bad.text
    rated = await double.slash(double.carol, "explore", {"game": GAME, "rated": True})
    assert rated.ephemeral and "no finished game" in rated.text


async def test_step_into_a_move_and_back(harness: Harness, double: DiscordDouble) -> None:
    # The explorer's buttons: one into each of the most played moves (numbered as the picture
    # marks them), one back; each press replaces the private explorer in place, and keeps the
    # pool it was asked for (this server's games).
    service, moves = await _one_game_here(harness, double)
    here = await double.slash(double.carol, "explore", {"game": GAME})
    assert here.message is not None
    message = here.message
    buttons = double.buttons(message)
    assert list(buttons) == [f"1. {moves[0]}"]  # nothing to go back to at the start
    await double.click(double.carol, message, buttons[f"1. {moves[0]}"])
    now = double.messages[int(message["id"])]
    assert int(now["flags"]) & 64  # still hers alone
    assert f"{moves[1]}: 1 game (100%)" in double.text_of(now)  # the same message, one deeper
    assert set(double.buttons(now)) == {f"1. {moves[1]}", "◀ Back"}
    await double.click(double.carol, now, double.buttons(now)["◀ Back"])
    back = double.messages[int(message["id"])]
    assert f"{moves[0]}: 1 game (100%)" in double.text_of(back)
    # a step that names no legal move (a button made up, or from an older version of the
    # game's rules) is refused, and so is an argument that is no explorer position
    with pytest.raises(Refusal):
        await service.review.explore_step(f"{GAME}|g0|zz")
    user = User(str(double.carol.id), "carol")
    with pytest.raises(Refusal) as refused:
        await service.act(Action.EXPLORE_STEP, Press(Practice(), user, "no such|thing"))
    assert refused.value.key == "refuse.button_argument"


async def test_the_computer_pool_through_discord(harness: Harness, double: DiscordDouble) -> None:
    shown = await double.slash(
        double.carol, "explore", {"game": "socrates-twothree", "pool": "computer"}
    )
    assert shown.ephemeral and "self-play at levels 6–8" in shown.text
    assert shown.message is not None
    first = next(iter(double.buttons(shown.message)))
    assert first.startswith("1. ")
    await double.click(double.carol, shown.message, double.buttons(shown.message)[first])
    now = double.messages[int(shown.message["id"])]
    assert "self-play" in double.text_of(now) and "◀ Back" in double.buttons(now)
