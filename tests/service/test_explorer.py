"""The opening explorer (issue 50): its counts against an independent count over imported
records, the pools, transpositions, privacy and 数字将棋's secret setups."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bot import i18n
from bot.service import GameService
from bot.service.values import Refusal, Reply
from engines.core import State
from engines.explore import position_key
from engines.registry import get_game
from tests.helpers import (
    ALICE,
    BOB,
    PNG,
    query,
    record_json,
    run_script,
)
from tests.helpers import (
    EXPLORED as GAME,
)
from tests.helpers import (
    explorer_record as random_record,
)


def independent(games: list[tuple[list[str], dict[str, Any]]], prefix: list[str]) -> Counter[str]:
    """Per next move: games whose position after ``prefix`` was reached (by any order)."""
    game = get_game(GAME)
    target: State[Any] = game.new_game()
    for m in prefix:
        target = target.apply(target.parse_move(m))
    counts: Counter[str] = Counter()
    for moves, _ in games:
        state: State[Any] = game.new_game()
        seen = set()
        for m in moves:
            if state.position() == target.position():
                seen.add(m)
            state = state.apply(state.parse_move(m))
        counts.update(seen)
    return counts


def table(reply: Reply) -> dict[str, dict[str, Any]]:
    return {str(line.params["move"]): dict(line.params) for line in reply.lines}


@pytest.fixture
async def imported(real: GameService) -> list[tuple[list[str], dict[str, Any]]]:
    rng = random.Random(50)
    games = [random_record(rng) for _ in range(500)]
    for moves, result in games:
        reply = await real.play.import_record(ALICE, record_json(moves, result), guild_id="g1")
        assert reply.game_id is not None
    return games


async def test_counts_equal_an_independent_count(
    real: GameService, imported: list[tuple[list[str], dict[str, Any]]]
) -> None:
    start = await real.review.explore(GAME, "", "g1")
    expected = independent(imported, [])
    assert {m: r["games"] for m, r in table(start).items()} == dict(expected)
    assert start.params["games"] == sum(expected.values())
    assert not start.public
    two = next(iter(table(start)))  # the most played first move, then its most played answer
    first = await real.review.explore(GAME, two, "g1")
    second_move = next(iter(table(first)))
    deeper = await real.review.explore(GAME, f"{two} {second_move}", "g1")
    assert {m: r["games"] for m, r in table(deeper).items()} == dict(
        independent(imported, [two, second_move])
    )
    for reply in (start, first, deeper):
        for row in table(reply).values():
            assert row["wins"] + row["draws"] + row["losses"] == row["games"]
            assert row["losses"] >= 0 and row["wins"] >= 0
    # every server's pool holds the same; the rated pool none (imports are unrated)
    assert table(await real.review.explore(GAME, "", None)) == table(start)
    assert (await real.review.explore(GAME, "", "g1", rated=True)).key == "explore.empty"
    assert (await real.review.explore(GAME, "", "g2")).key == "explore.empty"
    # the rebuild from the move logs gives the same counts
    assert await real.review.rebuild_explorer() == 500
    assert table(await real.review.explore(GAME, "", "g1")) == table(start)
    assert table(await real.review.explore(GAME, f"{two} {second_move}", "g1")) == table(deeper)
    assert "局" in start.text("ja") and "games" in start.text("en")


async def test_transpositions_merge(real: GameService) -> None:
    game = get_game(GAME)
    state: State[Any] = game.new_game()
    a, b, c = (state.format_move(m) for m in state.legal_moves()[:3])
    # a b c and c b a: the same position after three plies (two placements each)?
    one = state
    for m in (a, b, c):
        one = one.apply(one.parse_move(m))
    two = state
    for m in (c, b, a):
        two = two.apply(two.parse_move(m))
    assert one.position() == two.position()
    assert position_key(GAME, one) == position_key(GAME, two)
    nxt = one.format_move(one.legal_moves()[0])
    result = {"termination": "resignation", "winners": [0], "ranks": [1, 2], "en": "x", "ja": "x"}
    for line in ([a, b, c, nxt], [c, b, a, nxt]):
        await real.play.import_record(ALICE, record_json(line, result), guild_id="g1")
    reply = await real.review.explore(GAME, f"{a} {b} {c}", "g1")
    assert table(reply)[nxt]["games"] == 2
    assert table(await real.review.explore(GAME, f"{c} {b} {a}", "g1")) == table(reply)


async def test_a_private_game_never_appears(real: GameService, db_path: str) -> None:
    result = {"termination": "resignation", "winners": [1], "ranks": [2, 1], "en": "x", "ja": "x"}
    state: State[Any] = get_game(GAME).new_game()
    move = state.format_move(state.legal_moves()[0])
    await real.play.import_record(ALICE, record_json([move], result))  # no server
    for guild in (None, "g1"):
        assert (await real.review.explore(GAME, "", guild)).key == "explore.empty"
    assert query(db_path, "SELECT count(*) FROM explorer")[0][0] == 0
    await real.review.rebuild_explorer()
    assert query(db_path, "SELECT count(*) FROM explorer")[0][0] == 0


async def test_suji_setups_appear_only_once_the_game_is_over(
    real: GameService, db_path: str
) -> None:
    reply = await real.play.create_game(
        ALICE, "suji-shogi", seated=[BOB], guild_id="g1", seed="seed"
    )
    gid = reply.game_id
    assert gid is not None
    await real.play.setup(gid, ALICE, "215/643")
    await real.play.setup(gid, BOB, "562/134")
    start = await real.review.explore("suji-shogi", "", "g1")
    assert start.key == "explore.empty"  # the game goes on: nothing of it, setups least of all
    assert query(db_path, "SELECT count(*) FROM explorer")[0][0] == 0
    await real.play.resign(gid, BOB)
    start = await real.review.explore("suji-shogi", "", "g1")
    assert list(table(start)) == ["215/643"]  # the first seat's setups, in their own table
    assert start.params["table"] == i18n.text("explore.setups")
    after = await real.review.explore("suji-shogi", "215/643 562/134", "g1")
    assert after.key == "explore.empty"  # resigned before the first move


async def test_bad_input_is_refused_clearly(real: GameService) -> None:
    with pytest.raises(Refusal) as unknown:
        await real.review.explore("chess", "", None)
    assert unknown.value.key == "refuse.unknown_game_type"
    with pytest.raises(Refusal) as illegal:
        await real.review.explore(GAME, "zz99", None)
    assert illegal.value.key == "refuse.bad_move"
    with pytest.raises(Refusal) as dice:
        await real.review.explore("yosuko", "", None)
    assert dice.value.key == "refuse.no_explorer"


def test_rebuild_command(db_path: str, capsys: pytest.CaptureFixture[str]) -> None:
    import asyncio

    import bot.__main__ as cli
    from bot.config import Settings

    async def games() -> list[tuple[str, int]]:
        service = await GameService.open(db_path, settings=Settings(db_path=db_path))
        try:
            rng = random.Random(7)
            for _ in range(3):
                moves, result = random_record(rng)
                await service.play.import_record(ALICE, record_json(moves, result), guild_id="g1")
            return sorted(query(db_path, "SELECT move, games FROM explorer"))
        finally:
            await service.close()

    before = asyncio.run(games())
    query(db_path, "DELETE FROM explorer")
    assert cli.main(["explorer", "rebuild", "--db", db_path]) == 0
    assert "from 3 finished games" in capsys.readouterr().out
    assert sorted(query(db_path, "SELECT move, games FROM explorer")) == before


async def test_the_sandbox_explores(tmp_path: Path) -> None:
    from bot.clock import FakeClock
    from bot.config import Settings

    db = str(tmp_path / "sandbox.db")
    service = await GameService.open(db, clock=FakeClock(), settings=Settings(db_path=db))
    try:
        moves, result = random_record(random.Random(3))
        await service.play.import_record(ALICE, record_json(moves, result), guild_id="g1")
    finally:
        await service.close()
    code, out = await run_script(tmp_path, f"/explore {GAME}\n/explore {GAME} {moves[0]}\n")
    assert code == 0
    assert f"{moves[0]}: 1 game (100%)" in out
    assert f"{moves[1]}: 1 game (100%)" in out
    code, out = await run_script(tmp_path, "/explore yosuko\n")
    assert "no opening explorer" in out


async def test_the_picture_numbers_the_most_played_moves(real: GameService) -> None:
    rng = random.Random(11)
    for _ in range(6):
        moves, result = random_record(rng)
        await real.play.import_record(ALICE, record_json(moves, result), guild_id="g1")
    reply = await real.review.explore(GAME, "", "g1")
    assert reply.image is not None and reply.image.startswith(PNG)
    assert reply.image_alt is not None
    assert [line.params["rank"] for line in reply.lines] == list(range(1, len(reply.lines) + 1))
    assert reply.text("en").count("1. ") >= 1
    plain = await real.review.explore(GAME, "", "g2")  # no moves: the plain position
    assert plain.image is not None and plain.image != reply.image


async def test_the_computer_pool_is_shown_apart(real: GameService, db_path: str) -> None:
    # The computer's self-play (shipped data) is its own pool: its counts are the corpus's,
    # Banmen's games never mix into it nor it into theirs, and its step buttons stay in it.
    from bot.learn import corpus

    game_id = "socrates-twothree"
    shipped = corpus.size(game_id)
    start = get_game(game_id).new_game()
    expected = corpus.counts(game_id)[position_key(game_id, start)]
    here = await real.review.explore(game_id, "", "g1", rated=True, computer=True)
    assert {m: p["games"] for m, p in table(here).items()} == {c.move: c.games for c in expected}
    assert here.params["games"] == shipped  # every game of the corpus starts here
    assert str(shipped) in here.params["pool"].en and "self-play" in here.params["pool"].en
    assert here.params["rated"] == i18n.text("explore.all")  # no rated games in self-play
    # Banmen's pool has none of them; it points to the computer's
    banmen = await real.review.explore(game_id, "", "g1")
    assert banmen.key == "explore.empty"
    assert [line.key for line in banmen.lines] == ["explore.try_computer"]
    assert banmen.lines[0].params["games"] == shipped
    assert query(db_path, "SELECT count(*) FROM explorer")[0][0] == 0
    # a step button keeps the pool
    first = here.actions[0]
    assert first.arg is not None and "|c0|" in first.arg
    deeper = await real.review.explore_step(first.arg, "g1")
    moved = start.apply(start.parse_move(expected[0].move))
    after = corpus.counts(game_id)[position_key(game_id, moved)]
    assert {m: p["games"] for m, p in table(deeper).items()} == {c.move: c.games for c in after}
    assert "self-play" in deeper.params["pool"].en
    back = [b for b in deeper.actions if b.arg is not None and b.arg.endswith("|")]
    assert back and "|c0|" in back[0].arg


async def test_the_computer_pool_of_suji_shows_setups_as_their_own_table(
    real: GameService,
) -> None:
    reply = await real.review.explore("suji-shogi", "", None, computer=True)
    assert reply.params["table"] == i18n.text("explore.setups")
    assert all("/" in move for move in table(reply))  # arrangements, not moves
    assert reply.actions == ()  # the tree is not stepped past its setups
