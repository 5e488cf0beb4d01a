"""Issue 45, 6: inputs that raised now get a clean refusal, and a refusal changes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from bot.service import GameService, Refusal, TournamentOptions, User
from tests.helpers import ALICE, BOB

HUGE = 2**64 + 5
"""A number past what any store holds as an integer."""


@pytest.mark.parametrize("zone", ["America", "Asia", "Etc", "x" * 300, "Asia/", "../etc/localtime"])
async def test_a_time_zone_that_is_a_folder_or_too_long_is_refused(
    service: GameService, zone: str
) -> None:
    with pytest.raises(Refusal) as refused:
        await service.correspond.configure_notices(ALICE, timezone=zone)
    assert refused.value.key == "refuse.notify_tz"
    shown = await service.correspond.configure_notices(ALICE)
    assert "Etc/UTC" in shown.text("en") or "UTC" in shown.text("en")  # unchanged


@pytest.mark.parametrize("tid", [HUGE, -HUGE, 0, 2**63])
async def test_a_tournament_id_past_64_bits_is_no_tournament(real: GameService, tid: int) -> None:
    for call in (
        real.compete.join_tournament(tid, BOB),
        real.compete.tournament_standings(tid),
        real.compete.leave_tournament(tid, BOB),
        real.compete.start_tournament(tid, ALICE, manager=True),
        real.compete.cancel_tournament(tid, ALICE, manager=True),
    ):
        with pytest.raises(Refusal) as refused:
            await call
        assert refused.value.key == "refuse.tournament_unknown"


@pytest.mark.parametrize(
    "how",
    [
        TournamentOptions("rokumentai", "round-robin", rounds=HUGE),
        TournamentOptions("rokumentai", "swiss", rounds=HUGE),
        TournamentOptions("rokumentai", "swiss", max_players=HUGE),
        TournamentOptions("rokumentai", "swiss", signup_hours=HUGE),
    ],
    ids=["rr-rounds", "swiss-rounds", "players", "signup"],
)
async def test_tournament_numbers_past_64_bits_are_refused_or_unused(
    real: GameService, how: TournamentOptions
) -> None:
    try:
        made = await real.compete.create_tournament(ALICE, how, manager=True)
    except Refusal as refusal:
        assert refusal.key.startswith("refuse.tournament_")
        return
    assert made.key == "tournament.signup"  # a round-robin's rounds come from its field


async def test_a_refused_tournament_join_keeps_the_stored_name(
    real: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    how = TournamentOptions("rokumentai", "swiss", max_players=2)
    made = await real.compete.create_tournament(ALICE, how, manager=True)
    tid = int(made.params["tournament"])
    await real.compete.join_tournament(tid, BOB)
    remembered: list[Any] = []
    upsert = real.ctx.store.upsert_user

    async def spy(user_id: str, name: str, now_ms: int) -> None:
        remembered.append((user_id, name))
        await upsert(user_id, name, now_ms)

    monkeypatch.setattr(real.ctx.store, "upsert_user", spy)
    for who in (User(BOB.id, "Bobby"), User("carol", "Carol")):  # already in; full
        with pytest.raises(Refusal):
            await real.compete.join_tournament(tid, who)
    assert remembered == []
