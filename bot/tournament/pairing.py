"""Who plays whom: Berger round-robin tables, Swiss rounds as a maximum-weight matching
(networkx), and 三国志 tables of three. Pure functions of the players and the results so far;
the rules are written down in docs/tournaments.md."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

import networkx as nx

from bot.tournament.values import Board, Format, PairingError, Played, Round

BYE = "\x00bye"
"""The matching's stand-in for "nobody": whoever is matched with it sits the round out."""


# -- round-robin ---------------------------------------------------------------------------------
def berger(players: Sequence[str], double: bool = False) -> list[Round]:
    """Every round of a round-robin by Berger tables (the circle method): every pair meets
    once (twice in a ``double`` one: the rounds again backwards, seats turned), and every
    player's first and second seats differ by at most one after every round. An odd field
    gives one bye a round, each player's once."""
    if len(players) < 2:
        raise PairingError("a round-robin needs two players")
    ring: list[str | None] = [*players] + ([None] if len(players) % 2 else [])
    m = len(ring)
    rounds: list[Round] = []
    for r in range(m - 1):
        boards: list[Board] = []
        byes: list[str] = []
        for i in range(m // 2):
            a, b = ring[i], ring[m - 1 - i]
            # the fixed player (last) changes seat every round; the others alternate by place
            if (i == 0 and r % 2) or (i > 0 and i % 2):
                a, b = b, a
            if a is None or b is None:
                byes.extend(p for p in (a, b) if p is not None)
            else:
                boards.append(Board((a, b)))
        rounds.append(Round(tuple(boards), tuple(byes)))
        ring = [ring[m - 2], *ring[: m - 2], ring[m - 1]]
    if double:
        # the second cycle plays the first backwards, seats turned: balanced within one still
        rounds += [
            Round(tuple(Board(b.players[::-1]) for b in r.boards), r.byes) for r in rounds[::-1]
        ]
    return rounds


# -- what the results so far say about each player -----------------------------------------------
@dataclass(slots=True)
class History:
    """A player's past as the pairing reads it."""

    score: float = 0.0
    met: set[str] = field(default_factory=set)
    balance: int = 0
    """First seats minus second seats (two-player games played)."""
    last_first: bool | None = None
    byes: int = 0
    seats: Counter[int] = field(default_factory=Counter)
    two_player: int = 0
    tables: set[frozenset[str]] = field(default_factory=set)


def histories(players: Sequence[str], played: Sequence[Played]) -> dict[str, History]:
    out = {p: History() for p in players}
    for g in sorted(played, key=lambda g: g.round):
        for seat, p in enumerate(g.players):
            h = out.get(p)
            if h is None:
                continue
            h.score += g.points[seat]
            if g.is_bye:
                h.byes += 1
                continue
            h.met.update(q for q in g.players if q != p)
            if g.forfeit:
                continue
            h.seats[seat] += 1
            if len(g.players) == 2:
                h.two_player += 1
                h.balance += 1 if seat == 0 else -1
                h.last_first = seat == 0
            h.tables.add(frozenset(g.players))
    return out


# -- Swiss ---------------------------------------------------------------------------------------
NEIGHBOURS = 12
"""How far down the standings a Swiss pairing looks first for each player's opponent."""
BLOCK = 40
"""About how many players a Swiss round pairs at a time, first (see :func:`blocks`)."""


def swiss(players: Sequence[str], played: Sequence[Played]) -> Round:
    """One Swiss round for ``players`` (in standing order, the leader first).

    A maximum-weight matching over every pair that has not met: the most boards first, then
    the pairs whose seats can both be balanced, then the smallest score differences (the
    squared difference, so score groups pair within themselves and a player floats one group
    at most), then the closest standings. With an odd field, the lowest-placed player without
    a bye sits out. Only when no round without a repeat (a pair again, a second bye) exists
    are repeats allowed, as few as the matching can.
    """
    if len(players) < 2:
        raise PairingError("a Swiss round needs two players")
    hist = histories(players, played)
    rank = {p: i for i, p in enumerate(players)}
    pool = list(players) + ([BYE] if len(players) % 2 else [])
    n = len(pool)
    score_unit = n + 1
    max_score = max(int(2 * h.score) for h in hist.values()) + 1
    clash_unit = score_unit * (max_score**2 + 1) * 4
    top = clash_unit * 4

    def weight(a: str, b: str) -> int:
        if BYE in (a, b):
            p = b if a == BYE else a
            h = hist[p]
            # the lowest score, then the lowest place
            return top - score_unit * int(2 * h.score) ** 2 + rank[p]
        ha, hb = hist[a], hist[b]
        clash = ha.balance == hb.balance != 0
        diff = int(2 * ha.score) - int(2 * hb.score)
        return top - clash_unit * clash - score_unit * diff * diff - abs(rank[a] - rank[b])

    def repeat(a: str, b: str) -> bool:
        if BYE in (a, b):
            return hist[b if a == BYE else a].byes > 0
        return b in hist[a].met

    def matching(group: list[str], window: int, allow_repeats: bool) -> set[tuple[str, str]]:
        """The best pairing of ``group``; perfect, or None when no perfect one exists."""
        graph: nx.Graph[str] = nx.Graph()
        graph.add_nodes_from(group)
        people = [p for p in group if p != BYE]
        for i, a in enumerate(people):
            for b in people[i + 1 : i + 1 + window]:
                again = repeat(a, b)
                if not again or allow_repeats:
                    graph.add_edge(a, b, weight=1 if again else weight(a, b))
        if BYE in group:  # the bye may go to anyone (the weights prefer the last)
            for a in people:
                if allow_repeats or not repeat(a, BYE):
                    graph.add_edge(a, BYE, weight=1 if repeat(a, BYE) else weight(a, BYE))
        return set(nx.max_weight_matching(graph, maxcardinality=True))

    def in_blocks() -> set[tuple[str, str]] | None:
        pairs: set[tuple[str, str]] = set()
        for block in blocks(pool, hist):
            found = matching(block, NEIGHBOURS, allow_repeats=False)
            if 2 * len(found) < len(block):
                return None
            pairs |= found
        return pairs

    # Blocks of neighbours in the standings first (a large field never pairs far apart, and
    # the matching's time grows with the cube of its size); the whole field when that leaves
    # someone out; repeats only when even that does.
    pairs = in_blocks()
    if pairs is None:
        pairs = matching(pool, n, allow_repeats=False)
        if 2 * len(pairs) < n:
            pairs = matching(pool, n, allow_repeats=True)
    boards: list[Board] = []
    byes: list[str] = []
    for a, b in pairs:
        if BYE in (a, b):
            byes.append(b if a == BYE else a)
        else:
            boards.append(Board(seated(a, b, hist, rank)))
    boards.sort(key=lambda bd: min(rank[p] for p in bd.players))
    return Round(tuple(boards), tuple(byes))


def blocks(pool: list[str], hist: dict[str, History]) -> list[list[str]]:
    """``pool`` (in standing order) cut into runs of an even size of about :data:`BLOCK`, each
    cut where the score changes if one is near (a score group stays whole)."""
    out: list[list[str]] = []
    start = 0

    def score(p: str) -> float:
        return hist[p].score if p in hist else -1.0

    for i in range(1, len(pool)):
        size = i - start
        if size % 2 or len(pool) - i < BLOCK // 2:
            continue
        if (size >= BLOCK and score(pool[i]) != score(pool[i - 1])) or size >= 2 * BLOCK:
            out.append(pool[start:i])
            start = i
    out.append(pool[start:])
    return out


def seated(a: str, b: str, hist: dict[str, History], rank: dict[str, int]) -> tuple[str, str]:
    """Who of a pair sits first: the one with fewer first seats, then the one who sat second
    last time, then the higher placed."""
    ha, hb = hist[a], hist[b]
    if ha.balance != hb.balance:
        return (a, b) if ha.balance < hb.balance else (b, a)
    if ha.last_first != hb.last_first and None not in (ha.last_first, hb.last_first):
        return (a, b) if not ha.last_first else (b, a)
    return (a, b) if rank[a] < rank[b] else (b, a)


# -- 三国志 tables of three ----------------------------------------------------------------------
SEARCH_BUDGET = 20_000
"""Tables tried before grouping gives up avoiding repeats (a large field never needs many)."""


def tables_of_three(
    players: Sequence[str], played: Sequence[Played], rng: random.Random | None = None
) -> Round:
    """One round of three-player tables for ``players`` (in standing order).

    Round one is drawn (``rng``); later rounds group neighbours in the standings. A field not
    divisible by three gets two-player tables (``sangokushi-2p``): one when two are left over,
    two when one is; they go to whoever has played fewest two-player tables, the lowest placed
    first. A lone player gets a bye. No table repeats an earlier one (the same three) while
    another grouping exists, and each player takes the seat they have had least."""
    order = list(players)
    if not played and rng is not None:
        rng.shuffle(order)
    n = len(order)
    if n < 2:
        return Round((), tuple(order))
    hist = histories(order, played)
    pairs_wanted = {0: 0, 1: 2, 2: 1}[n % 3]
    byes: list[str] = []
    rank = {p: i for i, p in enumerate(order)}
    # who plays a table of two: fewest such tables so far, the lowest placed first
    duo = sorted(order, key=lambda p: (hist[p].two_player, -rank[p]))
    duo_players = duo[: 2 * pairs_wanted] if pairs_wanted else []
    for p in duo_players:
        order.remove(p)
    boards: list[Board] = []
    for pair in _pairs_of_two(sorted(duo_players, key=rank.__getitem__), hist):
        boards.append(Board(_seat_rotation(pair, hist), two_player=True))
    for table in _group_threes(order, hist):
        boards.append(Board(_seat_rotation(table, hist)))
    boards.sort(key=lambda b: (b.two_player, min(rank[p] for p in b.players)))
    return Round(tuple(boards), tuple(byes))


def _pairs_of_two(players: list[str], hist: dict[str, History]) -> list[tuple[str, ...]]:
    if len(players) < 4:
        return [tuple(players)] if players else []
    a, b, c, d = players
    options = [((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c))]
    fresh = [o for o in options if all(y not in hist[x].met for x, y in o)]
    return list((fresh or options)[0])


def _group_threes(order: list[str], hist: dict[str, History]) -> list[tuple[str, ...]]:
    """Consecutive threes of ``order``, changed as little as needed so no table repeats."""
    seen = set().union(*(h.tables for h in hist.values())) if hist else set()
    budget = [SEARCH_BUDGET]

    def search(rest: list[str]) -> Iterator[list[tuple[str, ...]]]:
        if not rest:
            yield []
            return
        first, others = rest[0], rest[1:]
        for i, j in sorted(itertools.combinations(range(len(others)), 2), key=sum):
            budget[0] -= 1
            if budget[0] < 0:
                return
            table = (first, others[i], others[j])
            if frozenset(table) in seen:
                continue
            remaining = [p for k, p in enumerate(others) if k not in (i, j)]
            for tail in search(remaining):
                yield [table, *tail]
                return

    found = next(search(order), None)
    if found is not None:
        return found
    return [tuple(order[i : i + 3]) for i in range(0, len(order), 3)]


def _seat_rotation(table: Sequence[str], hist: dict[str, History]) -> tuple[str, ...]:
    """The seating of ``table`` that gives each player the seats they have had least."""

    def cost(order: tuple[str, ...]) -> int:
        return sum(hist[p].seats[s] for s, p in enumerate(order))

    return min(itertools.permutations(table), key=cost)


# -- the one entry ---------------------------------------------------------------------------------
def pair_round(
    fmt: Format,
    players: Sequence[str],
    played: Sequence[Played],
    round_no: int,
    rng: random.Random | None = None,
    entrants: Sequence[str] | None = None,
) -> Round:
    """Round ``round_no`` (1-based) of a tournament in format ``fmt``. ``players``: who is
    still in, in standing order; ``entrants``: everyone who started, in sign-up order (a
    round-robin's schedule is fixed by them at the start; a withdrawn player's boards are
    left to the caller to forfeit)."""
    if fmt.is_round_robin:
        schedule = berger(list(entrants or players), double=fmt is Format.DOUBLE_ROUND_ROBIN)
        if not 1 <= round_no <= len(schedule):
            raise PairingError(f"no round {round_no}")
        return schedule[round_no - 1]
    if fmt is Format.SWISS:
        return swiss(players, played)
    return tables_of_three(players, played, rng)
