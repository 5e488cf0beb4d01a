"""Who sits where: seats drawn at random (an injected draw, never luck), and rematches with the
seats turned; the result names the people beside the seats."""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator
from typing import Any

import pytest

import bot.service.context
from bot.clock import FakeClock
from bot.config import Settings
from bot.service import HOST_ID, GameService, Refusal, User
from tests.helpers import ALICE, BOB, CAROL, DAVE, offered


def reverse(seats: list[Any]) -> None:
    seats.reverse()


def rotate(seats: list[Any]) -> None:
    """A draw that moves everyone one seat on."""
    seats.append(seats.pop(0))


async def opened(db_path: str, clock: FakeClock, shuffle: Any) -> GameService:
    return await GameService.open(
        db_path, clock=clock, settings=Settings(db_path=db_path), shuffle=shuffle
    )


@pytest.fixture
async def drawn(fakes: None, clock: FakeClock, db_path: str) -> AsyncIterator[GameService]:
    """A service whose seat draw reverses the order it is given."""
    svc = await opened(db_path, clock, reverse)
    try:
        yield svc
    finally:
        await svc.close()


def seated(info: Any) -> list[str | None]:
    return [s.user_id or s.invited_id for s in info.seats]


# --- the seat draw ------------------------------------------------------------------------------


def test_the_default_draw_is_the_operating_systems() -> None:
    """Nobody can predict the seats: the default draw is ``secrets.SystemRandom``'s shuffle."""
    assert isinstance(bot.service.context.SEAT_RANDOM, secrets.SystemRandom)
    default = bot.service.context.Context.__dataclass_fields__["shuffle"].default
    assert default == bot.service.context.SEAT_RANDOM.shuffle


async def test_a_challenge_draws_its_seats(drawn: GameService) -> None:
    reply = await drawn.play.create_game(ALICE, "ttt-test", invite=[BOB])
    assert reply.game_id is not None
    # the draw put bob first: he moves first once he accepts
    assert seated(await drawn.play.game_info(reply.game_id)) == [BOB.id, ALICE.id]
    started = await drawn.play.join(reply.game_id, BOB)
    assert started.to_move == (BOB.id,)


async def test_both_orders_occur(fakes: None, clock: FakeClock, db_path: str) -> None:
    """Over the draws a shuffle can make, the creator moves first in some and second in others."""
    firsts = set()
    for draw in (reverse, bot.service.context.draw_seats, rotate):
        svc = await opened(db_path, clock, draw)  # one store: each draw makes its own game
        try:
            reply = await svc.play.create_game(ALICE, "ttt-test", invite=[BOB])
            assert reply.game_id is not None
            firsts.add((await svc.play.game_info(reply.game_id)).seats[0].invited_id or ALICE.id)
        finally:
            await svc.close()
    assert firsts == {ALICE.id, BOB.id}


async def test_a_lobby_seats_its_joiners_at_drawn_seats(drawn: GameService) -> None:
    reply = await drawn.play.create_game(ALICE, "race-test", open_seats=2)
    gid = reply.game_id
    assert gid is not None
    # the creator's seat was drawn (reversed: last); each joiner takes a drawn free seat
    assert seated(await drawn.play.game_info(gid)) == [None, None, ALICE.id]
    await drawn.play.join(gid, BOB)
    assert seated(await drawn.play.game_info(gid)) == [None, BOB.id, ALICE.id]
    await drawn.play.join(gid, CAROL)
    assert seated(await drawn.play.game_info(gid)) == [CAROL.id, BOB.id, ALICE.id]


async def test_listed_seats_keep_their_order(drawn: GameService) -> None:
    listed = await drawn.play.create_game(ALICE, "ttt-test", invite=[BOB], seating="listed")
    assert listed.game_id is not None
    assert seated(await drawn.play.game_info(listed.game_id)) == [ALICE.id, BOB.id]
    # a game made full with seated players (imports, tests) keeps the order given
    full = await drawn.play.create_game(ALICE, "ttt-test", seated=[BOB])
    assert full.game_id is not None
    assert seated(await drawn.play.game_info(full.game_id)) == [ALICE.id, BOB.id]


# --- rematches --------------------------------------------------------------------------------


async def finished_race(service: GameService, players: list[User]) -> int:
    """A dice race among ``players`` (as listed) that the first player loses by landing on 7."""
    reply = await service.play.create_game(
        players[0], "race-test", seated=players[1:], clock="live:5"
    )
    gid = reply.game_id
    assert gid is not None
    while (await service.play.game_info(gid)).status == "active":
        state = service.play.current_state(gid)
        assert state is not None
        await service.play.move(gid, players[state.current_player()], "step")
    return gid


async def test_a_three_player_result_names_the_winners(service: GameService) -> None:
    gid = await finished_race(service, [ALICE, BOB, CAROL])
    end = await service.play.board(gid)
    assert "Result: landed on 7" in end.text("en")
    assert "Winners: bob (White) and carol (Third)" in end.text("en")
    assert "勝者: bobさん（後手）、carolさん（三番手）" in end.text("ja")
    assert "rematch" in offered(end)


async def test_rematch_turns_the_seats_and_is_a_challenge(service: GameService) -> None:
    gid = await finished_race(service, [ALICE, BOB, CAROL])
    old = await service.play.game_info(gid)
    asked = await service.play.rematch(gid, CAROL)
    new_id = asked.game_id
    assert new_id is not None and asked.key == "rematch.created"
    assert set(asked.notify) == {ALICE.id, BOB.id}  # the others are asked
    assert set(offered(asked)) >= {"accept", "decline"}
    assert f"rematch of game #{gid}" in asked.text("en")
    new = await service.play.game_info(new_id)
    # everyone moved one seat on: bob (was 2nd) is first, carol, then alice
    assert seated(new) == [BOB.id, CAROL.id, ALICE.id]
    assert new.options == old.options and new.clock == old.clock and new.players == 3
    assert new.status == "open" and new.expires_ms is not None  # it lapses like a challenge
    # asking twice makes nothing new; an invited player asking accepts the waiting rematch
    with pytest.raises(Refusal) as twice:
        await service.play.rematch(gid, CAROL)
    assert twice.value.key == "refuse.rematch_waiting"
    joined = await service.play.rematch(gid, ALICE)
    assert joined.game_id == new_id and joined.key == "game.joined"
    started = await service.play.join(new_id, BOB)
    assert started.key == "game.started" and started.to_move == (BOB.id,)


async def test_a_two_player_rematch_swaps_and_can_be_declined(service: GameService) -> None:
    gid = await finished_race(service, [ALICE, BOB])
    asked = await service.play.rematch(gid, ALICE)
    assert asked.game_id is not None
    assert seated(await service.play.game_info(asked.game_id)) == [BOB.id, ALICE.id]
    declined = await service.play.decline(asked.game_id, BOB)
    assert declined.key == "challenge.declined"
    # once withdrawn, a new rematch may be asked for
    again = await service.play.rematch(gid, BOB)
    assert again.game_id not in (None, asked.game_id)


async def test_rematch_refusals(service: GameService) -> None:
    running = await service.play.create_game(ALICE, "race-test", seated=[BOB])
    assert running.game_id is not None
    with pytest.raises(Refusal) as early:
        await service.play.rematch(running.game_id, ALICE)
    assert early.value.key == "refuse.not_finished"
    gid = await finished_race(service, [ALICE, BOB])
    with pytest.raises(Refusal) as stranger:
        await service.play.rematch(gid, DAVE)
    assert stranger.value.key == "refuse.not_a_player"
    with pytest.raises(Refusal) as unknown:
        await service.play.rematch(10**6, ALICE)
    assert unknown.value.key == "refuse.unknown_game"


async def test_a_solo_rematch_starts_at_once(service: GameService) -> None:
    gid = await finished_race(service, [ALICE])
    again = await service.play.rematch(gid, ALICE)
    assert again.key == "game.started" and again.game_id not in (None, gid)


async def test_rematch_against_the_host_keeps_the_host_seat(service: GameService) -> None:
    reply = await service.play.create_game(ALICE, "race-test", host_seats=1, seating="listed")
    gid = reply.game_id
    assert gid is not None
    host = User(HOST_ID, "Banmen")
    while (await service.play.game_info(gid)).status == "active":
        state = service.play.current_state(gid)
        assert state is not None
        await service.play.move(gid, (ALICE, host)[state.current_player()], "step")
    again = await service.play.rematch(gid, ALICE)
    assert again.key == "game.started"  # nobody to ask: it starts at once
    assert again.game_id is not None
    seats = (await service.play.game_info(again.game_id)).seats
    assert [s.kind for s in seats] == ["host", "human"] and seats[1].user_id == ALICE.id


async def test_no_rematch_after_an_abort(service: GameService) -> None:
    reply = await service.play.create_game(ALICE, "race-test", seated=[BOB])
    assert reply.game_id is not None
    await service.play.abort(reply.game_id, CAROL)
    with pytest.raises(Refusal) as aborted:
        await service.play.rematch(reply.game_id, ALICE)
    assert aborted.value.key == "refuse.not_finished"
