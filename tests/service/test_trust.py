"""Trust: what a player must not learn (another's secret setup, the seed of chance still to
come, tomorrow's deal) stays out of everything posted for everyone."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from bot.clock import FakeClock
from bot.config import Settings
from bot.service import GameService
from tests.service.conftest import ALICE, BOB, CAROL
from tests.service.helpers import file_text, offered


async def suji(real: GameService) -> int:
    reply = await real.create_game(ALICE, "suji-shogi", seated=[BOB])
    assert reply.game_id is not None
    await real.setup(reply.game_id, ALICE, "321/654")
    return reply.game_id


async def test_own_secret_setup_is_never_posted_publicly(real: GameService) -> None:
    """Alice sent her arrangement, Bob not yet: her /moves and /record show it, so they go to
    her alone; a spectator's (and Bob's) show it hidden and may be public (Bob's /moves is:
    he is due to act; a spectator's look at the moves is theirs alone)."""
    gid = await suji(real)
    for ask in (real.moves, real.record):
        mine = await ask(gid, ALICE)
        assert not mine.public and mine.audience == ALICE.id
        for other in (BOB, CAROL, None):
            theirs = await ask(gid, other)
            if ask == real.moves and other is CAROL:
                assert not theirs.public and theirs.audience == CAROL.id
            else:
                assert theirs.public, (ask, other)
            shown = theirs.text("en") + theirs.text("ja")
            shown += "".join(file_text(f.name, f.data) for f in theirs.files)
            assert "321/654" not in shown and "654" not in shown
    board = await real.board(gid, ALICE)
    assert not board.public and board.audience == ALICE.id


async def test_no_offer_or_takeback_buttons_during_a_secret_setup(real: GameService) -> None:
    gid = await suji(real)
    board = await real.board(gid, CAROL)
    assert "offer_draw" not in offered(board) and "takeback" not in offered(board)
    changed = await real.setup(gid, ALICE, "654/321")
    assert changed[1].notify == ()  # a changed arrangement pings nobody


async def test_seed_is_shown_only_after_the_end(real: GameService) -> None:
    reply = await real.create_game(ALICE, "yosuko")
    gid = reply.game_id
    assert gid is not None
    seed = (await real.game_info(gid)).seed
    assert len(seed) >= 32  # from secrets
    running = await real.record(gid, ALICE)
    assert all(seed not in file_text(f.name, f.data) for f in running.files)
    await real.resign(gid, ALICE)
    finished = await real.record(gid, ALICE)
    assert any(seed in file_text(f.name, f.data) for f in finished.files)


async def test_daily_seed_needs_the_host_key(
    clock: FakeClock, db_path: str, tmp_path: object
) -> None:
    """Same key (the store's, kept across restarts): same deal; another key: another deal."""
    settings = Settings(db_path=db_path)
    seeds = []
    for _ in range(2):
        svc = await GameService.open(db_path, clock=clock, settings=settings)
        try:
            seeds.append(await svc.community.daily_seed("2026-11-24"))
        finally:
            await svc.close()
    assert seeds[0] == seeds[1]
    assert "2026-11-24" not in seeds[0]
    other = replace(settings, secret="another key")
    svc = await GameService.open(db_path, clock=clock, settings=other)
    try:
        assert await svc.community.daily_seed("2026-11-24") != seeds[0]
    finally:
        await svc.close()


async def test_offer_pings_the_one_who_must_answer(real: GameService, clock: FakeClock) -> None:
    reply = await real.create_game(ALICE, "rokumentai", seated=[BOB])
    gid = reply.game_id
    assert gid is not None
    offer = await real.offer_draw(gid, ALICE)  # alice is to move
    assert offer.notify == (BOB.id,)
    await real.play(gid, ALICE, "四04占")
    clock.advance(timedelta(minutes=5))
    takeback = await real.request_takeback(gid, ALICE)
    assert takeback.key == "takeback.offered" and takeback.notify == (BOB.id,)


async def test_setup_steps_are_not_move_numbers(real: GameService) -> None:
    """The rules README: 数字将棋's first move after the setups is move 1, however often an
    arrangement was changed."""
    gid = await suji(real)
    await real.setup(gid, ALICE, "654/321")  # changed once
    await real.setup(gid, BOB, "321/654")
    state = real.current_state(gid)
    assert state is not None
    first = state.format_move(state.legal_moves()[0])
    to_move = (ALICE, BOB)[state.current_player()]
    played = await real.play(gid, to_move, first)
    assert played.params["ply"] == 1
