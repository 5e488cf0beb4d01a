"""Secret setups (数字将棋's arrangement): from the game's solved mix, else by sampling;
seeing only our own side either way.

Where the game has solved its setup (``Evaluation.setups``: 数字将棋's table, made offline by
scripts/rank_suji_setups.py from every arrangement against every enemy one), a level draws from
its mix by the weights, without a search. No arrangement is drawn more often than one time in
``Level.setup_spread``, so an enemy who reads the table still cannot tell which one is coming.
Otherwise candidates are drawn at random from our legal arrangements; each is scored against
the same random sample of enemy arrangements (taken from a fresh game with the same options,
never from the real one: the observed state has the enemy's pieces face down) by a shallow
search of the position after the reveal. The best average wins, with the level's margin of
randomness.
"""

from __future__ import annotations

import random
import time
from typing import Any

from engines.ai.evaluation import Evaluation
from engines.ai.levels import Level
from engines.ai.search import PROVEN, OutOfTime, Searcher
from engines.core import SIMULTANEOUS, State

SETUP_DEPTH = 4
"""At most this many plies are searched after each imagined reveal (a level searches to its
depth cap, the game's own where it has one, up to this): the first exchanges decide much of a
game."""


def choose_setup(
    state: State[Any],
    seat: int,
    lvl: Level,
    rng: random.Random,
    evaluation: Evaluation,
    *,
    depth: int,
    margin: float,
    deadline: float,
    clock: Any = time.monotonic,
    max_nodes: int | None = None,
) -> Any:
    view = state.observe(seat)
    if view.current_player() != SIMULTANEOUS or seat not in view.acting_players():
        raise ValueError("not a secret setup step of this seat")
    mine = list(view.legal_moves(seat))
    solved = evaluation.setups(view, seat, lvl.setup_spread) if evaluation.setups else None
    if solved:
        legal = set(mine)
        mix = [(m, w) for m, w in solved if m in legal]
        if mix:
            return rng.choices([m for m, _ in mix], weights=[w for _, w in mix])[0]
    fresh = view.game.new_game(view.num_players, view.options())
    others = [s for s in range(view.num_players) if s != seat]
    candidates = rng.sample(mine, min(lvl.setup_candidates, len(mine)))
    samples = [
        [(o, rng.choice(fresh.legal_moves(o))) for o in others] for _ in range(lvl.setup_samples)
    ]
    searcher = Searcher(seat, evaluation, clock, deadline, max_nodes=max_nodes)
    depth = min(depth, SETUP_DEPTH)
    scores: list[tuple[Any, float]] = []
    try:
        for cand in candidates:
            total = 0.0
            for sample in samples:
                st = fresh.apply(cand, seat)
                for o, setup in sample:
                    st = st.apply(setup, o)
                v = searcher.value(st, depth, -PROVEN * 2, PROVEN * 2, 0)
                total += v
            scores.append((cand, total / len(samples)))
    except OutOfTime:
        pass
    if not scores:
        return candidates[0]
    best = max(v for _, v in scores)
    near = [c for c, v in scores if v >= best - margin]
    return rng.choice(near)
