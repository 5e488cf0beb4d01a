"""The computer's review of a game, alone (engines/ai/review.py): a planted blunder is found
with the right better move, chances are chances, and the mapping is what docs/review.md says."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

import pytest

from engines.ai.review import (
    allows_loss,
    chance,
    even,
    is_mistake,
    judge,
    mistakes,
    outcome_chances,
    to_confirm,
)
from engines.ai.search import PROVEN
from engines.core import CHANCE, State
from engines.registry import get_game
from tests.helpers import PLANTED_SEED, planted, wins_now


def test_a_missed_win_is_the_biggest_mistake_with_the_win_as_the_better_move() -> None:
    befores, plies, blunder, missed = planted("rokumentai", PLANTED_SEED)
    assert blunder >= 0
    judged = [judge(b, m, nodes=600) for b, m in zip(befores, plies, strict=True)]
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
        j = judge(state, move, nodes=1)
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
    j = judge(state, move, nodes=1, seed=9)
    assert j.seat == 0 and j.chances == (j.best_chance,) and j.nodes >= 1
    assert judge(state, move, nodes=1, seed=9) == j  # the same samples for the same seed


def test_a_lost_solitaire_ends_at_nothing() -> None:
    """Issue 52: a one-player loss was counted as a draw among one, 1/1: the chart ended at 100%
    when the player lost."""
    from engines.core import Outcome, Termination, Text

    text = Text("", "")
    assert outcome_chances(Outcome.loss(0, 1, Termination.RULE, text), 1) == (0.0,)
    assert outcome_chances(Outcome.win(0, 1, Termination.RULE, text), 1) == (1.0,)


# -- issue 52: the same review on any machine, no immediate loss missed, mistakes confirmed -----

DROP_MATE_2P = (
    "L1.G1H1L1/B1..P1../.H0P1..P1./...H0..../........./......P0./.....H1./B0.P0P0../.B0G0.L0 "
    "BP2/L 0 - 1- 1: 44"
)
"""2-player 三国志, Black to move: LA5-B6 lets White drop a spear on A4, a mate (no capture)."""
DROP_MATE_3P = (
    "...../....L2H2/.G1B1.H2P2G2/H1P1....P2H2/..P0....P2L2/B1......B2/..P0.B0../..P0P0P0./"
    "L0B0G0H0L0 HL/BP/LP2 2 - 12- 1: 18"
)
"""3-player 三国志, Wu to move: LH8-I8 lets Wei drop a cavalry on H4, a mate (no capture)."""


@pytest.mark.parametrize(
    ("game_id", "players", "position", "move", "reply"),
    [
        ("sangokushi-2p", 2, DROP_MATE_2P, "LA5-B6", "L*A4"),
        ("sangokushi", 3, DROP_MATE_3P, "LH8-I8", "H*H4"),
    ],
    ids=["2 players", "3 players"],
)
def test_a_move_that_allows_a_win_at_once_is_lost_whatever_the_depth(
    game_id: str, players: int, position: str, move: str, reply: str
) -> None:
    """Issue 52: a move that let the opponent win at once without a capture kept 96-99% when
    the search reached depth 1 only (its quiescence follows captures), as on a busy machine."""
    state = get_game(game_id).from_position(position, None, players)
    played = state.parse_move(move)
    after = state.apply(played)
    outcome = after.apply(after.parse_move(reply)).outcome()
    assert outcome is not None and outcome.returns()[state.current_player()] < 0  # a drop
    depths = set()
    for nodes in (1, 400, 3000):  # the plain ply only, depth 1 (a busy machine's), deeper
        j = judge(state, played, nodes=nodes)
        depths.add(j.depth)
        assert j.played_chance == 0.0 and j.loss > 0.9
        assert j.best != played and not allows_loss(state.apply(j.best), j.seat)
    assert {0, 1} < depths  # below depth 2, the threat check alone saw it


class Jumping:
    """A clock that jumps an hour at every read: a machine so busy that every budget in
    seconds would run out at once."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 3600.0
        return self.now


def test_a_review_is_the_same_however_busy_the_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 52: the budget was seconds, so a busy machine searched shallower and found other
    mistakes. Nodes and samples are the budget now: judged again with every clock jumping, each
    ply (a search, the threat check, a sampled choice) comes out the same."""
    plies: list[tuple[State[Any], Any]] = []
    befores, moves, blunder, _ = planted("rokumentai", PLANTED_SEED)
    plies += list(zip(befores, moves, strict=True))[blunder - 4 : blunder + 1]
    three = get_game("sangokushi").from_position(DROP_MATE_3P, None, 3)
    plies += [(three, three.parse_move("LH8-I8")), (three, three.legal_moves()[0])]
    solitaire = dealt(5)
    plies += [(solitaire, solitaire.legal_moves()[0])]
    quiet = [judge(s, m, nodes=300, seed=k) for k, (s, m) in enumerate(plies)]
    confirmed = [judge(s, m, nodes=300, seed=k, confirm=True) for k, (s, m) in enumerate(plies)]
    for name in ("monotonic", "perf_counter", "time", "process_time", "thread_time"):
        monkeypatch.setattr(time, name, Jumping())
    assert [judge(s, m, nodes=300, seed=k) for k, (s, m) in enumerate(plies)] == quiet
    again = [judge(s, m, nodes=300, seed=k, confirm=True) for k, (s, m) in enumerate(plies)]
    assert again == confirmed


def dealt(seed: int) -> State[Any]:
    """A 略式易双六 deal at its first choice (the start line)."""
    state: State[Any] = get_game("yosuko").new_game()
    rng = random.Random(seed)
    while state.current_player() == CHANCE:
        state = state.apply(rng.choice([m for m, _ in state.chance_outcomes()]))
    return state


@dataclass(frozen=True)
class Ply:
    """A judged ply as :func:`to_confirm` reads it."""

    seat: int
    loss: float
    confirmed: bool = False
    spread: float = 0.0


def test_the_biggest_candidates_are_confirmed_until_those_shown_all_are() -> None:
    """Issue 52: a mistake is shown only once a deeper check confirms it; only the candidates
    that could be shown are checked (a player's three biggest), again when one falls away."""
    plies = [Ply(0, 0.5), Ply(1, 0.3), Ply(0, 0.4), Ply(0, 0.3), Ply(0, 0.2), Ply(0, 0.01)]
    assert to_confirm(plies, 3) == [0, 1, 2, 3]
    plies[0] = Ply(0, 0.0, True)  # the deeper check finds no mistake
    plies[1] = Ply(1, 0.25, True)
    plies[2] = Ply(0, 0.35, True)
    plies[3] = Ply(0, 0.3, True)
    assert to_confirm(plies, 3) == [4]  # room among seat 0's three for the next candidate
    plies[4] = Ply(0, 0.02, True)
    assert to_confirm(plies, 3) == []
    assert mistakes(plies, 0, 3) == [2, 3, 4] and mistakes(plies, 1, 3) == [1]
    assert not is_mistake(Ply(0, 0.019)) and is_mistake(Ply(0, 0.02))
    assert not is_mistake(Ply(0, 0.05, spread=0.06))  # within its spread: no verdict


SHALLOW_ALARM = (
    "L1H1G1H1./..P1P1L1B1/..B1..P1./.......P0/.P1......./.B0....../......./.P0P0P0L0B0/"
    "L0H0G0H0. -/- 0 - -- 1: 16"
)
"""2-player 三国志 from a level-6 game: BD2-C3 (the archer's step) looks like a loss of 47
points one ply deep, and costs nothing three plies deep (issue 52's "losses of 40-47 points
that were really 0")."""


def test_a_false_alarm_of_a_shallow_look_is_dropped_by_the_deeper_check() -> None:
    state = get_game("sangokushi-2p").from_position(SHALLOW_ALARM, None, 2)
    played = state.parse_move("BD2-C3")
    first = judge(state, played, nodes=100)
    deeper = judge(state, played, nodes=100, confirm=True)
    assert first.depth == 1 and is_mistake(first) and first.loss > 0.4 and not first.confirmed
    assert deeper.depth > first.depth and deeper.confirmed and not is_mistake(deeper)
    assert deeper.best == played  # the two moves alone, searched deeper: the played is better
    assert deeper.nodes > 4 * first.nodes  # the first look again, and five times its budget
