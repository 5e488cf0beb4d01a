"""Persistent buttons, the replay's jump list and the move modal.

Every game button is a :class:`GameButton`, a ``DynamicItem`` whose ``custom_id`` carries the
action and the game id (``banmen:resign:12``; ``banmen:play:12:Draw`` for a move offered as a
button; ``banmen:step_next:12:5`` for a replay's step to ply 5). A replay's jump list is a
:class:`JumpSelect` (``banmen-goto:12``, the ply is the value chosen). A leaderboard's page
buttons are each a :class:`PageButton`, whose ``custom_id`` carries the game, the scope, whether
provisional players are listed and the page it leads to (``banmen-lb:rokumentai:server:0:2``).
The bot registers the three classes once, so they work after any restart. A view is built from
a service reply (its ``actions``, its ``page``): the adapter knows labels, never rules.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import Any, Self, cast

import discord

from bot.discord.errors import on_view_error
from bot.discord.host import host_of
from bot.i18n import t
from bot.service import (
    ACTIONS,
    PRACTICE_EVENTS,
    PRACTICE_GAME,
    Action,
    Button,
    Event,
    Page,
    Reply,
    Scope,
    Style,
    split_play,
)

log = logging.getLogger("banmen.discord.views")

CUSTOM_ID = re.compile(r"banmen:(?P<action>[a-z_]{1,24}):(?P<game>\d{1,18})(?::(?P<arg>.{1,60}))?")

STYLES: dict[Style, discord.ButtonStyle] = {
    Style.PRIMARY: discord.ButtonStyle.primary,
    Style.SECONDARY: discord.ButtonStyle.secondary,
    Style.SUCCESS: discord.ButtonStyle.success,
    Style.DANGER: discord.ButtonStyle.danger,
}
"""The service's neutral styles as Discord draws them."""
MAX_BUTTONS = 25


def custom_id(action: str, game_id: int, arg: str | None = None) -> str:
    """``banmen:<action>:<game>[:<arg>]``: what a posted button keeps (never change it)."""
    return f"banmen:{action}:{game_id}" + (f":{arg}" if arg else "")


def button_label(button: Button, lang: str) -> str:
    """A button's label: the service's own (a move as the game writes it), else the
    catalogue's word for the action."""
    if button.label is not None:
        return button.label.get(lang)[:80]
    if button.action is Action.PLAY:
        return split_play(button.arg)[1][:80]
    return t(ACTIONS[button.action].label, lang)[:80]


def button_style(action: str) -> discord.ButtonStyle:
    try:
        return STYLES[ACTIONS[Action(action)].style]
    except ValueError:
        return discord.ButtonStyle.secondary


class Persistent:
    """What every restart-proof component (a ``DynamicItem``, listed first among its bases)
    shares: discord.py rebuilds it from its custom id's match (:meth:`from_match`), and its
    errors, which never reach a view's ``on_error``, go to the one handler."""

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Self:
        return cls.from_match(match, item)

    @classmethod
    def from_match(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> Self:
        raise NotImplementedError

    async def answer(self, interaction: discord.Interaction[Any]) -> None:
        raise NotImplementedError

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            await self.answer(interaction)
        except Exception as error:
            await on_view_error(interaction, error, cast("discord.ui.Item[Any]", self))


class GameButton(
    Persistent, discord.ui.DynamicItem[discord.ui.Button[Any]], template=CUSTOM_ID.pattern
):
    """A button for one action of one game; the callback hands it to the action runner."""

    def __init__(
        self,
        action: str,
        game_id: int,
        arg: str | None = None,
        *,
        label: str | None = None,
        style: discord.ButtonStyle | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or action,
                style=style or button_style(action),
                custom_id=custom_id(action, game_id, arg),
            )
        )
        self.action = action  # as posted: an action that no longer exists is answered politely
        self.game_id = game_id
        self.arg = arg

    @classmethod
    def from_match(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> GameButton:
        label = getattr(item, "label", None)
        style = getattr(item, "style", None)
        return cls(match["action"], int(match["game"]), match["arg"], label=label, style=style)

    async def answer(self, interaction: discord.Interaction[Any]) -> None:
        await host_of(interaction).run_action(interaction, self.game_id, self.action, self.arg)


JUMP_ID = re.compile(r"banmen-goto:(?P<game>\d{1,18})")
"""The custom id of a replay's jump list; the chosen ply is the selected value."""


def jump_label(ply: int, lang: str) -> str:
    return t("select.ply", lang, ply=ply) if ply else t("select.start", lang)


class JumpSelect(
    Persistent, discord.ui.DynamicItem[discord.ui.Select[Any]], template=JUMP_ID.pattern
):
    """A replay's jump list: one option per ply offered (``goto`` buttons); the choice
    goes to the action runner as ``goto`` with the ply, so it works after any restart."""

    def __init__(self, game_id: int, plies: Sequence[int] = (), lang: str = "en") -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"banmen-goto:{game_id}",
                placeholder=t("select.goto", lang),
                options=[
                    discord.SelectOption(label=jump_label(p, lang), value=str(p)) for p in plies
                ],
            )
        )
        self.game_id = game_id

    @classmethod
    def from_match(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> JumpSelect:
        return cls(int(match["game"]))

    async def answer(self, interaction: discord.Interaction[Any]) -> None:
        chosen = self.item.values[0] if self.item.values else None
        await host_of(interaction).run_action(interaction, self.game_id, Action.GOTO, chosen)


class GameView(discord.ui.View):
    """The buttons of one reply (and a replay's jump list); persistent (no timeout), errors go
    to the shared handler."""

    def __init__(self, game_id: int, buttons: Sequence[Button], lang: str) -> None:
        super().__init__(timeout=None)
        jumps = [
            int(b.arg) for b in buttons if b.action is Action.GOTO and b.arg and b.arg.isdigit()
        ]
        shown = [b for b in buttons if b.action is not Action.GOTO]
        for b in shown[: MAX_BUTTONS - (5 if jumps else 0)]:  # a select takes a row
            label = button_label(b, lang)
            self.add_item(GameButton(b.action.value, game_id, b.arg, label=label))
        if jumps:
            self.add_item(JumpSelect(game_id, jumps[:25], lang))

    async def on_error(
        self,
        interaction: discord.Interaction[Any],
        error: Exception,
        item: discord.ui.Item[Any],
        /,
    ) -> None:
        await on_view_error(interaction, error, item)


def reply_view(reply: Reply, lang: str) -> discord.ui.View | None:
    """The buttons of a service reply (its actions, labelled as the service says), or None
    when it offers none."""
    if reply.event in PUZZLE_EVENTS:
        return puzzle_view(reply.actions, lang)
    if not reply.actions:
        return None
    # a practice board's and a tournament's buttons carry no game (0; a tournament's its id in
    # their argument)
    game_id = PRACTICE_GAME if reply.event in PRACTICE_EVENTS else reply.game_id or 0
    return GameView(game_id, reply.actions, lang)


PAGE_ID = re.compile(
    r"banmen-lb:(?P<game>[a-z0-9-]{1,40}):(?P<scope>server|global):(?P<provisional>[01])"
    r":(?P<page>\d{1,6})"
)


class PageButton(
    Persistent, discord.ui.DynamicItem[discord.ui.Button[Any]], template=PAGE_ID.pattern
):
    """A button that shows another page of a leaderboard (in place of the message it is on)."""

    def __init__(
        self,
        game_type: str,
        scope: Scope,
        provisional: bool,
        page: int,
        *,
        label: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or str(page),
                style=discord.ButtonStyle.secondary,
                custom_id=f"banmen-lb:{game_type}:{scope.value}:{int(provisional)}:{page}",
                disabled=disabled,
            )
        )
        self.game_type = game_type
        self.scope = scope
        self.provisional = provisional
        self.page = page

    @classmethod
    def from_match(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> PageButton:
        return cls(
            match["game"],
            Scope(match["scope"]),
            match["provisional"] == "1",
            int(match["page"]),
            label=getattr(item, "label", None),
        )

    async def answer(self, interaction: discord.Interaction[Any]) -> None:
        await host_of(interaction).show_leaderboard(
            interaction, self.game_type, self.scope, self.page, self.provisional
        )


def page_view(page: Page | None, lang: str) -> discord.ui.View | None:
    """Previous / next buttons for a leaderboard page (none when it has one page)."""
    if page is None or page.count <= 1:
        return None
    view = discord.ui.View(timeout=None)
    for target, key in ((page.number - 1, "button.previous"), (page.number + 1, "button.next")):
        view.add_item(
            PageButton(
                page.game_type,
                page.scope,
                page.provisional,
                target,
                label=t(key, lang),
                disabled=not 1 <= target <= page.count,
            )
        )
    return view


class MoveModal(discord.ui.Modal):
    """Type a move (or a secret setup) for people who prefer a text box to /move."""

    def __init__(self, game_id: int, lang: str, *, setup: bool = False, example: str = "") -> None:
        kind = "setup" if setup else "move"
        super().__init__(
            title=(
                t("learn.modal.title", lang)
                if game_id == PRACTICE_GAME
                else t(f"modal.{kind}.title", lang, game=game_id)
            )[:45],
            custom_id=f"banmen-modal:{kind}:{game_id}",
            timeout=900,
        )
        self.game_id = game_id
        self.setup = setup
        self.text: discord.ui.TextInput[MoveModal] = discord.ui.TextInput(
            label=t(f"modal.{kind}.label", lang),
            custom_id="text",
            placeholder=(t("modal.move.placeholder", lang, example=example) if example else None),
            max_length=100,
        )
        self.add_item(self.text)

    async def on_submit(self, interaction: discord.Interaction[Any], /) -> None:
        await host_of(interaction).submit_text(
            interaction, self.game_id, self.text.value, setup=self.setup
        )

    async def on_error(  # type: ignore[override]
        self, interaction: discord.Interaction[Any], error: Exception, /
    ) -> None:
        await on_view_error(interaction, error, None)


# --- puzzles (issue 31): the user's own open puzzle, whatever the message -------------------------

PUZZLE_ID = re.compile(r"banmen-pz:(?P<action>puzzle_[a-z]{1,16})(?::(?P<arg>[0-9-]{1,10}))?")
"""A puzzle button: ``banmen-pz:puzzle_hint``, a daily post's ``banmen-pz:puzzle_solve:2026-11-27``
(the day). It acts on the presser's own open puzzle, so it needs no game id."""
PUZZLE_EVENTS = frozenset({Event.PUZZLE, Event.PUZZLE_DAILY})


class PuzzleButton(
    Persistent, discord.ui.DynamicItem[discord.ui.Button[Any]], template=PUZZLE_ID.pattern
):
    """A puzzle's button (solve, move, hint, solution, next); works after any restart."""

    def __init__(self, action: str, arg: str | None = None, *, label: str | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or action,
                style=button_style(action),
                custom_id=f"banmen-pz:{action}" + (f":{arg}" if arg else ""),
            )
        )
        self.action = action
        self.arg = arg

    @classmethod
    def from_match(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> PuzzleButton:
        return cls(match["action"], match["arg"], label=getattr(item, "label", None))

    async def answer(self, interaction: discord.Interaction[Any]) -> None:
        if self.action == Action.PUZZLE_MOVE:
            await interaction.response.send_modal(PuzzleModal(interaction.locale.value))
            return
        await host_of(interaction).puzzle_action(interaction, self.action, self.arg)


def puzzle_view(buttons: Sequence[Button], lang: str) -> discord.ui.View | None:
    if not buttons:
        return None
    view = discord.ui.View(timeout=None)
    for b in buttons[:MAX_BUTTONS]:
        view.add_item(PuzzleButton(b.action.value, b.arg, label=button_label(b, lang)))
    return view


class PuzzleModal(discord.ui.Modal):
    """Type a move for the open puzzle."""

    def __init__(self, lang: str) -> None:
        super().__init__(
            title=t("modal.puzzle.title", lang)[:45], custom_id="banmen-modal:puzzle", timeout=900
        )
        self.text: discord.ui.TextInput[PuzzleModal] = discord.ui.TextInput(
            label=t("modal.move.label", lang), custom_id="text", max_length=100
        )
        self.add_item(self.text)

    async def on_submit(self, interaction: discord.Interaction[Any], /) -> None:
        await host_of(interaction).puzzle_action(interaction, Action.PUZZLE_MOVE, self.text.value)

    async def on_error(  # type: ignore[override]
        self, interaction: discord.Interaction[Any], error: Exception, /
    ) -> None:
        await on_view_error(interaction, error, None)
