"""Per game: the time to build a 100-ply replay GIF and its size (``render.replay``)."""

from __future__ import annotations

import random
import time
from typing import Any

from engines import all_games
from engines.core import CHANCE, SIMULTANEOUS, Game, State, chance_pick

PLIES = 100
SEED = 1
TIME_GOAL_S = 1.0
SIZE_GOAL = 2 * 1024 * 1024


def playout(game: Game[Any], seed: int, plies: int = PLIES) -> list[tuple[State[Any], Any]]:
    """A seeded random game through the engine API: (state, the move that led to it) per ply,
    from the start; shorter when the game ends first."""
    rng = random.Random(f"replay:{game.id}:{seed}")
    state: State[Any] = game.new_game(game.player_counts[0])
    out: list[tuple[State[Any], Any]] = [(state, None)]
    while not state.is_over() and len(out) <= plies:
        actor = state.current_player()
        if actor == CHANCE:
            move, player = chance_pick(state, seed, state.ply), None
        else:
            player = rng.choice(state.acting_players()) if actor == SIMULTANEOUS else actor
            move = rng.choice(state.legal_moves(player))
        state = state.apply(move, player)
        out.append((state, move))
    return out


def main() -> None:
    from render import has_renderer
    from render.replay import Frame, replay_gif

    print(f"## Replays: a {PLIES}-ply game as an animated GIF (spectator's view)\n")
    header = f"{'game':20} {'frames':>6} {'build s':>8} {'size KiB':>9} {'goal':>5}"
    print(header)
    print("-" * len(header))
    for game in all_games():
        if not has_renderer(game.id):
            continue
        plies = playout(game, SEED)
        frames = [Frame(state.observe(None), move) for state, move in plies]
        names = [f"Player {seat + 1}" for seat in range(frames[0].state.num_players)]
        t0 = time.perf_counter()
        gif = replay_gif(frames, None, names=names)
        took = time.perf_counter() - t0
        ok = "ok" if took <= TIME_GOAL_S and len(gif) <= SIZE_GOAL else "over"
        print(f"{game.id:20} {len(frames):6} {took:8.2f} {len(gif) / 1024:9.0f} {ok:>5}")
    print(
        f"\nGoals: at most {TIME_GOAL_S:.0f} s to build and {SIZE_GOAL // (1024 * 1024)} MiB "
        "for a replay of a hundred plies."
    )


if __name__ == "__main__":
    main()
