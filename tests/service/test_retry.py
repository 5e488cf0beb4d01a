"""Retry your mistakes (issue 50, 4): from a review, the player's mistakes as puzzles of their
own, on the practice board. The planted 六面体 game of tests/service/test_review.py: alice
misses a win in one at ply 25; the review shows it first (the biggest), and the retry starts
there."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.clock import FakeClock
from bot.learn.retry import Progress, Verdict, judged_verdict, quick_verdict, star_line, stars
from bot.service import GameService, Refusal, Reply
from bot.service.actions import Action, GameTarget, Practice
from bot.service.values import Press
from tests.helpers import (
    ALICE,
    BOB,
    CAROL,
    PLANTED_SEED,
    offered,
    planted,
    planted_game,
    planted_in_the_sandbox,
    review_settings,
)


def _blunder() -> tuple[str, list[str]]:
    """The move alice played at the planted blunder and the wins she missed (notation)."""
    befores, plies, blunder, missed = planted("rokumentai", PLANTED_SEED)
    before = befores[blunder]
    return before.format_move(plies[blunder]), [before.format_move(m) for m in missed]


async def _retry(svc: GameService) -> tuple[int, int, Reply]:
    gid, ply, _ = await planted_game(svc)
    review = await svc.review.game(gid, ALICE)
    assert "review_retry" in offered(review)
    opened = await svc.act(Action.REVIEW_RETRY, Press(GameTarget(gid), ALICE))
    assert isinstance(opened, Reply)
    return gid, ply, opened


def _said(reply: Reply) -> list[str]:
    return [line.key for line in reply.lines]


async def test_the_retry_starts_at_the_biggest_mistake_and_a_win_puts_it_right(
    svc: GameService,
) -> None:
    _, ply, opened = await _retry(svc)
    assert opened.key == "retry.position" and not opened.public and opened.audience == ALICE.id
    assert opened.params["ply"] == ply and opened.params["k"] == 1 and opened.image is not None
    assert opened.image_alt is not None  # the position in words, as every picture
    assert {"retry_move", "retry_hint", "retry_solution", "learn_stop"} <= set(offered(opened))
    assert await svc.learn.practice_of(ALICE.id) == "retry"
    played, wins = _blunder()
    again = await svc.learn.practice_board("retry").move(ALICE, played)
    assert _said(again) == ["retry.again"] and again.params["ply"] == ply  # the same position
    right = await svc.learn.practice_board("retry").move(ALICE, wins[0])
    assert _said(right)[0] == "retry.right"
    assert right.lines[0].params["stars"] == "★★☆"  # the second try
    if right.key == "retry.position":  # more mistakes: the next one
        assert right.params["k"] == 2 and right.params["ply"] != ply
    else:
        assert right.key == "retry.finished" and "review_retry" in offered(right)


async def test_any_move_the_computer_finds_as_good_is_right(svc: GameService) -> None:
    """A win the review did not name is right too: judged, not compared with the line."""
    gid, _, _ = await _retry(svc)
    _, wins = _blunder()
    assert len(wins) > 1  # the planted position has more than one win
    named = (await svc.learn.retries.mistakes.mistakes_of(gid, ALICE))[0].mistake.best
    other = next(w for w in wins if w != named)
    right = await svc.learn.practice_board("retry").move(ALICE, other)
    assert _said(right)[0] == "retry.right" and right.lines[0].params["stars"] == "★★★"


async def test_a_hint_costs_a_star_and_a_shown_move_earns_none(svc: GameService) -> None:
    _, _, opened = await _retry(svc)
    board = svc.learn.practice_board("retry")
    hinted = await board.hint(ALICE)
    assert _said(hinted) == ["retry.hint"] and hinted.image is not None
    assert hinted.image != opened.image  # the better move's first cell is marked
    await board.hint(ALICE)
    _, wins = _blunder()
    right = await board.move(ALICE, wins[0])
    assert right.lines[0].params["stars"] == "★☆☆"  # a first try, less two hints
    shown = right
    while await svc.learn.practice_of(ALICE.id) == "retry":  # the others: shown
        answer = await svc.act(Action.RETRY_SOLUTION, Press(Practice(), ALICE))
        assert isinstance(answer, Reply) and _said(answer)[0] == "retry.shown"
        shown = answer
    assert shown.key == "retry.finished" and "review_retry" in offered(shown)
    done = shown.lines[-1]
    count = done.params["most"] // 3
    assert done.key == "retry.done" and done.params["total"] == 1
    assert done.params["stars"] == " ".join(["★☆☆"] + ["☆☆☆"] * (count - 1))
    with pytest.raises(Refusal) as refused:
        await board.move(ALICE, wins[0])
    assert refused.value.key == "retry.refuse.not_open"
    assert await svc.learn.practice_of(ALICE.id) is None  # /move goes to the games again


async def test_who_may_retry_and_what_a_bad_try_changes(svc: GameService, db_path: str) -> None:
    gid, _, _ = await planted_game(svc)
    with pytest.raises(Refusal) as refused:
        await svc.learn.retry(ALICE, gid)  # not reviewed yet
    assert refused.value.key == "retry.refuse.no_review"
    await svc.review.game(gid, ALICE)
    with pytest.raises(Refusal) as refused:
        await svc.learn.retry(CAROL, gid)  # a spectator has no mistakes of hers here
    assert refused.value.key == "refuse.not_a_player"
    with pytest.raises(Refusal) as refused:
        await svc.learn.practice_board("retry").move(ALICE, "一01占")
    assert refused.value.key == "retry.refuse.not_open"
    await svc.learn.retry(ALICE, gid)
    board = svc.learn.practice_board("retry")
    with pytest.raises(Refusal) as refused:
        await board.move(ALICE, "nonsense")
    assert refused.value.key == "refuse.bad_move"
    _, wins = _blunder()
    right = await board.move(ALICE, wins[0])
    assert right.lines[0].params["stars"] == "★★★"  # the refused text was no try
    choices = await board.legal(BOB, "", 5)
    assert choices.moves == ()  # nothing open for bob


async def test_a_retry_goes_on_after_a_restart(clock: FakeClock, db_path: str) -> None:
    first = await GameService.open(db_path, clock=clock, settings=review_settings(db_path))
    try:
        await _retry(first)
        played, _ = _blunder()
        await first.learn.practice_board("retry").move(ALICE, played)  # one try spent
    finally:
        await first.close()
    second = await GameService.open(db_path, clock=clock, settings=review_settings(db_path))
    try:
        assert await second.learn.practice_of(ALICE.id) == "retry"
        _, wins = _blunder()
        legal = await second.learn.practice_board("retry").legal(ALICE, "", 500)
        assert legal.moves
        right = await second.learn.practice_board("retry").move(ALICE, wins[0])
        assert right.lines[0].params["stars"] == "★★☆"
    finally:
        await second.close()


async def test_opening_a_lesson_or_a_puzzle_closes_the_retry(svc: GameService) -> None:
    await _retry(svc)
    await svc.learn.puzzle(ALICE, "rokumentai")
    assert await svc.learn.practice_of(ALICE.id) == "puzzle"
    await svc.learn.lesson(ALICE, "rokumentai")
    assert await svc.learn.practice_of(ALICE.id) == "lesson"


# -- the pure rules (bot/learn/retry.py) ---------------------------------------------------


def test_progress_round_trips_and_refuses_what_is_not_a_retrys() -> None:
    for progress in (Progress(7), Progress(12, (3,)), Progress(1, (3, 0, 2))):
        assert Progress.read(progress.text()) == progress
    for text in ("", "7", "x:3", "7:4", "7:3..1", "rokumentai-001", "7:-1"):
        assert Progress.read(text) is None
    assert Progress(5, (2,)).done(3) == Progress(5, (2, 3)) and Progress(5, (2,)).index == 1


def test_stars_and_verdicts() -> None:
    assert [stars(t, 0) for t in (1, 2, 3, 4, 9)] == [3, 2, 1, 1, 1]
    assert stars(1, 1) == 2 and stars(1, 5) == 1 and stars(1, 0, shown=True) == 0
    assert star_line((3, 1, 0)) == "★★★ ★☆☆ ☆☆☆"
    from bot.learn.retry import Mistake
    from engines.core import Text

    m = Mistake(3, 0, "a", "b", Text("a", "a"), Text("b", "b"), 10, 90)
    assert quick_verdict(m, "b") is Verdict.RIGHT and quick_verdict(m, "a") is Verdict.AGAIN
    assert quick_verdict(m, "c") is None
    assert judged_verdict(0.0) is Verdict.RIGHT and judged_verdict(0.3) is Verdict.WRONG


async def test_the_sandbox_retries_the_mistakes(tmp_path: Path) -> None:
    befores, plies, blunder, missed = planted("rokumentai", PLANTED_SEED)
    before = befores[blunder]
    text = await planted_in_the_sandbox(
        tmp_path,
        [
            "/as alice",
            "/review 1",
            "/review 1 retry",
            f"/move {before.format_move(plies[blunder])}",
            "/hint",
            f"/move {before.format_move(missed[0])}",
            "/retry solution",
            "/retry solution",
            "/retry stop",
            "/retry nonsense",
        ],
    )
    assert "Retry 1 of" in text and "is the move of the game" in text
    assert "Hint: the better move starts from the marked cell." in text
    assert "is a good move. ★☆☆" in text  # a second try, after a hint
    assert "Usage: /retry solution | stop" in text
