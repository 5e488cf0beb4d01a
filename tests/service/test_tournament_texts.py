"""Issue 52: a one-round sign-up says "1 round", and a crosstable's shared place reads as one."""

from __future__ import annotations

from bot.i18n import t
from render.crosstable import CrossRow, places


def test_one_round_is_a_round() -> None:
    about = {"name": "X", "tournament": 1, "game": "G", "format": "Swiss", "clock": "c"}
    more = {"rated": "rated", "count": 2, "max": 4, "players": "a, b"}
    assert "1 round," in t("tournament.signup", "en", rounds=1, **about, **more)
    assert "3 rounds," in t("tournament.signup", "en", rounds=3, **about, **more)
    assert "- rounds," in t("tournament.signup", "en", rounds="-", **about, **more)
    assert "1 round." in t("tournament.started", "en", rounds=1, **about, **more)


def test_a_shared_place_is_marked_as_shared() -> None:
    rows = [
        CrossRow(1, "Alice", "2", {}),
        CrossRow(1, "Bob", "2", {}),
        CrossRow(3, "Carol", "1", {}),
    ]
    assert places(rows) == ["1=", "1=", "3."]
