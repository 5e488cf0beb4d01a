"""``/play``: challenges and lobbies (対局の申し込みと募集).

``/play <game>`` has one subcommand per registered game, built from the engine registry at load
time, so a new game appears without touching this file; each game's options are choices. With
no opponent the bot opens a lobby (Join / Start / Cancel); naming opponents sends them a challenge
with Accept / Decline buttons that only they can use.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Awaitable
from datetime import UTC, datetime, timedelta
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.discord.actions import Responder, guild_lang, respond, service_user
from bot.discord.client import BanmenBot
from bot.discord.cogs.stats import play_daily
from bot.discord.format import allowed_mentions_for, reply_parts
from bot.discord.texts import lang_of_locale, t
from bot.discord.views import GameButton, GameView, bot_of
from bot.service import Reply, User
from engines.core import Game, OptionSpec
from engines.registry import all_games

log = logging.getLogger("banmen.discord.play")

_P = inspect.Parameter


def _option_param(index: int) -> str:
    return f"option_{index}"


def _clip(text: str, limit: int = 100) -> str:
    """Discord allows 100 characters in a description."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _choices(spec: OptionSpec) -> list[app_commands.Choice[str]]:
    out = []
    for value in spec.values[:25]:
        name = f"{value} (default)" if value == spec.default else value
        ja = f"{value}（既定）" if value == spec.default else value
        out.append(app_commands.Choice(name=_(name, ja=ja), value=value))
    return out


def play_command(cog: PlayCog, game: Game[Any]) -> app_commands.Command[Any, ..., None]:
    """The ``/play <game-id>`` subcommand, its parameters generated from the game's facts."""
    params = [_P("interaction", _P.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction)]
    describe: dict[str, _] = {}
    rename: dict[str, _] = {}
    choices: dict[str, list[app_commands.Choice[str]]] = {}

    def add(name: str, annotation: Any, description: _) -> None:
        params.append(_P(name, _P.KEYWORD_ONLY, annotation=annotation, default=None))
        describe[name] = description

    add("opponent", discord.Member | None, _("The player you challenge (none: an open lobby)."))
    if max(game.player_counts) >= 3:
        add("opponent2", discord.Member | None, _("The third player (three-player games)."))
    if len(game.player_counts) > 1:
        add("players", str | None, _("How many players."))
        choices["players"] = [
            app_commands.Choice(name=str(n), value=str(n)) for n in game.player_counts
        ]
    add(
        "clock",
        str | None,
        _("Time per move: none, live:5 (minutes), corr:3 (days), bank:7d+1d/14d."),
    )
    daily = game.id == cog.bot.service.daily_game
    if daily:
        add(
            "daily",
            bool | None,
            _("Play today's deal instead (the same for everyone, once a day, UTC)."),
        )
    specs = list(game.options)[: 25 - len(params) + 1]
    for i, spec in enumerate(specs):
        pname = _option_param(i)
        add(pname, str | None, _(_clip(spec.help.en), ja=_clip(spec.help.ja)))
        rename[pname] = _(spec.name)
        choices[pname] = _choices(spec)

    async def callback(interaction: discord.Interaction[Any], **values: Any) -> None:
        if daily and values.get("daily"):
            await play_daily(interaction)
            return
        options = {
            spec.name: values[_option_param(i)]
            for i, spec in enumerate(specs)
            if values.get(_option_param(i)) is not None
        }
        invite = [m for m in (values.get("opponent"), values.get("opponent2")) if m is not None]
        players = int(values["players"]) if values.get("players") else None
        await cog.create(interaction, game, invite, players, values.get("clock"), options)

    callback.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    callback.__name__ = game.id.replace("-", "_")
    callback.__qualname__ = f"play_command.<locals>.{callback.__name__}"
    fn: Any = app_commands.describe(**describe)(callback)
    if rename:
        fn = app_commands.rename(**rename)(fn)
    if choices:
        fn = app_commands.choices(**choices)(fn)
    return app_commands.Command(
        name=game.id,
        description=_(f"{game.title_en} / {game.title_ja}"[:100], ja=game.title_ja[:100]),
        callback=fn,
    )


class PlayCog(commands.Cog):
    """Creating games: the ``/play`` group."""

    def __init__(self, bot: BanmenBot) -> None:
        self.bot = bot
        self.group = app_commands.Group(
            name=_("play"),
            description=_("Start a game: challenge players, or open a lobby anyone can join."),
            guild_only=True,
        )
        for game in all_games()[:25]:
            self.group.add_command(play_command(self, game))

    async def cog_load(self) -> None:
        self.bot.tree.add_command(self.group)

    async def cog_unload(self) -> None:
        self.bot.tree.remove_command(self.group.name)

    @app_commands.command(name=_("join"), description=_("Join an open game (a lobby)."))
    @app_commands.describe(game=_("The game number (e.g. 12)."))
    @app_commands.guild_only()
    async def join(self, interaction: discord.Interaction[Any], game: int) -> None:
        user = service_user(interaction.user)
        await respond(interaction, lambda: self.bot.service.join(game, user))

    async def create(
        self,
        interaction: discord.Interaction[Any],
        game: Game[Any],
        invite: list[discord.Member],
        players: int | None,
        clock: str | None,
        options: dict[str, str],
    ) -> None:
        service = self.bot.service
        me = service_user(interaction.user)
        need = players if players is not None else max(game.player_counts[0], len(invite) + 1)
        guild = str(interaction.guild_id) if interaction.guild_id else None
        channel = str(interaction.channel_id) if interaction.channel_id else None
        if any(m.bot or m.id == interaction.user.id for m in invite):
            lang = lang_of_locale(interaction.locale)
            await interaction.response.send_message(t("error.bad_opponent", lang), ephemeral=True)
            return

        def create_game() -> Awaitable[Reply]:
            return service.create_game(
                me,
                game.id,
                guild_id=guild,
                channel_id=channel,
                open_seats=max(0, need - 1),
                players=players,
                clock=clock,
                options=options,
            )

        if not invite:
            await respond(interaction, create_game)
            return
        # A challenge: seats stay open, and only the named players may take them.
        reply = await create_game()
        assert reply.game_id is not None
        lang = await guild_lang(self.bot, interaction.guild_id)
        ids = ",".join(str(m.id) for m in invite)
        view = GameView(reply.game_id, (), lang)
        view.add_item(GameButton("accept", reply.game_id, ids, label=t("button.accept", lang)))
        view.add_item(GameButton("decline", reply.game_id, ids, label=t("button.decline", lang)))
        parts = reply_parts(reply, lang, view=view)
        parts.content = " ".join(m.mention for m in invite)
        parts.allowed_mentions = allowed_mentions_for([str(m.id) for m in invite])
        message = await Responder(interaction).send(parts)
        if message is not None:
            await service.set_game_location(
                reply.game_id, str(message.channel.id), None, str(message.id)
            )


CHALLENGE_TTL = timedelta(hours=24)
"""A challenge nobody answered within this time expires (checked when someone answers it)."""


async def accept_challenge(
    interaction: discord.Interaction[Any], game_id: int, invited: str | None
) -> None:
    """An invited player accepts: they take a seat (the game starts when all have).

    The challenge's age comes from the stored game, so expiry survives restarts.
    """
    if str(interaction.user.id) not in (invited or "").split(","):
        lang = lang_of_locale(interaction.locale)
        await interaction.response.send_message(t("error.not_for_you", lang), ephemeral=True)
        return
    service = bot_of(interaction).service
    row = await service.game_info(game_id)
    age = service.clock.now() - datetime.fromtimestamp(row.created_ms / 1000, UTC)
    if row.status == "open" and age > CHALLENGE_TTL:
        creator = User(str(row.creator_id), "")
        await respond(interaction, lambda: service.cancel(game_id, creator))
        return
    user = service_user(interaction.user)
    await respond(interaction, lambda: service.join(game_id, user), keep_components=True)


async def decline_challenge(
    interaction: discord.Interaction[Any], game_id: int, invited: str | None
) -> None:
    """An invited player declines: the challenge is withdrawn for its creator."""
    if str(interaction.user.id) not in (invited or "").split(","):
        lang = lang_of_locale(interaction.locale)
        await interaction.response.send_message(t("error.not_for_you", lang), ephemeral=True)
        return
    service = bot_of(interaction).service
    row = await service.game_info(game_id)
    creator = User(str(row.creator_id), "")
    await respond(interaction, lambda: service.cancel(game_id, creator))


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, BanmenBot)
    await bot.add_cog(PlayCog(bot))


__all__ = ["PlayCog", "accept_challenge", "decline_challenge"]
