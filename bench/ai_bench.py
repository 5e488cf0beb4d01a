"""The computer opponents: nodes per second, time per move per level, and a ladder.

    python -m bench.ai_bench [--games ID,...] [--levels 1-8] [--pairs 20] [--scale 0.02]
                             [--max-plies 120] [--workers 2] [--skip-time]

The ladder plays level N against level N-2 (seats alternated; in 三国志 the stronger level takes
one seat in turn against two of the weaker) and level 1 against random play, and prints the
stronger side's score (win 1, draw or shared first place 1/2). Budgets are scaled by ``--scale``
so the default run fits in minutes on two cores; games longer than ``--max-plies`` count as
draws. 略式易双六 has no opponent: its row is the win rate of the hint's choices against random
choices over the same number of deals.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from engines import all_games, get_game
from engines.ai import choose_move, evaluation_for
from engines.ai.search import search
from engines.core import CHANCE, SIMULTANEOUS, State, chance_pick
from tests.engines.playout import random_game

RANDOM = 0
"""A "level" that plays uniformly random legal moves."""


def _positions(game_id: str, players: int, count: int) -> list[State[Any]]:
    game = get_game(game_id)
    out: list[State[Any]] = []
    seed = 0
    while len(out) < count and seed < 50:
        states, _ = random_game(game, seed, max_plies=40, players=players)
        live = [s for s in states if not s.is_over() and s.current_player() >= 0]
        out.extend(live[8::13])
        seed += 1
    return out[:count]


def speed_row(game_id: str, players: int, positions: int, budget: float) -> tuple[float, float]:
    """Nodes per second of a full-depth search (with ``budget`` seconds a move), and mean depth."""
    nodes = 0
    spent = 0.0
    depths = []
    for state in _positions(game_id, players, positions):
        t0 = time.monotonic()
        seat = state.current_player()
        ev = evaluation_for(game_id)
        r = search(state, seat, ev, max_depth=64, deadline=t0 + budget)
        spent += time.monotonic() - t0
        nodes += r.nodes
        depths.append(r.depth)
    return nodes / max(spent, 1e-9), statistics.mean(depths) if depths else 0.0


def time_row(game_id: str, players: int, positions: int, levels: list[int]) -> list[float]:
    """Mean seconds per move at each level (unscaled budgets)."""
    states = _positions(game_id, players, positions)
    out = []
    for lvl in levels:
        t0 = time.monotonic()
        for state in states:
            choose_move(state, state.current_player(), lvl, random.Random(lvl))
        out.append((time.monotonic() - t0) / max(1, len(states)))
    return out


def play(task: tuple[str, int, tuple[int, ...], int, float, int]) -> tuple[float, ...]:
    """One game; ``levels[seat]`` (0: random). Returns each seat's score."""
    game_id, players, levels, seed, scale, max_plies = task
    rng = random.Random(f"ladder:{game_id}:{seed}")
    state: State[Any] = get_game(game_id).new_game(players)
    plies = 0
    while not state.is_over() and plies < max_plies:
        p = state.current_player()
        if p == CHANCE:
            state = state.apply(chance_pick(state, seed, state.ply))
            continue
        seats = state.acting_players() if p == SIMULTANEOUS else (p,)
        for seat in seats:
            actor = seat if p == SIMULTANEOUS else None
            if levels[seat] == RANDOM:
                move = rng.choice(state.legal_moves(seat if actor is not None else None))
            else:
                move = choose_move(state, seat, levels[seat], rng, budget_scale=scale)
            state = state.apply(move, actor)
        plies += 1
    outcome = state.outcome()
    if outcome is None:
        return (0.5,) * players
    return tuple(
        1.0 if r == "win" and len(outcome.winners) == 1 else 0.5 if r in ("win", "draw") else 0.0
        for r in (outcome.result(s) for s in range(players))
    )


def ladder_tasks(
    game_id: str, players: int, strong: int, weak: int, n: int, scale: float, max_plies: int
) -> list[tuple[tuple[str, int, tuple[int, ...], int, float, int], int]]:
    """The games of one pair, with the stronger side's seat."""
    tasks = []
    for i in range(n):
        seat = i % players
        levels = tuple(strong if s == seat else weak for s in range(players))
        tasks.append(((game_id, players, levels, 1000 * strong + i, scale, max_plies), seat))
    return tasks


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.ai_bench")
    parser.add_argument("--games", default="", help="comma-separated ids (default: all)")
    parser.add_argument("--levels", default="1-8", help="a range like 1-8")
    parser.add_argument("--pairs", type=int, default=20, help="games per ladder pair")
    parser.add_argument("--scale", type=float, default=0.02, help="budget scale in the ladder")
    parser.add_argument("--max-plies", type=int, default=120)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--skip-time", action="store_true", help="skip the per-level timing")
    args = parser.parse_args(argv)
    lo, _, hi = args.levels.partition("-")
    levels = list(range(int(lo), int(hi or lo) + 1))
    wanted = [g for g in args.games.split(",") if g]
    games = [(g.id, n) for g in all_games() for n in g.player_counts[:1]]
    games = [(g, n) for g, n in games if not wanted or g in wanted]
    t_start = time.monotonic()

    print("AI search speed (alpha-beta to any depth, 0.5 s a move, 4 positions)")
    print(f"{'game':20} {'nodes/s':>9} {'depth':>6}")
    for game_id, n in games:
        nps, depth = speed_row(game_id, n, 4, 0.5)
        print(f"{game_id:20} {nps:9.0f} {depth:6.1f}")

    if not args.skip_time:
        print("\nSeconds per move by level (unscaled budgets, 2 positions)")
        print(f"{'game':20} " + " ".join(f"{'L' + str(lv):>6}" for lv in levels))
        for game_id, n in games:
            row = time_row(game_id, n, 2, levels)
            print(f"{game_id:20} " + " ".join(f"{t:6.2f}" for t in row))

    pairs = [(lv, lv - 2) for lv in levels if lv - 2 in levels] + [(1, RANDOM)]
    print(f"\nLadder: stronger side's score, {args.pairs} games a pair, budgets x{args.scale}")
    names = [f"{s}v{w or 'R'}" for s, w in pairs]
    print(f"{'game':20} " + " ".join(f"{name:>6}" for name in names))
    with ProcessPoolExecutor(args.workers) as pool:
        for game_id, n in games:
            cells = []
            for strong, weak in pairs:
                if game_id == "yosuko":
                    tasks = [((game_id, 1, (strong,), i, 1.0, 400), 0) for i in range(args.pairs)]
                    if weak != RANDOM:
                        cells.append("   -  ")
                        continue
                    hint_wins = sum(r[0] for r in pool.map(play, [t for t, _ in tasks]))
                    rand = [((game_id, 1, (RANDOM,), i, 1.0, 400), 0) for i in range(args.pairs)]
                    rand_wins = sum(r[0] for r in pool.map(play, [t for t, _ in rand]))
                    cells.append(f"{hint_wins / args.pairs:.0%}/{rand_wins / args.pairs:.0%}")
                    continue
                tasks = ladder_tasks(
                    game_id, n, strong, weak, args.pairs, args.scale, args.max_plies
                )
                results = list(pool.map(play, [t for t, _ in tasks]))
                score = sum(r[seat] for r, (_, seat) in zip(results, tasks, strict=True))
                cells.append(f"{score / args.pairs:6.0%}")
            print(f"{game_id:20} " + " ".join(f"{c:>6}" for c in cells), flush=True)
    print(f"\n(total {time.monotonic() - t_start:.0f} s)")


if __name__ == "__main__":
    main()
