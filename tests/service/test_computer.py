"""The computer player through the service: legal moves only, only what its seat may see, its
deadline, restarts, stale answers dropped, takebacks, hints and every refusal.

Searches run in an inline thinker with a stepping clock: deterministic, and no real time."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import pytest

from bot.clock import FakeClock
from bot.config import Settings
from bot.model import SeatKind
from bot.service import GameService, InlineThinker, Refusal, StepClock, User
from bot.service.thinking import HintChoice, ThinkRequest
from engines.core import SIMULTANEOUS
from tests.helpers import ALICE, BOB, CAROL, snapshot

SECONDS = 0.05
"""The AI's time per move in these tests (on the stepping clock: a few reads, each every 64
nodes: a level-8 search of a few hundred nodes)."""
STEP = 0.005


class SpyThinker(InlineThinker):
    """An inline thinker that checks, at every request, that the AI was shown exactly what its
    seat may see of the game as the service holds it."""

    def __init__(self, clock: StepClock) -> None:
        super().__init__(clock)
        self.service: GameService | None = None
        self.masked = 0
        """Requests whose view hid something of the full state (数字将棋's setups)."""

    def check(self, request: ThinkRequest) -> None:
        assert self.service is not None
        loaded = self.service.ctx.games.cached(request.game_id)
        assert loaded is not None
        full = loaded.state
        assert request.view == full.observe(request.seat)
        self.masked += request.view != full

    async def choose(self, request: ThinkRequest) -> str:
        self.check(request)
        return await super().choose(request)

    async def hint(self, request: ThinkRequest, samples: int) -> tuple[HintChoice, ...]:
        self.check(request)
        return await super().hint(request, samples)


async def _open(db_path: str, clock: FakeClock, thinker: InlineThinker) -> GameService:
    service = await GameService.open(
        db_path,
        clock=clock,
        settings=Settings(db_path=db_path, ai_seconds=SECONDS),
        render_images=False,
        thinker=thinker,
    )
    if isinstance(thinker, SpyThinker):
        thinker.service = service
    return service


@pytest.fixture
def step() -> StepClock:
    return StepClock(STEP)


@pytest.fixture
def spy(step: StepClock) -> SpyThinker:
    return SpyThinker(step)


@pytest.fixture
async def ai(db_path: str, clock: FakeClock, spy: SpyThinker) -> AsyncIterator[GameService]:
    service = await _open(db_path, clock, spy)
    try:
        yield service
    finally:
        await service.close()


async def _human_turn(service: GameService, gid: int, user: User, rng: random.Random) -> None:
    """``user`` plays a random legal move (or secret setup) wherever they are due."""
    loaded = service.ctx.games.cached(gid) or await service.ctx.games.read(gid)
    state = loaded.state
    seats = [s for s in loaded.seats_of(user.id) if s in loaded.acting_seats()]
    if not seats:
        return
    move = state.format_move(rng.choice(state.legal_moves(seats[0])))
    if state.current_player() == SIMULTANEOUS:
        await service.play.setup(gid, user, move)
    else:
        await service.play.move(gid, user, move)


@pytest.mark.parametrize(
    ("game", "levels"),
    [
        ("rokumentai", [1]),
        ("rokumentai", [8]),
        ("suji-shogi", [3]),
        ("sangokushi", [2, 6]),
        ("sangokushi-2p", [5]),
        ("socrates-twothree", [8]),
        ("socrates-kokutan", [4]),
        ("socrates-shinken", [7]),
        ("socrates-uchu", [2]),
    ],
)
async def test_the_ai_plays_legal_moves_seeing_only_its_seat(
    ai: GameService, spy: SpyThinker, game: str, levels: list[int]
) -> None:
    rng = random.Random(game)
    reply = await ai.play.create_game(ALICE, game, ai=levels, seed="fixed")
    assert reply.key == "game.started"
    gid = reply.game_id
    assert gid is not None
    info = await ai.play.game_info(gid)
    assert info.ai_levels == tuple(levels)
    assert not info.rated  # a game with the computer is never rated
    assert [s.kind for s in info.seats] == [SeatKind.HUMAN] + [SeatKind.HOST] * len(levels)
    names = {f"Banmen AI Lv.{lv}" for lv in levels}
    assert all(n in reply.text() for n in names)
    played = 0
    if game == "suji-shogi":  # alice's arrangement first: the AI must choose without it
        await _human_turn(ai, gid, ALICE, rng)
    for _ in range(15):
        for answer in await ai.play.settle_ai():
            assert answer.public and answer.game_id == gid
            assert answer.event in ("moved", "setup_waiting", "revealed")
            assert ALICE.id not in answer.notify or answer.to_move == (ALICE.id,)
            played += answer.event == "moved"
        if (await ai.play.game_info(gid)).status != "active":
            break
        await _human_turn(ai, gid, ALICE, rng)
    assert played > 0
    # Every AI move went through the move use case: it is in the log as the host's, and the
    # whole log replays through the engine.
    entries = await ai.play.entries(gid)
    ai_seats = {s.seat for s in info.seats if s.is_ai}
    assert {e.user_id for e in entries if e.actor in ai_seats} == {"host"}
    (await ai.play.export_record(gid)).replay()
    if game == "suji-shogi":
        assert spy.masked >= 1  # the AI's setup was chosen without seeing alice's


async def test_an_ai_game_plays_to_the_end_and_says_it_was_against_the_computer(
    ai: GameService, db_path: str
) -> None:
    reply = await ai.play.create_game(ALICE, "socrates-twothree", ai=[1, 8], creator_plays=False)
    gid = reply.game_id
    assert gid is not None
    replies = await ai.play.settle_ai()
    info = await ai.play.game_info(gid)
    assert info.status == "finished"
    last = replies[-1]
    keys = [line.key for line in last.lines]
    assert "game.result" in keys and keys[-1] == "game.vs_ai"  # (the winner's name between)
    assert "level 1, 8" in last.text("en") and "レベル1, 8" in last.text("ja")
    # the computer has no statistics, and nobody is pinged
    assert all(not r.notify for r in replies)
    assert "user_stats" in snapshot(db_path) and not snapshot(db_path)["user_stats"]


async def test_the_ai_moves_after_a_restart(
    db_path: str, clock: FakeClock, step: StepClock
) -> None:
    first = await _open(db_path, clock, InlineThinker(step))
    rok = (await first.play.create_game(ALICE, "rokumentai", ai=[2])).game_id
    suji = (await first.play.create_game(BOB, "suji-shogi", ai=[5])).game_id
    assert rok is not None and suji is not None
    await first.play.move(rok, ALICE, "一01占")
    # the host stops before the AI answered either game
    await first.close()
    assert len([r for r in snapshot(db_path)["moves"] if r[0] == suji]) == 0

    second = await _open(db_path, clock, InlineThinker(step))
    try:
        assert second.play.ai_changed.is_set()
        replies = await second.play.settle_ai()
        assert [(r.game_id, r.key) for r in replies] == [
            (rok, "move.played"),
            (suji, "setup.waiting"),
        ]
        assert replies[0].notify == (ALICE.id,)
        assert replies[1].notify == (BOB.id,)
        assert len(await second.play.entries(rok)) == 2
        assert await second.play.settle_ai() == []  # nothing more is due: it is the humans' turn
    finally:
        await second.close()


async def test_an_ai_move_is_an_outbox_announcement(ai: GameService, clock: FakeClock) -> None:
    gid = (await ai.play.create_game(ALICE, "rokumentai", ai=[2])).game_id
    assert gid is not None
    await ai.play.move(gid, ALICE, "一01占")
    [answer] = await ai.play.settle_ai()
    assert answer.outbox is not None  # committed with the move, claimed by the driver
    # A driver that dies before posting it: the outbox hands it out again once the claim ends.
    clock.advance(minutes=3)
    again = await ai.pending_announcements()
    assert answer.outbox in [r.outbox for r in again]
    await ai.announced(answer.outbox)
    clock.advance(minutes=3)
    assert answer.outbox not in [r.outbox for r in await ai.pending_announcements()]


async def test_the_ai_respects_its_deadline(
    db_path: str, clock: FakeClock, step: StepClock
) -> None:
    service = await _open(db_path, clock, InlineThinker(step))
    try:
        reply = await service.play.create_game(ALICE, "rokumentai", ai=[8])
        gid = reply.game_id
        assert gid is not None
        await service.play.move(gid, ALICE, "一01占")
        began = step.now
        assert [r.key for r in await service.play.settle_ai()] == ["move.played"]
        # The search read the clock past its deadline at most once (it reads it every 64 nodes).
        assert began < step.now <= began + SECONDS + 2 * step.step
    finally:
        await service.close()


class GateThinker(InlineThinker):
    """Thinks only when let (to act while the AI is thinking)."""

    def __init__(self, clock: StepClock) -> None:
        super().__init__(clock)
        self.thinking = asyncio.Event()
        self.go = asyncio.Event()

    async def choose(self, request: ThinkRequest) -> str:
        self.thinking.set()
        await self.go.wait()
        return await super().choose(request)


async def test_others_play_while_the_ai_thinks_and_a_stale_answer_is_dropped(
    db_path: str, clock: FakeClock, step: StepClock
) -> None:
    gate = GateThinker(step)
    service = await _open(db_path, clock, gate)
    try:
        gid = (await service.play.create_game(ALICE, "rokumentai", ai=[3])).game_id
        other = (await service.play.create_game(BOB, "rokumentai", seated=[CAROL])).game_id
        assert gid is not None and other is not None
        await service.play.move(gid, ALICE, "一01占")
        [due] = service.play.due_ai_games()
        turn = asyncio.ensure_future(service.play.play_ai(due))
        await gate.thinking.wait()
        # While the AI thinks: other games go on, and this game answers its human at once.
        assert (await service.play.move(other, BOB, "一01占")).key == "move.played"
        assert (await service.play.board(gid, ALICE)).game_id == gid
        assert (await service.play.resign(gid, ALICE)).key == "game.resigned"
        gate.go.set()
        assert await turn == []  # the answer came too late: dropped, nothing written
        assert len(await service.play.entries(gid)) == 1
    finally:
        await service.close()


class Broken(InlineThinker):
    async def choose(self, request: ThinkRequest) -> str:
        raise ValueError("a bug in the search")


async def test_a_failing_search_is_logged_and_changes_nothing(
    db_path: str, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    service = await _open(db_path, clock, Broken())
    try:
        gid = (await service.play.create_game(ALICE, "rokumentai", ai=[3])).game_id
        assert gid is not None
        await service.play.move(gid, ALICE, "一01占")
        before = snapshot(db_path)
        assert await service.play.settle_ai() == []
        assert snapshot(db_path) == before
        assert f"the AI could not think in game {gid}" in caplog.text
    finally:
        await service.close()


async def test_a_takeback_against_the_computer_needs_no_consent(ai: GameService) -> None:
    gid = (await ai.play.create_game(ALICE, "rokumentai", ai=[2])).game_id
    assert gid is not None
    await ai.play.move(gid, ALICE, "一01占")
    assert [r.key for r in await ai.play.settle_ai()] == ["move.played"]
    done = await ai.play.request_takeback(gid, ALICE)
    assert done.key == "takeback.done"
    assert await ai.play.entries(gid) == []
    assert await ai.play.settle_ai() == []  # alice's turn again: the AI waits


async def test_a_draw_offered_to_the_computer_is_refused_at_once(
    ai: GameService, db_path: str
) -> None:
    gid = (await ai.play.create_game(ALICE, "rokumentai", ai=[2])).game_id
    assert gid is not None
    before = snapshot(db_path)
    with pytest.raises(Refusal) as refused:
        await ai.play.offer_draw(gid, ALICE)
    assert refused.value.key == "refuse.computer_plays_on"
    assert snapshot(db_path) == before  # nothing stored, nothing announced


async def test_the_computer_is_never_reminded(ai: GameService, clock: FakeClock) -> None:
    gid = (await ai.play.create_game(ALICE, "rokumentai", ai=[2], clock="corr:2")).game_id
    assert gid is not None
    deadline = (await ai.play.move(gid, ALICE, "一01占")).deadline
    assert deadline is not None
    clock.set(deadline - timedelta(minutes=30))  # the computer is slow: both points passed
    assert await ai.process_due() == []
    assert ai.next_timer_at() == deadline + timedelta(milliseconds=1)
    assert [r.key for r in await ai.play.settle_ai()] == ["move.played"]


async def test_a_three_player_lobby_with_a_computer_seat(ai: GameService) -> None:
    lobby = await ai.play.create_game(ALICE, "sangokushi", ai=[4], open_seats=1)
    gid = lobby.game_id
    assert lobby.key == "game.created" and gid is not None
    assert await ai.play.settle_ai() == []  # not started: nothing to play
    started = await ai.play.join(gid, BOB)
    assert started.key == "game.started"
    assert "Banmen AI Lv.4" in started.text()
    assert [s.kind for s in (await ai.play.game_info(gid)).seats] == ["human", "host", "human"]


async def test_hint_shows_each_choice_with_its_win_chance(ai: GameService, db_path: str) -> None:
    gid = (await ai.play.create_game(ALICE, "yosuko", seed="hint")).game_id
    assert gid is not None
    before = snapshot(db_path)
    hint = await ai.play.hint(gid, ALICE)
    assert snapshot(db_path) == before  # a hint changes nothing
    assert (hint.key, hint.event, hint.public, hint.audience) == (
        "hint.show",
        "hint",
        False,
        ALICE.id,
    )
    state = ai.play.current_state(gid, 0)
    assert state is not None
    assert len(hint.lines) == len(state.legal_moves())
    chances = [line.params["chance"] for line in hint.lines]
    assert chances == sorted(chances, reverse=True) and all(0 <= c <= 100 for c in chances)
    assert "%" in hint.text("en") and "実際の山札" in hint.text("ja")


@pytest.mark.parametrize(
    ("how", "key"),
    [
        ({"game_type": "rokumentai", "ai": [3], "rated": True}, "refuse.cannot_rate"),
        ({"game_type": "rokumentai", "ai": [0]}, "refuse.bad_level"),
        ({"game_type": "rokumentai", "ai": [9]}, "refuse.bad_level"),
        ({"game_type": "yosuko", "ai": [3]}, "refuse.no_ai_solo"),
        ({"game_type": "rokumentai", "ai": [3], "invite": [BOB]}, "refuse.bad_option"),
        ({"game_type": "sangokushi", "ai": [3, 3, 3]}, "refuse.bad_option"),
        (
            {"game_type": "rokumentai", "ai": [3], "players": 2, "invite": [BOB]},
            "refuse.too_many_players",
        ),
    ],
)
async def test_computer_seats_refused(
    ai: GameService, db_path: str, how: dict[str, Any], key: str
) -> None:
    before = snapshot(db_path)
    with pytest.raises(Refusal) as exc:
        await ai.play.create_game(ALICE, **how)
    assert exc.value.key == key
    assert exc.value.text("en") and exc.value.text("ja")
    assert snapshot(db_path) == before


async def test_hint_refusals(ai: GameService) -> None:
    rok = (await ai.play.create_game(ALICE, "rokumentai", seated=[BOB])).game_id
    solo = (await ai.play.create_game(ALICE, "yosuko")).game_id
    assert rok is not None and solo is not None
    for gid, who, key in (
        (rok, ALICE, "refuse.no_hint"),
        (solo, BOB, "refuse.not_a_player"),
        (999, ALICE, "refuse.unknown_game"),
    ):
        with pytest.raises(Refusal) as exc:
            await ai.play.hint(gid, who)
        assert exc.value.key == key


async def test_computer_moves_that_follow_each_other_fold_into_one_reply(
    ai: GameService, clock: FakeClock
) -> None:
    # alice and two computer seats at a 三国志 table: each of her moves is answered by one
    # reply listing both computer moves, whose announcements it carries.
    rng = random.Random(3)
    reply = await ai.play.create_game(ALICE, "sangokushi", ai=[1, 2], seed="fold")
    gid = reply.game_id
    assert gid is not None
    folded = 0
    carried: list[str] = []
    for _ in range(4):
        answers = await ai.play.settle_ai()
        if (await ai.play.game_info(gid)).status != "active":
            break
        if not answers:  # alice opens the game
            await _human_turn(ai, gid, ALICE, rng)
            continue
        [answer] = answers  # one reply, however many computer moves came before her turn
        folded += len(answer.absorbs)
        if len(answer.absorbs) == 1:
            assert answer.key == "ai.folded"
            assert [line.key for line in answer.lines].count("move.listed") == 2
            assert answer.text("en").count("#") == 1  # the game's number once, at the top
            assert "The computer's 2 moves" in answer.text("en")
            assert "Banmen AI Lv.1" in answer.text("en") and "Banmen AI Lv.2" in answer.text()
        assert answer.to_move == (ALICE.id,) and answer.notify == (ALICE.id,)
        carried += answer.announcements
        await ai.announced(*answer.announcements)
        await _human_turn(ai, gid, ALICE, rng)
    assert folded >= 2
    # every computer move was reported with the card that carried it: none is left to post
    clock.advance(minutes=15)
    assert not {r.outbox for r in await ai.pending_announcements()} & set(carried)


async def test_a_held_computer_move_is_posted_alone_when_the_chain_breaks(
    ai: GameService, clock: FakeClock, spy: SpyThinker
) -> None:
    rng = random.Random(4)
    gid = (await ai.play.create_game(ALICE, "sangokushi", ai=[1, 2], creator_plays=True)).game_id
    assert gid is not None
    info = await ai.play.game_info(gid)
    if info.seats[0].is_ai:  # the computer opens: let it reach alice first
        await ai.play.settle_ai()
    await _human_turn(ai, gid, ALICE, rng)
    # the first computer seat moves and its move is held; then the second one's search fails
    first = ai.play.due_ai_games()
    assert first == [gid]
    assert await ai.play.play_ai(gid) == []  # held for the next computer move
    original = spy.choose

    async def failing(request: ThinkRequest) -> str:
        raise RuntimeError("no search today")

    spy.choose = failing  # type: ignore[method-assign]
    try:
        [alone] = await ai.play.play_ai(gid)
    finally:
        spy.choose = original  # type: ignore[method-assign]
    assert alone.key == "move.played" and not alone.absorbs  # given back as it was
    assert alone.outbox is not None


async def test_a_held_computer_move_survives_a_crash(
    db_path: str, clock: FakeClock, step: StepClock
) -> None:
    # The host dies while the first computer move waits for the second: the outbox posts the
    # first by itself after the restart, and the second is played and announced: none lost.
    first = await _open(db_path, clock, InlineThinker(step))
    gid = (await first.play.create_game(ALICE, "sangokushi", ai=[1, 2], seed="crash")).game_id
    assert gid is not None
    await first.play.settle_ai()
    await _human_turn(first, gid, ALICE, random.Random(5))
    assert first.play.due_ai_games() == [gid]
    clock.advance(minutes=5)
    before = {r.outbox for r in await first.pending_announcements()}
    assert await first.play.play_ai(gid) == []  # held
    await first.close()  # (no post, no report)

    second = await _open(db_path, clock, InlineThinker(step))
    try:
        pending = await second.pending_announcements()
        held = [r for r in pending if r.outbox not in before]
        assert [r.key for r in held] == ["move.played"]  # to be posted by the delivery loop
        assert "Banmen AI" in held[0].text()
        [answer] = await second.play.settle_ai()
        assert answer.key == "move.played" and not answer.absorbs
        assert answer.outbox != held[0].outbox
        assert answer.to_move == (ALICE.id,)
    finally:
        await second.close()
