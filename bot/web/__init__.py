"""The read-only web pages (an adapter over :attr:`bot.service.GameService.web`): a game by its
token, the rules, and the leaderboards and player pages of servers that opted in. See
docs/web.md."""

from __future__ import annotations

from bot.web.app import RateLimit, Running, create_app, serve, start

__all__ = ["RateLimit", "Running", "create_app", "serve", "start"]
