"""A seat's board on the site (issue 51, 2): the picture that seat sees, where its cells are
drawn, and its legal moves grouped by where they are clicked.

A move is grouped by its origin: a cell of the board (a piece to move), a piece in hand (a
drop, 六面体's cube, 略式易双六's token) or no place at all (a pass, 数字将棋's secret setup,
略式易双六's draw), and carries its target cell and its canonical notation. The page holds no
rule: it lights the targets of the origin clicked, asks which when a target holds several moves
(a promotion, 六面体's faces) and sends back the notation, which :meth:`SeatBoards.play` plays
through the same use case as ``/move`` (``/setup`` at a secret step). What the move announces is
left to the delivery loop (the site cannot post to Discord): its claim is released and the loop
woken, so the thread hears of a move made on the site as of a move made in Discord.
"""

from __future__ import annotations

import asyncio
import struct
from collections import OrderedDict
from dataclasses import dataclass, replace
from typing import Any

import render
from bot import i18n
from bot.learn import move_cells
from bot.service import present
from bot.service.cache import Loaded
from bot.service.context import Context
from bot.service.play.timers import Timers
from bot.service.play.turns import Turns, seats_of
from bot.service.values import Refusal, Reply, User
from engines.core import SIMULTANEOUS, State, Text
from render.describe import cell_words, hand_piece, square_names

PICTURES_KEPT = 256
"""Seats' pictures kept (a page asks for its picture right after its board)."""
BOARD = "c"
"""An origin key's prefix for a cell of the board (``c12``)."""
HAND = "h:"
"""An origin key's prefix for a piece in hand (``h:piece 5``)."""
LANGS = ("en", "ja")
NOWHERE = ""
"""The origin key of a move that is clicked nowhere on the board (a pass, a setup, a draw)."""


@dataclass(frozen=True, slots=True)
class BoardCell:
    """A cell of the picture: its index, its name, its box in the picture's pixels (x0, y0,
    x1, y1) and, in words, its name and what stands on it as the seat sees it."""

    cell: int
    name: str
    box: tuple[float, float, float, float]
    words: Text


@dataclass(frozen=True, slots=True)
class Origin:
    """Where a group of moves starts: ``key`` (:data:`BOARD` and a cell, :data:`HAND` and the
    piece's name, or :data:`NOWHERE`), its cell on the board if any, and its label."""

    key: str
    cell: int | None
    label: Text


@dataclass(frozen=True, slots=True)
class Choice:
    """One legal move: its canonical notation (what the page sends back), as the game writes
    it for players, where it starts (an :class:`Origin`'s key) and the cell it goes to."""

    notation: str
    shown: Text
    origin: str
    target: int | None
    placed: tuple[tuple[int, int], ...] = ()
    """A setup's placements (a move clicked nowhere that fills cells: 数字将棋's secret
    setup): each cell it fills and what with, an index into :attr:`SeatBoard.pieces`; the
    page lets the player fill the cells one by one and plays the one setup that fits."""


@dataclass(frozen=True, slots=True)
class SeatBoard:
    """What the site's board of one seat holds: the picture that seat sees and its size, the
    cells, and its moves now (none when it is not this seat's turn)."""

    game_id: int
    seat: int
    version: int
    ply: int
    """The log's length: a move sent from this board is refused once the game has moved on."""
    acting: bool
    """It is this seat's turn (or it has a setup to give)."""
    secret: bool
    """A secret step: the move is a setup (nobody else sees it)."""
    live: bool
    size: tuple[int, int]
    described: Text
    cells: tuple[BoardCell, ...]
    origins: tuple[Origin, ...]
    choices: tuple[Choice, ...]
    pieces: tuple[Text, ...] = ()
    """What the choices' placements put on a cell, by index (``piece 3``)."""


def png_size(png: bytes) -> tuple[int, int]:
    """A PNG's width and height (its header's first chunk)."""
    width, height = struct.unpack(">II", png[16:24])
    return int(width), int(height)


def acting_seat(loaded: Loaded, user: User) -> int:
    """The seat of ``user`` whose board the site shows: the one to act now, else the first."""
    seats = seats_of(loaded, user)
    acting = [s for s in seats if s in loaded.state.acting_players()]
    return acting[0] if acting else seats[0]


def _origin(state: State[Any], move: Any, cells: tuple[int | None, int] | None) -> Origin:
    piece = hand_piece(state, move)
    if piece is not None:
        return Origin(HAND + piece.en, None, piece)
    if cells is not None and cells[0] is not None:
        return Origin(f"{BOARD}{cells[0]}", cells[0], Text("", ""))
    return Origin(NOWHERE, None, i18n.text("web.play.other"))


def choices_of(state: State[Any], seat: int) -> tuple[tuple[Origin, ...], tuple[Choice, ...]]:
    """``seat``'s legal moves now, grouped by origin (in the engine's order)."""
    origins: dict[str, Origin] = {}
    choices = []
    for move in state.legal_moves(seat):
        cells = move_cells(move)
        origin = _origin(state, move, cells)
        origins.setdefault(origin.key, origin)
        target = cells[1] if cells is not None else None
        shown = present.display(state, move)
        choices.append(Choice(state.format_move(move), shown, origin.key, target))
    return tuple(origins.values()), tuple(choices)


def with_placements(
    state: State[Any], seat: int, choices: tuple[Choice, ...]
) -> tuple[tuple[Choice, ...], tuple[Text, ...]]:
    """``choices`` with what each secret setup among them puts on which cell: ``seat``'s
    pieces after it (read from the position in words, so no game's setup is spelled out here),
    and the table of those pieces."""
    pieces: dict[tuple[str, str], int] = {}
    out = []
    for choice in choices:
        if choice.origin != NOWHERE:
            out.append(choice)
            continue
        after = state.apply(state.parse_move(choice.notation, seat), seat)
        en, ja = (cell_words(after, seat, lang, sides=False, owner=seat) for lang in LANGS)
        placed = tuple(
            (cell, pieces.setdefault((what, ja[cell]), len(pieces)))
            for cell, what in sorted(en.items())
        )
        out.append(replace(choice, placed=placed))
    order = sorted(pieces, key=lambda words: (len(words[0]), words))  # piece 2 before piece 10
    renumber = {pieces[words]: n for n, words in enumerate(order)}
    out = [replace(c, placed=tuple((cell, renumber[p]) for cell, p in c.placed)) for c in out]
    return tuple(out), tuple(Text(en, ja) for en, ja in order)


def board_cells(
    state: State[Any], seat: int, size: tuple[int, int], targets: set[int]
) -> tuple[BoardCell, ...]:
    """The cells of ``seat``'s picture (the board's squares, or 略式易双六's lines the moves
    reach), each with its box and its words."""
    names = list(square_names(state.game.id))
    lines = not names  # 略式易双六: its lines, by number
    cells = sorted(targets) if lines else list(range(len(names)))
    words = {lang: cell_words(state, seat, lang) for lang in LANGS}
    out = []
    for cell in cells:
        box = render.cell_box(state, seat, cell)
        if box is None:
            continue
        x0, y0, x1, y1 = (max(0.0, min(v, limit)) for v, limit in zip(box, size * 2, strict=True))
        name = str(cell) if lines else names[cell]
        said = Text(*(_cell_words(lang, name, words[lang].get(cell), lines) for lang in LANGS))
        out.append(BoardCell(cell, name, (x0, y0, x1, y1), said))
    return tuple(out)


def _cell_words(lang: str, name: str, what: str | None, line: bool) -> str:
    if line:
        return i18n.t("web.play.line", lang, n=name)
    if what is None:
        return i18n.t("web.play.empty", lang, cell=name)
    return i18n.t("web.play.cell", lang, cell=name, what=what)


class SeatBoards:
    """The site's boards of seated players, and their moves."""

    def __init__(self, ctx: Context, turns: Turns, timers: Timers) -> None:
        self.ctx = ctx
        self.turns = turns
        self.timers = timers
        self._pictures: OrderedDict[tuple[int, int, int], bytes] = OrderedDict()

    async def picture(self, game_id: int, user: User) -> bytes:
        """The picture ``user``'s seat sees now (their own 数字将棋 setup; nobody else's)."""
        loaded = await self.ctx.games.read(game_id)
        return await self._picture(loaded, acting_seat(loaded, user))

    async def _picture(self, loaded: Loaded, seat: int) -> bytes:
        key = (loaded.id, loaded.row.version, seat)
        kept = self._pictures.get(key)
        if kept is not None:
            self._pictures.move_to_end(key)
            return kept
        image = await self.ctx.pictures.of(loaded, seat)
        if image is None:
            raise Refusal("refuse.no_pictures")
        self._pictures[key] = image
        while len(self._pictures) > PICTURES_KEPT:
            self._pictures.popitem(last=False)
        return image

    async def board(self, game_id: int, user: User) -> SeatBoard:
        """``user``'s board of ``game_id``: their seat's picture, its cells and their moves now
        (refused for someone who does not play in it)."""
        loaded = await self.ctx.games.read(game_id)
        seat = acting_seat(loaded, user)
        state = loaded.state
        live = loaded.status.is_live and state.outcome() is None
        acting = live and seat in state.acting_players()
        origins, choices = choices_of(state, seat) if acting else ((), ())
        secret = state.current_player() == SIMULTANEOUS
        pieces: tuple[Text, ...] = ()
        if secret and choices:
            choices, pieces = await asyncio.to_thread(with_placements, state, seat, choices)
        size = png_size(await self._picture(loaded, seat))
        targets = {c.target for c in choices if c.target is not None}
        cells = await asyncio.to_thread(board_cells, state, seat, size, targets)
        described = self.ctx.pictures.alt_of(loaded, seat) or i18n.text("picture.alt")
        return SeatBoard(
            loaded.id,
            seat,
            loaded.row.version,
            len(loaded.entries),
            acting,
            secret,
            live,
            size,
            described,
            cells,
            origins,
            choices,
            pieces,
        )

    async def play(self, game_id: int, user: User, text: str, ply: int | None) -> Reply:
        """Play ``text`` for ``user`` as ``/move`` does (``/setup`` at a secret step), then
        leave what it announces to the delivery loop: the reply for the user (a setup's is
        the private one)."""
        loaded = await self.ctx.games.read(game_id)
        if loaded.state.current_player() == SIMULTANEOUS:
            private, *public = await self.turns.setup(game_id, user, text, ply=ply)
            self.leave_to_delivery(public)
            return private
        played = await self.turns.play(game_id, user, text, ply=ply)
        self.leave_to_delivery([played])
        return played

    def leave_to_delivery(self, replies: list[Reply]) -> None:
        """Nobody here posts ``replies``: their announcements are released to this process's
        delivery loop, which is woken to post them now (in a site process of its own, the bot
        process of the game's shard hears of the commit and posts them:
        ``GameService.follow_other_processes``)."""
        for reply in replies:
            for key in reply.announcements:
                self.ctx.games.claims.release(key)
        self.timers.changed.set()
