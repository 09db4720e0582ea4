"""The gateway's routes (OpenAPI at /docs): games, matches, commands (documented here, answered by
the fast path in front), replays, audit bundles and keys, health and metrics, the match
WebSocket.  The lobby's routes are in ``lobby.py``; the paged lists of matches (read models) in
``listing.py``."""

from __future__ import annotations

import contextlib
from typing import Annotated, Any, Literal

import msgspec
from fastapi import APIRouter, Depends, Header, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from contracts.codecs import encode
from contracts.envelope import Rejected
from domain.core.words import DEFAULT_LANG, Lang
from domain.games import registry
from domain.games.catalogue import family_order, game_title, preset_family
from services.common import commands, metrics
from services.common.certificates import published_keys
from services.common.health import Check, nats_checks, not_yet, readiness, record, referee_answers
from services.gateway import edge
from services.gateway.bots import assign_bot, bot_seats_problem
from services.gateway.core import Gateway, asked_language, language, replay_frames
from services.gateway.credentials import credential_of, request_credential
from services.gateway.edge import ApiError, Idempotent
from services.gateway.errors import errors, rejection_error, retry_header
from services.gateway.fastpath import process_command
from services.gateway.sockets import serve_socket, ws_close_code

Name = Annotated[str, StringConstraints(min_length=1, max_length=edge.MAX_PLAYER_NAME)]
Word = Annotated[str, StringConstraints(min_length=1, max_length=64)]


class TimeControlBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    base_s: float = Field(default=0, description="Fischer: seconds for the whole match.")
    increment_s: float = Field(default=0, description="Fischer: seconds added after each of the seat's moves.")
    move_s: float = Field(default=0, description="Per move: seconds for every turn (instead of base_s).")
    grace_s: float = Field(
        default=0,
        description="A seat that is to move this long in all without sending any command is abandoned "
        "(docs/architecture.md, Abandonment). 0: never.",
    )
    on_timeout: Literal["forfeit", "bot"] | None = Field(
        default=None,
        description='What a timed-out or abandoned seat becomes: "bot" (a computer player takes the seat over '
        'and the match goes on; the default of a casual match) or "forfeit" (the game\'s rule).',
    )


class CreateMatchBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game: Word = Field(description="Game name, e.g. 'ugolki'. See GET /api/games.")
    preset: Word | None = Field(default=None, description="Preset name; the game's default when omitted.")
    rules: dict[str, Any] = Field(
        default_factory=dict, description="Ruleset parameters overriding the preset."
    )
    players: list[Name] | None = Field(
        default=None,
        max_length=16,
        description="Display names (1-64 characters), one per seat. They are guests (no credential): "
        "the match is never rated; rated play goes through POST /api/queue with a player credential.",
    )
    seats: int | None = Field(default=None, ge=1, le=16, description="Number of seats (games with 2-N seats).")
    ranked: bool = Field(
        default=False, description="Must be false here: rated matches are formed by POST /api/queue."
    )
    bots: dict[Word, Word] = Field(
        default_factory=dict,
        description="Seats played by the computer: seat -> strength (see 'bots' in GET /api/games). "
        "Their tokens go to the bots service; the reply holds only the other seats' tokens.",
    )
    bot_think_ms: int | None = Field(
        default=None, ge=0, le=10_000, description="Computer players' pause before each move (ms)."
    )
    time_control: TimeControlBody | None = Field(
        default=None,
        description='The clock: {"base_s": B, "increment_s": I} (Fischer) or {"move_s": M} (per move), '
        'optionally "grace_s" and "on_timeout". A seat whose time runs out times out by the game\'s rule, '
        'or goes to a computer player (docs/audit.md, Clocks).',
    )


class CommandBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    command: dict[str, Any] = Field(
        description='The command as JSON with its tag, e.g. {"type": "move_piece.v1", "path": ["h3", "h5"]}.'
        " Fields the command does not have are refused."
    )
    command_id: str | None = Field(
        default=None,
        min_length=1,
        max_length=edge.MAX_COMMAND_ID,
        description="Idempotency key (1-128 characters): a retry with the same id returns the first reply.",
    )


def creation_reply(created: commands.CreatedMatch, body: CreateMatchBody, bots: list[dict[str, Any]]) -> dict[str, Any]:
    humans = [s for s in created.seats if s not in body.bots]
    return {
        "match_id": created.match_id,
        "game": created.game,
        "preset": created.preset,
        "seats": [{"seat": s, "token": created.tokens[s]} for s in humans],
        "bots": bots,
        # A seat's link: whoever opens it plays that seat (share it to invite someone).
        "invites": [
            {"seat": s, "url": f"/#/play/{created.match_id}?token={created.tokens[s]}"} for s in humans
        ],
        "view": f"/api/matches/{created.match_id}",
        "websocket": f"/ws/matches/{created.match_id}?token=<seat token>",
    }


async def replayed_creation(gw: Gateway, idem: Idempotent, body: CreateMatchBody) -> dict[str, Any]:
    """The reply to a retried creation whose first reply this gateway no longer holds (it was
    restarted): rebuilt from the stored match, whose token hashes prove it is this key's."""
    folded = await gw.load(idem.match_id)
    assert folded.state is not None
    created_event = folded.state.created
    tokens = {s: commands.derived_token(idem.token_key, s) for s in created_event.seats}
    hashes = tuple(commands.token_hash(tokens[s]) for s in created_event.seats)
    if hashes != tuple(created_event.token_hashes) or folded.game != body.game:
        raise ApiError(409, "idempotency_conflict", "this Idempotency-Key was used for another match")
    created = commands.CreatedMatch(
        match_id=idem.match_id,
        game=folded.game,
        preset=created_event.preset,
        seats=tuple(created_event.seats),
        tokens=tokens,
        seq=1,
    )
    bots = [
        {"seat": seat, "strength": strength, "status": "unknown", "detail": "handed over by the first request"}
        for seat, strength in body.bots.items()
    ]
    reply = creation_reply(created, body, bots)
    gw.idempotency.finish(idem, reply)
    return reply


def games_catalogue(lang: Lang = DEFAULT_LANG) -> list[dict[str, Any]]:
    out = []
    for name, game in sorted(registry.GAMES.items()):
        meta = game
        out.append(
            {
                "game": name,
                "title": game_title(name, meta.title, lang),
                "rules_version": meta.rules_version,
                "seats": {"min": meta.min_seats, "max": meta.max_seats},
                "seat_names": {
                    str(n): list(meta.seat_names(n)) for n in range(meta.min_seats, meta.max_seats + 1)
                },
                "default_preset": meta.default_preset,
                "chance": meta.chance,
                "hidden_info": meta.hidden_info,
                "helper": game.helper,  # a table helper: never rated, not in quick match
                "bots": list(game.bots),
                "default_bot": game.default_bot,
                "families": list(family_order(name, lang)),
                "presets": [
                    {
                        "name": preset_name,
                        "family": preset_family(name, preset_name, lang)[0],
                        "title": preset_family(name, preset_name, lang)[1],
                        "description": p.described(lang),
                        "rules": msgspec.to_builtins(p.ruleset),
                        "help": rules_help(game, p.ruleset, lang),
                    }
                    for preset_name, p in meta.presets.items()
                ],
            }
        )
    return out


def rules_help(game: registry.Game, ruleset: Any, lang: Lang = DEFAULT_LANG) -> dict[str, Any] | None:
    """The ruleset in words for players (``contracts.match.RulesHelp``) in ``lang``, None for a
    game without."""
    if game.rules_help is None:
        return None
    return msgspec.to_builtins(game.rules_help(ruleset, lang))  # type: ignore[no-any-return]


def readiness_checks(gw: Gateway) -> dict[str, Check]:
    """The gateway's readiness checks: NATS connected, the streams answer, a referee answers
    (``/readyz`` and the sampled ``gamehall_ready_check`` gauges)."""
    if gw.nc is None:
        return {"nats": not_yet("not connected to NATS")}
    return {**nats_checks(gw.nc), "referee": referee_answers(gw.nc)}


def router(gw: Gateway) -> APIRouter:
    """The HTTP routes and the WebSocket of matches, games, audit and operations."""
    api = APIRouter()

    @api.get("/healthz", tags=["ops"], summary="Liveness: the gateway process answers")
    async def healthz() -> dict[str, Any]:
        return {"ok": True}

    @api.get(
        "/readyz",
        tags=["ops"],
        summary="Readiness: NATS connected, streams reachable, a referee answering",
        responses={503: {"description": "not ready; `checks` names what fails"}},
    )
    async def readyz() -> Response:
        ready, checks = await readiness(readiness_checks(gw))
        record(checks)
        # which start of the stack this gateway belongs to (`gamehall up` checks it is its own)
        instance = {"instance": gw.settings.instance} if gw.settings.instance else {}
        if ready:
            return JSONResponse({"ready": True, "checks": checks, **instance})
        return JSONResponse(
            {"code": "unavailable", "detail": "the gateway is not ready", "retry_after": 1, "checks": checks, **instance},
            status_code=503,
            headers={"Retry-After": "1"},
        )

    @api.get(
        "/api/games", tags=["games"], summary="Games, presets and their rules", responses=errors(422)
    )
    async def list_games(words: Lang = Depends(asked_language)) -> list[dict[str, Any]]:
        return games_catalogue(words)

    @api.post(
        "/api/matches",
        status_code=201,
        tags=["matches"],
        summary="Create a match",
        responses=errors(400, 404, 409, 503, 504),
    )
    async def create_match(
        body: CreateMatchBody,
        request: Request,
        response: Response,
        idempotency_key: str | None = Header(
            default=None,
            min_length=1,
            max_length=128,
            pattern=r"^[\x21-\x7e]+$",
            description="A retry with the same key (from the same client) returns the first reply "
            "and creates nothing new, also after a gateway restart. Use a fresh random key per match.",
        ),
    ) -> dict[str, Any]:
        gw.check_bus()
        assert gw.nc is not None
        problem = bot_seats_problem(body.game, body.preset, body.seats, body.players, body.bots)
        if problem:
            raise ApiError(400, "invalid_bots", problem)
        if body.ranked:
            # Names given here carry no credential: they are guests, and a guest is never rated.
            raise ApiError(
                400,
                "ranked_needs_queue",
                "rated matches are formed by quick match (POST /api/queue) with a player credential",
            )
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
                reply = await replayed_creation(gw, idem, body)
                response.headers["Idempotent-Replayed"] = "true"
                return reply
            raise rejection_error(created)
        gw.remember(created.match_id, created.game)
        bots = [
            await assign_bot(gw, created, seat, strength, body.bot_think_ms, gw.internal_url)
            for seat, strength in body.bots.items()
        ]
        reply = creation_reply(created, body, bots)
        if idem is not None:
            gw.idempotency.finish(idem, reply)
        return reply

    @api.get(
        "/api/matches/{match_id}",
        tags=["matches"],
        summary="The match as a seat (token) or spectator sees it",
        responses=errors(400, 401, 404, 422, 503),
    )
    async def get_match(
        match_id: str,
        credential: str | None = Depends(request_credential),
        words: Lang = Depends(asked_language),
    ) -> dict[str, Any]:
        folded = await gw.load(match_id)
        return gw.render(folded, gw.viewer(folded, credential), words)

    @api.get(
        "/api/matches/{match_id}/rules",
        tags=["matches"],
        summary="The match's rules in words: the aim, how to win and lose, the special rules",
        responses=errors(400, 404, 422, 503),
    )
    async def get_match_rules(match_id: str, words: Lang = Depends(asked_language)) -> dict[str, Any]:
        folded = await gw.load(match_id)
        assert folded.state is not None
        game = registry.get(folded.game)
        created = folded.state.created
        found = rules_help(game, msgspec.convert(created.ruleset, game.ruleset_type), words)
        if found is None:
            raise ApiError(404, "no_rules_help", f"{folded.game} has no rules help")
        return {"preset": created.preset, **found}

    @api.get(
        "/api/matches/{match_id}/events",
        tags=["matches"],
        summary="Decisions, redacted for the viewer",
        responses=errors(400, 401, 404, 503),
    )
    async def get_events(
        match_id: str,
        since: int = Query(0, ge=0, description="Only decisions after this seq."),
        credential: str | None = Depends(request_credential),
    ) -> list[dict[str, Any]]:
        folded = await gw.load(match_id)
        return gw.events_for(folded, gw.viewer(folded, credential), since)

    @api.post(
        "/api/matches/{match_id}/commands",
        tags=["matches"],
        summary="Send a command for your seat",
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
    ) -> Response:
        # Served by CommandFastPath in front of the app; this route documents it (and answers
        # when the app runs without the fast path).
        status, payload, retry_after = await process_command(gw, match_id, await request.body(), credential)
        return Response(payload, status_code=status, headers=retry_header(retry_after), media_type="application/json")

    @api.get(
        "/api/matches/{match_id}/replay",
        tags=["matches"],
        summary="Every decision with the spectator's view after it (public information only)",
        responses=errors(400, 404, 422, 503),
    )
    async def replay(match_id: str, words: Lang = Depends(asked_language)) -> dict[str, Any]:
        return replay_frames(await gw.load(match_id), words)

    @api.get(
        "/api/keys",
        tags=["audit"],
        summary="Public keys that sign match certificates (Ed25519, hex), with their validity",
        responses=errors(503),
    )
    async def keys() -> Response:
        assert gw.nc is not None
        return Response(encode(await published_keys(gw.nc.jetstream())), media_type="application/json")

    @api.get(
        "/api/matches/{match_id}/export",
        tags=["audit"],
        summary="Audit bundle of a match",
        responses=errors(400, 404, 409, 503),
    )
    async def export(match_id: str) -> Response:
        bundle = await gw.bundle(match_id)
        return Response(
            encode(bundle),
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{match_id}.json"'},
        )

    @api.websocket("/ws/matches/{match_id}")
    async def ws_match(
        websocket: WebSocket, match_id: str, since: int = 0, lang: str | None = None
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

    return api
