"""The gateway edge's pure parts: JSON shape limits, token buckets, rate parsing, and that every
game's commands refuse unknown fields (issue 9: unknown fields in commands are rejected)."""

from __future__ import annotations

import json

import msgspec
import pytest

from contracts.codecs import codec
from contracts.games.registry import CONTRACTS
from contracts.match import MatchCommand
from services.common.settings import GatewaySettings, Rate
from services.gateway import credentials, edge


def test_depth_under_the_limit_passes_and_over_it_is_named() -> None:
    assert edge.depth_problem(b"[" * 32 + b"]" * 32) is None
    assert edge.depth_problem(b"[" * 33 + b"]" * 33) is not None
    assert edge.depth_problem(b'{"a":' * 40 + b"1" + b"}" * 40) is not None
    # brackets inside strings are not nesting
    assert edge.depth_problem(json.dumps({"s": "[" * 1000}).encode()) is None
    assert edge.depth_problem(json.dumps({"s": '\\"[' * 100}).encode()) is None


def test_many_flat_brackets_are_not_deep() -> None:
    assert edge.depth_problem(json.dumps([[1]] * 200).encode()) is None


def test_shape_limits_on_strings_arrays_objects_and_keys() -> None:
    assert edge.shape_problem({"path": ["a1"] * edge.MAX_ITEMS}) is None
    assert edge.shape_problem({"path": ["a1"] * (edge.MAX_ITEMS + 1)}) == (
        "too_long",
        f"an array has more than {edge.MAX_ITEMS} items",
    )
    assert edge.shape_problem({"s": "x" * (edge.MAX_STRING + 1)})[0] == "too_long"  # type: ignore[index]
    assert edge.shape_problem({"x" * (edge.MAX_STRING + 1): 1})[0] == "too_long"  # type: ignore[index]
    assert edge.shape_problem({str(i): i for i in range(edge.MAX_ITEMS + 1)})[0] == "too_long"  # type: ignore[index]
    assert edge.shape_problem([[["x" * (edge.MAX_STRING + 1)]]]) is not None


def test_check_json_types_every_problem() -> None:
    assert edge.check_json(b'{"game": "ugolki"}') is None
    for raw, code in [
        (b'{"a": "\\ud800"}', "malformed"),
        (b"\xff\xfe", "malformed"),
        (b"[" * 100 + b"]" * 100, "too_deep"),
        (json.dumps({"a": "x" * 5000}).encode(), "too_long"),
    ]:
        error = edge.check_json(raw)
        assert error is not None and error.code == code and error.status == 400, raw[:20]


def test_error_body_never_fails_on_a_lone_surrogate() -> None:
    body = msgspec.json.decode(edge.error_body("malformed", "bad name '\ud800'", 1.23456))
    assert body == {"code": "malformed", "detail": "bad name '?'", "retry_after": 1.235}


def test_a_bucket_allows_its_burst_then_refills_at_its_rate() -> None:
    bucket = edge.Buckets(rate=2.0, burst=3.0)
    assert [bucket.take("a", 0.0) for _ in range(3)] == [0.0, 0.0, 0.0]
    wait = bucket.take("a", 0.0)
    assert wait == pytest.approx(0.5)
    assert bucket.take("b", 0.0) == 0.0  # another key has its own bucket
    assert bucket.take("a", 0.5) == 0.0  # one token back after 1/rate seconds
    assert bucket.take("a", 0.5) > 0.0
    assert bucket.take("a", 100.0) == 0.0 and bucket.state["a"][0] == pytest.approx(2.0)  # capped at burst


def test_charged_failures_empty_a_bucket_and_wait_takes_nothing() -> None:
    bucket = edge.Buckets(rate=1.0, burst=2.0)
    assert bucket.wait("x", 0.0) == 0.0
    bucket.charge("x", 0.0)
    bucket.charge("x", 0.0)
    assert bucket.wait("x", 0.0) == pytest.approx(1.0)
    assert bucket.wait("x", 0.0) == pytest.approx(1.0)  # waiting took no token
    assert bucket.wait("x", 1.0) == 0.0


def test_pruning_forgets_full_buckets_only() -> None:
    bucket = edge.Buckets(rate=1.0, burst=5.0)
    bucket.take("busy", 0.0)
    bucket.take("idle", 0.0)
    for _ in range(5):
        bucket.take("busy", 9.0)
    bucket.prune(10.0)
    assert set(bucket.state) == {"busy"}


def test_rates_parse_from_the_environment() -> None:
    assert Rate.parse("100/400") == Rate(100.0, 400.0)
    assert Rate.parse("5") == Rate(5.0, 5.0)
    assert Rate.parse("off") == Rate.parse("0") == Rate(0.0, 0.0)
    limits = GatewaySettings.model_validate(
        {"GAMEHALL_RATE_CREATE": "1/2", "GAMEHALL_HEADER_TIMEOUT_S": "2.5"}
    ).limits()
    assert limits.create_match == Rate(1.0, 2.0) and limits.header_timeout_s == 2.5
    assert limits.sign_up == Rate(0.1, 20.0) and limits.body_timeout_s == 10.0
    tight = GatewaySettings.model_validate({"GAMEHALL_RATE_SIGNUP": "off", "GAMEHALL_BODY_TIMEOUT_S": "1.5"}).limits()
    assert tight.sign_up == Rate(0.0, 0.0) and tight.body_timeout_s == 1.5
    assert limits.per_address == GatewaySettings().limits().per_address == Rate(100.0, 400.0)
    assert GatewaySettings.of(limits).limits() == limits
    with pytest.raises(ValueError):
        GatewaySettings.model_validate({"GAMEHALL_RATE_ADDRESS": "fast"})


def test_the_credential_is_read_from_the_header_then_the_query() -> None:
    scope = {"headers": [(b"authorization", b"Bearer white.abc")], "query_string": b"token=black.x"}
    assert edge.credential_of(scope) == "white.abc"
    assert edge.credential_of({"headers": [], "query_string": b"since=3&token=black.x"}) == "black.x"
    assert edge.credential_of({"headers": [], "query_string": b"notoken=1"}) is None
    # the app's credential is the whole of it; a rate-limit bucket is keyed by its beginning
    long = {"headers": [(b"authorization", b"Bearer " + b"x" * 5000)], "query_string": b""}
    assert len(edge.credential_of(long) or "") == 5000
    assert credentials.limiter_key("x" * 5000) == "x" * credentials.MAX_CREDENTIAL


@pytest.mark.parametrize(
    ("headers", "query", "expected"),
    [
        ([], b"xtoken=1&token=bad", "bad"),  # another parameter ending in "token" first
        ([], b"%74oken=bad", "bad"),  # a percent-encoded name
        ([], b"to%6Ben=bad&since=1", "bad"),
        ([], b"token=a&token=b", "b"),  # repeated: the last wins, as for FastAPI's `token: str`
        ([], b"token=%62ad+x", "bad x"),  # the value percent-decoded, '+' a space
        ([], b"token=", None),  # empty: none
        ([], b"token", None),
        ([], b"tok+en=bad", None),  # "tok en" is another name
        ([], b"token=caf%C3%A9", "café"),
        ([(b"authorization", b"Bearer   seat.1  ")], b"token=other", "seat.1"),
        ([(b"authorization", b"bearer seat.1")], b"", "seat.1"),  # the scheme in any case
        ([(b"authorization", b"Basic dXNlcg==")], b"token=seat.2", "seat.2"),  # not a bearer: the query
        ([(b"authorization", b"Bearer a"), (b"authorization", b"Bearer b")], b"", "a"),  # the first header
        ([(b"authorization", b"Bearer ")], b"token=seat.3", None),  # an empty bearer is none
    ],
)
def test_one_reading_of_the_credential_as_starlette_reads_the_request(
    headers: list[tuple[bytes, bytes]], query: bytes, expected: str | None
) -> None:
    """The edge's limiter and every route read a request's credential with one function, and it
    reads the query string and the header exactly as Starlette does (issue 22)."""
    from starlette.requests import Request

    scope = {"type": "http", "headers": headers, "query_string": query}
    assert credentials.credential_of(dict(scope)) == expected
    request = Request(dict(scope))
    header = request.headers.get("authorization")
    if header is not None and header[:7].lower() == "bearer ":
        assert (header[7:].strip() or None) == expected
    else:
        assert (request.query_params.get("token") or None) == expected


def command_types(union: object) -> list[type]:
    return [t for t in getattr(union, "__args__", (union,)) if isinstance(t, type)]


@pytest.mark.parametrize("game", sorted(CONTRACTS))
def test_every_command_of_every_game_refuses_unknown_fields(game: str) -> None:
    """Unknown fields inside a command are refused, not dropped (issue 9, finding 4)."""
    types = command_types(CONTRACTS[game].command_type) + command_types(MatchCommand)
    for cls in types:
        assert cls.__struct_config__.forbid_unknown_fields, f"{game}: {cls.__name__}"
        tag = cls.__struct_config__.tag
        rejected = codec(game).decode_inner_command({"type": tag, "surely_not_a_field": 1})
        assert getattr(rejected, "code", None) == "malformed", (game, tag, rejected)
