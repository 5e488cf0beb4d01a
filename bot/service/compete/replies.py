"""What tournaments show: the sign-up message, a round's boards, the standings with their
tie-breaks and the crosstable picture (drawn by :mod:`render.crosstable`)."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime

from bot.i18n import text
from bot.model import BoardRow, TournamentRow, TournamentStatus
from bot.service import present
from bot.service.actions import Action, Button
from bot.service.cache import MAX_GAME_ID
from bot.service.context import Context
from bot.service.values import Event, Line, Refusal, Reply, ai_name
from bot.tournament import TIEBREAKS, Format, Played, Standing, standings
from engines.core import Text
from engines.registry import get_game
from render.crosstable import CrossRow, render_crosstable
from render.describe import DISCORD_LIMIT

AI_ID = re.compile(r"@ai:(?P<level>[1-8])(?:/(?P<n>[0-9]{1,3}))?")
"""A computer player's id in a tournament: ``@ai:3`` (and ``@ai:3/2`` for a second one)."""


def ai_level(player_id: str) -> int | None:
    match = AI_ID.fullmatch(player_id)
    return int(match["level"]) if match else None


def ai_entrant(player_id: str) -> str:
    """A computer player's name in a tournament (``Banmen AI Lv.3``, ``… #2``)."""
    match = AI_ID.fullmatch(player_id)
    assert match is not None
    return ai_name(int(match["level"])) + (f" #{match['n']}" if match["n"] else "")


def played(boards: Sequence[BoardRow]) -> list[Played]:
    """The results so far, as the pairing and the standings read them."""
    return [
        Played(b.round, b.players, b.result.points, b.result.ranks, b.result.forfeit)
        for b in boards
        if b.result is not None
    ]


class TournamentReplies:
    """The messages of tournaments, read from the store."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    async def load(self, tournament_id: int) -> TournamentRow:
        if not 0 < tournament_id < MAX_GAME_ID:  # no store holds it: there is no such one
            raise Refusal("refuse.tournament_unknown", id=tournament_id)
        row = await self.ctx.store.tournament(tournament_id)
        if row is None:
            raise Refusal("refuse.tournament_unknown", id=tournament_id)
        return row

    async def signup_reply(self, t: TournamentRow, key: str = "tournament.signup") -> Reply:
        """The sign-up message: the event, who is in, and the buttons."""
        entrants = await self.ctx.store.entrants(t.id)
        buttons: tuple[Button, ...] = ()
        if t.status is TournamentStatus.SIGNUP:
            # on the tournament the reply names (``params["tournament"]``): no argument
            buttons = tuple(
                Button(a)
                for a in (Action.TOURNAMENT_JOIN, Action.TOURNAMENT_LEAVE, Action.TOURNAMENT_START)
            )
        params = about(t)
        fmt = Format(t.new.format)
        if fmt.is_round_robin and not t.new.rounds:  # not started: as many as the field now
            n = len(entrants)
            per_cycle = n - 1 + n % 2
            params["rounds"] = per_cycle * (2 if fmt is Format.DOUBLE_ROUND_ROBIN else 1)
        lines: tuple[Line, ...] = ()
        if t.status is TournamentStatus.SIGNUP and t.new.signup_until_ms is not None:
            until = datetime.fromtimestamp(t.new.signup_until_ms / 1000, UTC)
            lines = (Line("tournament.signup_until", {"until": until}),)
        elif t.status is TournamentStatus.SIGNUP:
            lines = (Line("tournament.signup_open", {"tournament": t.id}),)
        return Reply(
            key,
            {
                **params,
                "count": len(entrants),
                "max": t.new.max_players,
                "players": ", ".join(e.name for e in entrants) or "-",
                "message": t.message_id or "",
            },
            event=Event.TOURNAMENT_SIGNUP,
            actions=buttons,
            deadline=None,
            lines=lines,
        )

    async def started_reply(self, t: TournamentRow, rounds: int | None) -> Reply:
        """The sign-up message of ``t`` as it reads once its first round is written (with
        ``rounds`` in all, when the start fixes them), before that is stored."""
        new = t.new if rounds is None else replace(t.new, rounds=rounds)
        running = replace(t, new=new, status=TournamentStatus.RUNNING, round=1)
        return await self.signup_reply(running, "tournament.started")

    async def round_reply(self, t: TournamentRow, boards: Sequence[BoardRow]) -> Reply:
        names = {e.user_id: e.name for e in await self.ctx.store.entrants(t.id)}
        lines = tuple(
            Line(
                "tournament.board" if len(b.players) > 1 else "tournament.bye",
                {
                    "board": b.board,
                    "players": " – ".join(names.get(p, p) for p in b.players),
                    "game_id": b.game_id or "-",
                    "link": f"#{b.game_id}" if b.game_id else "-",
                },
            )
            for b in boards
        )
        return Reply(
            "tournament.round",
            {**about(t), "round": t.round, "rounds": t.new.rounds},
            event=Event.TOURNAMENT_ROUND,
            lines=lines,
            notify=tuple(p for b in boards for p in b.players if ai_level(p) is None),
        )

    async def table(
        self, t: TournamentRow
    ) -> tuple[list[Standing], dict[str, str], list[BoardRow]]:
        entrants = await self.ctx.store.entrants(t.id)
        boards = await self.ctx.store.boards(t.id)
        names = {
            e.user_id: e.name + (" ✗" if e.withdrawn_round is not None else "") for e in entrants
        }
        lines = standings(Format(t.new.format), [e.user_id for e in entrants], played(boards))
        return lines, names, boards

    async def standings(self, t: TournamentRow) -> Reply:
        """The standings with their tie-breaks (and the crosstable picture)."""
        return await self._standings_reply(t, "tournament.standings", Event.TOURNAMENT_STANDINGS)

    async def final_reply(self, t: TournamentRow) -> Reply:
        return await self._standings_reply(t, "tournament.ended", Event.TOURNAMENT_ENDED)

    async def _standings_reply(self, t: TournamentRow, key: str, event: Event) -> Reply:
        lines, names, boards = await self.table(t)
        fmt = Format(t.new.format)
        tb = TIEBREAKS[fmt]
        shown = tuple(
            Line(
                "tournament.line",
                {
                    "rank": s.rank,
                    "name": names.get(s.player, s.player),
                    "points": points_text(s.points),
                    "tiebreaks": " / ".join(points_text(v) for v in s.tiebreaks),
                },
            )
            for s in lines
        )
        winners = [names.get(s.player, s.player) for s in lines if s.rank == 1]
        image = alt = None
        if self.ctx.pictures.enabled:
            rows = cross_rows(lines, names, boards)
            image = await asyncio.to_thread(crosstable_png, t, rows)
            alt = crosstable_words(t, rows)
        return Reply(
            key,
            {
                **about(t),
                "round": t.round,
                "winners": ", ".join(winners) if lines else "-",
                "tiebreak_names": Text(
                    " / ".join(TIEBREAK_NAMES[n].en for n in tb),
                    " / ".join(TIEBREAK_NAMES[n].ja for n in tb),
                ),
            },
            event=event,
            lines=shown,
            image=image,
            image_alt=alt,
        )


TIEBREAK_NAMES: dict[str, Text] = {
    "sb": text("tournament.tiebreak.sb"),
    "wins": text("tournament.tiebreak.wins"),
    "buchholz": text("tournament.tiebreak.buchholz"),
    "median": text("tournament.tiebreak.median"),
    "placement": text("tournament.tiebreak.placement"),
    "mates": text("tournament.tiebreak.mates"),
}


def points_text(value: float) -> str:
    """``2½``, ``0``, ``1⅓``: points as a crosstable writes them."""
    whole = int(value)
    rest = round(value - whole, 3)
    frac = {0.5: "½", 0.333: "⅓", 0.667: "⅔", 0.25: "¼", 0.75: "¾"}.get(rest)
    if rest == 0:
        return str(whole)
    if frac is None:
        return f"{value:g}"
    return frac if whole == 0 else f"{whole}{frac}"


FORMAT_NAMES: dict[Format, Text] = {
    Format.ROUND_ROBIN: text("tournament.format.round_robin"),
    Format.DOUBLE_ROUND_ROBIN: text("tournament.format.double_round_robin"),
    Format.SWISS: text("tournament.format.swiss"),
    Format.TABLES: text("tournament.format.tables"),
}


def about(t: TournamentRow) -> dict[str, object]:
    """What every tournament message names."""
    game = get_game(t.new.game_type)
    return {
        "tournament": t.id,
        "name": t.new.name,
        "game": present.title(game),
        "format": FORMAT_NAMES[Format(t.new.format)],
        "clock": t.new.clock,
        "rounds": t.new.rounds or "-",
        "rated": text("tournament.rated" if t.new.rated else "tournament.casual"),
        "guild": t.new.guild_id,
        "channel": t.new.channel_id,
    }


SEAT_MARKS = {2: "■□", 3: "①②③"}
"""How a crosstable cell shows the seat a result was played from (first seat: ■ / ①)."""


def cross_rows(
    lines: Sequence[Standing], names: Mapping[str, str], boards: Sequence[BoardRow]
) -> list[CrossRow]:
    """The crosstable: a row per player in standing order, a column per opponent, each cell
    the points scored against them and the seat played from."""
    order = {s.player: i for i, s in enumerate(lines)}
    rows: list[CrossRow] = []
    for s in lines:
        cells: dict[int, list[str]] = {}
        for b in boards:
            if s.player not in b.players or b.result is None or len(b.players) == 1:
                continue
            seat = b.players.index(s.player)
            mark = points_text(b.result.points[seat])
            mark += "-" if b.result.forfeit else SEAT_MARKS[len(b.players)][seat]
            for q in b.players:
                if q != s.player and q in order:
                    cells.setdefault(order[q], []).append(mark)
        rows.append(
            CrossRow(
                s.rank,
                names.get(s.player, s.player),
                points_text(s.points),
                {k: " ".join(v) for k, v in cells.items()},
            )
        )
    return rows


def crosstable_png(t: TournamentRow, rows: Sequence[CrossRow]) -> bytes:
    player, points = text("tournament.crosstable.player"), text("tournament.crosstable.points")
    return render_crosstable(
        t.new.name, rows, player=f"{player.en} {player.ja}", points=f"{points.en} {points.ja}"
    )


def crosstable_words(t: TournamentRow, rows: Sequence[CrossRow]) -> Text:
    """The crosstable in words, its alt text: each player's rank, name and points, then what
    they scored against each opponent (``1. alice 2½: bob 1■, carol ½□``); past Discord's
    1,024 characters the scores against each go, then whole rows from the bottom (the top
    stays), never a word cut."""
    out = []
    for lang in ("en", "ja"):
        head = text("tournament.crosstable.words", name=t.new.name).get(lang)
        sep, item = ("; ", ", ") if lang == "en" else ("；", "、")
        full = [
            f"{r.rank}. {r.name} {r.points}"
            + (
                ": " + item.join(f"{rows[k].name} {c}" for k, c in sorted(r.cells.items()))
                if r.cells
                else ""
            )
            for r in rows
        ]
        brief = [f"{r.rank}. {r.name} {r.points}" for r in rows]
        said = ""
        for entries in (full, brief):
            said = head + sep.join(entries)
            if len(said) <= DISCORD_LIMIT:
                break
        while len(said) > DISCORD_LIMIT and brief:
            brief = brief[:-1]
            said = head + sep.join([*brief, "…"])
        out.append(said)
    return Text(out[0], out[1])
