"""Conditional moves (issue 33): kept privately, followed move by move, the reply played once
through the move use case (also when the process dies between the two), refused where they do
not apply."""

from __future__ import annotations

import pytest

from bot.clock import FakeClock
from bot.config import Settings
from bot.model import Conditional, MoveRow
from bot.service import GameService, Refusal
from bot.service.correspond import premove_rules as rules
from tests.helpers import ALICE, BOB, CAROL, moves_of, snapshot, stored_row


async def _ttt(service: GameService) -> int:
    """Alice (x, seat 0) has played a1: Bob is to move, Alice waits."""
    reply = await service.play.create_game(ALICE, "ttt-test", seated=[BOB], clock="corr:2")
    assert reply.game_id is not None
    await service.play.move(reply.game_id, ALICE, "a1")
    return reply.game_id


def _row(ply: int, actor: int, move: str) -> MoveRow:
    return MoveRow(ply, actor, move, None, False, 0)


# -- the pure rules --------------------------------------------------------------------------
def test_lines_are_followed_move_by_move() -> None:
    kept = rules.added(None, 0, ("b1", "c1", "b2", "c2"))
    kept = rules.added(kept, 0, ("b1", "c1", "b3", "c3"))
    kept = rules.added(kept, 0, ("a2", "a3"))
    with pytest.raises(rules.LineError) as conflict:
        rules.added(kept, 0, ("b1", "b2"))  # another reply to b1
    assert conflict.value.key == "premove_conflict" and conflict.value.index == 1
    due = rules.after_moves(kept, [_row(1, 1, "b1")])
    assert due == Conditional(0, (("b2", "c2"), ("b3", "c3")), due="c1")
    waiting = rules.after_moves(due, [_row(2, 0, "c1")])
    assert waiting == Conditional(0, (("b2", "c2"), ("b3", "c3")))
    assert rules.after_moves(waiting, [_row(3, 1, "c3")]) is None  # no line: all cleared
    last = rules.after_moves(kept, [_row(1, 1, "a2"), _row(2, 0, "a3")])
    assert last is None  # the line is played out


def test_too_many_lines() -> None:
    kept = None
    for i in range(rules.MAX_LINES):
        kept = rules.added(kept, 0, ("b1", "c1", f"x{i}", f"y{i}"))  # one tree, ten leaves
    with pytest.raises(rules.LineError) as full:
        rules.added(kept, 0, ("zz", "r"))
    assert full.value.key == "premove_too_many"


# -- the service -----------------------------------------------------------------------------
async def test_a_matching_move_is_answered_at_once(service: GameService, db_path: str) -> None:
    gid = await _ttt(service)
    added = await service.correspond.add_premove(gid, ALICE, "b1 c1 b2 c2")
    assert not added.public and added.audience == ALICE.id
    assert [line.params["line"] for line in added.lines] == ["b1 c1 b2 c2"]
    await service.correspond.add_premove(gid, ALICE, "c3, b3")
    moved = await service.play.move(gid, BOB, "b1")
    assert "conditional" not in moved.text("en")  # bob's own move says nothing of them
    (answer,) = await service.play.settle_ai()
    assert answer.key == "move.played" and answer.params["move"] is not None
    assert "(a conditional move)" in answer.text("en") and "条件付き" in answer.text("ja")
    assert moves_of(db_path, gid)[-2:] == [(1, 1, "b1"), (2, 0, "c1")]
    assert await service.play.settle_ai() == []  # played once
    # the line goes on: b2 is answered with c2 ... and anything else clears them
    await service.play.move(gid, BOB, "c3")
    assert await service.play.settle_ai() == []
    row = await stored_row(service.ctx.store, gid)
    assert row is not None and row.conditional is None


async def test_the_opponent_never_sees_them(service: GameService) -> None:
    gid = await _ttt(service)
    await service.correspond.add_premove(gid, ALICE, "b1 c1")
    with pytest.raises(Refusal) as refused:
        await service.correspond.premove_lines(
            gid, BOB
        )  # bob is to move: nothing of alice's is shown
    assert refused.value.key == "refuse.premove_your_turn"
    board = await service.play.board(gid, BOB)
    assert "c1" not in board.text("en")
    listed = await service.correspond.premove_lines(gid, ALICE)
    assert listed.audience == ALICE.id and len(listed.lines) == 1
    cleared = await service.correspond.clear_premoves(gid, ALICE)
    assert cleared.key == "premove.cleared" and cleared.lines == ()


async def test_bad_lines_and_games_change_nothing(service: GameService, db_path: str) -> None:
    gid = await _ttt(service)
    before = snapshot(db_path)
    for line, key in (
        ("b1 zz", "refuse.premove_illegal"),
        ("b1", "refuse.premove_no_reply"),
        ("a1 b1", "refuse.premove_illegal"),  # a1 is taken
        ("", "refuse.premove_empty"),
    ):
        with pytest.raises(Refusal) as refused:
            await service.correspond.add_premove(gid, ALICE, line)
        assert refused.value.key == key, line
        assert refused.value.text("en") and refused.value.text("ja")
    with pytest.raises(Refusal) as refused:
        await service.correspond.add_premove(gid, BOB, "b2 c2")
    assert refused.value.key == "refuse.premove_your_turn"
    with pytest.raises(Refusal) as refused:
        await service.correspond.add_premove(gid, CAROL, "b2 c2")
    assert refused.value.key == "refuse.not_a_player"
    assert snapshot(db_path) == before
    three = await service.play.create_game(ALICE, "race-test", seated=[BOB, CAROL], players=3)
    assert three.game_id is not None
    with pytest.raises(Refusal) as refused:
        await service.correspond.add_premove(three.game_id, CAROL, "step step")
    assert refused.value.key == "refuse.premove_players"


async def test_autocomplete_follows_each_position(service: GameService) -> None:
    gid = await _ttt(service)
    first = await service.correspond.premove_choices(gid, ALICE, "")
    assert "a1" not in first and "b1" in first and len(first) == 8
    second = await service.correspond.premove_choices(gid, ALICE, "b1 ")
    assert "b1 a1" not in second and "b1 c1" in second and len(second) == 7
    assert await service.correspond.premove_choices(gid, ALICE, "b1 c") == [
        "b1 c1",
        "b1 c2",
        "b1 c3",
    ]
    assert await service.correspond.premove_choices(gid, BOB, "") == []  # bob is to move


async def test_a_takeback_clears_them(service: GameService) -> None:
    gid = await _ttt(service)
    await service.correspond.add_premove(gid, ALICE, "b1 c1")
    await service.play.request_takeback(gid, ALICE)  # alice takes a1 back (no consent needed yet)
    row = await stored_row(service.ctx.store, gid)
    assert row is not None and row.conditional is None


async def test_a_kill_between_the_move_and_the_reply(
    fakes: None, clock: FakeClock, db_path: str
) -> None:
    """The opponent's move and the due reply are one transaction; the reply itself is played
    after the restart, once."""
    settings = Settings(db_path=db_path)
    first = await GameService.open(db_path, clock=clock, settings=settings)
    try:
        gid = await _ttt(first)
        await first.correspond.add_premove(gid, ALICE, "b1 c1")
        await first.play.move(gid, BOB, "b1")  # the process dies before the driver runs
    finally:
        await first.close()
    row = await stored_row_of(db_path, clock)
    assert row == Conditional(0, (), due="c1")
    second = await GameService.open(db_path, clock=clock, settings=settings)
    try:
        (answer,) = await second.play.settle_ai()
        assert "(a conditional move)" in answer.text("en")
        assert await second.play.settle_ai() == []
        assert moves_of(db_path, gid) == [(0, 0, "a1"), (1, 1, "b1"), (2, 0, "c1")]
    finally:
        await second.close()
    third = await GameService.open(db_path, clock=clock, settings=settings)
    try:
        assert await third.play.settle_ai() == []  # nothing played twice
        assert len(moves_of(db_path, gid)) == 3
    finally:
        await third.close()


async def stored_row_of(db_path: str, clock: FakeClock) -> Conditional | None:
    service = await GameService.open(db_path, clock=clock, settings=Settings(db_path=db_path))
    try:
        service.ctx.games.forget(1)
        row = await stored_row(service.ctx.store, 1)
        return None if row is None else row.conditional
    finally:
        await service.close()
