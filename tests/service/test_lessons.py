"""Lessons through the service on both stores: progress kept per learner (the best stars), the
lesson in progress surviving a restart, stale buttons and missing lessons refused, the computer
answering when the script runs out, and nothing ever counted as a game."""

from __future__ import annotations

import pytest

from bot.clock import FakeClock
from bot.config import Settings
from bot.learn.lessons.catalogue import BY_ID, LESSONS
from bot.service import Action, Event, GameService, Practice, Press, Refusal
from bot.service.learn.practice import replay
from tests.helpers import ALICE, BOB


async def test_a_lesson_survives_a_restart_and_keeps_the_best_stars(
    real: GameService, clock: FakeClock, db_path: str
) -> None:
    lessons = real.learn.lessons
    opened = await lessons.learn(ALICE, "rokumentai-3")
    assert opened.event is Event.LESSON and not opened.public and opened.audience == ALICE.id
    assert (
        await real.learn.practice_of(ALICE.id) == "lesson"
        and await real.learn.practice_of(BOB.id) is None
    )
    first = await lessons.move(ALICE, "弓四04-七04")
    assert [line.key for line in first.lines] == ["learn.you_played", "learn.answer"]
    await real.close()

    again = await GameService.open(db_path, clock=clock, settings=Settings(db_path=db_path))
    try:
        assert await again.learn.practice_of(ALICE.id) == "lesson"
        with pytest.raises(Refusal) as stale:  # a move button of the first position
            await again.act(Action.LEARN_PLAY, Press(Practice(), ALICE, "0|弓四04-七04"))
        assert stale.value.key == "learn.refuse.stale"
        done = await again.learn.lessons.move(ALICE, "弓七04-七07")
        assert done.lines[-1].key == "learn.done" and done.lines[-1].params["stars"] == "★★★"
        assert await again.learn.practice_of(ALICE.id) is None  # finished: the board is closed
        # a worse second run keeps the best
        await again.learn.lessons.restart(ALICE, "rokumentai-3")
        await again.learn.lessons.hint(ALICE)
        await again.learn.lessons.move(ALICE, "弓四04-七04")
        worse = await again.learn.lessons.move(ALICE, "弓七04-七07")
        assert worse.lines[-1].params["stars"] == "★★☆"
        assert worse.lines[-1].params["best"] == "★★★"
        assert await again.ctx.store.lesson_stars(ALICE.id) == {"rokumentai-3": 3}
        assert await again.ctx.store.lesson_stars(BOB.id) == {}
        # never a game
        assert await again.ctx.store.stats(ALICE.id, None) == []
        assert await again.ctx.store.count_active(ALICE.id, None) == 0
    finally:
        await again.close()


async def test_refusals_change_nothing(real: GameService) -> None:
    with pytest.raises(Refusal) as none:
        await real.learn.lessons.move(ALICE, "anything")
    assert none.value.key == "learn.refuse.none"
    with pytest.raises(Refusal) as unknown:
        await real.learn.lesson(ALICE, "no-such-game")
    assert unknown.value.key == "refuse.unknown_game_type"
    await real.learn.lesson(ALICE, "suji-shogi")
    with pytest.raises(Refusal) as bad:
        await real.learn.lessons.move(ALICE, "465/12x")
    assert bad.value.key == "refuse.bad_move"
    row = await real.ctx.store.practice(ALICE.id)
    assert row is not None and row.moves == () and row.tries == 0
    with pytest.raises(Refusal) as nul:
        await real.learn.lessons.move(ALICE, "465\x00")
    assert nul.value.key == "refuse.bad_text"
    stopped = await real.learn.lessons.stop(ALICE)
    assert stopped.key == "learn.stopped" and await real.learn.practice_of(ALICE.id) is None


async def test_the_menu_counts_a_shared_socrates_lesson_in_each_game(real: GameService) -> None:
    await real.learn.lesson(ALICE, "socrates-board-1")
    await real.learn.lessons.move(ALICE, "M@e5")
    menu = await real.learn.lesson(ALICE)
    assert menu.event is Event.LESSON_MENU and len(menu.actions) == len(LESSONS)
    lines = {str(line.params["game"]): line.params for line in menu.lines}
    for title, params in lines.items():
        if title.startswith("Socrates"):
            assert params["stars"].startswith("★★★") and params["done"] == 1, title
    # the next unfinished lesson of a game skips the finished one
    nxt = await real.learn.lesson(ALICE, "socrates-uchu")
    assert nxt.params["title"] == BY_ID["socrates-board-2"].title


async def test_the_computer_answers_when_the_script_runs_out(real: GameService) -> None:
    lesson = BY_ID["sangokushi-2p-1"]  # no script: White's answer is the computer's
    state = lesson.start()
    after = state.apply(state.parse_move("PB3-C4"))
    answered, text = await real.learn.lessons.practice.answer(after, lesson.seat, lesson.id)
    assert text in {after.format_move(m) for m in after.legal_moves()}
    assert answered.current_player() == lesson.seat
    board = replay(state, lesson.seat, ("PB3-C4", text))
    assert board.learner == ("PB3-C4",) and board.state == answered


async def test_a_lesson_the_computer_answers(real: GameService) -> None:
    """``socrates-shinken-3`` has no script: White's answer is the computer's (level 1)."""
    await real.learn.lesson(ALICE, "socrates-shinken-3")
    done = await real.learn.lessons.move(ALICE, "a1-a9")
    keys = [line.key for line in done.lines]
    assert keys == ["learn.you_played", "learn.answer", "learn.done"]
    assert done.lines[-1].params["stars"] == "★★★"


async def test_one_practice_board_at_a_time(real: GameService) -> None:
    """A lesson and a puzzle share the practice board: opening one closes the other, so a
    /move that names no game always goes to the one the learner opened last."""
    await real.learn.lesson(ALICE, "rokumentai-3")
    assert await real.learn.practice_of(ALICE.id) == "lesson"
    puzzle = await real.learn.puzzle(ALICE, "rokumentai")
    assert puzzle.event is Event.PUZZLE
    assert await real.learn.practice_of(ALICE.id) == "puzzle"
    assert real.learn.practice_board("puzzle") is real.learn.puzzles
    with pytest.raises(Refusal):
        await real.learn.lessons.move(ALICE, "弓四04-七04")  # the lesson was closed
    await real.learn.lesson(ALICE, "rokumentai-3")
    assert (
        await real.learn.practice_of(ALICE.id) == "lesson"
        and await real.learn.puzzle_of(ALICE.id) is None
    )
    legal = await real.learn.practice_board("lesson").legal(ALICE, "", 100)
    assert "弓四04-七04" in legal.moves or legal.total > 0
