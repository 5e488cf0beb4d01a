"""Builders of the JSON objects Discord sends: users, members, channels, guilds, messages.

Only the fields discord.py reads are filled, with the shapes of Discord's API v10.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

JSON = dict[str, Any]

# Permission bits (https://discord.com/developers/docs/topics/permissions).
SEND_MESSAGES = 1 << 11
VIEW_CHANNEL = 1 << 10
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
SEND_MESSAGES_IN_THREADS = 1 << 38
ADMINISTRATOR = 1 << 3
MANAGE_GUILD = 1 << 5
MEMBER_PERMISSIONS = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | CREATE_PUBLIC_THREADS
    | SEND_MESSAGES_IN_THREADS
)
ALL_PERMISSIONS = (1 << 50) - 1

DISCORD_EPOCH_MS = 1_420_070_400_000
_last_id = 0


def snowflake() -> int:
    """A fresh id, made as Discord makes them: its creation's time in milliseconds since
    Discord's epoch in the high bits (discord.py reads an interaction's age from it), a count
    below, each id above the one before."""
    global _last_id
    _last_id = max(_last_id + 1, (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22)
    return _last_id


def now_iso() -> str:
    return datetime.now(UTC).isoformat()


@dataclass(frozen=True)
class User:
    """A person in the double's guild; ``locale`` is what their Discord client reports."""

    id: int
    name: str
    locale: str = "en-US"
    permissions: int = MEMBER_PERMISSIONS
    bot: bool = False

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> JSON:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name.title(),
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }

    def member(self, guild_id: int, with_user: bool = True) -> JSON:
        data: JSON = {
            "roles": [],
            "joined_at": "2024-01-01T00:00:00+00:00",
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "nick": None,
            "avatar": None,
            "premium_since": None,
            "communication_disabled_until": None,
            "permissions": str(self.permissions),
        }
        if with_user:
            data["user"] = self.payload()
        return data


def text_channel(channel_id: int, guild_id: int, name: str) -> JSON:
    return {
        "id": str(channel_id),
        "type": 0,
        "guild_id": str(guild_id),
        "name": name,
        "position": 0,
        "permission_overwrites": [],
        "nsfw": False,
        "parent_id": None,
        "topic": None,
        "last_message_id": None,
        "rate_limit_per_user": 0,
    }


def thread_channel(
    thread_id: int, guild_id: int, parent_id: int, name: str, owner_id: int, private: bool
) -> JSON:
    return {
        "id": str(thread_id),
        "type": 12 if private else 11,
        "guild_id": str(guild_id),
        "parent_id": str(parent_id),
        "owner_id": str(owner_id),
        "name": name,
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "message_count": 0,
        "member_count": 1,
        "flags": 0,
        "thread_metadata": {
            "archived": False,
            "auto_archive_duration": 10080,
            "archive_timestamp": now_iso(),
            "locked": False,
            "invitable": True,
        },
    }


def role(role_id: int, name: str, permissions: int) -> JSON:
    return {
        "id": str(role_id),
        "name": name,
        "color": 0,
        "hoist": False,
        "position": 0,
        "permissions": str(permissions),
        "managed": False,
        "mentionable": False,
        "flags": 0,
    }


def guild(guild_id: int, owner: User, channels: list[JSON], users: list[User]) -> JSON:
    return {
        "id": str(guild_id),
        "name": "Banmen Test Guild",
        "icon": None,
        "owner_id": str(owner.id),
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "roles": [role(guild_id, "@everyone", MEMBER_PERMISSIONS)],
        "emojis": [],
        "stickers": [],
        "features": [],
        "mfa_level": 0,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "vanity_url_code": None,
        "description": None,
        "banner": None,
        "premium_tier": 0,
        "preferred_locale": "en-US",
        "public_updates_channel_id": None,
        "nsfw_level": 0,
        "premium_progress_bar_enabled": False,
        "unavailable": False,
        "large": False,
        "member_count": len(users),
        "members": [u.member(guild_id) for u in users],
        "channels": channels,
        "threads": [],
        "voice_states": [],
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "joined_at": "2024-01-01T00:00:00+00:00",
    }


def attachment(
    attachment_id: int, filename: str, data: bytes, url_base: str, description: str | None = None
) -> JSON:
    content_type = "image/png" if filename.lower().endswith(".png") else "application/octet-stream"
    url = f"{url_base}/attachments/{attachment_id}/{filename}"
    out: JSON = {
        "id": str(attachment_id),
        "filename": filename,
        "size": len(data),
        "url": url,
        "proxy_url": url,
        "content_type": content_type,
    }
    if description is not None:
        out["description"] = description
    return out


def message(
    message_id: int,
    channel_id: int,
    guild_id: int | None,
    author: JSON,
    body: JSON,
    attachments: list[JSON],
    *,
    webhook_id: int | None = None,
    message_type: int = 0,
) -> JSON:
    """A message as Discord returns it, from the body the bot sent."""
    data: JSON = {
        "id": str(message_id),
        "channel_id": str(channel_id),
        "author": author,
        "content": body.get("content") or "",
        "timestamp": now_iso(),
        "edited_timestamp": None,
        "tts": bool(body.get("tts", False)),
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": attachments,
        "embeds": list(body.get("embeds") or []),
        "components": list(body.get("components") or []),
        "pinned": False,
        "type": message_type,
        "flags": int(body.get("flags") or 0),
    }
    if guild_id is not None:
        data["guild_id"] = str(guild_id)
    if webhook_id is not None:
        data["webhook_id"] = str(webhook_id)
    return data


def custom_ids(components: list[JSON]) -> list[str]:
    """Every ``custom_id`` in a component tree, in order (buttons, selects, text inputs)."""
    out: list[str] = []
    for component in components:
        if "custom_id" in component:
            out.append(str(component["custom_id"]))
        out.extend(custom_ids(list(component.get("components") or [])))
        if isinstance(component.get("component"), dict):
            out.extend(custom_ids([component["component"]]))
    return out


def find_components(components: list[JSON], component_type: int) -> list[JSON]:
    """Every component of one type in a component tree (e.g. 4: text inputs, 2: buttons)."""
    out: list[JSON] = []
    for component in components:
        if component.get("type") == component_type:
            out.append(component)
        out.extend(find_components(list(component.get("components") or []), component_type))
        if isinstance(component.get("component"), dict):
            out.extend(find_components([component["component"]], component_type))
    return out


def texts(components: list[JSON]) -> list[str]:
    """Every text display's content in a component tree (a card's texts), in order."""
    return [str(c.get("content") or "") for c in find_components(components, 10)]


def text_of(message: JSON) -> str:
    """What a message says, for assertions: its content, its embeds' titles, descriptions,
    fields and footers, and its card's text displays."""
    parts = [str(message.get("content") or "")]
    for e in message.get("embeds") or []:
        parts += [str(e.get("title") or ""), str(e.get("description") or "")]
        for f in e.get("fields") or []:
            parts += [str(f.get("name") or ""), str(f.get("value") or "")]
        if e.get("footer"):
            parts.append(str(e["footer"].get("text") or ""))
    parts += texts(list(message.get("components") or []))
    return "\n".join(p for p in parts if p)
