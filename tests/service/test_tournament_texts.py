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


async def test_two_computer_players_of_one_level_are_told_apart_by_their_seats(
    real: object,
) -> None:
    """Issue 52: a result named "Banmen AI Lv.2 and Banmen AI Lv.2"."""
    from bot.service import GameService
    from tests.helpers import ALICE

    assert isinstance(real, GameService)
    made = await real.play.create_game(ALICE, "sangokushi", ai=[2, 2])
    assert made.game_id is not None
    resigned = await real.play.resign(made.game_id, ALICE)
    said = resigned.text("en")
    assert said.count("Banmen AI Lv.2 (") == 2, said
    assert "Banmen AI Lv.2 and Banmen AI Lv.2" not in said


async def test_a_review_of_a_game_with_no_move_says_so(real: object) -> None:
    """Issue 52: a game that ended before anyone chose a move (数字将棋 in its setup) showed an
    empty chart and 'no mistake found' twice."""
    from bot.service import GameService
    from tests.helpers import ALICE, BOB

    assert isinstance(real, GameService)
    for game in ("suji-shogi", "rokumentai"):
        made = await real.play.create_game(ALICE, game, seated=[BOB])
        assert made.game_id is not None
        await real.play.resign(made.game_id, ALICE)
        said = await real.review.game(made.game_id, ALICE)
        assert said.key == "review.nothing" and said.image is None and not said.lines
        assert "no move to judge" in said.text("en") and "判定する指し手" in said.text("ja")
