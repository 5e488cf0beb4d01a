"""Replays: one GIF frame per ply within the budget, fewer (and smaller) under a tight one, and
only what the viewer may see."""

from __future__ import annotations

import io
import itertools
import random
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageSequence

from engines.core import CHANCE, SIMULTANEOUS, Game, State, chance_pick
from engines.registry import get_game
from engines.suji_shogi import BLACK, GAME, WHITE, Setup
from render import render_image
from render.replay import Frame, ReplayTooLargeError, pick_frames, replay_gif


def _playout(game: Game[Any], plies: int, seed: int = 3) -> list[tuple[State[Any], Any]]:
    rng = random.Random(seed)
    state: State[Any] = game.new_game()
    out: list[tuple[State[Any], Any]] = [(state, None)]
    while not state.is_over() and len(out) <= plies:
        actor = state.current_player()
        if actor == CHANCE:
            move, player = chance_pick(state, seed, state.ply), None
        else:
            player = rng.choice(state.acting_players()) if actor == SIMULTANEOUS else actor
            move = rng.choice(state.legal_moves(player))
        state = state.apply(move, player)
        out.append((state, move))
    return out


def _frames(game_id: str, plies: int, viewer: int | None = None) -> list[Frame]:
    return [Frame(s.observe(viewer), m) for s, m in _playout(get_game(game_id), plies)]


def _count(img: Image.Image) -> int:
    n = getattr(img, "n_frames", 1)
    assert isinstance(n, int)
    return n


def _decoded(gif: bytes) -> list[Image.Image]:
    img = Image.open(io.BytesIO(gif))
    assert img.format == "GIF"
    return [f.convert("RGB") for f in ImageSequence.Iterator(img)]


def test_one_frame_per_ply_and_the_start() -> None:
    frames = _frames("rokumentai", 12)
    assert len(frames) == 13
    gif = replay_gif(frames)
    img = Image.open(io.BytesIO(gif))
    assert _count(img) == 13
    assert img.info["loop"] == 0
    durations = []
    for k in range(_count(img)):
        img.seek(k)
        durations.append(img.info["duration"])
    assert durations[:-1] == [1000] * 12 and durations[-1] == 4000


def test_frames_are_the_pictures() -> None:
    """Each decoded frame (the changed pixels over the one before) is the ply's picture, give
    or take the replay's shared palette."""
    frames = _frames("sangokushi", 6, viewer=1)
    decoded = _decoded(replay_gif(frames, 1, names=["a", "b", "c"]))
    assert len(decoded) == len(frames)
    for frame, got in zip(frames, decoded, strict=True):
        want = render_image(frame.state, 1, frame.last_move, None, ["a", "b", "c"])
        assert got.size == want.size
        diff = ImageChops.difference(got, want).convert("L")
        assert sum(diff.histogram()[41:]) < got.width * got.height // 200


def test_a_tight_budget_keeps_fewer_frames_and_fits() -> None:
    frames = _frames("socrates-uchu", 40)
    full = replay_gif(frames)
    budget = len(full) * 7 // 10
    gif = replay_gif(frames, max_bytes=budget)
    assert len(gif) <= budget
    img = Image.open(io.BytesIO(gif))
    assert 2 <= _count(img) < len(frames)
    assert img.size == Image.open(io.BytesIO(full)).size
    # the first and the last picture are kept
    pictures = _decoded(gif)
    assert pictures[0].tobytes() == _decoded(full)[0].tobytes()
    assert pictures[-1].tobytes() == _decoded(full)[-1].tobytes()


def test_a_tiny_budget_shrinks_the_pictures() -> None:
    frames = _frames("yosuko", 30)
    big = Image.open(io.BytesIO(replay_gif(frames)))
    gif = replay_gif(frames, max_bytes=20_000)
    assert len(gif) <= 20_000
    small = Image.open(io.BytesIO(gif))
    assert small.width < big.width and _count(small) >= 2


def test_an_impossible_budget_says_so() -> None:
    with pytest.raises(ReplayTooLargeError):
        replay_gif(_frames("rokumentai", 4), max_bytes=200)
    with pytest.raises(ValueError):
        replay_gif([])


@pytest.mark.parametrize("viewer", [None, WHITE])
def test_a_replay_during_the_secret_setup_shows_no_hidden_arrangement(viewer: int | None) -> None:
    """Black has set up; the spectator's (and White's) replay is the same whatever Black chose,
    even with Black's setup given as the last move."""

    def replay(arrangement: tuple[int, ...]) -> bytes:
        start = GAME.new_game()
        setup = Setup(arrangement)
        after = start.apply(setup, BLACK)
        frames = [Frame(start.observe(viewer)), Frame(after.observe(viewer), setup)]
        return replay_gif(frames, viewer)

    assert replay((4, 6, 5, 1, 2, 3)) == replay((1, 2, 3, 4, 5, 6))
    # Black sees their own arrangement
    start = GAME.new_game()
    a = start.apply(Setup((4, 6, 5, 1, 2, 3)), BLACK)
    b = start.apply(Setup((1, 2, 3, 4, 5, 6)), BLACK)
    assert replay_gif([Frame(a.observe(BLACK))], BLACK) != replay_gif(
        [Frame(b.observe(BLACK))], BLACK
    )


def test_a_long_game_keeps_its_start_and_its_last_plies() -> None:
    assert pick_frames(5, 10, 3) == [0, 1, 2, 3, 4]
    picked = pick_frames(2001, 150, 20)
    assert len(picked) <= 150 and picked == sorted(set(picked))
    assert picked[0] == 0 and picked[-20:] == list(range(1981, 2001))
    head = picked[:-20]
    gaps = {b - a for a, b in itertools.pairwise(head)}
    assert max(gaps) - min(gaps) <= 1  # evenly spaced before the last plies
    assert pick_frames(100, 3, 20) == [0, 98, 99]  # a tiny limit: the start and the end
