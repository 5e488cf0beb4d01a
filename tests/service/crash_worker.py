"""A host that plays random moves for ever, printing ``ACK <game> <log index> <move>`` after each
acknowledged move; the crash test kills it with SIGKILL at random moments."""

from __future__ import annotations

import asyncio
import random
import sys

import engines.registry
import render
from bot.clock import SystemClock
from bot.config import Settings
from bot.service import GameService, User
from engines.core import SIMULTANEOUS
from tests.service.fakegame import FAKE_GAMES

USERS = (User("1", "alice"), User("2", "bob"))


async def main(db_path: str, seed: int) -> None:
    setattr(engines.registry, "_games", lambda: dict(FAKE_GAMES))  # noqa: B010
    setattr(render, "_renderers", dict)  # noqa: B010
    rng = random.Random(seed)
    service = await GameService.open(
        db_path, clock=SystemClock(), settings=Settings(db_path=db_path)
    )
    game_id: int | None = None
    while True:
        if game_id is None or (await service.play.game_info(game_id)).status != "active":
            kind = rng.choice(("ttt-test", "race-test"))
            reply = await service.play.create_game(
                USERS[0], kind, seated=[USERS[1]], clock="corr:3"
            )
            game_id = reply.game_id
            assert game_id is not None
        state = service.play.current_state(game_id)
        assert state is not None
        seat = state.acting_players()[0]
        user = USERS[seat]
        move = rng.choice(await service.play.legal_move_choices(game_id, user.id, "", 100))
        index = len(await service.play.entries(game_id))
        if state.current_player() == SIMULTANEOUS:
            await service.play.setup(game_id, user, move)
        else:
            await service.play.move(game_id, user, move)
        print(f"ACK {game_id} {index} {move}", flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
