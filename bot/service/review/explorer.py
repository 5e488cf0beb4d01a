"""The opening explorer (issue 50, docs/explorer.md): from a position, the moves played next
in Banmen's finished games, with their counts and what followed. An index lookup of one
position's moves (the ``explorer`` table), never a scan over games."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot import i18n
from bot.learn import corpus, moved_cells
from bot.model import ExplorerCount
from bot.service import present
from bot.service.actions import Action, Button
from bot.service.context import Context
from bot.service.explored import NO_EXPLORER, explorer_counts
from bot.service.values import Event, Line, Refusal, Reply
from engines.core import CHANCE, SIMULTANEOUS, EngineError, State, Text
from engines.explore import position_key, setup_key
from engines.registry import get_game
from render.base import Marks

MARKED = 3
"""The most played moves numbered on the picture (the table's ranks)."""
MAX_PLIES = 200
"""The longest move sequence an explorer position is given by."""


@dataclass(frozen=True, slots=True)
class Explored:
    """A position of the explorer: where it is, the keys it is looked up by and its moves."""

    game_type: str
    state: State[Any]
    moves: tuple[str, ...]
    setup: bool
    counts: tuple[ExplorerCount, ...]

    @property
    def total(self) -> int:
        return sum(c.games for c in self.counts)


def walk_to(game_type: str, text: str) -> tuple[State[Any], tuple[str, ...]]:
    """The position after the moves ``text`` (space-separated, as the game writes them) from
    the start; a bad game or move is refused with the engine's reason, nothing else done."""
    try:
        game = get_game(game_type)
    except EngineError as exc:
        raise Refusal("refuse.unknown_game_type", reason=exc.text) from exc
    if game.id in NO_EXPLORER:
        raise Refusal("refuse.no_explorer", game=Text(game.title_en, game.title_ja))
    state: State[Any] = game.new_game()
    done: list[str] = []
    words = text.split()
    if len(words) > MAX_PLIES:
        raise Refusal("refuse.explore_too_long", limit=MAX_PLIES)
    for word in words:
        if state.is_over():
            raise Refusal("refuse.explore_over", move=word)
        if state.current_player() == CHANCE:
            raise Refusal("refuse.explore_chance", move=word)
        seat = state.acting_players()[0]
        try:
            move = state.parse_move(word, seat)
        except EngineError as exc:
            raise Refusal("refuse.bad_move", reason=exc.text) from exc
        done.append(state.format_move(move))
        state = state.apply(move, seat)
    return state, tuple(done)


async def computer_counts(game_id: str) -> dict[int, tuple[ExplorerCount, ...]]:
    """The computer's self-play corpus of ``game_id`` tallied: once a process, in a thread
    (its first tally takes a few hundred milliseconds of CPU: not on the event loop)."""
    return await asyncio.to_thread(corpus.counts, game_id)


class Explorer:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    async def rebuild(self, batch: int = 500) -> int:
        """Recompute every count from the finished games' move logs and replace the table in
        one transaction; the number of games read."""
        merged: dict[tuple[str, int, str, str, bool], ExplorerCount] = {}
        after, read = 0, 0
        while ids := await self.ctx.store.finished_games(after, batch):
            after = ids[-1]
            records = await self.ctx.store.load_records(ids)
            for row, entries in records.values():
                read += 1
                for c in explorer_counts(row, entries):
                    key = (c.game_type, c.position, c.move, c.scope, c.rated)
                    old = merged.get(key)
                    merged[key] = c if old is None else _added(old, c)
        await self.ctx.store.replace_explorer(list(merged.values()))
        return read

    async def position(
        self, game_type: str, moves: str, scope: str, rated: bool, computer: bool = False
    ) -> Explored:
        """The explorer's position after ``moves`` in the pool ``scope`` (``""``: every server,
        else a guild id), rated games only when ``rated``; from the computer's self-play corpus
        instead when ``computer`` (shipped data, :mod:`bot.learn.corpus`)."""
        state, done = walk_to(game_type, moves)
        game_id = get_game(game_type).id
        setup = state.hides_moves()
        if setup:
            key = setup_key(game_id, state.acting_players()[0])
        else:
            key = position_key(game_id, state)
        if computer:
            counted = await computer_counts(game_id)
            return Explored(game_id, state, done, setup, counted.get(key, ()))
        counts = await self.ctx.store.explorer(game_id, [key], scope, rated)
        return Explored(game_id, state, done, setup, tuple(counts))

    async def at(self, state: State[Any]) -> Explored:
        """The explorer's counts for ``state`` itself (every server's games, rated or not):
        for a board reached by any path, such as the analysis board's (a transposition meets
        its counts). A position with anything hidden has none."""
        game_id = state.game.id
        if state.hides_moves() or state.observe(None) is not state:
            return Explored(game_id, state, (), False, ())
        counts = await self.ctx.store.explorer(game_id, [position_key(game_id, state)], "", False)
        return Explored(game_id, state, (), False, tuple(counts))

    async def picture(self, ex: Explored) -> tuple[bytes | None, Text | None]:
        """The position with its most played moves numbered as the table ranks them, and the
        position in words."""
        shown = ex.counts[:MARKED]
        labels: list[tuple[int, str]] = []
        for rank, c in enumerate(shown, 1):
            cells = () if ex.setup else moved_cells(ex.state.parse_move(c.move, _mover(ex)))
            if cells:
                labels.append((cells[-1], str(rank)))
        marks = Marks(
            moved=moved_cells(ex.state.parse_move(shown[0].move, _mover(ex))) if labels else (),
            labels=tuple(labels),
        )
        image = await self.ctx.pictures.draw(None, ex.state, None, None, marks=marks)
        return image, present.alt_text(ex.state, None, None) if image is not None else None

    async def step(self, arg: str, guild_id: str | None) -> Reply:
        """The explorer at the position a step button names (see :func:`step_arg`)."""
        game_type, pool, rated, path = read_step(arg)
        state = walk_to(game_type, "")[0]
        moves: list[str] = []
        for index in path:
            legal = state.legal_moves() if not state.is_over() else []
            if state.current_player() == CHANCE or index >= len(legal):
                raise Refusal("refuse.button_argument")
            moves.append(state.format_move(legal[index]))
            state = state.apply(legal[index])
        scope = guild_id if pool == "server" else None
        return await self.explore(
            game_type, " ".join(moves), scope, rated=rated, computer=pool == "computer"
        )

    async def explore(
        self,
        game_type: str,
        moves: str = "",
        guild_id: str | None = None,
        *,
        rated: bool = False,
        computer: bool = False,
    ) -> Reply:
        """The moves played from the position after ``moves``, most played first (private),
        with a button to step into each of the most played and one back; from the computer's
        self-play at levels 6-8 when ``computer`` (then neither ``guild_id`` nor ``rated``
        applies), and a pointer to it when Banmen's games have nothing here."""
        rated = rated and not computer
        guild_id = None if computer else guild_id
        ex = await self.position(game_type, moves, guild_id or "", rated, computer)
        game = get_game(ex.game_type)
        lines = tuple(_line(ex, rank, c) for rank, c in enumerate(ex.counts, 1))
        if not ex.counts and not computer:
            elsewhere = (await computer_counts(ex.game_type)).get(_key(ex), ())
            if elsewhere:
                games = sum(c.games for c in elsewhere)
                lines = (Line("explore.try_computer", {"games": games}),)
        image, alt = await self.picture(ex)
        pool = "explore.pool_server" if guild_id else "explore.pool_global"
        return Reply(
            "explore.show" if ex.counts else "explore.empty",
            params={
                "game": Text(game.title_en, game.title_ja),
                "moves": " ".join(ex.moves) or "—",
                "games": ex.total,
                "pool": (
                    i18n.text("explore.pool_computer", games=corpus.size(ex.game_type))
                    if computer
                    else i18n.text(pool)
                ),
                "rated": i18n.text("explore.rated" if rated else "explore.all"),
                "table": i18n.text("explore.setups" if ex.setup else "explore.tree"),
            },
            event=Event.EXPLORE,
            public=False,
            lines=lines,
            image=image,
            image_alt=alt,
            actions=step_buttons(ex, pool=_pool(guild_id is not None, computer), rated=rated),
        )


STEP_ARG_MAX = 60
"""The longest step argument a button carries (deeper, the position is typed: ``/explore``)."""


POOLS = {"server": "s", "global": "g", "computer": "c"}
"""A pool's letter in a step button's argument: this server's games, every server's, or the
computer's self-play."""


def _pool(server: bool, computer: bool) -> str:
    return "computer" if computer else "server" if server else "global"


def _key(ex: Explored) -> int:
    if ex.setup:
        return setup_key(ex.game_type, ex.state.acting_players()[0])
    return position_key(ex.game_type, ex.state)


def step_arg(game_type: str, pool: str, rated: bool, path: Sequence[int]) -> str | None:
    """A step button's argument: the game, the pool (:data:`POOLS`) and the path from the
    start (each move's place among the legal moves, base 36); None when it would be too long
    for a button."""
    steps = ".".join(_base36(i) for i in path)
    arg = f"{game_type}|{POOLS[pool]}{int(rated)}|{steps}"
    return arg if len(arg) <= STEP_ARG_MAX and all(i < 36**3 for i in path) else None


def read_step(arg: str) -> tuple[str, str, bool, list[int]]:
    """:func:`step_arg`'s parts back: the game, the pool's name, rated only, the path."""
    game_type, pool, steps = arg.split("|")
    path = [int(s, 36) for s in steps.split(".")] if steps else []
    name = next(k for k, v in POOLS.items() if v == pool[0])
    return game_type, name, pool[1] == "1", path


def _base36(n: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        n, r = divmod(n, 36)
        out = digits[r] + out
        if n == 0:
            return out


def path_of(state: State[Any], moves: Sequence[str]) -> list[int] | None:
    """Each of ``moves`` (as the game writes them, from ``state``) as its place among the legal
    moves there; None when one is not found, or a step is chance or a secret setup (数字将棋's
    explorer is typed, not stepped, past its setups)."""
    path: list[int] = []
    for text in moves:
        if state.is_over() or state.current_player() in (CHANCE, SIMULTANEOUS):
            return None
        legal = state.legal_moves()
        shown = [state.format_move(m) for m in legal]
        if text not in shown:
            return None
        path.append(shown.index(text))
        state = state.apply(legal[path[-1]])
    return path


def step_buttons(ex: Explored, *, pool: str, rated: bool) -> tuple[Button, ...]:
    """A button into each of the most played moves (numbered as the picture marks them) and one
    back to the position before, where a button can name the position."""
    if ex.setup:
        return ()
    path = path_of(get_game(ex.game_type).new_game(), ex.moves)
    if path is None:
        return ()
    out: list[Button] = []
    for rank, c in enumerate(ex.counts[:MARKED], 1):
        into = path_of(ex.state, [c.move])
        arg = step_arg(ex.game_type, pool, rated, [*path, *into]) if into else None
        if arg is not None:
            label = f"{rank}. {c.move}"[:80]
            out.append(Button(Action.EXPLORE_STEP, arg, Text(label, label)))
    if path:
        back = step_arg(ex.game_type, pool, rated, path[:-1])
        if back is not None:
            out.append(Button(Action.EXPLORE_STEP, back, i18n.text("explore.back")))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class WebExplorer:
    """The explorer as the site shows it (every server's finished games): a position is its
    address, its moves in order."""

    game: str
    title: Text
    moves: tuple[str, ...]
    """The moves from the start to here (canonical notation, for the addresses)."""
    shown: tuple[Text, ...]
    """The same moves as the game writes them."""
    rated: bool
    computer: bool
    """From the computer's self-play corpus rather than Banmen's games."""
    games: int
    rows: tuple[tuple[str, Text, Text], ...]
    """Each move played from here: its notation (to step into it), as written, and its line."""
    described: Text


async def web_explorer(
    explorer: Explorer, game_type: str, moves: Sequence[str], rated: bool, computer: bool = False
) -> WebExplorer:
    """The site's explorer page at the position after ``moves`` (from the computer's
    self-play when ``computer``)."""
    rated = rated and not computer
    ex = await explorer.position(game_type, " ".join(moves), "", rated, computer)
    game = get_game(ex.game_type)
    state: State[Any] = game.new_game()
    shown: list[Text] = []
    for text_move in ex.moves:
        seat = state.acting_players()[0]
        move = state.parse_move(text_move, seat)
        shown.append(present.display(state, move))
        state = state.apply(move, seat)
    rows = []
    for rank, c in enumerate(ex.counts, 1):
        said = _line(ex, rank, c)
        written: Text | str = c.move
        if not ex.setup:
            written = present.shown_move(ex.state, c.move, _mover(ex))
        rows.append(
            (
                c.move,
                written if isinstance(written, Text) else Text(written, written),
                i18n.text(said.key, **said.params),
            )
        )
    return WebExplorer(
        game=ex.game_type,
        title=Text(game.title_en, game.title_ja),
        moves=ex.moves,
        shown=tuple(shown),
        rated=rated,
        computer=computer,
        games=ex.total,
        rows=tuple(rows),
        described=present.alt_text(ex.state, None, None) or Text(game.title_en, game.title_ja),
    )


def explored_lines(ex: Explored, most: int = MARKED) -> tuple[Line, ...]:
    """The ``most`` most played moves of ``ex`` as the explorer lists them, under a heading
    (none: nobody has played on from here)."""
    if not ex.counts:
        return (Line("explore.none_here"),)
    head = Line("explore.here", {"games": ex.total})
    return (head, *(_line(ex, rank, c) for rank, c in enumerate(ex.counts[:most], 1)))


def _mover(ex: Explored) -> int | None:
    acting = ex.state.acting_players()
    return acting[0] if acting else None


def _line(ex: Explored, rank: int, c: ExplorerCount) -> Line:
    share = round(100 * c.games / ex.total) if ex.total else 0
    players = ex.state.num_players
    if players > 2:
        return Line(
            "explore.move_seats",
            {
                "rank": rank,
                "move": c.move,
                "games": c.games,
                "share": share,
                "draws": c.draws,
                "w0": c.wins[0],
                "w1": c.wins[1],
                "w2": c.wins[2],
            },
        )
    mover = ex.state.acting_players()[0] if ex.state.acting_players() else 0
    wins = c.wins[mover]
    return Line(
        "explore.move",
        {
            "rank": rank,
            "move": c.move,
            "games": c.games,
            "share": share,
            "wins": wins,
            "draws": c.draws,
            "losses": c.games - wins - c.draws,
        },
    )


def _added(a: ExplorerCount, b: ExplorerCount) -> ExplorerCount:
    wins = (a.wins[0] + b.wins[0], a.wins[1] + b.wins[1], a.wins[2] + b.wins[2])
    return replace(a, games=a.games + b.games, draws=a.draws + b.draws, wins=wins)
