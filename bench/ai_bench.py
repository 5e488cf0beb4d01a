"""The computer opponents: nodes per second, time per move per level, and the strength ladder.

    python -m bench ai [--games ID,...] [--levels 1-8] [--pairs 20] [--nodes 4000]
                       [--max-plies 200] [--workers 2] [--skip-time] [--skip-ladder]
                       [--seed-base N]

1. **Speed**: nodes per second of an unbounded search, 0.5 s a move, on 4 positions a game.
2. **Seconds per move** at each level with its real time budget (2 positions a game).
3. **Ladder**: level N against level N-2 and level 1 against random play, ``--pairs`` games a
   pair (default 20), seats alternated (in 三国志 the stronger level takes each seat in turn
   against two of the weaker), each game from its own seed. Printed: the stronger side's score
   against each opponent by finishing place (1 ahead, 1/2 level, 0 behind: win 1, draw 1/2,
   loss 0 with two players; with three, winning scores 1 and losing 1/4, so an equal field
   scores 50% as with two) and the mean seconds per move of the pair.
   The ladder does not read the clock: each level searches to its own depth cap within a node
   budget of ``--nodes`` per second of its time budget (so level 8, 2 s, gets 8,000 nodes at
   the default; 黒壇の馬 gets four times as many, ``LADDER_RATE``), which makes it reproducible
   on a loaded machine and bounds its run time. Games longer than ``--max-plies`` count as draws.
   略式易双六 has no opponent: its cell is the win rate of the level's hints against random
   choices over the same deals.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from engines import all_games, get_game
from engines.ai import LEVELS, choose_move, evaluation_for
from engines.ai.search import search
from engines.core import CHANCE, SIMULTANEOUS, State, chance_pick
from tests.engines.playout import random_game

RANDOM = 0
"""A "level" that plays uniformly random legal moves."""
NODES_PER_SECOND = 4000
"""The ladder's node budget per second of a level's time budget: a fifth to a twelfth of what
the search does on this machine (20,000–50,000 nodes/s idle, section 1; but see LADDER_RATE),
as on a slower or busy host; the ratios between levels are those of real play. (Twice this
rate doubles the ladder's time.)"""
LADDER_RATE = {"socrates-kokutan": 4}
"""Games whose search runs so much faster than the others' that the common rate would hold them
to a far smaller share of their real speed: their ladder budget is this many times ``--nodes``.
黒壇の馬 searches 63,000-72,000 nodes/s (few moves a position): at 4,000 its ladder ran at a
sixteenth to an eighteenth of its real speed, against a fifth to a twelfth for the other games,
and its level 1 (100 nodes, against a median of 576 in phase 2 and 1,152 in phase 1 in real
play) could not be both 90% against random play and 70% below level 3. At 16,000 it runs at
about a fourth."""
MIN_NODES = 100
"""The least node budget of a ladder move (level 1 at the default rate would get 40)."""
SETUP_NODES = 10
"""A secret setup (数字将棋) is chosen once a game and decides much of it: it gets ten moves'
nodes."""
Task = tuple[str, int, tuple[int, ...], int, int, int]
"""(game id, players, level of each seat (0: random), seed, nodes per second, max plies)."""


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
    """Mean seconds per move at each level (real budgets)."""
    states = _positions(game_id, players, positions)
    out = []
    for lvl in levels:
        t0 = time.monotonic()
        for state in states:
            choose_move(state, state.current_player(), lvl, random.Random(lvl))
        out.append((time.monotonic() - t0) / max(1, len(states)))
    return out


def ladder_move(state: State[Any], seat: int, level: int, rng: random.Random, nodes: int) -> Any:
    """Level ``level``'s move (or secret setup) for ``seat`` as the ladder plays it: within
    ``nodes`` a second of the level's time budget (at least :data:`MIN_NODES`; a setup
    :data:`SETUP_NODES` times as many), never reading the clock."""
    budget = max(MIN_NODES, int(LEVELS[level].budget * nodes))
    if state.current_player() == SIMULTANEOUS:
        budget *= SETUP_NODES
    return choose_move(state, seat, level, rng, budget_scale=1e6, max_nodes=budget)


def play(task: Task) -> tuple[tuple[float, ...], float, int]:
    """One game; ``levels[seat]`` (0: random). Returns each seat's score, the seconds spent
    by the computer players and the number of their moves."""
    game_id, players, levels, seed, nodes, max_plies = task
    rng = random.Random(f"ladder:{game_id}:{seed}")
    state: State[Any] = get_game(game_id).new_game(players)
    plies = 0
    spent, moves = 0.0, 0
    while not state.is_over() and plies < max_plies:
        p = state.current_player()
        if p == CHANCE:
            state = state.apply(chance_pick(state, seed, state.ply))
            continue
        seats = state.acting_players() if p == SIMULTANEOUS else (p,)
        for seat in seats:
            actor = seat if p == SIMULTANEOUS else None
            lvl = levels[seat]
            if lvl == RANDOM:
                move = rng.choice(state.legal_moves(seat if actor is not None else None))
            else:
                t0 = time.monotonic()
                move = ladder_move(state, seat, lvl, rng, nodes)
                spent += time.monotonic() - t0
                moves += 1
            state = state.apply(move, actor)
        plies += 1
    outcome = state.outcome()
    if outcome is None:
        return (0.5,) * players, spent, moves
    if players == 1:  # 略式易双六: won or not
        return (float(0 in outcome.winners),), spent, moves
    return head_to_head(outcome.ranks), spent, moves


def head_to_head(ranks: tuple[int, ...]) -> tuple[float, ...]:
    """Each seat's mean score against every other seat by finishing place: 1 ahead, 1/2 level,
    0 behind. With two players: win 1, draw 1/2, loss 0. With three, an equal field scores 1/2
    each (the winner 1, the two others 1/4), as in two-player play."""
    n = len(ranks)
    return tuple(
        sum(
            1.0 if ranks[s] < ranks[o] else 0.5 if ranks[s] == ranks[o] else 0.0
            for o in range(n)
            if o != s
        )
        / max(1, n - 1)
        for s in range(n)
    )


def ladder_tasks(
    game_id: str,
    players: int,
    strong: int,
    weak: int,
    n: int,
    nodes: int,
    max_plies: int,
    seed_base: int = 0,
) -> list[tuple[Task, int]]:
    """The games of one pair, with the stronger side's seat. Game ``i`` of the pair plays from
    seed ``seed_base + 1000 * strong + i`` (``seed_base`` 0: the seeds the ladder has always
    used; any other, games it never played, e.g. 1,000,000)."""
    tasks = []
    for i in range(n):
        seat = i % players
        levels = tuple(strong if s == seat else weak for s in range(players))
        seed = seed_base + 1000 * strong + i
        tasks.append(((game_id, players, levels, seed, nodes, max_plies), seat))
    return tasks


def _yosuko_cell(pool: ProcessPoolExecutor, level: int, n: int, seed_base: int = 0) -> str:
    """The hint's win rate at ``level`` against random choices, over the same ``n`` deals."""
    hinted = [("yosuko", 1, (level,), seed_base + i, 0, 400) for i in range(n)]
    blind = [("yosuko", 1, (RANDOM,), seed_base + i, 0, 400) for i in range(n)]
    wins = sum(r[0][0] for r in pool.map(play, hinted))
    base = sum(r[0][0] for r in pool.map(play, blind))
    return f"{wins / n:.0%}/{base / n:.0%}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench ai")
    parser.add_argument("--games", default="", help="comma-separated ids (default: all)")
    parser.add_argument("--levels", default="1-8", help="a range like 1-8")
    parser.add_argument("--pairs", type=int, default=20, help="games per ladder pair")
    parser.add_argument(
        "--nodes",
        type=int,
        default=NODES_PER_SECOND,
        help="ladder node budget per second of level budget",
    )
    parser.add_argument("--max-plies", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--skip-time", action="store_true", help="skip the per-level timing")
    parser.add_argument("--skip-ladder", action="store_true", help="skip the ladder")
    parser.add_argument(
        "--seed-base",
        type=int,
        default=0,
        help="added to every ladder seed (0: the usual seeds; e.g. 1000000: unseen games)",
    )
    args = parser.parse_args(argv)
    lo, _, hi = args.levels.partition("-")
    levels = list(range(int(lo), int(hi or lo) + 1))
    wanted = [g for g in args.games.split(",") if g]
    games = [(g.id, n) for g in all_games() for n in g.player_counts[:1]]
    games = [(g, n) for g, n in games if not wanted or g in wanted]
    t_start = time.monotonic()

    print("## AI: search speed (alpha-beta to any depth, 0.5 s a move, 4 positions)\n")
    print(f"{'game':20} {'nodes/s':>9} {'depth':>6}")
    for game_id, n in games:
        nps, depth = speed_row(game_id, n, 4, 0.5)
        print(f"{game_id:20} {nps:9.0f} {depth:6.1f}", flush=True)

    if not args.skip_time:
        print("\nSeconds per move by level (real time budgets, 2 positions)")
        print(f"{'game':20} " + " ".join(f"{'L' + str(lv):>6}" for lv in levels))
        for game_id, n in games:
            row = time_row(game_id, n, 2, levels)
            print(f"{game_id:20} " + " ".join(f"{t:6.2f}" for t in row), flush=True)

    if args.skip_ladder:
        return
    pairs = [(lv, lv - 2) for lv in levels if lv - 2 in levels] + [(1, RANDOM)]
    print(
        f"\nLadder: the stronger side's score, {args.pairs} games a pair, seats alternated; "
        f"node budget {args.nodes} a second of level budget, seeds from {args.seed_base}"
        + "".join(f", {g}: x{k}" for g, k in LADDER_RATE.items() if g in dict(games))
        + "; (s/move)"
    )
    names = [f"{s}v{w or 'R'}" for s, w in pairs]
    print(f"{'game':20} " + " ".join(f"{name:>12}" for name in names))
    with ProcessPoolExecutor(args.workers) as pool:
        for game_id, n in games:
            t_game = time.monotonic()
            cells = []
            for strong, weak in pairs:
                if game_id == "yosuko":
                    cells.append(
                        _yosuko_cell(pool, strong, args.pairs, args.seed_base)
                        if weak == RANDOM
                        else "-"
                    )
                    continue
                rate = args.nodes * LADDER_RATE.get(game_id, 1)
                tasks = ladder_tasks(
                    game_id, n, strong, weak, args.pairs, rate, args.max_plies, args.seed_base
                )
                results = list(pool.map(play, [t for t, _ in tasks]))
                score = sum(r[0][seat] for r, (_, seat) in zip(results, tasks, strict=True))
                spent = sum(r[1] for r in results) / max(1, sum(r[2] for r in results))
                cells.append(f"{score / args.pairs:4.0%} ({spent:.2f})")
            took = time.monotonic() - t_game
            print(f"{game_id:20} " + " ".join(f"{c:>12}" for c in cells) + f"  {took:.0f} s")
    print(f"\n(total {time.monotonic() - t_start:.0f} s)")


if __name__ == "__main__":
    main()
