"""The game service's use cases over the test engines (noughts and crosses, dice race)."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from bot.clock import FakeClock
from bot.config import Settings
from bot.service import GameService, Refusal, User
from tests.helpers import (
    ALICE,
    BOB,
    CAROL,
    DAVE,
    file_text,
    moves_of,
    offered,
    play_all,
    query,
    snapshot,
    ttt,
)

# --- creating, joining, starting ------------------------------------------------------------


async def test_invited_players_start_at_once(service: GameService) -> None:
    reply = await service.play.create_game(ALICE, "ttt-test", seated=[BOB])
    assert reply.key == "game.started"
    assert reply.to_move == (ALICE.id,)
    assert reply.notify == (ALICE.id,)
    assert "move" in offered(reply) and "resign" in offered(reply)
    assert reply.image is not None and reply.image_viewer is None
    assert "alice" in reply.text("en") and "先手" in reply.text("ja")


async def test_open_seat_join_starts(service: GameService) -> None:
    reply = await service.play.create_game(ALICE, "ttt-test", open_seats=1)
    assert reply.key == "game.created"
    assert offered(reply) == ("join", "leave", "start", "cancel")
    gid = reply.game_id
    assert gid is not None
    with pytest.raises(Refusal) as exc:
        await service.play.move(gid, ALICE, "a1")
    assert exc.value.key == "refuse.not_started"
    with pytest.raises(Refusal) as exc:
        await service.play.start(gid, ALICE)
    assert exc.value.key == "refuse.not_full"
    joined = await service.play.join(gid, BOB)
    assert joined.key == "game.started"
    with pytest.raises(Refusal) as exc:
        await service.play.join(gid, CAROL)
    assert exc.value.key == "refuse.already_started"


async def test_three_seats_join_one_by_one(service: GameService) -> None:
    reply = await service.play.create_game(ALICE, "race-test", players=3, open_seats=2)
    gid = reply.game_id
    assert gid is not None
    assert (await service.play.join(gid, BOB)).key == "game.joined"
    with pytest.raises(Refusal) as exc:
        await service.play.join(gid, BOB)
    assert exc.value.key == "refuse.already_joined"
    assert (await service.play.leave(gid, BOB)).key == "game.left"
    assert (await service.play.join(gid, BOB)).key == "game.joined"
    started = await service.play.join(gid, CAROL)
    assert started.key == "game.started"
    # the chance roll at the start is in the log, written with the start
    entries = await service.play.entries(gid)
    assert [e.actor for e in entries] == [-1]


async def test_cancel_only_by_creator_before_start(service: GameService) -> None:
    reply = await service.play.create_game(ALICE, "ttt-test", open_seats=1)
    gid = reply.game_id
    assert gid is not None
    with pytest.raises(Refusal) as exc:
        await service.play.cancel(gid, BOB)
    assert exc.value.key == "refuse.not_creator"
    with pytest.raises(Refusal) as exc:
        await service.play.leave(gid, ALICE)
    assert exc.value.key == "refuse.creator_leaves"
    assert (await service.play.cancel(gid, ALICE)).key == "game.cancelled"
    with pytest.raises(Refusal) as exc:
        await service.play.join(gid, BOB)
    assert exc.value.key == "refuse.already_started"


async def test_host_seat(service: GameService) -> None:
    reply = await service.play.create_game(ALICE, "ttt-test", host_seats=1)
    assert reply.key == "game.started"
    gid = reply.game_id
    assert gid is not None
    info = await service.play.game_info(gid)
    assert [s.kind for s in info.seats] == ["human", "host"]
    await service.play.move(gid, ALICE, "a1")
    host = User("host", "Banmen")
    played = await service.play.move(gid, host, "b1")
    assert played.key == "move.played"
    assert played.notify == (ALICE.id,)


async def test_create_refusals(service: GameService, db_path: str) -> None:
    before = snapshot(db_path)
    cases = [
        ({"game_type": "go"}, "refuse.unknown_game_type"),
        ({"game_type": "ttt-test", "options": {"setup": "maybe"}}, "refuse.bad_option"),
        ({"game_type": "ttt-test", "options": {"nonsense": "1"}}, "refuse.bad_option"),
        ({"game_type": "ttt-test", "players": 3}, "refuse.bad_option"),
        ({"game_type": "ttt-test", "clock": "sometimes"}, "refuse.bad_clock"),
        ({"game_type": "ttt-test", "invite": [BOB, CAROL]}, "refuse.bad_option"),
    ]
    for kw, key in cases:
        with pytest.raises(Refusal) as exc:
            await service.play.create_game(ALICE, **kw)  # type: ignore[arg-type]
        assert exc.value.key == key, kw
        assert exc.value.text("en") and exc.value.text("ja")
    assert snapshot(db_path) == before


# --- playing ------------------------------------------------------------------------------


async def test_play_to_the_end(service: GameService, db_path: str) -> None:
    gid = await ttt(service)
    await play_all(service, gid, "a1 b1 a2 b2")
    last = await service.play.move(gid, ALICE, "a3")
    assert last.key == "move.played"
    # the result, the winner by name, then each player's rating change (a rated game)
    keys = [line.key for line in last.lines]
    assert keys == ["game.result", "game.winner", "rating.change", "rating.change"]
    assert last.notify == () and last.deadline is None
    # the rules' words name seats; the next line names the person beside the seat
    assert "Winner: alice (Black)" in last.text("en")
    assert "勝者: aliceさん（先手）" in last.text("ja")
    assert "three in a row" in last.text("en") and "三目並び" in last.text("ja")
    info = await service.play.game_info(gid)
    assert info.status == "finished"
    assert info.result is not None and info.result.winners == (0,)
    assert [m[2] for m in moves_of(db_path, gid)] == ["a1", "b1", "a2", "b2", "a3"]


async def test_every_move_refusal_writes_nothing(service: GameService, db_path: str) -> None:
    gid = await ttt(service)
    await service.play.move(gid, ALICE, "a1")
    before = snapshot(db_path)

    async def refused(user: User, text: str, key: str, game: int | None = None) -> Refusal:
        with pytest.raises(Refusal) as exc:
            await service.play.move(gid if game is None else game, user, text)
        assert exc.value.key == key, (text, exc.value.key)
        assert exc.value.text("en") and exc.value.text("ja")
        return exc.value

    await refused(BOB, "a2", "refuse.unknown_game", game=999)
    await refused(CAROL, "a2", "refuse.not_a_player")
    await refused(ALICE, "a2", "refuse.not_your_turn")
    illegal = await refused(BOB, "a1", "refuse.bad_move")  # the square is taken
    assert illegal.suggestions and "a1" not in illegal.suggestions
    malformed = await refused(BOB, "z9", "refuse.bad_move")
    assert malformed.suggestions
    await refused(BOB, "", "refuse.bad_move")
    too_long = await refused(BOB, "a2" * 200, "refuse.too_long")
    assert "400" in too_long.text("en")
    assert snapshot(db_path) == before


async def test_game_over_refusal(service: GameService, db_path: str) -> None:
    gid = await ttt(service)
    await service.play.resign(gid, BOB)
    before = snapshot(db_path)
    for call in (
        service.play.move(gid, ALICE, "a1"),
        service.play.resign(gid, ALICE),
        service.play.offer_draw(gid, ALICE),
        service.play.request_takeback(gid, ALICE),
    ):
        with pytest.raises(Refusal) as exc:
            await call
        assert exc.value.key == "refuse.game_over"
    assert snapshot(db_path) == before


async def test_resign(service: GameService) -> None:
    gid = await ttt(service)
    reply = await service.play.resign(gid, BOB)
    assert reply.key == "game.resigned"
    assert "bob" in reply.text("en")
    info = await service.play.game_info(gid)
    assert info.result is not None
    assert info.result.termination == "resignation" and info.result.winners == (0,)


async def test_three_player_resignation_ranks(service: GameService) -> None:
    reply = await service.play.create_game(ALICE, "race-test", seated=[BOB, CAROL])
    gid = reply.game_id
    assert gid is not None
    await service.play.resign(gid, BOB)
    info = await service.play.game_info(gid)
    assert info.result is not None
    assert info.result.ranks == (1, 3, 1)


async def test_chance_outcomes_are_logged_with_the_move(service: GameService, db_path: str) -> None:
    reply = await service.play.create_game(ALICE, "race-test", seated=[BOB], seed="fixed")
    gid = reply.game_id
    assert gid is not None
    played = await service.play.move(gid, ALICE, "step")
    rows = moves_of(db_path, gid)
    assert [r[1] for r in rows] == [-1, 0, -1]
    assert played.lines[0].key == "move.chance"
    assert played.params["ply"] == 1  # move numbers count the players' moves only
    # the same seed gives the same rolls
    again = await service.play.create_game(ALICE, "race-test", seated=[BOB], seed="fixed")
    assert again.game_id is not None
    await service.play.move(again.game_id, ALICE, "step")
    assert [r[2] for r in moves_of(db_path, again.game_id)] == [r[2] for r in rows]


# --- draws and takebacks --------------------------------------------------------------------


async def test_draw_offer_accept(service: GameService) -> None:
    gid = await ttt(service)
    draw = await service.play.offer_draw(gid, ALICE)
    assert draw.key == "draw.offered"
    assert "accept_draw" in offered(draw)
    with pytest.raises(Refusal) as exc:
        await service.play.accept_draw(gid, ALICE)  # not your own offer
    assert exc.value.key == "refuse.no_offer"
    agreed = await service.play.accept_draw(gid, BOB)
    assert agreed.key == "draw.agreed"
    info = await service.play.game_info(gid)
    assert info.result is not None and info.result.termination == "agreement"


async def test_draw_offer_decline_and_lapse(service: GameService) -> None:
    gid = await ttt(service)
    await service.play.offer_draw(gid, ALICE)
    assert (await service.play.decline_draw(gid, BOB)).key == "draw.declined"
    with pytest.raises(Refusal) as exc:
        await service.play.accept_draw(gid, BOB)
    assert exc.value.key == "refuse.no_offer"
    await service.play.offer_draw(gid, BOB)
    await service.play.move(gid, ALICE, "a1")  # a move clears the offer
    with pytest.raises(Refusal) as exc:
        await service.play.accept_draw(gid, ALICE)
    assert exc.value.key == "refuse.no_offer"


async def test_mutual_offers_agree(service: GameService) -> None:
    gid = await ttt(service)
    await service.play.offer_draw(gid, ALICE)
    assert (await service.play.offer_draw(gid, BOB)).key == "draw.agreed"


async def test_draw_two_players_only(service: GameService) -> None:
    reply = await service.play.create_game(ALICE, "race-test", seated=[BOB, CAROL])
    assert reply.game_id is not None
    with pytest.raises(Refusal) as exc:
        await service.play.offer_draw(reply.game_id, ALICE)
    assert exc.value.key == "refuse.two_player_only"


async def test_takeback_within_grace_is_automatic(service: GameService, clock: FakeClock) -> None:
    gid = await ttt(service)
    await service.play.move(gid, ALICE, "a1")
    clock.advance(seconds=30)
    reply = await service.play.request_takeback(gid, ALICE)
    assert reply.key == "takeback.done"
    assert await service.play.entries(gid) == []
    assert reply.to_move == (ALICE.id,)


async def test_takeback_after_grace_needs_consent(service: GameService, clock: FakeClock) -> None:
    gid = await ttt(service)
    await service.play.move(gid, ALICE, "a1")
    clock.advance(minutes=5)
    assert (await service.play.request_takeback(gid, ALICE)).key == "takeback.offered"
    assert (await service.play.decline_takeback(gid, BOB)).key == "takeback.declined"
    assert len(await service.play.entries(gid)) == 1
    await service.play.request_takeback(gid, ALICE)
    assert (await service.play.accept_takeback(gid, BOB)).key == "takeback.done"
    assert await service.play.entries(gid) == []


async def test_takeback_after_reply_takes_both_back(service: GameService) -> None:
    gid = await ttt(service)
    await play_all(service, gid, "a1 b1")
    assert (await service.play.request_takeback(gid, ALICE)).key == "takeback.offered"
    await service.play.accept_takeback(gid, BOB)
    assert await service.play.entries(gid) == []
    await service.play.move(gid, ALICE, "c3")  # the game goes on from there


async def test_no_takeback(service: GameService, db_path: str) -> None:
    gid = await ttt(service)
    before = snapshot(db_path)
    with pytest.raises(Refusal) as exc:
        await service.play.request_takeback(gid, ALICE)
    assert exc.value.key == "refuse.no_takeback"
    assert snapshot(db_path) == before
    reply = await service.play.create_game(ALICE, "race-test", seated=[BOB])
    assert reply.game_id is not None
    await service.play.move(reply.game_id, ALICE, "go")  # followed by a chance roll
    with pytest.raises(Refusal) as exc:
        await service.play.request_takeback(reply.game_id, ALICE)
    assert exc.value.key == "refuse.no_takeback"


async def test_abort(service: GameService) -> None:
    gid = await ttt(service)
    reply = await service.play.abort(gid, DAVE)
    assert reply.key == "game.aborted"
    info = await service.play.game_info(gid)
    assert info.status == "aborted"
    assert (await service.play.stats(ALICE)).key == "stats.none"


# --- secret setups --------------------------------------------------------------------------


async def test_secret_setup_reveals_nothing_until_all_are_in(
    service: GameService, db_path: str
) -> None:
    gid = await ttt(service, options={"setup": "on"})
    with pytest.raises(Refusal) as exc:
        await service.play.move(gid, ALICE, "a1")
    assert exc.value.key == "refuse.use_setup"
    private, public = await service.play.setup(gid, ALICE, "s2")
    assert not private.public and private.audience == ALICE.id
    assert private.image is not None and b"s2" in private.image
    assert public.public and public.key == "setup.waiting"
    assert b"s2" not in public.text("en").encode()
    assert public.notify == (BOB.id,)
    # nobody but alice sees it: not bob's board, not a spectator's, not the move list
    bob_board = await service.play.board(gid, BOB)
    assert bob_board.image is not None and b"s2" not in bob_board.image
    spectator = await service.play.board(gid, None)
    assert spectator.image is not None and b"s2" not in spectator.image
    assert "s2" not in (await service.play.moves(gid, BOB)).text("en")
    assert "s2" not in (await service.play.moves(gid, None)).text("en")
    assert "s2" in (await service.play.moves(gid, ALICE)).text("en")
    record = await service.play.record(gid, BOB)
    assert all(b"s2" not in f.data for f in record.files)
    assert await service.play.legal_move_choices(gid, BOB.id, "") == ["s1", "s2", "s3"]
    assert await service.play.legal_move_choices(gid, ALICE.id, "") == []
    # a second setup is refused and writes nothing
    before = snapshot(db_path)
    with pytest.raises(Refusal) as exc:
        await service.play.setup(gid, ALICE, "s1")
    assert exc.value.key == "refuse.setup_done"
    assert snapshot(db_path) == before
    _, revealed = await service.play.setup(gid, BOB, "s3")
    assert revealed.key == "setup.revealed"
    assert "s2" in (await service.play.moves(gid, None)).text("en")
    with pytest.raises(Refusal) as exc:
        await service.play.setup(gid, BOB, "s1")
    assert exc.value.key == "refuse.not_setup"
    await service.play.move(gid, ALICE, "a1")


# --- looking, records, lists ------------------------------------------------------------


async def test_board_without_renderer_is_text(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    import render

    monkeypatch.setattr(render, "_renderers", lambda: {})
    gid = await ttt(service)
    reply = await service.play.board(gid, ALICE)
    assert reply.image is None
    assert "........." in reply.text("en")


async def test_record_kif_and_json_reimport(service: GameService) -> None:
    gid = await ttt(service)
    assert (await service.play.moves(gid, None)).key == "moves.none"
    await play_all(service, gid, "a1 b1 a2 b2 a3")
    reply = await service.play.record(gid, None)
    files = {f.name: file_text(f.name, f.data) for f in reply.files}
    kif = files[f"banmen-{gid}.kifu"]
    assert files[f"banmen-{gid}.kif"] == kif  # the same, in Shift-JIS
    assert "三目並べ" in kif and "alice" in kif and "bob" in kif
    assert "   1 ▲a1" in kif and "   5 ▲a3" in kif and "三目並び" in kif
    data = json.loads(files[f"banmen-{gid}.json"])
    assert data["game"] == "ttt-test" and data["banmen"]["players"] == ["alice", "bob"]
    imported = await service.play.import_record(
        CAROL, files[f"banmen-{gid}.json"], seats=[ALICE, BOB]
    )
    assert imported.game_id is not None and imported.game_id != gid
    assert await service.play.export_record(imported.game_id) == await service.play.export_record(
        gid
    )
    info = await service.play.game_info(imported.game_id)
    assert info.status == "finished"
    with pytest.raises(Refusal) as exc:
        await service.play.import_record(CAROL, "{not json")
    assert exc.value.key == "refuse.bad_record"
    broken = json.dumps({**data, "moves": [{"by": 0, "move": "a1"}, {"by": 1, "move": "a1"}]})
    with pytest.raises(Refusal) as exc:
        await service.play.import_record(CAROL, broken)
    assert exc.value.key == "refuse.bad_record"


async def test_import_unfinished_game_continues(service: GameService) -> None:
    gid = await ttt(service)
    await play_all(service, gid, "a1 b1")
    json_text = next(f for f in (await service.play.record(gid)).files if f.name.endswith(".json"))
    imported = await service.play.import_record(ALICE, json_text.data.decode(), seats=[ALICE, BOB])
    assert imported.game_id is not None
    await service.play.move(imported.game_id, ALICE, "c3")


async def test_list_games_your_move_first(service: GameService) -> None:
    first = await ttt(service)
    await service.play.move(first, ALICE, "a1")  # now bob's move
    second = await ttt(service)  # alice's move
    reply = await service.play.list_games(ALICE)
    assert reply.key == "games.list" and not reply.public
    assert [line.params["id"] for line in reply.lines] == [second, first]
    assert reply.lines[0].key == "games.item_turn"
    assert (await service.play.list_games(DAVE)).key == "games.none"


async def test_limits(fakes: None, clock: FakeClock, db_path: str) -> None:
    settings = Settings(db_path=db_path, max_active_per_user=2, max_active_per_guild=3)
    service = await GameService.open(db_path, clock=clock, settings=settings)
    try:
        await service.play.create_game(ALICE, "ttt-test", seated=[BOB], guild_id="g")
        await service.play.create_game(ALICE, "ttt-test", seated=[CAROL], guild_id="g")
        with pytest.raises(Refusal) as exc:
            await service.play.create_game(ALICE, "ttt-test", seated=[DAVE], guild_id="g")
        assert exc.value.key == "refuse.limit_user"
        await service.play.create_game(BOB, "ttt-test", seated=[CAROL], guild_id="g")
        with pytest.raises(Refusal) as exc:
            await service.play.create_game(DAVE, "ttt-test", open_seats=1, guild_id="g")
        assert exc.value.key == "refuse.limit_guild"
        await service.play.create_game(DAVE, "ttt-test", open_seats=1, guild_id="other")
    finally:
        await service.close()


async def test_legal_move_choices(service: GameService) -> None:
    gid = await ttt(service)
    assert await service.play.legal_move_choices(gid, ALICE.id, "") == [
        "a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3",
    ]  # fmt: skip
    assert await service.play.legal_move_choices(gid, ALICE.id, "Ａ") == [
        "a1",
        "a2",
        "a3",
    ]  # width, case
    assert await service.play.legal_move_choices(gid, ALICE.id, "2") == [
        "a2",
        "b2",
        "c2",
    ]  # substring
    assert await service.play.legal_move_choices(gid, ALICE.id, "a", limit=2) == ["a1", "a2"]
    assert await service.play.legal_move_choices(gid, BOB.id, "") == []  # not bob's turn
    assert await service.play.legal_move_choices(gid, CAROL.id, "") == []
    assert await service.play.legal_move_choices(999, ALICE.id, "") == []
    await service.play.move(gid, ALICE, "a1")
    assert "a1" not in await service.play.legal_move_choices(gid, BOB.id, "")


async def test_location(service: GameService) -> None:
    gid = await ttt(service)
    await service.play.set_game_location(gid, "c1", "t1", "m1")
    loc = service.play.location(gid)
    assert loc is not None and loc.thread_id == "t1"
    assert (await service.play.game_info(gid)).thread_id == "t1"


async def test_stats_and_streaks(service: GameService) -> None:
    for _ in range(2):
        gid = await ttt(service)
        await service.play.resign(gid, BOB)
    gid = await ttt(service)
    await service.play.offer_draw(gid, ALICE)
    await service.play.accept_draw(gid, BOB)
    gid = await ttt(service)
    await service.play.resign(gid, ALICE)
    reply = await service.play.stats(ALICE)
    item = reply.lines[0].params
    assert (item["games"], item["wins"], item["losses"], item["draws"]) == (4, 2, 1, 1)
    assert (item["streak"], item["best"], item["rate"]) == (0, 2, "50%")
    bob = (await service.play.stats(BOB)).lines[0].params
    assert (bob["wins"], bob["streak"], bob["best"]) == (1, 1, 1)


async def test_guild_settings(service: GameService) -> None:
    assert (await service.play.guild_settings("g")).lang == "en"
    await service.play.set_guild_setting("g", "lang", "ja")
    await service.play.set_guild_setting("g", "clock", "corr:2")
    settings = await service.play.guild_settings("g")
    assert settings.lang == "ja" and settings.clock == "corr:2d"
    with pytest.raises(Refusal) as exc:
        await service.play.set_guild_setting("g", "colour", "red")
    assert exc.value.key == "refuse.bad_setting"
    with pytest.raises(Refusal) as exc:
        await service.play.set_guild_setting("g", "clock", "soon")
    assert exc.value.key == "refuse.bad_setting_value"
    # the server's default clock applies to its new games
    reply = await service.play.create_game(ALICE, "ttt-test", seated=[BOB], guild_id="g")
    assert reply.deadline is not None


async def test_daily_deal(
    service: GameService, monkeypatch: pytest.MonkeyPatch, clock: FakeClock
) -> None:
    import bot.service.play.community

    monkeypatch.setattr(bot.service.play.community, "DAILY_GAME", "race-test")
    first = await service.play.daily(ALICE, "g")
    other = await service.play.daily(BOB, "g")
    assert first.game_id is not None and other.game_id is not None
    a = await service.play.export_record(first.game_id)
    b = await service.play.export_record(other.game_id)
    assert a.seed == b.seed and a.entries == b.entries  # the same deal for everyone
    again = await service.play.daily(ALICE, "g")
    assert again.game_id == first.game_id
    await service.play.resign(first.game_id, ALICE)
    with pytest.raises(Refusal) as exc:
        await service.play.daily(ALICE, "g")
    assert exc.value.key == "refuse.daily_done"
    board = await service.play.daily_board("g")
    assert [line.params["name"] for line in board.lines] == ["alice", "bob"]
    clock.advance(timedelta(days=1))
    tomorrow = await service.play.daily(ALICE, "g")
    assert tomorrow.game_id not in (first.game_id, other.game_id)


async def test_game_choices(
    service: GameService, fakes: None, db_path: str, clock: FakeClock
) -> None:
    first = await ttt(service)
    second = await service.play.create_game(BOB, "ttt-test", open_seats=1)
    assert service.play.game_choices(BOB.id) == [
        (second.game_id, f"#{second.game_id} Noughts and crosses / 三目並べ"),
        (first, f"#{first} Noughts and crosses / 三目並べ"),
    ]
    assert service.play.game_choices(ALICE.id, "三目") == [
        (first, f"#{first} Noughts and crosses / 三目並べ")
    ]
    await service.play.resign(first, ALICE)
    assert [g for g, _ in service.play.game_choices(ALICE.id)] == []
    # restored from the store after a restart, without loading the games
    again = await GameService.open(db_path, clock=clock, settings=Settings(db_path=db_path))
    try:
        assert [g for g, _ in again.play.game_choices(BOB.id)] == [second.game_id]
    finally:
        await again.close()


async def test_a_log_that_no_longer_replays(service: GameService, db_path: str) -> None:
    gid = await ttt(service)
    await service.play.move(gid, ALICE, "a1")
    query(db_path, "UPDATE moves SET move = 'q9' WHERE game_id = ?", (gid,))
    service.ctx.games.forget(gid)
    with pytest.raises(Refusal) as exc:
        await service.play.board(gid, ALICE)
    assert exc.value.key == "refuse.broken_game"
