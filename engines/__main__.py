"""``python -m engines``: the rules engines from the command line, for people working on rules.

python -m engines list
python -m engines moves GAME ['POSITION'] [--option NAME=VALUE ...] [--players N]
python -m engines play GAME [MOVE ...] [--position 'POSITION'] [--option ...]
python -m engines perft GAME DEPTH [--position 'POSITION'] [--option ...] [--divide]
python -m engines ai GAME ['POSITION'] --level N [--option ...] [--seed S] [--seat N]
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from typing import Any

from engines.core import CHANCE, SIMULTANEOUS, EngineError, Game, State, perft
from engines.registry import all_games, get_game


def _options(pairs: Sequence[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise SystemExit(f"--option wants NAME=VALUE, not {pair!r}")
        out[name.strip()] = value.strip()
    return out


def _start(args: argparse.Namespace) -> tuple[Game[Any], State[Any]]:
    game = get_game(args.game)
    options = _options(args.option)
    position = getattr(args, "position", None)
    if position:
        return game, game.from_position(position, options, args.players)
    return game, game.new_game(args.players, options)


def _actor(state: State[Any], seat: int | None) -> int | None:
    if state.current_player() == SIMULTANEOUS:
        return seat if seat is not None else state.acting_players()[0]
    return None


def cmd_list(_: argparse.Namespace) -> None:
    for game in all_games():
        counts = "/".join(map(str, game.player_counts))
        print(f"{game.id:20} {counts:5} {game.title_ja}  ({game.title_en})")
        for spec in game.options:
            values = "|".join(spec.values)
            print(f"    {spec.name}={values} (default {spec.default}): {spec.help.en}")


def cmd_moves(args: argparse.Namespace) -> None:
    _, state = _start(args)
    if state.current_player() == CHANCE:
        for move, p in state.chance_outcomes():
            print(f"{state.format_move(move)}\t{p}")
        return
    actor = _actor(state, args.seat)
    for move in state.legal_moves(actor):
        print(state.format_move(move))


def cmd_play(args: argparse.Namespace) -> None:
    _, state = _start(args)
    for text in args.moves:
        actor = _actor(state, args.seat)
        move = state.parse_move(text, actor)
        print(f"{state.turns + 1:4}  {state.display_move(move, args.lang)}")
        state = state.apply(move, actor)
    print(state.position())
    outcome = state.outcome()
    if outcome is None:
        p = state.current_player()
        who = "chance" if p == CHANCE else "setup" if p == SIMULTANEOUS else str(p)
        print(f"to move: {who}; {len(state.legal_moves(_actor(state, args.seat)))} legal moves")
    else:
        print(outcome.text.get(args.lang))


def cmd_perft(args: argparse.Namespace) -> None:
    _, state = _start(args)
    if args.divide and args.depth > 0 and state.current_player() >= 0:
        total = 0
        for move in state.legal_moves():
            n = perft(state.apply(move), args.depth - 1)
            total += n
            print(f"{state.format_move(move)}\t{n}")
        print(f"total\t{total}")
    else:
        print(perft(state, args.depth))


def cmd_ai(args: argparse.Namespace) -> None:
    from engines.ai import analyse, choose_move

    _, state = _start(args)
    p = state.current_player()
    if p == CHANCE or state.is_over():
        raise SystemExit("error: nobody is to move here (a chance step or a finished game)")
    seat = _actor(state, args.seat) if p == SIMULTANEOUS else p
    assert seat is not None
    rng = random.Random(args.seed)
    scale, nodes = args.budget_scale, args.max_nodes
    if p == SIMULTANEOUS:
        move = choose_move(state, seat, args.level, rng, budget_scale=scale, max_nodes=nodes)
    else:
        result = analyse(state, seat, args.level, rng, budget_scale=scale, max_nodes=nodes)
        move = result.move
        print(f"depth {result.depth}, {result.nodes} nodes, score {result.score:g}")
    print(state.format_move(move))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engines", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="list the games and their options").set_defaults(fn=cmd_list)

    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument("game")
        p.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE")
        p.add_argument("--players", type=int, default=None)
        p.add_argument("--seat", type=int, default=None, help="acting seat at a secret step")
        p.add_argument("--lang", default="en", choices=["en", "ja"])

    p = sub.add_parser("moves", help="legal moves of a position, one per line")
    common(p)
    p.add_argument("position", nargs="?", default=None)
    p.set_defaults(fn=cmd_moves)

    p = sub.add_parser("play", help="apply moves and print the position and outcome")
    common(p)
    p.add_argument("moves", nargs="*")
    p.add_argument("--position", default=None)
    p.set_defaults(fn=cmd_play)

    p = sub.add_parser("perft", help="count move sequences to a depth")
    common(p)
    p.add_argument("depth", type=int)
    p.add_argument("--position", default=None)
    p.add_argument("--divide", action="store_true")
    p.set_defaults(fn=cmd_perft)

    p = sub.add_parser("ai", help="the computer's move in a position (last line: the move)")
    common(p)
    p.add_argument("position", nargs="?", default=None)
    p.add_argument("--level", type=int, default=4, choices=range(1, 9), metavar="1-8")
    p.add_argument("--seed", default="0", help="seed of the AI's random choices")
    p.add_argument("--budget-scale", type=float, default=1.0, help="scale the level's time")
    p.add_argument(
        "--max-nodes", type=int, default=None, help="stop after N nodes (the same on any machine)"
    )
    p.set_defaults(fn=cmd_ai)

    args = parser.parse_args(argv)
    try:
        args.fn(args)
    except EngineError as exc:
        print(f"error: {exc.text.get(getattr(args, 'lang', 'en'))}", file=sys.stderr)
        if exc.suggestions:
            print("closest legal: " + ", ".join(exc.suggestions), file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
