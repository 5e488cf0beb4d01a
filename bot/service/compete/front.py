"""Competing, as adapters reach it: ``service.compete``. Ratings (a profile with its chart,
leaderboards, the rebuild: docs/ratings.md) and tournaments (sign-up, rounds, standings, their
posts: docs/tournaments.md)."""

from __future__ import annotations

import asyncio

from bot.service.compete.leaderboards import Ratings
from bot.service.compete.tournaments import TournamentOptions, Tournaments
from bot.service.context import Context
from bot.service.endings import Endings
from bot.service.guard import entry
from bot.service.play.front import Play
from bot.service.values import Reply, Scope, User


class Compete:
    """The compete capability's use cases (``service.compete``)."""

    def __init__(self, ctx: Context, play: Play, endings: Endings) -> None:
        self.ratings = Ratings(ctx)
        self.tournaments = Tournaments(ctx, play.lobby, endings)

    async def restore(self) -> None:
        await self.tournaments.restore()

    # -- ratings -------------------------------------------------------------------------------
    @entry
    async def rating(
        self,
        user: User,
        game_type: str | None = None,
        asker: User | None = None,
        *,
        share: bool = False,
    ) -> Reply:
        """``user``'s ratings (in one game, or all), record and last rated games, with a chart:
        private to ``asker`` (default: the user) unless ``share``."""
        return await self.ratings.profile(user, game_type, asker, share=share)

    @entry
    async def leaderboard(
        self,
        game_type: str,
        guild_id: str | None = None,
        scope: Scope = Scope.SERVER,
        page: int = 1,
        *,
        provisional: bool = False,
    ) -> Reply:
        """A page of a game's leaderboard (``reply.page`` says which; adapters page on)."""
        return await self.ratings.leaderboard(
            game_type, guild_id, scope, page, provisional=provisional
        )

    async def rebuild_ratings(self) -> Reply:
        """Recompute every rating from the finished games (``python -m bot ratings rebuild``)."""
        return await self.ratings.rebuild()

    # -- tournaments ---------------------------------------------------------------------------

    @entry
    async def create_tournament(
        self,
        user: User,
        how: TournamentOptions,
        *,
        manager: bool,
        guild_id: str | None = None,
        channel_id: str | None = None,
    ) -> Reply:
        """A tournament signing up (``manager``: the adapter's word that ``user`` may)."""
        return await self.tournaments.create(
            user, how, manager=manager, guild_id=guild_id, channel_id=channel_id
        )

    @entry
    async def join_tournament(self, tournament_id: int, user: User) -> Reply:
        return await self.tournaments.join(tournament_id, user)

    @entry
    async def leave_tournament(self, tournament_id: int, user: User) -> Reply | list[Reply]:
        """Leave while it signs up; withdraw (the rest forfeited) once it runs."""
        return await self.tournaments.leave(tournament_id, user)

    @entry
    async def remove_from_tournament(
        self, tournament_id: int, manager: User, target: User, *, is_manager: bool
    ) -> Reply | list[Reply]:
        return await self.tournaments.remove(tournament_id, manager, target, is_manager=is_manager)

    @entry
    async def start_tournament(
        self, tournament_id: int, user: User, *, manager: bool = False
    ) -> list[Reply]:
        return await self.tournaments.start(tournament_id, user, manager=manager)

    @entry
    async def tournament_standings(self, tournament_id: int) -> Reply:
        return await self.tournaments.standings(tournament_id)

    @entry
    async def cancel_tournament(
        self, tournament_id: int, user: User, *, manager: bool = False
    ) -> Reply:
        """Call off a tournament that signs up (its creator or a manager)."""
        return await self.tournaments.cancel(tournament_id, user, manager=manager)

    @entry
    async def tournament_signup_posted(self, tournament_id: int, message_id: str) -> None:
        """The adapter posted the sign-up message as ``message_id``: when the tournament
        starts or is called off, its sign-up replies carry it (``params["message"]``) so that
        message can say so and lose its buttons."""
        await self.tournaments.signup_posted(tournament_id, message_id)

    @property
    def tournament_changed(self) -> asyncio.Event:
        """Set when a tournament may have something to do (a driver calls
        :meth:`settle_tournaments`)."""
        return self.tournaments.changed

    async def settle_tournaments(self) -> list[Reply]:
        """Advance every tournament something happened to: the replies to announce."""
        return await self.tournaments.settle()
