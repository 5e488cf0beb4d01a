"""Crash inputs get clear answers: bounded clocks, one bad game never stops the other clocks,
impossible game ids, lone surrogates in names and moves, and the sandbox's own inputs."""

from __future__ import annotations

import io
import json
import logging
from pathlib import Path
from typing import Any

import pytest

from bot import i18n
from bot.clock import ClockError, FakeClock, parse_clock
from bot.config import Settings
from bot.i18n import clean_text
from bot.sandbox import run_sandbox
from bot.service import GameService, Refusal, User
from bot.service.play.timers import Timers
from tests.helpers import ALICE, BOB, CAROL, DAVE, query

# -- clock bounds -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "allowed"),
    [
        ("live:5s", "1 minute to 2 hours"),
        ("live:3h", "1 minute to 2 hours"),
        ("live:" + "9" * 400, "1 minute to 2 hours"),
        ("live:0.5s", "1 minute to 2 hours"),
        ("corr:9999999d", "1 hour to 30 days"),
        ("corr:99999999999999999999d", "1 hour to 30 days"),
        ("corr:31d", "1 hour to 30 days"),
        ("corr:30m", "1 hour to 30 days"),
        ("bank:61d+1d/61d", "1 minute to 60 days"),
        ("bank:7d+1d/9999999d", "1 minute to 60 days"),
        ("bank:7d+31d/14d", "1 second to 30 days"),
        ("bank:30s+1s/1m", "1 minute to 60 days"),
    ],
)
def test_clock_values_are_bounded(text: str, allowed: str) -> None:
    with pytest.raises(ClockError, match=allowed):
        parse_clock(text)


def test_clock_bounds_are_inclusive() -> None:
    assert parse_clock("live:1").per_move == 60
    assert parse_clock("live:2h").per_move == 7200
    assert parse_clock("live:90s").per_move == 90
    assert parse_clock("corr:1h").per_move == 3600
    assert parse_clock("corr:30").per_move == 30 * 86400
    bank = parse_clock("bank:60d+30d/60d")
    assert (bank.bank, bank.bonus, bank.cap) == (60 * 86400, 30 * 86400, 60 * 86400)
    assert parse_clock("bank:1m+1s/1m").cap == 60


LIVE = "a live clock's time per move must be 1 minute to 2 hours"
CORR = "a correspondence clock's time per move must be 1 hour to 30 days"


@pytest.mark.parametrize(
    ("clock", "en", "ja"),
    [
        ("corr:9999999d", CORR, "通信対局の1手の持ち時間は1時間〜30日"),
        ("corr:99999999999999999999d", CORR, "1時間〜30日"),
        ("live:" + "9" * 400, LIVE, "1分〜2時間"),
        ("live:5s", LIVE, "ライブ対局の1手の持ち時間は1分〜2時間"),
        ("bank:7d+0s/14d", "a time bank's bonus per move must be 1 second to 30 days", "1秒〜30日"),
    ],
)
async def test_service_refuses_out_of_range_clocks(
    service: GameService, clock: str, en: str, ja: str
) -> None:
    """The refusal names the part out of range and its range, and nothing else: not the
    ranges of the other kinds of clock, nor the whole text typed."""
    with pytest.raises(Refusal) as caught:
        await service.play.create_game(ALICE, "ttt-test", seated=[BOB], clock=clock)
    assert caught.value.key == "refuse.clock_range"
    assert en in caught.value.text("en") and ja in caught.value.text("ja")
    assert clock not in caught.value.text("en")
    assert "1 minute to 60 days" not in caught.value.text("en")
    # nothing was created, and /games works
    assert "no open" in (await service.play.list_games(ALICE)).text()


async def test_service_refuses_what_is_no_clock(service: GameService) -> None:
    with pytest.raises(Refusal) as caught:
        await service.play.create_game(ALICE, "ttt-test", seated=[BOB], clock="quickly please")
    assert caught.value.key == "refuse.bad_clock"
    assert "live:5" in caught.value.text("en") and "quickly" not in caught.value.text("en")


# -- one bad game does not stop the clocks ------------------------------------------------------


async def _two_timed_games(service: GameService) -> tuple[int, int]:
    first = await service.play.create_game(ALICE, "ttt-test", seated=[BOB], clock="corr:2")
    second = await service.play.create_game(CAROL, "ttt-test", seated=[DAVE], clock="corr:2")
    assert first.game_id is not None and second.game_id is not None
    return first.game_id, second.game_id


async def test_a_failing_game_leaves_other_reminders_and_timeouts(
    service: GameService,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    bad, good = await _two_timed_games(service)
    fire = Timers._fire

    async def poisoned(self: Timers, game_id: int, now_ms: int) -> Any:
        if game_id == bad:
            raise RuntimeError("poisoned")
        return await fire(self, game_id, now_ms)

    monkeypatch.setattr(Timers, "_fire", poisoned)
    clock.advance(days=1, hours=1)
    with caplog.at_level(logging.ERROR, logger="banmen.timers"):
        due = await service.process_due()
    assert [(r.game_id, r.key) for r in due] == [(good, "clock.reminder")]
    assert any(f"game {bad}" in r.getMessage() and r.exc_info for r in caplog.records)
    # the bad game is set aside: it does not keep the next timer in the past
    next_at = service.next_timer_at()
    assert next_at is not None and next_at > clock.now()
    clock.advance(days=1)
    due = await service.process_due()
    assert [(r.game_id, r.key) for r in due] == [(good, "game.timeout")] or [
        r.game_id for r in due
    ] == [good]
    assert (await service.play.game_info(good)).status.value != "active"


async def test_a_stored_clock_that_no_longer_parses_is_set_aside(
    service: GameService, clock: FakeClock, db_path: str, caplog: pytest.LogCaptureFixture
) -> None:
    bad, good = await _two_timed_games(service)
    await service.close()
    # an old row from before the bounds
    query(db_path, "UPDATE games SET clock = 'corr:9999999d' WHERE id = ?", (bad,))
    query(db_path, "UPDATE games SET deadline_ms = 9000000000000000 WHERE id = ?", (bad,))
    svc = await GameService.open(db_path, clock=clock, settings=Settings(db_path=db_path))
    try:
        with caplog.at_level(logging.ERROR, logger="banmen.timers"):
            at = svc.next_timer_at()
            assert at is not None
            clock.set(at)
            assert [r.key for r in await svc.process_due()] == ["clock.reminder"]
            clock.advance(days=2)
            due = await svc.process_due()
            assert [r.game_id for r in due] == [good]
            # only the bad game is left: its deadline (year 287168) shows as the latest time
            far = svc.next_timer_at()
            assert far is not None and far.year == 9999
        assert await svc.process_due() == []
        assert "#1" in (await svc.play.list_games(ALICE)).text()
        assert (await svc.play.board(bad, ALICE)).deadline is not None
    finally:
        await svc.close()


# -- game ids ---------------------------------------------------------------------------------


@pytest.mark.parametrize("gid", [99999999999999999999999, 2**63, -1, 0])
async def test_impossible_game_ids_are_unknown_games(service: GameService, gid: int) -> None:
    for use in (service.play.board, service.play.moves):
        with pytest.raises(Refusal) as caught:
            await use(gid, ALICE)
        assert caught.value.key == "refuse.unknown_game"
    with pytest.raises(Refusal):
        await service.play.move(gid, ALICE, "a1")


# -- lone surrogates ----------------------------------------------------------------------------


def test_clean_text() -> None:
    assert clean_text("alice") == "alice"
    assert clean_text("bad\ud800name") == "bad\ufffdname"
    assert clean_text("\ud83d\ude00") == "\U0001f600"  # a proper pair is the character


async def test_names_with_lone_surrogates_are_cleaned(service: GameService) -> None:
    bad = User("500", "bad\ud800name")
    reply = await service.play.create_game(bad, "ttt-test", seated=[BOB])
    assert reply.game_id is not None
    reply.text().encode("utf-8")
    assert "bad\ufffdname" in reply.text()
    assert (await service.play.game_info(reply.game_id)).seats[0].name == "bad\ufffdname"
    (await service.play.list_games(bad)).text().encode("utf-8")
    (await service.play.board(reply.game_id, bad)).text().encode("utf-8")
    challenge = await service.play.create_game(ALICE, "ttt-test", invite=[User("600", "x\udfffy")])
    assert challenge.game_id is not None


async def test_a_move_with_a_lone_surrogate_is_refused(service: GameService) -> None:
    reply = await service.play.create_game(ALICE, "ttt-test", seated=[BOB])
    assert reply.game_id is not None
    for text in ("\ud800", "a\ud8001"):
        with pytest.raises(Refusal) as caught:
            await service.play.move(reply.game_id, ALICE, text)
        assert caught.value.key == "refuse.bad_text"  # as at every entry point
        caught.value.text("en").encode("utf-8")
        caught.value.text("ja").encode("utf-8")
    assert await service.play.entries(reply.game_id) == []


async def test_a_real_engine_refuses_a_surrogate_move(tmp_path: Path) -> None:
    db = str(tmp_path / "real.db")
    svc = await GameService.open(
        db, clock=FakeClock(), settings=Settings(db_path=db), render_images=False
    )
    try:
        reply = await svc.play.create_game(ALICE, "rokumentai", seated=[BOB])
        assert reply.game_id is not None and reply.to_move
        mover = ALICE if reply.to_move[0] == ALICE.id else BOB
        with pytest.raises(Refusal) as caught:
            await svc.play.move(reply.game_id, mover, "四04\ud800")
        assert caught.value.key == "refuse.bad_text"
        caught.value.text("en").encode("utf-8")
    finally:
        await svc.close()


# -- the sandbox --------------------------------------------------------------------------------


async def _sandbox(tmp_path: Path, script: str) -> str:
    """Run ``script`` as piped input (so it may hold lone surrogates)."""
    out = io.StringIO()
    settings = Settings(db_path=str(tmp_path / "sandbox.db"))
    code = await run_sandbox(
        settings, out_dir=str(tmp_path / "out"), out=out, stdin=io.StringIO(script)
    )
    assert code == 0
    text = out.getvalue()
    text.encode("utf-8")  # everything printed can be written to a UTF-8 terminal
    assert "Traceback" not in text
    return text


async def test_sandbox_import_of_unreadable_files(fakes: None, tmp_path: Path) -> None:
    (tmp_path / "latin1.json").write_bytes(b'{"name": "caf\xe9"}')
    (tmp_path / "folder.json").mkdir()
    out = await _sandbox(
        tmp_path,
        f"/import {tmp_path / 'missing.json'}\n"
        f"/import {tmp_path / 'latin1.json'}\n"
        f"/import {tmp_path / 'folder.json'}\n"
        "/games\n",
    )
    assert "I cannot read" in out and "missing.json: No such file or directory" in out
    # A file that is neither UTF-8 nor Shift-JIS (a .kif) is read, and refused as a record.
    assert "line 1: the file is neither UTF-8 nor Shift-JIS text" in out
    assert out.count("✗ I cannot read") == 2
    assert "no open" in out  # the sandbox went on


async def test_sandbox_game_ids_out_of_range(fakes: None, tmp_path: Path) -> None:
    out = await _sandbox(
        tmp_path,
        "/play ttt-test @bob\n/board ²\n/moves 99999999999999999999999\n"
        f"/board {2**63}\n/moves #١\n/join 0\n/play ttt-test players=²\n/board\n",
    )
    assert "There is no game #²." in out
    assert "There is no game #99999999999999999999999." in out
    assert f"There is no game #{2**63}." in out
    assert "There is no game #١." in out
    assert "There is no game #0." in out
    assert "Usage: players=<number>" in out


async def test_sandbox_tick_is_bounded(fakes: None, tmp_path: Path) -> None:
    out = await _sandbox(
        tmp_path,
        "/tick 99999999999d\n/tick 367d\n/tick 0\n/tick soon\n"
        + "/tick 366d\n" * 10
        + "/play ttt-test @bob clock=live:5\n/games\n",
    )
    assert out.count("✗ I cannot move the sandbox clock") == 5  # four bad, one past 10 years
    assert "1 second to 366 days" in out
    assert "#1" in out


async def test_sandbox_lone_surrogates(fakes: None, tmp_path: Path) -> None:
    out = await _sandbox(
        tmp_path,
        "/as x\ud800y\n/play ttt-test @bob\n/as bob\n/accept\n/as x\ud800y\n/move a\ud800\n"
        "/move a1\n/games\n",
    )
    assert "x\ufffdy" in out
    assert "is not a move" in out or "✗" in out
    assert "#1" in out


async def test_sandbox_bad_clocks(fakes: None, tmp_path: Path) -> None:
    out = await _sandbox(
        tmp_path,
        "/play ttt-test @bob clock=corr:9999999d\n/play ttt-test @bob clock=live:5s\n/games\n",
    )
    assert out.count("✗ That clock cannot be used") == 2
    assert "1 minute to 2 hours" in out and "1 hour to 30 days" in out and "no open" in out


def test_bad_clock_message_in_both_languages() -> None:
    assert "live:5" in i18n.t("refuse.bad_clock", "en")
    assert "live:5" in i18n.t("refuse.bad_clock", "ja") and "持ち時間" in i18n.t(
        "refuse.bad_clock", "ja"
    )


# -- NUL characters (PostgreSQL's text cannot hold them) ---------------------------------------


async def test_nul_in_names_and_records_is_stored_cleaned(service: GameService) -> None:
    nul = User("700", "nul\x00name")
    reply = await service.play.create_game(nul, "ttt-test", seated=[BOB])
    assert reply.game_id is not None
    await service.play.move(reply.game_id, nul, "a1")
    assert (await service.play.game_info(reply.game_id)).seats[0].name == "nul\ufffdname"
    record = json.loads(
        next(
            f for f in (await service.play.record(reply.game_id)).files if f.name.endswith(".json")
        ).data.decode()
    )
    record["seed"] = "seed\x00with a nul"
    imported = await service.play.import_record(ALICE, json.dumps(record), seats=[ALICE, BOB])
    assert imported.game_id is not None
    assert "\x00" not in (await service.play.game_info(imported.game_id)).seed
