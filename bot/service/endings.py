"""Ending a game the host decides: resignation, abort, agreed draw, timeout.

The engine's own endings arrive with a move (see :mod:`bot.service.play.turns`); these are the ones
its state cannot know. Each is one commit that stores the outcome (with who left, in both
languages), the players' results and, for a rated game, their rating changes
(:meth:`Endings.commit_end`, which every end goes through).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from typing import Any, TypeVar

from bot import i18n
from bot.model import Change, GameStatus, RatedGame, Result, SeatKind, Update, UserResult
from bot.service import present, ratings
from bot.service.cache import Loaded
from bot.service.context import Context
from bot.service.values import Event, Line, Refusal, Reply
from bot.store import RatingConflict
from engines.core import Outcome, Termination, Text

log = logging.getLogger(__name__)
T = TypeVar("T")

RATING_ATTEMPTS = 5
"""Times an end is recomputed when a player's rating changed under it (another game of theirs
was rated at the same moment) before the end is refused as "the position has changed"."""


def finish_update(
    loaded: Loaded, outcome: Outcome, now: int
) -> tuple[Update, tuple[UserResult, ...]]:
    """The row update and personal results of a game ending with ``outcome`` (none for an
    imported game: it counts in no statistics)."""
    aborted = outcome.termination is Termination.ABORTED
    update = Update(
        status=GameStatus.ABORTED if aborted else GameStatus.FINISHED,
        finished_ms=now,
        result=present.stored_outcome(outcome),
        deadline_ms=None,
        turn_started_ms=None,
        offer=None,
    )
    results: list[UserResult] = []
    if not aborted and not loaded.row.is_imported:  # an imported game is unrated
        for s in loaded.row.seats:
            if s.kind is SeatKind.HUMAN and s.user_id:
                result = Result(outcome.result(s.seat))
                results.append(UserResult(s.user_id, loaded.row.game_type, result))
    return update, tuple(results)


def leaver_text(loaded: Loaded, key: str, losers: Sequence[int]) -> Text:
    """``key`` ("outcome.resigned" / "outcome.timeout") naming who left and who wins: with
    three players, the leaver is last and the two others share first place."""
    n = loaded.row.players
    winners = [s for s in range(n) if s not in losers]

    def one(lang: str) -> str:
        names = present.names([present.who_sits(loaded, s, lang) for s in losers], lang) or "?"
        if not winners:
            rest = i18n.t("outcome.solo_lost", lang)
        elif len(winners) == 1:
            rest = i18n.t("outcome.wins", lang, name=present.who_sits(loaded, winners[0], lang))
        else:
            both = present.names([present.who_sits(loaded, s, lang) for s in winners], lang)
            rest = i18n.t("outcome.share_first", lang, names=both)
        return i18n.t(key, lang, names=names, rest=rest)

    return Text(one("en"), one("ja"))


def timeout_outcome(loaded: Loaded) -> Outcome:
    """Who loses on time: the seats still due (all of them due: nobody acted, no result)."""
    n = loaded.row.players
    due = loaded.state.acting_players()
    if not due or (len(due) == n and n > 1):
        return Outcome(Termination.ABORTED, frozenset(), (1,) * n, i18n.text("outcome.timeout_all"))
    text = leaver_text(loaded, "outcome.timeout", due)
    if len(due) == 1:
        return Outcome.loss(due[0], n, Termination.TIMEOUT, text)
    winners = frozenset(s for s in range(n) if s not in due)
    ranks = tuple(n if s in due else 1 for s in range(n))
    return Outcome(Termination.TIMEOUT, winners, ranks, text)


def rating_lines(loaded: Loaded, rated: RatedGame | None) -> tuple[Line, ...]:
    """The players' rating changes at the end of ``loaded`` (none for an unrated game)."""
    names = {s.user_id: loaded.name(s.seat) for s in loaded.row.seats if s.user_id}
    return ratings.change_lines(rated, names)


class Endings:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    async def commit_end(
        self,
        loaded: Loaded,
        change: Change,
        outcome: Outcome,
        commit: Callable[[Change, RatedGame | None], Awaitable[T]],
    ) -> T:
        """Commit ``change`` (which ends the game with ``outcome``) through ``commit``, with the
        players' rating changes in the same transaction: the end, its announcement and the
        ratings are stored together or not at all. ``commit`` gets the change with the ratings
        and the ratings (to announce them). They are computed from the ratings as stored; if
        one changed meanwhile (another game of a player was rated at the same moment), they are
        computed again."""
        finished = change.update.finished_ms
        now = finished if isinstance(finished, int) else self.ctx.now_ms()
        for _ in range(RATING_ATTEMPTS):
            rated = await ratings.plan(self.ctx.store, loaded.row, outcome, now)
            try:
                return await commit(replace(change, rating=rated), rated)
            except RatingConflict:
                log.info("game %s: a rating changed under its end; computing again", loaded.id)
        raise Refusal("refuse.position_changed", id=loaded.id)

    async def end(
        self,
        loaded: Loaded,
        outcome: Outcome,
        key: str,
        *,
        notify: tuple[str, ...] | None = None,
        **params: Any,
    ) -> Reply:
        """Store ``outcome`` for the game (one commit) and say so, with the final picture and
        the players' rating changes."""
        update, results = finish_update(loaded, outcome, self.ctx.now_ms())
        change = Change(loaded.id, loaded.row.version, update=update, results=results)
        extra: dict[str, Any] = {} if notify is None else {"notify": notify}

        async def commit(rated_change: Change, rated: RatedGame | None) -> Reply:
            return await self.ctx.announce(
                loaded,
                rated_change,
                lambda new: [
                    present.reply(
                        new,
                        Event.ENDED,
                        key,
                        params={**params, "result": outcome.text},
                        picture=True,
                        lines=rating_lines(new, rated) + present.ai_lines(new),
                        **extra,
                    )
                ],
            )

        return await self.commit_end(loaded, change, outcome, commit)

    async def withdraw(self, loaded: Loaded, key: str, **params: Any) -> Reply:
        """A game that never started is withdrawn (cancelled, declined or lapsed)."""
        update = Update(status=GameStatus.CANCELLED, finished_ms=self.ctx.now_ms(), expires_ms=None)
        change = Change(loaded.id, loaded.row.version, update=update)
        return await self.ctx.announce(
            loaded,
            change,
            lambda new: [present.reply(new, Event.CANCELLED, key, params=params, notify=())],
        )

    async def timeout(self, loaded: Loaded) -> Reply:
        losers = loaded.user_ids(loaded.state.acting_players())
        return await self.end(loaded, timeout_outcome(loaded), "game.timeout", notify=losers)

    async def resign(self, loaded: Loaded, seat: int) -> Reply:
        text = leaver_text(loaded, "outcome.resigned", [seat])
        outcome = Outcome.loss(seat, loaded.row.players, Termination.RESIGNATION, text)
        return await self.end(loaded, outcome, "game.resigned", name=loaded.name(seat))

    async def abort(self, loaded: Loaded, moderator: str) -> Reply:
        text = i18n.text("outcome.aborted", name=moderator)
        outcome = Outcome(Termination.ABORTED, frozenset(), (1,) * loaded.row.players, text)
        return await self.end(loaded, outcome, "game.aborted", name=moderator)

    async def agree_draw(self, loaded: Loaded) -> Reply:
        outcome = Outcome.draw(
            loaded.row.players, Termination.AGREEMENT, i18n.text("outcome.agreed")
        )
        return await self.end(loaded, outcome, "draw.agreed")
