"""Persistent buttons, the replay's jump list and the move modal.

Every action's button is a :class:`GameButton`, a ``DynamicItem`` whose ``custom_id`` carries
the action, what it acts on and its argument: ``banmen:<action>:<target>[:<arg>]``, the target a
game's id (``banmen:resign:12``; ``banmen:play:12:7|Draw``; ``banmen:step_next:12:5``), ``p`` for
the presser's practice board (``banmen:learn_next:p:rokumentai-2``,
``banmen:puzzle_solve:p:2026-11-27``) or ``t<id>`` for a tournament (``banmen:t_join:t3``).
Discord keeps posted ids forever, so :func:`posted` also reads the forms posted before: a lesson's
``banmen:learn_*:0[:<arg>]``, a tournament's ``banmen:t_join:0:3`` and a puzzle's
``banmen-pz:<action>[:<arg>]`` (a :class:`PuzzleButton`). Every press, whatever its form, goes
to the one action runner as a typed target. A replay's jump list is a :class:`JumpSelect`
(``banmen-goto:12``, the ply is the value chosen). A leaderboard's page buttons are each a
:class:`PageButton`, whose ``custom_id`` carries the game, the scope, whether provisional players
are listed and the page it leads to (``banmen-lb:rokumentai:server:0:2``). The bot registers the
classes once, so they work after any restart. A view is built from a service reply (its
``actions``, its ``page``): the adapter knows labels, never rules.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Self, cast

import discord

from bot.discord.errors import on_view_error
from bot.discord.host import host_of
from bot.i18n import t
from bot.service import (
    ACTIONS,
    Action,
    Button,
    GameTarget,
    On,
    Page,
    Practice,
    Reply,
    Scope,
    Style,
    Takes,
    Target,
    TournamentTarget,
    button_words,
    target_of,
)

log = logging.getLogger("banmen.discord.views")

CUSTOM_ID = re.compile(
    r"banmen:(?P<action>[a-z_]{1,24}):(?P<target>\d{1,18}|p|t\d{1,18})(?::(?P<arg>.{1,60}))?"
)
"""``banmen:<action>:<target>[:<arg>]``: the target a game's id, ``p`` (the presser's practice
board) or ``t<id>`` (a tournament); a lesson's and a tournament's old buttons carry ``0``."""

STYLES: dict[Style, discord.ButtonStyle] = {
    Style.PRIMARY: discord.ButtonStyle.primary,
    Style.SECONDARY: discord.ButtonStyle.secondary,
    Style.SUCCESS: discord.ButtonStyle.success,
    Style.DANGER: discord.ButtonStyle.danger,
}
"""The service's neutral styles as Discord draws them."""
MAX_BUTTONS = 25


def target_text(target: Target) -> str:
    """A target as a custom id writes it: ``12`` (a game), ``p`` (practice), ``t3``."""
    match target:
        case GameTarget(game_id):
            return str(game_id)
        case TournamentTarget(tournament_id):
            return f"t{tournament_id}"
        case Practice():
            return "p"


def custom_id(action: str, target: Target, arg: str | None = None) -> str:
    """``banmen:<action>:<target>[:<arg>]``: what a posted button keeps (:func:`posted` reads it
    and every older form back)."""
    return f"banmen:{action}:{target_text(target)}" + (f":{arg}" if arg else "")


@dataclass(frozen=True, slots=True)
class Posted:
    """What a posted button's custom id says: its action's name (as posted: one that no longer
    exists is answered with an apology), what it acts on and its argument."""

    action: str
    target: Target
    arg: str | None = None


def _row_on(action: str) -> On | None:
    try:
        return ACTIONS[Action(action)].on
    except ValueError:
        return None


def posted(action: str, where: str, arg: str | None = None) -> Posted:
    """A :data:`CUSTOM_ID`'s parts as a press: the new forms (``p``, ``t3``, a game's id) as they
    say, and the older forms, whose number was a game's id for every row, by the action's row:
    a lesson's ``banmen:learn_hint:0:rokumentai-2`` is on the practice board (an argument its row
    does not take, the lesson id an old hint button carried, is dropped), a tournament's
    ``banmen:t_join:0:3`` on tournament 3 (its argument; else the number it was posted with)."""
    if where == "p":
        return Posted(action, Practice(), arg)
    if where.startswith("t"):
        return Posted(action, TournamentTarget(int(where[1:])), arg)
    number, on = int(where), _row_on(action)
    if on is On.PRACTICE:
        takes = ACTIONS[Action(action)].takes
        return Posted(action, Practice(), None if takes is Takes.NOTHING else arg)
    if on is On.TOURNAMENT:
        tournament = int(arg) if arg and arg.isdigit() and len(arg) <= 18 else number
        return Posted(action, TournamentTarget(tournament))
    return Posted(action, GameTarget(number), arg)


def read_custom_id(text: str) -> Posted | None:
    """Any button custom id ever posted (a game's, a lesson's, a tournament's, a puzzle's) as
    a press, or None for none of them."""
    if match := CUSTOM_ID.fullmatch(text):
        return posted(match["action"], match["target"], match["arg"])
    if match := PUZZLE_ID.fullmatch(text):
        return Posted(match["action"], Practice(), match["arg"])
    return None


def button_label(button: Button, lang: str) -> str:
    """A button's label (the service's words for it), as long as Discord takes one."""
    return button_words(button, lang)[:80]


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
    """A button for one action on a game, the practice board or a tournament; the callback
    hands it to the action runner."""

    def __init__(
        self,
        action: str,
        target: Target,
        arg: str | None = None,
        *,
        label: str | None = None,
        style: discord.ButtonStyle | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or action,
                style=style or button_style(action),
                custom_id=custom_id(action, target, arg),
            )
        )
        self.press = Posted(action, target, arg)

    @classmethod
    def from_match(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> GameButton:
        label = getattr(item, "label", None)
        style = getattr(item, "style", None)
        p = posted(match["action"], match["target"], match["arg"])
        return cls(p.action, p.target, p.arg, label=label, style=style)

    async def answer(self, interaction: discord.Interaction[Any]) -> None:
        p = self.press
        await host_of(interaction).run_action(interaction, p.action, p.target, p.arg)


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
        await host_of(interaction).run_action(
            interaction, Action.GOTO, GameTarget(self.game_id), chosen
        )


class GameView(discord.ui.View):
    """The buttons of one reply (and a replay's jump list); persistent (no timeout), errors go
    to the shared handler."""

    def __init__(self, reply: Reply, lang: str) -> None:
        super().__init__(timeout=None)
        buttons = reply.actions
        jumps = [
            int(b.arg) for b in buttons if b.action is Action.GOTO and b.arg and b.arg.isdigit()
        ]
        shown = [b for b in buttons if b.action is not Action.GOTO]
        for b in shown[: MAX_BUTTONS - (5 if jumps else 0)]:  # a select takes a row
            target = target_of(b.action, reply)
            if target is None:
                log.warning("%s offered on %s, which names nothing it acts on", b.action, reply.key)
                continue
            # an argument the row does not take is not posted (a tournament's sign-up kept in
            # the outbox from before carries its id as one)
            arg = None if ACTIONS[b.action].takes is Takes.NOTHING else b.arg
            self.add_item(GameButton(b.action.value, target, arg, label=button_label(b, lang)))
        if jumps and reply.game_id is not None:
            self.add_item(JumpSelect(reply.game_id, jumps[:25], lang))

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
    if not reply.actions:
        return None
    return GameView(reply, lang)


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


MODAL_TITLES = {
    Action.MOVE: "modal.move.title",
    Action.SETUP: "modal.setup.title",
    Action.LEARN_MOVE: "learn.modal.title",
    Action.PUZZLE_MOVE: "modal.puzzle.title",
    Action.RETRY_MOVE: "retry.modal.title",
    Action.ANALYSIS_MOVE: "analysis.modal.title",
}
"""The title of the box each action that takes typed text asks with."""


class MoveModal(discord.ui.Modal):
    """Type a move (or a secret setup) for people who prefer a text box to /move: the text is
    the argument of ``action`` (a row that takes :attr:`~bot.service.Takes.TEXT`)."""

    def __init__(self, action: Action, target: Target, lang: str, *, example: str = "") -> None:
        kind = "setup" if action is Action.SETUP else "move"
        game = target.game_id if isinstance(target, GameTarget) else 0
        super().__init__(
            title=t(MODAL_TITLES.get(action, "modal.move.title"), lang, game=game)[:45],
            custom_id=f"banmen-modal:{action.value}:{target_text(target)}",
            timeout=900,
        )
        self.action = action
        self.target = target
        self.text: discord.ui.TextInput[MoveModal] = discord.ui.TextInput(
            label=t(f"modal.{kind}.label", lang),
            custom_id="text",
            placeholder=(t("modal.move.placeholder", lang, example=example) if example else None),
            max_length=100,
        )
        self.add_item(self.text)

    async def on_submit(self, interaction: discord.Interaction[Any], /) -> None:
        await host_of(interaction).submit_text(
            interaction, self.action, self.target, self.text.value
        )

    async def on_error(  # type: ignore[override]
        self, interaction: discord.Interaction[Any], error: Exception, /
    ) -> None:
        await on_view_error(interaction, error, None)


# --- puzzles' old buttons (issue 31), posted before every button was a GameButton -----------------

PUZZLE_ID = re.compile(r"banmen-pz:(?P<action>puzzle_[a-z]{1,16})(?::(?P<arg>[0-9-]{1,10}))?")
"""A puzzle's old button: ``banmen-pz:puzzle_hint``, a daily post's
``banmen-pz:puzzle_solve:2026-11-27`` (the day). It acts on the presser's practice board; new
ones are :class:`GameButton` ids (``banmen:puzzle_hint:p``)."""


class PuzzleButton(
    Persistent, discord.ui.DynamicItem[discord.ui.Button[Any]], template=PUZZLE_ID.pattern
):
    """A puzzle's old button (solve, move, hint, solution, next), still pressed on posted
    messages: it goes to the one action runner like every other button."""

    def __init__(self, action: str, arg: str | None = None, *, label: str | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or action,
                style=button_style(action),
                custom_id=f"banmen-pz:{action}" + (f":{arg}" if arg else ""),
            )
        )
        self.press = Posted(action, Practice(), arg)

    @classmethod
    def from_match(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> PuzzleButton:
        return cls(match["action"], match["arg"], label=getattr(item, "label", None))

    async def answer(self, interaction: discord.Interaction[Any]) -> None:
        p = self.press
        await host_of(interaction).run_action(interaction, p.action, p.target, p.arg)
