"""The analysis board (issue 50, 3): from any ply of a finished game, moves tried for either
side, taken back, the computer's line asked for, and the game's record never touched; nothing
hidden is ever shown (数字将棋 from the reveal on); only a finished game, never a solitaire."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.service import GameService, Refusal, Reply
from bot.service.actions import Action, GameTarget, Practice
from bot.service.review.analysis import starts
from bot.service.values import Press
from engines.ai.review import best_line
from engines.registry import get_game
from tests.helpers import (
    ALICE,
    BOB,
    CAROL,
    PLANTED_SEED,
    moves_of,
    offered,
    one_move_resigned,
    planted,
    planted_game,
    planted_in_the_sandbox,
    solitaire_game,
)


def _said(reply: Reply) -> list[str]:
    return [line.key for line in reply.lines]


async def test_moves_for_either_side_taken_back_and_the_record_untouched(
    svc: GameService, db_path: str
) -> None:
    gid, ply, _ = await planted_game(svc)
    log = moves_of(db_path, gid)
    befores, _, blunder, missed = planted("rokumentai", PLANTED_SEED)
    opened = await svc.act(Action.ANALYSE, Press(GameTarget(gid), CAROL, str(ply - 1)))
    assert isinstance(opened, Reply) and opened.key == "analysis.position"
    assert not opened.public and opened.audience == CAROL.id  # a spectator may: private
    assert opened.params["ply"] == ply - 1 and opened.image is not None and opened.image_alt
    assert {"analysis_move", "analysis_best", "learn_stop"} <= set(offered(opened))
    assert "analysis_back" not in offered(opened)  # nothing tried yet
    assert await svc.practice_of(CAROL.id) == "analysis"
    board = svc.practice_board("analysis")
    here = befores[blunder]
    first = here.format_move(missed[0])  # alice's missed win...
    tried = await board.move(CAROL, first)
    assert _said(tried)[0] == "analysis.played" and tried.params["tried"] == 1
    assert "analysis_back" in offered(tried)
    reply_to = here.apply(missed[0])
    if reply_to.outcome() is None:  # ...then one for bob, whoever is to move
        second = reply_to.format_move(reply_to.legal_moves()[0])
        tried = await board.move(CAROL, second)
        assert tried.params["tried"] == 2
    back = await svc.act(Action.ANALYSIS_BACK, Press(Practice(), CAROL))
    assert isinstance(back, Reply) and _said(back)[0] == "analysis.back"
    assert back.params["tried"] == tried.params["tried"] - 1
    assert moves_of(db_path, gid) == log  # the game's record is as it was


async def test_the_computer_gives_its_evaluation_and_line(svc: GameService) -> None:
    gid, ply, _ = await planted_game(svc)
    await svc.review.analyse(ALICE, gid, ply - 1)
    line = await svc.act(Action.ANALYSIS_BEST, Press(Practice(), ALICE))
    assert isinstance(line, Reply) and _said(line)[0] == "analysis.line"
    said = line.lines[0].params
    assert "100%" in said["chances"].en  # alice has a win in one here
    assert said["line"].en  # the line, in the game's notation
    hint = await svc.practice_board("analysis").hint(ALICE)  # /hint: the same
    assert hint.lines[0].params == said


def test_best_line_is_pure_and_ends_at_the_end() -> None:
    befores, _, blunder, missed = planted("rokumentai", PLANTED_SEED)
    here = befores[blunder]
    found = best_line(here, nodes=50, seed=1)
    assert found == best_line(here, nodes=50, seed=1)  # the same on any machine
    assert found.moves and found.moves[0] in missed and max(found.chances) == 1.0
    assert len(found.moves) <= 4
    over = here.apply(missed[0])
    assert over.outcome() is not None
    ended = best_line(over, nodes=50)
    assert ended.moves == () and sorted(ended.chances) == [0.0, 1.0]
    with pytest.raises(ValueError):
        best_line(get_game("yosuko").new_game(), nodes=50)


async def test_refusals_change_nothing(svc: GameService, db_path: str) -> None:
    running = await svc.play.create_game(ALICE, "rokumentai", seated=[BOB], seating="listed")
    assert running.game_id is not None
    with pytest.raises(Refusal) as refused:
        await svc.review.analyse(ALICE, running.game_id)
    assert refused.value.key == "analysis.refuse.running"
    with pytest.raises(Refusal) as refused:
        await svc.review.analyse(ALICE, await solitaire_game(svc, "analysis"))
    assert refused.value.key == "analysis.refuse.solitaire"
    with pytest.raises(Refusal) as refused:
        await svc.practice_board("analysis").move(ALICE, "一01占")
    assert refused.value.key == "analysis.refuse.not_open"
    gid, _, _ = await planted_game(svc)
    opened = await svc.review.analyse(ALICE, gid)  # the end: the game is over on the board
    board = svc.practice_board("analysis")
    with pytest.raises(Refusal) as refused:
        await board.move(ALICE, "一01占")
    assert refused.value.key == "analysis.refuse.over"
    with pytest.raises(Refusal) as refused:
        await svc.review.analysis_back(ALICE)
    assert refused.value.key == "analysis.refuse.nothing_to_take_back"
    assert (await board.legal(ALICE, "", 5)).moves == ()
    early = await svc.review.analyse(ALICE, gid, 3)
    with pytest.raises(Refusal) as refused:
        await board.move(ALICE, "nonsense")
    assert refused.value.key == "refuse.bad_move"
    again = await board.legal(ALICE, "", 500)
    assert again.moves and early.params["tried"] == 0 and opened.params["tried"] == 0


async def test_suji_shogi_is_analysed_from_the_reveal_only(svc: GameService) -> None:
    """A game ended during the secret setup has no open position; one played on starts at the
    reveal, whatever ply is asked for, and the board shows both arrangements (the game is
    over: its record shows them too)."""
    ended = await svc.play.create_game(ALICE, "suji-shogi", seated=[BOB], seating="listed")
    assert ended.game_id is not None
    await svc.play.setup(ended.game_id, ALICE, "123/456")
    await svc.play.resign(ended.game_id, BOB)
    with pytest.raises(Refusal) as refused:
        await svc.review.analyse(CAROL, ended.game_id, 0)
    assert refused.value.key == "analysis.refuse.hidden"
    played = await svc.play.create_game(ALICE, "suji-shogi", seated=[BOB], seating="listed")
    gid = played.game_id
    assert gid is not None
    await svc.play.setup(gid, ALICE, "123/456")
    await svc.play.setup(gid, BOB, "654/321")
    loaded = await svc.ctx.games.read(gid)
    state = loaded.state
    mover = (ALICE, BOB)[state.current_player()]
    await svc.play.move(gid, mover, state.format_move(state.legal_moves()[0]))
    await svc.play.resign(gid, ALICE)
    found = starts(await svc.ctx.games.read(gid))
    assert [s.ply for s in found] == [0, 1]  # the reveal and after the one move
    assert all(s.state.observe(None) is s.state for s in found)
    board = await svc.review.analyse(CAROL, gid, 0)
    assert board.params["ply"] == 0 and board.image_alt is not None
    assert "secret" not in board.image_alt.en.lower()


async def test_the_sandbox_analyses_a_game(tmp_path: Path) -> None:
    befores, _, blunder, missed = planted("rokumentai", PLANTED_SEED)
    text = await planted_in_the_sandbox(
        tmp_path,
        [
            "/as carol",
            f"/analyse 1 {blunder}",
            f"/move {befores[blunder].format_move(missed[0])}",
            "/analyse back",
            "/analyse best",
            "/analyse stop",
            "/analyse 1 nonsense",
        ],
    )
    assert f"Analysis board · game #1 (Rokumentai) from move {blunder}" in text
    assert "Played " in text and "Taken back." in text and "Computer: " in text
    assert "Usage: /analyse [id] [move] | back | best | stop" in text


async def test_the_board_shows_the_explorers_numbers(svc: GameService) -> None:
    """The board shows what players played from its position in finished games (the
    explorer's counts, every server's): here the one finished game's first move."""
    gid, first = await one_move_resigned(svc)
    board = await svc.review.analyse(CAROL, gid, 0)
    said = [line.key for line in board.lines]
    assert "explore.here" in said and "explore.move" in said
    move_line = next(line for line in board.lines if line.key == "explore.move")
    assert move_line.params["games"] == 1 and move_line.params["wins"] == 1
    after = await svc.review.analysis_move(CAROL, first)
    assert "explore.none_here" in [line.key for line in after.lines]  # nobody went on: resigned
