"""/explore through the Discord double: a private table of the moves played next."""

from __future__ import annotations

import random

from tests.bot.conftest import Harness
from tests.discord_double import DiscordDouble
from tests.helpers import ALICE, record_json
from tests.helpers import EXPLORED as GAME
from tests.helpers import explorer_record as random_record


async def test_explore_through_discord(harness: Harness, double: DiscordDouble) -> None:
    service = harness.service
    assert service is not None
    moves, result = random_record(random.Random(5))
    await service.play.import_record(
        ALICE, record_json(moves, result), guild_id=str(double.guild_id)
    )
    here = await double.slash(double.carol, "explore", {"game": GAME})
    assert here.ephemeral and f"{moves[0]}: 1 game (100%)" in here.text
    deeper = await double.slash(double.carol, "explore", {"game": GAME, "moves": moves[0]})
    assert deeper.ephemeral and f"{moves[1]}: 1 game (100%)" in deeper.text
    bad = await double.slash(double.carol, "explore", {"game": GAME, "moves": "zz99"})
    assert bad.ephemeral and "zz99" in bad.text
    rated = await double.slash(double.carol, "explore", {"game": GAME, "rated": True})
    assert rated.ephemeral and "no finished game" in rated.text
