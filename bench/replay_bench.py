"""Per game: the time to build a 100-ply replay GIF and its size (``render.replay``); a 2,000-ply
game's replay as the service builds it (sampled frames, drawn in the worker pool); the time to
write a record as KIF-like text and to read it (and its JSON) back (``bot.kifu``)."""

from __future__ import annotations

import random
import time
from typing import Any

from engines import all_games
from engines.core import CHANCE, SIMULTANEOUS, Game, State, chance_pick
from engines.record import Entry, Record

PLIES = 100
SEED = 1
TIME_GOAL_S = 1.0
SIZE_GOAL = 2 * 1024 * 1024


LONG_GAME = "socrates-uchu"
LONG_OPTIONS = {"cap": "off", "repetition": "off"}
"""A game that can go on for 2,000 plies (no move cap, no repetition rule)."""
LONG_PLIES = 2000


def steps(
    game: Game[Any], seed: int, plies: int = PLIES, options: dict[str, str] | None = None
) -> list[tuple[State[Any], int | None, Any]]:
    """A seeded random game through the engine API: (the state after, who acted (``None``:
    chance), the move) per action after the start; it stops when the game ends, or after
    ``plies`` actions and the chance outcomes they lead to (as the host records them)."""
    rng = random.Random(f"replay:{game.id}:{seed}")
    state: State[Any] = game.new_game(game.player_counts[0], options)
    out: list[tuple[State[Any], int | None, Any]] = []
    while not state.is_over() and (len(out) < plies or state.current_player() == CHANCE):
        actor = state.current_player()
        if actor == CHANCE:
            move, player = chance_pick(state, seed, state.ply), None
        else:
            player = rng.choice(state.acting_players()) if actor == SIMULTANEOUS else actor
            move = rng.choice(state.legal_moves(player))
        out.append((state.apply(move, player), player, move))
        state = out[-1][0]
    return out


def playout(
    game: Game[Any], seed: int, plies: int = PLIES, options: dict[str, str] | None = None
) -> list[tuple[State[Any], Any]]:
    """(state, the move that led to it) from the start, one per action."""
    start: State[Any] = game.new_game(game.player_counts[0], options)
    return [(start, None)] + [(state, move) for state, _, move in steps(game, seed, plies, options)]


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
    long_replay()
    records()


def long_playout(
    game: Game[Any], seed: int, plies: int, options: dict[str, str]
) -> list[tuple[State[Any], Any]]:
    """(state, move) for a game kept going ``plies`` plies: random moves that neither end the
    game nor take a piece when there are such (a random game of it ends within a thousand)."""
    rng = random.Random(f"long:{game.id}:{seed}")
    state: State[Any] = game.new_game(game.player_counts[0], options)
    out: list[tuple[State[Any], Any]] = [(state, None)]

    def pieces(s: State[Any]) -> int:
        return sum(c.isalpha() for c in s.position().split(" ")[0])

    while len(out) <= plies and not state.is_over():
        seat = state.current_player()
        after = {m: state.apply(m, seat) for m in state.legal_moves(seat)}
        going = [m for m, a in after.items() if not a.is_over()] or list(after)
        quiet = [m for m in going if pieces(after[m]) == pieces(state)] or going
        move = rng.choice(quiet)
        state = after[move]
        out.append((state, move))
    return out


def long_replay() -> None:
    """A 2,000-ply game's replay as the service builds it: the frames sampled (the start, evenly
    spaced ones, the last plies) and drawn by a worker of the pool (pickling included)."""
    import asyncio
    from functools import partial

    from bot.service.review.replays import REPLAY_MAX_FRAMES, REPLAY_TAIL
    from bot.service.thinking import ProcessThinker
    from engines.registry import get_game
    from render.replay import DEFAULT_MAX_BYTES, Frame, animate, pick_frames

    game = get_game(LONG_GAME)
    plies = long_playout(game, SEED, LONG_PLIES, LONG_OPTIONS)
    picked = pick_frames(len(plies), REPLAY_MAX_FRAMES, REPLAY_TAIL)
    frames = [Frame(plies[i][0].observe(None), plies[i][1]) for i in picked]
    names = [f"Player {seat + 1}" for seat in range(frames[0].state.num_players)]
    job = partial(animate, frames, None, names=names)

    async def draw() -> tuple[float, float, int, int]:
        pool = ProcessThinker(1)
        try:
            await pool.warm_up()
            await pool.draw(partial(animate, frames[:2], None, names=names))  # import render
            loop = asyncio.get_running_loop()
            lags: list[float] = []

            async def watch() -> None:  # how late the event loop wakes while the pool draws
                while True:
                    t = loop.time()
                    await asyncio.sleep(0.01)
                    lags.append(loop.time() - t - 0.01)

            watcher = asyncio.create_task(watch())
            t0 = time.perf_counter()
            built = await pool.draw(job)
            took = time.perf_counter() - t0
            watcher.cancel()
            return took, max(lags, default=0.0), len(built.data), built.frames
        finally:
            await pool.close()

    took, lag, size, shown = asyncio.run(draw())
    ok = "ok" if took <= 5 and size <= DEFAULT_MAX_BYTES else "over"
    print(f"\n## Replays: a {len(plies) - 1}-ply game ({LONG_GAME}), as the service draws it\n")
    header = (
        f"{'positions':>9} {'frames':>6} {'build s':>8} {'size KiB':>9} {'loop lag ms':>11} "
        f"{'goal':>5}"
    )
    print(header)
    print("-" * len(header))
    print(f"{len(plies):9} {shown:6} {took:8.2f} {size / 1024:9.0f} {lag * 1000:11.1f} {ok:>5}")
    print(
        f"\nAt most {REPLAY_MAX_FRAMES} frames (the start, evenly spaced ones, the last "
        f"{REPLAY_TAIL} plies), drawn in a worker process: goals 5 s and the upload limit "
        f"({DEFAULT_MAX_BYTES // (1024 * 1024)} MiB)."
    )


def random_record(game: Game[Any], seed: int, plies: int = PLIES) -> Record:
    """A seeded random game as a record (who made each move, chance outcomes included)."""
    start: State[Any] = game.new_game(game.player_counts[0])
    entries = []
    state = start
    for after, player, move in steps(game, seed, plies):
        entries.append(Entry(CHANCE if player is None else player, state.format_move(move)))
        state = after
    n = start.num_players
    return Record(game.id, n, game.resolve_options({}), str(seed), tuple(entries))


def records() -> None:
    """The record files of such games: writing the KIF-like text (replayed for its kifu
    notation) and reading it and the JSON back (replayed and checked line by line)."""
    from bot.kifu import RecordMeta, export_json, kif_text, read_record

    print(f"\n## Records: a {PLIES}-entry game as KIF text, written and read back (and JSON)\n")
    header = f"{'game':20} {'KIF KiB':>8} {'write ms':>9} {'read ms':>8} {'JSON ms':>8}"
    print(header)
    print("-" * len(header))
    for game in all_games():
        record = random_record(game, SEED)
        n = record.players
        names = tuple((game.seat_name(i, "en", n), game.seat_name(i, "ja", n)) for i in range(n))
        meta = RecordMeta(seat_names=names)
        t0 = time.perf_counter()
        text = kif_text(meta, record, "ja")
        t1 = time.perf_counter()
        assert read_record(text).record == record
        t2 = time.perf_counter()
        assert read_record(export_json(meta, record)).record == record
        t3 = time.perf_counter()
        size = len(text.encode("utf-8")) / 1024
        print(
            f"{game.id:20} {size:8.1f} {(t1 - t0) * 1000:9.1f} {(t2 - t1) * 1000:8.1f} "
            f"{(t3 - t2) * 1000:8.1f}"
        )


if __name__ == "__main__":
    main()
