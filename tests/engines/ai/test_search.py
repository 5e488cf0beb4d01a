"""The search's choice of move, on small made-up game trees (only the parts of the State API
that the search reads)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from engines.ai.evaluation import Evaluation
from engines.ai.search import search


class _Drawn:
    """A drawn game's outcome, as far as the search reads it."""

    def returns(self) -> tuple[float, float]:
        return (0.0, 0.0)


@dataclass(frozen=True)
class Node:
    """A position of a made-up two-player game: ``tree`` maps a position to its moves (a move
    is the name of the position it leads to); seat 0 moves at even depths. The positions
    named in ``drawn`` are finished, drawn."""

    name: str
    tree: tuple[tuple[str, tuple[str, ...]], ...]
    drawn: frozenset[str] = frozenset()

    def outcome(self) -> _Drawn | None:
        return _Drawn() if self.name in self.drawn else None

    def current_player(self) -> int:
        return len(self.name) % 2

    def legal_moves(self) -> tuple[str, ...]:
        return dict(self.tree).get(self.name, ())

    def apply(self, move: str) -> Node:
        return Node(move, self.tree, self.drawn)


def _tree(children: dict[str, tuple[str, ...]]) -> Node:
    return Node("", tuple(children.items()))


def _scores(values: dict[str, float]) -> Evaluation:
    return Evaluation(lambda state, seat: values[state.name])


def test_equal_best_moves_are_all_candidates_at_no_margin() -> None:
    """Level 8 has no randomness margin, but moves exactly as good as the best are still drawn
    at random: the engine's move order must not decide between equals."""
    root = _tree({"": ("a", "b", "c", "d")})
    ev = _scores({"a": 5, "b": 7, "c": 7, "d": 7})
    found = search(root, 0, ev, max_depth=1, margin=0.0)  # type: ignore[arg-type]
    assert set(found.candidates) == {"b", "c", "d"}
    assert found.score == 7
    chosen = {random.Random(seed).choice(found.candidates) for seed in range(40)}
    assert chosen == {"b", "c", "d"}


def test_an_interrupted_depth_never_plays_a_move_it_did_not_reach() -> None:
    """Depth 1 ranks a (10), b (8), c (5). Depth 2 finds a refuted (-100) and b worth 0, then
    runs out of nodes before c. The search trusts the deeper result for the moves it reached and
    plays b, not c on the strength of its shallower 5."""
    children: dict[str, tuple[str, ...]] = {"": ("a", "b", "c")}
    values: dict[str, float] = {"a": 10, "b": 8, "c": 5}
    for move, replies in {"a": (-100, -50), "b": (0, 3), "c": (20, 30)}.items():
        children[move] = (move + "x", move + "y")
        values[move + "x"], values[move + "y"] = replies
    # Depth 1 visits 3 nodes; depth 2 visits a and its 2 replies, b and its 2: 9 in all.
    found = search(_tree(children), 0, _scores(values), max_depth=4, max_nodes=10)  # type: ignore[arg-type]
    assert found.depth == 1
    assert found.move == "b"
    assert found.candidates == ("b",)
    assert found.score == 0


def test_forced_moves_are_played_on_past_the_depth_when_the_game_asks() -> None:
    """At depth 1, a looks better (10) than b (5), but a's only reply leads, again by single
    moves, to a position worth -100. A game whose evaluation asks for forced moves to be
    followed (``forced``) sees it and plays b; without it the search stops at a and plays it.
    Forced moves are followed a few plies only (``FORCED_PLIES``)."""
    from engines.ai.search import FORCED_PLIES

    children: dict[str, tuple[str, ...]] = {"": ("a", "b"), "b": ("bx", "by")}
    values: dict[str, float] = {"a": 10, "b": 5, "bx": 5, "by": 5}
    chain = "a"
    for _ in range(3):
        children[chain] = (chain + "x",)
        values[chain] = 10
        chain += "x"
    values[chain] = -100
    plain = _scores(values)
    forced = Evaluation(plain.evaluate, forced=True)
    assert search(_tree(children), 0, plain, max_depth=1).move == "a"  # type: ignore[arg-type]
    assert search(_tree(children), 0, forced, max_depth=1).move == "b"  # type: ignore[arg-type]
    # A forced line longer than FORCED_PLIES is scored where the following stops.
    long = "a" + "x" * (FORCED_PLIES + 2)
    children = {"": ("a", "b"), "b": ("bx", "by")}
    chain = "a"
    while chain != long:
        children[chain] = (chain + "x",)
        values[chain] = 10
        chain += "x"
    values[long] = -100
    assert search(_tree(children), 0, forced, max_depth=1).move == "a"  # type: ignore[arg-type]


def test_contempt_plays_on_rather_than_into_a_draw() -> None:
    """Move a ends the game drawn; b leads to a position a little worse than even (-200).
    Without contempt a draw is even and a is played; a game that gives draws a contempt of
    1,000 (黒壇の馬) plays b and scores a at -1,000."""
    root = Node("", (("", ("a", "b")),), frozenset({"a"}))
    plain = _scores({"b": -200})
    spiteful = Evaluation(plain.evaluate, contempt=1_000)
    assert search(root, 0, plain, max_depth=1).move == "a"  # type: ignore[arg-type]
    found = search(root, 0, spiteful, max_depth=1, margin=10_000)  # type: ignore[arg-type]
    assert found.move == "b" and found.score == -200
    assert set(found.candidates) == {"a", "b"}  # a within the margin: valued, not pruned
