"""The gateway: HTTP + WebSocket for client apps (OpenAPI at /docs).

Views are derived here from the log: the gateway folds a match's subject (an ordered
JetStream consumer per watched match) and renders ``view(state, seat)`` for each client, so
the referee's hot path publishes nothing extra.  Commands go to the referee by NATS request.
"""

from __future__ import annotations

import asyncio
import base64
import bisect
import contextlib
import math
import re
import time
import uuid
from collections import OrderedDict
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import parse_qsl

import msgspec
from fastapi import FastAPI, Header, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from nats.aio.client import Client
from nats.errors import Error as NatsError
from nats.js.api import ConsumerConfig, DeliverPolicy
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from pydantic import BaseModel, ConfigDict, Field, StringConstraints
from starlette.exceptions import HTTPException as StarletteHTTPException

from contracts import subjects
from contracts.audit import AuditBundle, StoredEnvelope
from contracts.bots import BotSeatAssigned
from contracts.bots import reply_decoder as bots_reply_decoder
from contracts.certificate import SignedCertificate
from contracts.codecs import codec, encode
from contracts.envelope import Accepted, EventEnvelope, Rejected
from domain.core import match as match_layer
from domain.core.audit import envelope_hash
from domain.games import registry
from services.common import commands, logs, metrics
from services.common.certificates import load_certificate, published_keys
from services.common.health import nats_checks, readiness, referee_answers
from services.common.natsio import APP_STREAMS, EventStore, Stored, connect, ensure_streams
from services.common.reader import FoldedMatch, find_game, load_match
from services.common.settings import Settings
from services.gateway import edge, openapi
from services.gateway.edge import ApiError, Idempotent
from services.gateway.lobby import Lobby
from services.gateway.lobby import router as lobby_router

MATCH_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
FOLDED_CACHE_SIZE = 2048  # matches kept folded in a gateway's memory
WEB_DIR = Path(__file__).resolve().parents[2] / "web"

log = logs.get("gateway")


RETRY_AFTER_S = 1.0  # what a 503 tells a client to wait

REJECTION_STATUS = {
    "malformed": 400,
    "invalid_ruleset": 400,
    "unknown_preset": 400,
    "unknown_game": 404,
    "invalid_seats": 400,
    "bad_token": 401,
    "not_a_seat": 403,
    "match_not_found": 404,
    "unavailable": 503,
    "timeout": 504,
    "busy": 503,
}


def rejection_error(rej: Rejected) -> ApiError:
    status = REJECTION_STATUS.get(rej.code, 409)
    return ApiError(status, rej.code, rej.detail, RETRY_AFTER_S if status == 503 else None)


def nats_down() -> ApiError:
    return ApiError(503, "unavailable", "the message bus is unreachable; retry shortly", RETRY_AFTER_S)


# ------------------------------------------------------------------ request bodies
Name = Annotated[str, StringConstraints(min_length=1, max_length=edge.MAX_PLAYER_NAME)]
Word = Annotated[str, StringConstraints(min_length=1, max_length=64)]


class ErrorBody(BaseModel):
    """Every error answer (4xx and 5xx)."""

    code: str = Field(description="Stable snake_case code, e.g. 'not_your_turn', 'rate_limited'.")
    detail: str = Field(description="A sentence for people.")
    retry_after: float | None = Field(
        default=None, description="Seconds to wait before retrying (429 and 503, with a Retry-After header)."
    )


ERROR_TEXT = {
    400: "Malformed request, or JSON over the limits (too_deep, too_long)",
    401: "Missing or wrong token",
    403: "The token names a seat the match does not have",
    404: "No such match, game or route",
    405: "Method not allowed",
    408: "The body did not arrive in time",
    409: "A well-formed command or request the rules or the state refuse",
    413: "Body over 64 KB",
    415: "Body not application/json",
    422: "The body does not match the schema",
    429: "Rate limited (Retry-After)",
    503: "The message bus or no referee answers (Retry-After)",
    504: "The referee did not answer in time: retry with the same command_id",
}


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI ``responses`` for a route: every error it can answer (429 on every route), each
    with the one error shape."""
    return {
        status: {"model": ErrorBody, "description": ERROR_TEXT[status]} for status in sorted({429, *statuses})
    }


BODY_ERRORS = (400, 408, 413, 415, 422)


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


CommandId = Annotated[str, msgspec.Meta(min_length=1, max_length=edge.MAX_COMMAND_ID)]


class CommandRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The body of POST /api/matches/{id}/commands (documented by ``CommandBody``)."""

    command: dict[str, Any]
    command_id: CommandId | None = None


command_request_decoder = msgspec.json.Decoder(CommandRequest)


def bearer(authorization: str | None, token: str | None) -> str | None:
    if authorization and authorization.lower().startswith("bearer "):
        return authorization[7:].strip()
    return token or None


class Gateway:
    def __init__(self, settings: Settings, nats_url: str) -> None:
        self.settings = settings
        self.nats_url = nats_url
        self.nc: Client | None = None
        self.store: EventStore | None = None
        self._games: dict[str, str] = {}  # match_id -> game
        self._folded: OrderedDict[str, FoldedMatch] = OrderedDict()
        self._refresh_locks: dict[str, asyncio.Lock] = {}
        self.internal_url = ""  # set by run(): where the bots service reaches this gateway
        self.limiter = edge.Limiter(settings.gateway.limits())
        self.connections: edge.ConnectionGuard | None = None  # set by run()
        self.idempotency = edge.IdempotencyStore(
            edge.gateway_secret(settings.data_dir), settings.gateway.idempotency_window_s
        )

    async def start(self) -> None:
        self.nc = await connect(self.nats_url, "gamehall-gateway", self.settings.nats_credential("gateway"))
        js = self.nc.jetstream()
        await ensure_streams(js, replicas=self.settings.stream_replicas, streams=APP_STREAMS)
        self.store = EventStore(js)

    async def stop(self) -> None:
        if self.nc is not None:
            await self.nc.drain()

    # -------------------------------------------------------------- helpers
    def check_bus(self) -> None:
        """503 now, rather than a wait and a 5xx, while the connection to NATS is down."""
        if self.nc is None or not self.nc.is_connected:
            raise nats_down()

    async def game_of(self, match_id: str) -> str:
        if MATCH_ID.fullmatch(match_id) is None:
            raise ApiError(400, "malformed", "a match id is 1-64 letters, digits, '-' and '_'")
        game = self._games.get(match_id)
        if game is None:
            self.check_bus()
            assert self.store is not None
            game = await find_game(self.store, match_id)
            if game is None:
                raise ApiError(404, "match_not_found", f"no match {match_id!r}")
            self._games[match_id] = game
        return game

    async def load(self, match_id: str, private: bool = False) -> FoldedMatch:
        """The match folded from its log.  Clients poll, so folded matches are kept (LRU) and
        only the decisions stored since are fetched; ``private`` gives a fresh fold that the
        caller may go on applying to (a WebSocket follower)."""
        assert self.store is not None
        game = await self.game_of(match_id)
        self.check_bus()
        if private:
            folded = await load_match(self.store, match_id, game)
            if folded is None or folded.state is None:
                raise ApiError(404, "match_not_found", f"no match {match_id!r}")
            return folded
        lock = self._refresh_locks.setdefault(match_id, asyncio.Lock())
        async with lock:
            subject = subjects.match_subject(game, match_id)
            last = await self.store.last_seq(subjects.MATCH_STREAM, subject)
            folded = self._folded.get(match_id)
            if folded is None:
                folded = FoldedMatch(match_id=match_id, game=game)
            for item in await self.store.load(subject, after=folded.last_stream_seq, last=last):
                folded.apply(item)
            if folded.state is None:
                raise ApiError(404, "match_not_found", f"no match {match_id!r}")
            self._folded[match_id] = folded
            self._folded.move_to_end(match_id)
            while len(self._folded) > FOLDED_CACHE_SIZE:
                evicted, _ = self._folded.popitem(last=False)
                self._refresh_locks.pop(evicted, None)
        return folded

    @staticmethod
    def viewer(folded: FoldedMatch, token: str | None) -> str | None:
        """The seat a token acts for; None (spectator) without a token; 401 for a bad one."""
        if not token:
            return None
        state = folded.state
        assert state is not None
        seat = commands.seat_of_token(token)
        seats = state.created.seats
        if (
            seat is None
            or seat not in seats
            or state.created.token_hashes[seats.index(seat)] != commands.token_hash(token)
        ):
            raise ApiError(401, "bad_token", "the token does not belong to any seat of this match")
        return seat

    @staticmethod
    def render(folded: FoldedMatch, seat: str | None) -> dict[str, Any]:
        game = registry.get(folded.game)
        assert folded.state is not None
        view = match_layer.view(game, folded.state, seat, folded.match_id, folded.seq)
        return msgspec.to_builtins(view)  # type: ignore[no-any-return]

    @staticmethod
    def events_for(folded: FoldedMatch, seat: str | None, since: int = 0) -> list[dict[str, Any]]:
        game = registry.get(folded.game)
        return [decision_for(game, env, seat) for env in folded.envelopes if env.seq > since]

    async def send(self, match_id: str, token: str | None, body: CommandRequest) -> Accepted:
        if not token:
            raise ApiError(401, "bad_token", "send the seat token as 'Authorization: Bearer <token>'")
        game = await self.game_of(match_id)
        found = edge.shape_problem(body.command)
        if found:
            raise ApiError(400, *found)
        command = codec(game).decode_inner_command(body.command)
        if isinstance(command, Rejected):
            raise ApiError(400, "malformed", command.detail)
        seat = commands.seat_of_token(token)
        if seat is None:
            raise ApiError(401, "bad_token", "not a seat token")
        self.check_bus()
        assert self.nc is not None
        reply = await commands.send(
            self.nc,
            game,
            match_id,
            command,
            seat=seat,
            token=token,
            command_id=body.command_id,
            partitions=self.settings.partitions,
        )
        if isinstance(reply, Rejected):
            raise rejection_error(reply)
        return reply

    async def bundle(self, match_id: str) -> AuditBundle:
        folded = await self.load(match_id)
        assert self.nc is not None
        certificate = await load_certificate(self.nc.jetstream(), folded.game, match_id) if folded.finished else None
        return make_bundle(folded, certificate)

    async def follow(self, folded: FoldedMatch) -> AsyncIterator[Stored]:
        """New envelopes of a match as they are stored (ordered consumer from the next sequence)."""
        assert self.nc is not None
        js = self.nc.jetstream()
        sub = await js.subscribe(
            subjects.match_subject(folded.game, folded.match_id),
            stream=subjects.MATCH_STREAM,
            ordered_consumer=True,
            config=ConsumerConfig(
                deliver_policy=DeliverPolicy.BY_START_SEQUENCE, opt_start_seq=folded.last_stream_seq + 1
            ),
        )
        try:
            async for msg in sub.messages:
                yield Stored(stream_seq=msg.metadata.sequence.stream, data=msg.data)
        finally:
            with contextlib.suppress(Exception):
                await sub.unsubscribe()


def decision_for(game: Any, env: EventEnvelope[Any], seat: str | None) -> dict[str, Any]:
    """One stored decision as a client sees it: its events redacted for ``seat``."""
    shown = (match_layer.redact(game, e, seat) for e in env.events)
    return {
        "seq": env.seq,
        "seat": env.seat,
        "recorded_at": env.recorded_at,
        "events": [msgspec.to_builtins(e) for e in shown if e is not None],
    }


def make_bundle(folded: FoldedMatch, certificate: SignedCertificate | None = None) -> AuditBundle:
    game = registry.get(folded.game)
    if game.hidden_info and not folded.finished:
        raise ApiError(409, "match_running", "a match with hidden cards can be exported once it is over")
    return AuditBundle(
        match_id=folded.match_id,
        game=folded.game,
        rules_version=folded.envelopes[0].rules_version,
        exported_at=time.time_ns() // 1_000_000,
        head_hash=envelope_hash(folded.stored[-1].data),
        envelopes=tuple(StoredEnvelope(stream_seq=s.stream_seq, data=s.data.decode()) for s in folded.stored),
        certificate=certificate,
    )


def replay_frames(folded: FoldedMatch) -> dict[str, Any]:
    """The match decision by decision as a spectator would have seen it (for the replay viewer)."""
    game = registry.get(folded.game)
    state: match_layer.MatchState | None = None
    frames = []
    for env in folded.envelopes:
        for event in env.events:
            state = match_layer.evolve(game, state, event, None)
        assert state is not None
        frame = decision_for(game, env, None)
        frame["view"] = msgspec.to_builtins(match_layer.view(game, state, None, folded.match_id, env.seq))
        frames.append(frame)
    return {"match_id": folded.match_id, "game": folded.game, "frames": frames}


def bot_seats_problem(body: CreateMatchBody) -> str | None:
    """Why the requested computer seats cannot be honoured, or None."""
    if not body.bots:
        return None
    game = registry.GAMES.get(body.game)
    if game is None:
        return None  # create_match names the unknown game
    meta = game
    n = body.seats or (len(body.players) if body.players else match_layer.default_seats_of(game, body.preset))
    if not meta.min_seats <= n <= meta.max_seats:
        return None  # create_match names the seat count problem
    seats = meta.seat_names(n)
    strengths = sorted(game.bots or {})
    for seat, strength in body.bots.items():
        if seat not in seats:
            return f"no seat {seat!r}; seats are {', '.join(seats)}"
        if strength not in strengths:
            return f"{body.game} computer players: {', '.join(strengths)}; got {strength!r}"
    return None


async def assign_bot(
    gw: Gateway, created: commands.CreatedMatch, seat: str, strength: str, think_ms: int | None, url: str
) -> dict[str, Any]:
    """Hand a seat to the bots service (its token never leaves the backend)."""
    assert gw.nc is not None
    assignment = BotSeatAssigned(
        match_id=created.match_id,
        game=created.game,
        seat=seat,
        token=created.tokens[seat],
        strength=strength,
        think_ms=think_ms,
        gateway_url=url,
    )
    try:
        msg = await gw.nc.request(subjects.BOTS_ASSIGN, encode(assignment), timeout=5.0)
        reply = bots_reply_decoder.decode(msg.data)
    except Exception as exc:  # no bots service, a timeout or a garbled reply: say so, keep the match
        log.warning("bot_assign_failed", match_id=created.match_id, seat=seat, error=repr(exc))
        return {"seat": seat, "strength": strength, "status": "unavailable", "detail": str(exc) or repr(exc)}
    if isinstance(reply, Rejected):
        return {"seat": seat, "strength": strength, "status": "refused", "detail": reply.detail}
    return {"seat": seat, "strength": strength, "status": "seated"}


class RequestCounter:
    """Pure ASGI middleware counting responses by route template and status (cheaper than
    Starlette's BaseHTTPMiddleware, which costs milliseconds per request)."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self._children: dict[tuple[str, str], Any] = {}

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def counting_send(message: Any) -> None:
            if message["type"] == "http.response.start":
                key = (getattr(scope.get("route"), "path", "unmatched"), str(message["status"]))
                child = self._children.get(key)
                if child is None:
                    child = self._children[key] = metrics.HTTP_REQUESTS.labels(*key)
                child.inc()
            await send(message)

        await self.app(scope, receive, counting_send)


async def process_command(
    gw: Gateway, match_id: str, raw: bytes, token: str | None
) -> tuple[int, bytes, float | None]:
    """POST /api/matches/{id}/commands: (status, JSON body, retry_after).  msgspec decodes and
    encodes; the edge (``edge.EdgeGuard``) has checked size, content type and nesting already."""
    try:
        try:
            body = command_request_decoder.decode(raw)
        except msgspec.ValidationError as exc:  # (a DecodeError too: caught first)
            raise ApiError(
                422, "malformed", f'send {{"command": {{...}}, "command_id": "..."}}: {exc}'
            ) from None
        except (msgspec.DecodeError, RecursionError) as exc:
            raise ApiError(400, "malformed", f"the body is not JSON: {exc}") from None
        reply = await gw.send(match_id, token, body)
    except ApiError as exc:
        return exc.status, edge.error_body(exc.code, exc.detail, exc.retry_after), exc.retry_after
    return 200, encode(reply), None


COMMAND_PATH = re.compile(r"^/api/matches/([A-Za-z0-9_-]+)/commands$")
COMMAND_ROUTE = "/api/matches/{match_id}/commands"


class CommandFastPath:
    """The outermost ASGI layer: ``POST /api/matches/{id}/commands``, the route every move takes,
    is answered here; everything else goes to the FastAPI app.  FastAPI's and Starlette's
    per-request layers cost more CPU than the referee's whole decision (docs/architecture.md)."""

    def __init__(self, app: Any, gw: Gateway) -> None:
        self.app = app
        self.gw = gw
        self._counters: dict[int, Any] = {}

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["method"] == "POST":
            found = COMMAND_PATH.match(scope["path"])
            if found is not None:
                await self.command(found.group(1), scope, receive, send)
                return
        await self.app(scope, receive, send)

    async def command(self, match_id: str, scope: Any, receive: Any, send: Any) -> None:
        chunks = []
        while True:
            message = await receive()
            chunks.append(message.get("body", b""))
            if not message.get("more_body"):
                break
        authorization = next((v.decode() for k, v in scope["headers"] if k == b"authorization"), None)
        query = dict(parse_qsl(scope.get("query_string", b"").decode()))
        status, payload, retry_after = await process_command(
            self.gw, match_id, b"".join(chunks), bearer(authorization, query.get("token"))
        )
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": edge.json_headers(payload, retry_after),
            }
        )
        await send({"type": "http.response.body", "body": payload})
        counter = self._counters.get(status)
        if counter is None:
            counter = self._counters[status] = metrics.HTTP_REQUESTS.labels(COMMAND_ROUTE, str(status))
        counter.inc()


def encode_cursor(subject: str) -> str:
    return base64.urlsafe_b64encode(subject.encode()).decode().rstrip("=")


def decode_cursor(cursor: str) -> str:
    try:
        subject = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
    except (ValueError, UnicodeDecodeError):
        subject = ""
    if not subject.startswith(subjects.MATCH_SUBJECTS.rstrip(">")):
        raise ApiError(400, "bad_cursor", "the cursor is not one this API gave out")
    return subject


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


def retry_header(retry_after: float | None) -> dict[str, str] | None:
    return None if retry_after is None else {"Retry-After": str(max(1, math.ceil(retry_after)))}


def error_response(status: int, code: str, detail: str, retry_after: float | None = None) -> Response:
    return Response(
        edge.error_body(code, detail, retry_after),
        status_code=status,
        media_type="application/json",
        headers=retry_header(retry_after),
    )


HTTP_CODES = {400: "malformed", 404: "not_found", 405: "method_not_allowed", 413: "body_too_large"}


def validation_detail(exc: RequestValidationError) -> str:
    """FastAPI's error list as one sentence: where and what, never the input itself."""
    parts = []
    for err in exc.errors()[:5]:
        where = ".".join(str(p) for p in err.get("loc", ()) if p != "body") or "body"
        parts.append(f"{where}: {err.get('msg', 'invalid')}")
    return "; ".join(parts) or "the request does not match the schema"


def install_error_handlers(app: FastAPI) -> None:
    """Every error leaves the app as ``{code, detail}`` (docs/api.md "Errors")."""

    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError) -> Response:
        return error_response(exc.status, exc.code, exc.detail, exc.retry_after)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        code = HTTP_CODES.get(exc.status_code, "http_error")
        detail = exc.detail if isinstance(exc.detail, str) else str(exc.detail)
        if exc.status_code == 404 and detail == "Not Found":
            detail = f"no route {request.url.path}"
        response = error_response(exc.status_code, code, detail)
        if exc.headers:
            response.headers.update(exc.headers)
        return response

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: RequestValidationError) -> Response:
        return error_response(422, "malformed", validation_detail(exc))

    @app.exception_handler(NatsError)
    async def bus_error(request: Request, exc: NatsError) -> Response:
        log.warning("nats_error", path=request.url.path, error=repr(exc))
        down = nats_down()
        return error_response(down.status, down.code, down.detail, down.retry_after)

    @app.exception_handler(Exception)
    async def internal_error(request: Request, exc: Exception) -> Response:
        log.exception("request_failed", path=request.url.path)
        return error_response(500, "internal", "the gateway failed on this request; it is logged")


def declare_errors(schema: dict[str, Any]) -> dict[str, Any]:
    """The OpenAPI description with every error answer declared in the one error shape: the
    route's own (``responses=errors(...)``) plus those of the edge (429 everywhere; 400, 408,
    413, 415 and 422 where a body is sent; 404 on paths with ids; 503 where NATS is read)."""
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    components["ErrorBody"] = ErrorBody.model_json_schema()
    ref = {"$ref": "#/components/schemas/ErrorBody"}
    for path, operations in schema.get("paths", {}).items():
        for operation in operations.values():
            responses = operation.setdefault("responses", {})
            wanted = {429}
            if "requestBody" in operation:
                wanted |= set(BODY_ERRORS)
            if "{" in path:
                wanted |= {400, 404}
            if operation.get("parameters") or "requestBody" in operation:
                wanted.add(422)
            if path.startswith("/api/matches") or path.startswith("/api/queue"):
                wanted.add(503)
            for status in wanted:
                responses.setdefault(str(status), {"description": ERROR_TEXT[status]})
            for status, response in responses.items():
                if status[:1] in ("4", "5"):
                    response["content"] = {"application/json": {"schema": ref}}
                    response.setdefault("description", ERROR_TEXT.get(int(status), "Error"))
    for unused in ("HTTPValidationError", "ValidationError"):
        components.pop(unused, None)
    return schema


def install_error_responses(app: FastAPI) -> None:
    """The app's OpenAPI document (as generated so far) with every error answer declared."""
    generate = app.openapi
    done: list[bool] = []

    def openapi() -> dict[str, Any]:
        schema = generate()
        if not done:
            app.openapi_schema = declare_errors(schema)
            done.append(True)
        return app.openapi_schema or schema

    app.openapi = openapi  # type: ignore[method-assign]


def games_catalogue() -> list[dict[str, Any]]:
    out = []
    for name, game in sorted(registry.GAMES.items()):
        meta = game
        out.append(
            {
                "game": name,
                "title": meta.title,
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
                "presets": [
                    {
                        "name": preset_name,
                        "description": p.description,
                        "rules": msgspec.to_builtins(p.ruleset),
                    }
                    for preset_name, p in meta.presets.items()
                ],
            }
        )
    return out


def create_app(settings: Settings, nats_url: str) -> FastAPI:
    gw = Gateway(settings, nats_url)
    lobby = Lobby(gw)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await gw.start()
        await lobby.start()
        yield
        await lobby.stop()
        await gw.stop()

    app = FastAPI(
        title="gamehall",
        version="0.1.0",
        description="Turn-based board and card games: create matches, send commands, watch views live.",
        lifespan=lifespan,
        # Metrics are Prometheus (services.common.metrics); FastAPI's own OpenTelemetry layer
        # would only add per-request cost here.
        telemetry={"tracing": False, "metrics": False, "logs": False, "operation_spans": False},
    )
    app.state.gateway = gw
    openapi.install(app)  # every game's commands and views, from the contracts

    install_error_handlers(app)
    install_error_responses(app)

    app.add_middleware(RequestCounter)

    app.include_router(lobby_router(lobby))

    @app.get("/healthz", tags=["ops"], summary="Liveness: the gateway process answers")
    async def healthz() -> dict[str, Any]:
        return {"ok": True}

    @app.get(
        "/readyz",
        tags=["ops"],
        summary="Readiness: NATS connected, streams reachable, a referee answering",
        responses={503: {"description": "not ready; `checks` names what fails"}},
    )
    async def readyz() -> Response:
        if gw.nc is None:
            ready, checks = False, {"nats": "not connected to NATS"}
        else:
            ready, checks = await readiness({**nats_checks(gw.nc), "referee": referee_answers(gw.nc)})
        if ready:
            return JSONResponse({"ready": True, "checks": checks})
        return JSONResponse(
            {"code": "unavailable", "detail": "the gateway is not ready", "retry_after": 1, "checks": checks},
            status_code=503,
            headers={"Retry-After": "1"},
        )

    @app.get("/metrics", tags=["ops"], include_in_schema=False)
    async def prometheus_metrics() -> Response:
        return Response(generate_latest(), media_type=CONTENT_TYPE_LATEST)

    @app.get("/api/games", tags=["games"], summary="Games, presets and their rules")
    async def list_games() -> list[dict[str, Any]]:
        return games_catalogue()

    @app.post(
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
        problem = bot_seats_problem(body)
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
            client = edge.credential_of(request.scope) or edge.client_address(request.scope)
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
            partitions=settings.partitions,
            match_id=idem.match_id if idem else None,
            token_key=idem.token_key if idem else None,
        )
        if isinstance(created, Rejected):
            if idem is not None and created.code == "match_exists":
                reply = await replayed_creation(gw, idem, body)
                response.headers["Idempotent-Replayed"] = "true"
                return reply
            raise rejection_error(created)
        gw._games[created.match_id] = created.game
        bots = [
            await assign_bot(gw, created, seat, strength, body.bot_think_ms, gw.internal_url)
            for seat, strength in body.bots.items()
        ]
        reply = creation_reply(created, body, bots)
        if idem is not None:
            gw.idempotency.finish(idem, reply)
        return reply

    @app.get(
        "/api/matches",
        tags=["matches"],
        summary="Stored matches (id, game, decisions), a page at a time",
        responses=errors(400, 503),
    )
    async def list_matches(
        limit: int = Query(100, ge=1, le=1000),
        cursor: str | None = Query(
            None, max_length=200, description="next_cursor of the previous page (opaque)."
        ),
    ) -> dict[str, Any]:
        gw.check_bus()
        assert gw.store is not None
        after = decode_cursor(cursor) if cursor else None
        found = await gw.store.list_match_subjects()
        keys = sorted(found)
        start = bisect.bisect_right(keys, after) if after else 0
        page = keys[start : start + limit]
        rows = [
            {
                "match_id": subjects.match_id_from_subject(s),
                "game": subjects.game_from_subject(s),
                "decisions": found[s],
            }
            for s in page
        ]
        more = start + limit < len(keys)
        return {"matches": rows, "next_cursor": encode_cursor(page[-1]) if more and page else None}

    @app.get(
        "/api/matches/{match_id}",
        tags=["matches"],
        summary="The match as a seat (token) or spectator sees it",
        responses=errors(400, 401, 404, 503),
    )
    async def get_match(
        match_id: str, authorization: str | None = Header(default=None), token: str | None = None
    ) -> dict[str, Any]:
        folded = await gw.load(match_id)
        return gw.render(folded, gw.viewer(folded, bearer(authorization, token)))

    @app.get(
        "/api/matches/{match_id}/events",
        tags=["matches"],
        summary="Decisions, redacted for the viewer",
        responses=errors(400, 401, 404, 503),
    )
    async def get_events(
        match_id: str,
        since: int = Query(0, ge=0, description="Only decisions after this seq."),
        authorization: str | None = Header(default=None),
        token: str | None = None,
    ) -> list[dict[str, Any]]:
        folded = await gw.load(match_id)
        return gw.events_for(folded, gw.viewer(folded, bearer(authorization, token)), since)

    @app.post(
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
        authorization: str | None = Header(default=None),
        token: str | None = None,
    ) -> Response:
        # Served by CommandFastPath in front of the app; this route documents it (and answers
        # when the app runs without the fast path).
        status, payload, retry_after = await process_command(
            gw, match_id, await request.body(), bearer(authorization, token)
        )
        return Response(payload, status_code=status, headers=retry_header(retry_after), media_type="application/json")

    @app.get(
        "/api/matches/{match_id}/replay",
        tags=["matches"],
        summary="Every decision with the spectator's view after it (public information only)",
        responses=errors(400, 404, 503),
    )
    async def replay(match_id: str) -> dict[str, Any]:
        return replay_frames(await gw.load(match_id))

    @app.get(
        "/api/keys",
        tags=["audit"],
        summary="Public keys that sign match certificates (Ed25519, hex), with their validity",
        responses=errors(503),
    )
    async def keys() -> Response:
        assert gw.nc is not None
        return Response(encode(await published_keys(gw.nc.jetstream())), media_type="application/json")

    @app.get(
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

    @app.websocket("/ws/matches/{match_id}")
    async def ws_match(websocket: WebSocket, match_id: str, token: str | None = None, since: int = 0) -> None:
        await websocket.accept()
        metrics.WS_CONNECTIONS.inc()
        try:
            await serve_socket(gw, websocket, match_id, token, since)
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

    if WEB_DIR.is_dir() and (WEB_DIR / "index.html").exists():

        @app.get("/", include_in_schema=False)
        async def index() -> FileResponse:
            return FileResponse(WEB_DIR / "index.html")

        app.mount("/web", StaticFiles(directory=WEB_DIR), name="web")
    return app


WS_MESSAGE_LIMIT = edge.MAX_BODY  # characters of one message; longer: an error frame, then 1009
WS_FRAME_LIMIT = 1024 * 1024  # bytes the server reads of one message at all (beyond: 1009 at once)


class WsCommand(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="command"):
    command: dict[str, Any]
    command_id: CommandId | None = None


ws_message_decoder = msgspec.json.Decoder(WsCommand)


class WsKind(msgspec.Struct, frozen=True):
    type: Any = None


def parse_ws_message(text: str) -> WsCommand:
    """A client's text frame as a command, or the ApiError (with its close code) that ends the socket."""
    if len(text) > WS_MESSAGE_LIMIT:
        raise ApiError(413, "too_large", f"messages are at most {WS_MESSAGE_LIMIT} characters", close=1009)
    raw = text.encode("utf-8", "surrogatepass")
    problem = edge.depth_problem(raw)
    if problem:
        raise ApiError(400, "too_deep", problem, close=4400)
    try:
        message = ws_message_decoder.decode(raw)
    except msgspec.ValidationError as exc:  # (a DecodeError too: caught first)
        kind = msgspec.json.decode(raw, type=WsKind) if raw[:1] == b"{" else None
        if kind is not None and kind.type != "command":
            raise ApiError(
                400, "unknown_type", 'the only message a client sends is {"type": "command", ...}', close=4400
            ) from None
        raise ApiError(
            400, "malformed", f'send {{"type": "command", "command": {{...}}, "command_id": "..."}}: {exc}', close=4400
        ) from None
    except (msgspec.DecodeError, RecursionError) as exc:
        raise ApiError(400, "malformed", f"the message is not JSON: {exc}", close=4400) from None
    except Exception as exc:  # never a dropped socket without a typed frame
        log.exception("websocket_message_check_failed")
        raise ApiError(400, "malformed", f"the message could not be read: {exc!r}", close=4400) from None
    found = edge.shape_problem(message.command)
    if found:
        raise ApiError(400, *found, close=4400)
    return message


def ws_close_code(exc: ApiError) -> int:
    """The documented close code after an error frame (docs/api.md "Close codes")."""
    if exc.close is not None:
        return exc.close
    return {401: 4401, 403: 4403, 404: 4404, 429: 4429, 503: 1013}.get(exc.status, 4400)


async def serve_socket(gw: Gateway, ws: WebSocket, match_id: str, token: str | None, since: int) -> None:
    """Send the view now and after every stored decision; accept commands on the same socket.

    Messages to the client: {"type": "view", "view": ...}, {"type": "events", "events": [...]},
    {"type": "reply", "command_id": ..., "reply": ...}, {"type": "error", ...}.
    A client that reconnects passes ``since`` (the last seq it saw) and gets the missed events.
    """
    folded = await gw.load(match_id, private=True)
    seat = gw.viewer(folded, token)
    send_lock = asyncio.Lock()

    async def push(payload: dict[str, Any]) -> None:
        async with send_lock:
            await ws.send_text(encode(payload).decode())

    await push({"type": "events", "events": gw.events_for(folded, seat, since)})
    await push({"type": "view", "view": gw.render(folded, seat)})

    async def pump() -> None:
        try:
            async for item in gw.follow(folded):
                env = folded.apply(item)
                await push({"type": "events", "events": gw.events_for(folded, seat, env.seq - 1)})
                await push({"type": "view", "view": gw.render(folded, seat)})
        except Exception:
            log.exception("websocket_follow_failed", match_id=match_id)
            await ws.close(code=1011)
            raise

    pump_task = asyncio.create_task(pump())
    try:
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                raise WebSocketDisconnect(message.get("code", 1000))
            text = message.get("text")
            if text is None:
                raise ApiError(400, "binary_frame", "send commands as JSON text frames", close=1003)
            incoming = parse_ws_message(text)
            command_id = incoming.command_id or uuid.uuid4().hex
            try:
                wait = gw.limiter.credential_throttled(token) if token else 0.0
                if wait:
                    raise ApiError(429, "rate_limited", "too many commands with this credential", wait)
                reply = await gw.send(match_id, token, CommandRequest(command=incoming.command, command_id=command_id))
                await push({"type": "reply", "command_id": command_id, "reply": msgspec.to_builtins(reply)})
            except ApiError as exc:
                rejected: dict[str, Any] = {
                    "type": "rejected.v1",
                    "code": exc.code,
                    "detail": edge.safe_text(exc.detail),
                    "status": exc.status,
                }
                if exc.retry_after is not None:
                    rejected["retry_after"] = round(exc.retry_after, 3)
                await push({"type": "reply", "command_id": command_id, "reply": rejected})
    finally:
        # A pump cancelled while it sets up its consumer may take a while to stop: the error
        # frame and the close do not wait for it.
        pump_task.add_done_callback(lambda t: t.cancelled() or t.exception())
        pump_task.cancel()
        await asyncio.wait({pump_task}, timeout=0.5)


def asgi_app(settings: Settings, nats_url: str) -> tuple[Any, Gateway]:
    """The whole ASGI stack the server runs: the edge, the command fast path, the FastAPI app."""
    app = create_app(settings, nats_url)
    gw: Gateway = app.state.gateway
    return edge.EdgeGuard(CommandFastPath(app, gw), gw.limiter, self_checked=COMMAND_PATH), gw


async def run(settings: Settings, stop: asyncio.Event, port: int | None = None) -> None:
    import uvicorn

    logs.configure("gateway", settings.log_format)
    assert settings.nats_url, "the gateway needs a NATS URL"
    asgi, gw = asgi_app(settings, settings.nats_url)
    host = "127.0.0.1" if settings.http_host in ("0.0.0.0", "::", "") else settings.http_host
    gw.internal_url = f"http://{host}:{port or settings.http_port}"
    limits = settings.gateway.limits()
    guard = edge.ConnectionGuard(limits.max_connections_per_address, limits.header_timeout_s)
    gw.connections = guard
    protocol = edge.guarded_http_protocol(guard)
    config = uvicorn.Config(
        asgi,
        host=settings.http_host,
        port=port or settings.http_port,
        log_level="warning",
        lifespan="on",
        ws="websockets-sansio",
        http=protocol or "auto",
        ws_max_size=WS_FRAME_LIMIT,
        timeout_keep_alive=5,
        proxy_headers=settings.gateway.forwarded_allow_ips is not None,
        forwarded_allow_ips=settings.gateway.forwarded_allow_ips,
    )
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    stopper = asyncio.create_task(stop.wait())
    await asyncio.wait({task, stopper}, return_when=asyncio.FIRST_COMPLETED)
    server.should_exit = True
    await task
    stopper.cancel()
