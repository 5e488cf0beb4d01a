"""Ratings (docs/ratings.md): openskill Plackett-Luce per (user, game), written with the end of
the game in one transaction, unrated cases, the rebuild, profiles and leaderboards."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from openskill.models import PlackettLuce

from bot.clock import FakeClock
from bot.model import Change, EndedGame, GameStatus, RatedGame, RatingRow, SeatKind, SeatRow, Update
from bot.service import GameService, Refusal, Scope, User
from bot.service import ratings as rt
from bot.store import RatingConflict
from engines.core import Outcome, Termination, Text
from tests.helpers import ALICE, BOB, CAROL, DAVE, beat, play_all, query, stored_row, ttt

MODEL = PlackettLuce()
NO_TEXT = Text("", "")


def rating_tables(db_path: str) -> dict[str, list[tuple[Any, ...]]]:
    return {
        "ratings": query(db_path, "SELECT * FROM ratings ORDER BY user_id, game_type"),
        "history": query(db_path, "SELECT * FROM rating_history ORDER BY seq, user_id"),
        "members": query(db_path, "SELECT * FROM rating_members ORDER BY 1, 2, 3"),
    }


def stored(db_path: str, user: User, game: str = "ttt-test") -> tuple[float, float, int]:
    rows = query(
        db_path,
        "SELECT mu, sigma, games FROM ratings WHERE user_id = ? AND game_type = ?",
        (user.id, game),
    )
    assert rows, f"{user.name} has no rating"
    return float(rows[0][0]), float(rows[0][1]), int(rows[0][2])


def history(db_path: str, game_id: int) -> list[tuple[str, int, str]]:
    return [
        (str(r[0]), int(r[1]), str(r[2]))
        for r in query(
            db_path,
            "SELECT user_id, place, result FROM rating_history WHERE game_id = ? ORDER BY user_id",
            (game_id,),
        )
    ]


async def race3(service: GameService, **kw: Any) -> int:
    reply = await service.play.create_game(ALICE, "race-test", seated=[BOB, CAROL], **kw)
    assert reply.game_id is not None
    return reply.game_id


# --- two players ------------------------------------------------------------------------------


async def test_two_player_win_is_rated_with_the_end(service: GameService, db_path: str) -> None:
    gid = await ttt(service)
    await play_all(service, gid, "a1 b1 a2 b2")
    last = await service.play.move(gid, ALICE, "a3")
    [[win], [loss]] = MODEL.rate([[MODEL.rating()], [MODEL.rating()]], ranks=[1, 2])
    assert stored(db_path, ALICE) == (win.mu, win.sigma, 1)
    assert stored(db_path, BOB) == (loss.mu, loss.sigma, 1)
    assert history(db_path, gid) == [(ALICE.id, 1, "win"), (BOB.id, 2, "loss")]
    # The end message says it, provisional ("?") after the number, in both languages.
    up = rt.shown(win.mu, win.sigma)
    down = rt.shown(loss.mu, loss.sigma)
    assert f"Rating: alice 1000? → {up}? (+{up - 1000})" in last.text("en")
    assert f"レーティング: bob 1000? → {down}?（−{1000 - down}）" in last.text("ja")
    # the announcement kept in the outbox (posted again after a crash) says it too
    [(body,)] = query(
        db_path, "SELECT body FROM outbox WHERE game_id = ? ORDER BY version DESC LIMIT 1", (gid,)
    )
    assert "rating.change" in body and f"{up}?" in body


async def test_two_player_draw_ties(service: GameService, db_path: str) -> None:
    gid = await ttt(service)
    await service.play.offer_draw(gid, ALICE)
    agreed = await service.play.accept_draw(gid, BOB)
    [[a], [b]] = MODEL.rate([[MODEL.rating()], [MODEL.rating()]], ranks=[1, 1])
    assert (
        stored(db_path, ALICE)
        == stored(db_path, BOB)
        == (a.mu, a.sigma, 1)
        == (
            b.mu,
            b.sigma,
            1,
        )
    )
    assert history(db_path, gid) == [(ALICE.id, 1, "draw"), (BOB.id, 1, "draw")]
    assert [line.key for line in agreed.lines] == ["rating.change", "rating.change"]


async def test_second_game_starts_from_the_first(service: GameService, db_path: str) -> None:
    await beat(service, ALICE, BOB)
    await beat(service, BOB, ALICE)
    [[a1], [b1]] = MODEL.rate([[MODEL.rating()], [MODEL.rating()]], ranks=[1, 2])
    [[b2], [a2]] = MODEL.rate([[b1], [a1]], ranks=[1, 2])
    assert stored(db_path, ALICE) == (a2.mu, a2.sigma, 2)
    assert stored(db_path, BOB) == (b2.mu, b2.sigma, 2)


# --- three players ----------------------------------------------------------------------------


def _seats(n: int) -> tuple[SeatRow, ...]:
    return tuple(SeatRow(i, SeatKind.HUMAN, f"u{i}") for i in range(n))


@pytest.mark.parametrize(
    "ranks", [(1, 2, 3), (3, 2, 1), (2, 1, 3), (1, 1, 3), (1, 2, 2), (3, 1, 1), (1, 1, 1)]
)
def test_three_player_rank_orders(ranks: tuple[int, int, int]) -> None:
    winners = frozenset(i for i, r in enumerate(ranks) if r == 1 and len(set(ranks)) > 1)
    outcome = Outcome(Termination.RULE, winners, ranks, NO_TEXT)
    game = EndedGame(7, "race-test", "g", 1000, True, None, _seats(3))
    old = RatingRow("u1", "race-test", 30.0, 5.0, 15.0, 12, 6, 5, 1)
    rated = rt.rate(game, outcome, {"u1": old})
    expected = MODEL.rate(
        [[MODEL.rating()], [MODEL.rating(30.0, 5.0)], [MODEL.rating()]],
        ranks=[float(r) for r in ranks],
    )
    assert [(c.mu_after, c.sigma_after) for c in rated.changes] == [
        (team[0].mu, team[0].sigma) for team in expected
    ]
    assert [c.place for c in rated.changes] == list(ranks)
    assert [c.games_before for c in rated.changes] == [0, 12, 0]
    assert [r.games for r in rated.after] == [1, 13, 1]
    results = [c.result.value for c in rated.changes]
    if len(set(ranks)) == 1:
        assert results == ["draw"] * 3
    else:
        assert results == ["win" if r == 1 else "loss" for r in ranks]
    # better places never lose more than worse ones from equal ratings
    fresh = [c for c in rated.changes if c.games_before == 0]
    if fresh[0].place < fresh[1].place:
        assert fresh[0].mu_after > fresh[1].mu_after


async def test_three_player_game_by_its_rules(service: GameService, db_path: str) -> None:
    gid = await race3(service, seed="rated")
    while (info := await service.play.game_info(gid)).status == "active":
        loaded = service.play.current_state(gid)
        assert loaded is not None
        seat = loaded.current_player()
        player = (ALICE, BOB, CAROL)[seat]
        await service.play.move(gid, player, "go")
    assert info.result is not None
    places = dict(zip((ALICE.id, BOB.id, CAROL.id), info.result.ranks, strict=True))
    assert {(u, p) for u, p, _ in history(db_path, gid)} == set(places.items())


async def test_resign_and_timeout_rankings(
    service: GameService, db_path: str, clock: FakeClock
) -> None:
    resigned = await race3(service)
    await service.play.resign(resigned, BOB)
    # the leaver is last, the two others share first
    assert history(db_path, resigned) == [
        (ALICE.id, 1, "win"),
        (BOB.id, 3, "loss"),
        (CAROL.id, 1, "win"),
    ]
    timed = await ttt(service, CAROL, DAVE, clock="live:5")
    clock.advance(minutes=6)
    replies = await service.process_due()
    assert [r.key for r in replies] == ["game.timeout"]
    assert [line.key for line in replies[0].lines] == ["rating.change", "rating.change"]
    assert history(db_path, timed) == [(CAROL.id, 2, "loss"), (DAVE.id, 1, "win")]


# --- unrated --------------------------------------------------------------------------------


async def test_unrated_games(service: GameService, db_path: str) -> None:
    casual = await ttt(service, rated=False)
    await service.play.resign(casual, BOB)
    host = await service.play.create_game(ALICE, "ttt-test", host_seats=1)
    assert host.game_id is not None
    await service.play.resign(host.game_id, ALICE)
    aborted = await ttt(service)
    await service.play.abort(aborted, DAVE)
    solo = await service.play.create_game(ALICE, "race-test", players=1)
    assert solo.game_id is not None
    await service.play.resign(solo.game_id, ALICE)
    finished = await ttt(service, rated=False)
    await play_all(service, finished, "a1 b1 a2 b2 a3")
    record = await service.play.record(finished, None)
    data = next(f.data for f in record.files if f.name.endswith(".json")).decode()
    imported = await service.play.import_record(CAROL, data, seats=[ALICE, BOB])
    assert (await service.play.game_info(imported.game_id or 0)).status == "finished"
    assert rating_tables(db_path) == {"ratings": [], "history": [], "members": []}
    # statistics still count the finished ones
    assert (await service.play.stats(ALICE)).key == "stats.show"
    # a seat the host plays (today's host seat, tomorrow's computer player) cannot be rated
    with pytest.raises(Refusal) as exc:
        await service.play.create_game(ALICE, "ttt-test", host_seats=1, rated=True)
    assert exc.value.key == "refuse.cannot_rate"
    with pytest.raises(Refusal) as exc:
        await service.play.create_game(ALICE, "race-test", players=1, rated=True)
    assert exc.value.key == "refuse.cannot_rate"
    assert "rated" in exc.value.text("en") and "レーティング" in exc.value.text("ja")


def test_any_non_human_seat_is_unrated() -> None:
    outcome = Outcome.win(0, 2, Termination.RULE, NO_TEXT)
    human = SeatRow(0, SeatKind.HUMAN, "a")
    assert rt.ratable(True, (human, SeatRow(1, SeatKind.HUMAN, "b")), outcome)
    assert not rt.ratable(False, (human, SeatRow(1, SeatKind.HUMAN, "b")), outcome)
    for kind in SeatKind:
        if kind is not SeatKind.HUMAN:
            assert not rt.ratable(True, (human, SeatRow(1, kind, "b")), outcome)
    assert not rt.ratable(True, (human, SeatRow(1, SeatKind.HUMAN, "a")), outcome)  # same user
    aborted = Outcome(Termination.ABORTED, frozenset(), (1, 1), NO_TEXT)
    assert not rt.ratable(True, (human, SeatRow(1, SeatKind.HUMAN, "b")), aborted)


# --- one transaction, and the rebuild --------------------------------------------------------


async def test_a_stale_rating_writes_nothing(service: GameService, db_path: str) -> None:
    await beat(service, ALICE, BOB)
    gid = await ttt(service)
    loaded = await service.ctx.games.load(gid)
    outcome = Outcome.loss(1, 2, Termination.RESIGNATION, NO_TEXT)
    fresh = {}  # as if neither had a rating yet: computed from a rating that is not stored
    stale = rt.rate(
        EndedGame(gid, "ttt-test", None, 5, True, None, loaded.row.seats), outcome, fresh
    )
    before = rating_tables(db_path)
    update = Update(status=GameStatus.FINISHED, finished_ms=5)
    with pytest.raises(RatingConflict):
        await service.ctx.store.apply(Change(gid, loaded.row.version, update=update, rating=stale))
    assert rating_tables(db_path) == before
    assert (await stored_row(service.ctx.store, gid)) == loaded.row  # the end was not written


async def test_an_end_is_rated_again_when_a_rating_moved(
    service: GameService, db_path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two games of one player ending at once: the second computes from a rating the first has
    just changed; the store refuses it and the end is computed again, from the new rating."""
    await beat(service, ALICE, BOB)
    gid = await ttt(service, ALICE, CAROL)
    real = service.ctx.store.ratings
    calls = 0

    async def first_stale(game_type: str | None, users: Any) -> list[RatingRow]:
        nonlocal calls
        calls += 1
        return [] if calls == 1 else await real(game_type, users)

    monkeypatch.setattr(service.ctx.store, "ratings", first_stale)
    reply = await service.play.resign(gid, CAROL)
    assert calls == 2 and reply.key == "game.resigned"
    monkeypatch.undo()
    assert stored(db_path, ALICE)[2] == 2
    # and the numbers are the ones a rebuild gives
    before = rating_tables(db_path)
    assert (await service.compete.rebuild_ratings()).params["differ"] == 0
    assert rating_tables(db_path) == before


async def test_rebuild_gives_identical_numbers(
    service: GameService, db_path: str, clock: FakeClock
) -> None:
    players = (ALICE, BOB, CAROL, DAVE)
    for i in range(12):
        a, b = players[i % 4], players[(i + 1 + i // 4) % 4]
        if a == b:
            continue
        gid = await ttt(service, a, b, guild_id=f"g{i % 2}")
        if i % 3 == 0:
            await service.play.offer_draw(gid, a)
            await service.play.accept_draw(gid, b)
        else:
            await service.play.resign(gid, b if i % 2 else a)
        clock.advance(seconds=1)
    await service.play.resign(await race3(service), CAROL)
    await service.play.resign(await race3(service, rated=False), CAROL)
    before = rating_tables(db_path)
    assert len(before["ratings"]) == 7 and len(before["history"]) == 27
    assert {m[0] for m in before["members"]} == {"g0", "g1", ""}  # '' = no server
    reply = await service.compete.rebuild_ratings()
    assert reply.key == "ratings.rebuilt"
    assert reply.params == {"games": 13, "ratings": 7, "differ": 0}
    assert rating_tables(db_path) == before
    # a damaged rating is put right by the rebuild (and counted)
    query(
        db_path,
        "UPDATE ratings SET mu = mu + 1 WHERE user_id = ? AND game_type = 'race-test'",
        (ALICE.id,),
    )
    assert (await service.compete.rebuild_ratings()).params["differ"] == 1
    assert rating_tables(db_path) == before


def test_rebuild_command(fakes: None, db_path: str, capsys: pytest.CaptureFixture[str]) -> None:
    import bot.__main__ as cli
    from bot.config import Settings

    async def one_game() -> None:
        service = await GameService.open(db_path, settings=Settings(db_path=db_path))
        try:
            await beat(service, ALICE, BOB)
        finally:
            await service.close()

    asyncio.run(one_game())
    before = rating_tables(db_path)
    assert cli.main(["ratings", "rebuild", "--db", db_path]) == 0
    out = capsys.readouterr().out
    assert "from 1 rated games: 2 ratings, 0 differed" in out
    assert rating_tables(db_path) == before


# --- profiles and leaderboards ---------------------------------------------------------------


async def test_profile(service: GameService) -> None:
    assert (await service.compete.rating(ALICE)).key == "rating.none"
    none = await service.compete.rating(ALICE, "ttt-test")
    assert none.key == "rating.none_in" and "三目並べ" in none.text("ja")
    g1 = await beat(service, ALICE, BOB)
    g2 = await beat(service, CAROL, ALICE)
    reply = await service.compete.rating(ALICE, "ttt-test")
    assert reply.key == "rating.show"
    text = reply.text("en")
    assert "Noughts and crosses:" in text and "2 rated games (1 win, 1 loss, 0 draws)" in text
    assert text.index(f"#{g2}") < text.index(f"#{g1}")  # newest first
    assert f"#{g2} Noughts and crosses vs carol: lost" in text
    assert f"#{g1} Noughts and crosses vs bob: won, 1000? →" in text
    assert "? = provisional" in text
    ja = reply.text("ja")
    assert "勝ち" in ja and "暫定" in ja
    with pytest.raises(Refusal) as exc:
        await service.compete.rating(ALICE, "chess")
    assert exc.value.key == "refuse.unknown_game_type"


def people(n: int) -> list[User]:
    return [User(str(1000 + i), f"p{i:02d}") for i in range(n)]


async def round_robin(service: GameService, users: list[User], guild: str) -> None:
    """Everyone plays everyone once; the lower index wins (so the order is known)."""
    for i, a in enumerate(users):
        for b in users[i + 1 :]:
            await beat(service, a, b, guild_id=guild)


async def test_leaderboard_pages_scopes_and_provisional(service: GameService) -> None:
    established = people(12)  # 11 games each: past the provisional threshold
    await round_robin(service, established, "g1")
    newcomers = people(14)[12:]
    await beat(service, newcomers[0], newcomers[1], guild_id="g2")
    first = await service.compete.leaderboard("ttt-test", "g1", Scope.SERVER)
    assert first.key == "leaderboard.show" and first.page is not None
    assert (first.page.number, first.page.count, first.params["players"]) == (1, 2, 12)
    names = [line.params["name"] for line in first.lines]
    assert names == [u.name for u in established[:10]]
    assert [line.params["place"] for line in first.lines] == list(range(1, 11))
    assert "?" not in first.text("en")
    second = await service.compete.leaderboard("ttt-test", "g1", Scope.SERVER, 2)
    assert [line.params["name"] for line in second.lines] == ["p10", "p11"]
    assert [line.params["place"] for line in second.lines] == [11, 12]
    assert (
        await service.compete.leaderboard("ttt-test", "g1", Scope.SERVER, 99)
    ).page == second.page
    # g2 has only provisional players: nobody unless asked
    empty = await service.compete.leaderboard("ttt-test", "g2", Scope.SERVER)
    assert empty.key == "leaderboard.empty" and empty.page is None
    assert "10 rated games" in empty.text("en")
    both = await service.compete.leaderboard("ttt-test", "g2", Scope.SERVER, provisional=True)
    assert [line.params["name"] for line in both.lines] == ["p12", "p13"]
    assert all(line.params["rating"].endswith("?") for line in both.lines)
    everywhere = await service.compete.leaderboard(
        "ttt-test", None, Scope.GLOBAL, 2, provisional=True
    )
    assert everywhere.page is not None and everywhere.params["players"] == 14
    assert len(everywhere.lines) == 4
    assert (
        await service.compete.leaderboard("ttt-test", "g3", Scope.SERVER)
    ).key == "leaderboard.empty"
    assert "全サーバー" in everywhere.text("ja")
    # games without ratings are refused
    with pytest.raises(Refusal) as exc:
        await service.compete.leaderboard("chess", "g1")
    assert exc.value.key == "refuse.unknown_game_type"


async def test_solitaire_has_no_leaderboard(service: GameService, monkeypatch: Any) -> None:
    from engines import registry
    from tests.service import fakegame

    solo = type("Solo", (fakegame.Race,), {"id": "solo-test", "player_counts": (1,)})()
    monkeypatch.setattr(registry, "_games", lambda: {**fakegame.FAKE_GAMES, "solo-test": solo})
    for call in (
        service.compete.leaderboard("solo-test", None),
        service.compete.rating(ALICE, "solo-test"),
    ):
        with pytest.raises(Refusal) as exc:
            await call
        assert exc.value.key == "refuse.unrated_game"


def test_shown_number_is_a_scaled_conservative_ordinal() -> None:
    assert rt.shown(25.0, 25.0 / 3.0) == 1000
    assert rt.shown(30.0, 2.0) == round(24 * (30.0 - 6.0) + 1000)
    assert rt.rating_text(30.0, 2.0, 9) == "1576?" and rt.rating_text(30.0, 2.0, 10) == "1576"
    assert RatedGame((), ()) == RatedGame((), ())
