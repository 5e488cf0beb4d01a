"""The daily digest at scale (issue 33): 10,000 users with 10 games each, every digest chosen
from their games (whose turn, what ended since the last digest, which challenges wait); then
(issue 45) the same hour's digests of 10,000 users through the service and its store, each
with the games it holds, timed by the process's CPU (goal: at most 5 s) and by the wall, with
the most the timers' loop waited for one turn (a reminder is never held up behind them) and the
peak memory the digests added; then the same hour again with the process killed at 25%, 50% and
75% of the digests sent and started again (goal: none lost, none sent twice).

The games are made in memory as the service hands them to the digest's rules
(``bot.service.correspond.notify_rules.DigestGame``): two players a game, some waiting for one of
them, some ended, some open challenges. Goal: all digests in at most 5 s. Prints a table; asserts
nothing.
"""

from __future__ import annotations

import asyncio
import random
import resource
import tempfile
import time
from pathlib import Path

from bench.table import print_rows
from bot.clock import FakeClock, to_ms
from bot.config import Settings
from bot.model import NotifyPrefs
from bot.service import GameService, User
from bot.service.correspond.notify_rules import DigestGame, next_digest_ms, select
from bot.service.outbox import Kind

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
KILLS = (0.25, 0.5, 0.75)
"""Where the process is killed in the run with kills (fractions of the digests sent)."""


async def _fill(db: str, users: int) -> tuple[Settings, FakeClock, float]:
    """A store where ``users`` users hold one game each (half of them to move) and want a
    digest at 09:00 UTC; how long filling it took."""
    settings = Settings(db_path=db, max_active_per_guild=10**9, max_active_per_user=10**6)
    clock = FakeClock()
    service = await GameService.open(db, clock=clock, settings=settings, render_images=False)
    try:
        began = time.perf_counter()
        people = [User(f"u{i}", f"user{i}") for i in range(users)]
        for i in range(0, users, 2):
            await service.play.create_game(
                people[i], "rokumentai", seated=[people[i + 1]], clock="corr:3"
            )
        for person in people:
            await service.correspond.configure_notices(person, digest=True, hour=9, timezone="UTC")
        return settings, clock, time.perf_counter() - began
    finally:
        await service.close()


async def _turn(service: GameService, sent: dict[str, int]) -> int:
    """One turn of the timers' loop for the digests: the clocks, then a batch of the outbox's
    digests, each "sent" (counted by user, unless that key was sent already: the adapter looks
    first) and reported. How many it handed out."""
    await service.process_due()
    replies = await service.pending_announcements(kind=Kind.DIGEST)
    keys = [reply.outbox or "" for reply in replies]
    for key in keys:
        if key not in sent:
            sent[key] = 1
    await service.announced(*keys)  # the batch reported at once, as the adapter does
    return len(replies)


def _due(service: GameService, clock: FakeClock) -> bool:
    at = service.correspond.notices.next_due_ms()
    return at is not None and at <= to_ms(clock.now())


async def _through_the_service(users: int) -> tuple[float, float, float, int, float, int]:
    """CPU and wall seconds for every digest due, the longest turn of the timers' loop, the
    digests sent, how long filling the store took, and the peak memory the digests added (KB)."""
    with tempfile.TemporaryDirectory() as folder:
        db = str(Path(folder) / "digest.db")
        settings, clock, filled = await _fill(db, users)
        service = await GameService.open(db, clock=clock, settings=settings, render_images=False)
        try:
            clock.advance(hours=9, minutes=1)  # everyone's hour has come
            rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
            cpu0, wall0, longest = time.process_time(), time.perf_counter(), 0.0
            sent: dict[str, int] = {}
            while True:
                turn = time.perf_counter()
                handed = await _turn(service, sent)
                longest = max(longest, time.perf_counter() - turn)
                if not handed and not _due(service, clock):
                    break
            cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
            grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss0
            return cpu, wall, longest, len(sent), filled, grown
        finally:
            await service.close()


async def _with_kills(users: int, kills: tuple[float, ...]) -> tuple[int, int, int]:
    """The same hour's digests with the process killed after each fraction in ``kills`` of the
    users' digests went out (what it held in memory lost; the store as it was), started again
    each time: (users to be told, told, told more than once)."""
    with tempfile.TemporaryDirectory() as folder:
        db = str(Path(folder) / "digest.db")
        settings, clock, _ = await _fill(db, users)
        clock.advance(hours=9, minutes=1)
        sent: dict[str, int] = {}
        movers = users // 2
        for fraction in (*kills, 1.0):
            service = await GameService.open(
                db, clock=clock, settings=settings, render_images=False
            )
            try:
                while len(sent) < fraction * movers:
                    if not await _turn(service, sent) and not _due(service, clock):
                        break
            finally:
                await service.close()  # "killed": nothing of its memory survives
        told = {key.split(":")[1] for key in sent}
        return movers, len(told), len(sent) - len(told)


def main(args: list[str] | None = None) -> None:
    """``--digest-users N``: another number of users through the service (a quick try)."""
    args = args or []
    users = SERVICE_USERS
    if "--digest-users" in args:
        users = int(args[args.index("--digest-users") + 1])
    _rules_only()
    print()
    cpu, wall, longest, made, filled, grown = asyncio.run(_through_the_service(users))
    movers, told, twice = asyncio.run(_with_kills(users, KILLS))
    print_rows(
        "Daily digest through the service (issue 45)",
        f"{users:,} users due the same hour, one game each, SQLite; goal <= {GOAL_SECONDS:g} s CPU",
        [
            ("digests sent", f"{made:,}, empty ones not sent (store filled in {filled:.0f} s)"),
            ("CPU", f"{cpu:.2f} s ({'within' if cpu <= GOAL_SECONDS else 'OVER'} goal)"),
            ("wall", f"{wall:.2f} s"),
            ("longest turn of the timers' loop", f"{longest * 1000:.0f} ms"),
            ("peak memory added", f"{grown / 1024:.1f} MB"),
            (
                f"killed at {', '.join(f'{k:.0%}' for k in KILLS)}",
                f"{told:,} of {movers:,} told, {movers - told} lost, {twice} twice",
            ),
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
