"""The daily digest at scale (issue 33): 10,000 users with 10 games each, every digest chosen
from their games (whose turn, what ended since the last digest, which challenges wait).

The games are made in memory as the service hands them to the digest's rules
(``bot.service.correspond.notify_rules.DigestGame``): two players a game, some waiting for one of
them, some ended, some open challenges. Goal: all digests in at most 5 s. Prints a table; asserts
nothing.
"""

from __future__ import annotations

import random
import time

from bench.table import print_rows
from bot.model import NotifyPrefs
from bot.service.correspond.notify_rules import DigestGame, next_digest_ms, select

USERS = 10_000
GAMES_EACH = 10
GOAL_SECONDS = 5.0
NOW_MS = 1_767_225_600_000  # 2026-01-01 00:00 UTC
ZONES = ("UTC", "Asia/Tokyo", "Europe/Paris", "America/New_York")


def _games(rng: random.Random) -> dict[str, list[DigestGame]]:
    """Each user's games: ten rounds, each pairing every user with another (50,000 games)."""
    users = [str(u) for u in range(USERS)]
    mine: dict[str, list[DigestGame]] = {u: [] for u in users}
    game_id = 0
    for _ in range(GAMES_EACH):
        rng.shuffle(users)
        for a, b in zip(users[::2], users[1::2], strict=True):
            game_id += 1
            kind = rng.random()
            if kind < 0.7:
                deadline = NOW_MS + rng.randrange(1, 10**9)
                g = DigestGame(game_id, "active", (rng.choice((a, b)),), deadline)
            elif kind < 0.9:
                g = DigestGame(
                    game_id, "finished", finished_ms=NOW_MS - rng.randrange(1, 2 * 10**8)
                )
            else:
                g = DigestGame(game_id, "open", invited=(b,))
            mine[a].append(g)
            mine[b].append(g)
    return mine


def main() -> None:
    rng = random.Random(33)
    games = _games(rng)
    prefs = [
        NotifyPrefs(u, digest=True, digest_hour=rng.randrange(24), tz=rng.choice(ZONES))
        for u in games
    ]
    since = NOW_MS - 86_400_000
    start = time.perf_counter()
    due = [p for p in prefs if (at := next_digest_ms(p, NOW_MS)) is not None and at <= NOW_MS]
    chosen = [select(user, mine, since) for user, mine in games.items()]
    seconds = time.perf_counter() - start
    listed = sum(len(d.turn) + len(d.ended) + len(d.challenges) for d in chosen)
    print_rows(
        "Daily digest (issue 33)",
        f"{USERS:,} users x {GAMES_EACH} games; goal <= {GOAL_SECONDS:g} s",
        [
            ("digests chosen", f"{len(chosen):,} ({listed:,} lines; {len(due):,} due now)"),
            ("time", f"{seconds:.2f} s ({'within' if seconds <= GOAL_SECONDS else 'OVER'} goal)"),
        ],
    )


if __name__ == "__main__":
    main()
