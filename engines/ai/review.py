"""The computer's review of a finished game (棋譜解析): each ply judged against the best move.

For every ply a seat chose, :func:`judge` searches the position it was played from, for the
seat that moved, with the search's own window (a move found no better than the best is cut
off, as in play) except for the played move, which always gets an exact value; the best value
is the position's evaluation and the played move's value is what the player kept. (Until issue
52 every root move got an exact value: a root window that never narrowed, which cost the
search up to a ply of depth for values nobody read.) Values are mapped to winning
chances (:func:`chance`): a proven win is 1, a proven loss 0, and between them a logistic
curve in units of the game's own piece value (``Evaluation.unit``), so that one unit up is
about a 70% chance with two players; with ``n`` players an even position is ``1/n``. The
other seats share what the mover does not have, two players as ``1 - p``, three in proportion
to their own static evaluation (a softmax on the same scale).

The budget is a number of nodes, never the clock, so a review is the same on any machine and
under any load (issue 52): :func:`budget` scales the caller's nodes by the game's
:data:`NODE_SCALE`. Every move is first scored one ply deep without any quiescence, whatever the
budget (an immediate win is never missed); the search proper (depth 1 with the game's
quiescence, which sees a piece left hanging, then deeper) runs within the nodes, and its last
completed depth counts. Where that depth did not reach the opponents' replies, a move after
which the seat next to move can end the game against the mover at once (a drop that mates, a
general on 三国志's centre) is a proven loss all the same (:func:`allows_loss`). A move that
looks like a mistake is judged again deeper (``confirm``: the first look's best move and the
played one alone, with :data:`CONFIRM` times the nodes) and reported only if it still is
(:func:`is_mistake`, :func:`to_confirm`).

略式易双六 has no opponent and no search: a choice is rated against the others over the same
sampled futures (:func:`engines.ai.yosuko.rate`, from the state as the player sees it: never the
real talon), sampled until the difference is known to :data:`SAMPLED_ERROR` or the budget's
samples are spent; the judgement carries the estimate's spread.

Pure like the rest of ``engines``: the caller gives the nodes and the seed. See docs/review.md.
"""

from __future__ import annotations

import math
import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from engines.ai.levels import LEVELS
from engines.ai.registry import evaluation_for
from engines.ai.search import PROVEN, TIE, WIN, OutOfTime, Searcher
from engines.ai.yosuko import rate
from engines.core import Outcome, State

SCALE = 1.2
"""Units of advantage (``Evaluation.unit``) that move the logistic curve by a factor of e:
one unit up is a 70% chance between two players."""
REVIEW_LEVEL = max(LEVELS)
"""The level whose evaluation and depth cap the review searches with."""
NODE_SCALE: dict[str, float] = {
    "rokumentai": 2.0,
    "socrates-kokutan": 2.5,
    "socrates-shinken": 2.0,
    "socrates-twothree": 2.0,
    "suji-shogi": 2.0,
    "yosuko": 0.15,
}
"""Games whose budget is this many times the caller's nodes (:func:`budget`), so that a 60-ply
game of each takes about 30 s at most on a 2-core machine (docs/review.md): those whose nodes
are cheap get more. 略式易双六's unit is one sampled future of every choice, not a node."""
CONFIRM = 5
"""A candidate mistake is judged again deeper: the first look's best move and the played one
alone, searched with this many times the nodes (略式易双六: sampled with this many times the
futures). Two moves alone reach as deep as a whole search with about twice the nodes, and a
loss they find is one that search finds too at that depth (it can only find a better best)."""
SMALLEST_MISTAKE = 0.02
"""A move that gives away less of a winning chance than this is no mistake."""
SAMPLED_ERROR = 0.01
"""略式易双六: the standard error of a choice's difference from the others that the sampling
stops at (if the samples last)."""


def budget(game_id: str, nodes: int) -> int:
    """The nodes (略式易双六: the sampled futures) a ply of ``game_id`` gets for ``nodes``."""
    return max(1, round(nodes * NODE_SCALE.get(game_id, 1.0)))


@dataclass(frozen=True, slots=True)
class Judgement:
    """One ply judged: the ``seat`` that moved, the computer's ``best`` move, the winning
    chances of every seat in the position before the ply (``chances``, the best play's), the
    mover's chance after the best move and after the played one, how deep it looked, whether
    it was the deeper check of a candidate mistake (``confirmed``) and, for a sampled
    judgement, the spread of the loss (two standard errors; 0 for a search)."""

    seat: int
    best: Any
    chances: tuple[float, ...]
    best_chance: float
    played_chance: float
    depth: int
    nodes: int
    confirmed: bool = False
    spread: float = 0.0

    @property
    def loss(self) -> float:
        """How much of a winning chance the played move gave away (0 for the best move)."""
        return max(0.0, self.best_chance - self.played_chance)


class Judged(Protocol):
    """What :func:`to_confirm` reads of a judged ply (a :class:`Judgement`, or a stored one)."""

    @property
    def seat(self) -> int: ...
    @property
    def loss(self) -> float: ...
    @property
    def spread(self) -> float: ...
    @property
    def confirmed(self) -> bool: ...


def is_mistake(ply: Judged) -> bool:
    """A ply gave away at least :data:`SMALLEST_MISTAKE`, and more than its spread."""
    return ply.loss >= SMALLEST_MISTAKE and ply.loss > ply.spread


def mistakes(plies: Sequence[Judged], seat: int, count: int) -> list[int]:
    """The indices of ``seat``'s ``count`` biggest mistakes among ``plies``, biggest first (ties:
    earlier first), as they stand: confirmed or not."""
    own = [k for k, p in enumerate(plies) if p.seat == seat and is_mistake(p)]
    return sorted(own, key=lambda k: (-plies[k].loss, k))[:count]


def luck(start: float, end: float, plies: Sequence[Judged]) -> tuple[int, int, int, int]:
    """A solitaire's chance as dealt (``start``) and at the end (``end``), and what moved it
    between, in points that add up: the cards, and the choices (the losses of the ``plies``
    that are mistakes; a loss within its spread counts as the cards')."""
    first, last = round(100 * start), round(100 * end)
    choices = -round(100 * sum(p.loss for p in plies if is_mistake(p)))
    return first, last, last - first - choices, choices


def to_confirm(plies: Sequence[Judged], count: int) -> list[int]:
    """The plies to judge again (``confirm``) before each seat's ``count`` biggest mistakes can
    be reported: those among them not confirmed yet. Judge them again and ask again until none
    is left; a candidate whose confirmed loss falls makes room for the next one."""
    seats = sorted({p.seat for p in plies})
    found = [k for seat in seats for k in mistakes(plies, seat, count)]
    return sorted(k for k in found if not plies[k].confirmed)


def chance(value: float, unit: float, players: int) -> float:
    """The mover's winning chance for a search value (see the module text)."""
    if value >= PROVEN:
        return 1.0
    if value <= -PROVEN:
        return 0.0
    x = max(-50.0, min(50.0, value / (unit * SCALE)))
    return 1.0 / (1.0 + (players - 1) * math.exp(-x))


def outcome_chances(outcome: Outcome, players: int) -> tuple[float, ...]:
    """The chances at the end: the winners share 1 (a draw: everyone ``1/n``). A solitaire's
    player alone either won (1), drew (½) or lost (0): one seat is not a field to share."""
    if players == 1:
        return ({"win": 1.0, "draw": 0.5}.get(outcome.result(0), 0.0),)
    returns = outcome.returns()
    top = max(returns)
    winners = [s for s in range(players) if returns[s] == top]
    if len(winners) == players:
        return tuple(1.0 / players for _ in range(players))
    return tuple(1.0 / len(winners) if s in winners else 0.0 for s in range(players))


def even(players: int) -> tuple[float, ...]:
    """Every seat alike: a position nobody may judge (a secret setup, a chance step)."""
    return tuple(1.0 / players for _ in range(players))


def _share(state: State[Any], seat: int, p: float, unit: float) -> tuple[float, ...]:
    """Every seat's chance when ``seat`` has ``p``: the others share ``1 - p``."""
    players = state.num_players
    if players == 1:
        return (p,)
    others = [s for s in range(players) if s != seat]
    if len(others) == 1:
        weights = [1.0]
    else:
        evaluate = evaluation_for(state.game.id).at_level(REVIEW_LEVEL).evaluate
        scores = [evaluate(state, s) / (unit * SCALE) for s in others]
        top = max(scores)
        weights = [math.exp(max(-50.0, s - top)) for s in scores]
    total = sum(weights)
    out = [0.0] * players
    out[seat] = p
    for s, w in zip(others, weights, strict=True):
        out[s] = (1.0 - p) * w / total
    return tuple(out)


def judge(
    state: State[Any], played: Any, *, nodes: int, seed: int = 0, confirm: bool = False
) -> Judgement:
    """Judge ``played`` (legal at ``state``, where a seat is to move) against the best move
    with :func:`budget` nodes past the first plain ply, :data:`CONFIRM` times as many for the
    deeper check of a candidate mistake (``confirm``); see the module text. ``depth`` is the
    search's last completed depth (0: the plain ply only)."""
    seat = state.current_player()
    if seat < 0:
        raise ValueError("no seat is to move here")
    nodes = budget(state.game.id, nodes)
    if state.num_players == 1:
        return _sampled(state, played, nodes * (CONFIRM if confirm else 1), seed, confirm)
    ev = evaluation_for(state.game.id).at_level(REVIEW_LEVEL)
    scores, depth, searched = _search(state, seat, nodes, {played})
    if depth < 2:  # the opponents' replies were not all searched: look for a loss at once
        best = next(iter(scores))
        if _unsure(scores[best]) and allows_loss(state.apply(best), seat):
            # The best is lost at once: which others are too, and the best of the rest.
            lost = {m for m in state.legal_moves() if allows_loss(state.apply(m), seat)}
            scores, depth, more = _search(state, seat, nodes, {played}, lost)
            searched += more
        elif played != best and _unsure(scores[played]) and allows_loss(state.apply(played), seat):
            scores[played] = LOST_AT_ONCE
    if confirm:  # the best and the played move alone, searched deeper
        pair = list(dict.fromkeys([next(iter(scores)), played]))
        scores, depth, more = _search(state, seat, CONFIRM * nodes, among=pair)
        searched += more
        for move in pair if depth < 2 else ():
            if _unsure(scores[move]) and allows_loss(state.apply(move), seat):
                scores[move] = LOST_AT_ONCE
        scores = dict(sorted(scores.items(), key=lambda t: -t[1]))
    best, best_value = next(iter(scores.items()))
    played_value = scores[played]
    players = state.num_players
    best_chance = chance(best_value, ev.unit, players)
    played_chance = chance(played_value, ev.unit, players)
    return Judgement(
        seat,
        best,
        _share(state, seat, best_chance, ev.unit),
        best_chance,
        played_chance,
        depth,
        searched,
        confirm,
    )


def _unsure(value: float) -> bool:
    return abs(value) < PROVEN


def _search(
    state: State[Any],
    seat: int,
    nodes: int,
    exact: Collection[Any] | None = None,
    lost: Collection[Any] = (),
    among: Sequence[Any] | None = None,
) -> tuple[dict[Any, float], int, int]:
    """Every root move's value for ``seat`` (to move) at the last depth completed within
    ``nodes`` past the plain first ply, best first (the first of equal moves in the search's
    order); that depth; the nodes spent. The best move's value and those of the moves in
    ``exact`` (``None``: all) are exact, the others' upper bounds (a move found no better than
    the best is not searched further: the window is the search's own, not a wide one). The
    moves in ``lost`` are valued :data:`LOST_AT_ONCE` unsearched. ``among``: only these root
    moves are searched (each exact). The search stops early once the best move and those in
    ``exact`` are proven."""
    ev = evaluation_for(state.game.id).at_level(REVIEW_LEVEL)
    depth_cap = ev.depth(REVIEW_LEVEL, LEVELS[REVIEW_LEVEL].depth)
    plain = Searcher(seat, replace(ev, tactical=None, forced=False))
    moves = plain.ordered(state, state.legal_moves() if among is None else among)
    exact = exact if among is None else among
    scores: list[tuple[Any, float, bool]] = []
    plain.root_scores(state, moves, 1, WIN * 4, scores)  # every move exact, one ply deep
    scores = _best_first(
        [(m, LOST_AT_ONCE, True) if m in lost else (m, v, e) for m, v, e in scores]
    )
    searcher = Searcher(seat, ev, max_nodes=nodes)
    depth = 0

    def settled() -> bool:  # the best and the exact moves proven: no need to look deeper
        values = {m: v for m, v, _ in scores}
        watched = values if exact is None else exact
        return not _unsure(scores[0][1]) and not any(_unsure(values[m]) for m in watched)

    while depth < depth_cap and not settled():
        deeper: list[tuple[Any, float, bool]] = []
        best = -WIN * 2
        try:
            for move, _, _ in scores:
                if move in lost:
                    deeper.append((move, LOST_AT_ONCE, True))
                    continue
                every = not deeper or exact is None or move in exact
                floor = -WIN * 2 if every else best - TIE
                v = searcher.value(state.apply(move), depth, floor, WIN * 2, 1)
                deeper.append((move, v, v > floor))
                best = max(best, v)
        except OutOfTime:
            break
        scores, depth = _best_first(deeper), depth + 1
    return {m: v for m, v, _ in scores}, depth, plain.nodes + searcher.nodes


def move_chances(state: State[Any], *, nodes: int) -> dict[Any, float]:
    """Every legal move's winning chance for the seat to move, best first, by the search of
    :func:`judge` within ``nodes`` (no threat check, no budget scale): what a deep look says
    of each move (the review bench plants its blunders with it)."""
    seat = state.current_player()
    values, _, _ = _search(state, seat, nodes)  # every move exact
    unit = evaluation_for(state.game.id).at_level(REVIEW_LEVEL).unit
    return {m: chance(v, unit, state.num_players) for m, v in values.items()}


LOST_AT_ONCE = -WIN + 2
"""A root move's value when the next seat can end the game against the mover at once (the
search's value of a loss two plies down)."""


def allows_loss(after: State[Any], seat: int) -> bool:
    """The one-ply threat check: in ``after`` (the position after ``seat``'s move), can the seat
    to move, another one, end the game with ``seat`` losing at once (a capture, a drop that
    mates, in 三国志 also a check on a general that stands on the centre)?"""
    nxt = after.current_player()
    if nxt < 0 or nxt == seat:
        return False
    for reply in after.legal_moves():
        outcome = after.apply(reply).outcome()
        if outcome is not None and outcome.returns()[seat] < 0:
            return True
    return False


def _best_first(scores: Sequence[tuple[Any, float, bool]]) -> list[tuple[Any, float, bool]]:
    return sorted(scores, key=lambda t: -t[1])


def _sampled(state: State[Any], played: Any, samples: int, seed: int, confirmed: bool) -> Judgement:
    """A solitaire's choice rated against the others over the same sampled futures (from the
    player's view), at most ``samples`` of them."""
    rating = rate(state, played, random.Random(seed), most=samples, target=SAMPLED_ERROR)
    best = rating.hints[0]
    kept = next(h.win_chance for h in rating.hints if h.move == played)
    chances = (best.win_chance,)
    futures = best.samples * len(rating.hints)
    spread = 2 * rating.error
    return Judgement(0, best.move, chances, best.win_chance, kept, 0, futures, confirmed, spread)


LINE_PLIES = 4
"""Moves of the computer's best line on the analysis board (issue 50, 3)."""


@dataclass(frozen=True, slots=True)
class BestLine:
    """The computer's view of a position: every seat's winning chance (the best play's; a
    finished position's are its result's), its best line from there (each move the best for
    the seat then to move) and how deep the first move's search looked."""

    chances: tuple[float, ...]
    moves: tuple[Any, ...]
    depth: int


def best_line(state: State[Any], *, nodes: int, seed: int = 0, plies: int = LINE_PLIES) -> BestLine:
    """The evaluation of ``state`` and the computer's best line from it, up to ``plies`` moves
    or the end: each move judged as a review judges a ply (:func:`judge`, the same nodes), so
    the line is the same on any machine. A game of one player (chance at every draw) has no
    line: ``ValueError``."""
    if state.num_players == 1:
        raise ValueError("a solitaire has no best line")
    chances: tuple[float, ...] | None = None
    moves: list[Any] = []
    depth = 0
    while len(moves) < plies and state.outcome() is None and state.current_player() >= 0:
        judged = judge(state, state.legal_moves()[0], nodes=nodes, seed=seed)
        if chances is None:
            chances, depth = judged.chances, judged.depth
        moves.append(judged.best)
        state = state.apply(judged.best)
    if chances is None:
        outcome = state.outcome()
        n = state.num_players
        if outcome is None:  # a chance step or a setup is next: no one to judge for
            chances = tuple(1 / n for _ in range(n))
        else:
            worth = {"win": 1.0, "draw": 1 / n, "loss": 0.0, "none": 1 / n}
            chances = tuple(worth[outcome.result(seat)] for seat in range(n))
    return BestLine(chances, tuple(moves), depth)
