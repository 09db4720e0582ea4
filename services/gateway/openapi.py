"""Each game's commands and views in the OpenAPI description, generated from the msgspec
contracts, so a client developer can generate a typed client for every game.

Components, per registered game ``<game>``:

- ``<game>.Command``: the commands a seat may send, a union tagged by ``type`` (the game's own
  commands and the match-level ``resign.v1``, ``offer_draw.v1``, ``accept_draw.v1``,
  ``decline_draw.v1``);
- ``<game>.CommandRequest``: the body of ``POST /api/matches/{id}/commands`` for that game;
- ``<game>.View``: the game's own view (``game_view``);
- ``<game>.MatchView``: what ``GET /api/matches/{id}`` answers for a match of that game (its
  ``legal_moves`` carry ``<game>.Command``s).

The routes that answer a msgspec contract encoded as it is (not through FastAPI) have their
answer's schema from that contract too (:data:`MSGSPEC_REPLIES`): the command route
(``Accepted``; the fast path answers it), the audit bundle (``AuditBundle``), the
certificate keys (``KeySet``) and the tournaments' list, view and records (``TournamentList``,
``TournamentView``, ``TournamentBundle``).

The command route's request body is one of the ``CommandRequest``s (the ``type`` tags never
repeat across games) and the match route's answer one of the ``MatchView``s, told apart by
``game``.

The interactive pages (``/docs``, Swagger UI, and ``/redoc``, ReDoc) load their scripts and styles
from the ``fastapi-offline`` package installed with the gateway, served under ``/docs-assets``:
they work on a machine with no internet.
"""

from __future__ import annotations

import copy
from importlib import resources
from typing import Any, Union

import msgspec
from fastapi import FastAPI, Request
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from contracts.audit import AuditBundle
from contracts.certificate import KeySet
from contracts.envelope import Accepted
from contracts.match import AcceptDraw, DeclineDraw, MatchView, OfferDraw, Resign
from contracts.tournaments import (
    TournamentAccepted,
    TournamentBundle,
    TournamentList,
    TournamentSeat,
    TournamentView,
)
from domain.games import registry

REF = "#/components/schemas/{name}"
# The match-level commands a seat sends through the command route (the others are the server's).
SEAT_MATCH_COMMANDS = (Resign, OfferDraw, AcceptDraw, DeclineDraw)
COMMAND_ROUTE = "/api/matches/{match_id}/commands"
MATCH_ROUTE = "/api/matches/{match_id}"
# (method, path) -> (status, the msgspec contract the route's answer is, its description)
MSGSPEC_REPLIES: dict[tuple[str, str], tuple[str, Any, str]] = {
    ("post", COMMAND_ROUTE): ("200", Accepted, "The command was decided (or was a duplicate): its events"),
    ("get", "/api/matches/{match_id}/export"): ("200", AuditBundle, "The match's audit bundle"),
    ("get", "/api/keys"): ("200", KeySet, "The certificate keys"),
    ("get", "/api/tournaments"): ("200", TournamentList, "The tournaments, newest first"),
    ("get", "/api/tournaments/{tournament_id}"): ("200", TournamentView, "The tournament in words"),
    ("get", "/api/tournaments/{tournament_id}/records"): ("200", TournamentBundle, "The records as stored"),
    ("post", "/api/tournaments"): ("201", TournamentAccepted, "Created: the decision's events"),
    ("post", "/api/tournaments/{tournament_id}/join"): ("200", TournamentAccepted, "Joined: the decision's events"),
    ("post", "/api/tournaments/{tournament_id}/withdraw"): ("200", TournamentAccepted, "Withdrawn: the decision's events"),
    ("post", "/api/tournaments/{tournament_id}/close"): ("200", TournamentAccepted, "Closed: the seed revealed, the seeding"),
    ("post", "/api/tournaments/{tournament_id}/rounds"): ("200", TournamentAccepted, "The round started: its tables"),
    ("get", "/api/tournaments/{tournament_id}/seat"): ("200", TournamentSeat, "Your game and seat token"),
}
DOCS_ROUTE, REDOC_ROUTE, ASSETS_ROUTE = "/docs", "/redoc", "/docs-assets"
# The pages may load nothing from another host (ReDoc's sidebar would fetch its maker's logo).
DOCS_CSP = (
    "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; font-src 'self' data:; worker-src 'self' blob:; connect-src 'self'"
)


def _ref(name: str) -> dict[str, str]:
    return {"$ref": REF.format(name=name)}


def command_union(game: str) -> Any:
    """The commands a seat of ``game`` may send, as one tagged union type."""
    return Union[registry.get(game).command_type, *SEAT_MATCH_COMMANDS]  # noqa: UP007 - built at run time


def game_components() -> dict[str, Any]:
    """Every component this module adds, by name (msgspec's components plus the per-game ones)."""
    games = sorted(registry.GAMES)
    types: list[Any] = [MatchView]
    for game in games:
        types += [command_union(game), registry.get(game).contract.view_type]
    types += [reply for _, reply, _ in MSGSPEC_REPLIES.values()]
    schemas, components = msgspec.json.schema_components(types, ref_template=REF)
    match_view = components["MatchView"]
    for i, game in enumerate(games):
        command_schema, view_schema = schemas[1 + 2 * i], schemas[2 + 2 * i]
        components[f"{game}.Command"] = {"title": f"{registry.get(game).title}: a command", **command_schema}
        components[f"{game}.View"] = view_schema
        components[f"{game}.CommandRequest"] = {
            "title": f"{registry.get(game).title}: a command request",
            "type": "object",
            "properties": {
                "command": _ref(f"{game}.Command"),
                "command_id": {
                    "anyOf": [{"type": "string"}, {"type": "null"}],
                    "description": "Idempotency key: a retry with the same id returns the first reply.",
                },
            },
            "required": ["command"],
            "additionalProperties": False,
        }
        view = copy.deepcopy(match_view)
        view["title"] = f"{registry.get(game).title}: a match as a seat or spectator sees it"
        props = view["properties"]
        props["game"] = {"type": "string", "enum": [game]}
        props["game_view"] = view_schema
        props["legal_moves"] = {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"label": {"type": "string"}, "command": _ref(f"{game}.Command")},
                "required": ["label", "command"],
            },
            "description": "The viewer's legal moves: the label in the game's notation, the command as "
            "the command route takes it.",
        }
        components[f"{game}.MatchView"] = view
    return components


def add_game_schemas(schema: dict[str, Any]) -> dict[str, Any]:
    """Put every game's commands and views into an OpenAPI document (in place) and point the
    command and match routes at them."""
    games = sorted(registry.GAMES)
    schema.setdefault("components", {}).setdefault("schemas", {}).update(game_components())
    paths = schema.get("paths", {})
    for (method, path), (status, reply, text) in MSGSPEC_REPLIES.items():
        operation = paths.get(path, {}).get(method)
        if operation is not None:
            answer = operation.setdefault("responses", {}).setdefault(status, {"description": text})
            answer["content"] = {"application/json": {"schema": _ref(reply.__name__)}}
    post = paths.get(COMMAND_ROUTE, {}).get("post")
    if post is not None:
        body = post.setdefault("requestBody", {"required": True})
        body["content"] = {
            "application/json": {"schema": {"oneOf": [_ref(f"{g}.CommandRequest") for g in games]}}
        }
        # A refused command is a 409 with the game's own rejection code (docs/api.md, per game).
        refused = post.setdefault("responses", {}).setdefault("409", {"description": "Refused"})
        refused["x-game-codes"] = {g: list(registry.get(g).contract.rejection_codes) for g in games}
    get = paths.get(MATCH_ROUTE, {}).get("get")
    if get is not None:
        ok = get.setdefault("responses", {}).setdefault("200", {"description": "The match"})
        ok["content"] = {
            "application/json": {
                "schema": {
                    "oneOf": [_ref(f"{g}.MatchView") for g in games],
                    "discriminator": {
                        "propertyName": "game",
                        "mapping": {g: REF.format(name=f"{g}.MatchView") for g in games},
                    },
                }
            }
        }
    return schema


def install(app: FastAPI) -> None:
    """Generate the app's OpenAPI document with every game's commands and views (once)."""
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = add_game_schemas(generate())
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def install_asyncapi(app: FastAPI) -> None:
    """``GET /asyncapi.json``: the AsyncAPI 3.0 description of the NATS subjects and the match
    WebSocket (``contracts.asyncapi``), generated once, its WebSocket server the host asked."""
    from importlib.metadata import PackageNotFoundError, version

    from contracts.asyncapi import document

    try:
        release = version("gamehall")
    except PackageNotFoundError:
        release = "0"
    generated: dict[str, Any] = {}

    @app.get("/asyncapi.json", include_in_schema=False)
    async def asyncapi(request: Request) -> JSONResponse:
        if not generated:
            generated.update(document(release))
        doc = dict(generated)
        doc["servers"] = {**generated["servers"], "gateway": {**generated["servers"]["gateway"], "host": request.url.netloc}}
        return JSONResponse(doc)


def install_docs(app: FastAPI) -> None:
    """``/docs`` (Swagger UI) and ``/redoc`` (ReDoc) with their assets served by the gateway
    itself from the installed ``fastapi-offline`` package, so no page loads anything from another
    host. The app is created with ``docs_url=None, redoc_url=None`` (FastAPI's own pages load
    their scripts from a CDN)."""
    assets = resources.files("fastapi_offline") / "static"
    app.mount(ASSETS_ROUTE, StaticFiles(directory=str(assets)), name="docs-assets")
    openapi_url = app.openapi_url or "/openapi.json"

    @app.get(DOCS_ROUTE, include_in_schema=False)
    async def swagger_ui() -> HTMLResponse:
        return _local_only(
            get_swagger_ui_html(
                openapi_url=openapi_url,
                title=f"{app.title} - API (Swagger UI)",
                swagger_js_url=f"{ASSETS_ROUTE}/swagger-ui-bundle.js",
                swagger_css_url=f"{ASSETS_ROUTE}/swagger-ui.css",
                swagger_favicon_url=f"{ASSETS_ROUTE}/favicon.png",
            )
        )

    @app.get(REDOC_ROUTE, include_in_schema=False)
    async def redoc() -> HTMLResponse:
        return _local_only(
            get_redoc_html(
                openapi_url=openapi_url,
                title=f"{app.title} - API (ReDoc)",
                redoc_js_url=f"{ASSETS_ROUTE}/redoc.standalone.js",
                redoc_favicon_url=f"{ASSETS_ROUTE}/favicon.png",
                with_google_fonts=False,
            )
        )


def _local_only(page: HTMLResponse) -> HTMLResponse:
    page.headers["Content-Security-Policy"] = DOCS_CSP
    return page
