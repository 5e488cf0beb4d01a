"""Signing in to the site with Discord (issue 51, 1): the sessions, as the service keeps them.

The web adapter does the OAuth2 exchange with Discord (its ``identify`` scope: who the visitor
is, nothing more) and hands the user it learnt to :meth:`Accounts.sign_in`, which opens a
session: a secret for an HTTP-only cookie (the store keeps only its SHA-256) and a CSRF token
that every write from that session must carry. A signed-in visitor sees their own games
(:meth:`Accounts.my_games`); everything else of the site stays what a spectator sees.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.clock import from_ms, to_ms
from bot.model import GameStatus, SiteSessionRow
from bot.service.context import Context
from bot.service.guard import entry
from bot.service.play.front import Play
from bot.service.play.seat_board import SeatBoard
from bot.service.review.site import Site, WebListed, listed
from bot.service.values import Refusal, Reply, User

SESSION_DAYS = 30
"""How long a session lasts (signing out ends it sooner)."""
MY_GAMES = 50
"""Games a signed-in visitor's page lists (the newest)."""
SIGN_IN_TO_PLAY = "web.refuse.sign_in"
"""The refusal of a move sent without a session (or with one that ended)."""
CSRF = "web.refuse.csrf"
"""The refusal of a write without its session's CSRF token."""
SECRET = re.compile(r"[A-Za-z0-9_-]{40,64}")
"""What a session's secret looks like (anything else is no session, never a lookup)."""


@dataclass(frozen=True, slots=True)
class SiteUser:
    """A signed-in visitor: who they are on Discord, and the token their writes carry."""

    user_id: str
    name: str
    csrf: str


@dataclass(frozen=True, slots=True)
class NewSession:
    """A session just opened: ``secret`` goes in the visitor's cookie and nowhere else."""

    secret: str
    user: SiteUser
    expires: datetime


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


class Accounts:
    def __init__(self, ctx: Context, site: Site, play: Play) -> None:
        self.ctx = ctx
        self.site = site
        self.play = play

    @entry
    async def sign_in(
        self, user: User, lasts: timedelta = timedelta(days=SESSION_DAYS)
    ) -> NewSession:
        """Open a session for ``user`` (whom Discord's OAuth2 named), for ``lasts``."""
        now = self.ctx.now_ms()
        await self.ctx.store.upsert_user(user.id, user.name, now)
        secret, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(24)
        expires = to_ms(from_ms(now) + lasts)
        row = SiteSessionRow(_hash(secret), user.id, user.name, csrf, now, expires)
        await self.ctx.store.save_site_session(row)
        return NewSession(secret, SiteUser(user.id, user.name, csrf), from_ms(expires))

    @entry
    async def signed_in(self, secret: str | None) -> SiteUser | None:
        """Who holds the session ``secret`` (None: no session, an ended one, or no secret)."""
        if secret is None or not SECRET.fullmatch(secret):
            return None
        row = await self.ctx.store.site_session(_hash(secret), self.ctx.now_ms())
        return None if row is None else SiteUser(row.user_id, row.name, row.csrf)

    @entry
    async def sign_out(self, secret: str | None, csrf: str) -> None:
        """End the session ``secret``; refused without its CSRF token (a page elsewhere cannot
        sign anyone out). Signing out of no session changes nothing."""
        user = await self.signed_in(secret)
        if user is None or secret is None:
            return
        if not hmac.compare_digest(user.csrf.encode(), csrf.encode()):
            raise Refusal(CSRF)
        await self.ctx.store.drop_site_session(_hash(secret), self.ctx.now_ms())

    @entry
    async def my_games(self, user: SiteUser) -> list[WebListed]:
        """The visitor's own games with a page, newest first (a day's deal whose day is not
        over has none yet)."""
        statuses = [GameStatus.ACTIVE.value, GameStatus.FINISHED.value, GameStatus.ABORTED.value]
        found = await self.ctx.store.user_games(user.user_id, statuses)
        out: list[WebListed] = []
        for summary in reversed(found[-MY_GAMES:]):
            loaded = await self.ctx.games.read(summary.id)
            if loaded.row.started_ms is None or not await self.site.shown(loaded):
                continue
            out.append(listed(loaded, await self.site.token(summary.id)))
        return out

    # -- playing from the site (issue 51, 2) -------------------------------------------------
    async def _player(self, secret: str | None) -> User:
        user = await self.signed_in(secret)
        if user is None:
            raise Refusal(SIGN_IN_TO_PLAY)
        return User(user.user_id, user.name)

    @entry
    async def seat_board(self, token: str, secret: str | None) -> SeatBoard:
        """The board of the game behind ``token`` as the signed-in visitor's seat sees it, with
        their moves now (refused for a visitor who is not signed in or does not play in it)."""
        loaded = await self.site.loaded(token)
        return await self.play.seat_board(loaded.id, await self._player(secret))

    @entry
    async def seat_picture(self, token: str, secret: str | None) -> bytes:
        loaded = await self.site.loaded(token)
        return await self.play.seat_picture(loaded.id, await self._player(secret))

    @entry
    async def move(
        self, token: str, secret: str | None, csrf: str, text: str, ply: int | None
    ) -> Reply:
        """Play ``text`` in the game behind ``token`` for the signed-in visitor, as ``/move``
        plays it for that Discord user (only a seated player, on their turn); refused without
        the session's CSRF token."""
        user = await self.signed_in(secret)
        if user is None:
            raise Refusal(SIGN_IN_TO_PLAY)
        if not hmac.compare_digest(user.csrf.encode(), csrf.encode()):
            raise Refusal(CSRF)
        loaded = await self.site.loaded(token)
        player = User(user.user_id, user.name)
        return await self.play.move_from_site(loaded.id, player, text, ply=ply)
