"""Replies about a game: the turn, deadline, actions and pings, the lines a move adds, pictures.

Every use case builds its :class:`Reply` here, so the same game reads the same everywhere.
Pictures are drawn off the event loop by :class:`Pictures`, always from the state as the viewer
may see it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from functools import partial
from typing import Any

import render
from bot.clock import from_ms
from bot.i18n import Lang, t
from bot.model import GameRow, GameStatus, MoveRow, OfferKind, SeatKind, StoredOutcome
from bot.service.actions import Action, Button, play_button
from bot.service.cache import Loaded
from bot.service.pausing import paused_lines
from bot.service.values import Event, Line, Reply
from engines.core import (
    SIMULTANEOUS,
    EngineError,
    Game,
    Outcome,
    State,
    Termination,
    Text,
    normalise,
)
from render.base import Marks
from render.describe import DESCRIBERS, DISCORD_LIMIT, describe, hands

log = logging.getLogger(__name__)

PASS_WORDS = frozenset({"PASS", "パス"})
HOST_ENDS = frozenset(
    {Termination.RESIGNATION, Termination.TIMEOUT, Termination.AGREEMENT, Termination.ABORTED}
)
"""Ends the host decides and the engine state cannot know (its pictures must be told)."""


def title(game: Game[Any]) -> Text:
    return Text(game.title_en, game.title_ja)


def reply(loaded: Loaded, event: Event, key: str, **kw: Any) -> Reply:
    """A reply about ``loaded`` with the turn, deadline, actions and pings filled in."""
    acting = loaded.acting_seats()
    to_move = loaded.user_ids(acting)
    params = {"id": loaded.id, "game": title(loaded.game), **kw.pop("params", {})}
    if to_move:
        params.setdefault("to_move", loaded.acting_names())
    row = loaded.row
    deadline = from_ms(row.deadline_ms) if row.deadline_ms is not None else None
    offered = kw.pop("actions", None)
    if offered is None:
        offered = tuple(Button(a) for a in actions(loaded))
    if row.paused_ms is not None:  # a vacation stopped the clock: say so instead of a deadline
        kw["lines"] = (*kw.pop("lines", ()), *paused_lines(row, loaded.acting_names()))
        deadline = None
    if kw.get("picture") and row.status in (GameStatus.ACTIVE, GameStatus.FINISHED):
        kw.setdefault("seats", seat_lines(loaded))
    kw.setdefault("over", row.status is GameStatus.FINISHED)
    return Reply(
        key,
        params,
        event=event,
        game_id=loaded.id,
        actions=move_buttons(loaded) + offered,
        notify=kw.pop("notify", to_move),
        to_move=to_move,
        deadline=deadline if row.status is GameStatus.ACTIVE else None,
        **kw,
    )


def actions(loaded: Loaded) -> tuple[Action, ...]:
    """What a game's message offers to do now (adapters know labels, never rules)."""
    status = loaded.status
    if status is GameStatus.OPEN:
        if loaded.row.is_challenge:
            return (Action.ACCEPT, Action.DECLINE)
        return (Action.JOIN, Action.LEAVE, Action.START, Action.CANCEL)
    if status is GameStatus.FINISHED:
        return (Action.BOARD, Action.MOVES, Action.RECORD, Action.REMATCH, Action.REVIEW)
    if status is not GameStatus.ACTIVE:
        return (Action.BOARD, Action.MOVES, Action.RECORD)
    out: list[Action] = []
    state = loaded.state
    if state.current_player() == SIMULTANEOUS:
        # a secret setup: nothing to offer or take back, only the setup and resigning
        return (Action.SETUP, Action.RESIGN, Action.BOARD)
    out.append(Action.MOVE)
    legal = state.legal_moves()
    if len(legal) == 1 and normalise(state.format_move(legal[0])) in PASS_WORDS:
        out.append(Action.PASS)
    out.append(Action.RESIGN)
    offer = loaded.row.offer
    if loaded.row.players == 2:
        if offer is not None and offer.kind is OfferKind.DRAW:
            out += [Action.ACCEPT_DRAW, Action.DECLINE_DRAW]
        else:
            out.append(Action.OFFER_DRAW)
    if offer is not None and offer.kind is OfferKind.TAKEBACK:
        out += [Action.ACCEPT_TAKEBACK, Action.DECLINE_TAKEBACK]
    elif loaded.entries:
        out.append(Action.TAKEBACK)
    out += [Action.BOARD, Action.MOVES]
    return tuple(out)


MOVE_BUTTONS = 6
"""When the one player to move has at most this many legal moves, each gets a button."""


def move_buttons(loaded: Loaded) -> tuple[Button, ...]:
    """A ``play`` button for each legal move when there are few (a start-line choice, a
    draw-or-stay choice): generic, whatever the game. The log length goes with the
    move, so a button left on an older message is refused instead of playing into the current
    position. Each is labelled as the game writes the move (its display form, in both
    languages); the action keeps the canonical notation, which the parser reads back."""
    acting = loaded.acting_seats()
    if len(acting) != 1 or loaded.state.current_player() != acting[0]:
        return ()
    if not loaded.user_ids(acting):
        return ()
    state = loaded.state
    legal = state.legal_moves()
    if not 0 < len(legal) <= MOVE_BUTTONS:
        return ()
    names = [state.format_move(m) for m in legal]
    if any(len(n) > 50 for n in names):
        return ()
    if len(names) == 1 and normalise(names[0]) in PASS_WORDS:
        return ()
    ply = len(loaded.entries)
    return tuple(play_button(ply, n, display(state, m)) for n, m in zip(names, legal, strict=True))


def display(state: State[Any], move: Any) -> Text:
    """``move`` as the game writes it everywhere players read (the thread, /moves, pictures):
    ``▲2三5``, ``魏 騎A2-C4``; it parses back to the same move."""
    return Text(state.display_move(move, "en"), state.display_move(move, "ja"))


def shown_move(state: State[Any], text: str, seat: int | None = None) -> Text | str:
    """A move given in canonical notation (an engine's suggestion) as the game writes it; the
    text itself when it does not parse here."""
    try:
        return display(state, state.parse_move(text, seat))
    except EngineError:
        return text


def player_names(loaded: Loaded) -> tuple[str, ...]:
    """Who sits at each seat, by seat (empty for a free seat): the pictures' header."""
    return tuple(
        loaded.name(s.seat) if s.kind is not SeatKind.OPEN else "" for s in loaded.row.seats
    )


def seat_lines(loaded: Loaded) -> tuple[Line, ...]:
    """One line per seat, as a spectator may see it: ``▶ **Shu** · alice · hand: none`` (the
    arrow on the seats to act, the hand where the game has hands, the place once it ended)."""
    n = loaded.row.players
    state = loaded.state
    outcome = outcome_of(loaded.row.result) if loaded.status.is_over else None
    ranks = outcome.ranks if outcome is not None and len(outcome.ranks) == n > 1 else None
    acting = set(loaded.acting_seats()) if loaded.status is GameStatus.ACTIVE else set()
    held = {lang: hands(state, None, lang) for lang in ("en", "ja")}
    lines = []
    for seat in range(n):
        side = Text(loaded.game.seat_name(seat, "en", n), loaded.game.seat_name(seat, "ja", n))
        hand = Text("", "")
        en, ja = held["en"], held["ja"]
        if en is not None and ja is not None and seat < len(en):
            hand = Text(t("card.hand", "en", hand=en[seat]), t("card.hand", "ja", hand=ja[seat]))
        turn = "▶ " if seat in acting else ""
        place = Text("", "")
        if ranks is not None:
            place = Text(
                t("card.place", "en", place=ranks[seat], of=n),
                t("card.place", "ja", place=ranks[seat], of=n),
            )
        params = {
            "turn": turn,
            "side": side,
            "name": loaded.name(seat),
            "hand": hand,
            "place": place,
        }
        lines.append(Line("card.seat", params))
    return tuple(lines)


def seat_list(loaded: Loaded) -> Text:
    """``Black: alice, White: bob`` in both languages (``—`` for a free seat)."""
    n = loaded.row.players

    def part(seat: int, kind: SeatKind, lang: str) -> str:
        who = loaded.name(seat) if kind is not SeatKind.OPEN else "—"
        return f"{loaded.game.seat_name(seat, lang, n)}: {who}"

    seats = loaded.row.seats
    return Text(
        ", ".join(part(s.seat, s.kind, "en") for s in seats),
        "、".join(part(s.seat, s.kind, "ja") for s in seats),
    )


def chance_lines(state_before: State[Any], rows: Sequence[MoveRow]) -> tuple[Line, ...]:
    """One line per chance outcome in ``rows`` (played from ``state_before``), shown as the
    game displays it in each language (``PQ`` is コインクイーン in Japanese)."""
    lines: list[Line] = []
    state = state_before
    for r in rows:
        shown: Any = r.move
        try:
            move = state.parse_move(r.move)
            shown = display(state, move)
            state = state.apply(move)
        except EngineError:  # not replayable from here: the canonical text will do
            log.warning("chance outcome %r not displayable", r.move)
        lines.append(Line("move.chance", {"move": shown}))
    return tuple(lines)


def announcement_lines(state: State[Any]) -> tuple[Line, ...]:
    """What the game itself announces about the action just played (王手, a turn jump), in
    both languages; nothing while moves are secret."""
    if state.hides_moves():
        return ()
    en, ja = state.announcement("en"), state.announcement("ja")
    if not en and not ja:
        return ()
    return (Line("move.announcement", {"text": Text(en or ja or "", ja or en or "")}),)


def end_lines(loaded: Loaded) -> tuple[Line, ...]:
    """The result of a finished game, and who won by name when the game's own words name only
    seats ("White wins: ..." becomes "Winner: bob (White)")."""
    result = loaded.row.result
    if loaded.status.is_over and result:
        result_line = Line("game.result", {"result": result_text(result)})
        return (result_line, *winner_lines(loaded), *ai_lines(loaded))
    return ()


def ai_lines(loaded: Loaded) -> tuple[Line, ...]:
    """A game with the computer says so while it waits for players and at its end (such a game
    is never rated)."""
    levels = loaded.row.ai_levels
    shown = {"levels": ", ".join(str(lv) for lv in levels)}
    if levels and loaded.status is GameStatus.OPEN:
        return (Line("lobby.with_ai", shown),)
    if levels and loaded.status.is_over:
        return (Line("game.vs_ai", shown),)
    return ()


def who_sits(loaded: Loaded, seat: int, lang: str) -> str:
    """The name of whoever sits at ``seat``, with the seat when another seat of the game has the
    same name (two computer players of one level: ``Banmen AI Lv.2 (魏)``)."""
    name = loaded.name(seat)
    n = loaded.row.players
    if sum(1 for s in range(n) if loaded.name(s) == name) < 2:
        return name
    return t("game.winner_seat", lang, name=name, seat=loaded.game.seat_name(seat, lang, n))


def winner_lines(loaded: Loaded) -> tuple[Line, ...]:
    """``Winner: bob (White)`` for an end the rules decided (the host's own endings already
    name people); nothing for a draw or a game nobody won."""
    outcome = outcome_of(loaded.row.result)
    if outcome is None:
        return ()
    n = loaded.row.players
    winners = sorted(w for w in outcome.winners if 0 <= w < n)
    if outcome.termination in HOST_ENDS or not winners or (n > 1 and len(winners) == n):
        return ()

    def who(lang: str) -> str:
        if n == 1:
            return names([loaded.name(w) for w in winners], lang)
        seated = [
            t("game.winner_seat", lang, name=loaded.name(w), seat=loaded.game.seat_name(w, lang, n))
            for w in winners
        ]
        return "、".join(seated) if Lang.of(lang) is Lang.JA else names(seated, lang)

    key = "game.winner" if len(winners) == 1 else "game.winners"
    return (Line(key, {"names": Text(who("en"), who("ja"))}),)


# --- outcomes as stored -----------------------------------------------------------------------


def stored_outcome(outcome: Outcome) -> StoredOutcome:
    """``outcome`` as a game row keeps it."""
    return StoredOutcome(
        outcome.termination.value,
        tuple(sorted(outcome.winners)),
        outcome.ranks,
        outcome.text.en,
        outcome.text.ja,
    )


def result_text(result: StoredOutcome) -> Text:
    return Text(result.en, result.ja)


def outcome_of(result: StoredOutcome | None) -> Outcome | None:
    """The outcome a stored result says (``None``: no result, or an end the engines no longer
    know)."""
    if result is None:
        return None
    try:
        termination = Termination(result.termination)
    except ValueError:
        return None
    return Outcome(termination, frozenset(result.winners), result.ranks, result_text(result))


def host_end(result: StoredOutcome, players: int) -> Outcome | None:
    """``result`` as an end the host decided (resignation, timeout, agreed draw, abort) for a
    game of ``players`` seats; ``None`` when it is another end or does not fit that game."""
    outcome = outcome_of(result)
    if outcome is None or outcome.termination not in HOST_ENDS or not result.fits(players):
        return None
    return outcome


def host_outcome(row: GameRow) -> Outcome | None:
    """The stored outcome of a game the host ended (resignation, timeout, agreed draw, abort):
    the engine state still shows a turn, so the picture is given this. ``None`` while the game
    goes on, when its own rules ended it, or when a stored (imported) result does not fit."""
    if not row.status.is_over or row.result is None:
        return None
    return host_end(row.result, row.players)


def names(people: Sequence[str], lang: str) -> str:
    """``a``, ``a and b``, ``a, b and c``; in Japanese ``aさんとb`` (the template adds the last
    さん)."""
    if len(people) <= 1:
        return "".join(people)
    rest = t("list.separator", lang).join(people[:-1])
    return t("list.and", lang, rest=rest, last=people[-1])


# --- pictures ---------------------------------------------------------------------------------


async def with_picture(
    replies: Sequence[Reply], drawing: Awaitable[bytes | None], alt: Text | None = None
) -> tuple[Reply, ...]:
    """``replies`` with the spectator's picture (being drawn) and its words ``alt`` on those
    that show it."""
    image = await drawing
    alt = alt if image is not None else None
    return tuple(replace(r, image=image, image_alt=alt) if r.picture else r for r in replies)


LANGS = ("en", "ja")


def alt_text(
    state: State[Any],
    viewer: int | None,
    last: Any,
    outcome: Outcome | None = None,
    limit: int = DISCORD_LIMIT,
) -> Text | None:
    """The picture of ``state`` for ``viewer`` in words (:func:`render.describe.describe`), in
    both languages and at most ``limit`` long (a Discord attachment's): give it the same
    ``last`` and ``outcome`` as the picture, so it says no more than the picture shows. ``None``
    for a game nothing describes."""
    if state.game.id not in DESCRIBERS:
        return None
    try:
        en, ja = (describe(state, viewer, lang, last, outcome, limit) for lang in LANGS)
    except Exception:  # words that fail must not hide a move that is already stored
        log.exception("describe failed for %s", state.game.id)
        return None
    return Text(en, ja)


Drawer = Callable[[Callable[[], bytes]], Awaitable[bytes]]
"""Runs a picture's drawing somewhere else (:meth:`bot.service.thinking.Thinker.draw`)."""


class Pictures:
    """Board pictures, drawn in a worker thread; ``None`` where a game has no renderer."""

    def __init__(self, enabled: bool = True, away: Drawer | None = None) -> None:
        self.enabled = enabled
        self.away = away
        """Where the pictures are drawn when not in a thread of this process: a site process
        with the job queue hands them to the workers (issue 49)."""

    async def of(self, loaded: Loaded, viewer: int | None) -> bytes | None:
        """The picture for ``viewer``. A game the host ended is drawn with its stored outcome,
        so the picture shows the result instead of a turn."""
        last, outcome = shown_last(loaded, viewer)
        return await self.draw(loaded.id, loaded.state, viewer, last, outcome, player_names(loaded))

    async def on(self, reply: Reply, loaded: Loaded, viewer: int | None) -> Reply:
        """``reply`` with the picture of ``loaded`` for ``viewer`` (:meth:`of`) and the same
        position in words as its alt text (none without a picture)."""
        image = await self.of(loaded, viewer)
        alt = self.alt_of(loaded, viewer) if image is not None else None
        return replace(reply, image=image, image_alt=alt)

    @staticmethod
    def alt_of(loaded: Loaded, viewer: int | None, limit: int = DISCORD_LIMIT) -> Text | None:
        """What :meth:`of` draws, in words (:func:`alt_text`)."""
        return alt_text(loaded.state, viewer, *shown_last(loaded, viewer), limit)

    async def draw(
        self,
        game_id: int | None,
        state: State[Any],
        viewer: int | None,
        last: Any,
        outcome: Outcome | None = None,
        names: Sequence[str] | None = None,
        marks: Marks | None = None,
    ) -> bytes | None:
        """The picture of ``state`` for ``viewer``; ``names``: the players by seat, drawn
        beside the seat names in the picture's header; ``marks``: a lesson's marks."""
        if not self.enabled or not render.has_renderer(state.game.id):
            return None
        try:
            job = partial(render.render_png, state, viewer, last, outcome, names, marks)
            return await (asyncio.to_thread(job) if self.away is None else self.away(job))
        except Exception:  # a broken picture must not hide a move that is already stored
            log.exception("render failed for game %s", game_id)
            return None

    @staticmethod
    def warm_up() -> None:
        """Build every game's palettes and static layers (call in a worker thread at start)."""
        render.warm_up()


def shown_last(loaded: Loaded, viewer: int | None) -> tuple[Any, Outcome | None]:
    """The last move and the host's end that ``viewer``'s picture of ``loaded`` shows: a secret
    move (a 数字将棋 setup) is blanked for everyone but the one who made it."""
    last = loaded.last_move
    if loaded.entries and loaded.entries[-1].secret and viewer != loaded.entries[-1].actor:
        last = None
    return last, host_outcome(loaded.row)
