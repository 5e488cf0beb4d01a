"""Looking back at a game, as :class:`bot.service.GameService` offers it to adapters: its
replay (an animation, or one step) and the computer's review of it (docs/review.md)."""

from __future__ import annotations

from bot.service.guard import entry
from bot.service.review.replays import REPLAY_MAX_BYTES, Replays
from bot.service.review.reviews import Progress, Reviews
from bot.service.values import Reply, User


class ReplayFront:
    """The replay and review use cases of :class:`bot.service.GameService`."""

    replays: Replays
    reviews: Reviews

    @entry
    async def replay(
        self, game_id: int, viewer: User | None = None, *, max_bytes: int = REPLAY_MAX_BYTES
    ) -> Reply:
        """The game so far as an animated GIF of at most ``max_bytes``."""
        return await self.replays.replay(game_id, viewer, max_bytes=max_bytes)

    @entry
    async def replay_step(self, game_id: int, viewer: User | None, ply: int) -> Reply:
        """The replay's picture after ply ``ply`` (0: the start)."""
        return await self.replays.step(game_id, viewer, ply)

    @entry
    async def review(
        self, game_id: int, user: User | None, told: Progress | None = None, publish: bool = False
    ) -> Reply:
        return await self.reviews.review(game_id, user, told, publish)  # docs/review.md

    @entry
    async def review_better(self, game_id: int, viewer: User | None, ply: int) -> Reply:
        return await self.reviews.better(game_id, viewer, ply)
