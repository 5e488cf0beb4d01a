"""``/play``: challenges and lobbies (対局の申し込みと募集).

``/play <game>`` has one subcommand per registered game, built from the engine registry at load
time, so a new game appears without touching this file; each game's options are choices. With
no opponent the bot opens a lobby (Join / Start / Cancel); naming opponents sends them a challenge
with Accept / Decline buttons that only they can use. Naming the bot itself as an opponent (or
giving ``level``, or ``ai_seats`` in a three-player game) seats the computer player at that level.
"""

from __future__ import annotations

import inspect
import logging
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.discord.actions import play_daily, respond, service_user
from bot.discord.client import BanmenBot
from bot.i18n import Lang, t
from bot.service import AI_DEFAULT_LEVEL, AI_LEVELS, GameInfo, OptionInfo, catalogue

log = logging.getLogger("banmen.discord.play")

_P = inspect.Parameter


def _option_param(index: int) -> str:
    return f"option_{index}"


def _clip(text: str, limit: int = 100) -> str:
    """Discord allows 100 characters in a description."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _choices(spec: OptionInfo) -> list[app_commands.Choice[str]]:
    """Each value of an option, read in English and Japanese (the default marked)."""
    out = []
    for value, label in list(zip(spec.values, spec.labels, strict=True))[:25]:
        en, ja = label.en, label.ja
        if value == spec.default:
            en, ja = f"{en} (default)", f"{ja}（既定）"
        out.append(app_commands.Choice(name=_(en[:100], ja=ja[:100]), value=value))
    return out


def play_command(cog: PlayCog, game: GameInfo) -> app_commands.Command[Any, ..., None]:
    """The ``/play <game-id>`` subcommand, its parameters generated from the game's facts."""
    params = [_P("interaction", _P.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction)]
    describe: dict[str, _] = {}
    rename: dict[str, _] = {}
    choices: dict[str, list[app_commands.Choice[str]]] = {}

    def add(name: str, annotation: Any, description: _) -> None:
        params.append(_P(name, _P.KEYWORD_ONLY, annotation=annotation, default=None))
        describe[name] = description

    add(
        "opponent",
        discord.Member | discord.User | None,
        _("The player you challenge (none: an open lobby; this bot: the computer)."),
    )
    if max(game.player_counts) >= 3:
        add(
            "opponent2",
            discord.Member | discord.User | None,
            _("The third player (three-player games)."),
        )
    if max(game.player_counts) >= 2:
        level = app_commands.Range[int, AI_LEVELS[0], AI_LEVELS[-1]]
        add(
            "level",
            level | None,
            _("Play the computer at this level, 1 (weakest) to 8 (strongest)."),
        )
    if max(game.player_counts) >= 3:
        seats = app_commands.Range[int, 1, max(game.player_counts) - 1]
        add(
            "ai_seats",
            seats | None,
            _("How many seats the computer takes (the others: players)."),
        )
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
    if max(game.player_counts) >= 2:
        add("rated", bool | None, _("Rated (the default between people); false: a casual game."))
    daily = game.daily
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
        rename[pname] = _(spec.name, ja=spec.label.ja)
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
        computer = Computer(values.get("level"), values.get("ai_seats"))
        await cog.create(
            interaction,
            game,
            invite,
            players,
            values.get("clock"),
            options,
            values.get("rated"),
            computer,
        )

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
        description=_(game.label[:100], ja=game.title.ja[:100]),
        callback=fn,
    )


class Computer:
    """What ``/play`` asked of the computer player: its ``level`` and ``ai_seats``."""

    def __init__(self, level: int | None = None, seats: int | None = None) -> None:
        self.level = level
        self.seats = seats or 0

    def levels(self, named_bot: int) -> list[int]:
        """One level per computer seat: the bot named as an opponent, ``ai_seats``, or, with
        only a ``level`` given, one."""
        count = named_bot + self.seats or (1 if self.level is not None else 0)
        return [self.level or AI_DEFAULT_LEVEL] * count


class PlayCog(commands.Cog):
    """Creating games: the ``/play`` group."""

    def __init__(self, bot: BanmenBot) -> None:
        self.bot = bot
        self.group = app_commands.Group(
            name=_("play"),
            description=_("Start a game: challenge players, or open a lobby anyone can join."),
        )
        for game in catalogue()[:25]:
            self.group.add_command(play_command(self, game))

    async def cog_load(self) -> None:
        self.bot.tree.add_command(self.group)

    async def cog_unload(self) -> None:
        self.bot.tree.remove_command(self.group.name)

    @app_commands.command(name=_("join"), description=_("Join an open game (a lobby)."))
    @app_commands.describe(game=_("The game number (e.g. 12)."))
    async def join(self, interaction: discord.Interaction[Any], game: int) -> None:
        user = service_user(interaction.user)
        await respond(interaction, lambda: self.bot.service.play.join(game, user))

    async def create(
        self,
        interaction: discord.Interaction[Any],
        game: GameInfo,
        invite: list[discord.Member | discord.User],
        players: int | None,
        clock: str | None,
        options: dict[str, str],
        rated: bool | None = None,
        computer: Computer | None = None,
    ) -> None:
        """A lobby (no opponent named) or a challenge: the service keeps a seat for each named
        player, and only they can accept or decline it. Computer seats are filled at once."""
        me_bot = self.bot.user
        named_bot = sum(1 for m in invite if me_bot is not None and m.id == me_bot.id)
        invite = [m for m in invite if me_bot is None or m.id != me_bot.id]
        if any(m.bot for m in invite):
            lang = Lang.of(interaction.locale)
            await interaction.response.send_message(t("error.bad_opponent", lang), ephemeral=True)
            return
        ai = (computer or Computer()).levels(named_bot)
        service = self.bot.service
        me = service_user(interaction.user)
        invited = [service_user(m) for m in invite]
        seated = len(invite) + 1 + len(ai)
        need = players if players is not None else max(game.player_counts[0], seated)
        guild = str(interaction.guild_id) if interaction.guild_id else None
        channel = str(interaction.channel_id) if interaction.channel_id else None
        await respond(
            interaction,
            lambda: service.play.create_game(
                me,
                game.id,
                guild_id=guild,
                channel_id=channel,
                invite=invited,
                open_seats=max(0, need - seated),
                ai=ai,
                players=players,
                clock=clock,
                options=options,
                rated=rated,
            ),
        )


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, BanmenBot)
    await bot.add_cog(PlayCog(bot))


__all__ = ["PlayCog"]
