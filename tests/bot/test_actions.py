"""The actions table: every action a button can carry has a use case, a label and a style."""

from __future__ import annotations

import re

from bot.discord.views import CUSTOM_ID, STYLES, custom_id
from bot.i18n import MESSAGES
from bot.service import ACTIONS, ANSWERS, Action, Button, Style, Takes, play_arg, split_play


def test_every_action_has_a_row() -> None:
    assert set(ACTIONS) == set(Action)


def test_every_action_has_a_use_case_a_label_in_both_languages_and_a_style() -> None:
    for action, spec in ACTIONS.items():
        assert callable(spec.run), action
        assert spec.label in MESSAGES, action
        en, ja = MESSAGES[spec.label]
        assert en.strip() and ja.strip(), action
        assert isinstance(spec.style, Style) and spec.style in STYLES, action
        assert isinstance(spec.takes, Takes), action


def test_every_action_fits_a_posted_button() -> None:
    for action in Action:
        match = CUSTOM_ID.fullmatch(custom_id(action.value, 10**17, "9|x"))
        assert match and match["action"] == action.value


def test_a_button_reads_back_from_its_text() -> None:
    for action in Action:
        for arg in (None, "0", play_arg(7, "a:b|c")):
            button = Button(action, arg)
            assert Button.parse(str(button)) == button
    assert split_play(play_arg(12, "draw")) == (12, "draw")
    assert split_play("draw") == (None, "draw")


def test_answers_name_actions() -> None:
    for answers in ANSWERS.values():
        assert None in answers and set(answers) - {None} == {"accept", "decline"}
        assert all(re.fullmatch(r"[a-z_]+", a) for a in answers.values())
