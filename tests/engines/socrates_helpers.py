"""Helpers the Socrates rule tests share: legal moves as notation, and playing moves by text."""

from __future__ import annotations

from engines.socrates.board import CELLS, EMPTY, SocratesState, board_to_text, parse_cell


def board_text(*groups: str) -> str:
    """A board in position text from groups of a piece letter and its cells (``"P e5 a1"``)."""
    board = [EMPTY] * CELLS
    for group in groups:
        kind, *cells = group.split()
        for name in cells:
            c = parse_cell(name)
            assert c is not None
            board[c] = kind
    return board_to_text("".join(board))


def moves(state: SocratesState) -> set[str]:
    """The legal moves in canonical notation."""
    return {state.format_move(m) for m in state.legal_moves()}


def piece_moves(state: SocratesState, frm: str) -> set[str]:
    """The cells the piece on ``frm`` may move to."""
    return {m[3:] for m in moves(state) if m.startswith(frm + "-")}


def play(state: SocratesState, *texts: str) -> SocratesState:
    """Apply moves given in notation."""
    for text in texts:
        nxt = state.apply(state.parse_move(text))
        assert isinstance(nxt, SocratesState)
        state = nxt
    return state
