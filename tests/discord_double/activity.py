"""Discord's Activities, as the Discord double serves them (issue 51, 3).

An interaction answered with callback type 12 (``LAUNCH_ACTIVITY``) launches the application's
Activity where the interaction happened: an instance whose location is the interaction's
channel, with the launching user in it (:meth:`Activities.launch`). Others join it as a test
says (:meth:`Activities.join`: in Discord, by clicking "Join" in the channel). The site looks an
instance up with the bot's token (``GET /applications/{id}/activity-instances/{instance}``:
404 once it is unknown, as Discord answers for an ended one). The code the Embedded App SDK's
``authorize`` hands the page is :meth:`tests.discord_double.oauth.OAuth.activity_code`.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field

from tests.discord_double.payloads import JSON


@dataclass
class Instance:
    """A running Activity: where, who is in it, and what launched it."""

    instance_id: str
    launch_id: str
    channel_id: int
    guild_id: int | None
    users: list[int]

    def payload(self, application_id: str) -> JSON:
        return {
            "application_id": application_id,
            "instance_id": self.instance_id,
            "launch_id": self.launch_id,
            "location": {
                "id": f"gc-{self.guild_id or 0}-{self.channel_id}",
                "kind": "gc" if self.guild_id else "pc",
                "channel_id": str(self.channel_id),
                "guild_id": str(self.guild_id) if self.guild_id else None,
            },
            "users": [str(u) for u in self.users],
        }


@dataclass
class Activities:
    instances: dict[str, Instance] = field(default_factory=dict)
    launches: list[Instance] = field(default_factory=list)
    """Every launch, in order (a test's record of what "Open the board" did)."""

    def launch(self, channel_id: int, guild_id: int | None, user_id: int) -> Instance:
        """The Activity launched in ``channel_id`` by ``user_id`` (one instance a channel: a
        second launch there joins the running one, as in Discord)."""
        for running in self.instances.values():
            if running.channel_id == channel_id:
                self.join(running.instance_id, user_id)
                self.launches.append(running)
                return running
        instance = Instance(
            "i-" + secrets.token_hex(8), secrets.token_hex(8), channel_id, guild_id, [user_id]
        )
        self.instances[instance.instance_id] = instance
        self.launches.append(instance)
        return instance

    def join(self, instance_id: str, user_id: int) -> None:
        users = self.instances[instance_id].users
        if user_id not in users:
            users.append(user_id)

    def leave(self, instance_id: str, user_id: int) -> None:
        users = self.instances[instance_id].users
        if user_id in users:
            users.remove(user_id)

    def end(self, instance_id: str) -> None:
        self.instances.pop(instance_id, None)
