"""Run one use case for an interaction and answer it in time, in the right place.

Every command and button goes through :func:`respond`: the service call starts at once; if it
has not finished within :data:`BUDGET` seconds the interaction is deferred (Discord allows 3), so no
interaction is ever left unanswered while a picture renders. Refusals become ephemeral messages in
the user's language; public replies go to the channel, and a game that starts gets its thread.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.discord.format import MessageParts, refusal_text, reply_parts
from bot.discord.texts import lang_of_locale, t
from bot.discord.views import MoveModal, bot_of, game_view, split_play
from bot.service import Refusal, Reply, User

if TYPE_CHECKING:
    from bot.discord.client import BanmenBot

log = logging.getLogger("banmen.discord.actions")

BUDGET = 1.2
"""Seconds a use case may take before the interaction is deferred."""

Work = Callable[[], Awaitable["Reply | Sequence[Reply]"]]

# Button actions that are a plain use case of the service: action -> GameService method name.
SERVICE_ACTIONS: dict[str, str] = {
    "join": "join",
    "leave": "leave",
    "start": "start",
    "cancel": "cancel",
    "resign": "resign",
    "offer_draw": "offer_draw",
    "accept_draw": "accept_draw",
    "decline_draw": "decline_draw",
    "takeback": "request_takeback",
    "accept_takeback": "accept_takeback",
    "decline_takeback": "decline_takeback",
}
VIEWER_ACTIONS: dict[str, str] = {"board": "board", "moves": "moves", "record": "record"}
STARTED = "game.started"
CANCELLED = "game.cancelled"
LOBBY_UPDATES = frozenset({"game.joined", "game.left", "game.cancelled"})
"""Replies that replace the lobby or challenge message they were pressed on."""


MOVE_BUTTONS = 6
"""When the player to move has at most this many legal moves, each gets a button."""


def turn_actions(bot: BanmenBot, reply: Reply) -> tuple[str, ...]:
    """The reply's actions, plus one ``play:<move>`` button per move when there are few.

    Generic (no rule here): a start-line choice, a Draw / Stay choice or a forced pass shows up
    as buttons because the legal moves are few, whatever the game.
    """
    actions = reply.actions
    if reply.game_id is None or "move" not in actions or len(reply.to_move) != 1:
        return actions
    names = bot.service.legal_move_choices(reply.game_id, reply.to_move[0], "", MOVE_BUTTONS + 1)
    ply = bot.service.log_length(reply.game_id)
    if ply is None or not 0 < len(names) <= MOVE_BUTTONS or any(len(n) > 50 for n in names):
        return actions
    # The log length goes with the move: a button left on an older turn message is refused
    # ("the position has changed") instead of playing into the current position.
    return tuple(f"play:{ply}|{n}" for n in names) + actions


def service_user(user: discord.abc.User) -> User:
    return User(str(user.id), user.display_name)


async def guild_lang(bot: BanmenBot, guild_id: int | None) -> str:
    """The server's language for public messages (its setting; English by default)."""
    if guild_id is None:
        return "en"
    settings = await bot.service.guild_settings(str(guild_id))
    return str(getattr(settings, "lang", "en") or "en")


async def guild_threads(bot: BanmenBot, guild_id: int | None) -> bool:
    if guild_id is None:
        return False
    settings = await bot.service.guild_settings(str(guild_id))
    value = getattr(settings, "threads", True)
    return value not in (False, "off", "false", "0", 0)


class Responder:
    """Answers one interaction: the first message as the response, the rest as followups."""

    def __init__(self, interaction: discord.Interaction[Any]) -> None:
        self.interaction = interaction
        self.deferred_public = False  # a slash command deferred with "thinking" (public)
        self.original_used = False

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
        message: discord.Message = await inter.followup.send(
            **kwargs, ephemeral=parts.ephemeral, wait=True
        )
        return message

    async def update(self, parts: MessageParts, *, keep_components: bool = False) -> None:
        """Replace the message the button was on (a lobby or challenge that changed)."""
        inter = self.interaction
        edit: dict[str, Any] = {
            "content": parts.content,
            "embed": parts.embed,
            "attachments": parts.files,
            "allowed_mentions": parts.allowed_mentions,
        }
        if not keep_components:
            edit["view"] = parts.view
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


async def respond(
    interaction: discord.Interaction[Any], work: Work, *, keep_components: bool = False
) -> None:
    """Run ``work`` (a service call) and deliver what it returns, deferring if it is slow."""
    bot = bot_of(interaction)
    responder = Responder(interaction)
    task = asyncio.ensure_future(work())
    done, _ = await asyncio.wait({task}, timeout=BUDGET)
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
        lang = lang_of_locale(interaction.locale, await guild_lang(bot, interaction.guild_id))
        await responder.refuse(refusal_text(refusal, lang))
        return
    replies = [result] if not isinstance(result, Sequence) else list(result)
    await deliver(bot, responder, replies, keep_components=keep_components)


async def deliver(
    bot: BanmenBot,
    responder: Responder,
    replies: Sequence[Reply],
    *,
    keep_components: bool = False,
) -> None:
    """Send each reply where it belongs: public ones to everyone, private ones to their user."""
    inter = responder.interaction
    public_lang = await guild_lang(bot, inter.guild_id)
    user_lang = lang_of_locale(inter.locale, public_lang)
    me = str(inter.user.id)
    for reply in replies:
        if not reply.public:
            audience = getattr(reply, "audience", None)
            if audience not in (None, me):
                log.debug("private reply %s for %s not deliverable here", reply.key, audience)
                continue
            await responder.send(reply_parts(reply, user_lang, ephemeral=True))
            continue
        if reply.key == STARTED and reply.game_id is not None:
            await start_game_message(bot, responder, reply, public_lang)
            continue
        view = game_view(reply.game_id, turn_actions(bot, reply), public_lang)
        if reply.key in LOBBY_UPDATES and responder.is_component:
            if reply.key == CANCELLED:
                view = None
            parts = reply_parts(reply, public_lang, view=view)
            keep = keep_components and reply.key != CANCELLED
            await responder.update(parts, keep_components=keep)
            continue
        message = await responder.send(reply_parts(reply, public_lang, view=view))
        if message is not None and reply.game_id is not None and reply.key == "game.created":
            await bot.service.set_game_location(
                reply.game_id, str(message.channel.id), None, str(message.id)
            )
    await responder.finish()


async def start_game_message(bot: BanmenBot, responder: Responder, reply: Reply, lang: str) -> None:
    """A game just started: open its thread (unless the server keeps games in the channel)."""
    assert reply.game_id is not None
    inter = responder.interaction
    channel = inter.channel
    view = game_view(reply.game_id, turn_actions(bot, reply), lang)
    in_thread = isinstance(channel, discord.Thread)
    if in_thread or not isinstance(channel, discord.TextChannel):
        message = await responder.send(reply_parts(reply, lang, view=view))
        if message is not None:
            await bot.service.set_game_location(
                reply.game_id,
                str(message.channel.id),
                str(message.channel.id) if in_thread else None,
                str(message.id),
            )
        return
    if not await guild_threads(bot, inter.guild_id):
        message = await responder.send(reply_parts(reply, lang, view=view))
        if message is not None:
            await bot.service.set_game_location(
                reply.game_id, str(channel.id), None, str(message.id)
            )
        return
    # The announcement in the channel (text only); the board and buttons go to the thread.
    announce = MessageParts(content=None, embed=reply_parts(reply, lang).embed)
    assert announce.embed is not None
    announce.embed.set_image(url=None)
    starter = inter.message if responder.is_component else None
    if starter is not None:
        await responder.update(announce)  # the lobby becomes the announcement
    else:
        starter = await responder.send(announce)
    title = await thread_title(bot, reply.game_id)
    name = t("thread.name", lang, game=reply.game_id, title=title)[:100]
    turn = reply_parts(reply, lang, view=view)
    try:
        if starter is not None:
            thread = await starter.create_thread(name=name, auto_archive_duration=10080)
        else:
            thread = await channel.create_thread(
                name=name, type=discord.ChannelType.public_thread, auto_archive_duration=10080
            )
    except discord.HTTPException:
        # No permission for threads here: the game is already running, so it lives in the channel.
        log.warning("could not open a thread for game %s; using the channel", reply.game_id)
        sent = await channel.send(**turn.send_kwargs())
        await bot.service.set_game_location(reply.game_id, str(channel.id), None, str(sent.id))
        return
    sent = await thread.send(**turn.send_kwargs())
    await bot.service.set_game_location(
        reply.game_id, str(channel.id), str(thread.id), str(sent.id)
    )


async def thread_title(bot: BanmenBot, game_id: int) -> str:
    """The game's title for its thread name (both scripts: players may read either)."""
    from engines.registry import get_game

    row = await bot.service.game_info(game_id)
    game = get_game(row.game_type)
    return f"{game.title_ja} {game.title_en}"


async def run_action(
    interaction: discord.Interaction[Any], game_id: int, action: str, arg: str | None
) -> None:
    """A button was pressed: run its use case (or open the move / setup modal)."""
    bot = bot_of(interaction)
    service = bot.service
    user = service_user(interaction.user)
    if action in ("move", "setup"):
        lang = lang_of_locale(interaction.locale, await guild_lang(bot, interaction.guild_id))
        await interaction.response.send_modal(MoveModal(game_id, lang, setup=action == "setup"))
        return
    if action in ("accept", "decline"):
        from bot.discord.cogs.play import accept_challenge, decline_challenge

        handler = accept_challenge if action == "accept" else decline_challenge
        await handler(interaction, game_id, arg)
        return
    if action in ("play", "pass"):
        ply, text = split_play(arg) if action == "play" else (None, "pass")
        await respond(interaction, lambda: service.play(game_id, user, text, ply=ply))
        return
    if action in VIEWER_ACTIONS:
        method = getattr(service, VIEWER_ACTIONS[action])
        await respond(interaction, lambda: method(game_id, user))
        return
    name = SERVICE_ACTIONS.get(action)
    if name is None:
        log.warning("unknown button action %r for game %s", action, game_id)
        lang = lang_of_locale(interaction.locale)
        await interaction.response.send_message(t("error.apology", lang), ephemeral=True)
        return
    method = getattr(service, name)
    await respond(interaction, lambda: method(game_id, user))


async def submit_text(
    interaction: discord.Interaction[Any], game_id: int, text: str, *, setup: bool
) -> None:
    """The move (or secret setup) typed in the modal."""
    service = bot_of(interaction).service
    user = service_user(interaction.user)
    if setup:
        await respond(interaction, lambda: service.setup(game_id, user, text))
    else:
        await respond(interaction, lambda: service.play(game_id, user, text))
