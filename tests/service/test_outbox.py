"""The outbox: what a change announces is committed with it, handed out again until reported
delivered, retried with a growing wait when a post fails, and never handed out twice at once."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bot.clock import FakeClock
from bot.service import Action, Button, Event, GameService, Line, Refusal, Reply
from bot.service.cache import CLAIM_MS
from bot.service.outbox import MAX_RETRY_MS, RETRY_MS, retry_delay_ms
from engines.core import Text
from tests.helpers import ALICE, BOB, query
from tests.helpers import open_service as _open


async def _game(service: GameService, **kw: Any) -> int:
    """A running game whose first message was posted."""
    reply = await service.play.create_game(ALICE, "rokumentai", seated=[BOB], **kw)
    assert reply.game_id is not None and reply.outbox is not None
    await service.announced(reply.outbox)
    return reply.game_id


async def _move(service: GameService, gid: int) -> Reply:
    await service.play.moves(gid)  # loads the game (after a restart)
    state = service.play.current_state(gid)
    assert state is not None
    user = (ALICE, BOB)[state.current_player()]
    return await service.play.move(gid, user, state.format_move(state.legal_moves()[0]))


async def _after_a_crash(db_path: str, clock: FakeClock) -> tuple[int, Reply, GameService]:
    """A game, a move whose announcement its process never reported posted (it died), and
    the next process on the same file."""
    first = await _open(db_path, clock)
    gid = await _game(first)
    reply = await _move(first, gid)
    await first.close()  # never reported delivered
    return gid, reply, await _open(db_path, clock)


def _outbox(db_path: str, *, starts: bool = False) -> list[tuple[Any, ...]]:
    """The outbox (``starts``: with the first messages of games created running)."""
    rows = query(
        db_path,
        "SELECT game_id, version, n, ply, event, delivered_ms FROM outbox "
        "ORDER BY game_id, version, n",
    )
    return [r for r in rows if starts or r[1] > 0]


def test_a_reply_survives_the_trip_through_json() -> None:
    reply = Reply(
        "move.played",
        {
            "name": "alice",
            "move": Text("a1-b2", "一一-二二"),
            "ply": 7,
            "deadline": datetime(2026, 5, 1, 12, 30, tzinfo=UTC),
            "left": timedelta(minutes=5),
            "names": ["a", Text("x", "エックス")],
        },
        event=Event.MOVED,
        game_id=3,
        actions=(Button(Action.MOVE), Button(Action.PLAY, "3|a1", Text("A1", "一一"))),
        notify=("200",),
        to_move=("200",),
        deadline=datetime(2026, 5, 1, 12, 30, tzinfo=UTC),
        lines=(Line("move.announcement", {"text": Text("check", "王手")}),),
        picture=True,
    )
    back = Reply.from_json(reply.to_json(), outbox="3.4.0")
    assert back == Reply(**{**_fields(reply), "outbox": "3.4.0"})
    for lang in ("en", "ja"):
        assert back.text(lang) == reply.text(lang)


def test_an_announcement_kept_before_buttons_carried_labels_still_reads() -> None:
    old = (
        '{"actions": ["play:3|a1", "resign"], "audience": null, "deadline": null, '
        '"event": "moved", "game_id": 3, "image_viewer": null, '
        '"labels": {"play:3|a1": {"$text": ["A1", "一一"]}}, "lines": [], '
        '"key": "move.played", "notify": [], "params": {}, "picture": true, '
        '"public": true, "to_move": []}'
    )
    back = Reply.from_json(old)
    assert back.actions == (Button(Action.PLAY, "3|a1", Text("A1", "一一")), Button(Action.RESIGN))
    assert back.event is Event.MOVED and back.picture and back.page is None


def _fields(reply: Reply) -> dict[str, Any]:
    return {name: getattr(reply, name) for name in Reply.__dataclass_fields__}


async def test_a_move_and_its_announcement_are_one_commit(db_path: str) -> None:
    clock = FakeClock()
    service = await _open(db_path, clock)
    try:
        gid = await _game(service)
        reply = await _move(service, gid)
        assert reply.outbox is not None and reply.image is not None
        # the picture's words: the position after the move, naming it
        assert reply.image_alt is not None and "Last move: " in reply.image_alt.en
        assert "直前の手：" in reply.image_alt.ja
        rows = _outbox(db_path)
        assert [(r[0], r[3], r[4], r[5]) for r in rows] == [(gid, 1, "moved", None)]
        assert reply.outbox == f"{gid}.{rows[0][1]}.0"
        # an illegal move is refused and announces nothing
        with pytest.raises(Refusal):
            await service.play.move(gid, BOB, "zz99")
        assert len(_outbox(db_path)) == 1
        # this process is still delivering it: the loop does not take it meanwhile
        assert await service.pending_announcements() == []
        await service.announced(reply.outbox)
        assert _outbox(db_path)[0][5] is not None
    finally:
        await service.close()


async def test_after_a_crash_the_announcement_is_handed_out_again(db_path: str) -> None:
    """The process died after the commit, before the post: the next process hands the same
    announcement out (same text, same picture), once."""
    clock = FakeClock()
    gid, reply, second = await _after_a_crash(db_path, clock)
    try:
        await _move(second, gid)  # the game goes on meanwhile
        (again,) = await second.pending_announcements()
        assert again.outbox == reply.outbox
        assert again.text("en") == reply.text("en") and again.text("ja") == reply.text("ja")
        assert again.notify == reply.notify and again.actions == reply.actions
        assert again.image == reply.image  # the position announced, not the newer one
        assert again.image_alt == reply.image_alt  # its words are drawn again with it
        assert await second.pending_announcements() == []  # claimed by the caller now
        assert again.outbox is not None
        await second.announced(again.outbox)
        clock.advance(seconds=CLAIM_MS / 1000 + 1)
        pending = await second.pending_announcements()
        assert [p.outbox for p in pending] != [reply.outbox]
    finally:
        await second.close()


async def test_a_posted_announcement_is_not_handed_out_while_its_delivery_is_stored(
    db_path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Between "it is posted" and that being stored, another caller (the delivery loop, a
    second process's look) must not get it: it stays claimed until the store has it."""
    _, reply, service = await _after_a_crash(db_path, FakeClock())
    try:
        (again,) = await service.pending_announcements()
        assert again.outbox == reply.outbox is not None
        store = service.ctx.store
        storing = store.announcements_delivered
        seen: list[list[Reply]] = []

        async def meanwhile(*args: Any) -> None:
            seen.append(await service.pending_announcements())  # a look in between
            await storing(*args)

        monkeypatch.setattr(store, "announcements_delivered", meanwhile)
        await service.announced(again.outbox)
        assert seen == [[]]
        assert await service.pending_announcements() == []
    finally:
        await service.close()


async def test_a_failed_post_is_retried_later_and_later(db_path: str) -> None:
    clock = FakeClock()
    service = await _open(db_path, clock)
    try:
        gid = await _game(service)
        reply = await _move(service, gid)
        assert reply.outbox is not None
        await service.announcement_failed(reply.outbox)
        assert await service.pending_announcements() == []
        assert await service.next_announcement_at() == clock.now() + timedelta(
            milliseconds=RETRY_MS
        )
        clock.advance(seconds=RETRY_MS / 1000)
        (again,) = await service.pending_announcements()
        assert again.outbox is not None
        await service.announcement_failed(again.outbox)  # the second failure waits twice as long
        clock.advance(seconds=RETRY_MS / 1000)
        assert await service.pending_announcements() == []
        clock.advance(seconds=RETRY_MS / 1000)
        (third,) = await service.pending_announcements()
        await service.announced(third.outbox or "")
        assert await service.next_announcement_at() is None
    finally:
        await service.close()


def test_the_retry_wait_doubles_up_to_a_cap() -> None:
    assert [retry_delay_ms(n) for n in (1, 2, 3)] == [RETRY_MS, 2 * RETRY_MS, 4 * RETRY_MS]
    assert retry_delay_ms(100) == MAX_RETRY_MS


async def test_a_nobody_reported_claim_runs_out(db_path: str) -> None:
    clock = FakeClock()
    service = await _open(db_path, clock)
    try:
        gid = await _game(service)
        reply = await _move(service, gid)
        assert await service.next_announcement_at() == clock.now() + timedelta(
            milliseconds=CLAIM_MS
        )
        clock.advance(seconds=CLAIM_MS / 1000)
        (again,) = await service.pending_announcements()
        assert again.outbox == reply.outbox
    finally:
        await service.close()


async def test_results_reminders_and_offers_are_announced_through_the_outbox(
    db_path: str,
) -> None:
    clock = FakeClock()
    first = await _open(db_path, clock)
    gid = await _game(first, clock="corr:2")
    await _move(first, gid)
    offer = await first.play.offer_draw(gid, ALICE)
    clock.advance(days=1, seconds=1)
    (reminder,) = await first.process_due()
    assert reminder.event is Event.REMINDER and reminder.outbox is not None
    clock.advance(days=2)
    # the timeout is found inside another action: it is announced all the same
    with pytest.raises(Refusal):
        await _move(first, gid)
    (timeout,) = await first.process_due()
    assert timeout.event is Event.ENDED and timeout.outbox is not None
    await first.close()
    second = await _open(db_path, clock)
    try:
        pending = await second.pending_announcements()
        assert [p.event for p in pending] == [
            Event.MOVED,
            Event.OFFERED,
            Event.REMINDER,
            Event.ENDED,
        ]
        assert [p.outbox for p in pending][1:] == [offer.outbox, reminder.outbox, timeout.outbox]
        assert pending[-1].image is not None  # the final position, with the result
    finally:
        await second.close()


async def test_a_game_that_starts_on_a_join_is_announced_through_the_outbox(
    db_path: str,
) -> None:
    """The first ping of a game (the challenge accepted, the lobby full) is not lost either."""
    clock = FakeClock()
    first = await _open(db_path, clock)
    created = await first.play.create_game(ALICE, "rokumentai", invite=[BOB])
    assert created.game_id is not None
    started = await first.play.join(created.game_id, BOB)
    assert started.event is Event.STARTED and started.outbox is not None
    assert started.image is not None and started.notify
    await first.close()
    second = await _open(db_path, clock)
    try:
        (again,) = await second.pending_announcements()
        assert again.outbox == started.outbox and again.notify == started.notify
        assert again.text("ja") == started.text("ja") and again.image == started.image
    finally:
        await second.close()


async def test_a_game_created_running_is_announced_with_its_creation(db_path: str) -> None:
    """A game with every seat given at once (against the computer, a rematch, a solitaire)
    starts as it is created: its first message is written with it, and after a crash before
    the post the next process hands it out."""
    clock = FakeClock()
    first = await _open(db_path, clock)
    created = await first.play.create_game(ALICE, "rokumentai", seated=[BOB])
    gid = created.game_id
    assert gid is not None and created.event is Event.STARTED
    assert created.outbox == f"{gid}.0.0" and created.image is not None
    assert _outbox(db_path, starts=True) == [(gid, 0, 0, 0, "started", None)]
    assert await first.pending_announcements() == []  # this process is posting it
    await first.close()  # never reported delivered
    second = await _open(db_path, clock)
    try:
        (again,) = await second.pending_announcements()
        assert again.outbox == created.outbox and again.notify == created.notify
        assert again.text("en") == created.text("en") and again.text("ja") == created.text("ja")
        assert again.image == created.image
        await second.announced(created.outbox)
        assert _outbox(db_path, starts=True)[0][5] is not None
        # a lobby that waits for players announces nothing yet
        lobby = await second.play.create_game(ALICE, "rokumentai", open_seats=1)
        assert lobby.outbox is None and len(_outbox(db_path, starts=True)) == 1
    finally:
        await second.close()
