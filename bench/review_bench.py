"""The computer's review (issues 32 and 52): its time, whether it finds planted blunders, how
many of its mistakes a deeper search confirms, 略式易双六's verdicts, and the p99 of other
games' moves while reviews run in the pool.

    python -m bench review [--games ID,...] [--planted 2] [--natural 1] [--max-plies 80]
                           [--deals 5] [--workers 2] [--skip-time] [--skip-moves]

1. **Time**: each game is a seeded 60-ply game (random moves that do not end it while others
   are legal), reviewed as the service reviews it (:func:`review`: every ply judged by
   :func:`engines.ai.review.judge` at ``BANMEN_REVIEW_NODES``'s default, then each player's
   biggest candidate mistakes judged again deeper), in this process (the service runs the
   same calls one by one in a worker of the pool). Goal: at most about 30 s a game. Random
   moves are the costly case: every player has mistakes to confirm.
2. **Planted blunders**: level-6 games (the ladder's node budgets: ``bench.ai_bench``) in which
   one move, at ply 3 or later, is replaced by a genuine blunder: a move that a whole search
   with the nodes of the review's deeper check (5x) says gives away at least half a winning
   chance, and the deeper check agrees. The game then goes on at level 6 to its end (or
   ``--max-plies``) and is reviewed. Goal: the blunder among its player's three mistakes shown
   in at least 95% of the games.
3. **False alarms**: level-6 games against level 6, reviewed; each mistake shown is judged again
   by a whole search with 10x and with 20x the review's nodes, and counts as confirmed if it is
   still a mistake there. Goal: at least 80% confirmed by the 10x search. Also shown: the
   candidates the review's own deeper check dropped, and how many of the mistakes shown level
   8 plays itself.
4. **略式易双六**: over ``--deals`` deals, a game whose every choice is the hint's best (200
   futures) and one whose every choice is its worst, reviewed: the mistakes shown in each (the
   hint's game should have no more), and the cards' and the choices' share of the result.
5. **Moves while reviewing**: 16 running 六面体 games on a temporary SQLite store, moves played
   round robin through the service (parse, validate, commit, draw the board), first idle, then
   while reviews of finished 60-ply games run one after another in a one-worker
   :class:`ProcessThinker` (as the bot runs them). Goal: the p99 while reviewing within 2x the
   idle one.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import tempfile
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.ai_bench import LADDER_RATE, NODES_PER_SECOND, ladder_move
from bench.table import p50_p99, pct
from engines import all_games, get_game
from engines.ai.review import (
    CONFIRM,
    Judgement,
    budget,
    is_mistake,
    judge,
    luck,
    mistakes,
    move_chances,
    outcome_chances,
    to_confirm,
)
from engines.ai.yosuko import hint
from engines.core import CHANCE, SIMULTANEOUS, Game, State, chance_pick

PLIES = 60
SEED = 1
GOAL_S = 30.0
MISTAKES = 3
"""Mistakes shown a player (as bot/service/review/reviews.py shows them)."""
LEVEL = 6
"""The level of the planted and the natural games."""
CHECKS = (10, 20)
"""The checks of a mistake shown: a whole search with this many times the review's nodes (10:
the issue's measure; its own deeper check searches two moves with five times)."""
BLUNDER = 0.5
"""A planted blunder gives away at least this much of a winning chance (by the check)."""
PLANT_FROM = 2
"""The first ply a blunder may be planted at (数字将棋's level-6 games may end by ply 6)."""
PLANTED_GOAL = 0.95
CONFIRMED_GOAL = 0.8
MOVE_GAMES = 16
MOVES = 240
"""Moves timed in each phase (idle, reviewing)."""

Chooser = Callable[[State[Any], int, random.Random, int], Any]
"""A seat's move: (position, seat, the game's rng, plies so far) -> move (or secret setup)."""


def wandering(state: State[Any], seat: int, rng: random.Random, ply: int) -> Any:
    """A random move that does not end the game while another is legal (a setup: any)."""
    if state.current_player() == SIMULTANEOUS:
        return rng.choice(state.legal_moves(seat))
    moves = list(state.legal_moves())
    going = [m for m in moves if not state.apply(m).is_over()] or moves
    return rng.choice(going)


def levelled(state: State[Any], seat: int, rng: random.Random, ply: int) -> Any:
    """Level 6's move at the ladder's node budget (a game's own rate: LADDER_RATE)."""
    return ladder_move(
        state, seat, LEVEL, rng, NODES_PER_SECOND * LADDER_RATE.get(state.game.id, 1)
    )


def played(
    game: Game[Any], seed: int = SEED, plies: int = PLIES, choose: Chooser = wandering
) -> tuple[list[tuple[State[Any], Any]], State[Any]]:
    """(the position, the move a seat chose there) for at most ``plies`` plies of a seeded game
    (chance and secret setups are played as the host plays them, and are no plies), and the
    position where it stopped (the end, unless the plies ran out first)."""
    rng = random.Random(f"review:{game.id}:{seed}")
    state: State[Any] = game.new_game(game.player_counts[0])
    out: list[tuple[State[Any], Any]] = []
    while not state.is_over():
        actor = state.current_player()
        if actor == CHANCE:
            state = state.apply(chance_pick(state, str(seed), state.ply))
            continue
        if len(out) == plies:
            break
        if actor == SIMULTANEOUS:
            seat = rng.choice(state.acting_players())
            state = state.apply(choose(state, seat, rng, len(out)), seat)
            continue
        move = choose(state, actor, rng, len(out))
        out.append((state, move))
        state = state.apply(move)
    return out, state


def game_plies(
    game: Game[Any], seed: int = SEED, plies: int = PLIES, choose: Chooser = wandering
) -> list[tuple[State[Any], Any]]:
    """The plies of :func:`played`."""
    return played(game, seed, plies, choose)[0]


def review(
    plies: Sequence[tuple[State[Any], Any]], nodes: int
) -> tuple[list[Judgement], list[Judgement]]:
    """Every ply judged (the first look), then each player's biggest candidates judged again
    deeper until those shown are confirmed (the review), as the service reviews a game; each
    ply seeded by its index."""
    first = [judge(s, m, nodes=nodes, seed=k) for k, (s, m) in enumerate(plies)]
    judged = list(first)
    while todo := to_confirm(judged, MISTAKES):
        for k in todo:
            state, move = plies[k]
            judged[k] = judge(state, move, nodes=nodes, seed=k, confirm=True)
    return first, judged


def shown(judged: Sequence[Judgement], seat: int) -> list[int]:
    """The plies a review shows as ``seat``'s mistakes (indices from 0)."""
    return [k for k in mistakes(judged, seat, MISTAKES) if judged[k].confirmed]


def ruled(header: str) -> None:
    """A table's header line and a rule under it."""
    print(header)
    print("-" * len(header))


def review_nodes() -> int:
    from bot.config import Settings

    return Settings().review_nodes


def timing(games: list[Game[Any]]) -> None:
    nodes = review_nodes()
    print(f"## The computer's review: a {PLIES}-ply game, {nodes} nodes a ply\n")
    header = (
        f"{'game':20} {'plies':>5} {'total s':>8} {'s/ply':>6} {'depth':>5} "
        f"{'checked':>7} {'goal':>5}"
    )
    ruled(header)
    for game in games:
        plies = game_plies(game)
        t0 = time.perf_counter()
        _, judged = review(plies, nodes)
        took = time.perf_counter() - t0
        ok = "ok" if took <= GOAL_S else "over"
        mean = sum(j.depth for j in judged) / max(1, len(judged))
        per = took / max(1, len(plies))
        checked = sum(j.confirmed for j in judged)
        print(
            f"{game.id:20} {len(plies):5} {took:8.1f} {per:6.2f} {mean:5.1f} {checked:7} {ok:>5}",
            flush=True,
        )
    print(
        f"\nGoal: at most about {GOAL_S:.0f} s for a {PLIES}-ply game (depth: the mean of the "
        "last completed depths; checked: plies judged again deeper)."
    )


class Planter:
    """Level 6's moves, but from ply ``at`` on, the first genuine blunder found is played
    instead (once): a move that gives away at least :data:`BLUNDER` of the winning chance by a
    search as deep as the review's check of a mistake (``confirm``: :data:`CONFIRM` times the
    review's ``nodes``), the threat check included."""

    def __init__(self, at: int, nodes: int) -> None:
        self.at = at
        self.nodes = nodes
        self.ply = -1
        self.loss = 0.0

    def __call__(self, state: State[Any], seat: int, rng: random.Random, ply: int) -> Any:
        if self.ply < 0 and ply >= self.at and state.current_player() >= 0:
            deep = CONFIRM * budget(state.game.id, self.nodes)
            chances = move_chances(state, nodes=deep)
            best = max(chances.values())
            bad = [m for m, c in chances.items() if c <= best - BLUNDER]
            for move in rng.sample(bad, min(3, len(bad))):
                checked = judge(state, move, nodes=self.nodes, confirm=True)
                if checked.loss >= BLUNDER:
                    self.ply, self.loss = ply, checked.loss
                    return move
        return levelled(state, seat, rng, ply)


@dataclass(frozen=True, slots=True)
class Planted:
    game: str
    seed: int
    ply: int
    loss: float
    rank: int
    """Where the blunder stands among its player's mistakes shown (0: first; -1: not shown)."""
    plies: int
    seconds: float


def planted(task: tuple[str, int, int, int]) -> Planted:
    """One game with a planted blunder, reviewed."""
    game_id, seed, max_plies, nodes = task
    game = get_game(game_id)
    at = PLANT_FROM + random.Random(f"plant:{game_id}:{seed}").randrange(20)
    planter = Planter(at, nodes)
    plies = game_plies(game, seed, max_plies, planter)
    if planter.ply < 0:
        return Planted(game_id, seed, -1, 0.0, -1, len(plies), 0.0)
    t0 = time.perf_counter()
    _, judged = review(plies, nodes)
    took = time.perf_counter() - t0
    seat = plies[planter.ply][0].current_player()
    found = shown(judged, seat)
    rank = found.index(planter.ply) if planter.ply in found else -1
    return Planted(game_id, seed, planter.ply, planter.loss, rank, len(plies), took)


@dataclass(frozen=True, slots=True)
class Natural:
    game: str
    plies: int
    candidates: int
    """Plies the first look called mistakes (a player's biggest are judged again)."""
    dropped: int
    """Of those judged again, the ones the deeper check no longer calls mistakes."""
    shown: int
    confirmed: tuple[int, ...]
    """Mistakes shown that a search with each of :data:`CHECKS` times the review's nodes still
    calls mistakes."""
    top_plays: int
    """Mistakes shown that level 8 plays itself (at the ladder's budget)."""
    seconds: float


def natural(task: tuple[str, int, int, int]) -> Natural:
    """One level-6 game against level 6, reviewed; its mistakes shown checked 10x deeper."""
    game_id, seed, max_plies, nodes = task
    game = get_game(game_id)
    plies = game_plies(game, 10_000 + seed, max_plies, levelled)
    t0 = time.perf_counter()
    first, judged = review(plies, nodes)
    took = time.perf_counter() - t0
    again = [k for k, j in enumerate(judged) if j.confirmed]
    dropped = sum(1 for k in again if is_mistake(first[k]) and not is_mistake(judged[k]))
    reported = [k for seat in range(game.player_counts[0]) for k in shown(judged, seat)]
    confirmed = [0] * len(CHECKS)
    top = 0
    rate = NODES_PER_SECOND * LADDER_RATE.get(game_id, 1)
    for k in reported:
        state, move = plies[k]
        for i, times in enumerate(CHECKS):
            confirmed[i] += is_mistake(judge(state, move, nodes=times * nodes, seed=k))
        rng = random.Random(f"top:{game_id}:{seed}:{k}")
        top += ladder_move(state, state.current_player(), 8, rng, rate) == move
    candidates = sum(is_mistake(j) for j in first)
    return Natural(
        game_id, len(plies), candidates, dropped, len(reported), tuple(confirmed), top, took
    )


def figures(args: argparse.Namespace, games: list[Game[Any]]) -> None:
    nodes = review_nodes()
    searched = [g for g in games if g.player_counts[0] > 1]
    plant = [(g.id, seed, args.max_plies, nodes) for g in searched for seed in range(args.planted)]
    plain = [(g.id, seed, args.max_plies, nodes) for g in searched for seed in range(args.natural)]
    if not plant and not plain:
        return
    with ProcessPoolExecutor(args.workers) as pool:
        blunders = list(pool.map(planted, plant))
        naturals = list(pool.map(natural, plain))
    print(
        f"\n## Planted blunders: level {LEVEL} against level {LEVEL}, one move at ply "
        f"{PLANT_FROM + 1} or later a blunder (>= {BLUNDER:.0%} lost by a {CONFIRM}x search)\n"
    )
    header = f"{'game':20} {'games':>5} {'top 3':>5} {'plies':>6} {'loss':>5} {'review s':>8}"
    ruled(header)
    for game in searched:
        rows = [b for b in blunders if b.game == game.id and b.ply >= 0]
        if not rows:
            print(f"{game.id:20} {0:5}   (no blunder found to plant)")
            continue
        top = sum(b.rank >= 0 for b in rows)
        mean_plies = sum(b.plies for b in rows) / len(rows)
        loss = sum(b.loss for b in rows) / len(rows)
        took = sum(b.seconds for b in rows) / len(rows)
        print(f"{game.id:20} {len(rows):5} {top:5} {mean_plies:6.0f} {loss:5.0%} {took:8.1f}")
    done = [b for b in blunders if b.ply >= 0]
    found = sum(b.rank >= 0 for b in done)
    share = found / max(1, len(done))
    missed = ", ".join(f"{b.game}:{b.seed}@{b.ply + 1}" for b in done if b.rank < 0) or "none"
    goal = "ok" if share >= PLANTED_GOAL else "short"
    print(
        f"\nAmong its player's three mistakes shown: {found} of {len(done)} ({share:.0%}; goal "
        f">= {PLANTED_GOAL:.0%}: {goal}). Missed: {missed}."
    )

    print(
        f"\n## False alarms: level {LEVEL} against level {LEVEL}, each mistake shown judged "
        f"again by a whole search with {' and '.join(f'{c}x' for c in CHECKS)} the nodes\n"
    )
    checks = " ".join(f"{f'{c}x ok':>6}" for c in CHECKS)
    header = (
        f"{'game':20} {'plies':>5} {'first':>5} {'dropped':>7} {'shown':>5} {checks} "
        f"{'L8 plays':>8} {'review s':>8}"
    )
    ruled(header)
    for game in searched:
        ns = [n for n in naturals if n.game == game.id]
        held = " ".join(f"{sum(n.confirmed[i] for n in ns):6}" for i in range(len(CHECKS)))
        print(
            f"{game.id:20} {sum(n.plies for n in ns):5} {sum(n.candidates for n in ns):5} "
            f"{sum(n.dropped for n in ns):7} {sum(n.shown for n in ns):5} {held} "
            f"{sum(n.top_plays for n in ns):8} {sum(n.seconds for n in ns):8.1f}"
        )
    reported = sum(n.shown for n in naturals)
    for i, times in enumerate(CHECKS):
        confirmed = sum(n.confirmed[i] for n in naturals)
        share = confirmed / max(1, reported)
        goal = "ok" if share >= CONFIRMED_GOAL else "short"
        print(
            f"\nConfirmed by a {times}x search: {confirmed} of {reported} mistakes shown "
            f"({share:.0%}; goal >= {CONFIRMED_GOAL:.0%}: {goal})."
        )
    print(
        "First: plies the first look called mistakes; dropped: of those judged again deeper, "
        "the ones that were not; L8 plays: mistakes shown that level 8 plays itself."
    )


def hinted(pick: int) -> Chooser:
    """Every choice the hint's best (``pick`` 0) or worst (-1), over 200 futures."""

    def choose(state: State[Any], seat: int, rng: random.Random, ply: int) -> Any:
        return hint(state, rng, 200)[pick].move

    return choose


def solitaire(task: tuple[int, int, int]) -> tuple[int, int, int, tuple[int, int, int, int]]:
    """One 略式易双六 deal played by the hint's best (``pick`` 0) or worst (-1) choices: the
    seed, the mistakes shown, the plies, and the chance as dealt, at the end, the cards' and
    the choices' share (points)."""
    seed, pick, nodes = task
    game = get_game("yosuko")
    plies, end = played(game, seed, 400, hinted(pick))
    _, judged = review(plies, nodes)
    outcome = end.outcome()
    result = 0.0 if outcome is None else outcome_chances(outcome, 1)[0]
    return seed, len(shown(judged, 0)), len(plies), luck(judged[0].best_chance, result, judged)


def yosuko_verdicts(args: argparse.Namespace) -> None:
    nodes = review_nodes()
    tasks = [(seed, pick, nodes) for seed in range(args.deals) for pick in (0, -1)]
    with ProcessPoolExecutor(args.workers) as pool:
        rows = list(pool.map(solitaire, tasks))
    print(f"\n## 略式易双六: the hint's best choices against its worst, over {args.deals} deals\n")
    header = (
        f"{'deal':>4} {'best: shown':>11} {'worst: shown':>12}  "
        "best / worst: dealt, end, cards, choices"
    )
    ruled(header)
    fewer = 0
    for seed in range(args.deals):
        (_, best, _, luck_b), (_, worst, _, luck_w) = [r for r in rows if r[0] == seed]
        fewer += best <= worst
        print(f"{seed:4} {best:11} {worst:12}  {luck_b} / {luck_w}")
    print(f"\nThe hint's game has no more mistakes shown in {fewer} of {args.deals} deals.")


async def _moves_while_reviewing() -> tuple[list[float], list[float], int]:
    from bot.clock import SystemClock
    from bot.config import Settings
    from bot.service import GameService, ProcessThinker, User

    people = [User("1", "a"), User("2", "b")]
    with tempfile.TemporaryDirectory() as folder:
        db = str(Path(folder) / "bench.db")
        pool = ProcessThinker(1)
        service = await GameService.open(
            db, clock=SystemClock(), settings=Settings(db_path=db), thinker=pool
        )
        try:
            await pool.warm_up()
            game = next(g for g in all_games() if g.id == "rokumentai")
            finished = []
            for seed in range(4):  # finished 60-ply games to review
                reply = await service.play.create_game(people[0], game.id, seated=[people[1]],
                                                  seating="listed")  # fmt: skip
                assert reply.game_id is not None
                for state, move in game_plies(game, seed):
                    await service.play.move(reply.game_id, people[state.current_player()],
                                       state.format_move(move))  # fmt: skip
                await service.play.resign(reply.game_id, people[0])
                finished.append(reply.game_id)
            running = []
            for _ in range(MOVE_GAMES):
                reply = await service.play.create_game(people[0], game.id, seated=[people[1]],
                                                  seating="listed")  # fmt: skip
                assert reply.game_id is not None
                running.append(reply.game_id)
            rng = random.Random(SEED)

            async def timed_moves(count: int) -> list[float]:
                out = []
                for k in range(count):
                    gid = running[k % len(running)]
                    state = service.play.current_state(gid)
                    if state is None or state.is_over():
                        continue
                    moves = [m for m in state.legal_moves() if not state.apply(m).is_over()]
                    move = rng.choice(moves or list(state.legal_moves()))
                    user = people[state.current_player()]
                    t0 = time.perf_counter()
                    await service.play.move(gid, user, state.format_move(move))
                    out.append(time.perf_counter() - t0)
                return out

            idle = await timed_moves(MOVES)
            reviewed = 0

            async def review_all() -> None:
                nonlocal reviewed
                for gid in finished:
                    await service.review.game(gid, people[0])
                    reviewed += 1

            task = asyncio.create_task(review_all())
            await asyncio.sleep(0.5)  # the first ply is being judged
            busy = await timed_moves(MOVES)
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            return idle, busy, reviewed
        finally:
            await service.close()


def moves_while_reviewing() -> None:
    idle, busy, reviewed = asyncio.run(_moves_while_reviewing())
    ratio = pct(busy, 0.99) / pct(idle, 0.99)
    print(f"\n## Other games' moves while reviews run ({MOVE_GAMES} 六面体 games, SQLite)\n")
    print(f"idle       p50 / p99: {p50_p99(idle)}")
    print(f"reviewing  p50 / p99: {p50_p99(busy)}   ({reviewed} reviews finished meanwhile)")
    print(f"p99 ratio: {ratio:.2f}x (goal: at most 2x)")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench review")
    parser.add_argument("--games", default="", help="comma-separated ids (default: all)")
    parser.add_argument("--planted", type=int, default=2, help="planted games a rule set")
    parser.add_argument("--natural", type=int, default=1, help="level-6 games a rule set")
    parser.add_argument("--max-plies", type=int, default=80, help="plies a level-6 game at most")
    parser.add_argument("--deals", type=int, default=5, help="略式易双六 deals")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--skip-time", action="store_true", help="skip the 60-ply timing")
    parser.add_argument("--skip-moves", action="store_true", help="skip moves while reviewing")
    args = parser.parse_args(argv)
    wanted = [g for g in args.games.split(",") if g]
    games = [g for g in all_games() if not wanted or g.id in wanted]
    if not args.skip_time:
        timing(games)
    figures(args, games)
    if args.deals and any(g.id == "yosuko" for g in games):
        yosuko_verdicts(args)
    if not args.skip_moves:
        moves_while_reviewing()
