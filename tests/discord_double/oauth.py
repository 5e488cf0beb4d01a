"""Discord's OAuth2 for a site's sign-in, as the Discord double serves it (issue 51, 1).

Discord's authorize page asks the visitor to approve the application; here the approval is at
once, as :attr:`OAuth.signing_in` (a user of the double; none: the visitor said no, and comes
back with ``error=access_denied``). The code is single-use, bound to the client and the
redirect address it was given for; it is traded at ``POST /oauth2/token`` (a form, as Discord
takes it) for a bearer token, which ``GET /users/@me`` answers with its user. A bad client,
code or address is a 400 ``invalid_grant``/``invalid_client`` as Discord answers. An
Activity's code (:meth:`OAuth.activity_code`, issue 51, 3) comes from the Embedded App SDK's
``authorize`` inside Discord's client, not from a redirect: it is traded without an address.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import urlencode

from aiohttp import web

if TYPE_CHECKING:
    from tests.discord_double.payloads import User

CLIENT_ID = "1300000000000000999"
CLIENT_SECRET = "double-client-secret"


@dataclass
class Grant:
    user: User
    client_id: str
    redirect_uri: str | None
    """None: a code the Embedded App SDK's ``authorize`` gave an Activity (traded without
    one)."""


@dataclass
class OAuth:
    signing_in: User | None = None
    """Whom the authorize page signs in (None: the visitor refuses)."""
    client_id: str = CLIENT_ID
    client_secret: str = CLIENT_SECRET
    codes: dict[str, Grant] = field(default_factory=dict)
    tokens: dict[str, User] = field(default_factory=dict)
    exchanges: int = 0
    """Codes traded (or tried) so far."""

    async def authorize(self, request: web.Request) -> web.StreamResponse:
        q = request.query
        redirect = q.get("redirect_uri", "")
        if q.get("client_id") != self.client_id or not redirect.startswith("http"):
            return web.Response(status=400, text="Invalid OAuth2 redirect_uri or client_id")
        if q.get("response_type") != "code" or "identify" not in q.get("scope", "").split():
            return web.Response(status=400, text="Invalid response_type or scope")
        state = q.get("state", "")
        if self.signing_in is None:
            answer = {"error": "access_denied", "state": state}
        else:
            code = secrets.token_urlsafe(16)
            self.codes[code] = Grant(self.signing_in, self.client_id, redirect)
            answer = {"code": code, "state": state}
        return web.Response(status=302, headers={"Location": f"{redirect}?{urlencode(answer)}"})

    def activity_code(self, user: User) -> str:
        """The code an Activity's ``authorize`` gives the page once ``user`` approved it in
        Discord's client (single-use, traded without a ``redirect_uri``)."""
        code = secrets.token_urlsafe(16)
        self.codes[code] = Grant(user, self.client_id, None)
        return code

    async def token(self, request: web.Request) -> web.Response:
        self.exchanges += 1
        form = await request.post()
        if form.get("client_id") != self.client_id or form.get("client_secret") != (
            self.client_secret
        ):
            return web.json_response({"error": "invalid_client"}, status=401)
        grant = self.codes.pop(str(form.get("code", "")), None)  # a code is used once
        if (
            form.get("grant_type") != "authorization_code"
            or grant is None
            or grant.redirect_uri != form.get("redirect_uri")  # none for an Activity's
        ):
            return web.json_response({"error": "invalid_grant"}, status=400)
        token = secrets.token_urlsafe(24)
        self.tokens[token] = grant.user
        return web.json_response(
            {
                "access_token": token,
                "token_type": "Bearer",
                "expires_in": 604800,
                "refresh_token": secrets.token_urlsafe(24),
                "scope": "identify",
            }
        )

    def bearer(self, request: web.Request) -> web.Response:
        """``GET /users/@me`` with a bearer token: its user (401 for an unknown token)."""
        token = request.headers.get("Authorization", "").removeprefix("Bearer ")
        user = self.tokens.get(token)
        if user is None:
            return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        return web.json_response(user.payload())
