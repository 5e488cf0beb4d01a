"""The kill loop: the bot process is SIGKILLed again and again while it handles ``/move``, and no
announcement is lost or posted twice.

Three kinds of kill, in turn, over at least 25 kills:

- *before the post*: the double receives the bot's answer to the interaction, kills the bot and
  drops the answer, as if the process had died between committing the move and posting it;
- *after the post*: the double stores the answer, then kills the bot before it can note that the
  announcement went out;
- *anywhere*: the bot is killed a varying time after the interaction was sent (from at once to a
  little longer than a ``/move`` takes), before or after the commit.

After every kill the bot starts again. At the end every move in the log has exactly one
announcement in the game's thread (found by the mark in its footer), and nothing is pending.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sqlite3
import time
from pathlib import Path
from typing import Any

from engines.core import State
from engines.registry import get_game
from tests.discord_double import DiscordDouble
from tests.discord_double.server import Request
from tests.helpers import Bot, double_env, python_m_bot

KILLS = 27
MODES = ("before", "after", "timed")


def _db(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True)


def _log(path: Path, game_id: int) -> list[str]:
    with contextlib.closing(_db(path)) as db:
        rows = db.execute(
            "SELECT move FROM moves WHERE game_id = ? ORDER BY ply", (game_id,)
        ).fetchall()
    return [str(r[0]) for r in rows]


def _announced(path: Path) -> list[tuple[int, int, int, str, Any]]:
    with contextlib.closing(_db(path)) as db:
        return [
            (int(r[0]), int(r[1]), int(r[2]), str(r[3]), r[4])
            for r in db.execute(
                "SELECT game_id, version, n, event, delivered_ms FROM outbox ORDER BY created_ms"
            )
        ]


def _state(log: list[str]) -> State[Any]:
    state: State[Any] = get_game("rokumentai").new_game()
    for text in log:
        state = state.apply(state.parse_move(text))
    return state


def _marks(double: DiscordDouble, channel_id: int) -> list[str]:
    return [mark for m in double.channel_messages(channel_id) if (mark := double.mark(m))]


class Killer:
    """Kills the running bot from inside the double's request handling."""

    def __init__(self) -> None:
        self.bot: Bot | None = None
        self.mode = ""
        self.fired = False

    def kill(self) -> None:
        if self.bot is not None and self.bot.proc.returncode is None and not self.fired:
            self.fired = True
            os.kill(self.bot.proc.pid, signal.SIGKILL)

    @staticmethod
    def _answers_move(rec: Request) -> bool:
        return rec.method == "POST" and rec.path.startswith("/interactions/")

    def before(self, rec: Request) -> bool:
        if self.mode == "before" and not self.fired and self._answers_move(rec):
            self.kill()
            return True
        return False

    def after(self, rec: Request) -> None:
        if self.mode == "after" and not self.fired and self._answers_move(rec):
            self.kill()


async def _start(double: DiscordDouble, env: dict[str, str], tmp: Path) -> Any:
    identifies = double.identifies
    cm = python_m_bot(env, tmp)
    bot = await cm.__aenter__()
    await double.wait_connected(identifies + 1, timeout=60)
    await double.wait_for(lambda: double.commands.get(double.guild_id), timeout=60)
    return cm, bot


async def test_no_announcement_is_lost_or_doubled_across_kills(
    double: DiscordDouble, tmp_path: Path
) -> None:
    db_path = tmp_path / "banmen.db"
    env = double_env(double, tmp_path)
    killer = Killer()
    double.before_request = killer.before
    double.after_request = killer.after
    cm, bot = await _start(double, env, tmp_path)
    killer.bot = bot

    # A game between Alice and Bob, in its own thread.
    challenge = await double.slash(
        double.alice, "play", {"rokumentai": {"opponent": double.bob}}, timeout=30
    )
    assert challenge.message is not None
    await double.click(
        double.bob, challenge.message, double.buttons(challenge.message)["Accept"], timeout=30
    )
    (thread,) = await double.wait_for(double.threads, timeout=30)
    thread_id = int(thread["id"])
    with contextlib.closing(_db(db_path)) as db:
        (game_id,) = db.execute("SELECT id FROM games").fetchone()
        # the seats were drawn at random: who sits where is in the database
        seated = db.execute("SELECT seat, user_id FROM seats WHERE game_id = ?", (game_id,))
        users = {str(u.id): u for u in (double.alice, double.bob)}
        players = {int(seat): users[user_id] for seat, user_id in seated}

    # How long one /move takes here, to spread the "anywhere" kills over it.
    started = time.perf_counter()
    state = _state(_log(db_path, game_id))
    first = state.format_move(state.legal_moves()[0])
    await double.slash(
        players[state.current_player()],
        "move",
        {"notation": first},
        channel=thread_id,
        timeout=30,
    )
    one_move = time.perf_counter() - started

    outcomes: dict[str, int] = {"committed": 0, "not committed": 0}
    for i in range(KILLS):
        if bot.proc.returncode is not None:
            await cm.__aexit__(None, None, None)
            cm, bot = await _start(double, env, tmp_path)
            killer.bot = bot
        log = _log(db_path, game_id)
        state = _state(log)
        assert not state.is_over(), "the game ended: raise the loop's move choice"
        # Which moves commit depends on where the kills land, so the game's path differs from
        # run to run: play only moves that keep it going (a 六面体 game can end in 27 moves).
        legal = [m for m in state.legal_moves() if not state.apply(m).is_over()]
        move = state.format_move(legal[i % len(legal)])
        killer.mode, killer.fired = MODES[i % len(MODES)], False
        sending = asyncio.ensure_future(
            double.slash(
                players[state.current_player()], "move", {"notation": move}, channel=thread_id,
                timeout=30, wait="responded",
            )
        )  # fmt: skip
        if killer.mode == "timed":
            # from at once to a little longer than a move takes (a kill point, not a sync)
            await asyncio.sleep(one_move * 1.2 * (i // len(MODES)) / (KILLS // len(MODES)))
            killer.kill()
        await asyncio.wait_for(bot.proc.wait(), 60)
        sending.cancel()
        with contextlib.suppress(asyncio.CancelledError, AssertionError, RuntimeError):
            await sending
        committed = len(_log(db_path, game_id)) > len(log)
        outcomes["committed" if committed else "not committed"] += 1

    # A last start delivers whatever is pending; then every move has exactly one announcement.
    if bot.proc.returncode is not None:
        await cm.__aexit__(None, None, None)
        cm, bot = await _start(double, env, tmp_path)
    killer.bot, killer.mode = None, ""

    def every_move_announced() -> bool:
        # every move's card posted, and only the newest still holding buttons (what follows
        # a post, the previous card's buttons taken off, is redone for a post found after a
        # kill)
        marks = _marks(double, thread_id)
        moved = [a for a in _announced(db_path) if a[3] == "moved"]
        held = [m for m in double.channel_messages(thread_id) if double.buttons(m)]
        return all(_mark(a) in marks for a in moved) and len(held) == 1

    try:
        await double.wait_for(every_move_announced, timeout=60)
    except TimeoutError:
        marks = _marks(double, thread_id)
        held = [double.mark(m) for m in double.channel_messages(thread_id) if double.buttons(m)]
        missing = [a for a in _announced(db_path) if a[3] == "moved" and _mark(a) not in marks]
        raise AssertionError((held, missing, bot.stderr[-3000:])) from None
    bot.proc.send_signal(signal.SIGTERM)
    assert await bot.finish() == 0, bot.stderr
    await cm.__aexit__(None, None, None)

    moved = [a for a in _announced(db_path) if a[3] == "moved"]
    plies = len(_log(db_path, game_id))
    assert len(moved) == plies, (len(moved), plies)
    marks = _marks(double, thread_id)
    doubled = {m for m in marks if marks.count(m) > 1}
    # one card per turn, whatever the kills: only the game's newest card holds buttons
    cards = [m for m in double.channel_messages(thread_id) if double.buttons(m)]
    assert len(cards) == 1, [double.mark(m) for m in cards]
    assert not doubled, f"announcements posted twice: {sorted(doubled)}"
    assert outcomes["committed"] >= 1, outcomes  # the kills did hit committed moves
    assert "Traceback" not in bot.stderr, bot.stderr


def _mark(row: tuple[int, int, int, str, Any]) -> str:
    game_id, version, n, _, _ = row
    return f"#{game_id} · {version}" + (f".{n}" if n else "")
