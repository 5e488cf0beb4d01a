"""Pairings: Berger tables, Swiss rounds (networkx matching) and 三国志 tables of three."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from bot.tournament import (
    Format,
    PairingError,
    Played,
    Round,
    berger,
    pair_round,
    standings,
    swiss,
    tables_of_three,
)


def names(n: int) -> list[str]:
    return [f"p{i:02d}" for i in range(n)]


def results(r: int, rnd: Round, rng: random.Random) -> list[Played]:
    """Random results for a round: wins, losses, sometimes a draw; a bye scores 1."""
    out: list[Played] = []
    for b in rnd.boards:
        if len(b.players) == 3:
            ranks = [(1, 2, 3), (1, 1, 3), (2, 1, 3), (3, 2, 1)][rng.randrange(4)]
            pts = tuple(1 / ranks.count(1) if x == 1 else 0.0 for x in ranks)
            out.append(Played(r, b.players, pts, ranks))
        else:
            x = rng.random()
            pts = (1.0, 0.0) if x < 0.45 else (0.0, 1.0) if x < 0.9 else (0.5, 0.5)
            out.append(Played(r, b.players, pts))
    out += [Played(r, (p,), (1.0,)) for p in rnd.byes]
    return out


@pytest.mark.parametrize("n", range(2, 17))
@pytest.mark.parametrize("double", [False, True])
def test_berger_tables_give_every_pair_once_with_seats_balanced(n: int, double: bool) -> None:
    rounds = berger(names(n), double=double)
    assert len(rounds) == (n - 1 + n % 2) * (2 if double else 1)
    pairs = Counter(frozenset(b.players) for r in rounds for b in r.boards)
    assert set(pairs) == {frozenset(p) for p in itertools.combinations(names(n), 2)}
    assert set(pairs.values()) == {2 if double else 1}
    balance = Counter[str]()
    for r in rounds:
        assert sorted(r.players()) == names(n)  # everyone plays or sits out, once
        for b in r.boards:
            balance[b.players[0]] += 1
            balance[b.players[1]] -= 1
        assert all(abs(v) <= 1 for v in balance.values())
    byes = Counter(p for r in rounds for p in r.byes)
    assert set(byes.values()) <= {2 if double else 1}
    assert len(byes) == (n if n % 2 else 0)


def test_a_double_round_robin_turns_the_seats_the_second_time() -> None:
    rounds = berger(names(4), double=True)
    first = {b.players for r in rounds[:3] for b in r.boards}
    second = {b.players for r in rounds[3:] for b in r.boards}
    assert second == {p[::-1] for p in first}


def test_a_round_robin_needs_two_players() -> None:
    with pytest.raises(PairingError):
        berger(["alone"])


def play_swiss(n: int, rounds: int, seed: int) -> list[Played]:
    rng = random.Random(seed)
    players = names(n)
    played: list[Played] = []
    for r in range(1, rounds + 1):
        order = [s.player for s in standings(Format.SWISS, players, played)]
        rnd = swiss(order, played)
        assert sorted(rnd.players()) == players
        assert len(rnd.byes) == n % 2
        played += results(r, rnd, rng)
    return played


@pytest.mark.parametrize("n", [4, 5, 7, 8, 11, 16, 21])
@pytest.mark.parametrize("seed", range(4))
def test_swiss_never_repeats_balances_seats_and_gives_one_bye_at_most(n: int, seed: int) -> None:
    rounds = min(n // 2, 6)
    played = play_swiss(n, rounds, seed)
    games = [g for g in played if not g.is_bye]
    pairs = Counter(frozenset(g.players) for g in games)
    assert max(pairs.values()) == 1
    byes = Counter(g.players[0] for g in played if g.is_bye)
    assert not byes or max(byes.values()) == 1
    balance = Counter[str]()
    for r in range(1, rounds + 1):
        for g in games:
            if g.round == r:
                balance[g.players[0]] += 1
                balance[g.players[1]] -= 1
        assert all(abs(v) <= 1 for v in balance.values()), (r, balance)


def test_swiss_repeats_a_pair_only_when_no_round_without_one_exists() -> None:
    # three players who all met: a round needs a repeat (and the bye goes to someone again)
    played = [
        Played(1, ("a", "b"), (1.0, 0.0)),
        Played(1, ("c",), (1.0,)),
        Played(2, ("c", "a"), (0.5, 0.5)),
        Played(2, ("b",), (1.0,)),
        Played(3, ("b", "c"), (0.0, 1.0)),
        Played(3, ("a",), (1.0,)),
    ]
    rnd = swiss(["a", "c", "b"], played)
    assert len(rnd.boards) == 1 and len(rnd.byes) == 1
    # four players: a and b met, so a fresh round pairs them apart
    rnd = swiss(["a", "b", "c", "d"], [Played(1, ("a", "b"), (1.0, 0.0))])
    assert {frozenset(b.players) for b in rnd.boards} & {frozenset("ab")} == set()


def test_swiss_pairs_within_score_groups_and_gives_the_bye_to_the_last() -> None:
    played = [
        Played(1, ("a", "b"), (1.0, 0.0)),
        Played(1, ("c", "d"), (1.0, 0.0)),
        Played(1, ("e",), (1.0,)),
    ]
    order = [s.player for s in standings(Format.SWISS, list("abcde"), played)]
    rnd = swiss(order, played)
    assert rnd.byes == ("d",) or rnd.byes == ("b",)  # a loser: the bye goes to the lowest
    groups = {frozenset(b.players) for b in rnd.boards}
    assert frozenset("bd") not in groups  # both losers cannot meet while one sits out
    assert any(frozenset(g) <= frozenset("ace") for g in groups)


def play_tables(n: int, rounds: int, seed: int) -> list[Played]:
    rng = random.Random(seed)
    players = names(n)
    played: list[Played] = []
    for r in range(1, rounds + 1):
        order = [s.player for s in standings(Format.TABLES, players, played)]
        rnd = tables_of_three(order, played, rng)
        assert sorted(rnd.players()) == players
        played += results(r, rnd, rng)
    return played


@pytest.mark.parametrize("n", [3, 5, 6, 7, 9, 10, 12, 13])
def test_tables_of_three_take_everyone_and_never_repeat_when_avoidable(n: int) -> None:
    rounds = 4 if n >= 9 else 2
    played = play_tables(n, rounds, seed=n)
    threes = [frozenset(g.players) for g in played if len(g.players) == 3]
    if n >= 6:
        assert len(set(threes)) == len(threes)
    for r in range(1, rounds + 1):
        sizes = sorted(len(g.players) for g in played if g.round == r)
        assert sizes.count(2) == {0: 0, 1: 2, 2: 1}[n % 3]
        assert sum(sizes) == n


def test_tables_rotate_the_seats() -> None:
    played = play_tables(3, 3, seed=1)
    seats = {(g.players.index(p), p) for g in played for p in g.players}
    assert len(seats) == 9  # three rounds at one table: each player in each seat once


def test_two_player_tables_go_round() -> None:
    played = play_tables(5, 5, seed=2)
    duos = Counter(p for g in played if len(g.players) == 2 for p in g.players)
    assert max(duos.values()) <= 2 and len(duos) == 5


def test_round_one_of_tables_is_drawn() -> None:
    a = tables_of_three(names(9), [], random.Random(1))
    b = tables_of_three(names(9), [], random.Random(2))
    assert a != b


def test_pair_round_reads_the_format() -> None:
    players = names(4)
    assert pair_round(Format.ROUND_ROBIN, players, [], 1) == berger(players)[0]
    assert pair_round(Format.DOUBLE_ROUND_ROBIN, players, [], 4) == berger(players, True)[3]
    assert pair_round(Format.SWISS, players, [], 1).boards
    assert len(pair_round(Format.TABLES, names(6), [], 1, random.Random(0)).boards) == 2
    with pytest.raises(PairingError):
        pair_round(Format.ROUND_ROBIN, players, [], 4)
