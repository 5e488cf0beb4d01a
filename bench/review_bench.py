"""The computer's review (issue 32): the time to judge a 60-ply game of each rule set at the
default budget per ply, and the p99 of other games' moves while reviews run in the pool.

Judging: each game is a seeded 60-ply game (random moves that do not end it while others are
legal), every ply judged by :func:`engines.ai.review.judge` with ``BANMEN_REVIEW_SECONDS``'s
default budget, in this process (the service runs the same calls one by one in a worker of the
pool; pickling a position costs well under a millisecond). Goal: at most 30 s a game.

Moves while reviewing: 16 running 六面体 games on a temporary SQLite store, moves played round
robin through the service (parse, validate, commit, draw the board), first idle, then while
reviews of finished 60-ply games run one after another in a one-worker :class:`ProcessThinker`
(as the bot runs them). Goal: the p99 while reviewing within 2x the idle one.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.table import p50_p99, pct
from engines import all_games
from engines.core import CHANCE, SIMULTANEOUS, Game, State, chance_pick

PLIES = 60
SEED = 1
GOAL_S = 30.0
MOVE_GAMES = 16
MOVES = 240
"""Moves timed in each phase (idle, reviewing)."""


def game_plies(
    game: Game[Any], seed: int = SEED, plies: int = PLIES
) -> list[tuple[State[Any], Any]]:
    """(the position, the move a seat chose there) for ``plies`` plies of a seeded game whose
    moves avoid ending it while another move is legal (chance and secret setups are played
    as the host plays them, and are no plies)."""
    rng = random.Random(f"review:{game.id}:{seed}")
    state: State[Any] = game.new_game(game.player_counts[0])
    out: list[tuple[State[Any], Any]] = []
    while len(out) < plies and not state.is_over():
        actor = state.current_player()
        if actor == CHANCE:
            state = state.apply(chance_pick(state, str(seed), state.ply))
            continue
        if actor == SIMULTANEOUS:
            seat = rng.choice(state.acting_players())
            state = state.apply(rng.choice(state.legal_moves(seat)), seat)
            continue
        moves = list(state.legal_moves())
        going = [m for m in moves if not state.apply(m).is_over()] or moves
        move = rng.choice(going)
        out.append((state, move))
        state = state.apply(move)
    return out


def judging() -> None:
    from bot.config import Settings
    from engines.ai.review import judge

    seconds = Settings().review_seconds
    print(f"## The computer's review: a {PLIES}-ply game, {seconds} s a ply\n")
    header = f"{'game':20} {'plies':>5} {'total s':>8} {'s/ply':>6} {'depth':>5} {'goal':>5}"
    print(header)
    print("-" * len(header))
    for game in all_games():
        plies = game_plies(game)
        depths = []
        t0 = time.perf_counter()
        for k, (state, move) in enumerate(plies):
            depths.append(judge(state, move, seconds=seconds, seed=k).depth)
        took = time.perf_counter() - t0
        ok = "ok" if took <= GOAL_S else "over"
        mean = sum(depths) / max(1, len(depths))
        per = took / max(1, len(plies))
        print(f"{game.id:20} {len(plies):5} {took:8.1f} {per:6.2f} {mean:5.1f} {ok:>5}")
    print(f"\nGoal: at most {GOAL_S:.0f} s for a {PLIES}-ply game (depth: the mean reached).")


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


def main() -> None:
    judging()
    moves_while_reviewing()
