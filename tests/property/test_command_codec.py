"""The command codec of every game against any input (issue 9): any bytes, and any JSON value
as the ``command`` of a request, decode to a typed rejection or to a valid command, never an
exception; a decoded command encodes and decodes back to itself."""

from __future__ import annotations

import uuid

import msgspec
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from contracts.codecs import codec, encode
from contracts.envelope import CommandEnvelope, Rejected
from contracts.games.registry import CONTRACTS

GAMES = sorted(CONTRACTS)
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner, max_size=5),
    max_leaves=25,
)


def tagged(game: str) -> st.SearchStrategy[dict]:
    """Objects that carry one of the game's command tags and arbitrary fields."""
    union = CONTRACTS[game].command_type
    tags = [t.__struct_config__.tag for t in getattr(union, "__args__", (union,))]
    tags += ["resign.v1", "offer_draw.v1", "create_match.v1"]
    return st.builds(
        lambda tag, fields: {**fields, "type": tag},
        st.sampled_from(tags),
        st.dictionaries(st.sampled_from(["path", "card", "cards", "pile", "to", "from", "seat", "x"]), JSON, max_size=3),
    )


def envelope_bytes(game: str, command: object) -> bytes:
    return encode(
        {
            "command_id": uuid.uuid4().hex,
            "match_id": "m1",
            "game": game,
            "seat": "white",
            "token": "t",
            "command": command,
        }
    )


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.binary(max_size=300))
@example(data=b"[" * 10_000)
@example(data=b'{"command_id": "x", "command": ' + b"[" * 5000 + b"]" * 5000 + b"}")
@example(data=b'{"a": "\\ud800"}')
def test_any_bytes_decode_to_a_rejection_or_a_command(game: str, data: bytes) -> None:
    try:
        decoded = codec(game).decode_command(data)
    except RecursionError:
        pytest.fail("deep nesting must be a typed rejection")
    assert isinstance(decoded, (Rejected, CommandEnvelope))
    if isinstance(decoded, Rejected):
        assert decoded.code == "malformed" and decoded.detail


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_json_command_decodes_to_a_rejection_or_a_command_that_round_trips(game: str, data: st.DataObject) -> None:
    command = data.draw(st.one_of(JSON, tagged(game)))
    c = codec(game)
    inner = c.decode_inner_command(command)
    assert isinstance(inner, Rejected) or isinstance(inner, msgspec.Struct)
    decoded = c.decode_command(envelope_bytes(game, command))
    if isinstance(inner, Rejected):
        assert isinstance(decoded, Rejected) and decoded.code == "malformed"
        return
    assert isinstance(decoded, CommandEnvelope) and decoded.command == inner
    again = c.decode_command(encode(decoded))
    assert again == decoded
