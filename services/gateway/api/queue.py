"""Quick match: join a matchmaking queue, where you are, your seat once the table formed, leave;
and what anyone may see of the queues: open seeks and open tables.  Every queue route acts only
for the player the credential names (``services.gateway.lobby``)."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import msgspec
from fastapi import APIRouter, Depends, Query

from contracts.api import JoinBody, LeaveBody, LeftOut, QueueState, SeeksOut, TablesOut, TicketState
from contracts.envelope import Rejected
from contracts.matchmaking import Forming, JoinQueue, OpenTables, Playing, Queued, Seated, Seeks, Waiting
from domain.core.words import Lang
from domain.games import registry
from services.common import commands
from services.common import matchmaking_client as mm_client
from services.gateway.api.deps import PLAIN, Caller, caller, lobby
from services.gateway.catalogue import titles
from services.gateway.core import asked_language
from services.gateway.errors import (
    QUEUE_REFUSALS,
    Forbidden,
    Malformed,
    NotFound,
    Unavailable,
    errors,
    refusal,
)
from services.gateway.lobby import Lobby, table_token_key

router = APIRouter(tags=["lobby"])
T = TypeVar("T")

QUEUE_DETAILS = {
    "already_queued": "you are already in a queue (GET /api/queue shows your ticket)",
    "in_match": "you are at a table or in a match that has not finished",
    "not_queued": "you are in no queue",
}


def refused(reply: Rejected) -> Exception:
    """A matchmaking refusal as the gateway answers it: never a ticket id in the detail."""
    return refusal(reply, QUEUE_REFUSALS, Malformed, QUEUE_DETAILS.get(reply.code, reply.detail))


async def answer(what: str, asking: Awaitable[T]) -> T:
    """What ``what`` (the matchmaking service, the queue bucket) answers; 503 when it does not."""
    try:
        return await asking
    except Exception as exc:
        raise Unavailable("unavailable", f"{what} does not answer: {exc!r}") from exc


def plain(reply: Any) -> dict[str, Any]:
    """A matchmaking reply's fields without its type tag."""
    out: dict[str, Any] = msgspec.to_builtins(reply)
    out.pop("type", None)
    return out


@router.post(
    "/api/queue",
    summary="Quick match: join a matchmaking queue (your credential)",
    response_model=QueueState,
    response_class=PLAIN,
)
async def join(body: JoinBody, who: Caller = Depends(caller)) -> dict[str, Any]:
    gw = who.lobby.gw
    assert gw.nc is not None
    me = await who.player()
    if body.player is not None and body.player != me.name:
        raise Forbidden("not_your_player", "you may join the queue only as the player your credential names")
    game = registry.GAMES.get(body.game)
    if game is None:
        raise NotFound("unknown_game", f"unknown game {body.game!r}")
    if game.helper:
        raise Malformed("not_offered", f"{game.title} is a table helper: open a table with POST /api/matches")
    if body.public and not body.invite:
        raise Malformed("public_needs_invite", "a public table needs its code: send invite with public")
    request = JoinQueue(
        player=me.name,
        game=body.game,
        preset=game.canonical_preset(body.preset or game.default_preset),
        seats=body.seats,
        ranked=body.ranked,
        bots_ok=body.bots_ok,
        invite=body.invite,
        public=body.public,
    )
    reply = await answer("matchmaking", mm_client.join(gw.nc, request))
    if isinstance(reply, Rejected):
        raise refused(reply)
    if isinstance(reply, Queued):
        return {"state": "queued", **plain(reply)}
    return {"state": type(reply).__name__.lower(), **plain(reply)}


@router.get(
    "/api/queue",
    summary="Quick match: where you are (your own ticket when queued)",
    response_model=QueueState,
    response_class=PLAIN,
)
async def my_queue(who: Caller = Depends(caller)) -> dict[str, Any]:
    me = await who.player()
    assert who.lobby.gw.nc is not None
    reply = await answer("matchmaking", mm_client.status(who.lobby.gw.nc, me.name))
    if isinstance(reply, Rejected):
        raise refused(reply)
    state = {Queued: "queued", Seated: "forming"}.get(type(reply), "idle")
    return {"state": state, **plain(reply)}


@router.get(
    "/api/queue/{ticket_id}",
    summary="Quick match: your seat once the table formed",
    response_model=TicketState,
    response_class=PLAIN,
)
async def ticket(ticket_id: str, who: Caller = Depends(caller)) -> dict[str, Any]:
    me = await who.player()
    at = who.lobby
    gw = at.gw
    gw.check_bus()
    assert gw.nc is not None and at.queue is not None
    entry, _ = await answer("the queue", at.queue.get(me.name))
    # Another player's ticket is answered as no ticket at all: its seat token is theirs.
    if not isinstance(entry, Waiting | Forming | Playing) or entry.ticket.ticket_id != ticket_id:
        raise NotFound("not_queued", "you hold no such ticket")
    if isinstance(entry, Playing):
        token = commands.derived_token(table_token_key(at.secret, entry.table.table_id), entry.seat)
        return {"state": "seated", "match_id": entry.match_id, "seat": entry.seat, "token": token}
    reply = await answer("matchmaking", mm_client.status(gw.nc, me.name))
    if isinstance(reply, Seated):
        return {"state": "forming", **plain(reply)}
    if isinstance(reply, Rejected):
        return {"state": "unknown", "code": reply.code, "detail": reply.detail}
    return {"state": "queued" if isinstance(reply, Queued) else "idle", **plain(reply)}


@router.post(
    "/api/queue/leave",
    summary="Quick match: leave the queue (your credential)",
    response_model=LeftOut,
    response_class=PLAIN,
)
async def leave(body: LeaveBody | None = None, who: Caller = Depends(caller)) -> dict[str, Any]:
    me = await who.player()
    if body is not None and body.player is not None and body.player != me.name:
        raise Forbidden("not_your_player", "you may take only yourself out of the queue")
    assert who.lobby.gw.nc is not None
    reply = await answer("matchmaking", mm_client.leave(who.lobby.gw.nc, me.name))
    if isinstance(reply, Rejected):
        raise refused(reply)
    return plain(reply)


async def matchmaking_listing(
    at: Lobby, ask: Callable[[Any, str], Awaitable[Any]], shape: type[T], game: str | None
) -> T:
    """A listing the matchmaking service answers (seeks, open tables) for ``game`` or all."""
    if game is not None and game not in registry.GAMES:
        raise NotFound("unknown_game", f"unknown game {game!r}")
    at.gw.check_bus()
    assert at.gw.nc is not None
    reply = await answer("matchmaking", ask(at.gw.nc, game or ""))
    if not isinstance(reply, shape):
        raise Unavailable("unavailable", f"matchmaking answered {type(reply).__name__}")
    return reply


GAME_FILTER = Query(None, max_length=64)


@router.get(
    "/api/seeks",
    summary="Open seeks: public quick-match queues with players waiting, oldest first",
    response_model=SeeksOut,
    responses=errors(404, 422, 503),
)
async def open_seeks(
    game: str | None = GAME_FILTER, words: Lang = Depends(asked_language), at: Lobby = Depends(lobby)
) -> dict[str, Any]:
    # Join one with POST /api/queue and the same game, preset, seats and ranked.  Private
    # (invite) queues and computer tables are never listed, nor any ticket id.
    reply = await matchmaking_listing(at, mm_client.seeks, Seeks, game)
    return {"seeks": [{**plain(s), **titles(s.game, s.preset, words)} for s in reply.seeks]}


@router.get(
    "/api/tables",
    summary="Open tables: private tables their host opened to anyone, oldest first",
    response_model=TablesOut,
    responses=errors(404, 422, 503),
)
async def open_tables(
    game: str | None = GAME_FILTER, words: Lang = Depends(asked_language), at: Lobby = Depends(lobby)
) -> dict[str, Any]:
    # Join one with POST /api/queue and its game, preset, seats, ranked and invite.  Only
    # tables whose host asked for it (public) are listed; never a ticket id or seat token.
    reply = await matchmaking_listing(at, mm_client.tables, OpenTables, game)
    now = int(time.time() * 1000)
    return {
        "tables": [
            {**plain(t), **titles(t.game, t.preset, words), "age_s": max(0, (now - t.since) // 1000)}
            for t in reply.tables
        ]
    }
