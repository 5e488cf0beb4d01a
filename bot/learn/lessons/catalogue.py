"""Every rule set's lessons, in the order a learner takes them, and lessons by id."""

from __future__ import annotations

from bot.learn.lessons import Lesson, rokumentai, sangokushi, socrates, suji_shogi, yosuko


def _of(game: str, lessons: tuple[Lesson, ...]) -> tuple[Lesson, ...]:
    return tuple(lesson for lesson in lessons if lesson.game == game)


LESSONS: dict[str, tuple[Lesson, ...]] = {
    "rokumentai": rokumentai.LESSONS,
    "sangokushi": _of("sangokushi", sangokushi.LESSONS),
    "sangokushi-2p": _of("sangokushi-2p", sangokushi.LESSONS),
    "socrates-kokutan": socrates.SHARED + socrates.KOKUTAN_OWN,
    "socrates-shinken": socrates.SHARED + socrates.SHINKEN_OWN,
    "socrates-twothree": socrates.SHARED + socrates.TWOTHREE_OWN,
    "socrates-uchu": socrates.SHARED + socrates.UCHU_OWN,
    "suji-shogi": suji_shogi.LESSONS,
    "yosuko": yosuko.LESSONS,
}
"""The nine rule sets' lessons; the shared Socrates board's three count for each of its games."""

BY_ID: dict[str, Lesson] = {lesson.id: lesson for ls in LESSONS.values() for lesson in ls}


def lessons_of(game_id: str) -> tuple[Lesson, ...]:
    return LESSONS.get(game_id, ())


def lesson(lesson_id: str) -> Lesson | None:
    return BY_ID.get(lesson_id)
