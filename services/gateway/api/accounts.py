"""Players' accounts: sign up (a player name and its API token, shown once) and the player a
credential names.  Client apps are registered by operators (``gamehall apps``), not over HTTP."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Depends

from contracts.api import Me, SignedUp, SignUpBody
from contracts.envelope import Rejected
from services.common import accounts
from services.gateway.api.deps import PLAIN, Caller, caller, lobby
from services.gateway.errors import ACCOUNT_REFUSALS, Malformed, refusal
from services.gateway.lobby import Lobby

router = APIRouter(tags=["players"])


@router.post(
    "/api/accounts",
    status_code=201,
    summary="Sign up: a player name and its API token",
    response_model=SignedUp,
    response_class=PLAIN,
)
async def sign_up(body: SignUpBody, at: Lobby = Depends(lobby)) -> dict[str, Any]:
    engine = await at.accounts_engine()
    made = await asyncio.to_thread(accounts.sign_up, engine, body.name, at.server_key)
    if isinstance(made, Rejected):
        raise refusal(made, ACCOUNT_REFUSALS, Malformed)
    player, token = made
    # The token is shown this once; only its HMAC is stored.
    return {"player": player.name, "token": token, "authorization": "Bearer <token>"}


@router.get(
    "/api/accounts/me", summary="The player your credential names", response_model=Me, response_class=PLAIN
)
async def me(who: Caller = Depends(caller)) -> dict[str, Any]:
    player = await who.player()
    return {"player": player.name, "app_id": player.app_id}
