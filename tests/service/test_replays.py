"""Replays and records in and out, over the real engines and renderers: frame counts, hidden
information staying hidden in replays, KIF and JSON round trips for every game, and refused
record files that leave the store as it was."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from functools import partial
from typing import TypeVar

import pytest
from PIL import Image, ImageSequence

import bot.service.review.replays
from bot.clock import FakeClock
from bot.config import Settings
from bot.service import GameService, InlineThinker, ProcessThinker, Refusal, Reply, User
from engines.registry import all_games
from tests.helpers import (
    ALICE,
    BOB,
    CAROL,
    PEOPLE,
    file_text,
    offered,
    pixels,
    play_on,
    snapshot,
    start,
    suji_with,
)

T = TypeVar("T")


def frames(gif: bytes | None) -> list[tuple[bytes, int]]:
    """Each frame of a GIF as RGBA pixels (composited, as a viewer sees it) and its duration."""
    assert gif is not None and gif.startswith(b"GIF8")
    with Image.open(io.BytesIO(gif)) as image:
        return [
            (frame.convert("RGBA").tobytes(), int(frame.info.get("duration", 0)))
            for frame in ImageSequence.Iterator(image)
        ]


def steps(reply: Reply) -> dict[str, int]:
    """The reply's step buttons: action -> the ply it shows."""
    out = {}
    for action in offered(reply):
        name, _, arg = action.partition(":")
        if name.startswith("step_"):
            out[name] = int(arg)
    return out


# --- replays ------------------------------------------------------------------------------------


async def test_one_frame_per_ply_and_the_start(real: GameService) -> None:
    gid = await start(real, "rokumentai")
    assert await play_on(real, gid, 6) == 6
    replay = await real.review.replay(gid, CAROL)
    assert replay.key == "replay.ready" and replay.public and replay.image_format == "gif"
    assert replay.image_alt is not None  # how many plies, and the last position in words
    assert replay.image_alt.en.startswith(
        "An animated replay of 6 plies, ending on this position: "
    )
    assert ", ply 6. " in replay.image_alt.en and "6手の棋譜再生" in replay.image_alt.ja
    assert replay.params["plies"] == 6 and replay.lines == ()
    shown = frames(replay.image)
    assert len(shown) == 7
    assert [d for _, d in shown] == [1000] * 6 + [4000]  # a longer last frame
    # The GIF ends on the last ply: its buttons go back; the jump list has every ply.
    assert steps(replay) == {"step_first": 0, "step_prev": 5}
    assert [a for a in offered(replay) if a.startswith("goto:")] == [f"goto:{p}" for p in range(7)]
    # Stepping: the start, the middle, the end; a ply beyond the end shows the end.
    first = await real.review.replay_step(gid, CAROL, 0)
    assert first.key == "replay.start" and first.image_format == "png"
    assert steps(first) == {"step_next": 1, "step_last": 6} and "replay" in offered(first)
    middle = await real.review.replay_step(gid, CAROL, 3)
    assert steps(middle) == {"step_first": 0, "step_prev": 2, "step_next": 4, "step_last": 6}
    assert "move 3 of 6, ▲" in middle.text("en") and "3手目（全6手）▲" in middle.text("ja")
    last = await real.review.replay_step(gid, CAROL, 99)
    assert last.params["ply"] == 6 and steps(last) == {"step_first": 0, "step_prev": 5}
    assert pixels(last.image) != pixels(first.image)
    # each step's picture in words, naming the ply that led to it
    assert first.image_alt is not None and "Last move" not in first.image_alt.en
    assert middle.image_alt is not None and ", ply 3. " in middle.image_alt.en
    assert "Last move: " in middle.image_alt.en and "直前の手：" in middle.image_alt.ja


async def test_a_small_upload_limit_keeps_fewer_pictures(real: GameService) -> None:
    gid = await start(real, "rokumentai")
    made = await play_on(real, gid, 30)
    full = await real.review.replay(gid, None)
    assert full.image is not None and len(frames(full.image)) == made + 1
    # More plies than a jump list holds: evenly spaced ones, and those near the one shown.
    middle = await real.review.replay_step(gid, None, 15)
    jumps = [int(a.partition(":")[2]) for a in offered(middle) if a.startswith("goto:")]
    assert len(jumps) == 25 and {0, 14, 15, 16, made} <= set(jumps)
    small = await real.review.replay(gid, None, max_bytes=len(full.image) * 2 // 3)
    assert small.image is not None and len(small.image) <= len(full.image) * 2 // 3
    kept = len(frames(small.image))
    assert 2 <= kept < made + 1
    assert [line.key for line in small.lines][:1] == ["replay.fewer"]
    with pytest.raises(Refusal) as refused:
        await real.review.replay(gid, None, max_bytes=200)
    assert refused.value.key == "refuse.replay_too_large"


async def test_a_lobby_has_no_replay(real: GameService) -> None:
    lobby = await real.play.create_game(ALICE, "rokumentai", open_seats=1)
    assert lobby.game_id is not None
    with pytest.raises(Refusal) as refused:
        await real.review.replay(lobby.game_id, ALICE)
    assert refused.value.key == "refuse.not_started"


async def test_secret_setup_stays_hidden_in_replays(real: GameService) -> None:
    """Alice's arrangement differs between two running games of 数字将棋: every replay anyone
    else can get is the same for both, pixel for pixel; hers is hers alone."""
    first, second = await suji_with(real, "123/456"), await suji_with(real, "654/321")
    for viewer in (None, CAROL, BOB):
        a, b = await real.review.replay(first, viewer), await real.review.replay(second, viewer)
        assert a.public and b.public and a.image_viewer is None
        assert frames(a.image) == frames(b.image)
        sa, sb = (
            await real.review.replay_step(first, viewer, 0),
            await real.review.replay_step(second, viewer, 0),
        )
        assert sa.public and pixels(sa.image) == pixels(sb.image)
        assert "123/456" not in a.text("en") + sa.text("en") + sa.text("ja")
    spectator = await real.review.replay(first, None)
    mine, other = await real.review.replay(first, ALICE), await real.review.replay(second, ALICE)
    assert not mine.public and mine.audience == ALICE.id and mine.image_viewer == 0
    assert frames(mine.image) != frames(other.image)
    assert frames(mine.image) != frames(spectator.image)
    step = await real.review.replay_step(first, ALICE, 0)
    assert not step.public and step.audience == ALICE.id
    # Once both are in, the arrangements are public: everyone gets the same replay again.
    await real.play.setup(first, BOB, "123/456")
    after = await real.review.replay(first, ALICE)
    assert after.public and frames(after.image) == frames(
        (await real.review.replay(first, None)).image
    )


async def test_cards_still_to_come_are_not_in_a_replay(real: GameService) -> None:
    """Two 略式易双六 games with the same moves so far but different seeds (so different cards
    to come) replay identically: a replay is drawn from the log alone."""
    gid = await start(real, "yosuko")
    made = await play_on(real, gid, 5)
    exported = await real.play.record(gid, None)
    data = next(f.data for f in exported.files if f.name.endswith(".json"))
    assert (await real.play.game_info(gid)).seed not in data.decode()
    copy = (await real.play.import_record(ALICE, data)).game_id
    assert copy is not None
    assert (await real.play.game_info(copy)).seed != (await real.play.game_info(gid)).seed
    assert [(e.actor, e.move) for e in await real.play.entries(copy)] == [
        (e.actor, e.move) for e in await real.play.entries(gid)
    ]
    ours, theirs = await real.review.replay(gid, ALICE), await real.review.replay(copy, ALICE)
    assert frames(ours.image) == frames(theirs.image)
    assert len(frames(ours.image)) == made + 1  # the deal, then one picture per ply


# --- records out and in -----------------------------------------------------------------------

EVERY_GAME = [(g.id, n) for g in all_games() for n in g.player_counts]


@pytest.mark.parametrize(("game_id", "players"), EVERY_GAME, ids=[g for g, _ in EVERY_GAME])
async def test_every_game_round_trips_through_each_record_file(
    real: GameService, game_id: str, players: int
) -> None:
    gid = await start(real, game_id, players)
    await play_on(real, gid, 40, seed=players)
    if (await real.play.game_info(gid)).status == "active":  # an end the host decides, too
        state = real.play.current_state(gid)
        assert state is not None
        await real.play.resign(gid, PEOPLE[state.acting_players()[0]])
    original = await real.play.game_info(gid)
    assert original.status == "finished" and original.result is not None
    files = {f.name: f.data for f in (await real.play.record(gid, None)).files}
    assert sorted(files) == [f"banmen-{gid}.{ext}" for ext in ("json", "kif", "kifu")]
    kifu = files[f"banmen-{gid}.kifu"].decode("utf-8")
    assert file_text("x.kif", files[f"banmen-{gid}.kif"]) == kifu
    for name, data in files.items():
        imported = await real.play.import_record(CAROL, data, seats=list(PEOPLE[:players]))
        assert imported.key == "record.imported", name
        assert imported.game_id is not None
        copy = await real.play.game_info(imported.game_id)
        assert await real.play.export_record(copy.id) == await real.play.export_record(gid), name
        assert (copy.status, copy.result) == (original.status, original.result), name
        assert copy.is_imported and not original.is_imported
        # ... and replays to the same end, picture for picture.
        end, copied = (
            await real.review.replay_step(gid, None, 9999),
            await real.review.replay_step(copy.id, None, 9999),
        )
        assert end.params == copied.params | {"id": gid}
        assert pixels(end.image) == pixels(copied.image)


async def test_an_unfinished_record_goes_on_with_a_new_seed(real: GameService) -> None:
    gid = await start(real, "rokumentai")
    await play_on(real, gid, 4)
    kifu = next(f for f in (await real.play.record(gid, None)).files if f.name.endswith(".kifu"))
    imported = await real.play.import_record(ALICE, kifu.data, seats=[ALICE, BOB])
    assert imported.game_id is not None
    copy = await real.play.game_info(imported.game_id)
    assert copy.status == "active" and copy.seed != (await real.play.game_info(gid)).seed
    move = (await real.play.legal_move_choices(copy.id, ALICE.id, ""))[0]
    assert (await real.play.move(copy.id, ALICE, move)).key == "move.played"


async def test_imported_games_are_unrated(real: GameService, db_path: str) -> None:
    gid = await start(real, "rokumentai")
    await play_on(real, gid, 4)
    data = next(
        f.data for f in (await real.play.record(gid, None)).files if f.name.endswith(".json")
    )
    before = snapshot(db_path)["user_stats"]
    imported = await real.play.import_record(ALICE, data, seats=[ALICE, BOB])
    assert imported.game_id is not None and "unrated" in imported.text("en")
    await real.play.resign(imported.game_id, ALICE)  # played on to its end: still no statistics
    assert (await real.play.game_info(imported.game_id)).status == "finished"
    assert snapshot(db_path)["user_stats"] == before


async def test_kif_needs_shift_jis_for_every_character(real: GameService) -> None:
    dragon = User("900", "龍🐉")
    reply = await real.play.create_game(dragon, "rokumentai", seated=[BOB])
    assert reply.game_id is not None
    record = await real.play.record(reply.game_id, None)
    names = [f.name for f in record.files]
    assert names == [f"banmen-{reply.game_id}.kifu", f"banmen-{reply.game_id}.json"]
    assert [line.key for line in record.lines] == ["record.no_sjis"]
    assert "Shift-JIS" in record.text("en") and ".kifu" in record.text("ja")


def _kif(real_kif: str, line: int, text: str) -> bytes:
    lines = real_kif.splitlines()
    lines[line - 1] = text
    return "\n".join(lines).encode("utf-8")


async def test_bad_files_are_refused_with_the_line_and_change_nothing(
    real: GameService, db_path: str
) -> None:
    gid = await start(real, "rokumentai")
    await play_on(real, gid, 4)
    files = {f.name.rpartition(".")[2]: f.data for f in (await real.play.record(gid, None)).files}
    kif, data = files["kifu"].decode(), json.loads(files["json"])
    first_move = next(i for i, t in enumerate(kif.splitlines(), 1) if t.startswith("   1 "))
    bad_json = dict(data, moves=[*data["moves"][:2], {"by": 0, "move": "zz"}])
    suji = await suji_with(real, "123/456")
    hidden = next(
        f.data for f in (await real.play.record(suji, BOB)).files if f.name.endswith("kifu")
    )
    resigned = dict(data, banmen=dict(data["banmen"], result={"termination": "rule"}))
    cases: list[tuple[bytes, str]] = [
        (_kif(kif, first_move, "   1 ▲九九九"), f"line {first_move}: "),
        (_kif(kif, first_move, "   2 ▲四04占"), f"line {first_move}: move 1 comes next"),
        (_kif(kif, first_move, "this is no kifu"), f"line {first_move}: I cannot read"),
        (_kif(kif, 2, "棋戦: 六面体 (chess)"), "line 2: There is no game 'chess'"),
        (json.dumps(bad_json, indent=1).encode(), ": move 3 'zz' is not"),
        (json.dumps(resigned).encode(), "line 1: the result is not one I can read"),
        (b'{"game": "rokumentai",\n "players": 2,\n "moves": [}', "line 3: not JSON"),
        (b"\x82\xa0\n\x82 ", "line 2: the file is neither UTF-8 nor Shift-JIS"),
        (hidden, "this move is hidden in the record"),
        (b" " * (1024 * 1024 + 1), "a record may have at most"),
    ]
    before = snapshot(db_path)
    for bad, reason in cases:
        with pytest.raises(Refusal) as refused:
            await real.play.import_record(CAROL, bad)
        assert refused.value.key == "refuse.bad_record"
        assert reason in refused.value.text("en"), (reason, refused.value.text("en"))
        assert "行目" in refused.value.text("ja") or "line" not in reason
    assert snapshot(db_path) == before


# --- long games (issue 30) --------------------------------------------------------------------


class DrawSpy(InlineThinker):
    """Records what the service hands the worker pool to draw."""

    def __init__(self) -> None:
        super().__init__()
        self.jobs: list[str] = []

    async def draw(self, job: Callable[[], T]) -> T:
        assert isinstance(job, partial)  # picklable: a module's function and its arguments
        self.jobs.append(f"{job.func.__module__}.{job.func.__name__}")
        return await super().draw(job)


async def test_a_long_game_s_replay_is_sampled_and_drawn_in_the_pool(
    monkeypatch: pytest.MonkeyPatch, clock: FakeClock, db_path: str
) -> None:
    """Past REPLAY_MAX_FRAMES positions the animation shows the start, evenly spaced positions
    and the last plies one by one, and says so; the pictures are drawn by the worker pool."""
    monkeypatch.setattr(bot.service.review.replays, "REPLAY_MAX_FRAMES", 10)
    monkeypatch.setattr(bot.service.review.replays, "REPLAY_TAIL", 4)
    spy = DrawSpy()
    real = await GameService.open(
        db_path, clock=clock, settings=Settings(db_path=db_path), thinker=spy
    )
    try:
        gid = await start(real, "rokumentai")
        made = await play_on(real, gid, 30)
        replay = await real.review.replay(gid, CAROL)
        shown = frames(replay.image)
        assert len(shown) == 10 < made + 1
        ((line),) = replay.lines
        assert line.key == "replay.sampled"
        assert line.params == {"shown": 10, "total": made + 1, "last": 4}
        assert "10 of its 31 pictures" in replay.text("en") and "最後の4手" in replay.text("ja")
        assert [d for _, d in shown] == [1000] * 9 + [4000]
        await real.review.replay_step(gid, CAROL, made)
        assert spy.jobs == ["render.replay.animate", "render.render_png"]
        # a short game is not sampled
        short = await start(real, "rokumentai")
        await play_on(real, short, 3)
        assert (await real.review.replay(short, CAROL)).lines == ()
    finally:
        await real.close()


async def test_the_process_pool_draws_the_same_replay(real: GameService) -> None:
    gid = await start(real, "rokumentai")
    await play_on(real, gid, 5)
    inline = await real.review.replay(gid, None)
    pool = ProcessThinker(1)
    try:
        real.review.replays.workers = pool
        drawn = await real.review.replay(gid, None)
        step = await real.review.replay_step(gid, None, 2)
    finally:
        await pool.close()
        real.review.replays.workers = InlineThinker()
    assert frames(drawn.image) == frames(inline.image)
    assert pixels(step.image) == pixels((await real.review.replay_step(gid, None, 2)).image)
