"""The analysis board (issue 50, 3): from any ply of a finished game, a private board where the
user tries moves for either side, takes them back, and asks the computer for its evaluation and
best line there. The game's record is never touched: the board is the user's practice board
(kind ``analysis``; opening it closes a lesson, a puzzle or a retry), its row keeping the game,
the ply it starts from and the moves tried since, so a restart continues it.

Who may: anyone who may see the game's record (a day's deal: its player until the day is over),
only once the game is over. Secret information stays secret: a position with anything hidden
(数字将棋 before the reveal) is not analysable, so the board starts at the first position with
nothing hidden. 略式易双六 is a solitaire dealt by chance: it has the review, not this board.
"""

from __future__ import annotations

import asyncio
import zlib
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from bot.clock import to_ms
from bot.i18n import text
from bot.model import GameStatus, PracticeRow
from bot.service import present
from bot.service.actions import Action, Button
from bot.service.cache import Loaded, replayed
from bot.service.context import Context
from bot.service.guard import entry
from bot.service.play.directory import MoveChoices, matching, named_moves
from bot.service.play.records import check_daily_view
from bot.service.review.explorer import Explorer, explored_lines
from bot.service.thinking import Thinker
from bot.service.values import Event, Line, Refusal, Reply, User
from engines.ai.review import best_line
from engines.core import CHANCE, EngineError, State, Text

KIND = "analysis"
"""The practice board's kind while an analysis is open."""
WEB_WORDS = 4000
"""The longest description of a board the site gives (no attachment's limit there)."""
MOVES_KEPT = 200
"""The most moves tried on one board (a takeback frees one)."""


@dataclass(frozen=True, slots=True)
class Start:
    """Where a board starts: the ply (plies from the game's start, chance and secret steps not
    counted, as the replays count them), its position and the move that led to it."""

    ply: int
    state: State[Any]
    last: Any


def starts(loaded: Loaded) -> list[Start]:
    """Every position of the game a board may start from: the start and the position after
    each ply, with the chance and secret steps that follow it (as the replays show them), but
    none with anything hidden."""
    row = loaded.row
    current = Start(0, loaded.game.new_game(row.players, row.options), None)
    out: list[Start] = []
    for entry_row, move, _, after in replayed(row, loaded.entries):
        if entry_row.actor != CHANCE and not entry_row.secret:  # a ply
            out.append(current)
            current = Start(current.ply + 1, after, move)
        else:
            current = Start(current.ply, after, current.last)
    out.append(current)
    return [s for s in out if s.state.observe(None) is s.state]


@dataclass(frozen=True, slots=True)
class WebAnalysis:
    """The analysis board as the site shows it to anyone holding a finished game's token: no
    row kept, the moves tried are in the address."""

    token: str
    title: Text
    ply: int
    """The move of the game the board starts from."""
    last: int
    """The game's last move (the board may start anywhere from the first open position)."""
    first: int
    """The first move a board may start from (数字将棋: the reveal)."""
    tried: tuple[tuple[Text, str], ...]
    """Each move tried: as the game shows it, and its notation (for the address)."""
    to_move: Text
    legal: tuple[tuple[Text, str], ...]
    """The moves that may be tried next (none once the board's game is over)."""
    described: Text
    """The board in words (its picture's alt text)."""
    line: Text | None = None
    """The computer's line, when asked for."""
    chances: Text | None = None
    explored: tuple[Text, ...] = ()
    """The explorer's numbers for the board's position (its heading, then the moves)."""


def _item(game_id: int, ply: int) -> str:
    return f"{game_id}:{ply}"


def _read_item(text: str) -> tuple[int, int] | None:
    game, sep, ply = text.partition(":")
    if not sep or not game.isdigit() or not ply.isdigit():
        return None
    return int(game), int(ply)


class Analysis:
    """``/analyse``, its buttons, and the practice board while an analysis is open."""

    def __init__(self, ctx: Context, thinker: Thinker, explorer: Explorer) -> None:
        self.ctx = ctx
        self.thinker = thinker
        self.explorer = explorer
        """The explorer's numbers for the board's position (every server's finished games)."""
        self._locks: dict[str, asyncio.Lock] = {}

    @asynccontextmanager
    async def _one_at_a_time(self, user_id: str) -> AsyncIterator[None]:
        async with self._locks.setdefault(user_id, asyncio.Lock()):
            yield

    async def _game(self, game_id: int, viewer: User | None) -> tuple[Loaded, list[Start]]:
        loaded = await self.ctx.games.read(game_id)
        await check_daily_view(self.ctx, loaded, viewer)
        if loaded.status not in (GameStatus.FINISHED, GameStatus.ABORTED):
            raise Refusal("analysis.refuse.running", id=game_id)
        if loaded.row.players == 1:
            raise Refusal("analysis.refuse.solitaire", id=game_id)
        found = starts(loaded)
        if not found:
            raise Refusal("analysis.refuse.hidden", id=game_id)
        return loaded, found

    # -- opening ---------------------------------------------------------------------------
    @entry
    async def open(self, user: User, game_id: int, ply: int | None = None) -> Reply:
        """A board at ply ``ply`` of ``game_id`` (default: its last position; an earlier ply
        than the first with nothing hidden: that one)."""
        async with self._one_at_a_time(user.id):
            loaded, found = await self._game(game_id, user)
            wanted = found[-1].ply if ply is None else ply
            start = next((s for s in found if s.ply >= wanted), found[-1])
            item = _item(game_id, start.ply)
            row = PracticeRow(user.id, KIND, item, (), 0, 0, 0, self._now())
            await self.ctx.store.set_open_puzzle(user.id, None)  # one practice board at a time
            await self.ctx.store.save_practice(row)
            said = Line("analysis.started", {"ply": start.ply, "last": found[-1].ply})
            board = await self._show(user, loaded, start, row, (said,))
            # opened from a review or a record: a message of its own (the board's own buttons
            # then change it in place)
            return replace(board, event=Event.REVIEW_MOVE)

    async def _open(self, user: User) -> tuple[Loaded, Start, PracticeRow]:
        row = await self.ctx.store.practice(user.id)
        parsed = None if row is None or row.kind != KIND else _read_item(row.item)
        if row is None or parsed is None:
            raise Refusal("analysis.refuse.not_open")
        game_id, ply = parsed
        loaded, found = await self._game(game_id, user)
        start = next((s for s in found if s.ply == ply), None)
        if start is None:
            raise Refusal("analysis.refuse.not_open")
        return loaded, start, row

    @staticmethod
    def _tried(start: Start, moves: Sequence[str]) -> tuple[State[Any], Any]:
        """The board after the moves tried (each played by whoever was to move)."""
        state, last = start.state, start.last
        for typed in moves:
            last = state.parse_move(typed)
            state = state.apply(last)
        return state, last

    async def _line(self, loaded: Loaded, start: Start, moves: Sequence[str]) -> Line:
        """The computer's evaluation of the board and its best line, worked out in a worker."""
        state, _ = self._tried(start, moves)
        seed = zlib.crc32(f"analysis:{loaded.id}:{start.ply}:{len(moves)}".encode())
        job = partial(best_line, state, nodes=self.ctx.settings.review_nodes, seed=seed)
        found = await self.thinker.draw(job)
        shown, after = [], state
        for move in found.moves:
            shown.append(present.display(after, move))
            after = after.apply(move)
        line = Text(" ".join(m.en for m in shown), " ".join(m.ja for m in shown))
        key = "analysis.line" if shown else "analysis.line_none"
        return Line(key, {"chances": self._chances(loaded, found.chances), "line": line})

    # -- the site (stateless: the moves tried are in the address) ----------------------------
    async def web_board(
        self, loaded: Loaded, ply: int | None, moves: Sequence[str]
    ) -> tuple[Start, list[Start], State[Any], Any]:
        """The board of a shown game's page: where it starts, where it may start, the position
        after ``moves`` and the last move (any bad part: not there)."""
        _, found = await self._game(loaded.id, None)
        wanted = found[-1].ply if ply is None else ply
        start = next((s for s in found if s.ply >= wanted), found[-1])
        if len(moves) > MOVES_KEPT:
            raise Refusal("analysis.refuse.long", most=MOVES_KEPT)
        try:
            state, last = self._tried(start, moves)
        except EngineError as exc:
            raise Refusal("refuse.bad_move", reason=exc.text) from exc
        return start, found, state, last

    async def web(
        self, loaded: Loaded, token: str, ply: int | None, moves: Sequence[str], best: bool
    ) -> WebAnalysis:
        start, found, state, last = await self.web_board(loaded, ply, moves)
        tried: list[tuple[Text, str]] = []
        board = start.state
        for typed in moves:
            move = board.parse_move(typed)
            tried.append((present.display(board, move), board.format_move(move)))
            board = board.apply(move)
        seat = state.current_player()
        open_ = state.outcome() is None and seat >= 0
        legal = (
            tuple((present.display(state, m), state.format_move(m)) for m in state.legal_moves())
            if open_
            else ()
        )
        said = await self._line(loaded, start, moves) if best else None
        explored = tuple(
            text(x.key, **x.params) for x in explored_lines(await self.explorer.at(state))
        )
        return WebAnalysis(
            token=token,
            title=present.title(loaded.game),
            ply=start.ply,
            last=found[-1].ply,
            first=found[0].ply,
            tried=tuple(tried),
            to_move=self._to_move(loaded, state),
            legal=legal,
            described=present.alt_text(state, None, last, limit=WEB_WORDS)
            or present.title(loaded.game),
            line=None if said is None else said.params["line"],
            chances=None if said is None else said.params["chances"],
            explored=explored,
        )

    # -- the practice board (:class:`~bot.service.learn.practice.Practising`) ----------------
    @entry
    async def move(self, user: User, text: str) -> Reply:
        """A move for whoever is to move on the board."""
        async with self._one_at_a_time(user.id):
            loaded, start, row = await self._open(user)
            state, _ = self._tried(start, row.moves)
            if state.outcome() is not None or state.current_player() < 0:
                raise Refusal("analysis.refuse.over")
            if len(row.moves) >= MOVES_KEPT:
                raise Refusal("analysis.refuse.long", most=MOVES_KEPT)
            try:
                move = state.parse_move(text)
            except EngineError as exc:
                near = [present.shown_move(state, s) for s in exc.suggestions]
                raise Refusal("refuse.bad_move", near, reason=exc.text) from exc
            row = replace(row, moves=(*row.moves, state.format_move(move)), at_ms=self._now())
            await self.ctx.store.save_practice(row)
            said = Line("analysis.played", {"move": present.display(state, move)})
            return await self._show(user, loaded, start, row, (said,))

    @entry
    async def back(self, user: User) -> Reply:
        """Take the last move tried back."""
        async with self._one_at_a_time(user.id):
            loaded, start, row = await self._open(user)
            if not row.moves:
                raise Refusal("analysis.refuse.nothing_to_take_back")
            row = replace(row, moves=row.moves[:-1], at_ms=self._now())
            await self.ctx.store.save_practice(row)
            return await self._show(user, loaded, start, row, (Line("analysis.back"),))

    @entry
    async def hint(self, user: User) -> Reply:
        """The computer's evaluation of the board and its best line (in a worker)."""
        async with self._one_at_a_time(user.id):
            loaded, start, row = await self._open(user)
            said = await self._line(loaded, start, row.moves)
            return await self._show(user, loaded, start, row, (said,))

    @entry
    async def legal(self, user: User, typed: str, limit: int = 25, lang: str = "en") -> MoveChoices:
        """The board's legal moves (of whoever is to move) matching ``typed``."""
        try:
            _, start, row = await self._open(user)
        except Refusal:
            return MoveChoices((), 0)
        state, _ = self._tried(start, row.moves)
        seat = state.current_player()
        if state.outcome() is not None or seat < 0:
            return MoveChoices((), 0)
        return matching(named_moves(state, seat, lang), typed, limit)

    # -- replies ---------------------------------------------------------------------------
    @staticmethod
    def _to_move(loaded: Loaded, state: State[Any]) -> Text:
        n, seat = loaded.row.players, state.current_player()
        if state.outcome() is not None or seat < 0:
            return text("analysis.nobody")
        return Text(loaded.game.seat_name(seat, "en", n), loaded.game.seat_name(seat, "ja", n))

    @staticmethod
    def _chances(loaded: Loaded, chances: Sequence[float]) -> Text:
        game, n = loaded.game, loaded.row.players
        parts = [
            (game.seat_name(seat, "en", n), game.seat_name(seat, "ja", n), round(100 * c))
            for seat, c in enumerate(chances)
        ]
        return Text(
            ", ".join(f"{en} {p}%" for en, _, p in parts),
            "、".join(f"{ja} {p}%" for _, ja, p in parts),
        )

    async def _show(
        self,
        user: User,
        loaded: Loaded,
        start: Start,
        row: PracticeRow,
        lines: tuple[Line, ...],
    ) -> Reply:
        state, last = self._tried(start, row.moves)
        tried: list[Text] = []
        board = start.state
        for typed in row.moves:
            move = board.parse_move(typed)
            tried.append(present.display(board, move))
            board = board.apply(move)
        moves = Text(" ".join(m.en for m in tried) or "—", " ".join(m.ja for m in tried) or "—")
        to_move = self._to_move(loaded, state)
        image = await self.ctx.pictures.draw(None, state, None, last)
        lines = (*lines, *explored_lines(await self.explorer.at(state)))
        buttons = [Button(Action.ANALYSIS_MOVE), Button(Action.ANALYSIS_BEST)]
        if row.moves:
            buttons.append(Button(Action.ANALYSIS_BACK))
        buttons.append(Button(Action.LEARN_STOP))
        return Reply(
            "analysis.position",
            {
                "id": loaded.id,
                "game": present.title(loaded.game),
                "ply": start.ply,
                "tried": len(row.moves),
                "moves": moves,
                "to_move": to_move,
            },
            event=Event.ANALYSIS,
            public=False,
            audience=user.id,
            image=image,
            image_alt=present.alt_text(state, None, last) if image is not None else None,
            actions=tuple(buttons),
            lines=lines,
        )

    def _now(self) -> int:
        return to_ms(self.ctx.clock.now())
