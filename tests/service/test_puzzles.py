"""``/puzzle`` in the service: answers judged by proof, the refutation of a wrong one, an open
puzzle surviving a restart, the daily posts (one a server and day) and the streak. Puzzles never
touch the games, statistics or ratings."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from bot.clock import FakeClock
from bot.config import Settings
from bot.learn import puzzles as data
from bot.learn.puzzles import Puzzle
from bot.service import Action, Event, GameService, Kind, Refusal, Reply, User
from bot.service.cache import CLAIM_MS
from bot.service.learn.puzzles import daily_puzzle
from bot.service.outbox import RETRY_MS
from tests.helpers import ALICE, BOB, IN_THREE, a_wrong_move, solver_moves

IN_ONE = next(p for p in data.load("rokumentai") if p.plies == 1)


async def solve(service: GameService, user: User, puzzle: Puzzle) -> str:
    key = ""
    for move in solver_moves(puzzle):
        key = (await service.learn.puzzles.move(user, move)).key
    return key


async def test_a_wrong_answer_is_refuted_and_the_right_one_solves(real: GameService) -> None:
    shown = await real.learn.puzzles.open(ALICE, IN_ONE.id)
    assert shown.event is Event.PUZZLE and not shown.public and shown.audience == ALICE.id
    assert "to play and win in 1" in shown.text("en") and "1手で勝って" in shown.text("ja")
    assert {b.action for b in shown.actions} == {
        Action.PUZZLE_MOVE,
        Action.PUZZLE_HINT,
        Action.PUZZLE_SOLUTION,
    }
    assert await real.learn.puzzle_of(ALICE.id) == IN_ONE.id
    assert await real.learn.puzzle_of(BOB.id) is None

    wrong = await real.learn.puzzles.move(ALICE, a_wrong_move(IN_ONE))
    assert wrong.key in ("puzzle.wrong", "puzzle.wrong_lost")
    assert "Not this one" in wrong.text("en")
    assert await real.learn.puzzle_of(ALICE.id) == IN_ONE.id  # still open: try again

    solved = await real.learn.puzzles.move(ALICE, IN_ONE.solution[0])
    assert solved.key == "puzzle.solved" and not solved.public
    assert [b.action for b in solved.actions] == [Action.PUZZLE_NEXT]
    assert await real.learn.puzzle_of(ALICE.id) is None
    assert (await real.ctx.store.puzzle_progress(ALICE.id))[IN_ONE.id] == (1, True)
    # nothing of a game: no statistics, no games
    assert await real.ctx.store.stats(ALICE.id, None) == []
    assert await real.ctx.store.active_games() == []


async def test_the_reply_is_played_and_an_open_puzzle_survives_a_restart(
    clock: FakeClock, db_path: str
) -> None:
    settings = Settings(db_path=db_path)
    service = await GameService.open(db_path, clock=clock, settings=settings)
    try:
        await service.learn.puzzles.open(ALICE, IN_THREE.id)
        first = await service.learn.puzzles.move(ALICE, IN_THREE.solution[0])
        assert first.key == "puzzle.right"
        reply = IN_THREE.start().apply(IN_THREE.start().parse_move(IN_THREE.solution[0]))
        shown = reply.display_move(reply.parse_move(IN_THREE.solution[1]), "en")
        assert shown in first.text("en")
    finally:
        await service.close()
    service = await GameService.open(db_path, clock=clock, settings=settings)
    try:
        opened = await service.learn.puzzles.open_of(ALICE.id)
        assert opened is not None and opened.moves == IN_THREE.solution[:2]
        last = await service.learn.puzzles.move(ALICE, IN_THREE.solution[2])
        assert last.key == "puzzle.solved"
    finally:
        await service.close()


async def test_legal_moves_hint_and_solution(real: GameService) -> None:
    await real.learn.puzzles.open(ALICE, IN_ONE.id)
    state = IN_ONE.start()
    answer = state.display_move(state.parse_move(IN_ONE.solution[0]), "en")
    found = await real.learn.puzzles.legal(ALICE, "", 500)
    assert found.total == len(state.legal_moves()) and answer in found.moves
    hint = await real.learn.puzzles.hint(ALICE)
    assert hint.key == "puzzle.hint" and answer in hint.text("en")
    solution = await real.learn.puzzles.solution(ALICE)
    assert answer in solution.text("en")
    assert await real.learn.puzzle_of(ALICE.id) is None  # shown, closed, not solved
    assert (await real.ctx.store.puzzle_progress(ALICE.id))[IN_ONE.id] == (1, False)
    assert (await real.learn.puzzles.legal(ALICE, "")).total == 0


async def test_refusals_change_nothing(real: GameService) -> None:
    with pytest.raises(Refusal) as no_puzzle:
        await real.learn.puzzles.move(ALICE, "anything")
    assert no_puzzle.value.key == "refuse.puzzle_not_open"
    with pytest.raises(Refusal) as solitaire:
        await real.learn.puzzle(ALICE, "yosuko")
    assert solitaire.value.key == "refuse.puzzle_no_game"
    with pytest.raises(Refusal) as unknown:
        await real.learn.puzzle(ALICE, "chess")
    assert unknown.value.key == "refuse.unknown_game_type"
    with pytest.raises(Refusal) as no_id:
        await real.learn.puzzles.open(ALICE, "rokumentai-999")
    assert no_id.value.key == "refuse.puzzle_unknown"
    await real.learn.puzzles.open(ALICE, IN_ONE.id)
    with pytest.raises(Refusal) as bad:
        await real.learn.puzzles.move(ALICE, "not a move")
    assert bad.value.key == "refuse.bad_move"
    assert IN_ONE.id not in await real.ctx.store.puzzle_progress(ALICE.id)
    assert await real.learn.puzzle_of(ALICE.id) == IN_ONE.id


async def test_a_new_puzzle_is_one_not_solved_yet(real: GameService) -> None:
    await real.learn.puzzles.open(ALICE, IN_ONE.id)
    await real.learn.puzzles.move(ALICE, IN_ONE.solution[0])
    seen = {IN_ONE.id}
    for _ in range(3):
        reply = await real.learn.puzzle(ALICE, "rokumentai")
        assert reply.params["id"] not in seen
        seen.add(str(reply.params["id"]))
        await real.learn.puzzles.solution(ALICE)
    any_game = await real.learn.puzzle(BOB)
    assert any_game.params["id"] in data.by_id()


async def test_the_daily_post_once_a_server_and_day(real: GameService, clock: FakeClock) -> None:
    assert await real.pending_announcements(Kind.PUZZLE) == []  # opt-in: no channel, no post
    await real.play.set_guild_setting("g1", "puzzle_channel", "<#555>")
    await real.play.set_guild_setting("g2", "puzzle_channel", "off")
    (reply,) = await real.pending_announcements(Kind.PUZZLE)
    today = clock.now().date().isoformat()
    assert reply.outbox == f"puzzle:g1:{today}" and reply.params["channel"] == "555"
    assert reply.event is Event.PUZZLE_DAILY and reply.public and not reply.notify
    assert [(b.action, b.arg) for b in reply.actions] == [(Action.PUZZLE_SOLVE, today)]
    assert daily_puzzle(today).id in {p.id for p in data.every()}
    # claimed by its caller: not handed out twice at once...
    assert await real.pending_announcements(Kind.PUZZLE) == []
    # ...not reported posted: handed out again when the claim ends, still one
    clock.advance(timedelta(milliseconds=CLAIM_MS))
    assert [r.outbox for r in await real.pending_announcements(Kind.PUZZLE)] == [reply.outbox]
    await real.announced(reply.outbox)
    clock.advance(timedelta(milliseconds=CLAIM_MS))
    assert await real.pending_announcements(Kind.PUZZLE) == []
    clock.advance(timedelta(days=1))
    (tomorrow,) = await real.pending_announcements(Kind.PUZZLE)
    assert tomorrow.params["day"] == clock.now().date().isoformat()


async def test_a_failed_daily_post_is_retried_later(real: GameService, clock: FakeClock) -> None:
    await real.play.set_guild_setting("g1", "puzzle_channel", "<#555>")
    (reply,) = await real.pending_announcements()  # the one delivery of every kind
    assert reply.outbox is not None
    await real.announcement_failed(reply.outbox)
    assert await real.pending_announcements() == []  # not at once...
    at = await real.next_announcement_at()
    assert at is not None and at == clock.now() + timedelta(milliseconds=RETRY_MS)
    clock.advance(timedelta(milliseconds=RETRY_MS))
    assert [r.outbox for r in await real.pending_announcements()] == [reply.outbox]


async def test_the_streak_counts_days_in_a_row(real: GameService, clock: FakeClock) -> None:
    for expected in (1, 2):
        day = clock.now().date().isoformat()
        shown = await real.learn.puzzles.solve_daily(ALICE, day)
        assert shown.params["id"] == daily_puzzle(day).id
        assert await solve(real, ALICE, daily_puzzle(day)) == "puzzle.solved"
        streak = await real.ctx.store.puzzle_streak(ALICE.id)
        assert streak is not None and streak.streak == expected
        clock.advance(timedelta(days=1))
    clock.advance(timedelta(days=1))  # a day missed
    day = clock.now().date().isoformat()
    shown = await real.learn.puzzles.solve_daily(ALICE, day)
    assert "streak" not in shown.text("en")
    await solve(real, ALICE, daily_puzzle(day))
    streak = await real.ctx.store.puzzle_streak(ALICE.id)
    assert streak is not None and (streak.streak, streak.best) == (1, 2)
    # an old day's puzzle (a post's button pressed late) counts for no streak
    await real.learn.puzzles.solve_daily(BOB, "2020-01-01")
    await solve(real, BOB, daily_puzzle("2020-01-01"))
    assert await real.ctx.store.puzzle_streak(BOB.id) is None


async def test_the_daily_post_is_posted_after_a_crash_and_only_once(
    clock: FakeClock, db_path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The daily post is a row of the outbox like a game's announcement: written once when
    it falls due, handed out again by the next process when one died before reporting it,
    claimed until the store has its delivery, and never again after."""
    first = await GameService.open(db_path, clock=clock, settings=Settings(db_path=db_path))
    await first.play.set_guild_setting("g1", "puzzle_channel", "<#555>")
    (posted,) = await first.pending_announcements()  # written as it falls due, then handed out
    today = clock.now().date().isoformat()
    assert posted.outbox == f"puzzle:g1:{today}"
    await first.close()  # died before reporting it posted
    svc = await GameService.open(db_path, clock=clock, settings=Settings(db_path=db_path))
    try:
        assert await svc.next_announcement_at() == clock.now()  # due at once
        (again,) = await svc.pending_announcements()  # written once: still one
        assert again.outbox == posted.outbox and again.params == posted.params
        store = svc.ctx.store
        storing = store.puzzle_post_delivered
        seen: list[list[Reply]] = []

        async def meanwhile(*args: Any) -> None:  # a look while the delivery is stored
            seen.append(await svc.pending_announcements())
            await storing(*args)

        monkeypatch.setattr(store, "puzzle_post_delivered", meanwhile)
        await svc.announced(posted.outbox)
        assert seen == [[]]  # still claimed until the store has it
        clock.advance(timedelta(milliseconds=CLAIM_MS))
        assert await svc.pending_announcements() == []
    finally:
        await svc.close()
    svc = await GameService.open(db_path, clock=clock, settings=Settings(db_path=db_path))
    try:
        assert await svc.pending_announcements() == []  # a restart does not post it again
        clock.advance(timedelta(days=1))
        assert [r.outbox for r in await svc.pending_announcements()] == [
            f"puzzle:g1:{clock.now().date().isoformat()}"
        ]
    finally:
        await svc.close()
