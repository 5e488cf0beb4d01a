"""Ratings' use cases (``/rating``, ``/leaderboard``, the rebuild): a player's profile with its
chart, a game's leaderboard, and every rating recomputed from the finished games. The rules
(which games are rated, openskill, the shown number) are the kernel's :mod:`bot.service.ratings`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from functools import partial
from typing import Any

from bot import i18n
from bot.model import RatingChange, RatingRow
from bot.service import present
from bot.service.context import Context
from bot.service.ratings import (
    PAGE_SIZE,
    PROVISIONAL_GAMES,
    change_params,
    replay,
    row_text,
    shown,
)
from bot.service.values import Event, Line, Page, Refusal, Reply, Scope, User
from bot.store import RatingConflict
from engines.core import EngineError, Game, Text
from engines.registry import get_game
from render import charts

log = logging.getLogger(__name__)

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


def _chart_words(user: User, rows: Sequence[RatingRow]) -> Text:
    """The rating chart in words (its alt text): whose it is and each game's rating now."""

    def now(lang: str) -> str:
        each = (f"{i18n.fmt_value(_title(r.game_type), lang)} {row_text(r)}" for r in rows)
        return i18n.t("list.comma", lang).join(each)

    return i18n.text("rating.chart_alt", name=user.name, ratings=Text(now("en"), now("ja")))


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

    async def profile(
        self,
        user: User,
        game_type: str | None = None,
        asker: User | None = None,
        *,
        share: bool = False,
    ) -> Reply:
        """``user``'s rating in one game (or in every game), their record and last rated games,
        privately for ``asker`` (default: the user) unless they ``share`` it with the channel."""
        audience = None if share else (asker or user).id
        if game_type is not None:
            _rated_kind(game_type)
        store = self.ctx.store
        rows = await store.ratings(game_type, [user.id])
        params: dict[str, Any] = {"name": user.name, "game": _title(game_type or "")}
        if not rows:
            key = "rating.none_in" if game_type else "rating.none"
            return Reply(key, params, event=Event.RATING, public=share, audience=audience)
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
        return Reply(
            "rating.show",
            params,
            event=Event.RATING,
            lines=tuple(lines),
            image=chart,
            image_alt=_chart_words(user, rows) if chart is not None else None,
            public=share,
            audience=audience,
        )

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
                if name not in series:  # where the line starts: before the first rated game
                    series[name] = [shown(change.mu_before, change.sigma_before)]
                series[name].append(shown(change.mu_after, change.sigma_after))
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
