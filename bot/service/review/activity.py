"""The board as a Discord Activity (issue 51, 3): who may enter, which game they see, and who
of them plays.

The web adapter (:mod:`bot.web.activity`) does the talking to Discord: it trades the code the
Embedded App SDK's ``authorize`` gave for who the visitor is, and looks the Activity's instance
up with the bot's token (``GET /applications/{id}/activity-instances/{instance}``), so what
reaches the service is what Discord said, never what the page said. The rules are here: only a
participant of the instance enters (a session like the site's sign-in, carried by the page as a
bearer token since a cookie in Discord's frame is unreliable), the games shown are the running
games of the instance's channel (the game's thread, or the channel its games live in), and in
each a participant who holds a seat plays (through the site's move, the same use case as
``/move``) while everyone else in the instance watches (the page's live updates).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import timedelta

from bot.model import GameStatus
from bot.service.actions import Action, Button
from bot.service.context import Context
from bot.service.guard import entry
from bot.service.review.accounts import Accounts, NewSession
from bot.service.review.site import NOT_FOUND, Site, WebListed, listed
from bot.service.values import Event, Refusal, Reply, User
from engines.core import Text

ACTIVITY_SESSION = timedelta(hours=12)
"""How long an Activity's session lasts: the page holds it in memory while it is open, and
opening the Activity again signs in afresh (a site's sign-in lasts 30 days, in a cookie)."""
NOT_HERE = "activity.refuse.not_here"
"""The refusal of someone Discord does not list in the Activity's instance."""
ELSEWHERE = "activity.refuse.elsewhere"
"""The refusal of a game that does not live where the Activity was launched."""


@dataclass(frozen=True, slots=True)
class Instance:
    """An Activity's instance as Discord described it: where it runs and who is in it."""

    instance_id: str
    channel_id: str
    guild_id: str | None
    users: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Entered:
    """A participant let in: their session (its secret travels in the page's memory only) and
    the running games of the instance's channel (several: the page offers a choice)."""

    session: NewSession
    games: tuple[WebListed, ...]


@dataclass(frozen=True, slots=True)
class SeatHere:
    """A seat of the game shown, and whether its player is in the Activity now."""

    seat: Text
    name: str
    here: bool


@dataclass(frozen=True, slots=True)
class Gathering:
    """The participants against the game's seats: who plays and is here, who watches."""

    seats: tuple[SeatHere, ...]
    watching: int
    """Participants who hold no seat (they watch)."""
    plays: bool
    """The visitor holds a seat (the page offers their board)."""
    csrf: str
    """The visitor's session's CSRF token (their board's moves carry it)."""


class Activities:
    def __init__(self, ctx: Context, site: Site, accounts: Accounts) -> None:
        self.ctx = ctx
        self.site = site
        self.accounts = accounts

    def enabled(self) -> bool:
        """Are Activities on (``BANMEN_ACTIVITY`` and the OAuth2 client they sign in with)?"""
        settings = self.ctx.settings
        return bool(settings.activity and settings.oauth_client_id and settings.oauth_client_secret)

    def _check(self, user_id: str, instance: Instance) -> None:
        if not self.enabled():
            raise Refusal(NOT_FOUND)
        if user_id not in instance.users:
            raise Refusal(NOT_HERE)

    @entry
    async def enter(self, user: User, instance: Instance) -> Entered:
        """Let ``user`` (whom Discord's OAuth2 named) into the Activity ``instance``: a session
        and the games there; refused for someone the instance does not list."""
        self._check(user.id, instance)
        session = await self.accounts.sign_in(user, ACTIVITY_SESSION)
        games = []
        for game_id in await self.ctx.store.running_in(instance.channel_id):
            loaded = await self.ctx.games.read(game_id)
            if loaded.row.started_ms is not None and await self.site.shown(loaded):
                games.append(listed(loaded, await self.site.token(game_id)))
        return Entered(session, tuple(games))

    def offered(self, reply: Reply) -> Reply:
        """A running game's first card with "Open the board" too, where Activities are on."""
        if not self.enabled() or reply.game_id is None or reply.over:
            return reply
        if any(b.action is Action.OPEN_BOARD for b in reply.actions):
            return reply
        return replace(reply, actions=(*reply.actions, Button(Action.OPEN_BOARD)))

    @entry
    async def open_board(self, game_id: int, user: User) -> Reply:
        """The card's "Open the board" and ``/open``: launch the Activity where Activities are on
        and the game runs somewhere (``launch`` in the reply's params: the adapter answers the
        interaction with it), else the game's page on the site, privately; without a site
        address, say so."""
        loaded = await self.ctx.games.read(game_id)
        link = await self.site.link(game_id)
        row = loaded.row
        live = row.status is GameStatus.ACTIVE and bool(row.thread_id or row.channel_id)
        launch = self.enabled() and live
        key = "activity.launch" if launch else ("activity.link" if link else "activity.no_site")
        return Reply(
            key,
            {"id": game_id, "link": link or "", "launch": launch},
            event=Event.OPEN_BOARD,
            game_id=game_id,
            public=False,
            audience=user.id,
        )

    @entry
    async def gathering(self, token: str, secret: str | None, instance: Instance) -> Gathering:
        """The game behind ``token`` as the Activity shows it to the session ``secret``'s
        visitor: refused for someone not in the instance or a game that lives elsewhere."""
        user = await self.accounts.signed_in(secret)
        if user is None:
            raise Refusal("web.refuse.sign_in")
        self._check(user.user_id, instance)
        loaded = await self.site.loaded(token)
        row = loaded.row
        if instance.channel_id not in (row.thread_id, row.channel_id):
            raise Refusal(ELSEWHERE)
        here = set(instance.users)
        game, players = loaded.game, row.players
        seats = tuple(
            SeatHere(
                Text(game.seat_name(s.seat, "en", players), game.seat_name(s.seat, "ja", players)),
                loaded.name(s.seat),
                s.user_id in here,
            )
            for s in row.seats
        )
        seated = {s.user_id for s in row.seats if s.user_id is not None}
        return Gathering(seats, len(here - seated), user.user_id in seated, user.csrf)
