"""Run the Discord bot: settings, logging, the service, the client (``python -m bot``).

``main()`` reads the settings (environment / ``.env``), sets up readable structured logging (no
token is ever logged), opens the game service and runs the bot until SIGTERM or SIGINT, then
closes the bot and the service and exits 0. A wrong token or an unreachable Discord is one log
line and a non-zero exit (2: the token, 1: the network or Discord). While it is connected the bot
rewrites a heartbeat file that ``python -m bot healthcheck`` (the Docker HEALTHCHECK) reads.
Pass ``--sync-global`` to sync the slash commands globally once (normally only the development
guild is synced at start-up).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import re
import signal
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

import aiohttp
import discord

from bot import web
from bot.clock import SystemClock
from bot.config import Settings, load_settings, masked_location, with_shards
from bot.discord.client import BanmenBot, point_at
from bot.discord.stopping import stop_tasks
from bot.service import GameService, ProcessThinker, StoreUnreachable

log = logging.getLogger("banmen")

LOG_FORMAT = "%(asctime)s %(levelname)-8s %(name)s: %(message)s"

EXIT_CONFIG = 2
"""The token (or another setting) is wrong: starting again will not help."""
EXIT_UNREACHABLE = 1
"""Discord could not be reached or answered an error: starting again later may help."""

CLOSE_TIMEOUT = 6.0
"""Seconds the bot gets to close on SIGTERM, all steps together (Docker waits 10 s, then kills;
the service's close, bounded too, gets the rest)."""
READER_STOP_SECONDS = 1.0
"""Of those, how long the gateway's reader gets to stop before the bot closes."""

# Interaction and webhook tokens travel in URL paths (discord.py logs every request at DEBUG)
# and in gateway payloads (``'token': '...'`` in the logged INTERACTION_CREATE events).
_TOKEN_PATH = re.compile(r"(/(?:interactions|webhooks)/\d+/)[^/\s?#'\"]+")
_TOKEN_FIELD = re.compile(r"""(['"]token['"]\s*:\s*['"])[^'"]+""")


def redact(text: str, token: str | None = None) -> str:
    """``text`` without the bot token and without interaction or webhook tokens."""
    if token and token in text:
        text = text.replace(token, "[token]")
    text = _TOKEN_PATH.sub(r"\1[token]", text)
    return _TOKEN_FIELD.sub(r"\1[token]", text)


class RedactToken(logging.Filter):
    """Masks the bot token and every interaction/webhook token in a log line (and traceback)."""

    def __init__(self, token: str | None) -> None:
        super().__init__()
        self.token = token

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        masked = redact(message, self.token)
        if masked != message:
            record.msg = masked
            record.args = ()
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text, self.token)
        if record.stack_info:
            record.stack_info = redact(record.stack_info, self.token)
        return True


def setup_logging(settings: Settings) -> None:
    """One readable line per event (``time level logger: message``) on stderr.

    If the entry point already configured logging, its handlers are reused (no doubled lines).
    """
    level = getattr(logging, settings.log_level, logging.INFO)
    root = logging.getLogger()
    if root.handlers:
        root.setLevel(level)
        for handler in root.handlers:
            handler.setFormatter(logging.Formatter(LOG_FORMAT))
    else:
        discord.utils.setup_logging(level=level, formatter=logging.Formatter(LOG_FORMAT), root=True)
    redact_filter = RedactToken(settings.discord_token)
    for handler in root.handlers:
        handler.addFilter(redact_filter)


def sync_warning(settings: Settings, sync_global: bool) -> str | None:
    """The start-up warning when no command will be synced (no dev guild, no global sync)."""
    if settings.dev_guild_id or sync_global:
        return None
    return (
        "no slash command is synced at start-up (DEV_GUILD_ID is not set and --sync-global was "
        "not given): new or changed commands will not appear in Discord. Set DEV_GUILD_ID to a "
        "server id for instant sync there, or run once with --sync-global "
        "(make run ARGS=--sync-global) to publish them to every server"
    )


class StartFailed(Exception):
    """The bot could not log in or stay connected: one line for the operator and an exit code."""

    def __init__(self, message: str, exit_code: int) -> None:
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code


def explain_failure(exc: BaseException, settings: Settings) -> StartFailed | None:
    """What went wrong and what to do, for the errors an operator can fix (else ``None``)."""
    api = settings.discord_api_base or "https://discord.com/api"
    if isinstance(exc, discord.LoginFailure) or (
        isinstance(exc, discord.ConnectionClosed) and exc.code == 4004
    ):
        return StartFailed(
            "Discord refused the token (401 Unauthorized): DISCORD_TOKEN is wrong or was reset. "
            "Copy the bot token from the Developer Portal (Bot > Reset Token) into DISCORD_TOKEN "
            "(environment or .env) and start again",
            EXIT_CONFIG,
        )
    if isinstance(exc, discord.PrivilegedIntentsRequired):
        return StartFailed(
            "Discord refused the gateway intents the bot asked for: enable them in the "
            "Developer Portal (Bot > Privileged Gateway Intents) and start again",
            EXIT_CONFIG,
        )
    if isinstance(exc, discord.HTTPException):
        status = f"{exc.status} {exc.text}".strip() if exc.text else str(exc.status)
        hint = "try again later (https://discordstatus.com)"
        if exc.status == 403 and settings.dev_guild_id:
            hint = (
                f"is the bot in the server DEV_GUILD_ID={settings.dev_guild_id}, invited with the "
                "applications.commands scope? Fix DEV_GUILD_ID or invite the bot"
            )
        return StartFailed(f"Discord answered {status} at {api}: {hint}", EXIT_UNREACHABLE)
    if isinstance(exc, discord.ConnectionClosed):
        return StartFailed(
            f"the Discord gateway closed the connection (code {exc.code}: {exc.reason or '-'}); "
            "start again, and check the token and the intents if it keeps happening",
            EXIT_UNREACHABLE,
        )
    if isinstance(
        exc, discord.GatewayNotFound | aiohttp.ClientError | OSError | asyncio.TimeoutError
    ):
        reason = str(exc) or type(exc).__name__
        return StartFailed(
            f"cannot reach Discord at {api} ({reason}): check the network (DNS, proxy, "
            "firewall) and DISCORD_API_BASE / DISCORD_GATEWAY_URL if set, then start again",
            EXIT_UNREACHABLE,
        )
    return None


def connected(bot: discord.Client) -> bool:
    """The bot is logged in and its gateway websocket is open (every shard's, when sharded)."""
    if not bot.is_ready() or bot.is_closed():
        return False
    if isinstance(bot, discord.AutoShardedClient):
        return bool(bot.shards) and not any(s.is_closed() for s in bot.shards.values())
    ws = bot.ws
    return ws is not None and ws.open


def beat(bot: discord.Client, path: Path) -> bool:
    """Rewrite the heartbeat file if the bot is connected; ``True`` if it was written."""
    if not connected(bot):
        return False
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"{datetime.now(UTC).isoformat()} latency {bot.latency:.3f}s\n")
    except OSError as exc:
        log.warning("cannot write the heartbeat file %s: %s", path, exc)
        return False
    return True


async def heartbeat(bot: discord.Client, path: Path, interval: float) -> None:
    """Rewrite ``path`` every ``interval`` seconds while the bot is connected (runs until
    cancelled); ``python -m bot healthcheck`` calls the bot healthy while the file is fresh."""
    await bot.wait_until_ready()
    announced = False
    while True:
        if beat(bot, path) and not announced:
            log.info("heartbeat every %ds in %s (python -m bot healthcheck)", interval, path)
            announced = True
        await asyncio.sleep(interval)


def _shards_text(settings: Settings) -> str:
    if settings.shard_ids is None:
        return "all" if settings.shard_count is None else f"all {settings.shard_count}"
    ids = ",".join(str(i) for i in settings.shard_ids)
    return f"{ids} of {settings.shard_count}"


def _remove(path: Path) -> None:
    with contextlib.suppress(OSError):
        path.unlink(missing_ok=True)


async def run_bot(settings: Settings, *, sync_global: bool = False) -> str | None:
    """Open the service, run the bot until it stops, close everything.

    SIGTERM and SIGINT close the bot and the service cleanly; the signal's name is returned
    (``None`` if the bot stopped by itself). Errors an operator can fix (a wrong token, an
    unreachable Discord) are raised as :class:`StartFailed`.
    """
    if not settings.discord_token:
        raise SystemExit("DISCORD_TOKEN is not set (environment or .env)")
    point_at(settings.discord_api_base, settings.discord_gateway_url)
    if warning := sync_warning(settings, sync_global):
        log.warning("%s", warning)
    # The bot has no voice: discord.py's start-up warnings about voice libraries are noise.
    discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    received: list[str] = []
    installed: list[signal.Signals] = []

    def on_signal(sig: signal.Signals) -> None:
        received.append(sig.name)
        stop.set()
        for s in installed:  # a second signal acts as usual (SIGINT raises, SIGTERM kills)
            loop.remove_signal_handler(s)
        installed.clear()

    beat_file = settings.heartbeat_file
    try:
        for sig in (signal.SIGTERM, signal.SIGINT):
            # Only the main thread of a process can handle signals (not Windows' loop either).
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(sig, on_signal, sig)
                installed.append(sig)
        _remove(beat_file)  # a heartbeat left by an earlier run says nothing about this one
        # The computer player searches in worker processes: the event loop never waits on it.
        thinker = ProcessThinker(settings.ai_workers)
        service = await GameService.open(
            settings.db_path, clock=SystemClock(), settings=settings, thinker=thinker
        )
        await service.follow_other_processes()  # moves made by others (a site process's clicks)
        # One process (the default) serves its own site; sharded processes leave the pages to
        # ``python -m bot site`` (each would see only its own moves live: issue 49)
        site = await web.serve(service) if settings.shard_ids is None else None
        if settings.shard_ids is not None and settings.web_port:
            log.info("sharded: the web pages are served by `python -m bot site`, not here")
        try:
            if not received:
                await _run_until_stopped(
                    BanmenBot(service, settings, sync_global=sync_global), settings, stop, received
                )
        finally:
            if site is not None:
                await site.stop()
            await service.close()
    finally:
        for sig in installed:
            loop.remove_signal_handler(sig)
        _remove(beat_file)
    return received[0] if received else None


async def _run_until_stopped(
    bot: BanmenBot, settings: Settings, stop: asyncio.Event, received: list[str]
) -> None:
    """Run ``bot`` and its heartbeat until it stops by itself or ``stop`` is set."""
    assert settings.discord_token
    async with bot:
        log.info(
            "starting (database %s, shards %s, dev guild %s, api %s)",
            masked_location(settings.db_path),
            _shards_text(settings),
            settings.dev_guild_id or "none",
            settings.discord_api_base or "discord.com",
        )
        runner = asyncio.create_task(bot.start(settings.discord_token))
        stopper = asyncio.create_task(stop.wait())
        beats = asyncio.create_task(
            heartbeat(bot, settings.heartbeat_file, settings.heartbeat_interval)
        )
        try:
            await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
            if received:
                log.info("%s received: closing the bot and the service", received[0])
                # Stop reading the gateway first, so that close() ends the session with a clean
                # 1000 (a close racing the reader goes out as 4000, "resumable").
                # (Not long: discord.py swallows the cancel of a reconnect under way, and then
                # the reader stops only with the close.)
                deadline = asyncio.get_running_loop().time() + CLOSE_TIMEOUT
                runner.cancel()
                await asyncio.wait({runner}, timeout=READER_STOP_SECONDS)
                try:
                    async with asyncio.timeout_at(deadline):
                        await bot.close()
                except TimeoutError:
                    log.warning("the bot did not close within %.0fs", CLOSE_TIMEOUT)
                return
            try:
                runner.result()
            except Exception as exc:
                failure = explain_failure(exc, settings)
                if failure is None:
                    raise
                log.debug("the failure in full", exc_info=exc)
                raise failure from exc
        finally:
            await stop_tasks((runner, stopper, beats))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the bot; the exit status: 0 stopped (SIGTERM, SIGINT), 1 Discord or the database
    unreachable or failing, 2 the token refused."""
    parser = argparse.ArgumentParser(prog="python -m bot", description="Run the Banmen bot.")
    parser.add_argument(
        "--sync-global", action="store_true", help="sync the slash commands globally once"
    )
    parser.add_argument("--shards", help="the shards this process runs, e.g. 0-3")
    parser.add_argument("--shard-count", type=int, help="the number of shards in all")
    args, _ = parser.parse_known_args(argv)
    settings = load_settings()
    setup_logging(settings)
    try:
        settings = with_shards(settings, args.shards, args.shard_count)
    except ValueError as exc:
        log.error("%s", exc)
        return EXIT_CONFIG
    try:
        stopped_by = asyncio.run(run_bot(settings, sync_global=args.sync_global))
    except StartFailed as failure:
        log.error("%s", failure.message)
        return failure.exit_code
    except StoreUnreachable as exc:  # one line, like a refused token
        log.error("%s", exc)
        return EXIT_UNREACHABLE
    except KeyboardInterrupt:
        log.info("stopped")
        return 0
    if stopped_by:
        log.info("stopped on %s: the bot and the service are closed", stopped_by)
    else:
        log.info("stopped: the bot and the service are closed")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
