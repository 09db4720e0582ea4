"""The OpenAPI description declares every game's commands and views (from the msgspec contracts),
so a client can be generated for every game."""

from __future__ import annotations

import typing
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest

from domain.games import registry
from services.common.settings import Settings
from services.gateway.app import create_app
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
    wanted = tags(registry.get(game).command_type) | {msgspec.inspect.type_info(t).tag for t in SEAT_MATCH_COMMANDS}
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
