"""The two error handlers: one for commands (the tree's) and one for buttons and modals.

A service refusal is answered ephemerally in the user's language with what was wrong; a check
failure says which permission is missing; anything else is logged with its context and answered
with a short apology. One game's error never stops the bot.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot.discord.format import refusal_text
from bot.i18n import MESSAGES, Lang, t
from bot.service import Refusal

log = logging.getLogger("banmen.discord.errors")


class NoGameHere(app_commands.AppCommandError):
    """A game command ran where no game of the user lives and no game was named."""


class OwnerOnly(app_commands.CheckFailure):
    """An owner command run by someone else."""


def _unwrap(error: BaseException) -> BaseException:
    while isinstance(error, (app_commands.CommandInvokeError, app_commands.TransformerError)):
        inner = error.__cause__ or getattr(error, "original", None)
        if inner is None:
            break
        error = inner
    return error


def error_text(error: BaseException, lang: str) -> str | None:
    """What to tell the user about ``error``, or None when it is unexpected."""
    error = _unwrap(error)
    if isinstance(error, Refusal):
        return refusal_text(error, lang)
    if isinstance(error, NoGameHere):
        return t("error.no_game_here", lang)
    if isinstance(error, OwnerOnly):
        return t("error.owner_only", lang)
    if isinstance(error, app_commands.MissingPermissions):
        keys = [f"permission.{p}" for p in error.missing_permissions]
        label = ", ".join(t(k, lang) if k in MESSAGES else k[11:] for k in keys)
        return t("error.no_permission", lang, permission=label)
    if isinstance(error, app_commands.CommandOnCooldown):
        return t("error.cooldown", lang, seconds=round(error.retry_after))
    return None


async def _answer(interaction: discord.Interaction[Any], text: str) -> None:
    try:
        if interaction.response.is_done():
            await interaction.followup.send(
                text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
            )
        else:
            await interaction.response.send_message(
                text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
            )
    except discord.HTTPException:
        log.warning("could not answer interaction %s with an error", interaction.id)


async def _handle(interaction: discord.Interaction[Any], error: BaseException, where: str) -> None:
    lang = Lang.of(interaction.locale)
    text = error_text(error, lang)
    if text is None:
        log.error(
            "unexpected error in %s (user %s, guild %s, channel %s, data %s)",
            where,
            interaction.user.id,
            interaction.guild_id,
            interaction.channel_id,
            interaction.data,
            exc_info=_unwrap(error),
        )
        text = t("error.apology", lang)
    await _answer(interaction, text)


async def on_tree_error(
    interaction: discord.Interaction[Any], error: app_commands.AppCommandError
) -> None:
    """The tree's handler: every slash command's failure comes here."""
    command = interaction.command.qualified_name if interaction.command else "?"
    await _handle(interaction, error, f"/{command}")


async def on_view_error(
    interaction: discord.Interaction[Any], error: BaseException, item: discord.ui.Item[Any] | None
) -> None:
    """The buttons' and modals' handler (they never reach the tree's)."""
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id = getattr(item, "custom_id", None) or data.get("custom_id")
    await _handle(interaction, error, f"component {custom_id}")
