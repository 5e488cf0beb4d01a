"""The computer's self-play corpus (issue 50, 1): every explorer game ships one; every game in
it replays legally to the end and the winners it records, at levels 6-8; a seed replays the
same game; and its tally (what the explorer shows) equals an independent count from the
records: at the start and after two moves, wins + draws + losses equal the games."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from bot.learn import corpus
from bot.learn.corpus.selfplay import LEVEL_RANGE, nodes_for, play, play_many
from bot.service.explored import NO_EXPLORER
from engines.core import CHANCE
from engines.explore import position_key
from engines.registry import all_games, get_game

GAMES = [g.id for g in all_games() if g.id not in NO_EXPLORER]
MINIMUM = 15
"""Games every explorer game's corpus holds at least."""


@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_replays_to_its_recorded_end(game_id: str) -> None:
    played = corpus.games(game_id)
    assert len(played) >= MINIMUM, game_id
    assert len({g.seed for g in played}) == len(played)  # one game a seed
    for g in played:
        assert g.game == game_id
        assert all(LEVEL_RANGE[0] <= lvl <= LEVEL_RANGE[1] for lvl in g.levels)
        state = get_game(game_id).new_game(len(g.levels))
        for actor, text in g.moves:
            assert not state.is_over()
            move = state.parse_move(text, actor if actor != CHANCE else None)
            assert state.format_move(move) == text
            state = state.apply(move, actor if actor != CHANCE else None)
        outcome = state.outcome()
        assert outcome is not None, (game_id, g.seed)
        assert tuple(sorted(outcome.winners)) == g.winners, (game_id, g.seed)


def _independent(game_id: str, prefix: tuple[str, ...]) -> tuple[Counter[str], Counter[str]]:
    """Over the corpus's games that begin with ``prefix`` (a game counted once per move, the
    order of moves as played): the next move's count, and the mover's wins with it."""
    played: Counter[str] = Counter()
    won: Counter[str] = Counter()
    for g in corpus.games(game_id):
        texts = [m for _, m in g.moves]
        if tuple(texts[: len(prefix)]) != prefix or len(texts) <= len(prefix):
            continue
        actor, move = g.moves[len(prefix)]
        played[move] += 1
        won[move] += int(actor in g.winners)
    return played, won


@pytest.mark.parametrize("game_id", ["rokumentai", "socrates-uchu", "sangokushi-2p"])
def test_the_tally_equals_an_independent_count(game_id: str) -> None:
    state = get_game(game_id).new_game()
    for depth in (0, 2):
        first = [m for _, m in corpus.games(game_id)[0].moves[:depth]]
        at = state
        for text in first:
            at = at.apply(at.parse_move(text))
        shown = corpus.counts(game_id).get(position_key(game_id, at), ())
        played, won = _independent(game_id, tuple(first))
        # a transposition may add games that reached the position by another order
        assert {c.move: c.games for c in shown}.keys() >= played.keys()
        if depth == 0:
            assert {c.move: c.games for c in shown} == dict(played)
            mover = at.current_player()
            assert {c.move: c.wins[mover] for c in shown} == {m: won[m] for m in played}
        for c in shown:
            losses = c.games - c.wins[at.current_player()] - c.draws
            assert losses >= 0 and sum(c.wins[:2]) + c.draws == c.games
        assert [c.games for c in shown] == sorted((c.games for c in shown), reverse=True)


def test_a_transposition_meets_and_a_game_counts_once() -> None:
    # two made-up games of 六面体 reaching one position by two orders, one repeating nothing
    game = get_game("rokumentai")
    start = game.new_game()
    a, b, c = (start.format_move(m) for m in start.legal_moves()[:3])
    after_a = start.apply(start.parse_move(a))
    reply = after_a.format_move(after_a.legal_moves()[0])
    line = [(0, a), (1, reply)]
    games = (
        corpus.CorpusGame("rokumentai", 1, (6, 7), tuple(line), (0,)),
        corpus.CorpusGame("rokumentai", 2, (8, 8), tuple(line), ()),
        corpus.CorpusGame("rokumentai", 3, (7, 7), ((0, b),), (1,)),
    )
    tally = corpus.tally("rokumentai", games)
    root = {x.move: x for x in tally[position_key("rokumentai", start)]}
    assert root[a].games == 2 and root[a].wins[0] == 1 and root[a].draws == 1
    assert root[b].games == 1 and root[b].wins[1] == 1 and c not in root
    assert list(root) == [a, b]  # most played first


def test_a_seed_replays_the_same_game(tmp_path: Path) -> None:
    shipped = {g.seed: g for g in corpus.games("suji-shogi")}
    for seed in sorted(shipped)[:3]:
        row = play("suji-shogi", seed)
        assert row is not None
        again = corpus.CorpusGame.of(row)
        assert again == shipped[seed]
        assert row["nodes"] == [nodes_for(lvl) for lvl in row["levels"]]
    # the time cap: no game once the clock says the time is spent
    ticks = iter([0.0, 10.0])
    assert play_many("suji-shogi", range(5), 5.0, clock=lambda: next(ticks)) == []
    assert corpus.read(tmp_path / "none.jsonl") == ()


def test_the_script_writes_and_appends(tmp_path: Path) -> None:
    script = Path(__file__).resolve().parents[2] / "scripts" / "self_play.py"
    root = script.parent.parent

    def run(*args: str) -> None:
        subprocess.run(
            [sys.executable, str(script), "suji-shogi", "--folder", str(tmp_path), *args],
            check=True,
            cwd=root,
            env={**os.environ, "PYTHONPATH": str(root)},
            capture_output=True,
        )

    run("--games", "2")
    run("--games", "1", "--append")
    written = corpus.read(corpus.path_of("suji-shogi", tmp_path))
    assert [g.seed for g in written] == [0, 1, 2]
    shipped = {g.seed: g for g in corpus.games("suji-shogi")}
    assert all(g == shipped[g.seed] for g in written if g.seed in shipped)
