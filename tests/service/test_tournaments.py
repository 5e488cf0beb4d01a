"""Tournaments through the service: sign-up, rounds of real games, withdrawals, restarts."""

from __future__ import annotations

import asyncio
import itertools
from collections import Counter
from datetime import timedelta
from typing import Any

import pytest

from bot.clock import FakeClock
from bot.config import Settings
from bot.model import BoardRow, TournamentStatus
from bot.service import GameService, Kind, Refusal, Reply, TournamentOptions, User
from bot.service.values import Event

PLAYERS = [
    User(str(100 + i), name)
    for i, name in enumerate(["alice", "bob", "carol", "dave", "erin", "frank", "grace"])
]
ALICE = PLAYERS[0]


async def open_tournament(
    svc: GameService, fmt: str, game: str = "rokumentai", players: int = 4, **how: object
) -> int:
    reply = await svc.compete.create_tournament(
        ALICE,
        TournamentOptions(game, fmt, name="Cup", **how),  # type: ignore[arg-type]
        manager=True,
        guild_id="1",
        channel_id="2",
    )
    assert reply.event is Event.TOURNAMENT_SIGNUP
    tid = int(reply.params["tournament"])
    for user in PLAYERS[1:players]:
        await svc.compete.join_tournament(tid, user)
    return tid


async def boards(svc: GameService, tid: int) -> list[BoardRow]:
    return await svc.ctx.store.boards(tid)


async def play_round(svc: GameService, tid: int) -> list[Reply]:
    """End every running game of the tournament: the first seat's player resigns."""
    for b in await boards(svc, tid):
        if b.result is None and b.game_id is not None:
            row = await svc.play.game_info(b.game_id)
            loser = next(s for s in row.seats if s.user_id)
            await svc.play.resign(b.game_id, User(loser.user_id or "", loser.name or ""))
    return await svc.compete.settle_tournaments()


async def status(svc: GameService, tid: int) -> TournamentStatus:
    row = await svc.ctx.store.tournament(tid)
    assert row is not None
    return row.status


async def test_creating_needs_a_manager_and_writes_nothing_when_refused(real: GameService) -> None:
    how = TournamentOptions("rokumentai", "swiss")
    with pytest.raises(Refusal) as refused:
        await real.compete.create_tournament(ALICE, how, manager=False, guild_id="1")
    assert refused.value.key == "refuse.tournament_manager"
    for game, fmt, key in [
        ("rokumentai", "tables", "refuse.tournament_tables"),
        ("sangokushi", "swiss", "refuse.tournament_two"),
        ("rokumentai", "knockout", "refuse.tournament_format"),
        ("nonesuch", "swiss", "refuse.unknown_game_type"),
    ]:
        with pytest.raises(Refusal) as refused:
            await real.compete.create_tournament(
                ALICE, TournamentOptions(game, fmt), manager=True, guild_id="1"
            )
        assert refused.value.key == key
    with pytest.raises(Refusal) as refused:
        await real.compete.create_tournament(
            ALICE, TournamentOptions("rokumentai", "swiss", rounds=0), manager=True
        )
    assert refused.value.key == "refuse.tournament_rounds"
    assert await real.ctx.store.tournaments(list(TournamentStatus)) == []


async def test_a_round_robin_plays_every_pair_once_and_names_the_winner(real: GameService) -> None:
    tid = await open_tournament(real, "round-robin")
    started = await real.compete.start_tournament(tid, ALICE)
    assert started[0].key == "tournament.started"
    assert [r.key for r in started].count("tournament.round") == 1
    assert sum(r.key == "game.started" for r in started) == 2
    finals: list[Reply] = []
    for _ in range(3):
        finals = await play_round(real, tid)
    assert finals[-1].key == "tournament.ended"
    assert await status(real, tid) is TournamentStatus.FINISHED
    pairs = Counter(frozenset(b.players) for b in await boards(real, tid))
    ids = [u.id for u in PLAYERS[:4]]
    assert set(pairs) == {frozenset(p) for p in itertools.combinations(ids, 2)}
    assert set(pairs.values()) == {1}
    standings = await real.compete.tournament_standings(tid)
    assert standings.image is not None and standings.image.startswith(b"\x89PNG")
    assert len(standings.lines) == 4
    assert standings.params["winners"]
    # the crosstable in words (its alt text): every player in standing order, what each scored
    alt = standings.image_alt
    assert alt is not None and alt.en.startswith("Crosstable of ") and "クロス表" in alt.ja
    names = [str(line.params["name"]) for line in standings.lines]
    at = [
        alt.en.index(f"{line.params['rank']}. {name} ")
        for line, name in zip(standings.lines, names, strict=True)
    ]
    assert at == sorted(at) and len(alt.en) <= 1024


async def test_joining_a_started_or_full_event_is_refused(real: GameService) -> None:
    tid = await open_tournament(real, "swiss", players=2, max_players=3)
    with pytest.raises(Refusal) as refused:
        await real.compete.join_tournament(tid, PLAYERS[1])
    assert refused.value.key == "refuse.tournament_already"
    await real.compete.join_tournament(tid, PLAYERS[2])
    with pytest.raises(Refusal) as refused:
        await real.compete.join_tournament(tid, PLAYERS[3])
    assert refused.value.key == "refuse.tournament_full"
    await real.compete.leave_tournament(tid, PLAYERS[2])
    await real.compete.start_tournament(tid, ALICE)
    with pytest.raises(Refusal) as refused:
        await real.compete.join_tournament(tid, PLAYERS[3])
    assert refused.value.key == "refuse.tournament_closed"


async def test_only_a_manager_or_the_creator_starts_and_only_once(real: GameService) -> None:
    tid = await open_tournament(real, "swiss", rounds=2)
    with pytest.raises(Refusal) as refused:
        await real.compete.start_tournament(tid, PLAYERS[1])
    assert refused.value.key == "refuse.tournament_manager"
    results = await asyncio.gather(
        real.compete.start_tournament(tid, PLAYERS[2], manager=True),
        real.compete.start_tournament(tid, PLAYERS[3], manager=True),
        return_exceptions=True,
    )
    refusals = [r for r in results if isinstance(r, Refusal)]
    assert len(refusals) == 1 and refusals[0].key == "refuse.tournament_started"
    assert len(await boards(real, tid)) == 2  # round one paired once: two boards


async def test_two_services_starting_at_once_pair_round_one_once(
    clock: FakeClock, db_path: str
) -> None:
    one = await GameService.open(db_path, clock=clock, settings=Settings(db_path=db_path))
    two = await GameService.open(db_path, clock=clock, settings=Settings(db_path=db_path))
    try:
        tid = await open_tournament(one, "swiss", rounds=2)
        results = await asyncio.gather(
            one.compete.start_tournament(tid, ALICE),
            two.compete.start_tournament(tid, ALICE),
            return_exceptions=True,
        )
        assert sum(isinstance(r, Refusal) for r in results) == 1
        await one.compete.settle_tournaments()
        await two.compete.settle_tournaments()
        made = [b.game_id for b in await boards(one, tid)]
        assert len(made) == 2 and all(made) and len(set(made)) == 2
    finally:
        await one.close()
        await two.close()


async def test_a_withdrawal_forfeits_what_is_left_and_keeps_what_was_played(
    real: GameService,
) -> None:
    tid = await open_tournament(real, "round-robin")
    await real.compete.start_tournament(tid, ALICE)
    await play_round(real, tid)  # round one stands
    dave = PLAYERS[3]
    out = await real.compete.leave_tournament(tid, dave)
    assert isinstance(out, list) and any(r.key == "tournament.withdrawn" for r in out)
    all_boards = await boards(real, tid)
    first = [b for b in all_boards if b.round == 1]
    assert all(b.result is not None and not b.result.forfeit for b in first)
    second = [b for b in all_boards if b.round == 2 and dave.id in b.players]
    assert second and second[0].result is not None
    assert second[0].result.points[second[0].players.index(dave.id)] == 0
    await play_round(real, tid)
    third = [b for b in await boards(real, tid) if b.round == 3 and dave.id in b.players]
    assert third and third[0].result is not None and third[0].result.forfeit
    assert third[0].game_id is None
    with pytest.raises(Refusal):
        await real.compete.leave_tournament(tid, dave)


async def test_a_manager_removes_a_player_late(real: GameService) -> None:
    tid = await open_tournament(real, "swiss", rounds=3)
    await real.compete.start_tournament(tid, ALICE)
    with pytest.raises(Refusal) as refused:
        await real.compete.remove_from_tournament(tid, PLAYERS[1], PLAYERS[2], is_manager=False)
    assert refused.value.key == "refuse.tournament_manager"
    await real.compete.remove_from_tournament(tid, ALICE, PLAYERS[2], is_manager=True)
    await play_round(real, tid)  # carol's game was resigned for her; the other one ends
    second = [b for b in await boards(real, tid) if b.round == 2]
    assert second and all(PLAYERS[2].id not in b.players for b in second)


async def test_swiss_with_an_odd_field_gives_a_bye(real: GameService) -> None:
    tid = await open_tournament(real, "swiss", players=5, rounds=2)
    await real.compete.start_tournament(tid, ALICE)
    first = [b for b in await boards(real, tid) if b.round == 1]
    byes = [b for b in first if len(b.players) == 1]
    assert len(byes) == 1 and byes[0].result is not None and byes[0].result.points == (1.0,)
    await play_round(real, tid)
    second = [b for b in await boards(real, tid) if b.round == 2]
    assert next(b for b in second if len(b.players) == 1).players != byes[0].players


async def test_tables_of_three_with_two_player_tables(real: GameService) -> None:
    tid = await open_tournament(real, "tables", game="sangokushi", players=7, rounds=2)
    await real.compete.start_tournament(tid, ALICE)
    first = [b for b in await boards(real, tid) if b.round == 1]
    assert sorted(len(b.players) for b in first) == [2, 2, 3]
    assert {b.game_type for b in first} == {"sangokushi", "sangokushi-2p"}
    for b in first:
        assert b.game_id is not None
        assert (await real.play.game_info(b.game_id)).game_type == b.game_type
    await play_round(real, tid)
    out = await play_round(real, tid)
    assert out[-1].key == "tournament.ended"


async def test_a_restart_between_rounds_and_in_the_middle_of_one(
    clock: FakeClock, db_path: str
) -> None:
    svc = await GameService.open(db_path, clock=clock, settings=Settings(db_path=db_path))
    tid = await open_tournament(svc, "round-robin")
    await svc.compete.start_tournament(tid, ALICE)
    # the middle of round one: one game ends, then the process stops
    b = next(b for b in await boards(svc, tid) if b.game_id)
    assert b.game_id is not None
    await svc.play.resign(b.game_id, User(b.players[0], "x"))
    await svc.close()
    svc = await GameService.open(db_path, clock=clock, settings=Settings(db_path=db_path))
    await svc.compete.settle_tournaments()
    assert [x.result is not None for x in await boards(svc, tid)] == [True, False]
    await play_round(svc, tid)
    # between rounds: round two is paired but its games are not made yet (a crash there)
    await svc.close()
    store_only = await GameService.open(db_path, clock=clock, settings=Settings(db_path=db_path))
    row = await store_only.ctx.store.tournament(tid)
    assert row is not None and row.round == 2
    await store_only.close()
    svc = await GameService.open(db_path, clock=clock, settings=Settings(db_path=db_path))
    try:
        for _ in range(2):
            await play_round(svc, tid)
        assert await status(svc, tid) is TournamentStatus.FINISHED
        all_boards = await boards(svc, tid)
        assert len(all_boards) == 6 and len({b.game_id for b in all_boards}) == 6
    finally:
        await svc.close()


async def test_a_round_paired_before_a_crash_gets_its_games_after_it(
    clock: FakeClock, db_path: str
) -> None:
    svc = await GameService.open(db_path, clock=clock, settings=Settings(db_path=db_path))
    tid = await open_tournament(svc, "swiss", rounds=1)
    row = await svc.ctx.store.tournament(tid)
    assert row is not None
    entrants = await svc.ctx.store.entrants(tid)
    # the pairing is written, then the process dies before making any game
    assert await svc.compete.tournaments._pair(row, entrants, [], expected=0)
    await svc.close()
    svc = await GameService.open(db_path, clock=clock, settings=Settings(db_path=db_path))
    try:
        out = await svc.compete.settle_tournaments()
        assert sum(r.key == "game.started" for r in out) == 2
        assert any(r.key == "tournament.round" for r in out)
        assert all(b.game_id for b in await boards(svc, tid))
        assert await svc.compete.settle_tournaments() == []  # nothing twice
    finally:
        await svc.close()


async def _died_before_posting(svc: GameService, db_path: str, clock: FakeClock) -> GameService:
    """``svc``'s posts are claimed by the caller posting them, which dies before it posts any:
    the next process on the same file."""
    assert await svc.pending_announcements(Kind.TOURNAMENT) == []  # claimed: being posted
    await svc.close()
    return await GameService.open(db_path, clock=clock, settings=Settings(db_path=db_path))


async def test_the_sign_up_deadline_starts_it(real: GameService, clock: FakeClock) -> None:
    tid = await open_tournament(real, "swiss", rounds=1, signup_hours=2)
    assert await real.compete.settle_tournaments() == []
    clock.advance(hours=2)
    out = await real.compete.settle_tournaments()
    assert out[0].key == "tournament.started"
    assert await status(real, tid) is TournamentStatus.RUNNING


async def test_a_start_at_the_deadline_is_posted_after_a_crash_and_only_once(
    clock: FakeClock, db_path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nobody pressed Start, so nobody is told by a reply: the message that the sign-up ended
    is written with the first round, and a process that dies before posting it leaves it to
    the next one (before the round's message, as it was made first)."""
    svc = await GameService.open(db_path, clock=clock, settings=Settings(db_path=db_path))
    tid = await open_tournament(svc, "swiss", rounds=1, signup_hours=2)
    clock.advance(hours=2)
    out = await svc.compete.settle_tournaments()
    started = [r for r in out if r.key == "tournament.started"]
    assert [r.outbox for r in started] == [f"t{tid}.round0"]
    svc = await _died_before_posting(svc, db_path, clock)
    try:
        assert await svc.compete.settle_tournaments() == []  # not started again
        again = await svc.pending_announcements(Kind.TOURNAMENT)
        assert [(r.key, r.outbox) for r in again] == [
            ("tournament.started", f"t{tid}.round0"),
            ("tournament.round", f"t{tid}.round1"),
        ]
        assert again[0].params == started[0].params
        assert again[0].actions == ()  # no Join / Leave / Start on a started tournament
        store = svc.ctx.store
        storing = store.tournament_post_delivered
        seen: list[list[Reply]] = []

        async def meanwhile(*args: Any) -> None:  # a look while the delivery is stored
            seen.append(await svc.pending_announcements(Kind.TOURNAMENT))
            await storing(*args)

        monkeypatch.setattr(store, "tournament_post_delivered", meanwhile)
        for r in again:
            assert r.outbox is not None
            await svc.announced(r.outbox)
        assert seen == [[], []]  # still claimed until the store has it
        assert await svc.pending_announcements(Kind.TOURNAMENT) == []
    finally:
        await svc.close()


async def test_a_round_and_the_end_are_posted_after_a_crash_and_only_once(
    clock: FakeClock, db_path: str
) -> None:
    """The round's and the final message are kept with what causes them: a process that dies
    before posting them leaves them to the next one, which posts each once."""
    svc = await GameService.open(db_path, clock=clock, settings=Settings(db_path=db_path))
    tid = await open_tournament(svc, "swiss", rounds=1)
    started = await svc.compete.start_tournament(tid, ALICE)
    posted = [r for r in started if r.key == "tournament.round"]
    assert [r.outbox for r in posted] == [f"t{tid}.round1"]
    svc = await _died_before_posting(svc, db_path, clock)
    try:
        again = await svc.pending_announcements(Kind.TOURNAMENT)
        assert [(r.key, r.outbox) for r in again] == [("tournament.round", f"t{tid}.round1")]
        assert again[0].lines == posted[0].lines
        await svc.announced(f"t{tid}.round1")
        assert await svc.pending_announcements(Kind.TOURNAMENT) == []
        ended = await play_round(svc, tid)
        final = [r for r in ended if r.key == "tournament.ended"]
        assert [r.outbox for r in final] == [f"t{tid}.final"]
    finally:
        await svc.close()  # dies before posting the end
    svc = await GameService.open(db_path, clock=clock, settings=Settings(db_path=db_path))
    try:
        assert await svc.compete.settle_tournaments() == []  # the end is not made again...
        again = await svc.pending_announcements(Kind.TOURNAMENT)  # ...but its message is still due
        assert [r.key for r in again] == ["tournament.ended"]
        assert again[0].image is not None and again[0].image.startswith(b"\x89PNG")
        assert again[0].params["winners"] == final[0].params["winners"]
        await svc.announced(f"t{tid}.final")
        assert await svc.pending_announcements(Kind.TOURNAMENT) == []
    finally:
        await svc.close()


async def test_a_round_whose_games_were_made_before_a_crash_is_announced_after_it(
    clock: FakeClock, db_path: str
) -> None:
    svc = await GameService.open(db_path, clock=clock, settings=Settings(db_path=db_path))
    tid = await open_tournament(svc, "swiss", rounds=1)
    row = await svc.ctx.store.tournament(tid)
    assert row is not None
    assert await svc.compete.tournaments._pair(
        row, await svc.ctx.store.entrants(tid), [], expected=0
    )
    row = await svc.ctx.store.tournament(tid)
    assert row is not None
    made = await svc.compete.tournaments._play_round(row)  # every game made, then the process dies
    assert len(made) == 2
    await svc.close()
    svc = await GameService.open(db_path, clock=clock, settings=Settings(db_path=db_path))
    try:
        out = await svc.compete.settle_tournaments()
        assert [r.key for r in out] == ["tournament.round"]  # no game made twice
        assert {line.params["game_id"] for line in out[0].lines} == {m.game_id for m in made}
    finally:
        await svc.close()


async def test_a_post_whose_send_failed_is_handed_out_again_later(
    real: GameService, clock: FakeClock
) -> None:
    tid = await open_tournament(real, "swiss", rounds=1)
    started = await real.compete.start_tournament(tid, ALICE)
    key = next(r.outbox for r in started if r.key == "tournament.round")
    assert key is not None
    await real.announcement_failed(key)
    assert await real.pending_announcements(Kind.TOURNAMENT) == []  # not at once...
    clock.advance(seconds=6)
    assert [r.outbox for r in await real.pending_announcements(Kind.TOURNAMENT)] == [
        key
    ]  # ...but later


async def test_a_manager_calls_off_a_tournament_that_signs_up(real: GameService) -> None:
    tid = await open_tournament(real, "swiss", rounds=1)
    with pytest.raises(Refusal) as refused:
        await real.compete.cancel_tournament(tid, PLAYERS[1])
    assert refused.value.key == "refuse.tournament_manager"
    assert await status(real, tid) is TournamentStatus.SIGNUP
    called_off = await real.compete.cancel_tournament(tid, PLAYERS[2], manager=True)
    assert called_off.key == "tournament.called_off" and called_off.actions == ()
    assert called_off.outbox == f"t{tid}.cancelled"
    assert "carol" in called_off.text("en")
    assert await status(real, tid) is TournamentStatus.CANCELLED
    with pytest.raises(Refusal) as refused:
        await real.compete.join_tournament(tid, PLAYERS[5])
    assert refused.value.key == "refuse.tournament_closed"
    with pytest.raises(Refusal) as refused:
        await real.compete.cancel_tournament(tid, ALICE)
    assert refused.value.key == "refuse.tournament_over"

    running = await open_tournament(real, "swiss", rounds=1)
    await real.compete.start_tournament(running, ALICE)
    with pytest.raises(Refusal) as refused:
        await real.compete.cancel_tournament(running, ALICE, manager=True)
    assert refused.value.key == "refuse.tournament_cancel_running"
    assert await status(real, running) is TournamentStatus.RUNNING


async def test_the_sign_up_message_says_when_it_starts(real: GameService) -> None:
    timed = await real.compete.create_tournament(
        ALICE, TournamentOptions("rokumentai", "swiss", signup_hours=2), manager=True
    )
    until = real.clock.now() + timedelta(hours=2)
    assert [(line.key, line.params["until"]) for line in timed.lines] == [
        ("tournament.signup_until", until)
    ]
    assert str(until.year) in timed.text("en")
    by_hand = await real.compete.create_tournament(
        ALICE, TournamentOptions("rokumentai", "swiss"), manager=True
    )
    assert [line.key for line in by_hand.lines] == ["tournament.signup_open"]
    assert "/tournament start" in by_hand.text("ja")


def test_a_long_crosstable_in_words_is_shortened_by_rows_never_mid_word() -> None:
    from bot.model import NewTournament, TournamentRow, TournamentStatus
    from bot.service.compete.replies import crosstable_words
    from render.crosstable import CrossRow

    new = NewTournament("1", "Spring cup", "rokumentai", {}, "round-robin", "none", True, 3, 64, 0)
    t = TournamentRow(1, new, TournamentStatus.FINISHED, 3)
    rows = [
        CrossRow(i + 1, f"player-with-a-long-name-{i:02d}", "1½", {k: "½■" for k in range(40)})
        for i in range(40)
    ]
    said = crosstable_words(t, rows)
    for text in (said.en, said.ja):
        assert len(text) <= 1024 and text.endswith("…")
        assert "1. player-with-a-long-name-00 1½" in text  # the top stays
        kept = text.split("Spring cup", 1)[1]
        assert all(p.count("player-with-a-long-name-") == 1 for p in kept.split("; ")[:-1])
