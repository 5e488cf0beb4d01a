"""Ratings (レーティング): one openskill Plackett-Luce rating per player and game.

The maths is openskill's; this module decides which games are rated, hands openskill the places
the game's result gives, and shows a conservative number (docs/ratings.md):

- a game is rated when it was created rated (the default for human-only games; ``rated:false``
  makes it casual), every seat is a distinct human, and it finished (an abort is no result);
- the places are the result's ``ranks`` (1 = first, shared places tie: a two-player draw is
  ``[1, 1]``; a three-player resignation or timeout puts the leaver last and the others first);
- the number shown is openskill's ordinal, mu - 3 sigma, scaled (``SHOWN_ALPHA``, ``SHOWN_TARGET``),
  with "?" after it while the player has fewer than ``PROVISIONAL_GAMES`` rated games.

These rules are the kernel's: a game's end computes its rating change with :func:`plan` and commits
it with the end (see :mod:`bot.service.endings`). The use cases (profile, leaderboard, rebuild)
are :class:`bot.service.compete.leaderboards.Ratings`.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence

from openskill.models import PlackettLuce

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
from bot.service.present import outcome_of
from bot.service.values import Line
from bot.store import Store
from engines.core import Outcome, Termination

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
