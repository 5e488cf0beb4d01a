"""The web pages (an adapter over the service's review front): a game by its token (and, for a
signed-in player, their board to play on), the rules, and the leaderboards and player pages of
servers that opted in. See docs/web.md."""

from __future__ import annotations

from bot.web.app import RateLimit, Running, create_app, serve, start

__all__ = ["RateLimit", "Running", "create_app", "serve", "start"]
