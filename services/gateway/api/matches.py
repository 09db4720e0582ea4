"""Matches: create one, read it as a seat or spectator, its rules in words, its decisions, send
a command (answered by the fast path in front of the app, ``services.gateway.fastpath``; this
route documents it and answers when the app runs without it), the replay, the paged lists of
stored matches (read models), and the match WebSocket."""

from __future__ import annotations

import contextlib
from typing import Any

import msgspec
from fastapi import APIRouter, Depends, Header, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import Response

from contracts.api import (
    CommandBody,
    CreateMatchBody,
    DecisionOut,
    MatchCreated,
    MatchRules,
    MatchSummaries,
    Replay,
    StoredMatches,
)
from contracts.codecs import encode
from contracts.envelope import Rejected
from domain.core.words import Lang
from domain.games import registry
from services.common import commands, listing, metrics
from services.gateway import edge
from services.gateway.api.deps import PLAIN, gateway, lobby
from services.gateway.bots import assign_bot, bot_seats_problem
from services.gateway.catalogue import rules_help
from services.gateway.core import Gateway, asked_language, language, replay_frames
from services.gateway.credentials import credential_of, request_credential
from services.gateway.edge import ApiError, Idempotent
from services.gateway.errors import Conflict, Malformed, NotFound, errors, rejection_error, retry_header
from services.gateway.fastpath import process_command
from services.gateway.listing import CURSOR, LAG, match_summary, page_of
from services.gateway.lobby import Lobby
from services.gateway.sockets import serve_socket, ws_close_code

router = APIRouter(tags=["matches"])

IDEMPOTENCY_KEY = Header(
    default=None,
    min_length=1,
    max_length=128,
    pattern=r"^[\x21-\x7e]+$",
    description="A retry with the same key (from the same client) returns the first reply "
    "and creates nothing new, also after a gateway restart. Use a fresh random key per match.",
)


def socket_base(request: Request) -> str:
    """``ws://host[:port]`` (``wss://`` behind https) of the address the client used."""
    scheme = "wss" if request.url.scheme == "https" else "ws"
    return f"{scheme}://{request.url.netloc}"


def creation_reply(
    created: commands.CreatedMatch, body: CreateMatchBody, bots: list[dict[str, Any]], ws_base: str
) -> dict[str, Any]:
    humans = [s for s in created.seats if s not in body.bots]
    socket = f"{ws_base}/ws/matches/{created.match_id}"
    return {
        "match_id": created.match_id,
        "game": created.game,
        "preset": created.preset,
        # Each seat's WebSocket URL is ready to open: it plays (and sees) that seat.
        "seats": [
            {"seat": s, "token": created.tokens[s], "websocket": f"{socket}?token={created.tokens[s]}"} for s in humans
        ],
        "bots": bots,
        # A seat's link: whoever opens it plays that seat (share it to invite someone).
        "invites": [
            {"seat": s, "url": f"/#/play/{created.match_id}?token={created.tokens[s]}"} for s in humans
        ],
        "view": f"/api/matches/{created.match_id}",
        "websocket": socket,  # a spectator's: the match as everyone may see it
    }


async def replayed_creation(gw: Gateway, idem: Idempotent, body: CreateMatchBody, ws_base: str) -> dict[str, Any]:
    """The reply to a retried creation whose first reply this gateway no longer holds (it was
    restarted): rebuilt from the stored match, whose token hashes prove it is this key's."""
    folded = await gw.load(idem.match_id)
    assert folded.state is not None
    created_event = folded.state.created
    tokens = {s: commands.derived_token(idem.token_key, s) for s in created_event.seats}
    hashes = tuple(commands.token_hash(tokens[s]) for s in created_event.seats)
    if hashes != tuple(created_event.token_hashes) or folded.game != body.game:
        raise Conflict("idempotency_conflict", "this Idempotency-Key was used for another match")
    created = commands.CreatedMatch(
        match_id=idem.match_id,
        game=folded.game,
        preset=created_event.preset,
        seats=tuple(created_event.seats),
        tokens=tokens,
        seq=1,
    )
    bots = [
        {
            "seat": seat,
            "strength": strength,
            "status": "unknown",
            "detail": "handed over by the first request",
        }
        for seat, strength in body.bots.items()
    ]
    reply = creation_reply(created, body, bots, ws_base)
    gw.idempotency.finish(idem, reply)
    return reply


def creation_problem(body: CreateMatchBody) -> None:
    """What a creation body asks that the gateway refuses before the referee sees it."""
    problem = bot_seats_problem(body.game, body.preset, body.seats, body.players, body.bots)
    if problem:
        raise Malformed("invalid_bots", problem)
    if body.ranked:
        # Names given here carry no credential: they are guests, and a guest is never rated.
        raise Malformed(
            "ranked_needs_queue",
            "rated matches are formed by quick match (POST /api/queue) with a player credential",
        )


@router.post(
    "/api/matches",
    status_code=201,
    summary="Create a match",
    response_model=MatchCreated,
    response_model_exclude_unset=True,  # a seated computer's seat has no detail
    response_class=PLAIN,
    responses=errors(400, 404, 409, 503, 504),
)
async def create_match(
    body: CreateMatchBody,
    request: Request,
    response: Response,
    idempotency_key: str | None = IDEMPOTENCY_KEY,
    gw: Gateway = Depends(gateway),
) -> dict[str, Any]:
    gw.check_bus()
    assert gw.nc is not None
    creation_problem(body)
    idem = None
    if idempotency_key is not None:
        client = credential_of(request.scope) or edge.client_address(request.scope)
        idem = gw.idempotency.begin(client, idempotency_key, body.model_dump_json().encode())
        if idem.reply is not None:
            response.headers["Idempotent-Replayed"] = "true"
            return idem.reply
    created = await commands.create_match(
        gw.nc,
        body.game,
        body.preset,
        body.rules,
        tuple(body.players) if body.players else None,
        seats=body.seats,
        partitions=gw.settings.partitions,
        match_id=idem.match_id if idem else None,
        token_key=idem.token_key if idem else None,
        time_control=body.time_control.model_dump(exclude_none=True) if body.time_control else None,
    )
    if isinstance(created, Rejected):
        if idem is not None and created.code == "match_exists":
            reply = await replayed_creation(gw, idem, body, socket_base(request))
            response.headers["Idempotent-Replayed"] = "true"
            return reply
        raise rejection_error(created)
    gw.remember(created.match_id, created.game)
    bots = [
        await assign_bot(gw, created, seat, strength, body.bot_think_ms, gw.internal_url)
        for seat, strength in body.bots.items()
    ]
    reply = creation_reply(created, body, bots, socket_base(request))
    if idem is not None:
        gw.idempotency.finish(idem, reply)
    return reply


@router.get(
    "/api/matches/{match_id}",
    summary="The match as a seat (token) or spectator sees it",
    # the answer's schema is every game's MatchView (services.gateway.openapi, from the contracts)
    responses=errors(400, 401, 404, 422, 503),
)
async def get_match(
    match_id: str,
    credential: str | None = Depends(request_credential),
    words: Lang = Depends(asked_language),
    gw: Gateway = Depends(gateway),
) -> dict[str, Any]:
    folded = await gw.load(match_id)
    return gw.render(folded, gw.viewer(folded, credential), words)


@router.get(
    "/api/matches/{match_id}/rules",
    summary="The match's rules in words: the aim, how to win and lose, the special rules",
    response_model=MatchRules,
    response_class=PLAIN,
    responses=errors(400, 404, 422, 503),
)
async def get_match_rules(
    match_id: str, words: Lang = Depends(asked_language), gw: Gateway = Depends(gateway)
) -> dict[str, Any]:
    folded = await gw.load(match_id)
    assert folded.state is not None
    game = registry.get(folded.game)
    created = folded.state.created
    found = rules_help(game, msgspec.convert(created.ruleset, game.ruleset_type), words)
    if found is None:
        raise NotFound("no_rules_help", f"{folded.game} has no rules help")
    return {"preset": created.preset, "preset_title": game.preset_title(created.preset, words), **found}


@router.get(
    "/api/matches/{match_id}/events",
    summary="Decisions, redacted for the viewer",
    response_model=list[DecisionOut],
    response_class=PLAIN,
    responses=errors(400, 401, 404, 422, 503),
)
async def get_events(
    match_id: str,
    since: int = Query(0, ge=0, description="Only decisions after this seq."),
    credential: str | None = Depends(request_credential),
    words: Lang = Depends(asked_language),
    gw: Gateway = Depends(gateway),
) -> list[dict[str, Any]]:
    folded = await gw.load(match_id)
    return gw.events_for(folded, gw.viewer(folded, credential), since, words)


@router.post(
    "/api/matches/{match_id}/commands",
    summary="Send a command for your seat",
    # the 200's schema is contracts.envelope.Accepted (services.gateway.openapi, from the contract)
    responses=errors(400, 401, 403, 404, 408, 409, 413, 415, 422, 503, 504),
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": CommandBody.model_json_schema()}},
        }
    },
)
async def post_command(
    match_id: str,
    request: Request,
    credential: str | None = Depends(request_credential),
    gw: Gateway = Depends(gateway),
) -> Response:
    # Served by CommandFastPath in front of the app; this route documents it (and answers when
    # the app runs without the fast path).
    status, payload, retry_after = await process_command(gw, match_id, await request.body(), credential)
    return Response(
        payload, status_code=status, headers=retry_header(retry_after), media_type="application/json"
    )


@router.get(
    "/api/matches/{match_id}/replay",
    summary="Every decision with the spectator's view after it (public information only)",
    response_model=Replay,
    response_class=PLAIN,
    responses=errors(400, 404, 422, 503),
)
async def replay(
    match_id: str, words: Lang = Depends(asked_language), gw: Gateway = Depends(gateway)
) -> dict[str, Any]:
    return replay_frames(await gw.load(match_id), words)


EMPTY_PAGE: dict[str, Any] = {"matches": [], "next_cursor": None}


@router.get(
    "/api/matches",
    summary="Stored matches (id, game, decisions), newest first, a page at a time",
    description="Every stored match, running or finished." + LAG,
    response_model=StoredMatches,
    responses=errors(400),
)
async def list_matches(
    limit: int = Query(100, ge=1, le=1000), cursor: str | None = CURSOR, at: Lobby = Depends(lobby)
) -> dict[str, Any]:
    page = await page_of(lambda: listing.stored_matches(at.engine(), cursor, limit, most=1000), EMPTY_PAGE)
    return {
        "matches": [
            {"match_id": m["match_id"], "game": m["game"], "decisions": m["decisions"]}
            for m in page["matches"]
        ],
        "next_cursor": page["next_cursor"],
    }


@router.get(
    "/api/match-summaries",
    summary="Stored matches with players, status, result and dates, newest first, a page at a time",
    description="The same pages as `GET /api/matches`." + LAG,
    response_model=MatchSummaries,
    responses=errors(400, 422),
)
async def list_match_summaries(
    limit: int = Query(20, ge=1, le=100),
    cursor: str | None = CURSOR,
    words: Lang = Depends(asked_language),
    at: Lobby = Depends(lobby),
) -> dict[str, Any]:
    page = await page_of(lambda: listing.stored_matches(at.engine(), cursor, limit, most=100), EMPTY_PAGE)
    return {"matches": [match_summary(m, words) for m in page["matches"]], "next_cursor": page["next_cursor"]}


@router.websocket("/ws/matches/{match_id}")
async def ws_match(
    websocket: WebSocket,
    match_id: str,
    since: int = 0,
    lang: str | None = None,
    gw: Gateway = Depends(gateway),
) -> None:
    await websocket.accept()
    metrics.WS_CONNECTIONS.inc()
    try:
        words = language(lang, websocket.headers.get("accept-language"))
        await serve_socket(gw, websocket, match_id, credential_of(websocket.scope), since, words)
    except WebSocketDisconnect:
        pass
    except ApiError as exc:
        with contextlib.suppress(Exception):
            await websocket.send_text(
                encode({"type": "error", "code": exc.code, "detail": edge.safe_text(exc.detail)}).decode()
            )
            await websocket.close(code=ws_close_code(exc))
    finally:
        metrics.WS_CONNECTIONS.dec()
