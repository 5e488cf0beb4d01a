"""The bot's cogs, one concern each (see ``bot.discord.client.EXTENSIONS``)."""
