"""Per game: legal-move generation, apply, render time and PNG size, with python-chess as a
reference point (chess middlegames)."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from engines import all_games
from engines.core import CHANCE, SIMULTANEOUS, State
from engines.record import Entry
from tests.engines.playout import random_game

SAMPLES_PER_GAME = 200


def _median_us(samples: list[float]) -> float:
    return statistics.median(samples) * 1e6


def _time(fn: Callable[..., Any], args: list[tuple[Any, ...]]) -> float:
    """The best of one call per argument tuple (fresh objects defeat per-state caches)."""
    best = float("inf")
    for a in args:
        t0 = time.perf_counter()
        fn(*a)
        best = min(best, time.perf_counter() - t0)
    return best


def sample_states(game_id: str) -> list[State[Any]]:
    game = next(g for g in all_games() if g.id == game_id)
    out: list[State[Any]] = []
    seed = 0
    while len(out) < SAMPLES_PER_GAME and seed < 400:
        states, _ = random_game(game, seed, max_plies=120)
        live = [s for s in states if not s.is_over() and s.current_player() not in (CHANCE,)]
        out.extend(live[5::7])
        seed += 1
    return out[:SAMPLES_PER_GAME]


def _actor(state: State[Any]) -> int | None:
    if state.current_player() == SIMULTANEOUS:
        return state.acting_players()[0]
    return None


def engine_row(game_id: str) -> dict[str, float]:
    game = next(g for g in all_games() if g.id == game_id)
    states = sample_states(game_id)
    gen, per_move, apply_t = [], [], []
    for state in states:
        actor = _actor(state)
        fresh = [
            (game.from_position(state.position(), state.options(), state.num_players), actor)
            for _ in range(3)
        ]
        t = _time(lambda s, a: s.legal_moves(a), fresh)
        moves = state.legal_moves(actor)
        if not moves:
            continue
        gen.append(t)
        per_move.append(t / len(moves))
        move = moves[len(moves) // 2]
        apply_t.append(_time(lambda s, m, a: s.apply(m, a), [(state, move, actor)] * 3))
    row = {
        "positions": float(len(gen)),
        "gen_us": _median_us(gen),
        "per_move_us": _median_us(per_move),
        "apply_us": _median_us(apply_t),
    }
    row.update(render_row(game_id))
    return row


RENDER_SEQUENCES = 3
RENDER_PLIES = 60


def render_row(game_id: str) -> dict[str, float]:
    """Render time and PNG size, as a game draws them: each ply of a few seeded random games in
    order, as seat 0 sees them (a turn's picture, a replay's frames). ``cold_ms``: a picture
    with no earlier one of its stream to share rows with (see ``render.base.encode_png``)."""
    try:
        from render import has_renderer, render_png
        from render.base import forget_streams
    except ImportError:  # pragma: no cover
        return {}
    if not has_renderer(game_id):
        return {}
    game = next(g for g in all_games() if g.id == game_id)
    times, cold, sizes = [], [], []
    for seed in range(RENDER_SEQUENCES):
        states, record = random_game(game, seed, max_plies=RENDER_PLIES)
        render_png(states[0], 0)  # static layers, sprites and the palette are built once
        forget_streams()
        for i, state in enumerate(states):
            last = _last_move(states[i - 1], record.entries[i - 1]) if i else None
            t0 = time.perf_counter()
            png = render_png(state, 0, last)
            times.append(time.perf_counter() - t0)
            sizes.append(len(png))
            if i % 10 == 5:
                forget_streams()
                t0 = time.perf_counter()
                render_png(state, 0, last)
                cold.append(time.perf_counter() - t0)
    return {
        "render_ms": statistics.median(times) * 1e3,
        "render_p90_ms": sorted(times)[int(len(times) * 0.9)] * 1e3,
        "cold_ms": statistics.median(cold) * 1e3,
        "png_kb": statistics.median(sizes) / 1000,
        "png_max_kb": max(sizes) / 1000,
    }


def _last_move(before: State[Any], entry: Entry) -> Any:
    """The move of a record entry, read in the state it was played in."""
    return before.parse_move(entry.move, None if entry.actor == CHANCE else entry.actor)


def chess_row() -> dict[str, float]:
    import chess

    rng = random.Random("bench-chess")
    boards: list[chess.Board] = []
    while len(boards) < SAMPLES_PER_GAME:
        board = chess.Board()
        for _ in range(rng.randint(20, 40)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if not board.is_game_over():
            boards.append(board)
    gen, per_move, apply_t = [], [], []
    for board in boards:
        fen = board.fen()
        t = _time(lambda b: list(b.legal_moves), [(chess.Board(fen),) for _ in range(3)])
        n = board.legal_moves.count()
        gen.append(t)
        per_move.append(t / n)
        move = list(board.legal_moves)[n // 2]

        def push(b: chess.Board, m: chess.Move) -> None:
            c = b.copy(stack=False)
            c.push(m)

        apply_t.append(_time(push, [(board, move)] * 3))
    return {
        "positions": float(len(gen)),
        "gen_us": _median_us(gen),
        "per_move_us": _median_us(per_move),
        "apply_us": _median_us(apply_t),
    }


def main() -> None:
    print("## Engines: legal-move generation, apply, render (medians over sampled positions)\n")
    ref = chess_row()
    header = (
        f"{'game':20} {'pos':>4} {'gen µs':>9} {'µs/move':>8} {'x chess':>7} {'apply µs':>9} "
        f"{'render ms':>9} {'p90 ms':>7} {'cold ms':>7} {'png KB':>7} {'max KB':>7}"
    )
    print(header)
    print("-" * len(header))

    def line(name: str, r: dict[str, float], chess: dict[str, float]) -> None:
        ratio = r["per_move_us"] / chess["per_move_us"]
        render = (
            f"{r['render_ms']:9.2f} {r['render_p90_ms']:7.2f} {r['cold_ms']:7.2f} "
            f"{r['png_kb']:7.1f} {r['png_max_kb']:7.1f}"
            if "render_ms" in r
            else f"{'-':>9} {'-':>7} {'-':>7} {'-':>7} {'-':>7}"
        )
        print(
            f"{name:20} {int(r['positions']):4} {r['gen_us']:9.1f} {r['per_move_us']:8.2f} "
            f"{ratio:7.2f} {r['apply_us']:9.1f} {render}"
        )

    line("python-chess (ref)", ref, ref)
    for game in all_games():
        # The reference is measured again just before each game: on a shared machine the load
        # drifts within a run, and a ratio should compare like with like.
        chess = chess_row()
        line(game.id, engine_row(game.id), chess)
    print(
        "\nx chess: µs/move against python-chess measured just before that game's row. "
        "Goals: µs/move at most python-chess's (x chess <= 1.0); a ~640 px board rendered in "
        "at most 3 ms at the median (render ms: each ply of a game in order, as a turn or a "
        "replay draws them; cold ms: a first picture); PNG at most 100 KB."
    )
