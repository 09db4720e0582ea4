"""The gateway: HTTP + WebSocket for client apps (OpenAPI at /docs).

Views are derived here from the log: the gateway folds a match's subject (an ordered
JetStream consumer per watched match) and renders ``view(state, seat)`` for each client, so
the referee's hot path publishes nothing extra.  Commands go to the referee by NATS request.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
import uuid
from collections import OrderedDict
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

import msgspec
from fastapi import FastAPI, Header, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from nats.aio.client import Client
from nats.js.api import ConsumerConfig, DeliverPolicy
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from pydantic import BaseModel, Field

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
from services.gateway import openapi
from services.gateway.lobby import Lobby
from services.gateway.lobby import router as lobby_router

FOLDED_CACHE_SIZE = 2048  # matches kept folded in a gateway's memory
WEB_DIR = Path(__file__).resolve().parents[2] / "web"

log = logs.get("gateway")


class ApiError(Exception):
    def __init__(self, status: int, code: str, detail: str) -> None:
        self.status, self.code, self.detail = status, code, detail


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
    return ApiError(REJECTION_STATUS.get(rej.code, 409), rej.code, rej.detail)


# ------------------------------------------------------------------ request bodies
class CreateMatchBody(BaseModel):
    game: str = Field(description="Game name, e.g. 'ugolki'. See GET /api/games.")
    preset: str | None = Field(default=None, description="Preset name; the game's default when omitted.")
    rules: dict[str, Any] = Field(
        default_factory=dict, description="Ruleset parameters overriding the preset."
    )
    players: list[str] | None = Field(
        default=None,
        description="Display names, one per seat. They are guests (no credential): the match is "
        "never rated; rated play goes through POST /api/queue with a player credential.",
    )
    seats: int | None = Field(default=None, description="Number of seats (games with 2-N seats).")
    ranked: bool = Field(
        default=False, description="Must be false here: rated matches are formed by POST /api/queue."
    )
    bots: dict[str, str] = Field(
        default_factory=dict,
        description="Seats played by the computer: seat -> strength (see 'bots' in GET /api/games). "
        "Their tokens go to the bots service; the reply holds only the other seats' tokens.",
    )
    bot_think_ms: int | None = Field(
        default=None, ge=0, le=10_000, description="Computer players' pause before each move (ms)."
    )


class CommandBody(BaseModel):
    command: dict[str, Any] = Field(
        description='The command as JSON with its tag, e.g. {"type": "move_piece.v1", "path": ["h3", "h5"]}.'
    )
    command_id: str | None = Field(
        default=None, description="Idempotency key: a retry with the same id returns the first reply."
    )


class CommandRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The body of POST /api/matches/{id}/commands (documented by ``CommandBody``)."""

    command: dict[str, Any]
    command_id: str | None = None


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

    async def start(self) -> None:
        self.nc = await connect(self.nats_url, "gamehall-gateway", self.settings.nats_credential("gateway"))
        js = self.nc.jetstream()
        await ensure_streams(js, replicas=self.settings.stream_replicas, streams=APP_STREAMS)
        self.store = EventStore(js)

    async def stop(self) -> None:
        if self.nc is not None:
            await self.nc.drain()

    # -------------------------------------------------------------- helpers
    async def game_of(self, match_id: str) -> str:
        if not match_id.replace("-", "").replace("_", "").isalnum():
            raise ApiError(400, "malformed", "a match id holds letters, digits, '-' and '_' only")
        game = self._games.get(match_id)
        if game is None:
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
        command = codec(game).decode_inner_command(body.command)
        if isinstance(command, Rejected):
            raise ApiError(400, "malformed", command.detail)
        seat = commands.seat_of_token(token)
        if seat is None:
            raise ApiError(401, "bad_token", "not a seat token")
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


async def process_command(gw: Gateway, match_id: str, raw: bytes, token: str | None) -> tuple[int, bytes]:
    """POST /api/matches/{id}/commands: (status, JSON body).  msgspec decodes and encodes."""
    try:
        try:
            body = command_request_decoder.decode(raw)
        except msgspec.DecodeError as exc:
            raise ApiError(422, "malformed", f"the body is not JSON: {exc}") from None
        except msgspec.ValidationError as exc:
            raise ApiError(
                422, "malformed", f'send {{"command": {{...}}, "command_id": "..."}}: {exc}'
            ) from None
        reply = await gw.send(match_id, token, body)
    except ApiError as exc:
        return exc.status, encode({"code": exc.code, "detail": exc.detail})
    return 200, encode(reply)


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
        status, payload = await process_command(
            self.gw, match_id, b"".join(chunks), bearer(authorization, query.get("token"))
        )
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(payload)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": payload})
        counter = self._counters.get(status)
        if counter is None:
            counter = self._counters[status] = metrics.HTTP_REQUESTS.labels(COMMAND_ROUTE, str(status))
        counter.inc()


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

    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse(status_code=exc.status, content={"code": exc.code, "detail": exc.detail})

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

    @app.post("/api/matches", status_code=201, tags=["matches"], summary="Create a match")
    async def create_match(body: CreateMatchBody) -> dict[str, Any]:
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
        created = await commands.create_match(
            gw.nc,
            body.game,
            body.preset,
            body.rules,
            tuple(body.players) if body.players else None,
            seats=body.seats,
            partitions=settings.partitions,
        )
        if isinstance(created, Rejected):
            raise rejection_error(created)
        gw._games[created.match_id] = created.game
        bots = [
            await assign_bot(gw, created, seat, strength, body.bot_think_ms, gw.internal_url)
            for seat, strength in body.bots.items()
        ]
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

    @app.get("/api/matches", tags=["matches"], summary="Stored matches (id, game, decisions)")
    async def list_matches(limit: int = Query(100, ge=1, le=1000)) -> list[dict[str, Any]]:
        assert gw.store is not None
        found = await gw.store.list_match_subjects()
        rows = [
            {
                "match_id": subjects.match_id_from_subject(s),
                "game": subjects.game_from_subject(s),
                "decisions": n,
            }
            for s, n in sorted(found.items())
        ]
        return rows[:limit]

    @app.get(
        "/api/matches/{match_id}",
        tags=["matches"],
        summary="The match as a seat (token) or spectator sees it",
    )
    async def get_match(
        match_id: str, authorization: str | None = Header(default=None), token: str | None = None
    ) -> dict[str, Any]:
        folded = await gw.load(match_id)
        return gw.render(folded, gw.viewer(folded, bearer(authorization, token)))

    @app.get("/api/matches/{match_id}/events", tags=["matches"], summary="Decisions, redacted for the viewer")
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
        status, payload = await process_command(
            gw, match_id, await request.body(), bearer(authorization, token)
        )
        return Response(payload, status_code=status, media_type="application/json")

    @app.get(
        "/api/matches/{match_id}/replay",
        tags=["matches"],
        summary="Every decision with the spectator's view after it (public information only)",
    )
    async def replay(match_id: str) -> dict[str, Any]:
        return replay_frames(await gw.load(match_id))

    @app.get(
        "/api/keys",
        tags=["audit"],
        summary="Public keys that sign match certificates (Ed25519, hex), with their validity",
    )
    async def keys() -> Response:
        assert gw.nc is not None
        return Response(encode(await published_keys(gw.nc.jetstream())), media_type="application/json")

    @app.get("/api/matches/{match_id}/export", tags=["audit"], summary="Audit bundle of a match")
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
                await websocket.send_json({"type": "error", "code": exc.code, "detail": exc.detail})
                await websocket.close(code=4000 + min(exc.status, 999) % 1000)
        finally:
            metrics.WS_CONNECTIONS.dec()

    if WEB_DIR.is_dir() and (WEB_DIR / "index.html").exists():

        @app.get("/", include_in_schema=False)
        async def index() -> FileResponse:
            return FileResponse(WEB_DIR / "index.html")

        app.mount("/web", StaticFiles(directory=WEB_DIR), name="web")
    return app


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
            text = await ws.receive_text()
            command_id: str | None = None
            try:
                message = msgspec.json.decode(text)
                if not isinstance(message, dict) or message.get("type") != "command":
                    raise ApiError(
                        400, "malformed", 'send {"type": "command", "command": {...}, "command_id": "..."}'
                    )
                command_id = message.get("command_id") or uuid.uuid4().hex
                body = CommandRequest(command=message.get("command") or {}, command_id=command_id)
                reply = await gw.send(match_id, token, body)
                await push({"type": "reply", "command_id": command_id, "reply": msgspec.to_builtins(reply)})
            except ApiError as exc:
                await push(
                    {
                        "type": "reply",
                        "command_id": command_id,
                        "reply": {
                            "type": "rejected.v1",
                            "code": exc.code,
                            "detail": exc.detail,
                            "status": exc.status,
                        },
                    }
                )
            except (msgspec.DecodeError, ValueError) as exc:
                await push(
                    {
                        "type": "reply",
                        "command_id": None,
                        "reply": {
                            "type": "rejected.v1",
                            "code": "malformed",
                            "detail": str(exc),
                            "status": 400,
                        },
                    }
                )
    finally:
        pump_task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await pump_task


async def run(settings: Settings, stop: asyncio.Event, port: int | None = None) -> None:
    import uvicorn

    logs.configure("gateway", settings.log_format)
    assert settings.nats_url, "the gateway needs a NATS URL"
    app = create_app(settings, settings.nats_url)
    host = "127.0.0.1" if settings.http_host in ("0.0.0.0", "::", "") else settings.http_host
    app.state.gateway.internal_url = f"http://{host}:{port or settings.http_port}"
    config = uvicorn.Config(
        CommandFastPath(app, app.state.gateway),
        host=settings.http_host,
        port=port or settings.http_port,
        log_level="warning",
        lifespan="on",
        ws="websockets-sansio",
    )
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    stopper = asyncio.create_task(stop.wait())
    await asyncio.wait({task, stopper}, return_when=asyncio.FIRST_COMPLETED)
    server.should_exit = True
    await task
    stopper.cancel()
