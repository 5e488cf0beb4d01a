"""``/rules``: the whole rules, page by page, privately, in the reader's language; the page
buttons and the jump list still work after a restart, and no page names a file."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from bot.learn.catalogue import RULES
from tests.bot.conftest import Harness
from tests.discord_double import DiscordDouble
from tests.discord_double.payloads import find_components
from tests.helpers import assert_png


def footer(message: dict[str, Any]) -> str:
    return str(message["embeds"][0]["footer"]["text"])


def disabled(message: dict[str, Any]) -> set[str]:
    return {
        str(b.get("label")) for b in find_components(message["components"], 2) if b.get("disabled")
    }


def jump_list(message: dict[str, Any]) -> dict[str, Any]:
    (select,) = find_components(message["components"], 3)
    return select


async def test_rules_pages_turn_and_survive_a_restart(
    harness: Harness, double: DiscordDouble
) -> None:
    rules = RULES["sangokushi"]
    count = len(rules.pages)
    answer = await double.slash(double.alice, "rules", {"game": "sangokushi"})
    assert answer.ephemeral and answer.response_time < 3.0
    message = answer.message
    assert message is not None
    assert footer(message) == f"Page 1 of {count}"
    assert "Three Kingdoms" in answer.text and rules.pages[0][1].body.en in answer.text
    assert_png(answer, double)
    assert set(double.buttons(message)) == {"⏮ First", "◀ Previous", "Next ▶"}
    assert disabled(message) == {"⏮ First", "◀ Previous"}
    assert len(jump_list(message)["options"]) == len(rules.sections)

    turned = await double.click(double.alice, message, double.buttons(message)["Next ▶"])
    assert turned.response_time < 3.0
    now = double.messages[int(message["id"])]
    assert footer(now) == f"Page 2 of {count}" and not disabled(now)
    assert rules.pages[1][1].body.en in now["embeds"][0]["description"]
    assert_png(now, double)

    # The jump list: straight to the section on checks (its first page).
    check = next(i for i, s in enumerate(rules.sections) if "王手" in s.heading)
    first = rules.first_page(check)
    select = jump_list(now)["custom_id"]
    await double.click(double.alice, now, select, values=[str(first)])
    now = double.messages[int(message["id"])]
    assert footer(now) == f"Page {first + 1} of {count}"
    assert rules.sections[check].title.en in now["embeds"][0]["title"]

    # After a restart the page's buttons still turn it: their ids carry game and page.
    await harness.restart()
    await double.click(double.alice, now, double.buttons(now)["◀ Previous"])
    now = double.messages[int(message["id"])]
    assert footer(now) == f"Page {first} of {count}"
    await double.click(double.alice, now, double.buttons(now)["⏮ First"])
    now = double.messages[int(message["id"])]
    assert footer(now) == f"Page 1 of {count}"
    assert not double.unhandled
    assert not [r for r in double.requests if r.status >= 400]


async def test_rules_in_japanese_and_every_game_names_no_file(
    harness: Harness, double: DiscordDouble
) -> None:
    # bob's Discord is in Japanese.
    answer = await double.slash(double.bob, "rules", {"game": "suji-shogi"})
    message = answer.message
    assert message is not None
    count = len(RULES["suji-shogi"].pages)
    assert footer(message) == f"1 / {count} ページ"
    assert "数字将棋" in answer.text and RULES["suji-shogi"].pages[0][1].body.ja in answer.text
    assert set(double.buttons(message)) == {"⏮ 最初", "◀ 前へ", "次へ ▶"}
    for game in RULES:
        shown = await double.slash(double.alice, "rules", {"game": game})
        assert shown.ephemeral
        assert "docs/" not in json.dumps(shown.data, ensure_ascii=False)
        assert ".md" not in shown.text


async def test_rules_link_only_when_configured(harness: Harness, double: DiscordDouble) -> None:
    plain = await double.slash(double.alice, "rules", {"game": "rokumentai"})
    assert "http" not in plain.text and "Full rules" not in plain.text
    harness.settings = dataclasses.replace(
        harness.settings, rules_base_url="https://banmen.example/rules/"
    )
    await harness.restart()
    linked = await double.slash(double.alice, "rules", {"game": "socrates-uchu"})
    assert "Full rules: https://banmen.example/rules/socrates.md" in linked.text
    assert "docs/" not in linked.text


async def test_each_rules_diagram_is_described(harness: Harness, double: DiscordDouble) -> None:
    """A rules page's picture is attached with its heading and the position it draws in words
    (not the heading alone), within Discord's 1,024 characters, in the reader's language."""
    rules = RULES["sangokushi"]
    answer = await double.slash(double.alice, "rules", {"game": "sangokushi"})
    assert answer.message is not None
    (picture,) = answer.message["attachments"]
    said = picture["description"]
    assert said.startswith(rules.pages[0][1].title.en + ". ")
    assert "Three Kingdoms Shogi" in said and "ply" in said and len(said) <= 1024
