"""The computer opponents: legal moves only, immediate wins, deadlines, seeds, secrets."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engines import all_games, get_game
from engines.ai import analyse, choose_move, choose_setup, hint, level
from engines.ai import twothree as solved
from engines.core import CHANCE, SIMULTANEOUS, Game, State, chance_pick
from engines.socrates.board import PASS, board_to_text
from tests.engines.ai.helpers import FakeClock, sangokushi_position
from tests.engines.playout import random_game

PLAYER_COUNTS = [(g, n) for g in all_games() for n in g.player_counts]
SCALE = 0.02
"""Budgets × 0.02 on a fake clock stepping 0.01 per read: a few clock reads per move."""


def _id(item: Any) -> str:
    return item.id if isinstance(item, Game) else str(item)


def _wins(state: State[Any], move: Any, seat: int) -> bool:
    outcome = state.apply(move).outcome()
    return outcome is not None and outcome.winners == frozenset({seat})


@pytest.mark.parametrize(("game", "players"), PLAYER_COUNTS, ids=_id)
def test_the_ai_only_plays_legal_moves(game: Game[Any], players: int) -> None:
    rng = random.Random(f"ai-legal:{game.id}")
    state: State[Any] = game.new_game(players)
    plies = 0
    while not state.is_over() and plies < 6:
        p = state.current_player()
        if p == CHANCE:
            state = state.apply(chance_pick(state, 7, state.ply))
            continue
        seats = state.acting_players() if p == SIMULTANEOUS else (p,)
        for seat in seats:
            lvl = (1, 4, 8)[plies % 3]
            move = choose_move(state, seat, lvl, rng, clock=FakeClock(), budget_scale=SCALE)
            assert move in state.legal_moves(seat if p == SIMULTANEOUS else None)
            state = state.apply(move, seat if p == SIMULTANEOUS else None)
        plies += 1


WIN_IN_ONE = [
    # 五目: Black has four on the equator and pieces in hand (and White four on row 1).
    ("socrates-uchu", "10/10/10/10/PPPP6/10/10/10/pppp6 b P2M6p2m6 0 20", 0),
    # 三国志: Wei's pawn on E5 can take Shu's general on F5.
    (
        "sangokushi",
        sangokushi_position({"A3": "G0", "F5": "G1", "I7": "G2", "E5": "P0", "C3": "H1"}),
        0,
    ),
    # 数字将棋: Black holds 1 and 2; taking White's 4 makes 7.
    ("suji-shogi", "v4.v6/1../.../.../... b 12 - 10", 0),
    # ツースリー: Black's last piece steps onto White's start.
    ("socrates-twothree", "10/4PP4/4PP4/4P5/4pP4/4pp4/4pp4/5p4/10 b 0 0", 0),
    # 真剣勝負: Black takes White's last piece.
    ("socrates-shinken", "10/10/10/10/4p5/4P5/10/10/P9 b move 0 30", 0),
]


def _first_win_in_one(game: Game[Any]) -> tuple[State[Any], int] | None:
    """The first position of seeded random games where the player to move can win at once."""
    for seed in range(60):
        states, _ = random_game(game, seed, max_plies=300)
        for state in states:
            p = state.current_player()
            if p >= 0 and any(_wins(state, m, p) for m in state.legal_moves()):
                return state, p
    return None


@pytest.mark.parametrize("game", [g for g in all_games() if g.id != "yosuko"], ids=_id)
def test_an_immediate_win_is_found_in_every_game(game: Game[Any]) -> None:
    found = _first_win_in_one(game)
    cases = [(s, p) for g, pos, p in WIN_IN_ONE if g == game.id for s in [game.from_position(pos)]]
    cases += [found] if found is not None else []
    assert cases, f"no position with a win in one for {game.id}"
    for state, seat in cases:
        assert any(_wins(state, m, seat) for m in state.legal_moves())
        for lvl in range(2, 9):
            move = choose_move(state, seat, lvl, random.Random(lvl), clock=FakeClock(0.001))
            assert _wins(state, move, seat), (lvl, state.position())


def test_the_search_reads_its_clock_and_stops() -> None:
    state = get_game("rokumentai").new_game()
    state = state.apply(state.legal_moves()[10]).apply(state.legal_moves()[20])
    clock = FakeClock(step=0.1)
    result = analyse(state, 0, 8, random.Random(1), deadline=1.0, clock=clock)
    assert result.move in state.legal_moves()
    # A deadline 10 reads away: the search stops after about 10 reads of 64 nodes each.
    assert clock.calls <= 15
    assert result.nodes <= 15 * 64


@pytest.mark.parametrize(("game", "players"), PLAYER_COUNTS, ids=_id)
def test_the_search_keeps_to_its_node_budget(game: Game[Any], players: int) -> None:
    state: State[Any] = game.new_game(players)
    while state.current_player() < 0:
        p = state.current_player()
        if p == CHANCE:
            state = state.apply(chance_pick(state, 3, state.ply))
        else:  # a secret setup: every seat chooses its first arrangement
            for seat in state.acting_players():
                state = state.apply(state.legal_moves(seat)[0], seat)
    for _ in range(4):  # a few plies in, where every game has a choice
        state = state.apply(state.legal_moves()[0]) if state.current_player() >= 0 else state
    seat = state.current_player()
    if seat < 0 or game.id == "yosuko":
        return
    for budget in (1, 40, 300):
        result = analyse(state, seat, 8, random.Random(2), clock=FakeClock(0.0), max_nodes=budget)
        assert result.nodes <= budget
        assert result.move in state.legal_moves()


def test_level_8_searches_until_its_budget_is_spent() -> None:
    """Level 8 does not stop at a depth: it deepens until the time is up (2 s by default)."""
    state: State[Any] = get_game("sangokushi-2p").new_game()
    clock = FakeClock(step=0.01)
    result = analyse(state, 0, 8, random.Random(0), clock=clock, check_every=16)
    assert clock.now >= level(8).budget
    assert result.depth >= 3
    scaled = FakeClock(step=0.01)
    analyse(state, 0, 8, random.Random(0), clock=scaled, check_every=16, budget_scale=0.25)
    assert level(8).budget * 0.25 <= scaled.now < level(8).budget


@pytest.mark.parametrize("game_id", ["rokumentai", "sangokushi", "socrates-uchu", "yosuko"])
def test_a_zero_budget_still_gives_a_legal_move(game_id: str) -> None:
    game = get_game(game_id)
    state: State[Any] = game.new_game()
    while state.current_player() == CHANCE:
        state = state.apply(chance_pick(state, 1, state.ply))
    seat = state.current_player()
    clock = FakeClock()
    move = choose_move(state, seat, 8, random.Random(0), deadline=0.0, clock=clock)
    assert move in state.legal_moves()


def test_a_zero_budget_setup_is_legal() -> None:
    state = get_game("suji-shogi").new_game()
    move = choose_setup(state, 1, 8, random.Random(0), deadline=0.0, clock=FakeClock())
    assert move in state.legal_moves(1)


def test_a_setup_searches_to_the_games_own_depth_caps(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game whose evaluation has depth caps of its own (``depths``) has them used after an
    imagined reveal too, not only in the main search (capped at SETUP_DEPTH as ever)."""
    import dataclasses

    from engines.ai import registry, setup

    depths: list[int] = []

    class Spy(setup.Searcher):
        def value(
            self, state: State[Any], depth: int, alpha: float, beta: float, ply: int
        ) -> float:
            if ply == 0:
                depths.append(depth)
            return super().value(state, depth, alpha, beta, ply)

    monkeypatch.setattr(setup, "Searcher", Spy)
    # the seed's sample directions: rules the ranked table was not made for, so it samples
    state = get_game("suji-shogi").new_game(2, {"directions": "sample"})
    own = dataclasses.replace(registry.EVALUATIONS["suji-shogi"], depths=(1, 1, 1, 1, 1, 1, 1, 2))
    for evaluation, level_8 in ((registry.EVALUATIONS["suji-shogi"], setup.SETUP_DEPTH), (own, 2)):
        monkeypatch.setitem(registry.EVALUATIONS, "suji-shogi", evaluation)
        depths.clear()
        choose_setup(state, 1, 8, random.Random(0), clock=FakeClock(), max_nodes=2_000)
        assert depths and set(depths) == {level_8}


@pytest.mark.parametrize("game_id", ["rokumentai", "sangokushi", "socrates-shinken"])
def test_the_same_seed_gives_the_same_move(game_id: str) -> None:
    state: State[Any] = get_game(game_id).new_game()
    for i in range(3):
        state = state.apply(state.legal_moves()[(7 * i) % len(state.legal_moves())])
    seat = state.current_player()

    def pick(seed: int) -> Any:
        return choose_move(state, seat, 3, random.Random(seed), clock=FakeClock(), budget_scale=0.5)

    assert pick(5) == pick(5)


def test_the_setup_never_looks_at_the_hidden_arrangement() -> None:
    game = get_game("suji-shogi")
    start = game.new_game()
    setups = start.legal_moves(1)
    picks = set()
    for theirs in (setups[0], setups[300], setups[719]):
        state = start.apply(theirs, 1)  # White is in; Black chooses without seeing it
        move = choose_move(state, 0, 4, random.Random(9), clock=FakeClock(), budget_scale=0.5)
        assert move in state.legal_moves(0)
        picks.add(move)
    assert len(picks) == 1


def test_twothree_level_8_plays_the_solved_game() -> None:
    game = get_game("socrates-twothree")
    state: State[Any] = game.new_game()
    assert solved.value(state) == -34  # Black to move loses: White wins with perfect play
    rng = random.Random(3)
    while not state.is_over():
        seat = state.current_player()
        lvl = 8 if seat == 1 else 2
        state = state.apply(choose_move(state, seat, lvl, rng, clock=FakeClock()))
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == frozenset({1})


def test_twothree_table_agrees_with_its_moves() -> None:
    """Spot check of the stored values against one step of the rules."""
    game = get_game("socrates-twothree")
    rng = random.Random(0)
    for _ in range(150):
        e, f = rng.choice(solved.COLUMNS), rng.choice(solved.COLUMNS)
        board = ["."] * 90
        for c, ch in zip(solved.E_CELLS + solved.F_CELLS, e + f, strict=True):
            board[c] = ch
        text = board_to_text("".join(board))
        state = game.from_position(f"{text} {rng.choice('bw')} 0 0")
        v = solved.value(state)
        assert v is not None
        best = None
        for m in state.legal_moves():
            child = state.apply(m)
            if child.outcome() is not None:
                mine = 1
            else:
                cv = solved.value(child)
                assert cv is not None
                mine = -cv + (1 if cv < 0 else -1 if cv > 0 else 0)
            best = mine if best is None else solved_max(best, mine)
        if state.legal_moves() != (PASS,):
            assert v == best


def solved_max(a: int, b: int) -> int:
    key = {a: _rank(a), b: _rank(b)}
    return a if key[a] >= key[b] else b


def _rank(v: int) -> int:
    return 100_000 - v if v > 0 else -100_000 - v if v < 0 else 0


def test_yosuko_hint_gives_every_choice_a_chance() -> None:
    state: State[Any] = get_game("yosuko").new_game()
    while state.current_player() == CHANCE:
        state = state.apply(chance_pick(state, 2, state.ply))
    hints = hint(state, random.Random(4), 6)
    assert {h.move for h in hints} == set(state.legal_moves())
    assert all(0.0 <= h.win_chance <= 1.0 and h.samples == 6 for h in hints)
    assert hints == hint(state, random.Random(4), 6)
    assert [h.win_chance for h in hints] == sorted((h.win_chance for h in hints), reverse=True)


def test_levels_are_one_table() -> None:
    budgets = [level(n).budget for n in range(1, 9)]
    assert budgets == sorted(budgets) and budgets[-1] <= 2.0
    with pytest.raises(ValueError):
        level(9)


def test_twothree_levels_see_a_decided_game_further_ahead() -> None:
    """Below level 8 a level reads the solved table only so far ahead of a leaf: a game decided
    in 21 plies is a plain position to levels 1-3 and a won (or lost) one from level 4 up."""
    from engines.ai import evaluation_for
    from engines.ai.socrates import TWOTHREE_HORIZONS

    game = get_game("socrates-twothree")
    state: State[Any] = game.new_game()
    rng = random.Random(5)
    while solved.value(state) not in (21, -21):
        state = state.apply(rng.choice(state.legal_moves()))
        if state.is_over():
            state = game.new_game()
    ev = evaluation_for("socrates-twothree")
    seen = {n: abs(ev.at_level(n).evaluate(state, 0)) for n in range(1, 8)}
    far = [n for n in range(1, 8) if TWOTHREE_HORIZONS[n] >= 21]
    assert far == [4, 5, 6, 7] and all(seen[n] >= 4000 for n in far)
    assert all(seen[n] < 1000 for n in range(1, 8) if n not in far)
    assert [TWOTHREE_HORIZONS[n] for n in range(1, 8)] == sorted(TWOTHREE_HORIZONS.values())


def test_rokumentai_counts_the_turn_of_the_side_to_move() -> None:
    """六面体's evaluation gives the side to move its coming turn (about a placement), so a
    search ending after its own move and one ending after the reply score alike: on the empty
    board, even but for the turn, Black (to move) is ahead by exactly that."""
    from engines.ai.rokumentai import TEMPO, evaluate

    state = get_game("rokumentai").new_game()
    assert TEMPO > 0
    assert evaluate(state, 0) == TEMPO
    assert evaluate(state, 1) == -TEMPO


def test_shinken_counts_the_turn_of_the_side_to_move() -> None:
    """真剣勝負's evaluation, like 六面体's, gives the side to move its coming turn: leaves the
    quiescence search ends a ply apart score alike. The start is even but for the turn."""
    from engines.ai.socrates import SHINKEN_TEMPO, evaluate_shinken

    state = get_game("socrates-shinken").new_game()
    assert SHINKEN_TEMPO > 0
    assert evaluate_shinken(state, 0) == SHINKEN_TEMPO
    assert evaluate_shinken(state, 1) == -SHINKEN_TEMPO


def test_kokutan_levels_have_their_own_depth_caps() -> None:
    """黒壇の馬's plies are cheap (few moves a position, many forced), so its levels search
    deeper than the level table's caps; other games keep the table's."""
    from engines.ai.socrates import KOKUTAN_DEPTHS

    # Phase 2 (from seeded random play): few moves a position, so deep searches are cheap.
    kokutan = get_game("socrates-kokutan").from_position(
        "10/3m1m1p2/2p1m1m1m1/1m1m1p1m2/2P3M3/1M1M1M1M2/2M1m1M1M1/1M3M1M2/10 w move 0 35"
    )
    for n in (1, 2):
        seat = kokutan.current_player()
        result = analyse(kokutan, seat, n, random.Random(n), budget_scale=1e6, max_nodes=10**6)
        assert result.depth == KOKUTAN_DEPTHS[n - 1] > level(n).depth
    rokumentai = get_game("rokumentai").new_game()
    result = analyse(rokumentai, 0, 1, random.Random(1), budget_scale=1e6, max_nodes=10**6)
    assert result.depth == level(1).depth


def test_kokutan_scores_an_empty_enemy_goal_cell_by_the_nearest_piece_that_can_reach_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """黒壇の馬: an empty cell of the enemy's back row counts by how near one's nearest piece on
    its diagonal cone stands; a piece off the cone does not count; the evaluation adds it."""
    from engines.ai import socrates
    from engines.socrates.board import CELLS, EMPTY, cell, put
    from engines.socrates.kokutan import MOVE_PHASE, KokutanState

    board = EMPTY * CELLS
    for col in (3, 5, 7):  # White's guards on d8 f8 h8: only b8 is empty
        board = put(board, cell(col, 8), "m")
    board = put(board, cell(7, 2), "P")  # a Black guard on h2: six rows, six columns from b8

    def black_on(col: int, row: int) -> str:
        return put(board, cell(col, row), "P")

    near = socrates.KOKUTAN_NEAR_GOAL
    assert socrates.near_goal(black_on(2, 7), 0) == near[1]  # c7: next to b8
    assert socrates.near_goal(black_on(3, 6), 0) == near[2]  # d6: two rows, two columns off
    assert socrates.near_goal(black_on(5, 6), 0) == near[6]  # f6 is off the cone: h2 counts
    assert near[1] > near[2] > near[6] > 0

    state = KokutanState(black_on(2, 7), 1, phase=MOVE_PHASE)
    white = socrates.near_goal(state.board, 1)  # b2 d2 f2, six rows below White's pieces
    assert white == 3 * near[6]
    with_term = socrates.evaluate_kokutan(state, 0)
    monkeypatch.setattr(socrates, "KOKUTAN_NEAR_GOAL", (0,) * len(near))
    assert with_term - socrates.evaluate_kokutan(state, 0) == near[1] - white


def _sangokushi_with_captures() -> State[Any]:
    """A 3-player 三国志 position, reached by seeded random play, where the side to move can
    take something."""
    from engines.ai.sangokushi import capture

    rng = random.Random(3)
    state: State[Any] = get_game("sangokushi").new_game()
    while not any(capture(state, m) for m in state.legal_moves()) or state.ply < 6:
        state = state.apply(rng.choice(state.legal_moves()))
        assert not state.is_over()
    return state


def test_sangokushi_3p_levels_are_spread_by_depth_randomness_and_exchanges() -> None:
    """With three players the levels read one ply up to level 6 and follow exchanges past it
    from level 5 up (levels 1-4 visit one node a root move); levels 1 and 2 play almost any
    move that does not lose the game outright, level 8 only the best. The 2-player variant keeps
    the level table."""
    from engines.ai.sangokushi import QUIESCENT_FROM, THREE_PLAYER_DEPTHS, THREE_PLAYER_MARGINS

    state = _sangokushi_with_captures()
    seat = state.current_player()
    root_moves = len(state.legal_moves())
    results = {
        n: analyse(state, seat, n, random.Random(n), budget_scale=1e6, max_nodes=10**6)
        for n in range(1, 7)
    }
    assert all(r.depth == 1 == THREE_PLAYER_DEPTHS[n - 1] for n, r in results.items())
    assert QUIESCENT_FROM == 5
    assert all(results[n].nodes == root_moves for n in (1, 2, 3, 4))
    assert all(results[n].nodes > root_moves for n in (5, 6))
    assert len(results[1].candidates) > root_moves // 2
    assert len(results[6].candidates) < len(results[1].candidates)
    assert list(THREE_PLAYER_MARGINS) == sorted(THREE_PLAYER_MARGINS, reverse=True)
    two = get_game("sangokushi-2p").new_game()
    assert analyse(two, 0, 6, random.Random(6), budget_scale=1e6, max_nodes=10**6).depth > 1


def test_a_games_own_margins_replace_the_level_tables() -> None:
    """``Evaluation.margins`` gives a level's randomness in place of the table's, scaled by the
    game's unit like the table's; a game's own margins or depth caps have one entry a level."""
    import dataclasses

    from engines.ai import evaluation_for

    ev = evaluation_for("rokumentai")
    assert ev.margin(1, level(1).margin) == level(1).margin * ev.unit / 100
    own = dataclasses.replace(ev, margins=(500.0,) * 8, unit=50.0)
    assert own.margin(1, level(1).margin) == 250.0
    with pytest.raises(ValueError, match="one entry a level"):
        dataclasses.replace(ev, margins=(500.0,) * 7)
    with pytest.raises(ValueError, match="one entry a level"):
        dataclasses.replace(ev, depths=(1, 2))


def test_every_level_guards_e5_in_sangokushi() -> None:
    """Shu's general stands next to an empty E5 that nobody attacks, and Shu moves next: unless
    Wei covers E5 now, Shu steps onto it. Wei's one guarding move is the spear's C5-D5; every
    level plays it (levels 1-6 read one ply: only the evaluation's centre term shows them the
    threat)."""
    from engines.sangokushi import CENTRE, NAMES, is_attacked

    state = get_game("sangokushi").from_position(
        sangokushi_position({"A3": "G0", "F5": "G1", "I7": "G2", "C5": "L0"})
    )

    def threatened(st: Any) -> bool:
        return (
            NAMES[st.general_cell(1)] in ("D4", "D5", "E4", "E6", "F5", "F6")
            and st.board[CENTRE] == 0
            and not is_attacked(st.board, CENTRE, 1, st.tables)
        )

    assert state.current_player() == 0 and threatened(state)
    guards = [m for m in state.legal_moves() if not threatened(state.apply(m))]
    assert [(NAMES[m.src], NAMES[m.dst]) for m in guards] == [("C5", "D5")]
    for lvl in range(1, 9):
        for seed in range(3):
            move = choose_move(state, 0, lvl, random.Random(seed), clock=FakeClock(0.001))
            assert not threatened(state.apply(move)), (lvl, seed, move)


def test_a_games_own_decision_comes_before_the_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """``Evaluation.decide`` is the one place a game chooses without search (no game id in
    engines.ai): its result is played as it is, and ``None`` leaves the position to the search."""
    import dataclasses

    from engines.ai import SearchResult, Turn, registry

    state: State[Any] = get_game("rokumentai").new_game()
    first = state.legal_moves()[0]
    asked: list[tuple[int, int, int | None]] = []

    def decide(turn: Turn) -> SearchResult | None:
        asked.append((turn.seat, turn.level, turn.max_nodes))
        return SearchResult(first, 0.5, 0, 0, (first,)) if turn.level == 3 else None

    own = dataclasses.replace(registry.EVALUATIONS["rokumentai"], decide=decide)
    monkeypatch.setitem(registry.EVALUATIONS, "rokumentai", own)
    decided = analyse(state, 0, 3, random.Random(0), clock=FakeClock(), max_nodes=50)
    assert decided == SearchResult(first, 0.5, 0, 0, (first,))
    searched = analyse(state, 0, 2, random.Random(0), clock=FakeClock(), max_nodes=50)
    assert searched.nodes > 0 and searched.move in state.legal_moves()
    assert asked == [(0, 3, 50), (0, 2, 50)]
