"""Tournaments at scale: a 200-player Swiss event played through with random results.

Each round is paired (timed: goal <= 1 s) from the standings (timed: goal <= 100 ms), for
eight rounds; the three-player tables of a 201-player event are timed the same way. Prints a
table; asserts nothing."""

from __future__ import annotations

import random
import time

from bench.table import pct, print_rows
from bot.tournament import Format, Played, Round, pair_round, standings

PLAYERS = 200
ROUNDS = 8


def _results(r: int, rnd: Round, rng: random.Random) -> list[Played]:
    out = [Played(r, (p,), (1.0,)) for p in rnd.byes]
    for b in rnd.boards:
        if len(b.players) == 3:
            out.append(Played(r, b.players, (1.0, 0.0, 0.0), (1, 2, 3)))
        else:
            x = rng.random()
            pts = (1.0, 0.0) if x < 0.45 else (0.0, 1.0) if x < 0.9 else (0.5, 0.5)
            out.append(Played(r, b.players, pts))
    return out


def _event(fmt: Format, n: int) -> tuple[list[float], list[float]]:
    rng = random.Random(n)
    players = [f"player{i}" for i in range(n)]
    played: list[Played] = []
    pairing: list[float] = []
    table: list[float] = []
    for r in range(1, ROUNDS + 1):
        t0 = time.perf_counter()
        order = [s.player for s in standings(fmt, players, played)]
        t1 = time.perf_counter()
        rnd = pair_round(fmt, order, played, r, rng)
        t2 = time.perf_counter()
        table.append(t1 - t0)
        pairing.append(t2 - t1)
        played += _results(r, rnd, rng)
    t0 = time.perf_counter()
    standings(fmt, players, played)
    table.append(time.perf_counter() - t0)
    return pairing, table


def _ms(values: list[float]) -> str:
    return f"{pct(values, 0.5) * 1e3:.0f} / {max(values) * 1e3:.0f} ms"


def main() -> None:
    swiss_pairing, swiss_table = _event(Format.SWISS, PLAYERS)
    tables_pairing, tables_table = _event(Format.TABLES, PLAYERS + 1)
    print_rows(
        "Tournaments",
        f"{PLAYERS} players, {ROUNDS} rounds; median / worst; goals: a Swiss round "
        "<= 1000 ms, standings <= 100 ms",
        [
            ("Swiss round paired", _ms(swiss_pairing)),
            ("Swiss standings", _ms(swiss_table)),
            ("tables of three paired", _ms(tables_pairing)),
            ("tables standings", _ms(tables_table)),
        ],
    )


if __name__ == "__main__":
    main()
