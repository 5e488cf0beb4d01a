"""Mine puzzles from computer self-play: ``python scripts/mine_puzzles.py GAME [options]``.

Runs :func:`bot.learn.puzzles.mining.mine` from seed ``--first-seed`` on and writes one JSON
object a line to ``bot/learn/puzzles/<game>.jsonl`` (``--append``: after the file's own; see
docs/puzzles.md); prints the time spent per puzzle kept. Reproducible: the same seeds and
options give the same puzzles (the computer counts nodes, not seconds), unless the time cap
(``--seconds``, CPU time) ends the run first. Run it niced: ``nice -n 19``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from bot.learn.puzzles.mining import DEFAULT_PLIES, mine, theme
from engines.registry import get_game

OUT = Path(__file__).resolve().parent.parent / "bot" / "learn" / "puzzles"


def refreshed_theme(row: dict[str, Any]) -> str:
    """The theme :func:`theme` gives the row's position and solution today."""
    state = get_game(row["game"]).from_position(row["position"], None, row["players"])
    line = []
    at = state
    for text in row["solution"]:
        move = at.parse_move(text)
        line.append(move)
        at = at.apply(move)
    return theme(state, line)


def merged(kept: list[dict[str, Any]], files: list[Path], game: str) -> list[dict[str, Any]]:
    """``kept`` and the puzzles of ``files`` at positions not yet kept, numbered on."""
    seen = {row["position"] for row in kept}
    out = list(kept)
    for path in files:
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line) if line.strip() else None
            if row is not None and row["position"] not in seen:
                seen.add(row["position"])
                out.append(row | {"id": f"{game}-{len(out) + 1:03d}"})
    return out


def save(out: Path, rows: list[dict[str, Any]]) -> None:
    """Write the file whole (a new file moved over the old one: never half written)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    part = out.with_suffix(".part")
    part.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    part.replace(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--seeds", type=int, default=1000)
    parser.add_argument("--target", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=240.0, help="CPU seconds at most")
    parser.add_argument("--plies", type=int, default=None)
    parser.add_argument("--node-cap", type=int, default=20_000)
    parser.add_argument("--ai-nodes", type=int, default=400)
    parser.add_argument("--levels", default="2-4")
    parser.add_argument("--per-game", type=int, default=2, help="puzzles kept from one game")
    parser.add_argument("--out", type=Path, default=None, help="the file (default: the package's)")
    parser.add_argument("--append", action="store_true", help="keep the file's puzzles, add more")
    parser.add_argument(
        "--refresh", action="store_true", help="only recompute the file's themes, mine nothing"
    )
    parser.add_argument(
        "--merge",
        type=Path,
        nargs="+",
        default=(),
        help="only add these files' puzzles (other runs' --out) to the file, mine nothing",
    )
    args = parser.parse_args(argv)
    lo, hi = (int(x) for x in args.levels.split("-"))
    plies = args.plies or DEFAULT_PLIES.get(args.game, 3)
    seeds = range(args.first_seed, args.first_seed + args.seeds)
    out = args.out or OUT / f"{args.game}.jsonl"
    kept: list[dict[str, Any]] = []
    if (args.append or args.refresh or args.merge) and out.is_file():
        kept = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines() if line]
    if args.merge:
        save(out, merged(kept, args.merge, args.game))
        return 0
    if args.refresh:
        for row in kept:
            row["theme"] = refreshed_theme(row)
        save(out, kept)
        return 0
    before = len(kept)
    kept, spent = mine(
        args.game,
        kept,
        seeds,
        args.target,
        args.seconds,
        plies,
        args.node_cap,
        (lo, hi),
        args.ai_nodes,
        args.per_game,
        lambda line: print(line, flush=True),
        on_kept=lambda rows: save(out, rows),
    )
    save(out, kept)
    new = len(kept) - before
    per = spent / new if new else float("inf")
    print(f"{args.game}: {new} puzzles kept in {spent:.1f} CPU s ({per:.2f} s per puzzle kept)")
    return 0 if kept else 1


if __name__ == "__main__":
    sys.exit(main())
