"""Mining puzzles from computer self-play (``scripts/mine_puzzles.py`` runs it; the
benchmark times it): pure but for the clock it reads to keep within its time.

The engines' computer (``engines.ai.choose_move``, a node budget rather than a clock, so a seed
replays exactly) plays itself from each seed; at every position where a seat is to move, the
position is rebuilt from its position text (what the data file keeps, without the repetition
history) and kept only when the proof search (:mod:`engines.ai.proof`) shows that exactly one
move wins by force within the fewest plies it needs (at most ``max_plies``), and no win is
shorter. The solution line is the solver's quickest win against the replies that hold out
longest. See docs/puzzles.md.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Callable, Sequence
from typing import Any

from engines.ai import choose_move
from engines.ai.proof import Budget, TooDeep, solution_line, win_length, winning_moves
from engines.core import SIMULTANEOUS, State, Termination
from engines.registry import get_game

PLAYERS = {"sangokushi": 3}
"""Player counts other than the game's first."""
MIN_CHOICES = 2
"""A puzzle's position offers at least this many legal moves (ツースリー's rarely more)."""
DEFAULT_PLIES = {"sangokushi": 4}
"""Plies a puzzle may take: the solver's second move comes after 2 replies with 3 players."""


def theme(state: State[Any], line: Sequence[Any]) -> str:
    """A short theme: how the game ends after the line, from the engine's own words for it
    ("five in a row", "checkmate: no legal turn left", "the last 占 turned to a ghost")."""
    end = state
    for move in line:
        end = end.apply(move)
    outcome = end.outcome()
    assert outcome is not None
    if outcome.termination is Termination.NO_MOVES:
        return "checkmate: no legal turn left"
    text = outcome.text.en
    ghost = re.search(r"last (\S+) was turned to a ghost", text)
    if ghost:
        return f"the last {ghost[1]} turned to a ghost"
    reason = re.search(r"wins(?: by|:) (.+?)\.?$", text)
    return reason[1] if reason else outcome.termination.value


def candidate(
    state: State[Any], max_plies: int, node_cap: int
) -> tuple[int, tuple[Any, ...]] | None:
    """(plies, solution line) when exactly one move wins within the fewest plies, else None."""
    seat = state.current_player()
    if len(state.legal_moves()) < MIN_CHOICES:
        return None  # no choice to make: no puzzle
    budget = Budget(node_cap)
    try:
        shortest = win_length(state, seat, max_plies, budget)
        if shortest is None or shortest == 0:
            return None
        wins = winning_moves(state, seat, shortest, budget)
        if len(wins) != 1:
            return None
        return shortest, solution_line(state, seat, shortest, wins[0], budget)
    except TooDeep:
        return None


def mine(
    game_id: str,
    kept: list[dict[str, Any]],
    seeds: range,
    target: int,
    seconds: float,
    max_plies: int,
    node_cap: int,
    levels: tuple[int, int],
    ai_nodes: int,
    per_game: int,
    report: Callable[[str], None] = lambda _: None,
    clock: Callable[[], float] = time.process_time,
    on_kept: Callable[[list[dict[str, Any]]], None] = lambda _: None,
) -> tuple[list[dict[str, Any]], float]:
    """Self-play ``game_id`` from each seed (until ``target`` puzzles in ``kept`` or
    ``seconds`` of ``clock``: by default this process's CPU time, so a loaded machine gives
    the same work however long it takes), adding the puzzles found to ``kept`` (positions
    already there are skipped); at most ``per_game`` from one game; ``on_kept(kept)`` after each
    puzzle (the script saves the file, so a run stopped early keeps what it found). Returns
    ``kept`` and the seconds spent."""
    game = get_game(game_id)
    players = PLAYERS.get(game_id)
    seen: set[str] = {row["position"] for row in kept}
    start = clock()
    for seed in seeds:
        if len(kept) >= target or clock() - start > seconds:
            break
        rng = random.Random(f"mine:{game_id}:{seed}")
        state: State[Any] = game.new_game(players)
        from_game = 0
        while not state.is_over() and len(kept) < target and from_game < per_game:
            mover = state.current_player()
            if mover == SIMULTANEOUS:  # a secret setup: one seat after the other
                seat = state.acting_players()[0]
                setup = choose_move(state, seat, 2, rng, max_nodes=ai_nodes, budget_scale=1e6)
                state = state.apply(setup, seat)
                continue
            if mover < 0:
                break  # a chance step: no puzzles in a game of chance
            text = state.position()
            if text not in seen:
                seen.add(text)
                fresh = game.from_position(text, state.options(), players)
                found = candidate(fresh, max_plies, node_cap)
                if found is not None:
                    plies, line = found
                    kept.append(record(game_id, len(kept) + 1, fresh, plies, line, seed))
                    from_game += 1
                    report(f"{game_id}: {len(kept)} (seed {seed}, ply {state.ply})")
                    on_kept(kept)
            lvl = rng.randint(*levels)
            move = choose_move(state, mover, lvl, rng, max_nodes=ai_nodes, budget_scale=1e6)
            state = state.apply(move)
    return kept, clock() - start


def record(
    game_id: str, n: int, state: State[Any], plies: int, line: tuple[Any, ...], seed: int
) -> dict[str, Any]:
    """One data line: see docs/puzzles.md."""
    seat = state.current_player()
    notation = []
    at = state
    for move in line:
        notation.append(at.format_move(move))
        at = at.apply(move)
    return {
        "id": f"{game_id}-{n:03d}",
        "game": game_id,
        "players": state.num_players,
        "position": state.position(),
        "seat": seat,
        "solution": notation,
        "plies": plies,
        "theme": theme(state, line),
        "difficulty": min(3, 1 + plies // 2),
        "verified": f"forced win in {plies} plies, the only winning first move",
        "source": f"self-play seed {seed}",
    }
