"""Mutated real texts through every entry point that reads user text or files: the service's
moves and setups, record import, and the sandbox. Each answers with a clear refusal (or does what
a valid text asks); nothing else is ever raised, and a refusal writes nothing."""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.clock import FakeClock
from bot.config import Settings
from bot.sandbox import Sandbox, UnknownCommand
from bot.service import GameService, Refusal, User
from engines.core import Game
from engines.registry import all_games
from tests.helpers import mutated, samples, snapshot

EXAMPLES = int(os.environ.get("BANMEN_FUZZ_EXAMPLES", "150")) // 3
_fuzz = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
USERS = [User("100", "alice"), User("200", "bob"), User("300", "carol")]
GAMES = [g for g in all_games() if g.id != "sangokushi-2p"]


@pytest.fixture
def loop() -> Iterator[asyncio.AbstractEventLoop]:
    loop = asyncio.new_event_loop()
    try:
        yield loop
    finally:
        loop.close()


def _open(loop: asyncio.AbstractEventLoop, path: str) -> GameService:
    return loop.run_until_complete(
        GameService.open(
            path, clock=FakeClock(), settings=Settings(db_path=path), render_images=False
        )
    )


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_mutated_moves_through_the_service(
    game: Game[Any], loop: asyncio.AbstractEventLoop, tmp_path: Path
) -> None:
    players = game.player_counts[-1]
    _, _, moves = samples(game, players)
    path = str(tmp_path / "fuzz.db")
    service = _open(loop, path)
    try:
        created = loop.run_until_complete(
            service.play.create_game(USERS[0], game.id, seated=USERS[1:players])
        )
        gid = created.game_id
        assert gid is not None

        @_fuzz
        @given(text=mutated(moves), who=st.integers(0, players - 1), setup=st.booleans())
        def check(text: str, who: int, setup: bool) -> None:
            before = snapshot(path)
            use = service.play.setup if setup else service.play.move
            try:
                loop.run_until_complete(use(gid, USERS[who], text))
            except Refusal as refusal:
                assert refusal.text("en") and refusal.text("ja")
                assert snapshot(path) == before

        check()
    finally:
        loop.run_until_complete(service.close())


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_mutated_records_through_import(
    game: Game[Any], loop: asyncio.AbstractEventLoop, tmp_path: Path
) -> None:
    players = game.player_counts[-1]
    path = str(tmp_path / "fuzz.db")
    service = _open(loop, path)
    try:
        created = loop.run_until_complete(
            service.play.create_game(USERS[0], game.id, seated=USERS[1:players])
        )
        assert created.game_id is not None
        record = loop.run_until_complete(service.play.export_record(created.game_id)).to_json()
        files = loop.run_until_complete(service.play.record(created.game_id)).files
        kifu = next(f.data.decode("utf-8") for f in files if f.name.endswith(".kifu"))

        @_fuzz
        @given(text=mutated([record, kifu]))
        def check(text: str) -> None:
            before = snapshot(path)
            try:
                loop.run_until_complete(service.play.import_record(USERS[0], text))
            except Refusal as refusal:
                assert refusal.text("en") and refusal.text("ja")
                assert snapshot(path) == before

        check()
    finally:
        loop.run_until_complete(service.close())


def test_mutated_lines_through_the_sandbox(loop: asyncio.AbstractEventLoop, tmp_path: Path) -> None:
    game = next(g for g in GAMES if g.id == "rokumentai")
    _, _, moves = samples(game, 2)
    lines = [f"/move {m}" for m in moves[:40]]
    lines += ["/board 1", "/moves 1", "/tick 5m", "/play rokumentai @bob", "/import x.json"]
    lines += ["/setup 1 321/654", "/draw", "/takeback", "/legal 1", "/join 1", "/as bob"]
    path = str(tmp_path / "fuzz.db")
    service = _open(loop, path)
    out = io.StringIO()
    sandbox = Sandbox(service, out_dir=tmp_path / "out", out=out)
    try:
        loop.run_until_complete(sandbox.handle("/play rokumentai @bob"))

        @_fuzz
        @given(line=mutated(lines))
        def check(line: str) -> None:
            # an unknown command is reported by the loop that reads lines; /quit ends it
            with contextlib.suppress(UnknownCommand, EOFError):
                loop.run_until_complete(sandbox.handle(line))

        check()
        assert "Traceback" not in out.getvalue()
    finally:
        loop.run_until_complete(service.close())


def test_a_record_with_a_lone_surrogate_is_refused(
    loop: asyncio.AbstractEventLoop, tmp_path: Path
) -> None:
    """Found by the fuzzer: a JSON escape of half a character (a seed of "\\ud800") must not
    reach the store, where it cannot be encoded."""
    path = str(tmp_path / "fuzz.db")
    service = _open(loop, path)
    try:
        created = loop.run_until_complete(
            service.play.create_game(USERS[0], "rokumentai", seated=USERS[1:2])
        )
        assert created.game_id is not None
        record = loop.run_until_complete(service.play.export_record(created.game_id)).to_json()
        bad = record.replace('"seed": "', '"seed": "\\ud800', 1)
        assert bad != record
        before = snapshot(path)
        with pytest.raises(Refusal) as refused:
            loop.run_until_complete(service.play.import_record(USERS[0], bad))
        assert "not text" in refused.value.text("en")
        assert snapshot(path) == before
    finally:
        loop.run_until_complete(service.close())
