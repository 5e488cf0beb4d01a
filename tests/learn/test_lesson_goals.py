"""Issue 52: a lesson's goal checks what its text asks, the piece and the kind of move: "Place
a marked piece on e5" is not met by a plain piece, and "Leap to g4" / "Slide to the corner a1"
are not met by placing a piece from the hand there."""

from __future__ import annotations

import pytest

from bot.learn.lessons import Verdict, judge, met
from bot.learn.lessons.catalogue import BY_ID


def _judged(lesson_id: str, text: str) -> Verdict:
    lesson = BY_ID[lesson_id]
    start = lesson.start()
    move = start.parse_move(text)
    return judge(lesson, [], start, move, start.apply(move))


def test_a_marked_piece_goal_wants_the_marked_piece() -> None:
    assert _judged("socrates-board-1", "M@e5") is Verdict.DONE
    assert _judged("socrates-board-1", "P@e5") is Verdict.WRONG  # its "why" says so now


@pytest.mark.parametrize(
    ("lesson_id", "cell"), [("socrates-uchu-1", "g4"), ("socrates-uchu-2", "a1")]
)
def test_a_reach_goal_wants_a_piece_moved_there_not_placed(lesson_id: str, cell: str) -> None:
    lesson = BY_ID[lesson_id]
    start = lesson.start()
    placed = [m for m in start.legal_moves() if start.format_move(m).endswith(f"@{cell}")]
    assert placed, "the position lets a piece be placed there (else this test shows nothing)"
    for move in placed:
        assert not met(lesson, start, move, start.apply(move))
    (line,) = lesson.lines[:1]
    first = start.parse_move(line[0])
    assert met(lesson, start, first, start.apply(first))  # the move the text asks for
