"""``/board text`` through the service (issue 46, 3): all of the board or one part, in both
languages, privately; each filter's refusals name what there is and change nothing; the moves
of one piece are the engine's; the clocks count a running bank down; nothing hidden shows."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from bot.clock import FakeClock
from bot.config import Settings
from bot.learn import move_cells
from bot.service import GameService, Refusal
from tests.helpers import ALICE, BOB, CAROL, play_on, start


async def test_every_filter_in_both_languages(real: GameService) -> None:
    svc = real
    gid = await start(svc, "sangokushi")
    await play_on(svc, gid, 3)
    whole = await svc.play.board_text(gid, CAROL)
    assert not whole.public and whole.audience == CAROL.id and whole.image is None
    assert "Three Kingdoms Shogi, ply 3" in whole.text("en") and "三国志" in whole.text("ja")
    kind = await svc.play.board_text(gid, CAROL, "kind", "general")
    assert "Only general G." in kind.text("en") and "将のみ" in kind.text("ja")
    row = await svc.play.board_text(gid, ALICE, "row", "E")
    assert "Only row E." in row.text("en")
    last = await svc.play.board_text(gid, CAROL, "last")
    assert "Last move: " in last.text("en") and "Only" not in last.text("en")
    state = svc.play.current_state(gid)
    assert state is not None
    origin = next(c[0] for m in state.legal_moves() if (c := move_cells(m)) and c[0] is not None)
    from render.describe import square_names

    square = square_names("sangokushi")[origin]
    moves = await svc.play.board_text(gid, CAROL, "moves", square)
    expected = [
        state.display_move(m, "en")
        for m in state.legal_moves()
        if (move_cells(m) or (None, -1))[0] == origin
    ]
    assert moves.text("en").endswith(f"{square}: " + ", ".join(expected) + ".")
    assert await svc.play.board_text_choices(gid, CAROL, "moves") and square in (
        await svc.play.board_text_choices(gid, CAROL, "moves")
    )
    assert "general G" in await svc.play.board_text_choices(gid, CAROL, "kind")


@pytest.mark.parametrize(
    ("what", "value", "key"),
    [
        ("colour", None, "boardtext.refuse.filter"),
        ("kind", None, "boardtext.refuse.kind_needed"),
        ("kind", "queen", "boardtext.refuse.no_kind"),
        ("row", "Z", "boardtext.refuse.no_row"),
        ("moves", None, "boardtext.refuse.moves_needed"),
        ("moves", "Z9", "boardtext.refuse.no_square"),
    ],
)
async def test_what_a_bad_filter_is_told(
    real: GameService, what: str, value: str | None, key: str
) -> None:
    gid = await start(real, "sangokushi")
    with pytest.raises(Refusal) as refused:
        await real.play.board_text(gid, ALICE, what, value)
    assert refused.value.key == key
    said = refused.value.text("en")
    assert "{" not in said and (key != "boardtext.refuse.no_kind" or "general G" in said)


async def test_the_clocks_count_the_running_bank_down(real: GameService, clock: FakeClock) -> None:
    svc = real
    made = await svc.play.create_game(
        ALICE, "rokumentai", seated=[BOB], seating="listed", clock="bank:10m+10s/20m"
    )
    gid = made.game_id
    assert gid is not None
    clock.advance(minutes=3)
    said = (await svc.play.board_text(gid, CAROL, "clocks")).text("en")
    assert "Clock: bank:10m+10s/20m." in said
    assert "Black (alice): 7m in the bank." in said and "White (bob): 10m in the bank." in said
    assert "To move: alice, until" in said and "(7m left)" in said
    untimed = await start(svc, "rokumentai")
    assert "no clock" in (await svc.play.board_text(untimed, CAROL, "clocks")).text("en")


async def test_a_secret_setup_shows_in_no_filter(real: GameService) -> None:
    texts = []
    for arrangement in ("123/456", "654/321"):
        made = await real.play.create_game(ALICE, "suji-shogi", seated=[BOB], seating="listed")
        gid = made.game_id
        assert gid is not None
        await real.play.setup(gid, ALICE, arrangement)
        seen = [
            (await real.play.board_text(gid, BOB)).text("en").replace(f"#{gid}", "#"),
            (await real.play.board_text(gid, CAROL, "last")).text("en"),
        ]
        for kind in await real.play.board_text_choices(gid, BOB, "kind"):
            seen.append((await real.play.board_text(gid, BOB, "kind", kind)).text("en"))
        with pytest.raises(Refusal) as refused:
            await real.play.board_text(gid, BOB, "moves", "2三")
        assert refused.value.key == "boardtext.refuse.hidden"
        texts.append([t.replace(f"#{gid}", "#") for t in seen])
    assert texts[0] == texts[1]


async def test_the_sandbox_reads_the_board(tmp_path: Path) -> None:
    from bot.sandbox import run_sandbox

    lines = [
        "/play sangokushi-2p @bob",
        "/as bob",
        "/accept",
        "/as alice",
        "/board 1 text",
        "/board 1 text kind general",
        "/board 1 text row A",
        "/board 1 text clocks",
        "/board 1 text kind queen",
        "/lang ja",
        "/board 1 text kind 将",
    ]
    script = tmp_path / "script.txt"
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = io.StringIO()
    db = str(tmp_path / "sandbox.db")
    code = await run_sandbox(
        Settings(db_path=db), script=str(script), out_dir=str(tmp_path), out=out, user="alice"
    )
    text = out.getvalue()
    assert code == 0, text
    assert "Game #1 in words: Three Kingdoms Shogi (2 players), ply 0." in text
    assert "Only general G. Black: general G A3. White: general G I7." in text
    assert "Only row A." in text and "no clock" in text
    assert "No piece of the kind 'queen' here. The board has: general G" in text
    assert "将のみ" in text
