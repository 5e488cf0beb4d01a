"""Fixtures for every test."""

from __future__ import annotations

from typing import Any

import pytest

import bot.service.context


def seats_as_listed(seats: list[Any]) -> None:
    """A seat draw that leaves everyone where they were listed."""


@pytest.fixture(autouse=True)
def known_seats(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seats are drawn at random by default (``bot.service.context.draw_seats``); a test that
    is not about the draw plays a known order (the creator first, then as named).
    ``tests/bot/test_reading.py`` and ``tests/service/test_seats.py`` test the draw itself."""
    monkeypatch.setattr(bot.service.context, "draw_seats", seats_as_listed)
