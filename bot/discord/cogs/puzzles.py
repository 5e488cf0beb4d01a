"""``/puzzle [game]``: a puzzle from real play, privately; and the daily puzzle's posts.

A puzzle is answered as a game is: ``/move`` (its autocomplete lists the puzzle's legal moves)
and ``/hint`` outside a game's thread go to the user's open puzzle (the moves cog asks the
service's ``puzzle_of``), and the buttons on the puzzle (Move: the modal, Hint, Solution, Next)
are restart-proof ``PuzzleButton``s. The daily puzzle's posts (one a server and day, with a Solve
button, nobody pinged) are rows of the outbox, posted by its one delivery loop (the timers cog);
a restart posts what was not, and nothing twice.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.discord.actions import respond, service_user
from bot.discord.client import BanmenBot
from bot.service import catalogue

log = logging.getLogger("banmen.discord.puzzles")


def puzzle_game_choices() -> list[app_commands.Choice[str]]:
    """The games with puzzles (the solitaire has none)."""
    return [
        app_commands.Choice(name=_(g.label[:100], ja=g.title.ja), value=g.id)
        for g in catalogue()
        if max(g.player_counts) >= 2
    ]


class PuzzlesCog(commands.Cog):
    def __init__(self, bot: BanmenBot) -> None:
        self.bot = bot

    @app_commands.command(
        name=_("puzzle", ja="パズル"),
        description=_(
            "A puzzle from real play, only for you: find the winning move.",
            ja="実戦から生まれたパズル（自分だけに表示）：勝ちになる手を見つけてください。",
        ),
    )
    @app_commands.describe(game=_("Which game (default: any).", ja="ゲーム（省略時はどれでも）。"))
    @app_commands.choices(game=puzzle_game_choices())
    async def puzzle(self, interaction: discord.Interaction[Any], game: str | None = None) -> None:
        user = service_user(interaction.user)
        await respond(interaction, lambda: self.bot.service.learn.puzzle(user, game))


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, BanmenBot)
    await bot.add_cog(PuzzlesCog(bot))
