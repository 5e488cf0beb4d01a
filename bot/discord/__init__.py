"""The Discord adapter: a thin layer of cogs, views and formatting over ``bot.service``.

Nothing here knows a game rule; it turns interactions into service calls and service replies
into messages (see docs/bot.md).
"""
