"""The fast move generators against slow oracles written straight from the rules.

三国志 generates moves out of check without trying them (pins), and 黒壇の馬 reads the board as
one number with look-up tables; each is compared here with a plain version (try every move on
the board; walk the jumps on the text) over seeded random positions, hand-made ones included.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from engines.registry import get_game
from engines.sangokushi import (
    DROP_KINDS,
    GENERAL,
    HAND_KINDS,
    N_CELLS,
    PAWN,
    RAYS,
    SangokushiState,
    attackers_of,
)
from engines.socrates.board import ALL_EIGHT, CELLS, EMPTY, NEIGHBOURS, OWN, board_to_text
from engines.socrates.kokutan import (
    _BEYOND,
    AREA,
    JUMPS,
    MOVE_PHASE,
    STEP_FORWARD,
    KokutanState,
)

# --- 三国志 ---------------------------------------------------------------------------------------


def _sangokushi_oracle(state: SangokushiState) -> set[str]:
    """Every move of the side to move that leaves its general unattacked (or takes a general),
    tried on the board; attacks found by ``attackers_of`` (a full scan)."""
    t = state.tables
    me = state.to_move
    board = list(state.board)
    g = state.general_cell(me)
    out: set[str] = set()

    def safe(after: list[int], general: int) -> bool:
        return general < 0 or not attackers_of(after, general, me, t)

    for src, code in enumerate(board):
        if not code or code >> 3 != me:
            continue
        targets = [d for d in t.jumps[code][src] if not board[d] or board[d] >> 3 != me]
        for d in range(6):
            if not t.slide_mask[code] >> d & 1:
                continue
            for dst in RAYS[src][d]:
                if board[dst] and board[dst] >> 3 == me:
                    break
                targets.append(dst)
                if board[dst]:
                    break
        for dst in targets:
            after = list(board)
            after[dst], after[src] = code, 0
            if board[dst] & 7 == GENERAL or safe(after, dst if src == g else g):
                out.add(f"{src}-{dst}")
                if code & 7 == PAWN and (src in t.promo[me] or dst in t.promo[me]):
                    out.add(f"{src}-{dst}+")
    for kind in DROP_KINDS:
        if state.hands[me][HAND_KINDS.index(kind)]:
            for dst in range(N_CELLS):
                if not board[dst]:
                    after = list(board)
                    after[dst] = kind + 8 * me
                    if safe(after, g):
                        out.add(f"{kind}*{dst}")
    return out


def _sangokushi_moves(state: SangokushiState) -> list[str]:
    return [
        f"{m.drop}*{m.dst}" if m.is_drop else f"{m.src}-{m.dst}{'+' if m.promote else ''}"
        for m in state._pseudo_legal[0]
    ]


def _playout(
    game_id: str, seed: int, plies: int, prefer: Callable[[Any, Any], bool]
) -> Iterator[Any]:
    """The states of a seeded random game, moves for which ``prefer(state, move)`` is true
    chosen more often than the others."""
    rng = random.Random(f"oracle:{game_id}:{seed}")
    state: Any = get_game(game_id).new_game()
    for _ in range(plies):
        if state.is_over():
            return
        yield state
        moves = state.legal_moves()
        liked = [m for m in moves if prefer(state, m)]
        state = state.apply(rng.choice(liked if liked and rng.random() < 0.7 else moves))


@pytest.mark.parametrize("game_id", ["sangokushi", "sangokushi-2p"])
def test_sangokushi_moves_match_the_oracle(game_id: str) -> None:
    checked = 0
    for seed in range(12):
        for state in _playout(game_id, seed, 160, lambda s, m: not m.is_drop and s.board[m.dst]):
            assert isinstance(state, SangokushiState)
            got = _sangokushi_moves(state)
            assert len(got) == len(set(got))
            assert set(got) == _sangokushi_oracle(state), state.position()
            fresh = state.game.from_position(state.position(), state.options(), state.players)
            assert fresh._has_legal == bool(got)  # the outcome's quick test, before any move
            checked += bool(state.in_check)
    assert checked > 20  # the positions include many in check


# --- 黒壇の馬 -------------------------------------------------------------------------------------


def _kokutan_oracle(state: KokutanState) -> set[str]:
    """The move phase from the rules on the board text: steps, jump chains over any piece
    (never twice through a cell) ending strictly forward, and a piece next to an enemy of the
    other face must move if it can."""
    b, me = state.board, state.turn
    own = OWN[me]
    foe_of = {own[0]: OWN[1 - me][1], own[1]: OWN[1 - me][0]}

    def ends(start: int) -> list[int]:
        seen, stack = {start}, [start]
        while stack:
            c = stack.pop()
            for over, land in JUMPS[c]:
                if over != start and b[over] != EMPTY and b[land] == EMPTY and land not in seen:
                    seen.add(land)
                    stack.append(land)
        seen.discard(start)
        return [t for t in seen if (t >= _BEYOND[me][start]) == (me == 0)]

    moves: dict[int, set[str]] = {}
    for c in range(CELLS):
        if b[c] in own and AREA[c]:
            steps = [t for t in STEP_FORWARD[me][c] if b[t] == EMPTY]
            moves[c] = {f"{c}-{t}" for t in steps + ends(c)}
    checked = [
        c
        for c in moves
        if any(NEIGHBOURS[d][c] >= 0 and b[NEIGHBOURS[d][c]] == foe_of[b[c]] for d in ALL_EIGHT)
    ]
    forced = set().union(*(moves[c] for c in checked)) if checked else set()
    return forced or set().union(*moves.values()) or {"pass"}


def _kokutan_moves(state: KokutanState) -> list[str]:
    return ["pass" if m.kind == "pass" else f"{m.frm}-{m.to}" for m in state.legal_moves()]


def _random_board(rng: random.Random) -> str:
    """Up to 12 pieces a side anywhere in the area, any face (off-colour cells included)."""
    cells = [c for c in range(CELLS) if AREA[c]]
    board = [EMPTY] * CELLS
    chosen = rng.sample(cells, rng.randint(8, 24))
    for i, c in enumerate(chosen):
        board[c] = rng.choice(OWN[i % 2])
    return "".join(board)


def test_kokutan_moves_match_the_oracle_in_play() -> None:
    for seed in range(10):
        for state in _playout("socrates-kokutan", seed, 200, lambda s, m: m.kind != "pass"):
            if state.phase == MOVE_PHASE:
                got = _kokutan_moves(state)
                assert len(got) == len(set(got))
                assert set(got) == _kokutan_oracle(state), state.position()


def test_kokutan_moves_match_the_oracle_on_hand_made_boards() -> None:
    game = get_game("socrates-kokutan")
    rng = random.Random("oracle:kokutan:boards")
    for _ in range(300):
        text = board_to_text(_random_board(rng))
        state = game.from_position(f"{text} {rng.choice('bw')} move 0 30")
        assert isinstance(state, KokutanState)
        got = _kokutan_moves(state)
        assert len(got) == len(set(got))
        assert set(got) == _kokutan_oracle(state), state.position()
