"""Issue 30: a database that cannot be reached. A command answers within the store's timeout with
a private refusal in both languages (nothing changed), not a generic error after 30 s; a start
without the database is one line and an exit code, not a traceback. Each test runs its own
throwaway PostgreSQL cluster and stops it (no sleeping: the pool's short timeout decides)."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

from bot import __main__ as cli
from bot import discord_app
from bot.clock import FakeClock
from bot.config import Settings
from bot.service import GameService, Refusal
from tests.pgcluster import Cluster
from tests.service.conftest import ALICE, BOB

SHORT = 0.3
"""The store timeout of these tests (seconds)."""


@pytest.fixture
def cluster() -> Iterator[Cluster]:
    own = Cluster(port=5439)
    try:
        yield own
    finally:
        own.stop()


async def test_a_command_without_the_database_is_refused_privately(cluster: Cluster) -> None:
    url = cluster.start()
    settings = Settings(db_path=url, store_timeout=SHORT)
    service = await GameService.open(url, clock=FakeClock(), settings=settings, render_images=False)
    try:
        created = await service.create_game(ALICE, "rokumentai", seated=[BOB])
        gid = created.game_id
        assert gid is not None and created.to_move
        mover = ALICE if created.to_move[0] == ALICE.id else BOB
        move = (await service.legal_move_choices(gid, mover.id, ""))[0]
        cluster.stop()  # PostgreSQL goes away mid-game
        for attempt in (
            lambda: service.play(gid, mover, move),
            lambda: service.list_games(ALICE),
            lambda: service.create_game(BOB, "rokumentai", seated=[ALICE]),
            lambda: service.daily_board(None),
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
