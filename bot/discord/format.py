"""Service replies as Discord messages: content, embed, files, buttons and allowed mentions.

Pure functions of a reply and a language, so they are unit-tested without a connection. Only the
players the service lists in ``notify`` are pinged; everything else (user text included) can never
mention ``@everyone``, a role or another user.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import discord

from bot.discord.cards import CardText, Picture, build, texts_of
from bot.i18n import t
from bot.service import (
    ALT_LIMIT,
    TURN_ACTIONS,
    TURN_EVENTS,
    Event,
    Refusal,
    Reply,
    delivery_mark,
    parse_outbox_key,
)

MAX_CONTENT = 2000


@dataclass
class MessageParts:
    """Keyword arguments for ``send`` / ``send_message`` / ``edit``, built once."""

    content: str | None = None
    embed: discord.Embed | None = None
    files: list[discord.File] = field(default_factory=list)
    view: discord.ui.View | discord.ui.LayoutView | None = None
    allowed_mentions: discord.AllowedMentions = field(default_factory=discord.AllowedMentions.none)
    ephemeral: bool = False
    silent: bool = False
    """Discord's suppress-notifications flag (the pinged are in their quiet hours)."""

    def send_kwargs(self) -> dict[str, Any]:
        """For ``Messageable.send`` and webhook followups."""
        out: dict[str, Any] = {"allowed_mentions": self.allowed_mentions}
        if self.silent:
            out["silent"] = True
        if self.content:
            out["content"] = self.content
        if self.embed is not None:
            out["embed"] = self.embed
        if self.files:
            out["files"] = self.files
        if self.view is not None:
            out["view"] = self.view
        return out


def allowed_mentions_for(user_ids: Sequence[str]) -> discord.AllowedMentions:
    """Pings for exactly these users; never everyone, roles or a replied-to user."""
    return discord.AllowedMentions(
        everyone=False,
        roles=False,
        users=[discord.Object(int(u)) for u in user_ids if u.isdigit()],
        replied_user=False,
    )


def mention(user_id: str) -> str:
    return f"<@{user_id}>" if user_id.isdigit() else user_id


def board_filename(
    game_id: int | None, image_format: str = "png", subject: str | None = None
) -> str:
    """``board-12.png`` for a board, ``replay-12.gif`` for an animated replay; a picture of
    no game is named by what it shows (``rating.png``, ``lesson.png``, ``tournament.png``)."""
    stem = "replay" if image_format == "gif" else "board"
    if game_id is None and subject:
        stem = subject
    return f"{stem}-{game_id}.{image_format}" if game_id is not None else f"{stem}.{image_format}"


def timestamp(when: datetime, style: str = "R") -> str:
    """A Discord timestamp: every reader sees it in their own time zone."""
    return f"<t:{int(when.timestamp())}:{style}>"


def turn_line(reply: Reply, lang: str) -> str:
    """Whose turn it is and until when (Discord timestamps: each reader sees their own time
    zone), or nothing."""
    parts = []
    if reply.to_move:
        who = " ".join(mention(u) for u in reply.to_move)
        parts.append(f"**{t('embed.to_move', lang)}:** {who}")
    if reply.deadline is not None:
        when = f"{timestamp(reply.deadline, 'f')} ({timestamp(reply.deadline)})"
        parts.append(f"**{t('embed.deadline', lang)}:** {when}")
    return "\n".join(parts)


def mark_of(reply: Reply) -> str:
    """The card's small last line: its game (``#12``), or its delivery mark."""
    if reply.game_id is not None:
        return footer_text(reply.game_id, reply.outbox)
    if reply.outbox is not None:
        return delivery_mark(reply.outbox)  # a post of no game's
    return ""


def alt_text(reply: Reply, lang: str) -> str:
    """The description of ``reply``'s picture in ``lang`` (at most :data:`ALT_LIMIT`): its
    own words, else the first line of the reply, so that no picture goes without one."""
    if reply.image_alt is not None:
        return _clip_words(reply.image_alt.get(lang), ALT_LIMIT)
    first = reply.text(lang, turn=False, deadline=False).split("\n", 1)[0]
    return _clip_words(first or t("picture.alt", lang), ALT_LIMIT)


def footer_text(game_id: int, outbox: str | None) -> str:
    """``#12``; an announcement also carries its key's mark (``#12 · 35``: the 35th change of
    game 12), so the delivery loop can see, after a crash, that it was already posted."""
    if outbox is None or parse_outbox_key(outbox) is None:
        return f"#{game_id}"
    return delivery_mark(outbox)


def announcement_in(message: discord.Message, key: str) -> bool:
    """Whether ``message`` is the delivery ``key`` (by the mark on its card, or in the footer
    of an embed posted before the cards)."""
    wanted = delivery_mark(key)
    if any(e.footer.text == wanted for e in message.embeds):
        return True
    return f"-# {wanted}" in texts_of(message.components)


def awaits_player(reply: Reply) -> bool:
    """True when the reply leaves someone to act: a turn, or a challenge to answer (a finished
    game pings nobody)."""
    return reply.event is Event.CREATED or any(b.action in TURN_ACTIONS for b in reply.actions)


def reply_parts(
    reply: Reply,
    lang: str,
    *,
    ephemeral: bool = False,
    view: discord.ui.View | None = None,
    with_image: bool = True,
    extra: Sequence[str] = (),
) -> MessageParts:
    """One service reply as one card (:mod:`bot.discord.cards`): the pings above it, its text,
    the picture (left out with ``with_image=False``) with the position in words as its
    description, the files, whose turn it is, the buttons of ``view`` and ``extra`` lines (a
    game's links)."""
    files = [discord.File(io.BytesIO(f.data), filename=f.name) for f in reply.files]
    picture = None
    if with_image and reply.image is not None:
        name = board_filename(reply.game_id, reply.image_format, reply.subject)
        alt = alt_text(reply, lang)
        files.insert(0, discord.File(io.BytesIO(reply.image), filename=name, description=alt))
        picture = Picture(name, alt)
    pings = [] if ephemeral or not awaits_player(reply) else list(reply.notify)
    text = CardText(
        pings=" ".join(mention(u) for u in pings),
        body=reply.text(lang, deadline=False, turn=False, times=timestamp),
        seats=tuple(t(line.key, lang, **line.params) for line in reply.seats),
        extra=tuple(extra),
        turn=turn_line(reply, lang) if reply.event in TURN_EVENTS or reply.to_move else "",
        mark=mark_of(reply),
        active=awaits_player(reply),
    )
    items = list(view.children) if view is not None else []
    card = build(text, picture=picture, files=[f.name for f in reply.files], items=items)
    return MessageParts(
        view=card,
        files=files,
        allowed_mentions=allowed_mentions_for(pings),
        ephemeral=ephemeral,
        silent=reply.silent and bool(pings),
    )


def announcement_parts(reply: Reply, lang: str) -> MessageParts:
    """A game that starts in a thread, as its channel shows it: what began and who plays, no
    turn, deadline, picture, buttons or pings (they belong to the thread, and would go stale
    in the channel)."""
    mark = f"#{reply.game_id}" if reply.game_id is not None else ""
    text = CardText(body=reply.text(lang, turn=False), mark=mark)
    return MessageParts(view=build(text))


def refusal_text(refusal: Refusal, lang: str) -> str:
    """What was wrong and, for a move, the closest legal moves."""
    text = refusal.text(lang)
    suggested = refusal.suggested(lang)
    if suggested and suggested[0] not in text:
        moves = ", ".join(f"`{s}`" for s in suggested[:10])
        text += "\n" + t("refuse.suggestions", lang, moves=moves)
    return _clip(text, MAX_CONTENT)


def choices_for(values: Sequence[str]) -> list[tuple[str, str]]:
    """Autocomplete choices (name, value): at most 25, each at most 100 characters."""
    out: list[tuple[str, str]] = []
    for v in values:
        if 0 < len(v) <= 100:
            out.append((v, v))
        if len(out) == 25:
            break
    return out


def settings_text(values: Mapping[str, object]) -> str:
    return "\n".join(f"`{k}` = `{v}`" for k, v in values.items())


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _clip_words(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` at a space, never inside a word (a text without spaces,
    Japanese, is cut at a character)."""
    if len(text) <= limit:
        return text
    head = text[: limit - 1]
    cut = head.rsplit(" ", 1)[0] if " " in head else head
    return cut.rstrip() + "…"
