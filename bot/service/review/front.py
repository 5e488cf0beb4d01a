"""Looking back at games, as adapters reach it: ``service.review``. A game's replay (an
animation, or one step), the computer's review of it (docs/review.md) and the read-only web
site's pages (docs/web.md: everything there is what a spectator may see)."""

from __future__ import annotations

from bot.service.context import Context
from bot.service.guard import entry
from bot.service.play.front import Play
from bot.service.review.explorer import Explorer
from bot.service.review.replays import REPLAY_MAX_BYTES, Replays
from bot.service.review.reviews import Progress, Reviews
from bot.service.review.site import Site, WebGame, WebGuild, WebPlayer
from bot.service.thinking import Thinker
from bot.service.values import File, Reply, User
from engines.core import Text


class Review:
    """The review capability's use cases (``service.review``)."""

    def __init__(self, ctx: Context, play: Play, thinker: Thinker) -> None:
        self.replays = Replays(ctx, thinker)
        self.reviews = Reviews(ctx, thinker)
        self.site = Site(ctx, self.replays, play.records)
        self.explorer = Explorer(ctx)

    # -- the opening explorer ------------------------------------------------------------------
    @entry
    async def explore(
        self, game_type: str, moves: str = "", guild_id: str | None = None, *, rated: bool = False
    ) -> Reply:
        """The moves played from the position after ``moves`` in finished games (issue 50):
        every server's or ``guild_id``'s, rated games only when ``rated`` (private)."""
        return await self.explorer.explore(game_type, moves, guild_id, rated=rated)

    @entry
    async def rebuild_explorer(self) -> int:
        """Recompute the explorer's counts from the move logs; the number of games read."""
        return await self.explorer.rebuild()

    # -- replays -------------------------------------------------------------------------------
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

    # -- the computer's review -----------------------------------------------------------------
    @entry
    async def game(
        self, game_id: int, user: User | None, told: Progress | None = None, publish: bool = False
    ) -> Reply:
        """The computer's review of a finished game (made once, then kept; private until a
        player publishes it)."""
        return await self.reviews.review(game_id, user, told, publish)

    @entry
    async def better(self, game_id: int, viewer: User | None, ply: int) -> Reply:
        """The review's better move at ``ply``, as a picture."""
        return await self.reviews.better(game_id, viewer, ply)

    # -- the web site --------------------------------------------------------------------------
    @entry
    async def page_token(self, game_id: int) -> str:
        """The unguessable token of ``game_id``'s page (made the first time it is asked for)."""
        return await self.site.token(game_id)

    @entry
    async def page_link(self, game_id: int, base: str | None = None) -> str | None:
        """The address of ``game_id``'s page (``None`` when the site has no public address)."""
        return await self.site.link(game_id, base)

    @entry
    async def linked(self, reply: Reply) -> Reply:
        """``reply`` with a line linking its game's page, when the site has a public address."""
        return await self.site.linked(reply)

    @entry
    async def game_page(self, token: str) -> WebGame:
        return await self.site.game(token)

    @entry
    async def game_words(self, token: str, ply: int) -> Text:
        """The picture after ply ``ply`` in words (the page's alt text)."""
        return await self.site.words(token, ply)

    @entry
    async def game_picture(self, token: str, ply: int) -> bytes:
        return await self.site.picture(token, ply)

    @entry
    async def game_file(self, token: str, kind: str) -> File:
        return await self.site.record(token, kind)

    @entry
    async def game_changed(self, token: str, version: int) -> int:
        """Wait until the game behind ``token`` is past ``version``: its new version."""
        return await self.site.changed(token, version)

    @entry
    async def server_page(self, guild_id: str) -> WebGuild:
        return await self.site.guild(guild_id)

    @entry
    async def player_page(self, guild_id: str, user_id: str) -> WebPlayer:
        return await self.site.player(guild_id, user_id)
