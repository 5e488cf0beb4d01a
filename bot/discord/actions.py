"""Run one use case for an interaction and answer it in time, in the right place.

Every command and button goes through :func:`respond`: the service call starts at once; if it
has not finished within :data:`BUDGET` seconds the interaction is deferred (Discord allows 3), so no
interaction is ever left unanswered while a picture renders. An interaction that took long to
reach the command (a busy event loop) is deferred sooner, at once past two seconds of age
(:func:`answer_budget`). Refusals become ephemeral messages in
the user's language; public replies go to the channel, and a game that starts gets its thread.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

import discord

from bot.discord.format import (
    MessageParts,
    announcement_in,
    announcement_parts,
    refusal_text,
    reply_parts,
)
from bot.discord.host import Host, host_of
from bot.discord.relay import Waiting, followups_left, is_spent, posts_there
from bot.discord.threads import keep_asleep_as_due
from bot.discord.views import MoveModal, page_view, reply_view
from bot.i18n import Lang, t
from bot.service import (
    ACTIONS,
    INTERACTION_ONLY,
    LOBBY_EVENTS,
    PRACTICE_EVENTS,
    Action,
    Event,
    Location,
    Press,
    Refusal,
    Reply,
    Scope,
    Takes,
    Target,
    User,
)

log = logging.getLogger("banmen.discord.actions")

BUDGET = 1.2
"""Seconds a use case may take before the interaction is deferred."""
ANSWER_WITHIN = 3.0
"""Discord's seconds to answer an interaction, from its creation (its id's time)."""
SEND_MARGIN = 1.0
"""Of those, the seconds left for the deferral itself to reach Discord."""


def answer_budget(created_at: datetime, now: datetime) -> float:
    """Seconds a use case may take before the interaction is deferred: :data:`BUDGET`, less
    whatever part of Discord's three seconds the interaction spent before it reached us (its
    way to us, and a busy event loop: under a burst of moves, a process's loop can run seconds
    behind). Clocks apart: a negative age counts as none."""
    waited = min(max((now - created_at).total_seconds(), 0.0), ANSWER_WITHIN)
    return max(0.0, min(BUDGET, ANSWER_WITHIN - SEND_MARGIN - waited))


Work = Callable[[], Awaitable["Reply | Sequence[Reply]"]]


def service_user(user: discord.abc.User) -> User:
    return User(str(user.id), user.display_name)


async def guild_lang(bot: Host, guild_id: int | None) -> str:
    """The server's language for public messages (its setting; English by default)."""
    if guild_id is None:
        return "en"
    return (await bot.service.play.guild_settings(str(guild_id))).lang.value


async def guild_threads(bot: Host, guild_id: int | None) -> bool:
    if guild_id is None:
        return False
    return (await bot.service.play.guild_settings(str(guild_id))).threads


class Responder:
    """Answers one interaction: the first message as the response, the rest as followups."""

    def __init__(
        self, interaction: discord.Interaction[Any], received: float | None = None
    ) -> None:
        self.interaction = interaction
        self.deferred_public = False  # a slash command deferred with "thinking" (public)
        self.original_used = False
        self.received = time.monotonic() if received is None else received
        """When the interaction came (its token lasts 15 minutes from then)."""
        self.followups = 0
        """Follow-ups sent with its token (five at most where only a user installed us)."""

    @property
    def is_component(self) -> bool:
        return self.interaction.type in (
            discord.InteractionType.component,
            discord.InteractionType.modal_submit,
        ) and (self.interaction.message is not None)

    async def defer(self) -> None:
        response = self.interaction.response
        if response.is_done():
            return
        if self.is_component:
            await response.defer()
        else:
            await response.defer(thinking=True)
            self.deferred_public = True

    async def send(self, parts: MessageParts) -> discord.Message | None:
        """Send one message; returns it when public (the thread starts from it)."""
        inter = self.interaction
        kwargs = parts.send_kwargs()
        if not inter.response.is_done():
            callback = await inter.response.send_message(**kwargs, ephemeral=parts.ephemeral)
            self.original_used = True
            resource = callback.resource
            return resource if isinstance(resource, discord.Message) else None
        if self.deferred_public and not self.original_used and not parts.ephemeral:
            self.original_used = True
            edit = {k: v for k, v in kwargs.items() if k != "files"}
            return await inter.edit_original_response(attachments=parts.files, **edit)
        self.followups += 1
        message: discord.Message = await inter.followup.send(
            **kwargs, ephemeral=parts.ephemeral, wait=True
        )
        return message

    async def update(self, parts: MessageParts) -> None:
        """Replace the message the button was on (a lobby or challenge that changed): its
        card (a message posted before the cards loses its text and embed for it)."""
        inter = self.interaction
        edit: dict[str, Any] = {
            "content": parts.content,
            "embed": parts.embed,
            "attachments": parts.files,
            "allowed_mentions": parts.allowed_mentions,
            "view": parts.view,
        }
        if not inter.response.is_done():
            await inter.response.edit_message(**edit)
            self.original_used = True
        elif inter.message is not None:
            await inter.followup.edit_message(inter.message.id, **edit)
        else:
            await self.send(parts)

    async def finish(self) -> None:
        """A public deferral that ended with only private messages: remove the "thinking"."""
        if self.deferred_public and not self.original_used:
            self.original_used = True
            await self.interaction.delete_original_response()

    async def refuse(self, text: str) -> None:
        if self.deferred_public and not self.original_used:
            await self.finish()
        await self.send(MessageParts(content=text, ephemeral=True))


async def respond(interaction: discord.Interaction[Any], work: Work) -> None:
    """Run ``work`` (a service call) and deliver what it returns, deferring if it is slow.
    The channel is marked in flight meanwhile (the computer's reply waits for this one)."""
    bot = host_of(interaction)
    async with bot.flights.flying(interaction.channel_id):
        await _respond(bot, interaction, work)


async def _respond(bot: Host, interaction: discord.Interaction[Any], work: Work) -> None:
    responder = Responder(interaction, bot.relay.clock())
    budget = answer_budget(interaction.created_at, discord.utils.utcnow())
    if budget <= 0:  # already late: the deferral goes out before the work takes the loop
        await responder.defer()
    task = asyncio.ensure_future(work())
    done, _ = await asyncio.wait({task}, timeout=budget)
    if not done:
        await responder.defer()
    try:
        result = await task
    except Exception as error:
        # Refusals are answered here; anything else goes on to the tree's or the view's handler,
        # after the public "thinking…" placeholder (if any) is removed.
        if not isinstance(error, Refusal):
            await responder.finish()
            raise
        refusal = error
        lang = Lang.of(interaction.locale, await guild_lang(bot, interaction.guild_id))
        await responder.refuse(refusal_text(refusal, lang))
        return
    replies = [result] if not isinstance(result, Sequence) else list(result)
    if await launched(interaction, replies):
        return
    await deliver(bot, responder, replies)


async def launched(interaction: discord.Interaction[Any], replies: Sequence[Reply]) -> bool:
    """The card's "Open the board" (or ``/open``) where the service says to launch the
    Activity: the interaction's answer is the launch (callback type 12), when nothing answered
    it yet (a slow answer was deferred: then the reply's words go instead)."""
    if len(replies) != 1 or replies[0].event is not Event.OPEN_BOARD:
        return False
    if not replies[0].params.get("launch") or interaction.response.is_done():
        return False
    await interaction.response.launch_activity()
    return True


async def deliver(
    bot: Host,
    responder: Responder,
    replies: Sequence[Reply],
) -> None:
    """Send each reply where it belongs: public ones to everyone, private ones to their user.
    A lobby or challenge has one message, changed in place whatever changed it (a button on it,
    ``/join``, the clock): it is never posted twice."""
    inter = responder.interaction
    public_lang = await guild_lang(bot, inter.guild_id)
    user_lang = Lang.of(inter.locale, public_lang)
    me = str(inter.user.id)
    posts = posts_there(inter)
    if not posts:  # what games reached only through interactions here could not post (48)
        for game_id in await relayed_here(bot, inter, replies):
            await catch_up(bot, responder, game_id, public_lang)
    for reply in map(bot.service.correspond.shape, replies):  # pings as their users want them now
        try:
            await _deliver_one(bot, responder, reply, public_lang, user_lang, me)
        except BaseException:
            for key in reply.announcements:  # the outbox posts it again later
                await bot.service.announcement_failed(key)
            raise
        if reply.announcements:
            await bot.service.announced(*reply.announcements)
    if not posts:  # this interaction carries what they post next (a game placed just now too)
        for game_id in await relayed_here(bot, inter, replies):
            bot.relay.remember(game_id, responder)
    await responder.finish()


async def relayed_here(
    bot: Host, inter: discord.Interaction[Any], replies: Sequence[Reply]
) -> list[int]:
    """The games of ``replies`` that live where ``inter`` was made and are reached only
    through interactions there."""
    out = []
    for game_id in sorted({r.game_id for r in replies if r.game_id is not None}):
        loc = await bot.service.play.place(game_id)
        if loc is not None and loc.interaction_only and loc.channel_id == str(inter.channel_id):
            out.append(game_id)
    return out


CATCH_UP = 4
"""A game's waiting announcements an interaction carries at most (before its own answer:
Discord allows the answer and five follow-ups where only a user installed the app)."""


async def catch_up(bot: Host, responder: Responder, game_id: int, lang: str) -> None:
    """The announcements a game reached only through interactions could not post (no
    interaction to carry them), oldest first, before this interaction's own answer; what
    does not fit waits for the next one."""
    room = min(CATCH_UP, followups_left(responder) - 1)
    if room <= 0:
        return
    for reply in await bot.service.pending_of_game(game_id, room):
        reply = bot.service.correspond.shape(reply)
        try:
            reply = await result_card(bot, reply)
            await responder.send(reply_parts(reply, lang, view=reply_view(reply, lang)))
        except BaseException:
            for key in reply.announcements:
                await bot.service.announcement_failed(key)
            raise
        await bot.service.announced(*reply.announcements)


async def by_interaction(bot: Host, reply: Reply) -> None:
    """Post a game's announcement in a place reached only through interactions: as a
    follow-up of the newest interaction made there while its token can send; else it
    waits (:class:`Waiting`), and the players it calls are told by direct message where
    the bot may write to them."""
    assert reply.game_id is not None
    answering = bot.relay.usable(reply.game_id)
    lang = "en"
    if answering is not None:
        lang = Lang.of(answering.interaction.locale)  # (no server's language there)
        view = reply_view(reply, lang)
        try:
            sent = await answering.send(reply_parts(reply, lang, view=view))
        except discord.HTTPException as error:
            if not is_spent(error):
                raise
            bot.relay.forget(reply.game_id, answering)
        else:
            if sent is not None:
                await retire_previous(bot, reply, sent)
            return
    await tell_by_dm(bot, reply, lang)
    raise Waiting(reply.outbox)


async def tell_by_dm(bot: Host, reply: Reply, lang: str) -> None:
    """The players an announcement calls (whose turn it is), each by direct message, once:
    the card itself, so its buttons play from there. A user who takes no direct messages
    from the bot (no server shared with it, DMs closed) is not told: the game waits, and
    ``/games`` lists it."""
    key = reply.outbox
    if key is None or not reply.notify or not bot.relay.first_notice(key):
        return
    parts = reply_parts(reply, lang, view=reply_view(reply, lang))
    for user_id in reply.notify:
        try:
            user = await bot.fetch_user(int(user_id))
            await user.send(**parts.send_kwargs())
        except discord.HTTPException:
            log.info("game %s: %s takes no direct message from the bot", reply.game_id, user_id)


HISTORY_LIMIT = 50
"""How far back an announcement is looked for before it is posted again after a crash."""


async def already_posted(
    me: discord.abc.Snowflake | None, channel: discord.abc.Messageable, key: str
) -> bool:
    """Whether the announcement ``key`` (a game's, a tournament's) is among the channel's
    recent messages by the bot ``me`` (by the mark on its card)."""
    return await posted_as(me, channel, key) is not None


async def posted_as(
    me: discord.abc.Snowflake | None, channel: discord.abc.Messageable, key: str
) -> discord.Message | None:
    """The message that posted the announcement ``key`` among the channel's recent messages by
    the bot ``me``, or None."""
    async for message in channel.history(limit=HISTORY_LIMIT):
        if me is not None and message.author.id == me.id and announcement_in(message, key):
            return message
    return None


async def retire_previous(bot: Host, reply: Reply, message: discord.Message) -> None:
    """A game's new card was posted as ``message`` in the game's place: the card before it
    loses its buttons (they belong to the newest card alone) and the new card becomes the
    game's. Called after the post and before the post is reported: a crash between the two
    posts nothing again (the delivery loop finds the card by its mark) and repeats this."""
    if reply.game_id is None or not reply.public or not reply.actions:
        return
    if reply.event in LOBBY_EVENTS:
        return
    await hand_over(bot, reply.game_id, message, reply)


async def hand_over(
    bot: Host, game_id: int, message: discord.Message, reply: Reply | None = None
) -> None:
    """``message``, a card of game ``game_id`` posted in its place, becomes the game's card
    (its first one too: a player quick enough may have moved before it was recorded), unless
    a newer card is the game's already: then it gives up its own buttons. ``reply``: what it
    shows (a result also ends the game's line in the channel)."""
    async with bot.card_locks.setdefault(game_id, asyncio.Lock()):  # (cards posted at once)
        await _hand_over(bot, game_id, message, reply)


async def _hand_over(
    bot: Host, game_id: int, message: discord.Message, reply: Reply | None
) -> None:
    loc = await bot.service.play.place(game_id)
    if loc is None or str(message.channel.id) != (loc.thread_id or loc.channel_id):
        return  # posted elsewhere (a command typed in another channel): not the game's card
    if loc.interaction_only:
        # the bot cannot edit in the place: the older cards keep their buttons (a press on
        # one is checked by the service like any other)
        if not loc.message_id or int(loc.message_id) < message.id:
            await bot.service.play.set_game_location(
                game_id, loc.channel_id, loc.thread_id, str(message.id)
            )
        return
    if loc.message_id and int(loc.message_id) > message.id:
        # an older card (found by the delivery loop after a crash, or a game's first card
        # recorded after a quick player's move) when a newer one is out: it gives up its own
        await strip_buttons(message.channel, message.id, message)
        return
    if loc.message_id and loc.message_id != str(message.id):
        known = bot.newest_cards.get(game_id)
        await strip_buttons(message.channel, int(loc.message_id), known)
    await bot.service.play.set_game_location(
        game_id, loc.channel_id, loc.thread_id, str(message.id)
    )
    remember_card(bot.newest_cards, game_id, message)
    if reply is not None and loc.thread_id and loc.channel_id and finished(reply):
        guild = message.guild or getattr(message.channel, "guild", None)
        lang = await guild_lang(bot, guild.id if guild is not None else None)
        await say_ended(bot, reply, lang, int(loc.channel_id), int(loc.thread_id))


def finished(reply: Reply) -> bool:
    """Whether ``reply`` is a finished game's public card (its result card)."""
    return reply.public and reply.over


async def result_card(bot: Host, reply: Reply) -> Reply:
    """A finished game's card links its page on the site (when the site is public)."""
    return await bot.service.review.linked(reply) if finished(reply) else reply


async def say_ended(bot: Host, reply: Reply, lang: str, channel_id: int, thread_id: int) -> None:
    """A game that lived in a thread ended: the line its start left in the channel (the
    thread's starter message, whose id is the thread's) now says how it ended, so the channel
    has one line per game. A thread opened from no message (a tournament's game) has none."""
    starter = bot.get_partial_messageable(channel_id).get_partial_message(thread_id)
    try:
        await show_on(starter, announcement_parts(reply, lang))
    except discord.HTTPException:
        log.debug("game %s: no starter message to end in the channel", reply.game_id)


CARDS_KEPT = 2000
"""The newest cards kept in memory (one a game): taking the buttons off one of them needs no
read of it first."""


def remember_card(
    cards: dict[int, discord.Message], game_id: int, message: discord.Message
) -> None:
    """Keep ``message`` as ``game_id``'s newest card (the oldest kept is forgotten past
    :data:`CARDS_KEPT`)."""
    cards.pop(game_id, None)
    cards[game_id] = message
    while len(cards) > CARDS_KEPT:
        cards.pop(next(iter(cards)))


async def strip_buttons(
    channel: discord.abc.Messageable, message_id: int, known: discord.Message | None = None
) -> None:
    """Take the buttons off a posted card (or a message from before the cards), keeping all
    it shows: from ``known`` when it is that message as posted (no read), else as read back;
    always edited through the channel (an interaction's token does not last). A message gone
    or out of reach is left as it is."""
    try:
        old = known if known is not None and known.id == message_id else None
        if old is None:
            old = await channel.fetch_message(message_id)
        target = channel.get_partial_message(message_id)  # type: ignore[attr-defined]
        if not old.flags.components_v2:
            if old.components:
                await target.edit(view=None)
            return
        view = discord.ui.LayoutView.from_message(old, timeout=None)
        if _drop_buttons(view):
            await target.edit(view=view)
    except discord.HTTPException:
        log.info("could not take the buttons off message %s", message_id)


def _drop_buttons(view: discord.ui.LayoutView) -> bool:
    """Remove the action rows (and the separator above them) from a card; False: it had
    none."""
    dropped = False
    for item in list(view.children):
        if isinstance(item, discord.ui.ActionRow):
            view.remove_item(item)
            dropped = True
        elif isinstance(item, discord.ui.Container):
            for inner in list(item.children):
                if isinstance(inner, discord.ui.ActionRow | discord.ui.Separator):
                    item.remove_item(inner)
                    dropped = dropped or isinstance(inner, discord.ui.ActionRow)
    return dropped


def post_nonce(key: str) -> str:
    """A post's nonce (Discord keeps one message per nonce for a while; at most 25
    characters): its key, or a digest of a longer key."""
    return key if len(key) <= 25 else hashlib.sha256(key.encode()).hexdigest()[:25]


JUMP = "https://discord.com/channels/{guild}/{place}"
"""Discord's link to a channel or thread (a jump link)."""


def game_jump(loc: Location | None) -> str | None:
    """The jump link to a game's place (its thread, else its message in the channel), in its
    server or in direct messages (a DM or group DM: issue 48); None when it has no place."""
    if loc is None or not (loc.thread_id or loc.channel_id):
        return None
    place = loc.thread_id or f"{loc.channel_id}/{loc.message_id}"
    return JUMP.format(guild=loc.guild_id or "@me", place=place)


async def with_game_links(bot: Host, reply: Reply) -> Reply:
    """A tournament round's boards, each game's number a jump link to its thread (or its
    channel); other replies as they are."""
    guild = reply.params.get("guild")
    if reply.event is not Event.TOURNAMENT_ROUND or not guild:
        return reply
    lines = []
    for line in reply.lines:
        game_id = line.params.get("game_id")
        loc = await bot.service.play.place(game_id) if isinstance(game_id, int) else None
        if (jump := game_jump(loc)) is not None:
            line = replace(line, params={**line.params, "link": f"[#{game_id}]({jump})"})
        lines.append(line)
    return replace(reply, lines=tuple(lines))


async def elsewhere(bot: Host, responder: Responder, reply: Reply, lang: str) -> bool:
    """A tournament's round or final message that a command caused (a start, a withdrawal)
    goes to the tournament's channel, wherever the command was typed (True: posted there)."""
    home = reply.params.get("channel")
    if reply.event not in (Event.TOURNAMENT_ROUND, Event.TOURNAMENT_ENDED) or not home:
        return False
    if str(home) == str(responder.interaction.channel_id):
        return False
    kwargs = reply_parts(reply, lang, view=reply_view(reply, lang)).send_kwargs()
    if reply.outbox is not None:
        kwargs["nonce"] = reply.outbox
    await bot.get_partial_messageable(int(str(home))).send(**kwargs)
    return True


async def _deliver_one(
    bot: Host,
    responder: Responder,
    reply: Reply,
    public_lang: str,
    user_lang: str,
    me: str,
) -> None:
    if reply.event is Event.REPLAY:
        await deliver_replay(responder, reply, public_lang, user_lang)
        return
    reply = await with_game_links(bot, reply)
    if await elsewhere(bot, responder, reply, public_lang):
        return
    if reply.event in PRACTICE_EVENTS:
        await deliver_practice(responder, reply, user_lang, me)
        return
    if reply.event in (Event.REVIEW, Event.REVIEW_MOVE):
        await deliver_review(responder, reply, public_lang, user_lang)
        return
    if not reply.public:
        if reply.audience not in (None, me):
            log.debug("private reply %s for %s not deliverable here", reply.key, reply.audience)
            return
        view = reply_view(reply, user_lang) if reply.event is Event.PUZZLE else None
        await responder.send(reply_parts(reply, user_lang, ephemeral=True, view=view))
        return
    if reply.event is Event.STARTED and reply.game_id is not None:
        await start_game_message(bot, responder, reply, public_lang, user_lang)
        return
    reply = await result_card(bot, reply)
    view = reply_view(reply, public_lang) or page_view(reply.page, public_lang)
    if reply.event is Event.TOURNAMENT_SIGNUP and responder.is_component:
        # Join / Leave on a tournament's sign-up message: it changes in place
        await responder.update(reply_parts(reply, public_lang, view=view))
        return
    if reply.event is Event.LEADERBOARD and responder.is_component:
        # a page button: the page replaces the one it was pressed on
        await responder.update(reply_parts(reply, public_lang, view=view))
        return
    if reply.event in LOBBY_EVENTS and on_lobby(bot, responder, reply.game_id):
        if reply.event is Event.CANCELLED:
            view = None
        parts = reply_parts(reply, public_lang, view=view)
        await responder.update(parts)
        return
    if reply.event in LOBBY_EVENTS and await edit_lobby(bot, reply, public_lang):
        # a command changed the lobby: its message now says so; the command is answered
        # privately (a second copy of the lobby would be stale at once)
        await responder.send(reply_parts(reply, user_lang, ephemeral=True))
        return
    message = await responder.send(reply_parts(reply, public_lang, view=view))
    if message is not None:
        await retire_previous(bot, reply, message)
    if message is not None and reply.event is Event.TOURNAMENT_SIGNUP:
        await signup_sent(bot, reply, message, public_lang)
    if message is not None:  # a finished game's thread sleeps sooner (bot/discord/threads.py)
        await keep_asleep_as_due(bot, reply.game_id, message.channel)
    if message is not None and reply.game_id is not None and reply.event is Event.CREATED:
        await place_created(bot, reply.game_id, message, posts_there(responder.interaction))


def on_lobby(bot: Host, responder: Responder, game_id: int | None) -> bool:
    """True when the interaction is a button on the game's lobby or challenge message itself
    (not, say, a Rematch button on the previous game's end message)."""
    message = responder.interaction.message
    if not responder.is_component or message is None or game_id is None:
        return False
    loc = bot.service.play.location(game_id)
    return loc is not None and loc.message_id == str(message.id)


def lobby_message(
    bot: Host, game_id: int, guild_id: int | None = None
) -> discord.PartialMessage | None:
    """The message a lobby or challenge was posted as (until the game starts, the game's
    place is that message, in a channel or a thread), or None (also where the bot can change
    nothing by itself: a place reached only through interactions, where a press on the lobby
    changes it)."""
    loc = bot.service.play.location(game_id)
    where = None if loc is None else (loc.thread_id or loc.channel_id)
    if loc is None or where is None or not loc.message_id or loc.interaction_only:
        return None
    channel = bot.get_partial_messageable(int(where), guild_id=guild_id)
    return channel.get_partial_message(int(loc.message_id))


async def show_on(message: discord.PartialMessage, parts: MessageParts) -> None:
    """Replace what ``message`` shows (text, embed, files, buttons) with ``parts``."""
    await message.edit(
        content=parts.content,
        embed=parts.embed,
        attachments=parts.files,
        view=parts.view,
        allowed_mentions=parts.allowed_mentions,
    )


async def edit_lobby(bot: Host, reply: Reply, lang: str, parts: MessageParts | None = None) -> bool:
    """Show ``reply`` on the game's lobby message (buttons as the reply offers, none once the
    game is withdrawn); False when there is no such message to change."""
    if reply.game_id is None:
        return False
    message = lobby_message(bot, reply.game_id)
    if message is None:
        return False
    if parts is None:
        view = None if reply.event is Event.CANCELLED else reply_view(reply, lang)
        parts = reply_parts(reply, lang, view=view)
    try:
        await show_on(message, parts)
    except discord.HTTPException:
        log.warning("could not change the lobby message of game %s", reply.game_id)
        return False
    return True


async def signup_sent(bot: Host, reply: Reply, message: discord.Message, lang: str) -> None:
    """A tournament's sign-up reply was posted as ``message``: the first one (the tournament
    was just made) is remembered as its sign-up message; a later one (a command started it,
    called it off, took a player out) is shown on that sign-up message as well."""
    tournament = reply.params.get("tournament")
    if not reply.params.get("message"):
        if isinstance(tournament, int) and reply.key == "tournament.signup":
            await bot.service.compete.tournament_signup_posted(tournament, str(message.id))
        return
    await edit_signup(bot, reply, lang)


async def edit_signup(bot: Host, reply: Reply, lang: str) -> bool:
    """Show a tournament's sign-up reply on its sign-up message (``params["message"]``), with
    the buttons it offers (none once the tournament started or was called off); False when
    there is no such message to change."""
    message_id, channel_id = reply.params.get("message"), reply.params.get("channel")
    if not message_id or not channel_id:
        return False
    channel = bot.get_partial_messageable(int(str(channel_id)))
    message = channel.get_partial_message(int(str(message_id)))
    parts = reply_parts(reply, lang, view=reply_view(reply, lang))
    try:
        await show_on(message, parts)
    except discord.HTTPException:
        log.warning(
            "could not change the sign-up message of tournament %s", reply.params.get("tournament")
        )
        return False
    return True


async def deliver_replay(
    responder: Responder, reply: Reply, public_lang: str, user_lang: str
) -> None:
    """A replay (the GIF or one step), with its step buttons. A button pressed on a replay
    replaces it in place, unless this user's replay differs from the spectator's one on the
    message (their own secret setup): theirs then comes to them alone, as a new message."""
    inter = responder.interaction
    message = inter.message if responder.is_component else None
    own = message is not None and message.flags.ephemeral
    private = own or not reply.public
    if not reply.public and reply.audience not in (None, str(inter.user.id)):
        return
    lang = user_lang if private else public_lang
    view = reply_view(reply, lang)
    parts = reply_parts(reply, lang, ephemeral=private, view=view)
    if message is not None and (reply.public or own):
        await responder.update(parts)
    else:
        await responder.send(parts)


async def deliver_practice(responder: Responder, reply: Reply, lang: str, me: str) -> None:
    """A lesson (or the lessons menu), privately, with its buttons: a button pressed on the
    lesson's own message replaces it in place; anything else answers with a new one."""
    if reply.audience not in (None, me):
        return
    parts = reply_parts(reply, lang, ephemeral=True, view=reply_view(reply, lang))
    message = responder.interaction.message if responder.is_component else None
    if message is not None and message.flags.ephemeral:
        await responder.update(parts)
    else:
        await responder.send(parts)


async def deliver_review(
    responder: Responder, reply: Reply, public_lang: str, user_lang: str
) -> None:
    """The computer's review, or a ply's better move, with its buttons: always a new message
    (a review shown in the thread stays), private when the reply is, and a better move also
    when its button was pressed on a private message."""
    inter = responder.interaction
    if not reply.public and reply.audience not in (None, str(inter.user.id)):
        return
    message = inter.message if responder.is_component else None
    asked_privately = message is not None and message.flags.ephemeral
    private = not reply.public or (reply.event is Event.REVIEW_MOVE and asked_privately)
    lang = user_lang if private else public_lang
    view = reply_view(reply, lang)
    await responder.send(reply_parts(reply, lang, ephemeral=private, view=view))


async def place_created(
    bot: Host, game_id: int, message: discord.Message, posts: bool = True
) -> None:
    """Remember where a lobby or challenge was posted (a channel, or a game's thread);
    ``posts``: whether the bot may post there (not: a place reached only by interactions)."""
    channel = message.channel
    if not posts:
        await bot.service.play.set_game_location(
            game_id, str(channel.id), None, str(message.id), reach=INTERACTION_ONLY
        )
        return
    if isinstance(channel, discord.Thread):
        parent = str(channel.parent_id) if channel.parent_id else str(channel.id)
        await bot.service.play.set_game_location(game_id, parent, str(channel.id), str(message.id))
    else:
        await bot.service.play.set_game_location(game_id, str(channel.id), None, str(message.id))


async def start_game_message(
    bot: Host, responder: Responder, reply: Reply, lang: str, user_lang: str = "en"
) -> None:
    """A game just started: its lobby or challenge message (if any) becomes the announcement,
    without buttons, and the game opens its thread from it (unless the server keeps games in
    the channel, or the lobby was in a thread: then the game lives there)."""
    reply = await bot.service.review.linked(reply)  # the game's page, when the site is public
    assert reply.game_id is not None
    inter = responder.interaction
    turn = reply_parts(reply, lang, view=reply_view(reply, lang))
    announce = announcement_parts(reply, lang)
    lobby_place = bot.service.play.location(reply.game_id)  # before the game's place moves
    here = on_lobby(bot, responder, reply.game_id)
    lobby = None if here else lobby_message(bot, reply.game_id, inter.guild_id)
    if here:
        await responder.update(announce)
    elif lobby is not None and not await edit_lobby(bot, reply, lang, announce):
        lobby = None
    if lobby is not None:
        # the interaction came from elsewhere (/join, a Rematch button): answered privately
        await responder.send(reply_parts(reply, user_lang, ephemeral=True, with_image=False))
    channel = inter.channel
    thread_id = lobby_place.thread_id if lobby_place is not None and lobby else None
    if thread_id is None and isinstance(channel, discord.Thread) and lobby is None:
        thread_id = str(channel.id)
    if (
        thread_id is not None
        or not isinstance(channel, discord.TextChannel)
        or not posts_there(inter)
    ):
        # the game lives where it was started: a thread (or a channel that takes no threads,
        # or a place the bot reaches only through interactions: issue 48)
        if lobby is not None:
            target = bot.get_partial_messageable(int(thread_id or lobby.channel.id))
            message: discord.Message | None = await target.send(**turn.send_kwargs())
        else:
            message = await responder.send(turn)
        if message is not None:
            place = str(message.channel.id)
            reach = None if posts_there(inter) else INTERACTION_ONLY
            await bot.service.play.set_game_location(
                reply.game_id, place, thread_id, str(message.id), reach=reach
            )
        return
    if await bot.service.play.private_place(reply.game_id):
        await start_private_thread(bot, responder, reply, lang, turn)
        return
    if not await guild_threads(bot, inter.guild_id):
        if lobby is not None:
            sent = await channel.send(**turn.send_kwargs())
        else:
            sent_or_none = await responder.send(turn)
            if sent_or_none is None:
                return
            sent = sent_or_none
        await bot.service.play.set_game_location(reply.game_id, str(channel.id), None, str(sent.id))
        return
    # The announcement in the channel (text only); the board and buttons go to the thread.
    starter: discord.Message | discord.PartialMessage | None = lobby
    if here:
        starter = inter.message
    elif starter is None and reply.params.get("tournament") is None:
        # (a tournament's game gets no line of its own: the round's post links it)
        starter = await responder.send(announce)
        if starter is not None and starter.guild is None:
            # a followup (several games started at once: a tournament's round) comes back
            # without its guild; the channel's own handle on it can open the thread
            starter = channel.get_partial_message(starter.id)
    name = thread_name(reply, lang)

    async def opened() -> discord.Thread:
        if starter is not None:
            return await starter.create_thread(name=name, auto_archive_duration=10080)
        return await channel.create_thread(
            name=name, type=discord.ChannelType.public_thread, auto_archive_duration=10080
        )

    await open_game_thread(bot, reply.game_id, channel, turn, opened)


def thread_name(reply: Reply, lang: str) -> str:
    title = reply.params["game"]
    return t("thread.name", lang, game=reply.game_id, title=f"{title.ja} {title.en}")[:100]


async def open_game_thread(
    bot: Host,
    game_id: int,
    channel: discord.TextChannel,
    turn: MessageParts,
    opened: Callable[[], Awaitable[discord.Thread]],
) -> None:
    """Open the game's thread with ``opened`` and post its turn there; where no thread may be
    opened, the game (already running) lives in the channel."""
    try:
        thread = await opened()
    except discord.HTTPException:
        log.warning("could not open a thread for game %s; using the channel", game_id)
        sent = await channel.send(**turn.send_kwargs())
        await bot.service.play.set_game_location(game_id, str(channel.id), None, str(sent.id))
        return
    # The game lives in its thread from now on: recorded before its first post there, so
    # whatever the game posts next (a reminder, the computer's move, an announcement) finds
    # the thread even if it comes before this handler records the turn message.
    await bot.service.play.set_game_location(game_id, str(channel.id), str(thread.id), None)
    sent = await thread.send(**turn.send_kwargs())
    await hand_over(bot, game_id, sent)


async def start_private_thread(
    bot: Host, responder: Responder, reply: Reply, lang: str, turn: MessageParts
) -> None:
    """A game only its player may watch (a daily deal): the channel is told in text that it
    began; the board and every move go to a private thread of the player's, whatever the
    server's thread setting (in the channel, the day's draws would be everyone's to see).
    :func:`play_daily` made sure the bot may open one here."""
    assert reply.game_id is not None
    inter = responder.interaction
    channel = inter.channel
    if not isinstance(channel, discord.TextChannel):  # a direct message: private already
        sent = await responder.send(turn)
        where = str(channel.id) if channel is not None else None
        await bot.service.play.set_game_location(
            reply.game_id, where, None, str(sent.id) if sent else None
        )
        return
    await responder.send(announcement_parts(reply, lang))

    async def opened() -> discord.Thread:
        thread = await channel.create_thread(
            name=thread_name(reply, lang),
            type=discord.ChannelType.private_thread,
            invitable=False,
            auto_archive_duration=10080,
        )
        await thread.add_user(inter.user)
        return thread

    await open_game_thread(bot, reply.game_id, channel, turn, opened)


async def _action(interaction: discord.Interaction[Any], name: str) -> Action | None:
    """The action a button names; one that no longer exists is answered with an apology."""
    try:
        return Action(name)
    except ValueError:
        log.warning("unknown button action %r", name)
        lang = Lang.of(interaction.locale)
        await interaction.response.send_message(t("error.apology", lang), ephemeral=True)
        return None


async def run_action(
    interaction: discord.Interaction[Any], name: str, target: Target, arg: str | None
) -> None:
    """A button was pressed (any button: a game's, a lesson's, a puzzle's, a tournament's, in
    any custom id form ever posted): run its action's use case through the table, or first ask
    for the text its row takes (a move, a secret setup)."""
    bot = host_of(interaction)
    action = await _action(interaction, name)
    if action is None:
        return
    if ACTIONS[action].takes is Takes.TEXT:
        lang = Lang.of(interaction.locale, await guild_lang(bot, interaction.guild_id))
        await interaction.response.send_modal(MoveModal(action, target, lang))
        return
    guild = str(interaction.guild_id) if interaction.guild_id else None
    press = Press(target, service_user(interaction.user), arg, interaction.filesize_limit, guild)
    await respond(interaction, lambda: bot.service.act(action, press))


async def play_daily(interaction: discord.Interaction[Any]) -> None:
    """Today's deal for the user: a new game (with its thread), or the board of today's one."""
    service = host_of(interaction).service
    user = service_user(interaction.user)
    guild = str(interaction.guild_id) if interaction.guild_id else None
    if isinstance(interaction.channel, discord.Thread):
        lang = Lang.of(interaction.locale)
        await interaction.response.send_message(t("daily.not_in_thread", lang), ephemeral=True)
        return
    if not posts_there(interaction) or (
        guild is not None and not interaction.app_permissions.create_private_threads
    ):
        # (a DM or group DM between people would show the day's draws to the others)
        lang = Lang.of(interaction.locale)
        await interaction.response.send_message(t("daily.needs_private", lang), ephemeral=True)
        return
    await respond(interaction, lambda: service.play.daily(user, guild))


async def show_leaderboard(
    interaction: discord.Interaction[Any],
    game_type: str,
    scope: Scope,
    page: int = 1,
    provisional: bool = False,
) -> None:
    """A page of a leaderboard (``/leaderboard``, or a page button)."""
    service = host_of(interaction).service
    guild = str(interaction.guild_id) if interaction.guild_id else None
    await respond(
        interaction,
        lambda: service.compete.leaderboard(game_type, guild, scope, page, provisional=provisional),
    )


async def submit_text(
    interaction: discord.Interaction[Any], action: Action, target: Target, text: str
) -> None:
    """The text typed in the modal a button's action asked for (a move, a secret setup)."""
    service = host_of(interaction).service
    press = Press(target, service_user(interaction.user), text)
    await respond(interaction, lambda: service.act(action, press))
