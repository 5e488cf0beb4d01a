"""Trust: what a player must not learn (another's secret setup, the seed of chance still to
come, tomorrow's deal) stays out of everything posted for everyone."""

from __future__ import annotations

import json
from collections.abc import Awaitable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bot.clock import FakeClock
from bot.config import Settings
from bot.service import GameService, Refusal, Reply, User
from engines.core import CHANCE, State, chance_pick
from engines.registry import get_game
from tests.helpers import ALICE, BOB, CAROL, file_text, offered, play_on


async def suji(real: GameService) -> int:
    reply = await real.play.create_game(ALICE, "suji-shogi", seated=[BOB])
    assert reply.game_id is not None
    await real.play.setup(reply.game_id, ALICE, "321/654")
    return reply.game_id


async def test_own_secret_setup_is_never_posted_publicly(real: GameService) -> None:
    """Alice sent her arrangement, Bob not yet: her /moves and /record show it, so they go to
    her alone; a spectator's (and Bob's) show it hidden and may be public (Bob's /moves is:
    he is due to act; a spectator's look at the moves is theirs alone)."""
    gid = await suji(real)
    for ask in (real.play.moves, real.play.record):
        mine = await ask(gid, ALICE)
        assert not mine.public and mine.audience == ALICE.id
        for other in (BOB, CAROL, None):
            theirs = await ask(gid, other)
            if ask == real.play.moves and other is CAROL:
                assert not theirs.public and theirs.audience == CAROL.id
            else:
                assert theirs.public, (ask, other)
            shown = theirs.text("en") + theirs.text("ja")
            shown += "".join(file_text(f.name, f.data) for f in theirs.files)
            assert "321/654" not in shown and "654" not in shown
    board = await real.play.board(gid, ALICE)
    assert not board.public and board.audience == ALICE.id


async def test_no_offer_or_takeback_buttons_during_a_secret_setup(real: GameService) -> None:
    gid = await suji(real)
    board = await real.play.board(gid, CAROL)
    assert "offer_draw" not in offered(board) and "takeback" not in offered(board)
    changed = await real.play.setup(gid, ALICE, "654/321")
    assert changed[1].notify == ()  # a changed arrangement pings nobody


async def test_seed_is_shown_only_after_the_end(real: GameService) -> None:
    reply = await real.play.create_game(ALICE, "yosuko")
    gid = reply.game_id
    assert gid is not None
    seed = (await real.play.game_info(gid)).seed
    assert len(seed) >= 32  # from secrets
    running = await real.play.record(gid, ALICE)
    assert all(seed not in file_text(f.name, f.data) for f in running.files)
    await real.play.resign(gid, ALICE)
    finished = await real.play.record(gid, ALICE)
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
            seeds.append(await svc.play.community.daily_seed("2026-11-24"))
        finally:
            await svc.close()
    assert seeds[0] == seeds[1]
    assert "2026-11-24" not in seeds[0]
    other = replace(settings, secret="another key")
    svc = await GameService.open(db_path, clock=clock, settings=other)
    try:
        assert await svc.play.community.daily_seed("2026-11-24") != seeds[0]
    finally:
        await svc.close()


async def test_offer_pings_the_one_who_must_answer(real: GameService, clock: FakeClock) -> None:
    reply = await real.play.create_game(ALICE, "rokumentai", seated=[BOB])
    gid = reply.game_id
    assert gid is not None
    offer = await real.play.offer_draw(gid, ALICE)  # alice is to move
    assert offer.notify == (BOB.id,)
    await real.play.move(gid, ALICE, "四04占")
    clock.advance(timedelta(minutes=5))
    takeback = await real.play.request_takeback(gid, ALICE)
    assert takeback.key == "takeback.offered" and takeback.notify == (BOB.id,)


async def test_setup_steps_are_not_move_numbers(real: GameService) -> None:
    """The rules README: 数字将棋's first move after the setups is move 1, however often an
    arrangement was changed."""
    gid = await suji(real)
    await real.play.setup(gid, ALICE, "654/321")  # changed once
    await real.play.setup(gid, BOB, "321/654")
    state = real.play.current_state(gid)
    assert state is not None
    first = state.format_move(state.legal_moves()[0])
    to_move = (ALICE, BOB)[state.current_player()]
    played = await real.play.move(gid, to_move, first)
    assert played.params["ply"] == 1


# --- the daily deal's seed (issue 30) ---------------------------------------------------------


def everything_in(reply: Reply) -> str:
    """All a reply shows: its texts in both languages, its lines, files and parameters."""
    shown = [reply.text("en"), reply.text("ja"), repr(reply.params), repr(reply.lines)]
    shown += [file_text(f.name, f.data) for f in reply.files]
    shown.append(repr(reply.actions))  # the buttons, with their labels
    return "\n".join(shown)


def game_looks(real: GameService, gid: int, viewer: User) -> list[Awaitable[Reply]]:
    """Every way ``viewer`` can look at game ``gid``."""
    return [
        real.play.board(gid, viewer),
        real.play.moves(gid, viewer),
        real.play.record(gid, viewer),
        real.review.replay(gid, viewer),
        real.review.replay_step(gid, viewer, 0),
        real.review.replay_step(gid, viewer, 9999),
    ]


async def every_look(real: GameService, gid: int, viewer: User) -> str:
    """Everything ``viewer`` can ask about game ``gid`` and the daily deal."""
    replies = [
        *[await look for look in game_looks(real, gid, viewer)],
        await real.play.list_games(viewer),
        await real.play.daily_board(None),
        await real.play.daily_board("g"),
        await real.play.stats(viewer),
    ]
    return "\n".join(everything_in(r) for r in replies)


async def refused_every_look(real: GameService, gid: int, viewer: User) -> None:
    """Every look at the daily ``gid`` is refused to ``viewer``, saying why."""
    reviews = [real.review.game(gid, viewer), real.review.better(gid, viewer, 1)]
    for look in [*game_looks(real, gid, viewer), *reviews]:
        with pytest.raises(Refusal) as refused:
            await look
        assert refused.value.key == "refuse.daily_private"
        assert "only its player" in refused.value.text("en")


async def test_a_finished_daily_does_not_tell_the_day_s_deal(
    real: GameService, clock: FakeClock
) -> None:
    """Alice finishes today's daily; Bob, playing his, cannot get the shared seed from anything
    about her game (or his) until the day is over everywhere; then her record shows it."""
    clock.set(datetime(2026, 11, 27, 9, 0, tzinfo=UTC))
    hers = (await real.play.daily(ALICE, "g")).game_id
    his = (await real.play.daily(BOB, "g")).game_id
    assert hers is not None and his is not None
    await play_on(real, hers, 3)
    if (await real.play.game_info(hers)).status == "active":  # some deals end within three plies
        await real.play.resign(hers, ALICE)
    seed = (await real.play.game_info(hers)).seed
    assert seed == (await real.play.game_info(his)).seed  # the same deal for everyone
    for when in (
        datetime(2026, 11, 27, 23, 59, tzinfo=UTC),  # still the day (UTC)
        datetime(2026, 11, 28, 11, 59, tzinfo=UTC),  # still the day in UTC-12
    ):
        clock.set(when)
        assert seed not in await every_look(real, hers, ALICE), when
        assert seed not in await every_look(real, his, BOB), when
        for viewer in (BOB, CAROL):  # her draws are his to come: nobody else may look
            await refused_every_look(real, hers, viewer)
        # her record without the seed still imports (finished) and replays to the same end
        json_file = next(
            f for f in (await real.play.record(hers, ALICE)).files if f.name[-4:] == "json"
        )
        copy = (await real.play.import_record(ALICE, json_file.data)).game_id
        assert copy is not None
        assert (await real.play.game_info(copy)).status == "finished"
        assert (await real.play.export_record(copy)).entries == (
            await real.play.export_record(hers)
        ).entries
        assert seed not in await every_look(real, copy, ALICE)
    assert (await real.play.game_info(hers)).daily_day == "2026-11-27"
    clock.set(datetime(2026, 11, 28, 12, 0, tzinfo=UTC))  # the day is over everywhere
    # but Bob's daily of that day still runs: her game would tell him every draw to come
    assert seed not in await every_look(real, hers, ALICE)
    assert seed not in await every_look(real, his, BOB)
    for viewer in (BOB, CAROL):
        await refused_every_look(real, hers, viewer)
    await real.play.resign(his, BOB)  # the day's last daily ends: now the deal may be known
    assert seed in await every_look(real, hers, CAROL)  # anyone may look at her game now
    files = (await real.play.record(hers, BOB)).files
    assert all(seed in file_text(f.name, f.data) for f in files)
    assert seed in everything_in(await real.play.record(his, BOB))


async def test_the_reveal_hour_is_a_setting(clock: FakeClock, db_path: str) -> None:
    clock.set(datetime(2026, 11, 27, 9, 0, tzinfo=UTC))
    settings = Settings(db_path=db_path, daily_reveal_hours=0)
    svc = await GameService.open(db_path, clock=clock, settings=settings)
    try:
        gid = (await svc.play.daily(ALICE)).game_id
        assert gid is not None
        await svc.play.resign(gid, ALICE)
        seed = (await svc.play.game_info(gid)).seed
        assert seed not in everything_in(await svc.play.record(gid, ALICE))
        clock.set(datetime(2026, 11, 28, 0, 0, tzinfo=UTC))
        assert seed in everything_in(await svc.play.record(gid, BOB))
    finally:
        await svc.close()


# --- an imported unfinished game's seed (issue 30) ---------------------------------------------


async def continued_copy(real: GameService, edited: str, known: str) -> tuple[int, int, int]:
    """Import the unfinished record ``edited`` (its seed ``known``), play the copy to its end,
    and check every draw follows from what is stored; the copy's id, how many draws came after
    the import, and how many of those the file's seed would have predicted."""
    copy = (await real.play.import_record(ALICE, edited)).game_id
    assert copy is not None
    row = await real.play.game_info(copy)
    assert row.seed == known and row.reseed is not None and row.reseed != known
    await play_on(real, copy, 60, seed=5)
    if (await real.play.game_info(copy)).status == "active":
        await real.play.resign(copy, ALICE)
    row = await real.play.game_info(copy)
    state: State[Any] = get_game("yosuko").new_game(1, row.options)
    imported, after, predicted = len(json.loads(edited)["moves"]), 0, 0
    for index, entry in enumerate(await real.play.entries(copy)):
        if entry.actor == CHANCE:
            # every draw follows from what is stored: the file's seed before, the fresh after
            assert state.format_move(chance_pick(state, row.seed_at(state.ply), state.ply)) == (
                entry.move
            )
            if index >= imported:
                after += 1
                guess = state.format_move(chance_pick(state, known, state.ply))
                predicted += guess == entry.move
        move = state.parse_move(entry.move, None if entry.actor == CHANCE else entry.actor)
        state = state.apply(move, None if entry.actor == CHANCE else entry.actor)
    return copy, after, predicted


async def test_an_imported_game_goes_on_with_a_seed_the_file_does_not_tell(
    real: GameService,
) -> None:
    """Whoever writes the seed into an unfinished record cannot compute the draws to come:
    the game goes on with a fresh secret seed; the file's picked the draws already made, and
    the finished record shows both and replays."""
    known = "everyone-knows-this-seed"
    original = (await real.play.create_game(ALICE, "yosuko", seed=known)).game_id
    assert original is not None
    await play_on(real, original, 3)
    edited = (await real.play.export_record(original)).to_json()  # the seed written in the file
    assert known in edited
    for _ in range(20):  # a fresh seed may end the game within a few draws: import again
        copy, after, predicted = await continued_copy(real, edited, known)
        if after >= 5:
            break
    assert after >= 5 and predicted < after
    row = await real.play.game_info(copy)
    record = await real.play.record(copy, ALICE)
    kifu = next(file_text(f.name, f.data) for f in record.files if f.name.endswith(".kifu"))
    assert f"seed: {known}" in kifu and f"seed from ply {row.reseed_from}: {row.reseed}" in kifu
    again = (await real.play.import_record(BOB, kifu)).game_id  # the finished record replays
    assert again is not None
    assert (await real.play.export_record(again)).entries == (
        await real.play.export_record(copy)
    ).entries
