"""The daily digest at scale (issue 33): 10,000 users with 10 games each, every digest chosen
from their games (whose turn, what ended since the last digest, which challenges wait); then
(issue 45) the same hour's digests of 10,000 users through the service and its store, each
with the games it holds, timed by the process's CPU (goal: at most 5 s) and by the wall, with
the most the timers' loop waited for one turn (a reminder is never held up behind them).

The games are made in memory as the service hands them to the digest's rules
(``bot.service.correspond.notify_rules.DigestGame``): two players a game, some waiting for one of
them, some ended, some open challenges. Goal: all digests in at most 5 s. Prints a table; asserts
nothing.
"""

from __future__ import annotations

import asyncio
import random
import tempfile
import time
from pathlib import Path

from bench.table import print_rows
from bot.clock import FakeClock
from bot.config import Settings
from bot.model import NotifyPrefs
from bot.service import GameService, User
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


SERVICE_USERS = 10_000
"""Users whose digest is due in the same hour, through the service."""


async def _through_the_service(users: int) -> tuple[float, float, float, int, float]:
    """CPU and wall seconds for every digest due, the longest turn of the timers' loop, the
    digests made, and how long filling the store took."""
    with tempfile.TemporaryDirectory() as folder:
        db = str(Path(folder) / "digest.db")
        settings = Settings(db_path=db, max_active_per_guild=10**9, max_active_per_user=10**6)
        clock = FakeClock()
        service = await GameService.open(db, clock=clock, settings=settings, render_images=False)
        try:
            began = time.perf_counter()
            people = [User(f"u{i}", f"user{i}") for i in range(users)]
            for i in range(0, users, 2):  # each user holds one game, half of them to move
                await service.play.create_game(
                    people[i], "rokumentai", seated=[people[i + 1]], clock="corr:3"
                )
            for person in people:
                await service.correspond.configure_notices(
                    person, digest=True, hour=9, timezone="UTC"
                )
            filled = time.perf_counter() - began
            clock.advance(hours=9, minutes=1)  # everyone's hour has come
            cpu0, wall0, longest, made = time.process_time(), time.perf_counter(), 0.0, 0
            while True:
                turn = time.perf_counter()
                replies = await service.process_due()
                longest = max(longest, time.perf_counter() - turn)
                made += len(replies)
                due = service.next_timer_at()
                if not replies and (due is None or due > clock.now()):
                    break
            return (
                time.process_time() - cpu0,
                time.perf_counter() - wall0,
                longest,
                made,
                filled,
            )
        finally:
            await service.close()


def main(args: list[str] | None = None) -> None:
    """``--digest-users N``: another number of users through the service (a quick try)."""
    args = args or []
    users = SERVICE_USERS
    if "--digest-users" in args:
        users = int(args[args.index("--digest-users") + 1])
    _rules_only()
    print()
    cpu, wall, longest, made, filled = asyncio.run(_through_the_service(users))
    print_rows(
        "Daily digest through the service (issue 45)",
        f"{users:,} users due the same hour, one game each, SQLite; goal <= {GOAL_SECONDS:g} s CPU",
        [
            ("digests made", f"{made:,}, empty ones not sent (store filled in {filled:.0f} s)"),
            ("CPU", f"{cpu:.2f} s ({'within' if cpu <= GOAL_SECONDS else 'OVER'} goal)"),
            ("wall", f"{wall:.2f} s"),
            ("longest turn of the timers' loop", f"{longest * 1000:.0f} ms"),
        ],
    )


def _rules_only() -> None:
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
