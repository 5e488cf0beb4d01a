"""Helpers the Socrates rule tests share: legal moves as notation, and playing moves by text."""

from __future__ import annotations

from engines.socrates.board import SocratesState


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
