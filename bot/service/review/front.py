"""Looking back at games, as adapters reach it: ``service.review``. A game's replay (an
animation, or one step), the computer's review of it (docs/review.md) and the web site's pages
(docs/web.md: everything there is what a spectator may see, but a signed-in player's own
board, played through the play capability)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.service.context import Context
from bot.service.guard import entry
from bot.service.play.front import Play
from bot.service.play.seat_board import SeatBoard
from bot.service.review.accounts import Accounts, NewSession, SiteUser
from bot.service.review.activity import Activities, Entered, Gathering, Instance
from bot.service.review.analysis import Analysis, WebAnalysis
from bot.service.review.explorer import Explorer, WebExplorer, web_explorer
from bot.service.review.replays import REPLAY_MAX_BYTES, Replays
from bot.service.review.reviews import Progress, Reviews
from bot.service.review.site import Site, WebGame, WebGuild, WebListed, WebPlayer, WebUpdate
from bot.service.thinking import Thinker
from bot.service.values import File, Refusal, Reply, User
from engines.core import Text


class Review:
    """The review capability's use cases (``service.review``)."""

    def __init__(self, ctx: Context, play: Play, thinker: Thinker) -> None:
        self.replays = Replays(ctx, thinker)
        self.reviews = Reviews(ctx, thinker)
        self.explorer = Explorer(ctx)
        self.analysis = Analysis(ctx, thinker, self.explorer)
        self.site = Site(ctx, self.replays, play.records, self.analysis)
        self.accounts = Accounts(ctx, self.site, play)
        self.activities = Activities(ctx, self.site, self.accounts)

    # -- the opening explorer ------------------------------------------------------------------
    @entry
    async def explore(
        self,
        game_type: str,
        moves: str = "",
        guild_id: str | None = None,
        *,
        rated: bool = False,
        computer: bool = False,
    ) -> Reply:
        """The moves played from the position after ``moves`` in finished games (issue 50):
        every server's or ``guild_id``'s, rated games only when ``rated`` (private); the
        computer's self-play at levels 6-8 instead when ``computer``."""
        return await self.explorer.explore(
            game_type, moves, guild_id, rated=rated, computer=computer
        )

    @entry
    async def explore_step(self, arg: str, guild_id: str | None = None) -> Reply:
        """A step button of the explorer (a move stepped into, or back): the explorer at the
        position its argument names (``Takes.EXPLORED``); "this server" is ``guild_id``."""
        return await self.explorer.step(arg, guild_id)

    @entry
    async def explorer_page(
        self, game_type: str, moves: Sequence[str], rated: bool = False, computer: bool = False
    ) -> WebExplorer:
        """The explorer on the site: every server's finished games (or the computer's
        self-play), at the position after ``moves`` (the address holds them)."""
        return await web_explorer(self.explorer, game_type, moves, rated, computer)

    @entry
    async def explorer_picture(
        self, game_type: str, moves: Sequence[str], rated: bool = False, computer: bool = False
    ) -> bytes:
        """That position's picture, its most played moves numbered."""
        ex = await self.explorer.position(game_type, " ".join(moves), "", rated, computer)
        image, _ = await self.explorer.picture(ex)
        if image is None:
            raise Refusal("web.not_found")
        return image

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

    # -- the analysis board (issue 50, 3) ------------------------------------------------------
    @entry
    async def analyse(self, user: User, game_id: int, ply: int | None = None) -> Reply:
        """A private board at ply ``ply`` of a finished game (none: its end), to try moves for
        either side and ask the computer; the game's record is not touched."""
        return await self.analysis.open(user, game_id, ply)

    @entry
    async def analysis_move(self, user: User, text: str) -> Reply:
        return await self.analysis.move(user, text)

    @entry
    async def analysis_back(self, user: User) -> Reply:
        return await self.analysis.back(user)

    @entry
    async def analysis_best(self, user: User) -> Reply:
        return await self.analysis.hint(user)

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
        """``reply`` with a line linking its game's page, when the site has a public address,
        and "Open the board" where Activities are on."""
        return self.activities.offered(await self.site.linked(reply))

    @entry
    async def game_page(self, token: str) -> WebGame:
        return await self.site.game(token)

    @entry
    async def game_update(self, token: str) -> WebUpdate:
        """What the game's running pages update themselves from now."""
        return await self.site.update(token)

    @entry
    async def game_words(self, token: str, ply: int) -> Text:
        """The picture after ply ``ply`` in words (the page's alt text)."""
        return await self.site.words(token, ply)

    @entry
    async def game_picture(self, token: str, ply: int) -> bytes:
        return await self.site.picture(token, ply)

    @entry
    async def analysis_page(
        self, token: str, ply: int | None, moves: Sequence[str], best: bool = False
    ) -> WebAnalysis:
        """A finished game's analysis board on the site (the moves tried: in the address)."""
        return await self.site.analysis_board(token, ply, moves, best)

    @entry
    async def analysis_picture(self, token: str, ply: int | None, moves: Sequence[str]) -> bytes:
        return await self.site.analysis_picture(token, ply, moves)

    # -- signing in to the site (issue 51, 1) -------------------------------------------------
    @entry
    async def sign_in(self, user: User) -> NewSession:
        """A session for ``user``, whom the site's Discord sign-in named."""
        return await self.accounts.sign_in(user)

    @entry
    async def signed_in(self, secret: str | None) -> SiteUser | None:
        return await self.accounts.signed_in(secret)

    @entry
    async def sign_out(self, secret: str | None, csrf: str) -> None:
        await self.accounts.sign_out(secret, csrf)

    @entry
    async def my_games(self, user: SiteUser) -> list[WebListed]:
        return await self.accounts.my_games(user)

    # -- playing from the site (issue 51, 2) -------------------------------------------------
    @entry
    async def seat_board(self, token: str, secret: str | None) -> SeatBoard:
        """The signed-in visitor's board of the game behind ``token``: their seat's picture,
        its cells and their legal moves now, grouped by where they are clicked."""
        return await self.accounts.seat_board(token, secret)

    @entry
    async def seat_picture(self, token: str, secret: str | None) -> bytes:
        return await self.accounts.seat_picture(token, secret)

    @entry
    async def site_move(
        self, token: str, secret: str | None, csrf: str, text: str, ply: int | None = None
    ) -> Reply:
        """A move sent from the site's board by the signed-in visitor (with the session's CSRF
        token), played as ``/move`` plays it; what it announces is posted by the delivery
        loop."""
        return await self.accounts.move(token, secret, csrf, text, ply)

    # -- the board as a Discord Activity (issue 51, 3) ----------------------------------------
    def activity_on(self) -> bool:
        """Are Activities on (``BANMEN_ACTIVITY`` with the OAuth2 client)?"""
        return self.activities.enabled()

    @entry
    async def open_board(self, game_id: int, user: User) -> Reply:
        """The card's "Open the board": the Activity where it is on, else the game's page."""
        return await self.activities.open_board(game_id, user)

    @entry
    async def enter_activity(self, user: User, instance: Instance) -> Entered:
        """Let a participant of an Activity's instance in (Discord named both): a session and
        the running games where the Activity runs."""
        return await self.activities.enter(user, instance)

    @entry
    async def activity_gathering(
        self, token: str, secret: str | None, instance: Instance
    ) -> Gathering:
        """The participants against the seats of the game behind ``token``."""
        return await self.activities.gathering(token, secret, instance)

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
