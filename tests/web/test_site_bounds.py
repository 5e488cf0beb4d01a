"""Issue 45, 5 and 6: the site cannot take the machine from the moves. Requests answered at
once and waiting are bounded, live-update streams are capped per address and in all and give
back their place when the visitor leaves, ``X-Forwarded-For`` counts only from a trusted proxy,
and a folder or a path outside the site is the site's own 404."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import replace
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.service import GameService
from bot.web import RateLimit, create_app
from bot.web.app import Bounds, Busy
from tests.helpers import start

Client = TestClient[Any, Any]


async def _client(service: GameService, **kw: Any) -> Client:
    client: Client = TestClient(TestServer(create_app(service, **kw), host="127.0.0.1"))
    await client.start_server()
    return client


@pytest.fixture
async def bounded(real: GameService) -> AsyncIterator[tuple[Client, Bounds]]:
    bounds = Bounds(streams_per_address=2, streams_max=3)
    client = await _client(real, limit=RateLimit(rate=1000.0, burst=10_000.0), bounds=bounds)
    try:
        yield client, bounds
    finally:
        await client.close()


async def test_streams_are_capped_per_address_and_give_back_their_place(
    real: GameService, bounded: tuple[Client, Bounds]
) -> None:
    client, bounds = bounded
    gid = await start(real, "rokumentai")
    token = await real.review.page_token(gid)
    first = await client.get(f"/g/{token}/events")
    second = await client.get(f"/g/{token}/events")
    assert first.status == second.status == 200
    await first.content.readuntil(b"\n\n")
    third = await client.get(f"/g/{token}/events")
    assert third.status == 429 and third.headers["Retry-After"] == "5"
    assert sum(bounds.streams.values()) == 2
    bounds.closed.clear()
    first.close()  # the visitor leaves: a normal end, and the place is free again
    await asyncio.wait_for(bounds.closed.wait(), 10)
    again = await client.get(f"/g/{token}/events")
    assert again.status == 200
    second.close()
    again.close()


async def test_requests_past_the_waiting_room_are_refused_busy() -> None:
    bounds = Bounds(at_once=1, waiting_max=1)
    gate = asyncio.Event()

    async def slow() -> str:
        await gate.wait()
        return "done"

    running = asyncio.ensure_future(bounds.answer(slow))
    waiting = asyncio.ensure_future(bounds.answer(slow))
    while bounds.waiting < 1:  # let both reach their place (no time passes)
        await asyncio.sleep(0)
    with pytest.raises(Busy):
        await bounds.answer(slow)
    gate.set()
    assert await running == "done" and await waiting == "done"
    assert bounds.running == 0 and bounds.waiting == 0
    assert await bounds.answer(slow) == "done"


async def test_the_site_keeps_its_pace_and_refuses_a_turn_too_far_off() -> None:
    """At most ``rate`` requests start a second; one whose turn is past ``pace_wait`` away is
    busy at once (the clock stands still here: no time passes in the test)."""
    bounds = Bounds(rate=1.0, burst=0, pace_wait=0.5, clock=lambda: 100.0)

    async def work() -> str:
        return "done"

    assert await bounds.answer(work) == "done"  # its turn is now
    with pytest.raises(Busy):
        await bounds.answer(work)  # the next turn is a second off: past the half second
    assert bounds.running == 0 and bounds.waiting == 0


async def test_a_busy_site_answers_503_with_its_own_page(real: GameService) -> None:
    client = await _client(real, bounds=Bounds(at_once=0, waiting_max=0, busy_delay=0.0))
    try:
        busy = await client.get("/")
        assert busy.status == 503 and busy.headers["Retry-After"] == "1"
        assert "<html" in await busy.text()
    finally:
        await client.close()


@pytest.mark.parametrize("trusted", [False, True])
async def test_the_forwarded_address_counts_only_from_a_trusted_proxy(
    real: GameService, trusted: bool
) -> None:
    service = real
    if trusted:
        service.ctx.settings = replace(service.settings, web_trusted_proxies=("127.0.0.1",))
    bounds = Bounds(busy_delay=0.0)
    client = await _client(service, limit=RateLimit(rate=0.001, burst=2.0), bounds=bounds)
    try:
        one = {"X-Forwarded-For": "198.51.100.7, 203.0.113.5"}
        other = {"X-Forwarded-For": "203.0.113.6"}
        assert [(await client.get("/", headers=one)).status for _ in range(3)] == [200, 200, 429]
        # another visitor behind the proxy has a bucket of their own; a forged header does not
        assert (await client.get("/", headers=other)).status == (200 if trusted else 429)
    finally:
        await client.close()


@pytest.mark.parametrize("path", ["/static/", "/static", "/static/../app.py", "/static/%2e%2e/x"])
async def test_folders_and_paths_outside_the_site_are_the_sites_404(
    client: Client, path: str
) -> None:
    response = await client.get(path)
    assert response.status == 404
    assert "<html" in await response.text()


async def test_a_daily_deal_is_linked_only_once_its_page_opens(real: GameService) -> None:
    from datetime import UTC, datetime

    from bot.clock import FakeClock
    from tests.helpers import ALICE

    clock = real.clock
    assert isinstance(clock, FakeClock)
    clock.set(datetime(2026, 11, 27, 9, 0, tzinfo=UTC))
    deal = await real.play.daily(ALICE, "123456789012345678")
    assert deal.game_id is not None
    assert not [line for line in (await real.review.linked(deal)).lines if line.key == "web.link"]
    await real.play.resign(deal.game_id, ALICE)
    clock.set(datetime(2026, 11, 28, 12, 0, tzinfo=UTC))  # the day is over: its page opens
    linked = await real.review.linked(deal)
    assert [line.key for line in linked.lines if line.key == "web.link"] == ["web.link"]


@pytest.mark.parametrize("name", ["Bob", "竜🐉"], ids=["sjis", "emoji"])
async def test_a_page_offers_only_the_record_files_there_are(
    real: GameService, client: Client, name: str
) -> None:
    from bot.service import User
    from tests.helpers import ALICE

    made = await real.play.create_game(
        ALICE, "sangokushi", seated=[User("b", name), User("c", "C")]
    )
    assert made.game_id is not None
    token = await real.review.page_token(made.game_id)
    page = await real.review.game_page(token)
    assert ("kif" in page.records) is (name == "Bob")  # Shift-JIS cannot hold the dragon
    for kind in page.records:
        assert (await client.get(f"/g/{token}/record.{kind}")).status == 200
    html = await (await client.get(f"/g/{token}")).text()
    for kind in {"kifu", "kif", "json"} - set(page.records):
        assert f'record.{kind}"' not in html


def test_trusted_proxies_are_read_as_addresses() -> None:
    from bot.config import load_settings

    env = {"BANMEN_WEB_TRUSTED_PROXIES": " 172.30.0.1, ::1 ,"}
    assert load_settings(None, env).web_trusted_proxies == ("172.30.0.1", "::1")
    assert load_settings(None, {}).web_trusted_proxies == ()
    with pytest.raises(ValueError, match="BANMEN_WEB_TRUSTED_PROXIES"):
        load_settings(None, {"BANMEN_WEB_TRUSTED_PROXIES": "proxy.example"})
