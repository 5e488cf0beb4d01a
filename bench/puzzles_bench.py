"""Puzzles: mining time per puzzle kept, and ``/puzzle`` answers' latency beside ``/move``'s.

Mining: ``scripts/mine_puzzles.py``'s own loop on two rule sets, bounded (a few seeds, a time
cap), timed per puzzle kept (the data files were mined the same way, longer). Latency: the real
bot against the loopback Discord double, the searches in the process pool as the bot runs them:
p50 / p99 of ``/puzzle`` (a new puzzle with its picture), of a right and of a wrong answer (the
computer's refutation, checked by proof) and of ``/move`` in a 六面体 game. Asserts nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import tempfile
import time
from pathlib import Path

from bench.discord_bench import _as_listed, _new_game
from bench.table import p50_p99, print_rows
from bot.clock import SystemClock
from bot.config import Settings
from bot.discord.client import BanmenBot
from bot.learn import puzzles as data
from bot.learn.puzzles.mining import mine
from bot.service import GameService, ProcessThinker
from tests.discord_double import DiscordDouble, Interaction

ROUNDS = 30
MINE_SECONDS = 30.0
MINE_GAMES = ("rokumentai", "socrates-kokutan")


def mining_rows() -> list[tuple[str, str]]:
    rows = []
    for game in MINE_GAMES:
        seeds = range(1000, 1100)  # not the data files' seeds
        kept, spent = mine(game, [], seeds, 8, MINE_SECONDS, 3, 20_000, (2, 4), 400, 2)
        per = f"{spent / len(kept):.2f} s" if kept else "none kept"
        done = f"{per} ({len(kept)} in {spent:.0f} s)"
        rows.append((f"mining {game}: CPU per puzzle kept", done))
    return rows


def _wrong(puzzle: data.Puzzle) -> str:
    state = puzzle.start()
    return next(
        state.format_move(m)
        for m in state.legal_moves()
        if state.format_move(m) != puzzle.solution[0]
    )


async def _latencies() -> dict[str, list[float]]:
    out: dict[str, list[float]] = {"/puzzle": [], "right": [], "wrong": [], "/move": []}
    async with DiscordDouble() as double:
        folder = tempfile.TemporaryDirectory()
        settings = Settings(
            discord_token=double.token,
            db_path=str(Path(folder.name) / "bench.db"),
            dev_guild_id=str(double.guild_id),
            discord_api_base=double.api_base,
            discord_gateway_url=double.gateway_url,
        )
        thinker = ProcessThinker(settings.ai_workers)
        service = await GameService.open(
            settings.db_path,
            clock=SystemClock(),
            settings=settings,
            thinker=thinker,
            shuffle=_as_listed,
        )
        bot = BanmenBot(service, settings, guild_ready_timeout=0.05)
        task = asyncio.create_task(bot.start(double.token))

        def took(answer: Interaction) -> float:
            return answer.answer.at - answer.sent_at

        try:
            await double.wait_connected()
            await asyncio.wait_for(bot.wait_until_ready(), 10)
            await service.play.warm_up_ai()
            for n in range(ROUNDS):
                game = data.PUZZLE_GAMES[n % len(data.PUZZLE_GAMES)]
                shown = await double.slash(double.alice, "puzzle", {"game": game})
                out["/puzzle"].append(took(shown))
                pid = await service.learn.puzzle_of(str(double.alice.id))
                assert pid is not None
                puzzle = data.by_id()[pid]
                wrong = await double.slash(double.alice, "move", {"notation": _wrong(puzzle)})
                out["wrong"].append(took(wrong))
                right = await double.slash(double.alice, "move", {"notation": puzzle.solution[0]})
                out["right"].append(took(right))
            thread = await _new_game(double)
            players = [double.alice, double.bob]
            turn = 0
            while len(out["/move"]) < ROUNDS:
                user = players[turn % 2]
                typed = await double.autocomplete(
                    user, "move", {"notation": ""}, "notation", channel=thread
                )
                if not typed.choices:
                    thread, turn = await _new_game(double), 0
                    continue
                pick = typed.choices[turn % len(typed.choices)]["value"]
                answer = await double.slash(user, "move", {"notation": pick}, channel=thread)
                if answer.ephemeral:
                    thread, turn = await _new_game(double), 0
                    continue
                out["/move"].append(took(answer))
                turn += 1
        finally:
            await bot.close()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            await service.close()
            folder.cleanup()
    return out


def main() -> None:
    started = time.perf_counter()
    rows = mining_rows()
    latencies = asyncio.run(_latencies())
    names = {
        "/puzzle": "/puzzle (a new one, its picture): p50 / p99",
        "right": "a right answer: p50 / p99",
        "wrong": "a wrong answer and its refutation: p50 / p99",
        "/move": "/move in a game, for comparison: p50 / p99",
    }
    rows += [(names[k], p50_p99(v)) for k, v in latencies.items()]
    note = (
        f"mining: CPU seconds, at most {MINE_SECONDS:.0f} s a rule set; {ROUNDS} answers each, "
        f"real bot against the Discord double; {time.perf_counter() - started:.0f} s in all"
    )
    print_rows("puzzles benchmark", note, rows)


if __name__ == "__main__":
    main()
