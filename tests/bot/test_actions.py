"""The actions table: every action a button can carry has a use case, a label, a style, what it
acts on and the kind of its argument; a press that does not fit its row is refused; every custom
id ever posted still reads as the right press."""

from __future__ import annotations

import re
from collections.abc import Awaitable
from typing import Any, cast

import pytest

from bot.discord.views import (
    CUSTOM_ID,
    STYLES,
    Posted,
    custom_id,
    posted,
    read_custom_id,
)
from bot.i18n import MESSAGES
from bot.service import (
    ACTIONS,
    ANSWERS,
    Action,
    Button,
    GameService,
    GameTarget,
    On,
    Practice,
    Press,
    Refusal,
    Reply,
    Style,
    Takes,
    Target,
    TournamentTarget,
    User,
    parse_arg,
    play_arg,
    routes,
    split_play,
    target_of,
)

ME = User("1", "me")
TARGETS: dict[On, Target] = {
    On.GAME: GameTarget(5),
    On.PRACTICE: Practice(),
    On.TOURNAMENT: TournamentTarget(3),
}
GOOD: dict[Takes, tuple[str, str]] = {
    Takes.PLY: ("0", "5"),
    Takes.MOVE: (play_arg(1, "a"), play_arg(2, "b")),
    Takes.TEXT: ("e4", "pass"),
    Takes.DAY: ("2026-11-27", "2026-02-28"),
    Takes.LESSON: ("rokumentai-2", "sangokushi"),
    Takes.EXPLORED: ("rokumentai|g0|", "sangokushi|s1|3.a.12"),
}
"""Two arguments of each kind (a use case that reads its argument is called differently)."""
BAD: dict[Takes, tuple[str, ...]] = {
    Takes.NOTHING: ("3", "rokumentai-2", ""),
    Takes.PLY: ("x", "-1", "1.5", ""),
    Takes.MOVE: ("7|", ""),
    Takes.TEXT: ("",),
    Takes.DAY: ("tomorrow", "2026-02-30", "2026-1-1"),
    Takes.LESSON: ("a b", "../x", ":"),
    Takes.EXPLORED: ("rokumentai", "rokumentai|x0|", "rokumentai|g0|3..4", "a|g0|3|4"),
}


class Recorder:
    """A stand-in service: records every use case called on it, with its arguments."""

    def __init__(self, calls: list[tuple[str, tuple[Any, ...], dict[str, Any]]], path: str = ""):
        self.calls = calls
        self.path = path

    def __getattr__(self, name: str) -> Recorder:
        return Recorder(self.calls, f"{self.path}.{name}")

    def __call__(self, *args: Any, **kwargs: Any) -> Awaitable[None]:
        self.calls.append((self.path, args, kwargs))

        async def done() -> None:
            return None

        return done()


async def _calls(
    action: Action, arg: str | None
) -> list[tuple[str, tuple[Any, ...], dict[str, Any]]]:
    calls: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = []
    spec = ACTIONS[action]
    await spec.run(cast(GameService, Recorder(calls)), Press(TARGETS[spec.on], ME, arg))
    return calls


def test_every_action_has_a_row() -> None:
    assert set(ACTIONS) == set(Action)


def test_every_row_has_a_use_case_a_label_a_style_a_target_and_an_argument_kind() -> None:
    for action, spec in ACTIONS.items():
        assert callable(spec.run), action
        assert spec.label in MESSAGES, action
        en, ja = MESSAGES[spec.label]
        assert en.strip() and ja.strip(), action
        assert isinstance(spec.style, Style) and spec.style in STYLES, action
        assert isinstance(spec.on, On), action
        assert isinstance(spec.takes, Takes), action


async def test_a_row_reads_its_argument_exactly_when_it_declares_one() -> None:
    """A row that takes nothing calls its use case the same whatever argument a press carries
    (it never reads one); a row with a kind calls it differently for two arguments."""
    for action, spec in ACTIONS.items():
        if spec.takes is Takes.NOTHING:
            assert await _calls(action, None) == await _calls(action, "9"), action
        else:
            first, second = GOOD[spec.takes]
            assert await _calls(action, first) != await _calls(action, second), action


def test_each_kind_parses_good_arguments_and_refuses_bad_ones() -> None:
    for takes, args in GOOD.items():
        for arg in args:
            assert parse_arg(takes, arg) == arg
    for takes, bad in BAD.items():
        for arg in bad:
            with pytest.raises(ValueError):
                parse_arg(takes, arg, required=True)
    assert parse_arg(Takes.NOTHING, None) is None
    assert parse_arg(Takes.DAY, None) is None  # today
    with pytest.raises(ValueError):
        parse_arg(Takes.LESSON, None, required=True)
    with pytest.raises(ValueError):
        parse_arg(Takes.PLY, None)


async def test_run_refuses_a_press_on_the_wrong_target_and_changes_nothing() -> None:
    for action, spec in ACTIONS.items():
        for on, target in TARGETS.items():
            if on is spec.on:
                continue
            calls: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = []
            arg = GOOD[spec.takes][0] if spec.takes in GOOD else None
            with pytest.raises(Refusal) as refused:
                await routes.run(cast(GameService, Recorder(calls)), action, Press(target, ME, arg))
            assert refused.value.key == "refuse.button_target" and not calls, action


async def test_run_refuses_an_argument_that_does_not_read_as_its_kind() -> None:
    for action, spec in ACTIONS.items():
        for arg in BAD[spec.takes]:
            calls: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = []
            press = Press(TARGETS[spec.on], ME, arg or None if spec.takes is Takes.NOTHING else arg)
            if spec.takes is Takes.NOTHING and press.arg is None:
                continue
            with pytest.raises(Refusal) as refused:
                await routes.run(cast(GameService, Recorder(calls)), action, press)
            assert refused.value.key == "refuse.button_argument" and not calls, (action, arg)
    for key in ("refuse.button_target", "refuse.button_argument"):
        assert all(MESSAGES[key]), key


async def test_run_lets_a_fitting_press_through() -> None:
    calls: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = []
    service = cast(GameService, Recorder(calls))
    await routes.run(service, Action.TOURNAMENT_JOIN, Press(TournamentTarget(3), ME))
    await routes.run(service, Action.PUZZLE_SOLVE, Press(Practice(), ME, "2026-11-27"))
    await routes.run(service, Action.PUZZLE_SOLVE, Press(Practice(), ME))
    await routes.run(service, Action.LEARN, Press(Practice(), ME, "rokumentai"))
    await routes.run(service, Action.STEP_NEXT, Press(GameTarget(12), ME, "5"))
    assert calls == [
        (".compete.join_tournament", (3, ME), {}),
        (".learn.solve_daily", (ME, "2026-11-27"), {}),
        (".learn.solve_daily", (ME, None), {}),
        (".learn.lesson", (ME, "rokumentai"), {}),
        (".review.replay_step", (12, ME, 5), {}),
    ]


def test_a_reply_names_what_its_buttons_act_on() -> None:
    game = Reply("x", game_id=12)
    tournament = Reply("x", params={"tournament": 3})
    assert target_of(Action.RESIGN, game) == GameTarget(12)
    assert target_of(Action.LEARN_HINT, game) == Practice()
    assert target_of(Action.PUZZLE_SOLVE, Reply("x")) == Practice()
    assert target_of(Action.TOURNAMENT_JOIN, tournament) == TournamentTarget(3)
    assert target_of(Action.TOURNAMENT_JOIN, game) is None
    assert target_of(Action.RESIGN, tournament) is None


def test_every_action_fits_a_posted_button_and_reads_back() -> None:
    for action, spec in ACTIONS.items():
        big = {
            On.GAME: GameTarget(10**17),
            On.PRACTICE: Practice(),
            On.TOURNAMENT: TournamentTarget(10**17),
        }[spec.on]
        arg = {Takes.NOTHING: None, Takes.MOVE: "9|x" * 19}.get(
            spec.takes, GOOD.get(spec.takes, ("x",))[0]
        )
        cid = custom_id(action.value, big, arg)
        assert len(cid) <= 100, cid
        match = CUSTOM_ID.fullmatch(cid)
        assert match and match["action"] == action.value
        assert read_custom_id(cid) == Posted(action.value, big, arg), cid


@pytest.mark.parametrize(
    ("cid", "press"),
    [
        # a game's buttons: the same form before and now
        ("banmen:resign:12", Posted("resign", GameTarget(12))),
        ("banmen:play:12:7|Draw", Posted("play", GameTarget(12), "7|Draw")),
        ("banmen:step_next:12:5", Posted("step_next", GameTarget(12), "5")),
        ("banmen:better:4:17", Posted("better", GameTarget(4), "17")),
        # a lesson's old buttons: game 0, the lesson (or the game) in the argument
        ("banmen:learn:0:rokumentai", Posted("learn", Practice(), "rokumentai")),
        ("banmen:learn_next:0:rokumentai-2", Posted("learn_next", Practice(), "rokumentai-2")),
        ("banmen:learn_restart:0:yosuko-1", Posted("learn_restart", Practice(), "yosuko-1")),
        ("banmen:learn_play:0:0|弓四04-七04", Posted("learn_play", Practice(), "0|弓四04-七04")),
        ("banmen:learn_move:0", Posted("learn_move", Practice())),
        # an old hint button carried the lesson id, which its row does not take
        ("banmen:learn_hint:0:rokumentai-2", Posted("learn_hint", Practice())),
        ("banmen:learn_menu:0", Posted("learn_menu", Practice())),
        ("banmen:learn_stop:0", Posted("learn_stop", Practice())),
        # a tournament's old buttons: game 0, the tournament in the argument (else the number)
        ("banmen:t_join:0:3", Posted("t_join", TournamentTarget(3))),
        ("banmen:t_leave:0:3", Posted("t_leave", TournamentTarget(3))),
        ("banmen:t_start:0:3", Posted("t_start", TournamentTarget(3))),
        ("banmen:t_start:8", Posted("t_start", TournamentTarget(8))),
        # a puzzle's old buttons: their own family, on the presser's practice board
        ("banmen-pz:puzzle_solve:2026-11-27", Posted("puzzle_solve", Practice(), "2026-11-27")),
        ("banmen-pz:puzzle_hint", Posted("puzzle_hint", Practice())),
        ("banmen-pz:puzzle_move", Posted("puzzle_move", Practice())),
        ("banmen-pz:puzzle_solution", Posted("puzzle_solution", Practice())),
        ("banmen-pz:puzzle_next", Posted("puzzle_next", Practice())),
        # the new forms
        ("banmen:t_join:t3", Posted("t_join", TournamentTarget(3))),
        ("banmen:learn_next:p:rokumentai-2", Posted("learn_next", Practice(), "rokumentai-2")),
        ("banmen:puzzle_solve:p:2026-11-27", Posted("puzzle_solve", Practice(), "2026-11-27")),
        # an action that no longer exists still reads (it is answered with an apology)
        ("banmen:gone:12:x", Posted("gone", GameTarget(12), "x")),
    ],
)
def test_every_posted_form_reads_as_the_right_press(cid: str, press: Posted) -> None:
    assert read_custom_id(cid) == press
    if press.action in set(Action):
        spec = ACTIONS[Action(press.action)]
        assert press.target.on is spec.on
        if spec.takes is not Takes.TEXT:  # (the text is typed after the press)
            spec.parse(press.arg)  # the row takes it (no refusal)


def test_old_forms_read_by_the_button_classes_go_the_same_way() -> None:
    match = CUSTOM_ID.fullmatch("banmen:t_join:0:3")
    assert match and posted(match["action"], match["target"], match["arg"]) == Posted(
        "t_join", TournamentTarget(3)
    )
    assert read_custom_id("banmen-lb:rokumentai:server:0:2") is None


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
