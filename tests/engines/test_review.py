"""The computer's review of a game, alone (engines/ai/review.py): a planted blunder is found
with the right better move, chances are chances, and the mapping is what docs/review.md says."""

from __future__ import annotations

import random

import pytest

from engines.ai.review import chance, even, judge, outcome_chances
from engines.ai.search import PROVEN
from engines.core import CHANCE
from engines.registry import get_game
from tests.helpers import PLANTED_SEED, planted, wins_now


def test_a_missed_win_is_the_biggest_mistake_with_the_win_as_the_better_move() -> None:
    befores, plies, blunder, missed = planted("rokumentai", PLANTED_SEED)
    assert blunder >= 0
    # A node budget (and time enough never to stop the search first): the same on any machine.
    judged = [judge(b, m, seconds=60.0, max_nodes=600) for b, m in zip(befores, plies, strict=True)]
    bad = judged[blunder]
    assert bad.best in missed and bad.best_chance == 1.0 and bad.loss == 1.0
    seat = bad.seat
    own = sorted((i for i, j in enumerate(judged) if j.seat == seat), key=lambda i: -judged[i].loss)
    assert blunder in own[:3]
    # Every later win was taken: the best move, nothing lost.
    for i in range(blunder + 1, len(plies)):
        if plies[i] in wins_now(befores[i]):
            assert judged[i].loss == 0.0 and judged[i].best_chance == 1.0


def test_chances_are_one_a_seat_and_sum_to_one() -> None:
    game = get_game("sangokushi")
    state = game.new_game()
    rng = random.Random(3)
    for _ in range(6):
        move = rng.choice(state.legal_moves())
        j = judge(state, move, seconds=0.0)
        assert len(j.chances) == 3 and sum(j.chances) == pytest.approx(1.0)
        assert j.chances[j.seat] == j.best_chance and 0.0 <= j.played_chance <= j.best_chance
        state = state.apply(move)


def test_the_mapping_to_a_chance() -> None:
    assert chance(0.0, 100, 2) == 0.5 and chance(0.0, 100, 3) == pytest.approx(1 / 3)
    assert chance(PROVEN, 100, 2) == 1.0 and chance(-PROVEN, 100, 2) == 0.0
    assert 0.69 < chance(100.0, 100, 2) < 0.71  # one unit up: about 70%
    assert chance(200.0, 200, 2) == chance(100.0, 100, 2)  # in the game's own units
    assert even(3) == pytest.approx((1 / 3,) * 3)


def test_the_end_gives_the_winner_everything() -> None:
    befores, plies, _, _ = planted("rokumentai", PLANTED_SEED)
    end = befores[-1].apply(plies[-1])
    outcome = end.outcome()
    assert outcome is not None
    chances = outcome_chances(outcome, 2)
    assert sorted(chances) in ([0.0, 1.0], [0.5, 0.5])


def test_a_solitaire_choice_is_rated_by_the_sampled_hint() -> None:
    game = get_game("yosuko")
    state = game.new_game()
    rng = random.Random(5)
    while state.current_player() == CHANCE:
        state = state.apply(rng.choice([m for m, _ in state.chance_outcomes()]))
    move = state.legal_moves()[0]
    j = judge(state, move, seconds=0.0, seed=9)
    assert j.seat == 0 and j.chances == (j.best_chance,) and j.nodes >= 1
    assert judge(state, move, seconds=0.0, seed=9) == j  # the same samples for the same seed


def test_a_lost_solitaire_ends_at_nothing() -> None:
    """Issue 52: a one-player loss was counted as a draw among one, 1/1: the chart ended at 100%
    when the player lost."""
    from engines.core import Outcome, Termination, Text

    text = Text("", "")
    assert outcome_chances(Outcome.loss(0, 1, Termination.RULE, text), 1) == (0.0,)
    assert outcome_chances(Outcome.win(0, 1, Termination.RULE, text), 1) == (1.0,)
