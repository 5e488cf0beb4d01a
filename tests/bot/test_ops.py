"""Operations against the Discord double: a wrong token and an unreachable Discord are one line
and a non-zero exit, SIGTERM closes the bot cleanly, the heartbeat follows the connection, the
missing command sync is announced, and interaction tokens never reach the logs."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import socket
import sys
from pathlib import Path

import pytest

from bot.config import Settings
from bot.discord_app import RedactToken, beat, run_bot, sync_warning
from bot.service import GameService
from tests.bot.conftest import Harness
from tests.discord_double import DiscordDouble
from tests.helpers import TIMEOUT, bot_env, double_env, python_m_bot

SIGTERM_BOUND = 30.0
"""How long a SIGTERMed bot may take to exit, whatever it was doing (it needs a few seconds)."""


async def _healthcheck(env: dict[str, str], cwd: Path) -> tuple[int, str]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "healthcheck",
        cwd=cwd, env=env, stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
    )  # fmt: skip
    out, _ = await asyncio.wait_for(proc.communicate(), TIMEOUT)
    return await proc.wait(), out.decode()


def _closed_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _one_error_line(stderr: str) -> str:
    assert "Traceback" not in stderr, stderr
    errors = [line for line in stderr.splitlines() if " ERROR " in line]
    assert len(errors) == 1, stderr
    return errors[0]


# -- a wrong token, an unreachable Discord --------------------------------------------------------
async def test_wrong_token_is_one_line_and_exit_2(double: DiscordDouble, tmp_path: Path) -> None:
    env = bot_env(
        tmp_path,
        DISCORD_TOKEN="not-the-token",
        DISCORD_API_BASE=double.api_base,
        DISCORD_GATEWAY_URL=double.gateway_url,
        DEV_GUILD_ID=str(double.guild_id),
    )
    async with python_m_bot(env, tmp_path) as bot:
        code = await bot.finish()
    assert code == 2, bot.stderr
    line = _one_error_line(bot.stderr)
    assert "Discord refused the token (401 Unauthorized)" in line and "DISCORD_TOKEN" in line
    assert "not-the-token" not in bot.stderr
    # The double answered 401 to the login (GET /users/@me); the bot went no further.
    assert [(r.method, r.path, r.status) for r in double.requests] == [("GET", "/users/@me", 401)]
    assert double.connections == 0


async def test_unreachable_api_is_one_line_and_exit_1(tmp_path: Path) -> None:
    port = _closed_port()
    env = bot_env(
        tmp_path,
        DISCORD_TOKEN="some-token",
        DISCORD_API_BASE=f"http://127.0.0.1:{port}/api/v10",
        DISCORD_GATEWAY_URL=f"ws://127.0.0.1:{port}/gateway",
        DEV_GUILD_ID="1",
    )
    async with python_m_bot(env, tmp_path) as bot:
        code = await bot.finish()
    assert code == 1, bot.stderr
    line = _one_error_line(bot.stderr)
    assert f"cannot reach Discord at http://127.0.0.1:{port}/api/v10" in line
    assert "DISCORD_API_BASE" in line


# -- SIGTERM, the heartbeat and the healthcheck ---------------------------------------------------
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=lambda s: s.name)
async def test_signal_closes_the_bot_and_the_service(
    double: DiscordDouble, tmp_path: Path, sig: signal.Signals
) -> None:
    """The container's ``docker stop``: the bot closes its gateway (1000), the service closes,
    the heartbeat goes away and the process exits 0, without waiting to be killed."""
    heartbeat = tmp_path / "run" / "heartbeat"
    env = double_env(double, tmp_path, BANMEN_HEARTBEAT=str(heartbeat))
    async with python_m_bot(env, tmp_path) as bot:
        await bot.wait_line(lambda line: "heartbeat every 30s in " + str(heartbeat) in line)
        await double.wait_connected()
        assert double.commands[double.guild_id]  # synced to the dev guild: no warning
        assert heartbeat.is_file()
        code, out = await _healthcheck(env, tmp_path)
        assert code == 0 and out.startswith("healthy: heartbeat "), out
        bot.proc.send_signal(sig)
        code = await bot.finish()
    assert code == 0, bot.stderr
    assert f"{sig.name} received: closing the bot and the service" in bot.stderr
    assert f"stopped on {sig.name}: the bot and the service are closed" in bot.stderr
    assert "Traceback" not in bot.stderr and " WARNING " not in bot.stderr, bot.stderr
    await double.wait_for(lambda: double.close_codes)
    assert double.close_codes == [1000]
    assert not heartbeat.exists()
    code, out = await _healthcheck(env, tmp_path)
    assert code == 1 and out.startswith("unhealthy: no heartbeat file at"), out
    assert (tmp_path / "banmen.db").is_file()


async def test_sigterm_mid_move_closes_in_time_and_keeps_what_was_committed(
    double: DiscordDouble, tmp_path: Path
) -> None:
    """SIGTERM while the computer searches its move (a budget of a minute, in a worker process):
    the bot exits 0 within a bound far below that budget, without waiting for the search;
    what was committed (alice's move, when she went first) is kept, and the computer's turn is
    still due."""
    env = double_env(double, tmp_path, BANMEN_AI_SECONDS="60", LOG_LEVEL="DEBUG")
    async with python_m_bot(env, tmp_path) as bot:
        # (read from the start: a full stderr pipe would stop the bot writing its DEBUG lines)
        thinking = asyncio.create_task(bot.wait_line(lambda line: "the computer (level 8)" in line))
        await double.wait_connected(timeout=TIMEOUT)
        await double.wait_for(lambda: double.commands.get(double.guild_id), timeout=TIMEOUT)
        started = await double.slash(
            double.alice,
            "play",
            {"rokumentai": {"opponent": double.bot_user, "level": 8}},
            timeout=TIMEOUT,
        )
        assert started.message is not None
        game_id = int(double.mark(started.message).lstrip("#").split()[0])
        thread = int((await double.wait_for(double.threads, timeout=TIMEOUT))[0]["id"])
        first = await double.wait_for_message(
            thread, lambda m: bool(m["attachments"]), timeout=TIMEOUT
        )
        committed: list[str] = []
        if double.alice.mention in double.text_of(first):  # the seats are drawn: alice goes first
            moved = await double.slash(
                double.alice, "move", {"notation": "一01占"}, channel=thread, timeout=TIMEOUT
            )
            assert moved.message is not None and not moved.ephemeral
            committed.append("一01占")
        assert f"game {game_id}: the computer (level 8) thinks" in await thinking
        bot.proc.send_signal(signal.SIGTERM)
        # The bound: far less than the search's budget (level 8: all 60 s, the most a
        # setting allows); a close that waited for the search would miss it.
        code = await asyncio.wait_for(bot.finish(), SIGTERM_BOUND)
    assert code == 0, bot.stderr
    assert "SIGTERM received: closing the bot and the service" in bot.stderr
    assert "stopped on SIGTERM: the bot and the service are closed" in bot.stderr
    assert "Traceback" not in bot.stderr, bot.stderr
    service = await GameService.open(str(tmp_path / "banmen.db"))
    try:
        assert [e.move for e in await service.play.entries(game_id)] == committed
        assert service.play.due_ai_games() == [game_id]
    finally:
        await service.close()


async def test_heartbeat_only_while_connected(harness: Harness, tmp_path: Path) -> None:
    bot = harness.bot
    assert bot is not None
    path = tmp_path / "beat" / "heartbeat"
    assert beat(bot, path)
    assert "latency" in path.read_text(encoding="utf-8")
    path.unlink()
    await bot.close()
    assert not beat(bot, path)
    assert not path.exists()


# -- no command sync ------------------------------------------------------------------------------
def test_sync_warning_rule() -> None:
    assert sync_warning(Settings(dev_guild_id="1"), sync_global=False) is None
    assert sync_warning(Settings(), sync_global=True) is None
    warning = sync_warning(Settings(), sync_global=False)
    assert warning is not None
    assert "will not appear" in warning
    assert "DEV_GUILD_ID" in warning and "--sync-global" in warning


async def test_token_only_warns_that_no_command_is_synced(
    double: DiscordDouble, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    settings = Settings(
        discord_token=double.token,
        db_path=str(tmp_path / "main.db"),
        discord_api_base=double.api_base,
        discord_gateway_url=double.gateway_url,
    )
    caplog.set_level(logging.INFO, logger="banmen")
    task = asyncio.create_task(run_bot(settings))
    try:
        await double.wait_connected()
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
    warnings = [r for r in caplog.records if r.name == "banmen" and r.levelno == logging.WARNING]
    assert len(warnings) == 1
    assert warnings[0].getMessage() == sync_warning(settings, sync_global=False)
    assert double.commands == {}  # nothing was synced, as the warning says


# -- tokens in the logs ---------------------------------------------------------------------------
def _record(msg: str, *args: object) -> logging.LogRecord:
    return logging.LogRecord("discord.http", logging.DEBUG, __file__, 1, msg, args, None)


def test_redact_masks_interaction_and_webhook_tokens() -> None:
    interaction_token = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5OnNlY3JldA.dots-and_dashes"
    webhook_token = "e" * 68
    base = "https://discord.com/api/v10"
    record = _record(
        "%s %s with %s has returned %s",
        "POST",
        f"{base}/interactions/1234567890/{interaction_token}/callback",
        None,
        204,
    )
    assert RedactToken("bot.token").filter(record)
    assert record.getMessage() == (
        f"POST {base}/interactions/1234567890/[token]/callback with None has returned 204"
    )
    for url, masked in [
        (f"{base}/webhooks/42/{webhook_token}", f"{base}/webhooks/42/[token]"),
        (
            f"{base}/webhooks/42/{webhook_token}/messages/@original",
            f"{base}/webhooks/42/[token]/messages/@original",
        ),
        (f"{base}/webhooks/42/{webhook_token}?wait=true", f"{base}/webhooks/42/[token]?wait=true"),
    ]:
        record = _record("Webhook ID %s with %s %s has returned %s", 42, "PATCH", url, 200)
        RedactToken(None).filter(record)
        assert record.getMessage() == f"Webhook ID 42 with PATCH {masked} has returned 200"
    # The gateway's INTERACTION_CREATE, as discord.py logs it at DEBUG (a dict's repr).
    event = {"t": "INTERACTION_CREATE", "d": {"id": "1", "token": interaction_token}}
    record = _record("For Shard ID %s: WebSocket Event: %s", 0, event)
    RedactToken(None).filter(record)
    assert interaction_token not in record.getMessage()
    assert "'token': '[token]'" in record.getMessage()
    # The bot token as before, and in a traceback too.
    record = _record("Authorization: Bot %s", "bot.token")
    RedactToken("bot.token").filter(record)
    assert record.getMessage() == "Authorization: Bot [token]"
    try:
        raise RuntimeError(f"{base}/interactions/1/{interaction_token}/callback bot.token")
    except RuntimeError:
        record = logging.LogRecord("x", logging.ERROR, __file__, 1, "boom", (), sys.exc_info())
    RedactToken("bot.token").filter(record)
    formatted = logging.Formatter().format(record)
    assert interaction_token not in formatted and "bot.token" not in formatted
    assert "/interactions/1/[token]/callback [token]" in formatted


def test_redact_leaves_other_lines_alone() -> None:
    record = _record("GET %s has returned %s", "https://discord.com/api/v10/users/@me", 200)
    RedactToken("bot.token").filter(record)
    assert record.msg == "GET %s has returned %s" and record.args
    assert record.getMessage() == "GET https://discord.com/api/v10/users/@me has returned 200"
