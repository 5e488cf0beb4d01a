"""Banmen's host: the game service, its SQLite store, clocks, records and the terminal sandbox.

Nothing in this package imports ``discord`` except the Discord adapter (``bot.discord_app``);
see docs/service.md for the service's public API.
"""
