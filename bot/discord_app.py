"""Run the Discord bot: settings, logging, the service, the client (``python -m bot``).

``main()`` reads the settings (environment / ``.env``), sets up readable structured logging (the
token is never logged), opens the game service and runs the bot until interrupted. Pass
``--sync-global`` to sync the slash commands globally once (normally only the development guild
is synced at start-up).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
from collections.abc import Sequence

import discord

from bot.clock import SystemClock
from bot.config import Settings, load_settings
from bot.discord.client import BanmenBot, point_at
from bot.service import GameService

log = logging.getLogger("banmen")

LOG_FORMAT = "%(asctime)s %(levelname)-8s %(name)s: %(message)s"


class RedactToken(logging.Filter):
    """Drops the token from any log line that would contain it (defence in depth)."""

    def __init__(self, token: str | None) -> None:
        super().__init__()
        self.token = token

    def filter(self, record: logging.LogRecord) -> bool:
        if self.token and self.token in record.getMessage():
            record.msg = record.getMessage().replace(self.token, "[token]")
            record.args = ()
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
    redact = RedactToken(settings.discord_token)
    for handler in root.handlers:
        handler.addFilter(redact)


async def run_bot(settings: Settings, *, sync_global: bool = False) -> None:
    """Open the service, run the bot until it stops, close everything."""
    if not settings.discord_token:
        raise SystemExit("DISCORD_TOKEN is not set (environment or .env)")
    point_at(settings.discord_api_base, settings.discord_gateway_url)
    service = await GameService.open(settings.db_path, clock=SystemClock(), settings=settings)
    try:
        bot = BanmenBot(service, settings, sync_global=sync_global)
        async with bot:
            log.info(
                "starting (database %s, dev guild %s, api %s)",
                settings.db_path,
                settings.dev_guild_id or "none",
                settings.discord_api_base or "discord.com",
            )
            await bot.start(settings.discord_token)
    finally:
        await service.close()


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bot", description="Run the Banmen bot.")
    parser.add_argument(
        "--sync-global", action="store_true", help="sync the slash commands globally once"
    )
    args, _ = parser.parse_known_args(argv)
    settings = load_settings()
    setup_logging(settings)
    try:
        asyncio.run(run_bot(settings, sync_global=args.sync_global))
    except KeyboardInterrupt:
        log.info("stopped")


if __name__ == "__main__":
    main()
