"""Every lesson, played by its own lines to three stars; a wrong move fails with its why; every
section of every rules page is practised by a lesson; the goal checks on their own."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from bot.learn import build
from bot.learn.catalogue import RULES
from bot.learn.lessons import (
    GoalKind,
    Lesson,
    Verdict,
    actor,
    answered,
    chance_move,
    judge,
    learner_move,
    marks,
    met,
    play,
    scripted,
    stars,
)
from bot.learn.lessons.catalogue import BY_ID, LESSONS, lesson
from engines.core import CHANCE, EngineError, State
from engines.registry import all_games

ALL = sorted(BY_ID.values(), key=lambda x: x.id)


def answer(state: State[Any], lesson_: Lesson, used: int) -> tuple[State[Any], int]:
    """The script's answers, then (as the computer would) the first legal move."""
    for text in scripted(state, lesson_.seat, lesson_.replies, used):
        who = actor(state, lesson_.seat)
        state = play(
            state, state.parse_move(text, who if who is not None and who >= 0 else None), who
        )
        used += 1
    while (who := actor(state, lesson_.seat)) is not None:
        if who == CHANCE:
            state = play(state, state.parse_move(chance_move(state, state.ply)), who)
        else:
            state = play(state, state.legal_moves(who)[0], who)
    return state, used


def walk(lesson_: Lesson, line: Sequence[str]) -> list[Verdict]:
    """Play ``line`` as the learner; the verdict of each move (after its answers)."""
    state, used, played, out = lesson_.start(), 0, [], []
    for text in line:
        before = state
        move = learner_move(state, lesson_.seat, text)
        state = play(state, move, lesson_.seat)
        played.append(before.format_move(move))
        verdict = judge(lesson_, played[:-1], before, move, state)
        if verdict is Verdict.GO_ON:
            state, used = answer(state, lesson_, used)
            verdict = answered(lesson_, played, before, move, state)
        out.append(verdict)
        if verdict is not Verdict.GO_ON:
            break
    return out


def test_nine_rule_sets_have_five_lessons_each() -> None:
    assert set(LESSONS) == {g.id for g in all_games()}
    for game, lessons in LESSONS.items():
        assert len(lessons) >= 5, game
    for game in ("socrates-uchu", "socrates-shinken", "socrates-kokutan", "socrates-twothree"):
        assert any(x.game == game and "board" not in x.id for x in LESSONS[game]), game


def test_lesson_ids_are_unique_and_stable() -> None:
    ids = [x.id for ls in LESSONS.values() for x in ls]
    assert len(set(ids)) == len(BY_ID)
    assert all(x.id.replace("-", "").isalnum() and len(x.id) <= 40 for x in BY_ID.values())
    assert lesson("rokumentai-1") is BY_ID["rokumentai-1"] and lesson("nope") is None


@pytest.mark.parametrize("lesson_", ALL, ids=lambda x: x.id)
def test_every_line_completes_the_lesson_to_three_stars(lesson_: Lesson) -> None:
    start = lesson_.start()
    assert actor(start, lesson_.seat) is None, "the lesson starts on the learner's turn"
    assert not met(lesson_, start, None, start) or lesson_.goal.kind is GoalKind.PLAY
    for line in lesson_.lines:
        verdicts = walk(lesson_, line)
        assert verdicts == [Verdict.GO_ON] * (len(line) - 1) + [Verdict.DONE], (line, verdicts)
    assert stars(lesson_.par, 0, lesson_.par) == 3


@pytest.mark.parametrize("lesson_", ALL, ids=lambda x: x.id)
def test_a_wrong_move_is_refused_with_why_or_by_the_engine(lesson_: Lesson) -> None:
    """Some legal move at the start that is on no line misses the goal (its why is said), or
    the position allows only the lesson's moves (then a nonsense move is the engine's)."""
    start = lesson_.start()
    firsts = {learner_move(start, lesson_.seat, line[0]) for line in lesson_.lines}
    others = [m for m in start.legal_moves(lesson_.seat) if m not in firsts]
    assert lesson_.why.en and lesson_.why.ja and lesson_.hint.en and lesson_.hint.ja
    verdicts = {judge(lesson_, [], start, m, play(start, m, lesson_.seat)) for m in others}
    assert verdicts <= {Verdict.WRONG, Verdict.DONE}, "a move off every line never goes on"
    with pytest.raises(EngineError) as refused:
        learner_move(start, lesson_.seat, "zz9-zz9")
    assert refused.value.text.en and refused.value.text.ja


def test_every_rules_section_is_practised() -> None:
    for rules in RULES.values():
        sharing = {r.game for r in RULES.values() if r.doc == rules.doc}
        practised = {h for g in sharing for x in LESSONS[g] for h in x.practises}
        for section in rules.sections:
            assert section.heading in practised, (rules.game, section.heading)


def test_every_practised_heading_is_a_section() -> None:
    headings = {s.heading for r in RULES.values() for s in r.sections}
    for x in ALL:
        assert set(x.practises) <= headings, x.id


def test_stars_count_moves_and_hints() -> None:
    assert stars(2, 0, 2) == 3
    assert stars(3, 0, 2) == 2
    assert stars(2, 1, 2) == 2
    assert stars(5, 0, 2) == 1
    assert stars(2, 2, 2) == 1


def test_a_legal_move_off_the_line_is_wrong_and_the_line_goes_on() -> None:
    archer = BY_ID["rokumentai-3"]
    assert walk(archer, ["弓四04-四07"]) == [Verdict.WRONG]
    assert walk(archer, ["弓四04-七04", "弓七04-四04"]) == [Verdict.GO_ON, Verdict.WRONG]


def test_a_check_that_hands_the_turn_meets_the_goal() -> None:
    check = BY_ID["sangokushi-5"]
    start = check.start()
    move = start.parse_move("HF6-F8")
    after = start.apply(move)
    assert met(check, start, move, after)
    assert marks(check, after, start, move).next_seat == 1


def test_a_capture_is_marked_where_the_taken_piece_shows() -> None:
    beat = BY_ID["rokumentai-5"]
    start = beat.start()
    move = start.parse_move("武五04-四03")
    after = start.apply(move)
    shown = marks(beat, after, start, move)
    # the beaten 士 is the ghost on 五04, where the 武 came from (as the rules page marks it)
    page = build("rokumentai", RULES["rokumentai"].sections[2].pages[0].diagram)  # type: ignore[arg-type]
    assert shown.captured == page.marks.captured
    assert shown.reach  # the target's cell
