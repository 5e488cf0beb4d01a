"""Discord adapter latency: from an interaction arriving at the Discord double to the bot's answer.

The real bot (discord.py, the service, SQLite in a temporary folder, the real renderer) plays
六面体 games against the loopback double. For ``/move`` (whose answer carries the board image)
it prints p50 / p99 of the time to the first response (what Discord's 3-second rule measures) and
to the complete answer; the same for legal-move autocomplete. Goal: p99 under 500 ms.
"""

from __future__ import annotations

import asyncio
import contextlib
import statistics
import tempfile
import time
from pathlib import Path

from bot.clock import SystemClock
from bot.config import Settings
from bot.discord.client import BanmenBot
from bot.service import GameService
from tests.discord_double import DiscordDouble, Interaction

MOVES = 120


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def _new_game(double: DiscordDouble) -> int:
    challenge = await double.slash(double.alice, "play", {"rokumentai": {"opponent": double.bob}})
    assert challenge.message is not None
    before = {t["id"] for t in double.threads()}
    await double.click(double.bob, challenge.message, double.buttons(challenge.message)["Accept"])
    threads = await double.wait_for(lambda: [t for t in double.threads() if t["id"] not in before])
    return int(threads[0]["id"])


async def _run(moves: int) -> tuple[list[Interaction], list[Interaction]]:
    async with DiscordDouble() as double:
        folder = tempfile.TemporaryDirectory()
        settings = Settings(
            discord_token=double.token,
            db_path=str(Path(folder.name) / "bench.db"),
            dev_guild_id=str(double.guild_id),
            discord_api_base=double.api_base,
            discord_gateway_url=double.gateway_url,
        )
        service = await GameService.open(settings.db_path, clock=SystemClock(), settings=settings)
        bot = BanmenBot(service, settings, guild_ready_timeout=0.05)
        task = asyncio.create_task(bot.start(double.token))
        move_answers: list[Interaction] = []
        completions: list[Interaction] = []
        try:
            await double.wait_connected()
            await asyncio.wait_for(bot.wait_until_ready(), 10)
            thread = await _new_game(double)
            players = [double.alice, double.bob]
            turn = 0
            while len(move_answers) < moves:
                user = players[turn % 2]
                typed = await double.autocomplete(
                    user, "move", {"move": ""}, "move", channel=thread
                )
                completions.append(typed)
                if not typed.choices:  # the game ended: start another
                    thread = await _new_game(double)
                    turn = 0
                    continue
                pick = typed.choices[len(move_answers) % len(typed.choices)]["value"]
                answer = await double.slash(user, "move", {"move": pick}, channel=thread)
                if answer.ephemeral:
                    thread = await _new_game(double)
                    turn = 0
                    continue
                move_answers.append(answer)
                turn += 1
        finally:
            await bot.close()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            await service.close()
            folder.cleanup()
    return move_answers, completions


def _row(name: str, values: list[float]) -> str:
    ms = [v * 1000 for v in values]
    return (
        f"{name:<34} {len(ms):>5} {statistics.median(ms):>9.1f} {_pct(ms, 0.99):>9.1f} "
        f"{max(ms):>9.1f}"
    )


def main() -> None:
    started = time.perf_counter()
    answers, completions = asyncio.run(_run(MOVES))
    first = [a.response_time for a in answers]
    done = [a.answer.at - a.sent_at for a in answers]
    images = sum(1 for a in answers if any(f.data[:4] == b"\x89PNG" for f in a.files))
    print("Discord adapter (real discord.py against the loopback double; milliseconds)")
    print(f"{'':<34} {'n':>5} {'p50':>9} {'p99':>9} {'max':>9}")
    print(_row("/move: first response", first))
    print(_row("/move: answer with the board image", done))
    print(_row("autocomplete of /move", [c.response_time for c in completions]))
    print(
        f"({images} of {len(answers)} answers carried a PNG; {time.perf_counter() - started:.1f} s)"
    )


if __name__ == "__main__":
    main()
