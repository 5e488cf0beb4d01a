"""Playing: ``/move`` (legal-move autocomplete), ``/setup``, ``/resign``, ``/draw``, ``/takeback``,
and ``/hint`` (略式易双六's choices with their estimated win chances, privately).

Autocomplete reads the service's cached legal moves (no database, no rendering), so it answers
at once; it is only a suggestion: the submitted text is parsed and checked again by the engine.
"""

from __future__ import annotations

import logging
from typing import Any, Literal

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.discord.actions import guild_lang, respond, service_user
from bot.discord.client import BanmenBot
from bot.discord.common import GAME_OPTION, game_autocomplete, game_here, target_here
from bot.discord.errors import NoGameHere
from bot.discord.format import choices_for
from bot.i18n import Lang
from bot.service import ANSWERS, GameTarget, Press, Refusal

log = logging.getLogger("banmen.discord.moves")

Answer = Literal["accept", "decline"]


class MovesCog(commands.Cog):
    """Moves and the requests players make of each other during a game."""

    def __init__(self, bot: BanmenBot) -> None:
        self.bot = bot

    async def _move_choices(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        named = interaction.namespace.game
        try:
            target = await target_here(interaction, named if isinstance(named, int) else None)
            user = str(interaction.user.id)
            lang = Lang.of(interaction.locale, await guild_lang(self.bot, interaction.guild_id))
            if isinstance(target, str):  # the open lesson's or puzzle's moves
                board = self.bot.service.practice_board(target)
                found = await board.legal(service_user(interaction.user), current, 25, lang)
                names = list(found.moves)
            else:
                names = await self.bot.service.play.legal_move_choices(
                    target, user, current, limit=25, lang=lang
                )
        except (NoGameHere, Refusal):
            return []
        return [app_commands.Choice(name=n, value=v) for n, v in choices_for(names)]

    @app_commands.command(
        name=_("move"), description=_("Make a move in this game (the choices are the legal moves).")
    )
    @app_commands.describe(
        notation=_("Your move, as the game writes it (any spelling is read)."), game=GAME_OPTION
    )
    async def move(
        self,
        interaction: discord.Interaction[Any],
        notation: app_commands.Range[str, 1, 100],
        game: int | None = None,
    ) -> None:
        target = await target_here(interaction, game)
        user = service_user(interaction.user)
        if isinstance(target, str):
            board = self.bot.service.practice_board(target)
            await respond(interaction, lambda: board.move(user, notation))
            return
        game_id = target
        await respond(interaction, lambda: self.bot.service.play.move(game_id, user, notation))

    @move.autocomplete("notation")
    async def move_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return await self._move_choices(interaction, current)

    @move.autocomplete("game")
    async def move_game_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[int]]:
        return await game_autocomplete(interaction, current)

    @app_commands.command(
        name=_("setup"), description=_("Submit your secret setup (only you see it).")
    )
    @app_commands.describe(text=_("Your setup, in the game's notation."), game=GAME_OPTION)
    async def setup_(
        self,
        interaction: discord.Interaction[Any],
        text: app_commands.Range[str, 1, 100],
        game: int | None = None,
    ) -> None:
        game_id = await game_here(interaction, game)
        user = service_user(interaction.user)
        await respond(interaction, lambda: self.bot.service.play.setup(game_id, user, text))

    @setup_.autocomplete("text")
    async def setup_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return await self._move_choices(interaction, current)

    @app_commands.command(name=_("resign"), description=_("Resign this game."))
    @app_commands.describe(game=GAME_OPTION)
    @app_commands.autocomplete(game=game_autocomplete)
    async def resign(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        game_id = await game_here(interaction, game)
        user = service_user(interaction.user)
        await respond(interaction, lambda: self.bot.service.play.resign(game_id, user))

    @app_commands.command(name=_("draw"), description=_("Offer a draw, or answer an offer."))
    @app_commands.describe(
        answer=_("Accept or decline the other player's request."), game=GAME_OPTION
    )
    @app_commands.autocomplete(game=game_autocomplete)
    async def draw(
        self,
        interaction: discord.Interaction[Any],
        answer: Answer | None = None,
        game: int | None = None,
    ) -> None:
        await self._answer(interaction, "draw", answer, game)

    @app_commands.command(
        name=_("takeback"), description=_("Take back your last move, or answer a request.")
    )
    @app_commands.describe(
        answer=_("Accept or decline the other player's request."), game=GAME_OPTION
    )
    @app_commands.autocomplete(game=game_autocomplete)
    async def takeback(
        self,
        interaction: discord.Interaction[Any],
        answer: Answer | None = None,
        game: int | None = None,
    ) -> None:
        await self._answer(interaction, "takeback", answer, game)

    async def _answer(
        self,
        interaction: discord.Interaction[Any],
        request: str,
        answer: Answer | None,
        game: int | None,
    ) -> None:
        """Ask for a draw or a takeback, or answer the other player's request."""
        game_id = await game_here(interaction, game)
        press = Press(GameTarget(game_id), service_user(interaction.user))
        action = ANSWERS[request][answer]
        await respond(interaction, lambda: self.bot.service.act(action, press))

    @app_commands.command(
        name=_("hint"),
        description=_("The solitaire's choices with their estimated win chances (only for you)."),
    )
    @app_commands.describe(game=GAME_OPTION)
    @app_commands.autocomplete(game=game_autocomplete)
    async def hint(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        target = await target_here(interaction, game)
        user = service_user(interaction.user)
        if isinstance(target, str):
            board = self.bot.service.practice_board(target)
            await respond(interaction, lambda: board.hint(user))
            return
        game_id = target
        await respond(interaction, lambda: self.bot.service.play.hint(game_id, user))


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, BanmenBot)
    await bot.add_cog(MovesCog(bot))
