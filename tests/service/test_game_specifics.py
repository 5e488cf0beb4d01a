"""The service with the real games where each has something of its own: 三国志三人将棋's
announcements and three-player results, 数字将棋's secret setup, 略式易双六's daily deal and its
talon that nobody can see; and 六面体's picture of a game the host ended."""

from __future__ import annotations

import io
import re
from datetime import timedelta

import pytest
from PIL import Image

from bot.clock import FakeClock
from bot.config import Settings
from bot.service import GameService, Refusal, Reply
from bot.service.present import outcome_of
from engines.core import Termination
from engines.rokumentai import ROKUMENTAI
from engines.yosuko import (
    CARD_DEATH,
    CARD_FOOL,
    MAJORS,
    MINORS,
    YosukoState,
    card_name,
    card_name_ja,
)
from render import render_png
from tests.helpers import ALICE, BOB, CAROL, DAVE

CHECK_LINE = ("PB4-C4", "BI6-G5", "PF8-F7", "HA4-B4")
"""From the start: 魏, 蜀, 呉, then 魏's cavalry checks 呉 (so 呉 moves next, then back to 魏)."""


def pixels(png: bytes | None) -> bytes:
    """The decoded RGBA pixels of a PNG (two encodings of one picture compare equal)."""
    assert png is not None
    with Image.open(io.BytesIO(png)) as image:
        return image.convert("RGBA").tobytes()


def texts(reply: Reply, game_id: int) -> tuple[str, str]:
    """The reply in both languages with the game's number taken out (to compare two games)."""
    return tuple(re.sub(rf"#{game_id}\b", "#N", reply.text(lang)) for lang in ("en", "ja"))  # type: ignore[return-value]


# --- 三国志三人将棋 -----------------------------------------------------------------------------


async def sangokushi(service: GameService, **kw: object) -> int:
    reply = await service.play.create_game(ALICE, "sangokushi", seated=[BOB, CAROL], **kw)  # type: ignore[arg-type]
    assert reply.key == "game.started" and reply.game_id is not None
    assert reply.to_move == (ALICE.id,) and reply.notify == (ALICE.id,)
    return reply.game_id


async def test_check_is_announced_in_the_move_reply(real: GameService) -> None:
    gid = await sangokushi(real)
    players = (ALICE, BOB, CAROL, ALICE)
    replies = [
        await real.play.move(gid, user, move)
        for user, move in zip(players, CHECK_LINE, strict=True)
    ]
    assert all(r.key == "move.played" for r in replies)
    assert not any(line.key == "move.announcement" for r in replies[:3] for line in r.lines)
    check = replies[-1]
    assert [line.key for line in check.lines] == ["move.announcement"]
    en, ja = check.text("en"), check.text("ja")
    assert "Check (王手) on Wu: Wu moves next, then back to Wei." in en
    assert "王手：呉の手番、その後魏に戻ります。" in ja
    # The announcement comes before "X to move"; only the player the check sends to is pinged.
    assert en.index("Check") < en.index("carol to move")
    assert check.to_move == (CAROL.id,) and check.notify == (CAROL.id,)
    # bob, next in the usual order, is skipped: his move is refused, and writes nothing.
    with pytest.raises(Refusal) as exc:
        await real.play.move(gid, BOB, "PH2-G3")
    assert exc.value.key == "refuse.not_your_turn"
    move = (await real.play.legal_move_choices(gid, CAROL.id, ""))[0]
    back = await real.play.move(gid, CAROL, move)
    # 呉 answered: back to 魏, which is also the clockwise order here, so nothing to announce.
    assert back.to_move == (ALICE.id,) and back.lines == ()


async def test_three_player_resignation(real: GameService) -> None:
    gid = await sangokushi(real)
    await real.play.move(gid, ALICE, CHECK_LINE[0])
    reply = await real.play.resign(gid, BOB)
    assert reply.key == "game.resigned" and reply.notify == ()
    first_en, first_ja = reply.text("en").splitlines()[0], reply.text("ja").splitlines()[0]
    assert first_en == f"Game #{gid}: bob resigned: alice and carol share first place."
    assert first_ja == f"対局 #{gid}: bobさんの投了。aliceさんとcarolさんが同率一位。"
    # the leaver is last, the two others share first (docs/ratings.md)
    assert [line.params["name"] for line in reply.lines] == ["alice", "bob", "carol"]
    info = await real.play.game_info(gid)
    assert info.status == "finished" and info.result is not None
    assert info.result.ranks == (1, 3, 1) and info.result.winners == (0, 2)
    for user, wins, losses in ((ALICE, 1, 0), (BOB, 0, 1), (CAROL, 1, 0)):
        item = (await real.play.stats(user, "sangokushi")).lines[0].params
        assert (item["games"], item["wins"], item["losses"]) == (1, wins, losses)
    # The board of the finished game repeats the result.
    board = await real.play.board(gid, None)
    assert "share first place" in board.text("en") and "同率一位" in board.text("ja")


async def test_three_player_timeout(real: GameService, clock: FakeClock) -> None:
    gid = await sangokushi(real, clock="live:5")
    await real.play.move(gid, ALICE, CHECK_LINE[0])
    clock.advance(timedelta(minutes=6))
    replies = [r for r in await real.process_due() if r.key == "game.timeout"]
    assert len(replies) == 1
    timeout = replies[0]
    assert timeout.notify == (BOB.id,)
    assert "bob ran out of time: alice and carol share first place." in timeout.text("en")
    assert "bobさんの時間切れ。aliceさんとcarolさんが同率一位。" in timeout.text("ja")
    info = await real.play.game_info(gid)
    assert info.result is not None and info.result.ranks == (1, 3, 1)


async def test_two_player_variant_resignation(real: GameService) -> None:
    two = await real.play.create_game(ALICE, "sangokushi-2p", seated=[DAVE])
    assert two.game_id is not None
    reply = await real.play.resign(two.game_id, ALICE)
    assert "alice resigned: dave wins." in reply.text("en")
    assert "aliceさんの投了。daveさんの勝ち。" in reply.text("ja")


# --- 数字将棋 ---------------------------------------------------------------------------------

MINE, OTHER = "123/456", "654/321"


async def suji_after_alice(service: GameService, arrangement: str) -> tuple[int, list[Reply]]:
    """A 数字将棋 game in which alice (先手) has sent ``arrangement`` and bob has not."""
    reply = await service.play.create_game(ALICE, "suji-shogi", seated=[BOB])
    assert reply.game_id is not None
    return reply.game_id, await service.play.setup(reply.game_id, ALICE, arrangement)


async def what_others_get(service: GameService, gid: int) -> dict[str, object]:
    """Everything the service hands bob, a spectator (carol, or nobody) and the channel."""
    out: dict[str, object] = {}
    seed = (await service.play.export_record(gid)).seed.encode()  # each game's own, not a secret
    for name, viewer in (("bob", BOB), ("carol", CAROL), ("anyone", None)):
        board = await service.play.board(gid, viewer)
        moves = await service.play.moves(gid, viewer)
        record = await service.play.record(gid, viewer)
        out[f"{name}.board"] = texts(board, gid)
        out[f"{name}.pixels"] = pixels(board.image)
        out[f"{name}.moves"] = texts(moves, gid)
        out[f"{name}.record"] = [
            (
                f.name.replace(f"banmen-{gid}", "banmen-N"),
                f.data.replace(f"#{gid}".encode(), b"#N").replace(seed, b"SEED"),
            )
            for f in record.files
        ]
        if viewer is not None:
            for typed in ("", "1", "6", "/"):
                out[f"{name}.choices{typed}"] = await service.play.legal_move_choices(
                    gid, viewer.id, typed
                )
    return out


async def test_secret_setup_reveals_nothing(real: GameService) -> None:
    first, (mine_private, mine_public) = await suji_after_alice(real, MINE)
    second, (other_private, other_public) = await suji_after_alice(real, OTHER)

    # What goes to the channel: the same words, no picture, and not the arrangement.
    assert mine_public.public and mine_public.key == "setup.waiting"
    assert mine_public.image is None and mine_public.files == ()
    assert texts(mine_public, first) == texts(other_public, second)
    assert mine_public.notify == (BOB.id,)

    # What bob, a spectator and the channel can ask for: identical for both arrangements,
    # pixel for pixel, and no record JSON (it would hold the setup).
    seen_first = await what_others_get(real, first)
    seen_second = await what_others_get(real, second)
    assert seen_first == seen_second
    for name, value in seen_first.items():
        if ".choices" not in name:  # bob's own options include the same arrangement, of course
            assert MINE not in str(value), name
    record = await real.play.record(first, BOB)
    assert [f.name for f in record.files] == [f"banmen-{first}.kifu", f"banmen-{first}.kif"]
    assert all(MINE.encode() not in f.data for f in record.files)
    assert await real.play.legal_move_choices(first, CAROL.id, "") == []
    # bob's own picture is his private view (it would show his own pieces), the spectator's
    # the public one: the same masked board here, as bob has not set up yet.
    bob_board = await real.play.board(first, BOB)
    assert not bob_board.public and bob_board.audience == BOB.id
    assert bob_board.image_viewer == 1

    # alice's confirmation: only for her, with her arrangement and a picture of her own view,
    # which differs with the arrangement (the spectator's does not).
    assert not mine_private.public and mine_private.audience == ALICE.id
    assert mine_private.image_viewer == 0
    assert MINE in mine_private.text("en") and MINE in mine_private.text("ja")
    assert pixels(mine_private.image) != pixels(other_private.image)
    assert pixels(mine_private.image) != seen_first["anyone.pixels"]
    alice_board = await real.play.board(first, ALICE)
    assert not alice_board.public and alice_board.audience == ALICE.id
    assert pixels(alice_board.image) == pixels(mine_private.image)
    assert pixels(alice_board.image) != pixels((await real.play.board(second, ALICE)).image)
    assert MINE in (await real.play.moves(first, ALICE)).text("en")

    # Until both are in, a player may change their setup; nobody else learns what it is.
    changed_private, changed_public = await real.play.setup(first, ALICE, OTHER)
    assert changed_private.key == "setup.changed" and not changed_private.public
    assert changed_public.key == "setup.changed_public"
    assert OTHER not in changed_public.text("en") and OTHER not in changed_public.text("ja")
    assert MINE not in changed_public.text("en")
    await real.play.setup(second, ALICE, MINE)  # the other game changes the other way round
    for viewer in (BOB, None):
        assert pixels((await real.play.board(first, viewer)).image) == pixels(
            (await real.play.board(second, viewer)).image
        )

    # Once bob's is in, everything is revealed to everyone.
    _, revealed = await real.play.setup(first, BOB, "321/654")
    assert revealed.key == "setup.revealed" and revealed.image is not None
    moves_after = (await real.play.moves(first, None)).text("en")
    assert MINE in moves_after and OTHER in moves_after  # the change is in the record
    assert any(f.name.endswith(".json") for f in (await real.play.record(first, None)).files)


# --- 略式易双六 -------------------------------------------------------------------------------


async def test_daily_seed(real: GameService, clock: FakeClock) -> None:
    """The same deal for everyone on a UTC day, a different one the next day."""
    first = await real.play.daily(ALICE, "g")
    second = await real.play.daily(BOB, "g")
    assert first.key == second.key == "game.started"
    assert first.game_id is not None and second.game_id is not None
    a = await real.play.export_record(first.game_id)
    b = await real.play.export_record(second.game_id)
    day = clock.now().date().isoformat()
    assert a.seed == b.seed and day not in a.seed and len(a.seed) == 64  # an HMAC of the day
    assert [e.move for e in a.entries][:6] == [e.move for e in b.entries][:6]
    assert len(a.entries) == 6 and all(e.move.startswith("deal ") for e in a.entries)
    # Both games play out identically for the same choices: the talon is the same too.
    for gid in (first.game_id, second.game_id):
        user = ALICE if gid == first.game_id else BOB
        await real.play.move(gid, user, "start 1")
        await real.play.move(gid, user, "draw")
    a = await real.play.export_record(first.game_id)
    b = await real.play.export_record(second.game_id)
    assert [e.move for e in a.entries] == [e.move for e in b.entries]
    clock.advance(timedelta(days=1))
    tomorrow = await real.play.daily(ALICE, "g")
    assert tomorrow.game_id is not None
    c = await real.play.export_record(tomorrow.game_id)
    assert c.seed != a.seed
    assert [e.move for e in c.entries][:6] != [e.move for e in a.entries][:6]


def undrawn_names(state: YosukoState) -> list[tuple[str, str]]:
    """(English, Japanese) spellings of every card still in the talon."""
    out = []
    # Before the start line is chosen, no card is drawn and either major may be shuffled in.
    talon = state.talon if state.start else (*range(MINORS), CARD_FOOL, CARD_DEATH)
    for card in talon:
        if card < MINORS:
            out.append((card_name(card), card_name_ja(card)))
        else:
            major = MAJORS[card - MINORS]
            out.append((major.en, major.ja))
    return out


def mentions(text: str, name: str) -> bool:
    """``name`` appears in ``text`` as a card name (``W1`` is not ``W10``)."""
    return re.search(rf"(?<![A-Za-z0-9]){re.escape(name)}(?![0-9])", text) is not None


async def test_no_reply_names_an_undrawn_card(real: GameService) -> None:
    # a fixed deal that lasts (a random one may end on its first draw)
    reply = await real.play.create_game(ALICE, "yosuko", seed="a long deal")
    gid = reply.game_id
    assert gid is not None
    replies = [reply]
    for _ in range(30):
        state = real.play.current_state(gid)
        assert isinstance(state, YosukoState)
        names = undrawn_names(state)
        assert names
        for r in replies[-1:]:
            en, ja = r.text("en"), r.text("ja")
            for name_en, name_ja in names:
                assert not mentions(en, name_en), (name_en, en)
                assert not mentions(ja, name_ja), (name_ja, ja)
        if (await real.play.game_info(gid)).status != "active":
            break
        choices = await real.play.legal_move_choices(gid, ALICE.id, "")
        # The player's choices never list cards (the draw is the host's chance step).
        assert all(c in ("draw", "move", "stay") or c.startswith("start ") for c in choices)
        replies.append(await real.play.move(gid, ALICE, choices[0]))
        for name in choices:
            assert not any(mentions(name, en) for en, _ in names)
    assert len(replies) > 3


# --- the picture of a game the host ended -------------------------------------------------------

OPENING = "四04占"


async def rokumentai_after_one_move(service: GameService, **kw: object) -> int:
    """A 六面体 game where Alice (Black) has played :data:`OPENING`: Bob's turn."""
    reply = await service.play.create_game(ALICE, "rokumentai", seated=[BOB], **kw)  # type: ignore[arg-type]
    assert reply.game_id is not None and reply.to_move == (ALICE.id,)
    played = await service.play.move(reply.game_id, ALICE, OPENING)
    assert played.to_move == (BOB.id,)
    return reply.game_id


async def end_by(service: GameService, clock: FakeClock, gid: int, how: str) -> Reply:
    if how == "resign":
        return await service.play.resign(gid, BOB)
    if how == "timeout":
        clock.advance(timedelta(minutes=6))
        (reply,) = [r for r in await service.process_due() if r.key == "game.timeout"]
        return reply
    if how == "agreement":
        await service.play.offer_draw(gid, ALICE)
        return await service.play.accept_draw(gid, BOB)
    return await service.play.abort(gid, CAROL)


ENDS = {
    "resign": Termination.RESIGNATION,
    "timeout": Termination.TIMEOUT,
    "agreement": Termination.AGREEMENT,
    "abort": Termination.ABORTED,
}


@pytest.mark.parametrize("how", list(ENDS))
async def test_host_ended_board_shows_the_result_not_the_turn(
    real: GameService, clock: FakeClock, db_path: str, how: str
) -> None:
    """After a resignation, a timeout, an agreed draw or an abort the posted board no longer
    says whose turn it is (the engine state still does): it is drawn with the stored outcome."""
    gid = await rokumentai_after_one_move(real, clock="live:5")
    state = real.play.current_state(gid)
    assert state is not None and not state.is_over()
    last = ROKUMENTAI.new_game().parse_move(OPENING)
    turn_picture = pixels(render_png(state, None, last))
    reply = await end_by(real, clock, gid, how)
    assert reply.image is not None
    assert pixels(reply.image) != turn_picture
    info = await real.play.game_info(gid)
    outcome = outcome_of(info.result)
    assert outcome is not None and outcome.termination is ENDS[how]
    # the players' names are in the picture's header
    names = (ALICE.name, BOB.name)
    assert pixels(reply.image) == pixels(render_png(state, None, last, outcome, names))
    # /board repeats the ended picture, for a player and a spectator, and after a restart.
    for viewer in (None, BOB):
        assert pixels((await real.play.board(gid, viewer)).image) == pixels(reply.image)
    again = await GameService.open(db_path, clock=clock, settings=Settings(db_path=db_path))
    try:
        assert pixels((await again.play.board(gid)).image) == pixels(reply.image)
    finally:
        await again.close()


async def test_resignation_picture_names_the_loser(real: GameService) -> None:
    """Who resigned shows: Alice resigning and Bob resigning the same position differ."""
    pictures = []
    for loser in (ALICE, BOB):
        gid = await rokumentai_after_one_move(real)
        pictures.append(pixels((await real.play.resign(gid, loser)).image))
    assert pictures[0] != pictures[1]


async def test_a_rule_ended_game_is_drawn_by_its_own_state(real: GameService) -> None:
    """A game its rules ended gets no outcome from the service: the picture is the state's."""
    gid = await rokumentai_after_one_move(real)
    state = real.play.current_state(gid)
    assert state is not None
    end = state
    texts_played = []
    while (await real.play.game_info(gid)).status == "active":
        choices = await real.play.legal_move_choices(
            gid, (ALICE, BOB)[end.current_player()].id, "", 10_000
        )
        text = sorted(choices)[0]
        reply = await real.play.move(gid, (ALICE, BOB)[end.current_player()], text)
        texts_played.append(text)
        now = real.play.current_state(gid)
        assert now is not None
        move, end = end.parse_move(text), now
        assert len(texts_played) < 400
    outcome = end.outcome()
    assert outcome is not None and outcome.termination is not Termination.RESIGNATION
    names = (ALICE.name, BOB.name)
    assert pixels(reply.image) == pixels(render_png(end, None, move, None, names))
    assert pixels((await real.play.board(gid)).image) == pixels(reply.image)
