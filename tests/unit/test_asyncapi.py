"""The AsyncAPI 3.0 description (contracts/asyncapi.py, served at ``GET /asyncapi.json``): it is
valid against the AsyncAPI 3.0.0 JSON Schema (tests/fixtures/asyncapi-3.0.0.schema.json, the
``schemas/3.0.0.json`` of the npm package ``@asyncapi/specs`` 6.11.1, Apache-2.0), every reference
resolves, every registered game has its envelope and command messages, every channel parameter is
in its address, and real messages validate against the schemas it gives them."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import jsonschema_rs
import msgspec
import pytest

from contracts.api import CommandFrame
from contracts.asyncapi import document
from contracts.codecs import encode
from contracts.games.registry import CONTRACTS
from tests.support.bundles import played_match

ROOT = Path(__file__).resolve().parents[2]
DOC = document("test")


def _refs(node: Any) -> list[str]:
    if isinstance(node, dict):
        return [v for k, v in node.items() if k == "$ref" and isinstance(v, str)] + [
            r for v in node.values() for r in _refs(v)
        ]
    if isinstance(node, list):
        return [r for v in node for r in _refs(v)]
    return []


def _validator(message: str) -> Any:
    payload = DOC["components"]["messages"][message]["payload"]
    return jsonschema_rs.validator_for({**payload, "components": DOC["components"]})


def test_the_document_is_valid_asyncapi_3() -> None:
    schema = json.loads((ROOT / "tests" / "fixtures" / "asyncapi-3.0.0.schema.json").read_text())
    errors = [
        f"{list(e.instance_path)}: {e.message[:200]}"
        for e in jsonschema_rs.validator_for(schema).iter_errors(DOC)
    ]
    assert not errors, "\n".join(errors[:10])


def test_every_reference_resolves() -> None:
    for ref in _refs(DOC):
        node: Any = DOC
        for part in ref.removeprefix("#/").split("/"):
            assert part in node, ref
            node = node[part]


def test_every_game_has_its_envelope_and_command_messages() -> None:
    channels = DOC["channels"]
    for game in CONTRACTS:
        key = game.replace("-", "_")
        assert f"{key}_envelope" in channels["matchEvents"]["messages"]
        assert f"{key}_command" in channels["commands"]["messages"]


def test_every_channel_parameter_is_in_its_address() -> None:
    for cid, channel in DOC["channels"].items():
        address = channel["address"]
        named = set(re.findall(r"{(\w+)}", address or ""))
        assert named == set(channel.get("parameters", {})), cid


@pytest.mark.parametrize("game", sorted(CONTRACTS))
def test_stored_envelopes_validate_against_their_game_schema(game: str) -> None:
    bundle, _ = played_match(game, max_moves=40)
    validator = _validator(f"{game.replace('-', '_')}_envelope")
    for stored in bundle.envelopes:
        envelope = json.loads(stored.data)
        errors = [e.message[:200] for e in validator.iter_errors(envelope)]
        assert not errors, errors


def test_a_socket_command_frame_validates_and_a_wrong_one_does_not() -> None:
    validator = _validator("command_frame")
    frame = msgspec.json.decode(encode(CommandFrame(command={"type": "resign.v1"}, command_id="c1")))
    assert validator.is_valid(frame)
    assert not validator.is_valid({"type": "command", "command_id": 7})
