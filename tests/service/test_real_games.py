"""Every registered real game plays through the service: random legal moves to the end (or a
move limit), secret setups through /setup, chance through the seed; the log replays identically."""

from __future__ import annotations

import random

import pytest

from bot.clock import FakeClock
from bot.config import Settings
from bot.service import GameService, User
from engines.core import SIMULTANEOUS
from engines.registry import all_games

USERS = (User("1", "alice"), User("2", "bob"), User("3", "carol"))
GAMES = [(g.id, g.player_counts[0]) for g in all_games()]


@pytest.mark.parametrize(("game_type", "players"), GAMES, ids=[g for g, _ in GAMES])
async def test_random_game_through_the_service(game_type: str, players: int, db_path: str) -> None:
    rng = random.Random(game_type)
    service = await GameService.open(
        db_path, clock=FakeClock(), settings=Settings(db_path=db_path), render_images=False
    )
    try:
        reply = await service.play.create_game(USERS[0], game_type, seated=USERS[1:players])
        gid = reply.game_id
        assert gid is not None
        for _ in range(120):
            if (await service.play.game_info(gid)).status != "active":
                break
            state = service.play.current_state(gid)
            assert state is not None
            seat = state.acting_players()[0]
            user = USERS[seat]
            choices = await service.play.legal_move_choices(gid, user.id, "", 10_000)
            assert choices, "an active game offers its player a move"
            move = rng.choice(choices)
            if state.current_player() == SIMULTANEOUS:
                await service.play.setup(gid, user, move)
            else:
                await service.play.move(gid, user, move)
        record = await service.play.export_record(gid)
        assert record.replay().position() == service.play.current_state(gid).position()  # type: ignore[union-attr]
    finally:
        await service.close()
