"""Per game: the time to build a 100-ply replay GIF and its size (``render.replay``); the time to
write a record as KIF-like text and to read it (and its JSON) back (``bot.records``)."""

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


def steps(
    game: Game[Any], seed: int, plies: int = PLIES
) -> list[tuple[State[Any], int | None, Any]]:
    """A seeded random game through the engine API: (the state after, who acted (``None``:
    chance), the move) per action after the start; it stops when the game ends, or after
    ``plies`` actions and the chance outcomes they lead to (as the host records them)."""
    rng = random.Random(f"replay:{game.id}:{seed}")
    state: State[Any] = game.new_game(game.player_counts[0])
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


def playout(game: Game[Any], seed: int, plies: int = PLIES) -> list[tuple[State[Any], Any]]:
    """(state, the move that led to it) from the start, one per action."""
    start: State[Any] = game.new_game(game.player_counts[0])
    return [(start, None)] + [(state, move) for state, _, move in steps(game, seed, plies)]


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
    records()


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
    from bot.records import RecordMeta, export_json, kif_text, read_record

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
