"""Puzzles as data: positions from computer self-play whose answer the proof search verified.

One file per rule set, ``<game>.jsonl`` beside this module (shipped in the package), one JSON
object a line, written by ``scripts/mine_puzzles.py`` (see docs/puzzles.md)::

    {"id": "rokumentai-001", "game": "rokumentai", "players": 2, "position": "<position text>",
     "seat": 0, "solution": ["<move>", "<reply>", "<move>"], "plies": 3, "theme": "rule",
     "difficulty": 2, "verified": "forced win in 3 plies, the only winning first move",
     "source": "self-play seed 12"}

``solution`` is the main line in the game's notation: the solver's moves and the replies that
hold out longest. The solver's other moves are checked when played (:func:`answer`): any move
that still wins within the plies left is right, by proof, never by comparison with the line.
Everything here but :func:`load` (which reads the files once) is pure.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

from engines.ai.proof import Budget, TooDeep, holding_replies, wins_within
from engines.core import State
from engines.registry import get_game

PUZZLE_GAMES = (
    "rokumentai",
    "sangokushi",
    "sangokushi-2p",
    "socrates-kokutan",
    "socrates-shinken",
    "socrates-twothree",
    "socrates-uchu",
    "suji-shogi",
)
"""The rule sets with puzzles: every one with open information (数字将棋 after its reveal).
略式易双六 has none: a solitaire dealt by chance has no forced win to find."""

ANSWER_NODES = 200_000
"""The most positions a proof of one answer may visit (a puzzle's own needs far fewer)."""


@dataclass(frozen=True, slots=True)
class Puzzle:
    id: str
    game: str
    players: int
    position: str
    seat: int
    """The seat that solves (to move at the start)."""
    solution: tuple[str, ...]
    plies: int
    """The solver wins within this many plies (everyone's), and no sooner."""
    theme: str
    difficulty: int
    verified: str
    source: str

    def start(self) -> State[Any]:
        state: State[Any] = get_game(self.game).from_position(self.position, None, self.players)
        return state

    def after(self, moves: Sequence[str]) -> State[Any]:
        """The position after ``moves`` (notation) from the start."""
        state = self.start()
        for text in moves:
            state = state.apply(state.parse_move(text))
        return state

    @property
    def solver_moves(self) -> int:
        """How many moves of the solver the main line has."""
        state, count = self.start(), 0
        for text in self.solution:
            count += state.current_player() == self.seat
            state = state.apply(state.parse_move(text))
        return count


def _puzzle(row: dict[str, Any]) -> Puzzle:
    return Puzzle(
        id=str(row["id"]),
        game=str(row["game"]),
        players=int(row["players"]),
        position=str(row["position"]),
        seat=int(row["seat"]),
        solution=tuple(str(m) for m in row["solution"]),
        plies=int(row["plies"]),
        theme=str(row["theme"]),
        difficulty=int(row["difficulty"]),
        verified=str(row["verified"]),
        source=str(row["source"]),
    )


def parse_lines(text: str) -> tuple[Puzzle, ...]:
    """The puzzles of one data file's text (blank lines skipped)."""
    return tuple(_puzzle(json.loads(line)) for line in text.splitlines() if line.strip())


@functools.cache
def load(game: str) -> tuple[Puzzle, ...]:
    """The puzzles of ``game`` (none for a game without a file)."""
    path = resources.files(__package__).joinpath(f"{game}.jsonl")
    if not path.is_file():
        return ()
    return parse_lines(path.read_text(encoding="utf-8"))


@functools.cache
def by_id() -> dict[str, Puzzle]:
    return {p.id: p for game in PUZZLE_GAMES for p in load(game)}


def every() -> tuple[Puzzle, ...]:
    return tuple(by_id().values())


@dataclass(frozen=True, slots=True)
class Answer:
    """What a solver's move did: ``right`` (it still wins within the plies left); the replies
    played after it (the main line's, or the proof's), or, for a wrong move, the refutation
    (the replies after which the win is gone); ``solved`` once the game is won."""

    right: bool
    solved: bool
    replies: tuple[str, ...]
    moves: tuple[str, ...]
    """The line played so far, the replies included (for a wrong move: as before it)."""


def answer(
    puzzle: Puzzle,
    played: Sequence[str],
    move: str,
    preferred: Sequence[str] = (),
    nodes: int = ANSWER_NODES,
) -> Answer:
    """Judge ``move`` (canonical notation, legal after ``played``) by proof. Right: the
    others' replies follow (the main line's while it is followed, else the one that holds out
    longest the proof finds first) up to the solver's next turn. Wrong: the refutation, from
    ``preferred`` (the search's own choice) when it refutes, else the proof's. CPU work: run
    it off the event loop."""
    state = puzzle.after(played)
    left = puzzle.plies - len(played)
    after = state.apply(state.parse_move(move))
    budget = Budget(nodes)
    line = [*played, move]
    try:
        right = wins_within(after, puzzle.seat, left - 1, budget)
    except TooDeep:
        right = False
    if not right:
        return Answer(
            False, False, refutation(after, puzzle.seat, left - 1, preferred), tuple(played)
        )
    replies: list[str] = []
    state, left = after, left - 1
    while state.outcome() is None and state.current_player() != puzzle.seat:
        on_line = len(line) < len(puzzle.solution) and line == list(puzzle.solution[: len(line)])
        if on_line:
            reply = state.parse_move(puzzle.solution[len(line)])
        else:
            reply = _longest(state, puzzle.seat, left, budget)
        text = state.format_move(reply)
        replies.append(text)
        line.append(text)
        state, left = state.apply(reply), left - 1
    return Answer(True, state.outcome() is not None, tuple(replies), tuple(line))


def _longest(state: State[Any], seat: int, left: int, budget: Budget) -> Any:
    """The reply after which the solver needs the most plies (all of them still lose)."""

    def needs(move: Any) -> int:
        after = state.apply(move)
        for plies in range(left):
            if wins_within(after, seat, plies, budget):
                return plies
        return left

    return max(state.legal_moves(), key=needs)


def refutation(
    state: State[Any], seat: int, left: int, preferred: Sequence[str] = ()
) -> tuple[str, ...]:
    """The others' replies from ``state`` (after a wrong move) up to the solver's turn after
    which the solver no longer wins within ``left`` plies: ``preferred`` moves first."""
    out: list[str] = []
    budget = Budget(ANSWER_NODES)
    while state.outcome() is None and state.current_player() != seat:
        wanted = [state.parse_move(m) for m in preferred if _legal(state, m)]
        try:
            holding = holding_replies(state, seat, left, wanted, budget)
        except TooDeep:
            holding = ()
        reply = holding[0] if holding else (wanted or list(state.legal_moves()))[0]
        out.append(state.format_move(reply))
        state, left = state.apply(reply), left - 1
        preferred = ()
    return tuple(out)


def _legal(state: State[Any], text: str) -> bool:
    try:
        state.parse_move(text)
    except ValueError:
        return False
    return True
