"""Ratings (レーティング): one openskill Plackett-Luce rating per player and game.

The maths is openskill's; this module decides which games are rated, hands openskill the places
the game's result gives, and shows a conservative number (docs/ratings.md):

- a game is rated when it was created rated (the default for human-only games; ``rated:false``
  makes it casual), every seat is a distinct human, and it finished (an abort is no result);
- the places are the result's ``ranks`` (1 = first, shared places tie: a two-player draw is
  ``[1, 1]``; a three-player resignation or timeout puts the leaver last and the others first);
- the number shown is openskill's ordinal, mu - 3 sigma, scaled (``SHOWN_ALPHA``, ``SHOWN_TARGET``),
  with "?" after it while the player has fewer than ``PROVISIONAL_GAMES`` rated games.

The use cases (profile, leaderboard, rebuild) are :class:`Ratings`; a game's end computes its
rating change with :func:`plan` and commits it with the end (see :mod:`bot.service.endings`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any

from openskill.models import PlackettLuce

from bot import i18n
from bot.model import (
    EndedGame,
    GameRow,
    RatedGame,
    RatingChange,
    RatingRow,
    Result,
    SeatKind,
    SeatRow,
)
from bot.service import present
from bot.service.context import Context
from bot.service.present import outcome_of
from bot.service.values import Event, Line, Page, Refusal, Reply, Scope, User
from bot.store import RatingConflict, Store
from engines.core import EngineError, Game, Outcome, Termination, Text
from engines.registry import get_game
from render import charts

log = logging.getLogger(__name__)

MODEL = PlackettLuce()
"""openskill's Plackett-Luce model with its defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300."""
PROVISIONAL_GAMES = 10
"""A rating is provisional ("?") until this many rated games of that game."""
SHOWN_ALPHA = 24.0
SHOWN_TARGET = 1000.0
"""The number shown is ``SHOWN_ALPHA * (mu - 3 sigma) + SHOWN_TARGET``: a new player shows 1000."""
PAGE_SIZE = 10
"""Players on one leaderboard page."""


def ratable(rated: bool, seats: Sequence[SeatRow], outcome: Outcome) -> bool:
    """Does a game end that changes ratings? Created rated, two or more seats all held by
    distinct humans (a computer seat of any kind makes it unrated), and not aborted."""
    if not rated or outcome.termination is Termination.ABORTED:
        return False
    if len(seats) < 2 or len(outcome.ranks) != len(seats):
        return False
    users = [s.user_id for s in seats if s.kind is SeatKind.HUMAN and s.user_id]
    return len(users) == len(seats) and len(set(users)) == len(users)


def shown(mu: float, sigma: float) -> int:
    """The number players see: openskill's ordinal (mu - 3 sigma), scaled."""
    return round(MODEL.rating(mu, sigma).ordinal(alpha=SHOWN_ALPHA, target=SHOWN_TARGET))


def rating_text(mu: float, sigma: float, games: int) -> str:
    """``1234``, or ``1083?`` while provisional."""
    return f"{shown(mu, sigma)}{'?' if games < PROVISIONAL_GAMES else ''}"


def row_text(row: RatingRow) -> str:
    return rating_text(row.mu, row.sigma, row.games)


def delta_text(before: int, after: int) -> str:
    diff = after - before
    return f"+{diff}" if diff > 0 else f"−{-diff}" if diff < 0 else "±0"


def rate(
    game: EndedGame, outcome: Outcome, current: Mapping[str, RatingRow], seq: int = 0
) -> RatedGame:
    """The rating change of a rated game, from each player's ``current`` rating (absent: a
    first rated game of this kind). Pure: the same inputs give the same floats. ``seq`` is the
    game's end order (0: the store numbers it when it writes it)."""
    teams = []
    for s in game.seats:
        was = current.get(s.user_id or "")
        teams.append([MODEL.rating(was.mu, was.sigma) if was else MODEL.rating()])
    new = MODEL.rate(teams, ranks=[float(r) for r in outcome.ranks])
    changes: list[RatingChange] = []
    after: list[RatingRow] = []
    for s, [old], [now] in zip(game.seats, teams, new, strict=True):
        user = s.user_id or ""
        was = current.get(user)
        result = Result(outcome.result(s.seat))
        changes.append(
            RatingChange(
                game_id=game.id,
                user_id=user,
                game_type=game.game_type,
                guild_id=game.guild_id,
                place=outcome.ranks[s.seat],
                result=result,
                games_before=was.games if was else 0,
                mu_before=old.mu,
                sigma_before=old.sigma,
                mu_after=now.mu,
                sigma_after=now.sigma,
                at_ms=game.finished_ms,
                seq=seq,
            )
        )
        after.append(
            RatingRow(
                user_id=user,
                game_type=game.game_type,
                mu=now.mu,
                sigma=now.sigma,
                ordinal=now.ordinal(),
                games=(was.games if was else 0) + 1,
                wins=(was.wins if was else 0) + (result is Result.WIN),
                losses=(was.losses if was else 0) + (result is Result.LOSS),
                draws=(was.draws if was else 0) + (result is Result.DRAW),
            )
        )
    return RatedGame(tuple(changes), tuple(after))


async def plan(store: Store, row: GameRow, outcome: Outcome, now: int) -> RatedGame | None:
    """The rating change of the game ``row`` ending with ``outcome`` at ``now`` (None: unrated),
    from the players' ratings as stored now. The store writes it only over those same ratings."""
    if not ratable(row.rated, row.seats, outcome):
        return None
    users = [s.user_id for s in row.seats if s.user_id]
    current = {r.user_id: r for r in await store.ratings(row.game_type, users)}
    game = EndedGame(row.id, row.game_type, row.guild_id, now, True, None, row.seats)
    return rate(game, outcome, current)


def change_lines(rated: RatedGame | None, names: Mapping[str, str]) -> tuple[Line, ...]:
    """One line per player of a rated end: ``alice 1000? → 1083? (+83)``."""
    if rated is None:
        return ()
    return tuple(
        Line(
            "rating.change",
            {"name": names.get(c.user_id, c.user_id), **change_params(c)},
        )
        for c in rated.changes
    )


def change_params(c: RatingChange) -> dict[str, str]:
    before = shown(c.mu_before, c.sigma_before)
    after = shown(c.mu_after, c.sigma_after)
    return {
        "before": rating_text(c.mu_before, c.sigma_before, c.games_before),
        "after": rating_text(c.mu_after, c.sigma_after, c.games_before + 1),
        "delta": delta_text(before, after),
    }


def replay(games: Sequence[EndedGame]) -> RatedGame:
    """Every rating and history row, recomputed from the finished games in end order (the
    rebuild): the same computation as each game's end, so the same numbers."""
    state: dict[tuple[str, str], RatingRow] = {}
    changes: list[RatingChange] = []
    seq = 0
    for game in games:
        outcome = outcome_of(game.result)
        if outcome is None:
            log.warning("game %s has no readable result: not rated", game.id)
            continue
        if not ratable(game.rated, game.seats, outcome):
            continue
        seq += 1
        current = {
            r.user_id: r
            for s in game.seats
            if (r := state.get((s.user_id or "", game.game_type))) is not None
        }
        rated = rate(game, outcome, current, seq)
        changes += rated.changes
        for r in rated.after:
            state[(r.user_id, r.game_type)] = r
    return RatedGame(tuple(changes), tuple(state[k] for k in sorted(state)))


# --- the use cases ----------------------------------------------------------------------------

RECENT_GAMES = 5
"""Rated games a profile lists."""
CHART_GAMES = 500
"""Rated games a profile's rating chart shows at most (the latest)."""
REBUILD_ATTEMPTS = 3


def _rated_kind(game_type: str) -> Game[Any]:
    """The game ``game_type`` names; refuses an unknown game and a solitaire (never rated)."""
    try:
        game = get_game(game_type)
    except EngineError as exc:
        raise Refusal("refuse.unknown_game_type", reason=exc.text) from exc
    if max(game.player_counts) < 2:
        raise Refusal("refuse.unrated_game", game=present.title(game))
    return game


def _title(game_type: str) -> Text | str:
    try:
        return present.title(get_game(game_type))
    except EngineError:
        return game_type


def _record(row: RatingRow) -> dict[str, Any]:
    return {
        "rating": row_text(row),
        "games": row.games,
        "wins": row.wins,
        "losses": row.losses,
        "draws": row.draws,
    }


class Ratings:
    """A player's ratings, the leaderboards, and rebuilding every rating from the games."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    async def profile(self, user: User, game_type: str | None = None) -> Reply:
        """``user``'s rating in one game (or in every game), their record and last rated games."""
        if game_type is not None:
            _rated_kind(game_type)
        store = self.ctx.store
        rows = await store.ratings(game_type, [user.id])
        params: dict[str, Any] = {"name": user.name, "game": _title(game_type or "")}
        if not rows:
            key = "rating.none_in" if game_type else "rating.none"
            return Reply(key, params, event=Event.RATING)
        lines = [Line("rating.item", {"game": _title(r.game_type), **_record(r)}) for r in rows]
        history = await store.rating_history(user.id, game_type, RECENT_GAMES)
        if history:
            lines.append(Line("rating.recent"))
        for game_id, changes in _by_game(history):
            mine = next(c for c in changes if c.user_id == user.id)
            others = [c.name or c.user_id for c in changes if c.user_id != user.id]
            lines.append(
                Line(
                    "rating.game",
                    {
                        "id": game_id,
                        "game": _title(mine.game_type),
                        "result": i18n.text(f"rating.result.{mine.result.value}"),
                        "opponents": ", ".join(others),
                        **change_params(mine),
                    },
                )
            )
        if any(r.games < PROVISIONAL_GAMES for r in rows):
            lines.append(Line("rating.provisional", {"games": PROVISIONAL_GAMES}))
        chart = await self._chart(user, game_type)
        return Reply("rating.show", params, event=Event.RATING, lines=tuple(lines), image=chart)

    async def _chart(self, user: User, game_type: str | None) -> bytes | None:
        """The chart of ``user``'s displayed rating over their rated games, a line a game
        (matplotlib, in a thread); None without pictures (issue 32)."""
        if not self.ctx.pictures.enabled:
            return None
        history = await self.ctx.store.rating_history(user.id, game_type, CHART_GAMES)
        series: dict[str, list[float]] = {}
        for change in reversed(history):  # oldest first
            if change.user_id == user.id:
                label = _title(change.game_type)
                name = label if isinstance(label, str) else f"{label.ja} {label.en}"
                series.setdefault(name, []).append(shown(change.mu_after, change.sigma_after))
        if not series:
            return None
        job = partial(
            charts.rating_history,
            list(series.items()),
            title=f"{user.name}: {i18n.bilingual('chart.title.rating')}",
            xlabel=i18n.bilingual("chart.axis.rated_games"),
            ylabel=i18n.bilingual("chart.axis.rating"),
        )
        return await asyncio.to_thread(job)

    async def leaderboard(
        self,
        game_type: str,
        guild_id: str | None,
        scope: Scope = Scope.SERVER,
        page: int = 1,
        *,
        provisional: bool = False,
    ) -> Reply:
        """One page of the best ratings of a game, in this server (players who played rated
        games of it here) or everywhere; provisional players only when asked. A page past the
        end shows the last one."""
        game = _rated_kind(game_type)
        params: dict[str, Any] = {
            "game": present.title(game),
            "scope": i18n.text(f"leaderboard.scope.{scope.value}"),
            "games": PROVISIONAL_GAMES,
        }
        min_games = 0 if provisional else PROVISIONAL_GAMES
        server = scope is Scope.SERVER

        async def read(number: int) -> tuple[int, list[RatingRow]]:
            return await self.ctx.store.leaderboard(
                game.id,
                guild_id,
                server=server,
                min_games=min_games,
                offset=(number - 1) * PAGE_SIZE,
                limit=PAGE_SIZE,
            )

        number = max(1, page)
        total, rows = await read(number)
        count = max(1, -(-total // PAGE_SIZE))
        if number > count:
            number = count
            total, rows = await read(number)
            count = max(1, -(-total // PAGE_SIZE))
        if not rows:
            key = "leaderboard.empty_all" if provisional else "leaderboard.empty"
            return Reply(key, params, event=Event.LEADERBOARD)
        first = (number - 1) * PAGE_SIZE + 1
        lines = tuple(
            Line(
                "leaderboard.item", {"place": first + i, "name": r.name or r.user_id, **_record(r)}
            )
            for i, r in enumerate(rows)
        )
        return Reply(
            "leaderboard.show",
            {**params, "page": number, "pages": count, "players": total},
            event=Event.LEADERBOARD,
            lines=lines,
            page=Page(game.id, scope, number, count, provisional),
        )

    async def rebuild(self) -> Reply:
        """Recompute every rating and the whole history from the finished games, in end order,
        and replace the stored ones in one transaction (a game rated meanwhile: start over)."""
        store = self.ctx.store
        for _ in range(REBUILD_ATTEMPTS):
            games, last_seq = await store.ended_games()
            rebuilt = await asyncio.to_thread(replay, games)  # seconds for 100,000 games
            before = {_key(r): r for r in await store.ratings(None, None)}
            try:
                await store.replace_ratings(rebuilt, last_seq)
            except RatingConflict:
                log.info("a game was rated during the rebuild; starting over")
                continue
            after = {_key(r): r for r in rebuilt.after}
            differ = sum(
                _numbers(before.get(k)) != _numbers(after.get(k)) for k in before.keys() | after
            )
            return Reply(
                "ratings.rebuilt",
                {
                    "games": len({c.game_id for c in rebuilt.changes}),
                    "ratings": len(rebuilt.after),
                    "differ": differ,
                },
                event=Event.RATINGS_REBUILT,
            )
        raise Refusal("refuse.rebuild_busy")


def _key(row: RatingRow) -> tuple[str, str]:
    return row.user_id, row.game_type


def _numbers(row: RatingRow | None) -> tuple[float, ...] | None:
    if row is None:
        return None
    return (row.mu, row.sigma, row.ordinal, row.games, row.wins, row.losses, row.draws)


def _by_game(history: Sequence[RatingChange]) -> list[tuple[int, list[RatingChange]]]:
    """History rows grouped by game, in the order they came (newest game first)."""
    out: dict[int, list[RatingChange]] = {}
    for c in history:
        out.setdefault(c.game_id, []).append(c)
    return list(out.items())
