"""Every puzzle: its position parses, its solution is legal move by move and ends in the
solver's win, and (marked slow, still part of ``make test``) the proof search verifies it again:
the first move is the only one that wins within the stated plies, and none wins sooner."""

from __future__ import annotations

from collections import Counter

import pytest

from bot.learn import puzzles as data
from bot.learn.puzzles import PUZZLE_GAMES, Puzzle, answer
from engines.ai.proof import Budget, win_length, winning_moves, wins_within

MINIMUM = 30
"""Puzzles each rule set with open information must have (issue 31)."""


def test_every_rule_set_with_open_information_has_its_puzzles() -> None:
    counts = Counter(p.game for p in data.every())
    assert set(counts) == set(PUZZLE_GAMES)
    assert all(n >= MINIMUM for n in counts.values()), counts
    assert data.load("yosuko") == ()
    ids = [p.id for p in data.every()]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("game", PUZZLE_GAMES)
def test_positions_parse_and_solutions_are_legal_wins(game: str) -> None:
    for puzzle in data.load(game):
        state = puzzle.start()
        assert state.position() == puzzle.position, puzzle.id
        assert len(state.legal_moves()) >= 2, puzzle.id  # a choice to make
        assert state.current_player() == puzzle.seat, puzzle.id
        assert len(puzzle.solution) <= puzzle.plies, puzzle.id
        for text in puzzle.solution:
            move = state.parse_move(text)  # legal, or it raises
            assert state.format_move(move) == text, puzzle.id
            state = state.apply(move)
        outcome = state.outcome()
        assert outcome is not None and puzzle.seat in outcome.winners, puzzle.id
        assert puzzle.theme and 1 <= puzzle.difficulty <= 3 and puzzle.verified


def _verify(puzzle: Puzzle) -> None:
    state = puzzle.start()
    budget = Budget()
    assert win_length(state, puzzle.seat, puzzle.plies - 1, budget) is None, puzzle.id
    wins = winning_moves(state, puzzle.seat, puzzle.plies, budget)
    assert [state.format_move(m) for m in wins] == [puzzle.solution[0]], puzzle.id
    after = state.apply(wins[0])
    assert wins_within(after, puzzle.seat, puzzle.plies - 1, budget), puzzle.id


@pytest.mark.slow
@pytest.mark.parametrize("game", PUZZLE_GAMES)
def test_the_search_verifies_every_puzzle(game: str) -> None:
    for puzzle in data.load(game):
        _verify(puzzle)


def test_answers_are_judged_by_proof() -> None:
    """The solution's first move is right; another is wrong and refuted by a reply after
    which the win is gone."""
    for game in PUZZLE_GAMES:
        puzzle = max(data.load(game), key=lambda p: p.plies)  # with replies, if any
        right = answer(puzzle, (), puzzle.solution[0])
        assert right.right and right.replies == puzzle.solution[1 : 1 + len(right.replies)]
        assert right.solved == (puzzle.solver_moves == 1)
        state = puzzle.start()
        other = next(
            state.format_move(m)
            for m in state.legal_moves()
            if state.format_move(m) != puzzle.solution[0]
        )
        wrong = answer(puzzle, (), other)
        assert not wrong.right and not wrong.solved and wrong.moves == ()
        after = state.apply(state.parse_move(other))
        for reply in wrong.replies:
            after = after.apply(after.parse_move(reply))
        left = puzzle.plies - 1 - len(wrong.replies)
        assert after.is_over() or not wins_within(after, puzzle.seat, left), puzzle.id
