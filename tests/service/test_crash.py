"""Crash: a host killed with SIGKILL at random moments never leaves a half-written move, and
every acknowledged move is found again."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
from pathlib import Path

from bot.clock import FakeClock
from bot.config import Settings
from bot.service import GameService
from bot.store import is_postgres_url
from engines.core import CHANCE
from tests.helpers import query

ROOT = Path(__file__).resolve().parents[2]
ROUNDS = 10


def _run_and_kill(db_path: str, seed: int, acks_before_kill: int) -> list[tuple[int, int, str]]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.service.crash_worker", db_path, str(seed)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    acks: list[tuple[int, int, str]] = []
    try:
        assert proc.stdout is not None
        while len(acks) < acks_before_kill:
            line = proc.stdout.readline()
            if not line:
                err = proc.stderr.read() if proc.stderr else ""
                raise AssertionError(f"worker ended early: {err}")
            _, gid, ply, move = line.split()
            acks.append((int(gid), int(ply), move))
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    assert proc.returncode == -signal.SIGKILL
    return acks


async def test_sigkill_at_random_moments(fakes: None, db_path: str) -> None:
    rng = random.Random(20261122)
    acknowledged: list[tuple[int, int, str]] = []
    for round_ in range(ROUNDS):
        acknowledged += _run_and_kill(db_path, round_, rng.randint(1, 40))
        if not is_postgres_url(db_path):  # PostgreSQL checks its keys on every write
            assert query(db_path, "PRAGMA integrity_check") == [("ok",)]
            assert query(db_path, "PRAGMA foreign_key_check") == []
        # no gap in any game's log: plies are 0..n-1
        for gid, count, top in query(
            db_path, "SELECT game_id, count(*), max(ply) FROM moves GROUP BY game_id"
        ):
            assert top == count - 1, gid
        stored = {(g, p): m for g, p, m in query(db_path, "SELECT game_id, ply, move FROM moves")}
        # every acknowledged move is there, at the log index it was acknowledged for
        for gid, index, move in acknowledged:
            assert stored.get((gid, index)) == move, (gid, index, move)
        # every game replays through the engine
        service = await GameService.open(
            db_path, clock=FakeClock(), settings=Settings(db_path=db_path)
        )
        try:
            for gid in {g for g, _ in stored}:
                entries = await service.play.entries(gid)
                assert len(entries) == max(p for (g, p) in stored if g == gid) + 1
                # a move and the chance outcome it led to are written together, or not at all
                state = service.play.current_state(gid)
                assert state is not None and state.current_player() != CHANCE
        finally:
            await service.close()
    assert len(acknowledged) >= ROUNDS
