"""Play the computer's self-play corpus: ``python scripts/self_play.py GAME [options]``.

Runs :func:`bot.learn.corpus.selfplay.play` from seed ``--first-seed`` on (after the file's own
last seed with ``--append``) and writes one JSON object a line to
``bot/learn/corpus/<game>.jsonl`` (docs/explorer.md), saved after each game (a new file moved
over the old one: never half written), so a run stopped early keeps what it played.
Reproducible: the same seed gives the same game on any machine (the computer counts nodes, not
seconds). Run it niced: ``nice -n 19``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from bot.learn.corpus import HERE, path_of
from bot.learn.corpus.selfplay import play_many
from engines.registry import get_game


def save(out: Path, rows: list[dict[str, Any]]) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    part = out.with_suffix(".part")
    part.write_text(
        "".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n" for r in rows),
        "utf-8",
    )
    part.replace(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--games", type=int, default=50, help="seeds to play at most")
    parser.add_argument("--seconds", type=float, default=600.0, help="CPU seconds at most")
    parser.add_argument("--folder", type=Path, default=HERE, help="where the files are")
    parser.add_argument("--append", action="store_true", help="keep the file's games, add more")
    args = parser.parse_args(argv)
    game_id = get_game(args.game).id
    out = path_of(game_id, args.folder)
    rows: list[dict[str, Any]] = []
    first = args.first_seed
    if args.append and out.exists():
        rows = [json.loads(x) for x in out.read_text("utf-8").splitlines() if x.strip()]
        first = max([first, *(r["seed"] + 1 for r in rows)])

    def report(row: dict[str, Any]) -> None:
        rows.append(row)
        save(out, rows)
        print(f"{game_id} seed {row['seed']}: {row['plies']} plies, {row['end']}", flush=True)

    played = play_many(game_id, range(first, first + args.games), args.seconds, report)
    print(f"{game_id}: {len(played)} games played, {len(rows)} in {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
