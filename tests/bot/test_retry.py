"""Retry your mistakes through the Discord double (issue 50, 4): a player's /review offers
Retry my mistakes; the button opens the first mistake privately, /move in a channel with no game
answers it, the Move button's box too, and Show the move ends it."""

from __future__ import annotations

from dataclasses import replace

from bot.service import GameService, User
from tests.bot.conftest import Harness
from tests.discord_double import DiscordDouble
from tests.helpers import PLANTED_SEED, planted


async def _planted(harness: Harness, double: DiscordDouble) -> tuple[GameService, int]:
    """The planted game of tests/service/test_review.py between alice and bob (finished), with
    reviews of few nodes a ply: the service and the game."""
    service = harness.service
    assert service is not None
    service.ctx.settings = replace(service.ctx.settings, review_nodes=50)
    alice, bob = User(str(double.alice.id), "alice"), User(str(double.bob.id), "bob")
    befores, plies, _, _ = planted("rokumentai", PLANTED_SEED)
    made = await service.play.create_game(alice, "rokumentai", seated=[bob], seating="listed")
    gid = made.game_id
    assert gid is not None
    for before, move in zip(befores, plies, strict=True):
        await service.play.move(
            gid, (alice, bob)[before.current_player()], before.format_move(move)
        )
    return service, gid


async def test_retry_from_the_review(harness: Harness, double: DiscordDouble) -> None:
    service, gid = await _planted(harness, double)
    alice = User(str(double.alice.id), "alice")
    befores, plies, blunder, missed = planted("rokumentai", PLANTED_SEED)
    win = befores[blunder].format_move(missed[0])

    review = await double.slash(double.alice, "review", {"game": gid})
    await double.wait_for(lambda: any(r.files for r in review.replies))
    own = next(r for r in review.replies if r.files)
    assert own.message is not None
    retry = double.buttons(own.message)["Retry my mistakes"]
    opened = await double.click(double.alice, own.message, retry)
    await double.wait_for(lambda: any(r.files for r in opened.replies))
    first = next(r for r in opened.replies if r.files)
    assert opened.ephemeral  # private
    assert first.message is not None and "Retry 1 of" in str(first.body)
    assert {"Move", "Hint", "Show the move", "Close"} <= set(double.buttons(first.message))
    assert first.files[0].description  # the position in words

    # the move of the game again, by /move in a channel without a game: not this one
    again = await double.slash(
        double.alice, "move", {"notation": befores[blunder].format_move(plies[blunder])}
    )
    assert again.ephemeral and "is the move of the game" in again.text
    # a win, through the Move button's box
    asked = await double.click(double.alice, first.message, double.buttons(first.message)["Move"])
    answered = await double.submit_modal(double.alice, asked, {"text": win})
    assert answered.ephemeral and "is a good move" in answered.text and "★★☆" in answered.text
    while await service.learn.practice_of(str(double.alice.id)) == "retry":
        await service.learn.retry_solution(alice)
    assert await service.learn.practice_of(str(double.alice.id)) is None
    # bob's /move here goes to no retry of his
    refused = await double.slash(double.bob, "move", {"notation": win})
    assert refused.ephemeral and "good move" not in refused.text
    assert not double.unhandled


async def test_the_analysis_board(harness: Harness, double: DiscordDouble) -> None:
    """/analyse at a move of a finished game: private, /move outside a thread plays on it for
    whoever is to move, Take back and Computer's line change it in place."""
    service, gid = await _planted(harness, double)
    befores, _, blunder, missed = planted("rokumentai", PLANTED_SEED)

    opened = await double.slash(double.carol, "analyse", {"game": gid, "move": blunder})
    assert opened.ephemeral and f"from move {blunder}" in opened.text
    assert opened.message is not None
    assert {"Move", "Computer's line", "Close"} <= set(double.buttons(opened.message))
    played = await double.slash(
        double.carol, "move", {"notation": befores[blunder].format_move(missed[0])}
    )
    assert played.ephemeral and "Played" in played.text and played.message is not None
    back = await double.click(
        double.carol, played.message, double.buttons(played.message)["Take back"]
    )
    assert "Taken back." in back.text
    line = await double.click(
        double.carol, played.message, double.buttons(played.message)["Computer's line"]
    )
    assert "Computer: " in line.text and "100%" in line.text
    assert await service.play.game_info(gid) is not None
    assert not double.unhandled
