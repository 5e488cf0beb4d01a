"""``banmen`` / ``python -m bot``: the Discord bot when DISCORD_TOKEN is set, else the sandbox.

``banmen sandbox [--db PATH] [--script FILE] [--out DIR] [--lang en|ja] [--user NAME] [--strict]``
runs the terminal sandbox over the same store the bot uses.

``banmen ratings rebuild [--db PATH]`` recomputes every rating from the finished games (the
numbers must come out the same as the ones stored game by game; it says how many differed).

``banmen explorer rebuild [--db PATH]`` recomputes the opening explorer's counts from the move
logs of the finished games (docs/explorer.md).

``banmen --shards 0-3 --shard-count 8`` runs four of eight Discord shards in this process (see
README "Running at scale"): several processes share one PostgreSQL database.

``banmen healthcheck`` exits 0 while the running bot's heartbeat file is fresh, else 1 (the
Docker HEALTHCHECK). Without a token and with nothing to read on stdin (``docker run`` without
``-it``, a service manager: stdin is ``/dev/null`` or closed) ``banmen`` says why it stops and
exits 2 instead of starting the sandbox on an empty input.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import stat
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from bot import i18n
from bot.config import Settings, load_settings, with_shards

if TYPE_CHECKING:
    from bot.service import GameService

EXIT_CONFIG = 2
EXIT_UNREACHABLE = 1
"""The database (or Discord) could not be reached: start again once it is up."""

NO_TOKEN = (
    "DISCORD_TOKEN is not set; set it (environment, .env, or docker run -e DISCORD_TOKEN=...) "
    "to run the bot. The terminal sandbox needs a terminal or a script: docker run -it ..., "
    "python -m bot sandbox, or python -m bot sandbox --script FILE"
)
SYNC_NEEDS_TOKEN = "--sync-global needs DISCORD_TOKEN (environment or .env): nothing was synced"
WORKER_NEEDS_KEY = (
    "banmen worker: the jobs are signed: set BANMEN_JOB_KEY (or DISCORD_TOKEN) as the bot "
    "and site processes have it"
)
SITE_NEEDS_PORT = "banmen site: the site needs a port (BANMEN_WEB_PORT, not 0), free to listen on"

HEARTBEATS_ALLOWED = 3
"""A heartbeat is fresh for this many intervals (a missed beat or a quick reconnect is fine)."""


def add_shard_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--shards",
        metavar="IDS",
        help="with DISCORD_TOKEN: run only these shards, e.g. 0-3 or 0,2 (BANMEN_SHARDS); other "
        "processes on the same PostgreSQL run the rest",
    )
    parser.add_argument(
        "--shard-count",
        type=int,
        metavar="N",
        help="the number of shards in all (BANMEN_SHARD_COUNT; default: Discord's advice)",
    )


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="banmen", description="Banmen (盤面) game host")
    parser.add_argument(
        "--sync-global",
        action="store_true",
        help="with DISCORD_TOKEN: sync the slash commands globally once at start-up",
    )
    add_shard_flags(parser)
    sub = parser.add_subparsers(dest="command")
    sb = sub.add_parser("sandbox", help="the terminal sandbox (slash commands in a terminal)")
    sb.add_argument("--db", help="SQLite file (default: BANMEN_DB or ./data/banmen.db)")
    sb.add_argument("--script", help="read commands from this file")
    sb.add_argument("--out", default="out", help="folder for board images (default ./out/)")
    sb.add_argument("--lang", default="en", choices=("en", "ja"))
    sb.add_argument("--user", default="you", help="the user you start as")
    sb.add_argument("--strict", action="store_true", help="exit 2 on an unknown command")
    rt = sub.add_parser("ratings", help="maintenance of the ratings")
    rt.add_argument("action", choices=("rebuild",), help="rebuild: recompute from the games")
    rt.add_argument("--db", help="SQLite file (default: BANMEN_DB or ./data/banmen.db)")
    ex = sub.add_parser("explorer", help="maintenance of the opening explorer")
    ex.add_argument("action", choices=("rebuild",), help="rebuild: recompute from the move logs")
    ex.add_argument("--db", help="SQLite file (default: BANMEN_DB or ./data/banmen.db)")
    sub.add_parser(
        "site",
        help="the site alone, over the bot processes' store (BANMEN_DB; BANMEN_WEB_PORT)",
    )
    sub.add_parser(
        "worker",
        help="take heavy work (computer moves, pictures, reviews) from the store's job queue "
        "(BANMEN_DB; the bot and site processes with BANMEN_JOB_QUEUE=1 queue it)",
    )
    sub.add_parser(
        "healthcheck",
        help="exit 0 if the running bot's heartbeat (BANMEN_HEARTBEAT) is fresh, else 1",
    )
    return parser


def sandbox(settings: Settings, args: argparse.Namespace) -> int:
    from dataclasses import replace

    from bot.sandbox import run_sandbox

    if getattr(args, "db", None):
        settings = replace(settings, db_path=args.db)
    return asyncio.run(
        run_sandbox(
            settings,
            script=getattr(args, "script", None),
            out_dir=getattr(args, "out", "out"),
            lang=getattr(args, "lang", "en"),
            user=getattr(args, "user", "you"),
            strict=getattr(args, "strict", False),
        )
    )


def maintain(
    settings: Settings, args: argparse.Namespace, work: Callable[[GameService], Awaitable[str]]
) -> int:
    """Run one maintenance ``work`` over the store (``--db`` or the settings'), print what it
    says; a refusal is printed to stderr with exit code 1."""
    from dataclasses import replace

    from bot.service import GameService, Refusal

    if args.db:
        settings = replace(settings, db_path=args.db)

    async def run() -> int:
        service = await GameService.open(settings.db_path, settings=settings, render_images=False)
        try:
            said = await work(service)
        except Refusal as exc:
            print(f"banmen: {exc.text()}", file=sys.stderr)
            return 1
        finally:
            await service.close()
        print(said)
        return 0

    return asyncio.run(run())


def ratings(settings: Settings, args: argparse.Namespace) -> int:
    """``banmen ratings rebuild``: every rating recomputed from the finished games."""

    async def rebuild(service: GameService) -> str:
        return (await service.compete.rebuild_ratings()).text()

    return maintain(settings, args, rebuild)


def explorer(settings: Settings, args: argparse.Namespace) -> int:
    """``banmen explorer rebuild``: the opening explorer recomputed from the move logs."""

    async def rebuild(service: GameService) -> str:
        games = await service.review.rebuild_explorer()
        return f"explorer rebuilt from {games} finished games"

    return maintain(settings, args, rebuild)


def site(settings: Settings) -> int:
    """``banmen site``: the site as a process of its own over the store the bot processes use
    (issue 49, 3): no Discord; its pages learn of moves from PostgreSQL's notifications (or by
    reading the games' versions on SQLite). Its game cache keeps nothing (others change the
    games): the site keeps its own copies, trusted only while PostgreSQL tells it of every
    change (:mod:`bot.service.review.following`). Runs until SIGTERM or SIGINT."""
    import signal
    from dataclasses import replace

    from bot import web
    from bot.clock import SystemClock
    from bot.service import GameService, ProcessThinker

    settings = replace(settings, site_process=True, state_cache_size=0)

    async def run() -> int:
        loop = asyncio.get_running_loop()
        stop = asyncio.Event()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        service = await GameService.open(
            settings.db_path,
            clock=SystemClock(),
            settings=settings,
            thinker=ProcessThinker(settings.ai_workers),
        )
        try:
            running = await web.serve(service)
            if running is None:
                print(SITE_NEEDS_PORT, file=sys.stderr)
                return EXIT_CONFIG
            logging.getLogger("banmen").info("the site alone, on %s", running.url)
            try:
                await stop.wait()
            finally:
                await running.stop()
        finally:
            await service.close()
        return 0

    return asyncio.run(run())


def worker(settings: Settings) -> int:
    """``banmen worker``: a process that takes the heavy work of the bot and site processes
    from the store's job queue (issue 49, 4) and does it in its own pool of
    ``BANMEN_AI_WORKERS`` processes, as many jobs at once. Runs until SIGTERM or SIGINT (the
    jobs it has are finished first)."""
    import os
    import signal
    import socket

    from bot.service import JobWorker, ProcessThinker, open_store

    if settings.job_key is None:
        print(WORKER_NEEDS_KEY, file=sys.stderr)
        return EXIT_CONFIG
    key = settings.job_key

    async def run() -> int:
        loop = asyncio.get_running_loop()
        stop = asyncio.Event()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        store = open_store(settings.db_path, settings)
        await store.open()
        thinker = ProcessThinker(settings.ai_workers)
        name = f"{socket.gethostname()}:{os.getpid()}"
        try:
            taker = JobWorker(store, thinker, key, name, slots=settings.ai_workers)
            await taker.run(stop)
        finally:
            await thinker.close()
            await store.close()
        return 0

    return asyncio.run(run())


def check_heartbeat(path: Path, max_age: float, now: float | None = None) -> tuple[bool, str]:
    """Is the heartbeat at ``path`` at most ``max_age`` seconds old? With a one-line reason."""
    try:
        written = path.stat().st_mtime
    except FileNotFoundError:
        return False, (
            f"unhealthy: no heartbeat file at {path}: the bot has not connected to Discord yet "
            "(or is not running, or BANMEN_HEARTBEAT differs)"
        )
    except OSError as exc:
        return False, f"unhealthy: cannot read the heartbeat file {path}: {exc.strerror or exc}"
    age = (time.time() if now is None else now) - written
    if age > max_age:
        return False, (
            f"unhealthy: the last heartbeat in {path} is {age:.0f}s old (more than "
            f"{max_age:.0f}s): the bot is not connected to Discord"
        )
    return True, f"healthy: heartbeat {max(age, 0.0):.0f}s old"


def healthcheck(settings: Settings) -> int:
    """``banmen healthcheck``: 0 if the heartbeat is fresh, 1 otherwise (one line either way)."""
    ok, message = check_heartbeat(
        settings.heartbeat_file, HEARTBEATS_ALLOWED * settings.heartbeat_interval
    )
    print(message, file=sys.stdout if ok else sys.stderr)
    return 0 if ok else 1


def stdin_has_input() -> bool:
    """A terminal, a pipe, a file or a socket on stdin: someone or something types commands.

    ``docker run`` without ``-i`` and service managers give ``/dev/null`` (a character device
    that is not a terminal), or no stdin at all: nothing will ever be read there.
    """
    stream = sys.stdin
    if stream is None:
        return False
    try:
        if stream.isatty():
            return True
        mode = os.fstat(stream.fileno()).st_mode
    except (OSError, ValueError):
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISREG(mode) or stat.S_ISSOCK(mode)


def with_store(run: Callable[[], int]) -> int:
    """``run()``; a database that cannot be reached is one line and :data:`EXIT_UNREACHABLE`
    (as a wrong token or an unreachable Discord are), not a traceback."""
    from bot.service import StoreUnreachable

    try:
        return run()
    except StoreUnreachable as exc:
        print(f"banmen: {exc}", file=sys.stderr)
        return EXIT_UNREACHABLE


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        settings = with_shards(load_settings(), args.shards, args.shard_count)
    except ValueError as exc:
        print(f"banmen: {exc}", file=sys.stderr)
        return EXIT_CONFIG
    if args.command == "healthcheck":
        return healthcheck(settings)
    if args.command == "ratings":
        return with_store(lambda: ratings(settings, args))
    if args.command == "explorer":
        return with_store(lambda: explorer(settings, args))
    if args.command == "site":
        logging.basicConfig(
            level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
        )
        return with_store(lambda: site(settings))
    if args.command == "worker":
        logging.basicConfig(
            level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
        )
        return with_store(lambda: worker(settings))
    if args.command != "sandbox" and settings.discord_token:
        import importlib

        # The Discord adapter is imported only when it is needed (and only then needs discord);
        # it sets up its own logging, which keeps the token out of every line.
        bot_args = ["--sync-global"] if args.sync_global else []
        if args.shards is not None:
            bot_args += ["--shards", args.shards]
        if args.shard_count is not None:
            bot_args += ["--shard-count", str(args.shard_count)]
        code: int = importlib.import_module("bot.discord_app").main(bot_args)
        return code
    if args.command is None and args.sync_global:
        print(SYNC_NEEDS_TOKEN, file=sys.stderr)
        return EXIT_CONFIG
    if args.command is None and not stdin_has_input():
        print(NO_TOKEN, file=sys.stderr)
        return EXIT_CONFIG
    logging.basicConfig(
        level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    if args.command == "sandbox":
        return with_store(lambda: sandbox(settings, args))
    print(i18n.t("sandbox.no_token"), file=sys.stderr)
    return with_store(lambda: sandbox(settings, argparse.Namespace()))


if __name__ == "__main__":
    sys.exit(main())
