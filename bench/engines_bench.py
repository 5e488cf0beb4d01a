"""Per game: legal-move generation, apply, render time and PNG size, with python-chess as a
reference point (chess middlegames)."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from engines import all_games
from engines.core import CHANCE, SIMULTANEOUS, State
from engines.record import Entry
from tests.engines.playout import random_game

SAMPLES_PER_GAME = 200


def _median_us(samples: list[float]) -> float:
    return statistics.median(samples) * 1e6


BATCH, ROUNDS = 20, 3
"""Calls timed per position: ``ROUNDS`` batches of ``BATCH`` back-to-back calls, each on its own
fresh object (fresh objects defeat per-state caches). One call lasts a few microseconds, so
timing calls one at a time measured the timer and the VM's scheduling as much as the call:
python-chess's own figure moved 1.5-2.7 µs a move between runs minutes apart."""


@dataclass(frozen=True)
class Sample:
    """One position to time: ``make()`` builds a fresh object for ``generate(obj)``, which
    yields ``moves`` moves; ``play()`` applies one of them."""

    make: Callable[[], Any]
    generate: Callable[[Any], Any]
    moves: int
    play: Callable[[], Any]


def _time(fn: Callable[..., Any], batches: list[list[Any]]) -> float:
    """Per call, the best over ``batches`` of the mean time of a batch of back-to-back calls."""
    best = float("inf")
    for batch in batches:
        t0 = time.perf_counter()
        for a in batch:
            fn(a)
        best = min(best, (time.perf_counter() - t0) / len(batch))
    return best


def _timed(sample: Sample) -> tuple[float, float]:
    """(generation, apply) seconds per call at one position."""
    fresh = [[sample.make() for _ in range(BATCH)] for _ in range(ROUNDS)]
    gen = _time(sample.generate, fresh)
    play = sample.play
    return gen, _time(lambda _: play(), [[None] * BATCH] * ROUNDS)


def _row(times: list[tuple[float, float]], samples: list[Sample]) -> dict[str, float]:
    return {
        "positions": float(len(times)),
        "gen_us": _median_us([g for g, _ in times]),
        "per_move_us": _median_us([g / x.moves for (g, _), x in zip(times, samples, strict=True)]),
        "apply_us": _median_us([a for _, a in times]),
    }


def paired_rows(
    game_id: str, ref: list[Sample] | None = None
) -> tuple[dict[str, float], dict[str, float]]:
    """python-chess's row (on ``ref``, its samples, built when not given) and the game's, timed
    position by position in turn (chess's first position, the game's first, chess's second...):
    the load of a shared machine drifts within seconds, and a ratio should compare like with
    like."""
    ref = chess_samples() if ref is None else ref
    mine = game_samples(game_id)
    ref_t: list[tuple[float, float]] = []
    mine_t: list[tuple[float, float]] = []
    for i in range(max(len(ref), len(mine))):
        if i < len(ref):
            ref_t.append(_timed(ref[i]))
        if i < len(mine):
            mine_t.append(_timed(mine[i]))
    row = _row(mine_t, mine)
    row.update(render_row(game_id))
    return _row(ref_t, ref), row


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


def game_samples(game_id: str) -> list[Sample]:
    game = next(g for g in all_games() if g.id == game_id)
    out = []
    for state in sample_states(game_id):
        actor = _actor(state)
        moves = state.legal_moves(actor)
        if not moves:
            continue
        out.append(
            Sample(
                partial(game.from_position, state.position(), state.options(), state.num_players),
                partial(_legal_moves, actor=actor),
                len(moves),
                partial(state.apply, moves[len(moves) // 2], actor),
            )
        )
    return out


def _legal_moves(state: State[Any], actor: int | None) -> Any:
    return state.legal_moves(actor)


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


def chess_samples() -> list[Sample]:
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
    out = []
    for board in boards:
        n = board.legal_moves.count()
        out.append(
            Sample(
                partial(chess.Board, board.fen()),
                _chess_moves,
                n,
                partial(_chess_push, board, list(board.legal_moves)[n // 2]),
            )
        )
    return out


def _chess_moves(board: Any) -> Any:
    return list(board.legal_moves)


def _chess_push(board: Any, move: Any) -> None:
    c = board.copy(stack=False)
    c.push(move)


def main() -> None:
    print("## Engines: legal-move generation, apply, render (medians over sampled positions)\n")
    ref_samples = chess_samples()
    ref = _row([_timed(x) for x in ref_samples], ref_samples)
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
        chess, row = paired_rows(game.id, ref_samples)
        line(game.id, row, chess)
    print(
        "\nx chess: µs/move against python-chess timed in turn with that game's positions. "
        "Goals: µs/move at most python-chess's (x chess <= 1.0); a ~640 px board rendered in "
        "at most 3 ms at the median (render ms: each ply of a game in order, as a turn or a "
        "replay draws them; cold ms: a first picture); PNG at most 100 KB."
    )
