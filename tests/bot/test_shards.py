"""Two bot processes, one PostgreSQL, one Discord: each runs one of two shards. The guild's
process answers its commands and posts its game's deadline; killed, the next start with the same
shard posts it (once), and the other process never does."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import signal
from pathlib import Path

from tests.discord_double import DiscordDouble
from tests.helpers import Bot, double_env, python_m_bot

TTL = 6
"""Seconds an unanswered challenge stays open in this test (BANMEN_CHALLENGE_TTL)."""
EXPIRED = "Nobody answered the challenge in time"


async def _connected(bot: Bot) -> None:
    await bot.wait_line(lambda line: "heartbeat every" in line)


async def _drain(bot: Bot) -> None:
    """Keep reading the process's log (a full pipe would stall it)."""
    with contextlib.suppress(AssertionError, TimeoutError):
        await bot.wait_line(lambda line: False)


async def _stop(bot: Bot, drain: asyncio.Task[None]) -> int:
    """SIGTERM, then the exit status (the log read to its end)."""
    drain.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await drain
    bot.proc.send_signal(signal.SIGTERM)
    return await bot.finish()


async def test_two_processes_share_one_postgres(
    double: DiscordDouble, postgres_url: str, tmp_path: Path
) -> None:
    mine = double.shard_of_guild(2)  # the shard that carries the double's guild
    env = double_env(
        double,
        tmp_path,
        BANMEN_DB=postgres_url,
        BANMEN_CHALLENGE_TTL=str(TTL),
        BANMEN_HEARTBEAT_INTERVAL="1",
    )
    # Queued logins (issue 49): one login bucket, one login a second, refused by the double
    # when sooner; the processes take turns through the store, a restarted one too.
    double.max_concurrency, double.identify_interval = 1, 1.0
    env["BANMEN_IDENTIFY_INTERVAL"] = "1"
    owner_args = ("--shards", str(mine), "--shard-count", "2")
    other_args = ("--shards", str(1 - mine), "--shard-count", "2")
    owner_env = env | {"BANMEN_HEARTBEAT": str(tmp_path / "owner.beat")}
    other_env = env | {"BANMEN_HEARTBEAT": str(tmp_path / "other.beat")}
    async with (
        python_m_bot(owner_env, tmp_path, *owner_args) as owner,
        python_m_bot(other_env, tmp_path, *other_args) as other,
    ):
        await asyncio.gather(_connected(owner), _connected(other))
        assert sorted(double.shard_identifies) == [(0, 2), (1, 2)]
        assert "shards 0 of 2" in other.stderr + owner.stderr
        await asyncio.wait_for(double.synced.wait(), 10)
        drain_other = asyncio.create_task(_drain(other))

        # The guild's shard runs in `owner`: it answers the challenge and keeps its deadline.
        challenge = await double.slash(
            double.alice, "play", {"rokumentai": {"opponent": double.bob}}
        )
        assert challenge.message is not None and not challenge.ephemeral
        # It dies before the challenge lapses; another start with the same shard takes over.
        owner.proc.send_signal(signal.SIGKILL)
        await owner.proc.wait()
        async with python_m_bot(owner_env, tmp_path, *owner_args) as successor:
            await _connected(successor)
            drain_successor = asyncio.create_task(_drain(successor))
            expired = await double.wait_for_message(
                double.channel_id, lambda m: EXPIRED in str(m), timeout=TTL + 30
            )
            # Once: the other process (shard of no game here) posts nothing, before or after.
            later = await double.slash(double.alice, "games", {})
            assert later.ephemeral
            posts = [m for m in double.channel_messages(double.channel_id) if EXPIRED in str(m)]
            assert posts == [expired]
            assert await _stop(successor, drain_successor) == 0
        assert await _stop(other, drain_other) == 0
    assert "Traceback" not in other.stderr, other.stderr
    times = [t for t, _ in double.identify_times]
    assert len(times) == 3 and double.identifies_refused == 0
    assert all(b - a >= 1.0 for a, b in itertools.pairwise(times))
