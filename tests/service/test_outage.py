"""Issue 30: a database that cannot be reached. A command answers within the store's timeout with
a private refusal in both languages (nothing changed), not a generic error after 30 s; a start
without the database is one line and an exit code, not a traceback. Each test runs its own
throwaway PostgreSQL cluster and stops it (no sleeping: the pool's short timeout decides)."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from psycopg.pq import TransactionStatus

from bot import __main__ as cli
from bot import discord_app
from bot.clock import FakeClock
from bot.config import Settings
from bot.service import GameService, Refusal, User
from tests.helpers import ALICE, BOB
from tests.pgcluster import Cluster

SHORT = 0.3
"""The store timeout of these tests (seconds)."""


@pytest.fixture
def cluster() -> Iterator[Cluster]:
    own = Cluster(port=5439)
    try:
        yield own
    finally:
        own.stop()


async def _service(cluster: Cluster) -> GameService:
    url = cluster.start()
    settings = Settings(db_path=url, store_timeout=SHORT)
    return await GameService.open(url, clock=FakeClock(), settings=settings, render_images=False)


async def _first_move(service: GameService) -> tuple[int, User, str]:
    """A new rokumentai game of Alice and Bob: its id, who moves first, and a legal move."""
    created = await service.play.create_game(ALICE, "rokumentai", seated=[BOB])
    gid = created.game_id
    assert gid is not None and created.to_move
    mover = ALICE if created.to_move[0] == ALICE.id else BOB
    return gid, mover, (await service.play.legal_move_choices(gid, mover.id, ""))[0]


async def test_a_command_without_the_database_is_refused_privately(cluster: Cluster) -> None:
    service = await _service(cluster)
    try:
        gid, mover, move = await _first_move(service)
        cluster.stop()  # PostgreSQL goes away mid-game
        for attempt in (
            lambda: service.play.move(gid, mover, move),
            lambda: service.play.list_games(ALICE),
            lambda: service.play.create_game(BOB, "rokumentai", seated=[ALICE]),
            lambda: service.play.daily_board(None),
        ):
            with pytest.raises(Refusal) as refused:
                await attempt()
            assert refused.value.key == "refuse.store_unreachable"
            assert "unreachable" in refused.value.text("en")
            assert "nothing was changed" in refused.value.text("en")
            assert "データベース" in refused.value.text("ja")
    finally:
        await service.close()


def test_a_start_without_the_database_is_one_line(
    cluster: Cluster, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    url = cluster.start()
    cluster.stop()
    monkeypatch.setenv("BANMEN_DB", url)
    monkeypatch.setenv("BANMEN_STORE_TIMEOUT", str(SHORT))
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert cli.main(["sandbox"]) == cli.EXIT_UNREACHABLE
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "Traceback" not in err
    assert err.startswith("banmen: cannot connect to PostgreSQL") and "BANMEN_DB" in err


def test_the_bot_without_the_database_is_one_line(
    cluster: Cluster, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    url = cluster.start()
    cluster.stop()
    settings = Settings(db_path=url, store_timeout=SHORT, discord_token="not-used")
    monkeypatch.setattr(discord_app, "load_settings", lambda: settings)
    with caplog.at_level(logging.ERROR):
        assert discord_app.main([]) == discord_app.EXIT_UNREACHABLE
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and errors[0].exc_info is None
    assert "cannot connect to PostgreSQL" in errors[0].getMessage()


async def test_a_commit_whose_answer_is_lost_is_not_called_unchanged(
    cluster: Cluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server applies the COMMIT of a move and the line drops before its answer arrives:
    the player is not told "nothing was changed" (it was), the game is read afresh, the move
    stands, its announcement waits in the outbox, and play goes on."""
    service = await _service(cluster)
    try:
        gid, mover, move = await _first_move(service)
        real_exit = psycopg.AsyncPipeline.__aexit__
        armed = [True]

        async def answer_lost(self: psycopg.AsyncPipeline, *exc_info: Any) -> Any:
            result = await real_exit(self, *exc_info)
            idle = self._conn.info.transaction_status is TransactionStatus.IDLE
            if armed and exc_info[0] is None and idle:  # the COMMIT is applied (outermost)
                armed.clear()
                self._conn.pgconn.finish()  # ... and the line drops before the answer
                raise psycopg.OperationalError("server closed the connection unexpectedly")
            return result

        monkeypatch.setattr(psycopg.AsyncPipeline, "__aexit__", answer_lost)
        with pytest.raises(Refusal) as refused:
            await service.play.move(gid, mover, move)
        assert refused.value.key == "refuse.store_uncertain"
        assert "nothing was changed" not in refused.value.text("en")
        assert "may or may not" in refused.value.text("en")
        assert "分かりません" in refused.value.text("ja")
        assert not armed
        assert len(await service.play.entries(gid)) == 1  # written; the cache kept no stale game
        assert [r.game_id for r in await service.pending_announcements()] == [gid]
        other = BOB if mover is ALICE else ALICE
        reply = await service.play.move(
            gid, other, (await service.play.legal_move_choices(gid, other.id, ""))[0]
        )
        assert reply.game_id == gid
    finally:
        await service.close()
