"""The OpenAPI description declares every game's commands and views (from the msgspec contracts),
so a client can be generated for every game."""

from __future__ import annotations

import re
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest

from domain.games import registry
from services.common.settings import Settings
from services.gateway import errors
from services.gateway.app import create_app
from services.gateway.errors import (
    ACCOUNT_REFUSALS,
    DISPUTE_REFUSALS,
    QUEUE_REFUSALS,
    REFEREE_REFUSALS,
    REJECTION_STATUS,
    ROUTE_ERRORS,
    status_of,
)
from services.gateway.openapi import SEAT_MATCH_COMMANDS


@pytest.fixture(scope="module")
def doc(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    settings = Settings(data_dir=tmp_path_factory.mktemp("gw"), nats_url="nats://127.0.0.1:1")
    return create_app(settings, "nats://127.0.0.1:1").openapi()


def tags(union: Any) -> set[str]:
    members = typing.get_args(union) or (union,)
    return {msgspec.inspect.type_info(t).tag for t in members}


def refs(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref":
                yield value
            else:
                yield from refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from refs(value)


@pytest.mark.parametrize("game", sorted(registry.GAMES))
def test_every_command_tag_of_every_game_is_declared(doc: dict[str, Any], game: str) -> None:
    schemas = doc["components"]["schemas"]
    command = schemas[f"{game}.Command"]
    wanted = tags(registry.get(game).command_type) | {
        msgspec.inspect.type_info(t).tag for t in SEAT_MATCH_COMMANDS
    }
    assert set(command["discriminator"]["mapping"]) == wanted
    assert command["discriminator"]["propertyName"] == "type"
    for tag, ref in command["discriminator"]["mapping"].items():
        member = schemas[ref.rsplit("/", 1)[1]]
        assert member["properties"]["type"]["enum"] == [tag]


@pytest.mark.parametrize("game", sorted(registry.GAMES))
def test_every_game_view_is_declared_with_its_legal_moves(doc: dict[str, Any], game: str) -> None:
    schemas = doc["components"]["schemas"]
    view = schemas[f"{game}.MatchView"]["properties"]
    assert view["game"]["enum"] == [game]
    view_struct = registry.get(game).contract.view_type
    declared = set(schemas[view["game_view"]["$ref"].rsplit("/", 1)[1]]["properties"])
    assert declared == set(view_struct.__struct_fields__)
    assert view["legal_moves"]["items"]["properties"]["command"]["$ref"].endswith(f"/{game}.Command")


def test_the_command_route_takes_any_game_command_and_the_match_route_answers_any_game_view(
    doc: dict[str, Any],
) -> None:
    games = sorted(registry.GAMES)
    body = doc["paths"]["/api/matches/{match_id}/commands"]["post"]["requestBody"]
    assert [r["$ref"].rsplit("/", 1)[1] for r in body["content"]["application/json"]["schema"]["oneOf"]] == [
        f"{g}.CommandRequest" for g in games
    ]
    answer = doc["paths"]["/api/matches/{match_id}"]["get"]["responses"]["200"]["content"]["application/json"]
    assert set(answer["schema"]["discriminator"]["mapping"]) == set(games)


def test_command_tags_never_repeat_across_games() -> None:
    """A request body is one of the games' CommandRequests only if no tag belongs to two games."""
    seen: dict[str, str] = {}
    for game in sorted(registry.GAMES):
        for tag in tags(registry.get(game).command_type):
            assert tag not in seen, f"{tag} is a command of {seen.get(tag)} and {game}"
            seen[tag] = game


def test_every_reference_resolves(doc: dict[str, Any]) -> None:
    schemas = doc["components"]["schemas"]
    missing = {r for r in refs(doc) if r.rsplit("/", 1)[1] not in schemas}
    assert not missing


# Every error answer of every route (docs/api.md "Errors"): the statuses the issue asks for are
# declared where a route can answer them, each in the one error shape with its codes listed.
ROOT = Path(__file__).resolve().parents[2]
API_DOC = (ROOT / "docs" / "api.md").read_text()
GATEWAY = ROOT / "services" / "gateway"
RAISED = re.compile(r'ApiError\(\s*(\d{3}),\s*"([a-z_]+)"')
KINDS = {cls.__name__: status for cls, status in errors.STATUS.items()}
RAISED_KIND = re.compile(r"\b(" + "|".join(KINDS) + r')\(\s*"([a-z_]+)"')
CREDENTIAL_ROUTES = ("/api/accounts/me", "/api/queue")
BUS_ROUTES = ("/api/matches", "/api/queue")


def operations(doc: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, ops in doc["paths"].items():
        for method, op in ops.items():
            yield method.upper(), path, op


def test_every_route_declares_its_error_answers(doc: dict[str, Any]) -> None:
    seen = set()
    for method, path, op in operations(doc):
        key = f"{method} {path}"
        seen.add(key)
        assert key in ROUTE_ERRORS, f"{key}: list its error codes in services/gateway/errors.py ROUTE_ERRORS"
        declared = {int(s) for s in op["responses"] if s[0] in "45"}
        wanted = {429}
        if "requestBody" in op:
            wanted |= {400, 408, 413, 415, 422}
        if op.get("parameters") or "requestBody" in op:
            wanted.add(422)
        if "{" in path:
            wanted |= {400, 404}
        if path.startswith(CREDENTIAL_ROUTES):
            wanted.add(401)
        if path.startswith(BUS_ROUTES) and key != "GET /api/matches":  # the match list: a read model
            wanted.add(503)
        if path.startswith("/api/matches/{match_id}") and not path.endswith(("/replay", "/export", "/rules")):
            wanted.add(401)  # a seat token that is no seat's
        if path.startswith("/api/queue") and method == "POST":
            wanted.add(403)  # another player's name
        wanted |= set(ROUTE_ERRORS[key])
        assert wanted <= declared, f"{key} does not declare {sorted(wanted - declared)}"
        for status, response in op["responses"].items():
            if status[0] not in "45":
                continue
            schema = response["content"]["application/json"]["schema"]
            assert schema == {"$ref": "#/components/schemas/ErrorBody"}, (key, status)
            codes = response["x-error-codes"]
            assert codes, f"{key} {status}: no codes"
            for code in codes:
                assert re.fullmatch(r"[a-z][a-z_]*", code), (key, status, code)
                assert f"`{code}`" in API_DOC, f"{key} {status}: {code} is not in docs/api.md"
                assert f"`{code}`" in response["description"], (key, status, code)
    assert seen == set(ROUTE_ERRORS), (
        f"ROUTE_ERRORS names routes that do not exist: {set(ROUTE_ERRORS) - seen}"
    )
    assert {"ErrorBody"} <= set(doc["components"]["schemas"])


def test_every_code_the_gateway_raises_is_declared_at_its_status(doc: dict[str, Any]) -> None:
    """Every ``NotFound("code", ...)`` (each typed error of ``errors.STATUS``) and ``ApiError(status,
    "code")`` in the gateway's HTTP code, and every mapped refusal,
    is on some route's error answer with that status (WebSocket-only codes are in sockets.py)."""
    declared: dict[int, set[str]] = {}
    for _, _, op in operations(doc):
        for status, response in op["responses"].items():
            if status[0] in "45":
                declared.setdefault(int(status), set()).update(response["x-error-codes"])
    sources = [s for s in GATEWAY.rglob("*.py") if s.name != "sockets.py"]
    raised = {
        (int(status), code) for source in sources for status, code in RAISED.findall(source.read_text())
    }
    raised |= {
        (KINDS[kind], code) for source in sources for kind, code in RAISED_KIND.findall(source.read_text())
    }
    for kinds in (QUEUE_REFUSALS, ACCOUNT_REFUSALS, DISPUTE_REFUSALS):
        raised |= {(status_of(kind), code) for code, kind in kinds.items()}
    raised |= {(status, code) for code, status in REJECTION_STATUS.items() if code not in ("not_a_seat",)}
    raised.add((403, "not_a_seat"))
    assert len(raised) > 20
    missing = sorted((status, code) for status, code in raised if code not in declared.get(status, set()))
    assert not missing, f"raised but declared on no route: {missing}"


def test_a_refused_command_declares_every_game_rejection_code(doc: dict[str, Any]) -> None:
    refused = doc["paths"]["/api/matches/{match_id}/commands"]["post"]["responses"]["409"]
    assert refused["x-game-codes"] == {
        g: list(registry.get(g).contract.rejection_codes) for g in sorted(registry.GAMES)
    }
    assert "not_your_turn" in refused["x-error-codes"]


def typed(schema: dict[str, Any], components: dict[str, Any]) -> bool:
    """Whether a schema says what the answer is: a reference, a union of typed schemas, an
    object with properties, or an array of typed items (not ``{}``, nor a bare object)."""
    if "$ref" in schema:
        return schema["$ref"].rsplit("/", 1)[1] in components
    for union in ("oneOf", "anyOf"):
        if union in schema:
            return all(typed(member, components) for member in schema[union])
    if schema.get("type") == "array":
        return typed(schema.get("items", {}), components)
    if schema.get("type") == "object":
        return bool(schema.get("properties"))
    return schema.get("type") in ("string", "integer", "number", "boolean")


def test_every_success_answer_has_a_schema(doc: dict[str, Any]) -> None:
    """Every 2xx of every route says what it answers, so a client can be generated for all of
    them (the WebSocket route is not in the OpenAPI description)."""
    components = doc["components"]["schemas"]
    untyped = []
    for method, path, op in operations(doc):
        successes = [s for s in op["responses"] if s.startswith("2")]
        assert successes, f"{method} {path} declares no success answer"
        for status in successes:
            content = op["responses"][status].get("content", {}).get("application/json", {})
            if not typed(content.get("schema", {}), components):
                untyped.append(f"{method} {path} {status}")
    assert not untyped, f"success answers without a schema: {untyped}"


def test_the_commands_200_is_the_accepted_contract(doc: dict[str, Any]) -> None:
    ok = doc["paths"]["/api/matches/{match_id}/commands"]["post"]["responses"]["200"]
    assert ok["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Accepted"}
    accepted = doc["components"]["schemas"]["Accepted"]
    assert accepted["properties"]["type"]["enum"] == ["accepted.v1"]


def test_every_typed_error_has_one_status_and_every_refusal_table_is_typed() -> None:
    assert sorted(errors.STATUS.values()) == sorted(set(errors.STATUS.values()))
    for kinds in (REFEREE_REFUSALS, QUEUE_REFUSALS, ACCOUNT_REFUSALS, DISPUTE_REFUSALS):
        for code, kind in kinds.items():
            assert issubclass(kind, errors.GatewayError), code
            raised = kind(code, "a sentence")
            assert (raised.status, raised.code, raised.detail) == (status_of(kind), code, "a sentence")
