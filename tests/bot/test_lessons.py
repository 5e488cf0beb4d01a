"""``/learn`` through the Discord double: a whole lesson with a wrong move, a restart of the bot
in the middle of one, the buttons (hint, move modal, next) after it, and the menu in Japanese.
Everything is private, names no file and never becomes a game."""

from __future__ import annotations

import json

from tests.bot.conftest import Harness
from tests.discord_double import DiscordDouble
from tests.helpers import assert_png, described


async def test_a_lesson_with_a_wrong_move_and_a_restart_in_the_middle(
    harness: Harness, double: DiscordDouble
) -> None:
    opened = await double.slash(double.alice, "learn", {"game": "rokumentai"})
    assert opened.ephemeral and opened.response_time < 3.0
    assert "The warrior's step" in opened.text and "Beat the 士 on 五03." in opened.text
    assert_png(opened, double)
    message = opened.message
    assert message is not None
    assert {"💡 Hint", "↺ Restart", "Move", "All lessons", "Close"} <= set(double.buttons(message))

    # /move outside any game goes to the lesson: its choices are the lesson's legal moves.
    typed = await double.autocomplete(double.alice, "move", {"notation": "武"}, "notation")
    values = [c["value"] for c in typed.choices]
    assert "▲武四04-五03" in values and all("武" in v for v in values)

    wrong = await double.slash(double.alice, "move", {"notation": "武四04-四03"})
    assert wrong.ephemeral and "✗" in wrong.text and "taken back" in wrong.text
    assert "one step up and to the right" in wrong.text
    illegal = await double.slash(double.alice, "move", {"notation": "武四04-七07"})
    assert illegal.ephemeral and "✗" not in illegal.text and "Closest" in illegal.text

    await harness.restart()  # the lesson continues where it was

    done = await double.slash(double.alice, "move", {"notation": "武四04-五03"})
    # two legal tries for a one-move lesson (the illegal one is refused, not counted)
    assert done.ephemeral and "✓" in done.text and "★★☆" in done.text
    finished = done.message
    assert finished is not None
    assert set(double.buttons(finished)) == {"Next lesson ▶", "↺ Restart", "All lessons"}

    # The next lesson replaces the finished one in place; a hint, then the move typed in the
    # modal, finish it.
    await double.click(double.alice, finished, double.buttons(finished)["Next lesson ▶"])
    now = double.messages[int(finished["id"])]
    assert "The horse's leap" in described(now)
    await double.click(double.alice, now, double.buttons(now)["💡 Hint"])
    now = double.messages[int(finished["id"])]
    assert "💡" in described(now) and "五06" in described(now)
    asked = await double.click(double.alice, now, double.buttons(now)["Move"], wait="responded")
    assert asked.modal
    typed_in = await double.submit_modal(double.alice, asked, {"text": "騎四04-五06"})
    assert typed_in.ephemeral or int(finished["id"]) in double.messages
    now = double.messages[int(finished["id"])]
    assert "✓" in described(now) and "★★☆" in described(now)  # one hint: two stars

    # Never a game: no statistics, no games of alice's.
    assert harness.service is not None
    assert await harness.service.ctx.store.stats(str(double.alice.id), None) == []
    assert harness.service.play.game_choices(str(double.alice.id)) == []
    assert not double.unhandled
    assert not [r for r in double.requests if r.status >= 400]


async def test_the_menu_in_japanese_opens_a_game_and_names_no_file(
    harness: Harness, double: DiscordDouble
) -> None:
    menu = await double.slash(double.bob, "learn")
    assert menu.ephemeral and "レッスン" in menu.text and "六面体" in menu.text
    assert "☆☆☆" in menu.text
    message = menu.message
    assert message is not None
    buttons = double.buttons(message)
    assert "略式易双六" in buttons and len(buttons) == 9
    await double.click(double.bob, message, buttons["略式易双六"])
    now = double.messages[int(message["id"])]
    assert "始める爻を選ぶ" in described(now)
    played = await double.click(double.bob, now, double.buttons(now)["開始 2（二爻）"])
    now = double.messages[int(message["id"])]
    assert "✓" in described(now) and "★★★" in described(now)
    assert "docs/" not in json.dumps(now, ensure_ascii=False)
    assert "docs/" not in json.dumps(played.data, ensure_ascii=False)
    closed = await double.slash(double.bob, "learn")
    assert "★★★" in closed.text  # the menu shows the star earned
