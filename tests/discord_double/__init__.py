"""A loopback Discord (REST API and gateway) that the real discord.py client connects to."""

from tests.discord_double.payloads import User
from tests.discord_double.server import DiscordDouble, Interaction, Reply, Request, Upload

__all__ = ["DiscordDouble", "Interaction", "Reply", "Request", "Upload", "User"]
