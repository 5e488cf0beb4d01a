"""Teaching material as data: each game's rules as pages of a few sentences and a diagram.

Pure (no I/O): a :class:`Rules` is sections of :class:`Page`; a page's :class:`Diagram` names a
position (position text, or the start), moves played from it, the viewer and the marks it
draws, all in the game's own notation (cell names such as ``E5``, ``2c``, ``四04``, ``e5``,
or a yosuko line ``1``-``6``). :func:`build` turns a diagram into the engine's state, the last
move and the renderer's :class:`render.base.Marks`. The marks are the data's claims; the tests
check them against the engine (a reach is exactly the piece's legal destinations, a capture is
what the move took), so a page can never teach a rule the engine does not play. Lessons reuse
the same diagrams.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engines import rokumentai as rokumentai_engine
from engines import sangokushi as sangokushi_engine
from engines import suji_shogi as suji_engine
from engines import yosuko as yosuko_engine
from engines.core import State, Text
from engines.registry import get_game
from engines.socrates import board as socrates_engine
from render.base import Marks


@dataclass(frozen=True)
class Diagram:
    """A position to draw and what to mark on it (cells by the game's own names)."""

    position: str = ""
    """The game's position text; empty: the start."""
    moves: tuple[str, ...] = ()
    """Moves played from the position, in notation; the last one is marked as moved."""
    viewer: int | None = None
    piece: str | None = None
    """The cell of the piece whose reach is marked (``None`` with a reach: drops/placements)."""
    reach: tuple[str, ...] = ()
    """Every cell that piece can go to (the tests check: exactly the engine's)."""
    captured: tuple[str, ...] = ()
    """Cells where the last move took a piece, as the position after it shows them (the
    tests check them against the move)."""
    next_seat: bool = False
    """Frame the heading of the seat to move (三国志's turn jumps)."""
    options: tuple[tuple[str, str], ...] = ()
    players: int | None = None
    game: str | None = None
    """Another game's engine to draw it with (``sangokushi-2p`` showing a 3-player piece)."""


@dataclass(frozen=True)
class Page:
    title: Text
    body: Text
    diagram: Diagram | None = None


@dataclass(frozen=True)
class Section:
    """One section of the rules; ``heading`` is the ``##``/``###`` heading of the game's rules
    document it teaches, ``covers`` further headings it stands for (notation, rulings)."""

    heading: str
    title: Text
    pages: tuple[Page, ...]
    covers: tuple[str, ...] = ()


@dataclass(frozen=True)
class Rules:
    game: str
    """The game id the pages are for (its engine draws every diagram)."""
    doc: str
    """The rules document's name (``socrates`` for the four Socrates games)."""
    sections: tuple[Section, ...]

    @property
    def pages(self) -> tuple[tuple[int, Page], ...]:
        """Every page in order, with the index of its section."""
        return tuple((i, p) for i, s in enumerate(self.sections) for p in s.pages)

    def first_page(self, section: int) -> int:
        """The index (0-based) of a section's first page."""
        return sum(len(s.pages) for s in self.sections[:section])


def cell_names(game_id: str) -> tuple[str, ...]:
    """The names of a game's cells by index (a yosuko line by its number, index = line)."""
    if game_id.startswith("sangokushi"):
        return sangokushi_engine.NAMES
    if game_id == "suji-shogi":
        return tuple(suji_engine.square_name(i) for i in range(suji_engine.SQUARES))
    if game_id == "rokumentai":
        return tuple(rokumentai_engine.square_name(i) for i in range(rokumentai_engine.SQUARES))
    if game_id.startswith("socrates"):
        return socrates_engine.CELL_NAMES
    if game_id == "yosuko":
        return tuple(str(i) for i in range(7))
    raise KeyError(game_id)


def cell_index(game_id: str, name: str) -> int:
    try:
        return cell_names(game_id).index(name)
    except ValueError:
        raise KeyError(f"{game_id}: no cell {name!r}") from None


def move_cells(move: Any) -> tuple[int | None, int] | None:
    """A move's (from, to) cells: from is ``None`` for a drop, a placement or a yosuko start;
    a flip is (cell, cell); ``None`` for a move that goes nowhere (a pass, a draw)."""
    if isinstance(move, sangokushi_engine.Move):
        return (None if move.is_drop else move.src), move.dst
    if isinstance(move, suji_engine.Move):
        return (None if move.is_drop else move.frm), move.to
    if isinstance(move, rokumentai_engine.Move):
        return (None if move.frm < 0 else move.frm), move.to
    if isinstance(move, socrates_engine.Move):
        if move.kind in (socrates_engine.MOVE, socrates_engine.FLIP):
            return move.frm, move.to
        return (None, move.to) if move.kind == socrates_engine.PLACE else None
    if isinstance(move, yosuko_engine.YosukoMove) and move.kind == yosuko_engine.START:
        return None, move.arg
    return None


def moved_cells(move: Any) -> tuple[int, ...]:
    """The cells a picture marks for ``move``: from and to, or the one cell of a drop, a
    placement or a flip; none for a move that goes nowhere."""
    cells = move_cells(move)
    if cells is None:
        return ()
    frm, to = cells
    return (to,) if frm is None or frm == to else (frm, to)


def destinations(state: State[Any], origin: int | None) -> frozenset[int]:
    """Where the engine lets the piece on ``origin`` go (``None``: drops and placements)."""
    found = set()
    for move in state.legal_moves():
        cells = move_cells(move)
        if cells is not None and cells[0] == origin:
            found.add(cells[1])
    return frozenset(found)


def captures(before: State[Any], move: Any) -> frozenset[int]:
    """The cells where ``move`` takes a piece in ``before`` (by the engine's board), as the
    position after it shows them: 六面体's beaten piece is the ghost on the square the beater
    left, a struck one stays where it stood."""
    if isinstance(move, sangokushi_engine.Move):
        assert isinstance(before, sangokushi_engine.SangokushiState)
        return frozenset({move.dst}) if not move.is_drop and before.board[move.dst] else frozenset()
    if isinstance(move, suji_engine.Move):
        assert isinstance(before, suji_engine.SujiState)
        return frozenset({move.to}) if not move.is_drop and before.board[move.to] else frozenset()
    if isinstance(move, rokumentai_engine.Move):
        assert isinstance(before, rokumentai_engine.RokumentaiState)
        if move.struck >= 0:
            return frozenset({move.struck})
        if move.frm >= 0 and before.board[move.to]:  # beaten: its ghost swapped to ``frm``
            return frozenset({move.frm})
        return frozenset()
    if isinstance(move, socrates_engine.Move):
        assert isinstance(before, socrates_engine.SocratesState)
        taken = move.kind == socrates_engine.MOVE and before.board[move.to] != socrates_engine.EMPTY
        return frozenset({move.to}) if taken else frozenset()
    return frozenset()


@dataclass(frozen=True)
class Built:
    """A diagram made real: the state to draw, the move just played and the marks."""

    state: State[Any]
    before: State[Any]
    last_move: Any
    marks: Marks


def build(game_id: str, diagram: Diagram) -> Built:
    """The engine's state of ``diagram`` (a bad position or move raises the engine's error)."""
    game_id = diagram.game or game_id
    game = get_game(game_id)
    options = dict(diagram.options)
    if diagram.position:
        state = game.from_position(diagram.position, options)
    else:
        state = game.new_game(diagram.players, options)
    before, last = state, None
    for text in diagram.moves:
        before, last = state, state.parse_move(text)
        state = state.apply(last)
    moved = moved_cells(last) if last is not None else ()
    marks = Marks(
        reach=frozenset(cell_index(game_id, c) for c in diagram.reach),
        origin=None if diagram.piece is None else cell_index(game_id, diagram.piece),
        moved=moved,
        captured=frozenset(cell_index(game_id, c) for c in diagram.captured),
        next_seat=state.current_player() if diagram.next_seat else None,
    )
    return Built(state, before, last, marks)
