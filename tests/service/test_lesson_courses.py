"""Issue 52: ``/learn next`` after a finished lesson opens the next one (its finishing message
offers it), and a shared Socrates board lesson taken in one game's course is shown, numbered and
followed in that course, not in the game it was written for."""

from __future__ import annotations

from bot.learn.lessons.catalogue import LESSONS
from bot.service import GameService
from tests.helpers import ALICE


async def test_learn_next_after_a_finished_lesson_opens_the_next(real: GameService) -> None:
    await real.learn.lesson(ALICE, "rokumentai-3")
    await real.learn.lesson_move(ALICE, "弓四04-七04")
    done = await real.learn.lesson_move(ALICE, "弓七04-七07")
    assert done.lines[-1].key == "learn.done"
    assert await real.learn.practice_of(ALICE.id) is None  # finished: nothing open
    following = await real.learn.next_lesson(ALICE, None)  # /learn next
    assert following.key == "learn.lesson" and following.params["n"] == 4
    assert await real.learn.practice_of(ALICE.id) == "lesson"


async def test_a_shared_socrates_lesson_stays_in_the_course_it_was_taken_in(
    real: GameService,
) -> None:
    await real.ctx.store.finish_lesson(ALICE.id, "socrates-board-1", 3, 0)  # done in 宇宙遊泳
    course = LESSONS["socrates-shinken"]
    opened = await real.learn.lesson(ALICE, "socrates-shinken")
    assert opened.params["n"] == 2 and opened.params["count"] == len(course)
    assert opened.params["game"].en == "Socrates: Duel" or "真剣勝負" in opened.params["game"].ja
    following = await real.learn.next_lesson(ALICE, None)
    assert following.params["n"] == 3 and following.params["count"] == len(course)
    assert "真剣勝負" in following.params["game"].ja
    again = await real.learn.restart_lesson(ALICE, None)
    assert again.params["n"] == 3 and "真剣勝負" in again.params["game"].ja


async def test_a_course_rides_on_the_next_button(real: GameService) -> None:
    from bot.service import Action, Practice, Press

    pressed = await real.act(
        Action.LEARN_NEXT, Press(Practice(), ALICE, "socrates-board-2@socrates-shinken")
    )
    assert not isinstance(pressed, list | tuple)
    assert pressed.params["n"] == 3 and "真剣勝負" in pressed.params["game"].ja
