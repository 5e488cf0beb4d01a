"""The terminal sandbox plays whole scripted games over the service."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import Settings
from bot.sandbox import Sandbox, picture_text, run_sandbox
from bot.service import Page, Reply, Scope
from engines.core import Text
from engines.registry import all_games
from tests.helpers import run_script as _run

ROOT = Path(__file__).resolve().parents[2]

TTT_SCRIPT = """\
# a whole game of noughts and crosses, alice against bob
/as alice
/play ttt-test @bob
/move a1
/as bob
/accept
/as alice
/move a1
/as bob
/move a1
/move b1
/as alice
/move a2
/as bob
/board
/move b2
/moves
/as alice
/move a3
/move b3
/record
/stats
"""


async def test_scripted_game_to_the_end(fakes: None, tmp_path: Path) -> None:
    code, out = await _run(tmp_path, TTT_SCRIPT)
    assert code == 0
    assert "Game #1 of Noughts and crosses begins" in out
    assert "✗ #1: 'a1' is not a legal move here." in out  # bob tried a taken square
    assert "Result: three in a row" in out
    assert "✗ Game #1 is over." in out  # the move after the end
    assert "Noughts and crosses: 1 game, 1 win" in out
    images = sorted((tmp_path / "out").glob("game-1-*.png"))
    assert len(images) == 7  # start, five moves, bob's /board
    assert "[image: " + str(images[0]) in out
    kif = (tmp_path / "out" / "banmen-1.kifu").read_text(encoding="utf-8")
    assert (tmp_path / "out" / "banmen-1.kif").read_text(encoding="cp932") == kif
    assert "   5 ▲a3" in kif


async def test_japanese_output(fakes: None, tmp_path: Path) -> None:
    code, out = await _run(
        tmp_path, "/play ttt-test @bob\n/as bob\n/accept\n/as you\n/move a1\n", lang="ja"
    )
    assert code == 0
    assert "三目並べの対局 #1 を開始します" in out and "1手目" in out


async def test_unknown_command(fakes: None, tmp_path: Path) -> None:
    code, out = await _run(tmp_path, "/help\n/frobnicate\n/games\n")
    assert code == 0 and "Unknown command '/frobnicate'" in out and "no open" in out
    code, _ = await _run(tmp_path, "/help\n/frobnicate\n/games\n", strict=True)
    assert code == 2


RATED_SCRIPT = """\
/as alice
/play ttt-test @bob
/as bob
/accept
/resign
/as alice
/play ttt-test @carol rated=false
/as carol
/accept
/resign
/as alice
/play ttt-test @dave rated=maybe
/as carol
/play ttt-test @erin
/as erin
/accept
/resign
/rating alice
/rating bob ttt-test
/leaderboard ttt-test
/leaderboard ttt-test global provisional
/leaderboard ttt-test sideways
/leaderboard
"""


async def test_ratings_in_the_sandbox(fakes: None, tmp_path: Path) -> None:
    code, out = await _run(tmp_path, RATED_SCRIPT)
    assert code == 0
    assert "Rating: alice 1000? →" in out and "Rating: bob 1000? →" in out
    assert out.count("Rating: ") == 4  # the casual game changed nothing
    assert "Usage: rated=true|false" in out
    assert "Ratings of alice:" in out and "1 rated game (1 win, 0 losses, 0 draws)" in out
    assert "vs bob: won" in out and "? = provisional" in out
    assert "Ratings of bob:" in out and "vs alice: lost" in out
    assert "Nobody is on the Noughts and crosses leaderboard (this server) yet" in out
    assert "page 1 of 1; 4 players" in out and "1. alice " in out and "4. erin " in out
    assert out.count("Usage: /leaderboard <game> [server|global] [page] [provisional]") == 2


def test_sandbox_says_how_to_page(tmp_path: Path) -> None:
    out = io.StringIO()
    sandbox = Sandbox(service=None, out_dir=tmp_path, out=out)  # type: ignore[arg-type]
    page = Page("rokumentai", Scope.GLOBAL, 2, 5, provisional=True)
    sandbox.show(Reply("leaderboard.empty_all", {}, page=page))
    assert "Page 2 of 5: /leaderboard rokumentai global <1-5> provisional for another." in (
        out.getvalue()
    )


async def test_tick_moves_the_sandbox_clock(fakes: None, tmp_path: Path) -> None:
    script = (
        "/play ttt-test @bob clock=live:5\n/as bob\n/accept\n/as you\n"
        "/tick 4m30s\n/tick 4m\n/tick 1m\n/move a1\n"
    )
    script = script.replace("4m30s", "270s")
    code, out = await _run(tmp_path, script)
    assert code == 0
    assert "your move is due in" in out
    assert "time is up" in out and "✗ Game #1 is over." in out


ROKUMENTAI_SCRIPT = """\
/as alice
/play rokumentai @bob seats=listed
/as bob
/accept
/as alice
/move 七06占
/as bob
/move 七07領
/as alice
/move 六07武
/legal 武
/as bob
/move 六06女
/as alice
/move 武六07-七07
/record
"""


@pytest.mark.skipif(
    "rokumentai" not in {g.id for g in all_games()}, reason="rokumentai is not registered"
)
def test_cli_sandbox_plays_rokumentai(tmp_path: Path) -> None:
    """``python -m bot sandbox --script``: a whole 六面体 game with real pictures."""
    script = tmp_path / "game.txt"
    script.write_text(ROKUMENTAI_SCRIPT, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env["PYTHONPATH"] = str(ROOT)
    result = subprocess.run(
        [sys.executable, "-m", "bot", "sandbox", "--db", str(tmp_path / "r.db"), "--script",
         str(script), "--out", str(tmp_path / "out"), "--strict"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "武六07-七07" in out and "Result:" in out and "✗" not in out
    pngs = list((tmp_path / "out").glob("*.png"))
    assert len(pngs) == 6 and all(p.read_bytes().startswith(b"\x89PNG") for p in pngs)


def test_no_token_starts_the_sandbox(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env |= {"PYTHONPATH": str(ROOT), "BANMEN_DB": str(tmp_path / "x.db")}
    result = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path, env=env, input="/help\n", capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "No DISCORD_TOKEN is set" in result.stderr
    assert "Commands:" in result.stdout
    assert (tmp_path / "x.db").exists()


SANGOKUSHI_SCRIPT = """\
/as alice
/play sangokushi @bob @carol
/as bob
/accept
/as carol
/accept
/as bob
/move BI6-G5
/as alice
/move PB4-C4
/as bob
/move BI6-G5
/as carol
/move PF8-F7
/as alice
/move HA4-B4
/as bob
/move PH2-G3
/as carol
/move BD8-E7
/as bob
/resign
/stats sangokushi alice
/stats bob
"""


async def test_scripted_three_player_game_with_a_check(tmp_path: Path) -> None:
    code, out = await _run(tmp_path, SANGOKUSHI_SCRIPT, strict=True)
    assert code == 0, out
    assert "Game #1 of Three Kingdoms Shogi begins. Wei: alice, Shu: bob, Wu: carol" in out
    assert "✗ It is not your turn in game #1: alice to move." in out  # bob, too early
    assert "Check (王手) on Wu: Wu moves next, then back to Wei.\ncarol to move." in out
    assert "✗ It is not your turn in game #1: carol to move." in out  # bob, skipped by the check
    assert "bob resigned: alice and carol share first place." in out
    assert "Three Kingdoms Shogi: 1 game, 1 win, 0 losses" in out
    assert "Three Kingdoms Shogi: 1 game, 0 wins, 1 loss" in out
    assert len(list((tmp_path / "out").glob("game-1-*.png"))) == 7  # start, 5 moves, resign


async def test_sandbox_japanese_announcement(tmp_path: Path) -> None:
    script = "/play sangokushi @bob @carol\n/as bob\n/accept\n/as carol\n/accept\n" + "".join(
        f"/as {who}\n/move {move}\n"
        for who, move in zip(
            ("you", "bob", "carol", "you"), ("PB4-C4", "BI6-G5", "PF8-F7", "HA4-B4"), strict=True
        )
    )
    code, out = await _run(tmp_path, script, lang="ja", strict=True)
    assert code == 0
    assert "王手：呉の手番、その後魏に戻ります。\n手番: carol" in out


SECRET_AND_DAILY_SCRIPT = """\
/as alice
/play suji-shogi @bob
/as bob
/accept
/as alice
/move 123/456
/setup 123/456
/as bob
/board
/moves
/setup 654/321
/as alice
/play yosuko daily
/daily
/daily board
/resign
/daily
/as bob
/daily play
/daily board
/daily board 2000-01-01
/daily sideways
/stats yosuko
/stats yosuko alice
"""


async def test_scripted_setup_daily_and_stats(tmp_path: Path) -> None:
    code, out = await _run(tmp_path, SECRET_AND_DAILY_SCRIPT, strict=True)
    assert code == 0, out
    # The secret setup: /move is refused, /setup answers privately; bob sees nothing of it.
    assert "✗ Game #1 is at a secret setup: send yours with /setup" in out
    assert "(only for alice) Your setup for game #1 is in: 123/456 (only you can see it)." in out
    bob_part = out[out.index("bob> /board") : out.index("bob> /setup")]
    assert "123/456" not in bob_part
    assert "Every setup of game #1 is in: the board is revealed." in out
    # The daily deal: one game per day; the board lists the day's players.
    assert "Game #2 of Ryakushiki Yōsukō begins." in out
    assert "Game #2 of Ryakushiki Yōsukō, 0 moves." in out  # /daily again: the same game
    assert "✗ You have already played today's deal." in out
    assert "Game #3 of Ryakushiki Yōsukō begins." in out
    board = out[out.rindex("bob> /daily board\n") :]
    assert "alice (#2, 6 moves): alice resigned: the game is lost." in board
    assert "bob (#3, 6 moves): playing" in board
    assert "Nobody has played the deal of 2000-01-01 yet." in out
    assert "Usage: /daily [play | board [YYYY-MM-DD]]" in out
    assert "bob has no finished games yet." in out
    assert "Ryakushiki Yōsukō: 1 game, 0 wins, 1 loss" in out


async def test_replay_to_a_file_and_import_of_a_kif(tmp_path: Path) -> None:
    """The real games: /replay writes the GIF, /replay at=N the picture after move N, and the
    Shift-JIS .kif that /record wrote imports as a finished, unrated game."""
    out_dir = tmp_path / "out"
    script = (
        "/as alice\n/play rokumentai @bob\n/as bob\n/accept\n/as alice\n四04占\n/as bob\n三04領\n"
        "/as alice\n/resign\n/replay\n/replay at=1\n/replay at=x\n/record\n"
        f"/import {out_dir / 'banmen-1.kif'}\n/replay 2\n/import {tmp_path / 'script.txt'}\n"
    )
    code, out = await _run(tmp_path, script)
    assert code == 0, out
    gifs = sorted(out_dir.glob("game-*.gif"))
    assert [g.name.split("-")[1] for g in gifs] == ["1", "2"]  # the game and its import
    assert all(g.read_bytes().startswith(b"GIF8") for g in gifs)
    assert "Replay of game #1 (Rokumentai): the start and 2 moves." in out
    assert "move 1 of 2, ▲四04占" in out
    assert "Usage: /replay [id] [at=<move number>]" in out
    assert "Imported as game #2 (2 moves; unrated)." in out
    assert "line 1: I cannot read this line" in out  # the script is no record


async def test_the_computer_plays_in_the_sandbox(tmp_path: Path) -> None:
    script = tmp_path / "ai.txt"
    script.write_text(
        "/play rokumentai @ai:2\n一01占\n/takeback\n/play rokumentai @ai:9\n"
        "/play yosuko\n/hint\n/play sangokushi @ai @ai:7\n",
        encoding="utf-8",
    )
    out = io.StringIO()
    settings = Settings(db_path=str(tmp_path / "sandbox.db"), ai_seconds=0.1)
    code = await run_sandbox(settings, script=str(script), out_dir=str(tmp_path / "out"), out=out)
    text = out.getvalue()
    assert code == 0
    assert "Black: you, White: Banmen AI Lv.2" in text
    assert "#1 2. Banmen AI Lv.2: △" in text  # the AI answered the move at once
    assert "taken back" in text.lower()
    assert "There is no AI level 9" in text
    assert "Hint for game #2" in text and "%" in text
    assert "Banmen AI Lv.4" in text and "Banmen AI Lv.7" in text  # @ai: the default level


async def test_a_new_session_never_overwrites_pictures(fakes: None, tmp_path: Path) -> None:
    """The same database and picture folder, two sessions: the second adds pictures after the
    first's (game-1-0001-… is written once)."""
    code, _ = await _run(tmp_path, "/play ttt-test @bob\n/as bob\n/accept\n/board\n")
    assert code == 0
    first = {p.name: p.read_bytes() for p in (tmp_path / "out").glob("*.png")}
    assert len(first) == 2
    code, out = await _run(tmp_path, "/move a1\n/as bob\n/move b1\n/board 1\n")
    assert code == 0, out
    after = {p.name: p.read_bytes() for p in (tmp_path / "out").glob("*.png")}
    assert all(after[name] == data for name, data in first.items())
    assert len(after) == len(first) + 3
    assert "game-1-0003-" in out and "game-1-0001-" not in out


SEVERAL_GAMES = """\
/as alice
/play ttt-test @bob seats=listed
/as bob
/accept
/as alice
/play ttt-test @carol seats=listed
/as carol
/accept
/as alice
/move a1
/move b1
/move zz
/as carol
/move zz
/move game=2 c3
/as alice
/move 1 c1
/rematch 1
"""


async def test_commands_say_which_game_they_went_to(fakes: None, tmp_path: Path) -> None:
    code, out = await _run(tmp_path, SEVERAL_GAMES, strict=True)
    assert code == 0, out
    alice = out[out.index("alice> /move a1") :]
    # alice is to move in both games: her move goes to the current one (#2), and says so
    assert alice.startswith("alice> /move a1\n→ game #2\n#2 1. alice: a1")
    # then only #1 waits for her: her next move goes there, not to her previous game
    assert "alice> /move b1\n→ game #1\n#1 1. alice: b1" in out
    # a refusal names its game when the reason does not
    assert "alice> /move zz\n→ game #1\n✗ It is not your turn in game #1" in out
    assert "carol> /move zz\n✗ #2: " in out
    # game=N and a leading number name the game
    assert "carol> /move game=2 c3\n#2 2. carol: c3" in out
    assert "alice> /move 1 c1\n✗ It is not your turn in game #1" in out
    # the sandbox offers rematches too (a finished game only)
    assert "✗ Game #1 has no result to play again" in out


async def test_legal_says_when_it_cut_the_list(tmp_path: Path) -> None:
    script = "/play suji-shogi @bob\n/as bob\n/accept\n/legal\n/legal 12\n/lang ja\n/legal 12\n"
    code, out = await _run(tmp_path, script, strict=True)
    assert code == 0, out
    assert "(200 of 720 shown: type the start of a move to see the others" in out
    narrowed = out[out.index("bob> /legal 12\n") :].splitlines()[1]
    assert narrowed.count("setup 12") == 24 and "shown" not in narrowed
    assert out.splitlines()[-1].startswith("配置 123/456")  # as the game writes it, in Japanese


async def test_rules_pages_in_the_sandbox(tmp_path: Path) -> None:
    """``/rules <game> [page]`` prints a page and writes its picture; never a file path of
    the rules documents."""
    script = "/rules yosuko\n/rules yosuko 2\n/lang ja\n/rules rokumentai 6\n/rules\n/rules x y\n"
    code, out = await _run(tmp_path, script)
    assert code == 0
    assert "Choose the token's line" in out and "Page 2 of 6: /rules yosuko <1-6>" in out
    assert "倒して入れ替わる" in out and "6/10ページ" in out
    assert out.count("使い方: /rules <game> [page]") == 2
    pictures = sorted(p.name for p in (tmp_path / "out").glob("rules-*.png"))
    assert pictures == ["rules-rokumentai-06.png", "rules-yosuko-01.png", "rules-yosuko-02.png"]
    assert "docs/" not in out


async def test_a_lesson_scripted_in_the_sandbox(tmp_path: Path) -> None:
    """``/learn <game>`` then ``/legal``, ``/move`` and ``/hint`` play the lesson (a wrong
    move first), ``/learn`` shows the stars; with the lesson closed, ``/move`` is a game's."""
    script = (
        "/learn suji-shogi-2\n/legal 3d\n/move 3d3c\n/move 2d2c\n/move 2d1c\n/hint\n/move 1d2c\n"
        "/learn\n/learn yosuko\n/move start 2\n/learn stop\n/move 2e2d\n/learn x y\n"
    )
    code, out = await _run(tmp_path, script)
    assert code == 0
    assert "▲3三1(34)\n" in out  # /legal 3d
    assert "You played ▲3三1(34)." in out and "The reply: △2三5(32)." in out
    assert "cannot go to 2c: it steps one square FL, FR" in out  # the engine's refusal
    assert "✗ ▲1三2(24)" in out and "taken back" in out  # legal, but off the line
    assert "💡" in out and "✓" in out and "★★☆" in out  # a hint: two stars
    assert "Number shogi: ☆☆☆ ★★☆ ☆☆☆" in out
    assert "Choose the start" in out and "★★★" in out
    assert "Closed: /move goes to your games again" in out
    assert "Which game?" in out  # /move goes to games again
    assert "/learn [game | lesson | restart | next | stop]" in out
    assert list((tmp_path / "out").glob("*.png"))
    assert "docs/" not in out


CORRESPONDENCE_SCRIPT = """\
/as alice
/play ttt-test @bob clock=corr:2 seats=listed
/as bob
/accept
/as alice
/vacation on 2d
/vacation off
/move a1
/premove add b1 c1
/premove list
/notify quiet=22-7 digest=on hour=9 timezone=Asia/Tokyo
/vacation on yesterday
/as bob
/move b1
"""


async def test_correspondence_commands(fakes: None, tmp_path: Path) -> None:
    """``/vacation``, ``/premove`` and ``/notify`` (issue 33): the conditional reply follows
    bob's move at once, marked conditional."""
    code, out = await _run(tmp_path, CORRESPONDENCE_SCRIPT)
    assert code == 0, out
    assert "You are on vacation until" in out and "Welcome back" in out
    assert "• b1 c1" in out
    assert "quiet hours: 22:00–07:00" in out
    assert "✗ I cannot read the return date 'yesterday'" in out
    assert "(a conditional move)" in out


async def test_the_sandbox_presses_lesson_and_puzzle_buttons_through_the_table(
    tmp_path: Path,
) -> None:
    """``/learn next`` and ``/puzzle daily <day>`` are the buttons' rows: a day that is no date
    is refused as a button's would be, with nothing opened."""
    script = "/learn yosuko\n/learn next\n/puzzle daily 2026-02-30\n/puzzle solution\n"
    code, out = await _run(tmp_path, script)
    assert code == 0
    assert out.count("Choose the start") == 1  # the first lesson, then the next one
    assert "That button's value is not understood: nothing was done." in out


DIGEST_SCRIPT = """\
/as alice
/play ttt-test @bob clock=corr:3 seats=listed
/as bob
/accept
/as alice
/notify digest=on hour=0 timezone=UTC
/tick 1d
/tick 1d
"""


async def test_the_sandbox_prints_a_due_digest_once(fakes: None, tmp_path: Path) -> None:
    """A digest falls due as the sandbox's clock moves: printed once, as the outbox hands it
    out (the next day's again, once)."""
    code, out = await _run(tmp_path, DIGEST_SCRIPT)
    assert code == 0, out
    assert out.count("Your Banmen games today") == 2, out


def test_a_picture_is_printed_with_its_words() -> None:
    words = Text("Rokumentai, ply 0. Black to move.", "六面体、0手目。先手の手番。")
    reply = Reply("board.active", image=b"png", image_alt=words)
    path = Path("out/game-1-0001-spectator.png")
    assert picture_text(reply, path, "en") == f"[image: {path}]\n[alt: {words.en}]"
    assert picture_text(reply, path, "ja") == f"[画像: {path}]\n[代替テキスト: {words.ja}]"
    assert picture_text(Reply("board.active", image=b"png"), path, "en") == f"[image: {path}]"
