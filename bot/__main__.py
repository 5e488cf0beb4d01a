"""``banmen`` / ``python -m bot``: the Discord bot when DISCORD_TOKEN is set, else the sandbox.

``banmen sandbox [--db PATH] [--script FILE] [--out DIR] [--lang en|ja] [--user NAME] [--strict]``
runs the terminal sandbox over the same store the bot uses.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from collections.abc import Sequence

from bot import i18n
from bot.config import Settings, load_settings


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="banmen", description="Banmen (盤面) game host")
    parser.add_argument(
        "--sync-global",
        action="store_true",
        help="with DISCORD_TOKEN: sync the slash commands globally once at start-up",
    )
    sub = parser.add_subparsers(dest="command")
    sb = sub.add_parser("sandbox", help="the terminal sandbox (slash commands in a terminal)")
    sb.add_argument("--db", help="SQLite file (default: BANMEN_DB or ./data/banmen.db)")
    sb.add_argument("--script", help="read commands from this file")
    sb.add_argument("--out", default="out", help="folder for board images (default ./out/)")
    sb.add_argument("--lang", default="en", choices=("en", "ja"))
    sb.add_argument("--user", default="you", help="the user you start as")
    sb.add_argument("--strict", action="store_true", help="exit 2 on an unknown command")
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


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    settings = load_settings()
    if args.command != "sandbox" and settings.discord_token:
        import importlib

        # The Discord adapter is imported only when it is needed (and only then needs discord);
        # it sets up its own logging, which keeps the token out of every line.
        bot_args = ["--sync-global"] if args.sync_global else []
        importlib.import_module("bot.discord_app").main(bot_args)
        return 0
    logging.basicConfig(
        level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    if args.command == "sandbox":
        return sandbox(settings, args)
    print(i18n.t("sandbox.no_token"), file=sys.stderr)
    return sandbox(settings, argparse.Namespace())


if __name__ == "__main__":
    sys.exit(main())
