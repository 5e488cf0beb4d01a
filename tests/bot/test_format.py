"""Unit tests of the command layer: reply formatting, refusals, custom ids, translations."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.discord.format import (
    allowed_mentions_for,
    awaits_player,
    choices_for,
    refusal_text,
    reply_parts,
)
from bot.discord.translator import JA, BanmenTranslator
from bot.discord.views import CUSTOM_ID, GameView, button_label, custom_id
from bot.i18n import Lang
from bot.service import Action, Button, File, GameTarget, Refusal, Reply, split_play
from engines.core import Text

ALICE, BOB = "1300000000000000003", "1300000000000000004"


def move_reply(**kw: Any) -> Reply:
    base: dict[str, Any] = {
        "params": {"id": 7, "game": Text("Rokumentai", "六面体"), "name": "Alice",
                   "move": Text("四04占", "四04占"), "ply": 1, "to_move": "Bob"},
        "game_id": 7,
        "image": b"\x89PNG\r\n\x1a\nfake",
        "actions": (Button(Action.MOVE), Button(Action.RESIGN), Button(Action.OFFER_DRAW)),
        "notify": (BOB,),
        "to_move": (BOB,),
        "deadline": datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC),
    }  # fmt: skip
    base.update(kw)
    return Reply("move.played", **base)


def card_of(parts: Any) -> list[dict[str, Any]]:
    """The card's components as Discord receives them."""
    assert parts.content is None and parts.embed is None  # a card carries neither
    components: list[dict[str, Any]] = parts.view.to_components()
    return components


def texts(components: list[dict[str, Any]]) -> list[str]:
    out: list[str] = []
    for c in components:
        if c.get("type") == 10:
            out.append(c["content"])
        out += texts(c.get("components") or [])
    return out


def kinds(components: list[dict[str, Any]]) -> list[int]:
    return [k for c in components for k in (c["type"], *kinds(c.get("components") or []))]


@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_turn_message_pings_only_the_player_to_move(lang: str) -> None:
    parts = reply_parts(move_reply(), lang, view=GameView(move_reply(), lang))
    card = card_of(parts)
    # the ping stands above the card, the only mention Discord may resolve
    assert card[0] == {"type": 10, "content": f"<@{BOB}>"}
    mentions = parts.allowed_mentions.to_dict()
    assert mentions["parse"] == []
    assert mentions["users"] == [int(BOB)]
    assert not mentions.get("replied_user")
    # in the container: the text, the picture in a gallery described by the reply's first
    # line (a screen reader reads it), whose turn, the buttons, the mark
    container = card[1]
    assert container["type"] == 17 and container["accent_color"] == 0xC8A24A
    assert [c["type"] for c in container["components"]] == [10, 12, 10, 14, 1, 10]
    gallery = container["components"][1]["items"][0]
    assert gallery["media"]["url"] == "attachment://board-7.png"
    assert [f.filename for f in parts.files] == ["board-7.png"]
    body = container["components"][0]["content"]
    assert gallery["description"] == parts.files[0].description == body.split("\n")[0]
    assert "四04占" in body
    # whose turn, and the deadline as Discord timestamps (every reader's own time zone)
    turn = container["components"][2]["content"]
    label = {"en": "To move", "ja": "手番"}[lang]
    assert f"**{label}:** <@{BOB}>" in turn and "<t:1767323045:R>" in turn
    assert container["components"][-1]["content"] == "-# #7"


def test_languages_differ() -> None:
    en = texts(card_of(reply_parts(move_reply(), "en")))
    ja = texts(card_of(reply_parts(move_reply(), "ja")))
    assert en != ja
    assert "手番" in "".join(ja)


@pytest.mark.parametrize("buttons", [0, 6, 25])
@pytest.mark.parametrize("lines", [0, 200])
async def test_no_card_breaks_discords_limits(buttons: int, lines: int) -> None:
    # the most buttons a reply offers, the longest texts: at most 40 components in all and
    # 4,000 characters of text, whatever the reply holds
    from bot.service import Line

    moves = tuple(
        Button(Action.PLAY, f"1|{'m' * 40}{n}", Text("x" * 80, "x" * 80)) for n in range(buttons)
    )
    long = tuple(
        Line("move.played", {"id": 7, "ply": n, "name": "N" * 30, "move": "m" * 40})
        for n in range(lines)
    )
    files = (File("banmen-7.kif", b"kif"), File("banmen-7.json", b"{}"))
    reply = move_reply(actions=moves + move_reply().actions, lines=long, files=files)
    card = card_of(reply_parts(reply, "en", view=GameView(reply, "en")))
    assert len(kinds(card)) <= 40
    assert sum(len(t) for t in texts(card)) <= 4000
    assert texts(card)[-1] == "-# #7"  # the mark is never cut


def test_ephemeral_and_finished_replies_ping_nobody() -> None:
    private = card_of(reply_parts(move_reply(), "en", ephemeral=True))
    assert private[0]["type"] == 17  # nothing above the card: no ping
    over = move_reply(actions=(Button(Action.BOARD), Button(Action.MOVES), Button(Action.RECORD)))
    assert not awaits_player(over)
    parts = reply_parts(over, "en")
    card = card_of(parts)
    assert card[0]["type"] == 17 and card[0]["accent_color"] == 0x8A8F98  # stone: nobody acts
    assert dict(parts.allowed_mentions.to_dict()) == {"parse": [], "users": []}


def test_user_text_cannot_ping_everyone() -> None:
    evil = move_reply(params={"id": 7, "game": "x", "name": "@everyone <@&123>", "move": "m",
                              "ply": 1})  # fmt: skip
    mentions = reply_parts(evil, "en").allowed_mentions.to_dict()
    assert "everyone" not in mentions["parse"] and "roles" not in mentions["parse"]
    assert allowed_mentions_for(["not-a-snowflake"]).to_dict()["users"] == []


def test_record_files_attached() -> None:
    files = (File("banmen-7.kif", b"kif"), File("banmen-7.json", b"{}"))
    parts = reply_parts(move_reply(image=None, files=files), "en")
    assert [f.filename for f in parts.files] == ["banmen-7.kif", "banmen-7.json"]
    shown = [c for c in card_of(parts)[-1]["components"] if c["type"] == 13]
    assert [c["file"]["url"] for c in shown] == [
        "attachment://banmen-7.kif",
        "attachment://banmen-7.json",
    ]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_picture_is_described_in_the_readers_language(lang: str) -> None:
    words = Text("Rokumentai, ply 1. " + "word " * 300, "六面体、1手目。" + "語" * 1100)
    (picture,) = reply_parts(move_reply(image_alt=words), lang).files
    assert picture.description is not None and len(picture.description) <= 1024
    assert picture.description.startswith(words.get(lang)[:10])
    assert picture.description.endswith("…")
    if lang == "en":  # cut between words, never inside one
        assert picture.description.removesuffix("…").endswith("word")


@pytest.mark.parametrize(("lang", "word"), [("en", "turn"), ("ja", "手番")])
def test_refusal_in_the_users_language(lang: str, word: str) -> None:
    refusal = Refusal("refuse.not_your_turn", id=7, to_move="Bob")
    assert word in refusal_text(refusal, lang)


def test_refusal_lists_suggestions_once() -> None:
    refusal = Refusal("refuse.bad_move", ("四01占", "五01占"), reason=Text("bad", "だめ"), id=7)
    text = refusal_text(refusal, "en")
    assert text.count("四01占") == 1


def test_autocomplete_choices_are_bounded() -> None:
    values = [f"m{i}" for i in range(40)] + ["x" * 101, ""]
    out = choices_for(values)
    assert len(out) == 25
    assert all(0 < len(v) <= 100 for _, v in out)


def test_custom_ids_round_trip() -> None:
    cid = custom_id("resign", GameTarget(12))
    m = CUSTOM_ID.fullmatch(cid)
    assert m and m["action"] == "resign" and m["target"] == "12" and m["arg"] is None
    cid = custom_id("play", GameTarget(3), "start 4")
    m = CUSTOM_ID.fullmatch(cid)
    assert m and (m["action"], m["target"], m["arg"]) == ("play", "3", "start 4")
    assert len(cid) <= 100
    assert Button.parse("play:draw") == Button(Action.PLAY, "draw")
    assert Button.parse("resign") == Button(Action.RESIGN)
    assert str(Button(Action.STEP_NEXT, "5")) == "step_next:5"


async def test_view_labels_follow_the_language() -> None:
    assert button_label(Button(Action.RESIGN), "ja") == "投了"
    assert button_label(Button(Action.RESIGN), "en") == "Resign"
    assert button_label(Button(Action.PLAY, "start 1"), "ja") == "start 1"
    assert button_label(Button(Action.PLAY, "12|draw"), "en") == "draw"
    assert button_label(Button(Action.PLAY, "12|d", Text("Draw", "引分")), "ja") == "引分"
    assert split_play("12|draw") == (12, "draw")
    assert split_play("draw") == (None, "draw")
    buttons = (Button(Action.MOVE), Button(Action.RESIGN), Button(Action.PLAY, "draw"))
    view = GameView(Reply("x", game_id=5, actions=buttons), "ja")
    labels = [getattr(getattr(i, "item", i), "label", None) for i in view.children]
    assert labels == ["指す", "投了", "draw"]
    assert view.timeout is None


@pytest.mark.parametrize(
    ("locale", "fallback", "lang"),
    [("ja", "en", "ja"), ("en-US", "ja", "en"), ("fr", "ja", "ja"), (None, "en", "en")],
)
def test_language_of_a_locale(locale: str | None, fallback: str, lang: str) -> None:
    assert Lang.of(locale, fallback) == lang


async def test_translator_gives_japanese_names() -> None:
    translator = BanmenTranslator()
    context: app_commands.TranslationContext[Any, Any] = app_commands.TranslationContext(
        app_commands.TranslationContextLocation.other, None
    )
    ja = await translator.translate(
        app_commands.locale_str("move"), discord.Locale.japanese, context
    )
    assert ja == "指す"
    en = await translator.translate(
        app_commands.locale_str("move"), discord.Locale.american_english, context
    )
    assert en is None
    extra = await translator.translate(
        app_commands.locale_str("Rokumentai", ja="六面体"), discord.Locale.japanese, context
    )
    assert extra == "六面体"
    # Every localised command name is a valid Discord name.
    for name in ("play", "move", "board", "moves", "resign", "draw", "takeback", "record",
                 "games", "rules", "abort", "settings", "setup", "join"):  # fmt: skip
        assert name in JA and len(JA[name]) <= 32 and " " not in JA[name]


def test_a_picture_of_no_game_is_named_by_what_it_shows() -> None:
    """Issue 52: a rating chart was attached as board.png."""
    from bot.discord.format import board_filename

    assert board_filename(12) == "board-12.png"
    assert board_filename(12, "gif", "replay") == "replay-12.gif"
    assert board_filename(None, "png", "rating") == "rating.png"
    assert board_filename(None, "png", "lesson") == "lesson.png"
    from bot.service import Event, Reply

    assert Reply("x", event=Event.LESSON_MENU).subject == "lesson"
    assert board_filename(None) == "board.png"


def test_a_post_of_no_game_is_marked_readably_not_by_its_key() -> None:
    """Issue 52: tournament messages showed their keys (t1.round1, t1.final) in the footer."""
    from bot.service import delivery_mark

    assert delivery_mark("t1.round1") == "🏆 #1 · 1"
    assert delivery_mark("t1.round0") == "🏆 #1 · 0"
    assert delivery_mark("t12.final") == "🏆 #12 · 🏁"
    assert delivery_mark("puzzle:123456:2026-11-28") == "🧩 2026-11-28"
    marks = {delivery_mark(f"t{t}.{n}") for t in (1, 2) for n in ("round1", "round2", "final")}
    assert len(marks) == 6  # one key, one mark: the delivery loop finds each again
