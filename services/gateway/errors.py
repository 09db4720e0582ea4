"""The gateway's error answers: one ``{code, detail[, retry_after]}`` shape on every 4xx and 5xx
(docs/api.md "Errors"), the status of each referee rejection, the handlers that turn every
exception into that shape, and the OpenAPI declaration of every error a route can answer."""

from __future__ import annotations

import math
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from nats.errors import Error as NatsError
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from contracts.envelope import Rejected
from services.common import logs
from services.gateway import edge
from services.gateway.edge import ApiError

__all__ = [
    "ApiError",
    "Conflict",
    "Forbidden",
    "GatewayError",
    "Invalid",
    "Malformed",
    "NotFound",
    "TimedOut",
    "Unauthenticated",
    "Unavailable",
]


log = logs.get("gateway")


RETRY_AFTER_S = 1.0  # what a 503 tells a client to wait


class GatewayError(ApiError):
    """A refusal of the gateway's core and routes: a stable ``code`` and a ``detail`` sentence,
    typed by what went wrong.  Its HTTP status (and so a WebSocket's close code) is this module's
    mapping of its type (:data:`STATUS`); nothing else in the gateway names a status."""

    def __init__(self, code: str, detail: str, retry_after: float | None = None) -> None:
        super().__init__(status_of(type(self)), code, detail, retry_after)


class Malformed(GatewayError):
    """The request is not well formed (an id that is not one, a field the command lacks)."""


class Unauthenticated(GatewayError):
    """No credential, or one that names no seat or player."""


class Forbidden(GatewayError):
    """The credential is known but may not do this."""


class NotFound(GatewayError):
    """No such match, game, player, ticket or dispute."""


class Conflict(GatewayError):
    """A well-formed request that the rules or the state refuse."""


class Invalid(GatewayError):
    """A parameter or body that does not match the schema (a language this build lacks)."""


class Unavailable(GatewayError):
    """NATS, matchmaking or the referees do not answer: retry."""


class TimedOut(GatewayError):
    """The referee did not answer in time: retry with the same command id."""


STATUS: dict[type[GatewayError], int] = {
    Malformed: 400,
    Unauthenticated: 401,
    Forbidden: 403,
    NotFound: 404,
    Conflict: 409,
    Invalid: 422,
    Unavailable: 503,
    TimedOut: 504,
}
KIND_OF_STATUS = {status: kind for kind, status in STATUS.items()}


def status_of(kind: type[GatewayError]) -> int:
    for cls in kind.__mro__:
        if cls in STATUS:
            return STATUS[cls]
    raise TypeError(f"{kind.__name__} has no HTTP status")


# What each refusal another service answers is, by code (the others are a Conflict).
REFEREE_REFUSALS: dict[str, type[GatewayError]] = {
    "malformed": Malformed,
    "invalid_ruleset": Malformed,
    "unknown_preset": Malformed,
    "unknown_game": NotFound,
    "invalid_seats": Malformed,
    "invalid_time_control": Malformed,
    "bad_token": Unauthenticated,
    "not_a_seat": Forbidden,
    "match_not_found": NotFound,
    "unavailable": Unavailable,
    "timeout": TimedOut,
    "busy": Unavailable,
}
QUEUE_REFUSALS: dict[str, type[GatewayError]] = {
    "already_queued": Conflict,
    "in_match": Conflict,
    "not_queued": NotFound,
    "unknown_game": NotFound,
    "invalid_seats": Malformed,
    "unplayable_seats": Malformed,
}  # any other matchmaking refusal is Malformed
ACCOUNT_REFUSALS: dict[str, type[GatewayError]] = {
    "bad_credentials": Unauthenticated,
    "invalid_name": Malformed,
    "name_taken": Conflict,
}  # any other is Malformed
DISPUTE_REFUSALS: dict[str, type[GatewayError]] = {
    "invalid_reason": Malformed,
    "invalid_note": Malformed,
    "invalid_ruling": Malformed,
    "not_a_player": Forbidden,
    "not_an_operator": Forbidden,
    "not_allowed": Forbidden,
    "match_not_found": NotFound,
    "dispute_not_found": NotFound,
    "match_not_finished": Conflict,
    "dispute_open": Conflict,
    "dispute_closed": Conflict,
    "conflict": Conflict,
}
# The tournaments service's refusals (contracts.tournaments REJECTION_CODES and
# SERVICE_REJECTION_CODES) as the write routes answer them; every other code is a conflict with
# the tournament's state (409).
TOURNAMENT_REFUSALS: dict[str, type[GatewayError]] = {
    "malformed": Malformed,
    "bad_settings": Malformed,
    "not_computer_player": Malformed,
    "not_allowed": Forbidden,
    "not_created": NotFound,
    "unknown_player": NotFound,
    "unavailable": Unavailable,
    "timeout": TimedOut,
}
# The statuses of the referee's refusals (docs/api.md "Errors").
REJECTION_STATUS = {code: status_of(kind) for code, kind in REFEREE_REFUSALS.items()}


def refusal(
    rej: Rejected,
    kinds: dict[str, type[GatewayError]] = REFEREE_REFUSALS,
    otherwise: type[GatewayError] = Conflict,
    detail: str | None = None,
) -> GatewayError:
    """A service's refusal as the gateway answers it: its code, typed by ``kinds``."""
    kind = kinds.get(rej.code, otherwise)
    retry_after = RETRY_AFTER_S if kind is Unavailable else None
    return kind(rej.code, rej.detail if detail is None else detail, retry_after)


def rejection_error(rej: Rejected) -> GatewayError:
    """A referee's refusal of a command or a creation."""
    return refusal(rej)


def nats_down() -> Unavailable:
    return Unavailable("unavailable", "the message bus is unreachable; retry shortly", RETRY_AFTER_S)


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


# The error codes each route answers, by status, besides the edge's own (EDGE_CODES). The
# OpenAPI description lists them on every error answer (``x-error-codes`` and the description);
# tests/unit/test_openapi.py checks that every route is here and that every code the gateway
# raises is declared.
# unknown_rules_version: a stored match of a rules version this build lacks (docs/audit.md)
MATCH_READ: dict[int, tuple[str, ...]] = {
    400: ("malformed",),
    401: ("bad_token",),
    404: ("match_not_found",),
    409: ("unknown_rules_version", "unreadable_match"),
    503: ("unavailable",),
}
# A route that answers in words takes ?lang=en|ru (services/gateway/core.language).
IN_WORDS: dict[int, tuple[str, ...]] = {422: ("unsupported_language",)}
CREDENTIAL: dict[int, tuple[str, ...]] = {401: ("unauthenticated", "bad_credentials")}
QUEUE_BUS: dict[int, tuple[str, ...]] = {503: ("unavailable",)}
ROUTE_ERRORS: dict[str, dict[int, tuple[str, ...]]] = {
    "POST /api/accounts": {400: ("invalid_name",), 409: ("name_taken",)},
    "GET /api/accounts/me": CREDENTIAL,
    "POST /api/queue": {
        **CREDENTIAL,
        **QUEUE_BUS,
        400: ("not_offered", "unknown_preset", "invalid_seats", "unplayable_seats", "public_needs_invite"),
        403: ("not_your_player",),
        404: ("unknown_game",),
        409: ("already_queued", "in_match"),
    },
    "GET /api/queue": {**CREDENTIAL, **QUEUE_BUS},
    "GET /api/queue/{ticket_id}": {**CREDENTIAL, **QUEUE_BUS, 404: ("not_queued",)},
    "POST /api/queue/leave": {**CREDENTIAL, **QUEUE_BUS, 403: ("not_your_player",), 404: ("not_queued",)},
    "GET /api/seeks": {404: ("unknown_game",), 503: ("unavailable",)},
    "GET /api/tables": {404: ("unknown_game",), 503: ("unavailable",)},
    "GET /api/leaderboard/{game}": {404: ("unknown_season", "unknown_division")},
    "GET /api/seasons": {},
    "GET /api/seasons/{season_id}": {404: ("unknown_season", "unknown_division")},
    "GET /api/players/{player}": {404: ("unknown_player",)},
    "GET /api/players/{player}/ratings/history": {404: ("unknown_player",)},
    "GET /api/history": {400: ("invalid_cursor",)},
    "GET /api/finished": {400: ("invalid_cursor",)},
    "GET /api/players": {400: ("invalid_cursor",)},
    "GET /healthz": {},
    "GET /readyz": {503: ("unavailable",)},
    "GET /api/games": IN_WORDS,
    "POST /api/matches": {
        400: (
            "malformed",
            "invalid_ruleset",
            "unknown_preset",
            "invalid_seats",
            "invalid_bots",
            "invalid_time_control",
            "ranked_needs_queue",
        ),
        404: ("unknown_game",),
        409: ("idempotency_conflict",),
        503: ("unavailable", "busy"),
        504: ("timeout",),
    },
    "GET /api/matches": {400: ("invalid_cursor",)},
    "GET /api/match-summaries": {400: ("invalid_cursor",), **IN_WORDS},
    "GET /api/matches/{match_id}": {**MATCH_READ, **IN_WORDS},
    "GET /api/matches/{match_id}/events": MATCH_READ,
    "POST /api/matches/{match_id}/commands": {
        **MATCH_READ,
        403: ("not_a_seat",),
        # and the game's own rejection codes (x-game-codes, docs/api.md per game)
        409: (
            "match_over",
            "no_draw_offer",
            "no_draws_at_helper",
            "out_of_time",
            "not_your_turn",
            "unknown_rules_version",
            "unreadable_match",
        ),
        503: ("unavailable", "busy"),
        504: ("timeout",),
    },
    "GET /api/matches/{match_id}/replay": {
        400: ("malformed",),
        404: ("match_not_found",),
        409: ("unknown_rules_version", "unreadable_match"),
        503: ("unavailable",),
    },
    "GET /api/matches/{match_id}/rules": {
        400: ("malformed",),
        404: ("match_not_found", "no_rules_help"),
        409: ("unknown_rules_version", "unreadable_match"),
        **IN_WORDS,
        503: ("unavailable",),
    },
    "GET /api/keys": {503: ("unavailable",)},
    "GET /api/tournaments": {},
    "GET /api/tournaments/{tournament_id}": {
        400: ("malformed",),
        404: ("tournament_not_found",),
        409: ("unreadable_tournament",),
    },
    "GET /api/tournaments/{tournament_id}/records": {
        400: ("malformed",),
        404: ("tournament_not_found",),
        409: ("unreadable_tournament",),
    },
    "POST /api/tournaments": {
        **CREDENTIAL,
        400: ("malformed", "bad_settings"),
        403: ("not_an_operator",),
        409: ("already_created", "unreadable_tournament"),
        503: ("unavailable",),
        504: ("timeout",),
    },
    "POST /api/tournaments/{tournament_id}/join": {
        **CREDENTIAL,
        400: ("malformed", "not_computer_player"),
        403: ("not_an_operator", "not_allowed"),
        404: ("not_created",),
        409: ("already_joined", "registration_closed", "finished", "unreadable_tournament"),
        503: ("unavailable",),
        504: ("timeout",),
    },
    "POST /api/tournaments/{tournament_id}/withdraw": {
        **CREDENTIAL,
        400: ("malformed",),
        403: ("not_an_operator", "not_allowed"),
        404: ("not_created", "unknown_player"),
        409: ("finished", "unreadable_tournament"),
        503: ("unavailable",),
        504: ("timeout",),
    },
    "POST /api/tournaments/{tournament_id}/close": {
        **CREDENTIAL,
        400: ("malformed",),
        403: ("not_an_operator",),
        404: ("not_created",),
        409: (
            "registration_closed",
            "too_few_players",
            "seed_mismatch",
            "finished",
            "unreadable_tournament",
        ),
        503: ("unavailable",),
        504: ("timeout",),
    },
    "POST /api/tournaments/{tournament_id}/rounds": {
        **CREDENTIAL,
        400: ("malformed",),
        403: ("not_an_operator",),
        404: ("not_created",),
        409: (
            "registration_open",
            "round_in_progress",
            "no_more_rounds",
            "no_pairing",
            "finished",
            "unreadable_tournament",
        ),
        503: ("unavailable",),
        504: ("timeout",),
    },
    "GET /api/tournaments/{tournament_id}/seat": {
        **CREDENTIAL,
        400: ("malformed",),
        404: ("tournament_not_found", "not_seated"),
        409: ("unreadable_tournament",),
    },
    "POST /api/matches/{match_id}/disputes": {
        **CREDENTIAL,
        400: ("malformed", "invalid_reason"),
        403: ("not_a_player",),
        404: ("match_not_found",),
        409: ("match_not_finished", "dispute_open", "conflict"),
        503: ("unavailable",),
    },
    "GET /api/disputes": {**CREDENTIAL, 403: ("not_an_operator",), 503: ("unavailable",)},
    "GET /api/disputes/{dispute_id}": {
        **CREDENTIAL,
        400: ("malformed",),
        403: ("not_allowed",),
        404: ("dispute_not_found",),
        503: ("unavailable",),
    },
    "POST /api/disputes/{dispute_id}/notes": {
        **CREDENTIAL,
        400: ("malformed", "invalid_note"),
        403: ("not_an_operator",),
        404: ("dispute_not_found",),
        409: ("dispute_closed", "conflict"),
        503: ("unavailable",),
    },
    "POST /api/disputes/{dispute_id}/ruling": {
        **CREDENTIAL,
        400: ("malformed", "invalid_ruling", "invalid_reason"),
        403: ("not_an_operator",),
        404: ("dispute_not_found",),
        409: ("dispute_closed", "conflict"),
        503: ("unavailable",),
    },
    "GET /api/matches/{match_id}/export": {
        400: ("malformed",),
        404: ("match_not_found",),
        409: ("match_running", "unknown_rules_version", "unreadable_match"),
        503: ("unavailable",),
    },
}
# What the edge answers before any route runs, on every route (429) or where a body is sent.
EDGE_CODES: dict[int, tuple[str, ...]] = {
    400: ("malformed", "too_deep", "too_long"),
    408: ("body_timeout",),
    413: ("body_too_large",),
    415: ("unsupported_media_type",),
    422: ("malformed",),
    429: ("rate_limited", "too_many_connections"),
}


def declared_codes(key: str, status: int, has_body: bool) -> list[str]:
    """The codes a route answers with ``status``: its own and the edge's."""
    own = ROUTE_ERRORS.get(key, {}).get(status, ())
    edge_codes = EDGE_CODES.get(status, ()) if (has_body or status in (429, 422)) else ()
    return sorted({*own, *edge_codes})


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI ``responses`` for a route: every error it can answer (429 on every route), each
    with the one error shape."""
    return {
        status: {"model": ErrorBody, "description": ERROR_TEXT[status]} for status in sorted({429, *statuses})
    }


BODY_ERRORS = (400, 408, 413, 415, 422)


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


# Routes under /api/matches that answer from the read models, not from NATS (no 503).
READ_MODEL_ROUTES = ("GET /api/matches",)


def declare_errors(schema: dict[str, Any]) -> dict[str, Any]:
    """The OpenAPI description with every error answer declared in the one error shape: the
    route's own (``responses=errors(...)``) plus those of the edge (429 everywhere; 400, 408,
    413, 415 and 422 where a body is sent; 404 on paths with ids; 503 where NATS is read)."""
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    components["ErrorBody"] = ErrorBody.model_json_schema()
    ref = {"$ref": "#/components/schemas/ErrorBody"}
    for path, operations in schema.get("paths", {}).items():
        for method, operation in operations.items():
            key = f"{method.upper()} {path}"
            responses = operation.setdefault("responses", {})
            wanted = {429, *ROUTE_ERRORS.get(key, {})}
            if "requestBody" in operation:
                wanted |= set(BODY_ERRORS)
            if "{" in path:
                wanted |= {400, 404}
            if operation.get("parameters") or "requestBody" in operation:
                wanted.add(422)
            if path.startswith(("/api/matches", "/api/queue")) and key not in READ_MODEL_ROUTES:
                wanted.add(503)
            for status in wanted:
                responses.setdefault(str(status), {"description": ERROR_TEXT[status]})
            for status, response in responses.items():
                if status[:1] in ("4", "5"):
                    response["content"] = {"application/json": {"schema": ref}}
                    response.setdefault("description", ERROR_TEXT.get(int(status), "Error"))
                    codes = declared_codes(key, int(status), "requestBody" in operation)
                    if int(status) == 400 and "{" in path and "malformed" not in codes:
                        codes.append("malformed")  # an id that is not one (the path's own check)
                    if int(status) == 404 and not codes:
                        codes = ["not_found"]
                    response["x-error-codes"] = codes
                    if codes:
                        listed = ", ".join(f"`{c}`" for c in codes)
                        text = response["description"].split(" — codes:")[0]
                        response["description"] = f"{text} — codes: {listed}"
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
