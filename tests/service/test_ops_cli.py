"""``python -m bot`` for operators, offline: the healthcheck (fresh, stale, missing heartbeat),
the heartbeat settings, and no token without a terminal (a clear message and exit 2)."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

import bot.__main__ as cli
from bot.config import Settings, load_settings

ROOT = Path(__file__).resolve().parents[2]


def _env(tmp_path: Path, **settings: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DISCORD_", "BANMEN_")) and k != "DEV_GUILD_ID"
    }
    env |= {"PYTHONPATH": str(ROOT), "BANMEN_DB": str(tmp_path / "data" / "banmen.db")}
    return env | settings


def _run(
    tmp_path: Path, *args: str, stdin: int | None = subprocess.DEVNULL, **settings: str
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=tmp_path, env=_env(tmp_path, **settings), stdin=stdin,
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip


# -- the healthcheck ------------------------------------------------------------------------------
def test_check_heartbeat_fresh_stale_missing(tmp_path: Path) -> None:
    path = tmp_path / "heartbeat"
    ok, message = cli.check_heartbeat(path, 90)
    assert not ok and message.startswith(f"unhealthy: no heartbeat file at {path}")
    path.write_text("x", encoding="utf-8")
    os.utime(path, (1_000_000.0, 1_000_000.0))
    assert cli.check_heartbeat(path, 90, now=1_000_030.0) == (True, "healthy: heartbeat 30s old")
    assert cli.check_heartbeat(path, 90, now=1_000_090.0)[0]  # the limit itself is fine
    ok, message = cli.check_heartbeat(path, 90, now=1_000_300.0)
    assert not ok
    assert message == (
        f"unhealthy: the last heartbeat in {path} is 300s old (more than 90s): "
        "the bot is not connected to Discord"
    )
    # A clock step backwards does not make a heartbeat "from the future" unhealthy.
    assert cli.check_heartbeat(path, 90, now=999_990.0) == (True, "healthy: heartbeat 0s old")


def test_healthcheck_reads_the_settings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    settings = Settings(db_path=str(tmp_path / "banmen.db"), heartbeat_interval=10)
    assert settings.heartbeat_file == tmp_path / "heartbeat"
    assert cli.healthcheck(settings) == 1
    assert "unhealthy: no heartbeat file" in capsys.readouterr().err
    settings.heartbeat_file.write_text("x", encoding="utf-8")
    assert cli.healthcheck(settings) == 0
    assert capsys.readouterr().out.startswith("healthy:")
    old = time.time() - 31  # three intervals of 10 s, and one more second
    os.utime(settings.heartbeat_file, (old, old))
    assert cli.healthcheck(settings) == 1
    assert "(more than 30s)" in capsys.readouterr().err


def test_healthcheck_command(tmp_path: Path) -> None:
    """``python -m bot healthcheck`` (the Docker HEALTHCHECK): 0 fresh, 1 stale or missing."""
    beat = tmp_path / "data" / "heartbeat"  # the default: next to BANMEN_DB
    result = _run(tmp_path, "healthcheck")
    assert result.returncode == 1 and "unhealthy: no heartbeat file" in result.stderr
    beat.parent.mkdir()
    beat.write_text("x", encoding="utf-8")
    result = _run(tmp_path, "healthcheck")
    assert result.returncode == 0 and result.stdout.startswith("healthy: heartbeat "), result
    old = time.time() - 100
    os.utime(beat, (old, old))
    result = _run(tmp_path, "healthcheck")
    assert result.returncode == 1 and "(more than 90s)" in result.stderr
    elsewhere = tmp_path / "beat"
    elsewhere.write_text("x", encoding="utf-8")
    result = _run(
        tmp_path, "healthcheck", BANMEN_HEARTBEAT=str(elsewhere), BANMEN_HEARTBEAT_INTERVAL="60"
    )
    assert result.returncode == 0, result.stderr
    result = _run(tmp_path, "healthcheck", BANMEN_HEARTBEAT_INTERVAL="0")
    assert result.returncode == 2
    assert result.stderr == "banmen: BANMEN_HEARTBEAT_INTERVAL must be at least 1, not 0\n"


def test_heartbeat_settings() -> None:
    s = load_settings(env={"BANMEN_DB": "/srv/banmen/x.db"})
    assert (s.heartbeat_file, s.heartbeat_interval) == (Path("/srv/banmen/heartbeat"), 30)
    assert load_settings(env={}).heartbeat_file == Path("data/heartbeat")
    s = load_settings(env={"BANMEN_HEARTBEAT": "/tmp/hb", "BANMEN_HEARTBEAT_INTERVAL": "5"})
    assert (s.heartbeat_file, s.heartbeat_interval) == (Path("/tmp/hb"), 5)
    with pytest.raises(ValueError, match="BANMEN_HEARTBEAT_INTERVAL"):
        load_settings(env={"BANMEN_HEARTBEAT_INTERVAL": "-1"})


# -- no token, no terminal ------------------------------------------------------------------------
def test_no_token_and_no_terminal_stops_with_exit_2(tmp_path: Path) -> None:
    """``docker run`` without ``-it``: stdin is /dev/null; say why and stop, no empty sandbox."""
    result = _run(tmp_path)
    assert result.returncode == 2
    assert result.stderr.startswith("DISCORD_TOKEN is not set; ")
    assert "docker run -it" in result.stderr and "Traceback" not in result.stderr
    assert result.stdout == ""
    assert not (tmp_path / "data").exists()  # nothing was opened


def test_explicit_sandbox_still_runs_without_a_terminal(tmp_path: Path) -> None:
    result = _run(tmp_path, "sandbox", "--out", str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "data" / "banmen.db").exists()


def test_sync_global_without_a_token(tmp_path: Path) -> None:
    result = _run(tmp_path, "--sync-global", stdin=None)
    assert result.returncode == 2
    assert result.stderr.startswith("--sync-global needs DISCORD_TOKEN")


def test_what_counts_as_input_on_stdin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", None)
    assert not cli.stdin_has_input()  # closed
    with open(os.devnull, encoding="utf-8") as devnull:
        monkeypatch.setattr(sys, "stdin", devnull)
        assert not cli.stdin_has_input()
    script = tmp_path / "script.txt"
    script.write_text("/help\n", encoding="utf-8")
    with script.open(encoding="utf-8") as file:
        monkeypatch.setattr(sys, "stdin", file)
        assert cli.stdin_has_input()  # python -m bot < script.txt
    read, write = os.pipe()
    with os.fdopen(read, encoding="utf-8") as pipe, os.fdopen(write, "w", encoding="utf-8"):
        monkeypatch.setattr(sys, "stdin", pipe)
        assert cli.stdin_has_input()  # echo /help | python -m bot
    monkeypatch.setattr(sys, "stdin", io.StringIO("/help\n"))  # no file descriptor at all
    assert not cli.stdin_has_input()
