"""What the routers' handlers get through FastAPI ``Depends``: the gateway (``core.Gateway``)
and the lobby (``lobby.Lobby``) the app was built with, and the caller (the request's
credential, read once by :mod:`services.gateway.credentials`, and the player or dispute actor
it names, authenticated when the handler asks: a missing or malformed parameter is still
answered 422 before a missing credential is 401).

Replies that went out as FastAPI's plain JSON before they were typed keep
``response_class=JSONResponse`` (:data:`PLAIN`): their model is serialized to Python values and
written by ``json.dumps``, so every number is spelled as before (pydantic's own JSON writer
spells ``1e-07`` as ``1e-7``)."""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import Depends
from fastapi.responses import JSONResponse
from starlette.requests import HTTPConnection

from domain.disputes import Actor
from services.common import accounts
from services.gateway.core import Gateway
from services.gateway.credentials import request_credential
from services.gateway.lobby import Lobby

PLAIN = JSONResponse


def gateway(connection: HTTPConnection) -> Gateway:
    """The app's gateway state (``create_app`` puts it on ``app.state``)."""
    gw: Gateway = connection.app.state.gateway
    return gw


def lobby(connection: HTTPConnection) -> Lobby:
    """The app's lobby: the queue, the accounts database, the read models."""
    found: Lobby = connection.app.state.lobby
    return found


@dataclass(frozen=True, slots=True)
class Caller:
    """Who sent the request: its credential, and the player it names on demand."""

    credential: str | None
    lobby: Lobby

    async def player(self) -> accounts.Player:
        """The player the credential names; 401 without one or with a bad one."""
        return await self.lobby.player(self.credential)

    async def actor(self) -> Actor:
        """The player as the disputes' rules see them."""
        player = await self.player()
        return Actor(name=player.name, operator=player.operator)


def caller(credential: str | None = Depends(request_credential), found: Lobby = Depends(lobby)) -> Caller:
    return Caller(credential, found)
