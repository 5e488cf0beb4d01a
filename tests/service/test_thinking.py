"""The process thinker: searches in spawned workers, legal moves only, a deadline each worker
reads itself, and a quick legal move when a worker overruns or dies (the pool is replaced)."""

from __future__ import annotations

import pytest

from bot.service import ProcessThinker
from bot.service.thinking import ThinkRequest
from engines.core import CHANCE, chance_pick
from engines.registry import get_game
from tests.service import ai_workers


def _request(game: str = "rokumentai", level: int = 8, seconds: float = 0.2) -> ThinkRequest:
    state = get_game(game).new_game(None, None)
    while state.current_player() == CHANCE:  # 略式易双六's deal
        state = state.apply(chance_pick(state, "test", state.ply))
    return ThinkRequest(1, state.observe(0), 0, level, seconds, seconds / 2.0, 7)


def _legal(request: ThinkRequest, text: str) -> bool:
    view = request.view
    return view.parse_move(text, request.seat) in view.legal_moves(request.seat)


async def test_a_pooled_search_returns_a_legal_move_within_its_deadline() -> None:
    thinker = ProcessThinker(1, grace=30.0)
    try:
        await thinker.warm_up()
        for game in ("rokumentai", "suji-shogi", "socrates-twothree"):
            request = _request(game)
            assert _legal(request, await thinker.choose(request))
        hints = await thinker.hint(_request("yosuko", seconds=0.1), 20)
        assert hints and all(0.0 <= h.win_chance <= 1.0 for h in hints)
        assert thinker.fallbacks == 0  # every worker stopped by itself, well within the grace
    finally:
        await thinker.close()


@pytest.mark.parametrize("worker", [ai_workers.stuck, ai_workers.crash])
async def test_a_worker_that_overruns_or_dies_is_replaced(worker: object) -> None:
    thinker = ProcessThinker(1, grace=0.5, move_fn=worker)  # type: ignore[arg-type]
    try:
        request = _request(seconds=0.05)
        assert _legal(request, await thinker.choose(request))  # the quick move instead
        assert thinker.fallbacks == 1
        assert thinker._pool is None  # the broken pool is gone; the next search starts afresh
    finally:
        await thinker.close()


def test_a_thinker_needs_a_worker() -> None:
    with pytest.raises(ValueError):
        ProcessThinker(0)
