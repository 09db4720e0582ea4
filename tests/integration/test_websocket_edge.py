"""The WebSocket edge against hostile frames (issue 9, finding 4): deep nesting, messages over
64 KB, binary frames, unknown message types and random garbage each get a typed error frame
``{"type": "error", code, detail}`` and then the documented close code (docs/api.md); a bad
command on a good frame is a ``reply`` and the socket stays open."""

from __future__ import annotations

import json
from collections.abc import Iterator

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect as ws_connect

from tests.support.gateway import OPEN, running_gateway

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def match(nats_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict]]:
    with running_gateway(nats_url, tmp_path_factory.mktemp("ws"), OPEN) as url:
        created = httpx.post(f"{url}/api/matches", json={"game": "ugolki"}, timeout=30).json()
        yield url, created


def socket_url(url: str, created: dict, token: str | None = None) -> str:
    base = url.replace("http://", "ws://") + f"/ws/matches/{created['match_id']}"
    return f"{base}?token={token or created['seats'][0]['token']}"


def open_socket(url: str, created: dict):
    ws = ws_connect(socket_url(url, created), max_size=None, open_timeout=10)
    kinds = {json.loads(ws.recv(timeout=10))["type"] for _ in range(2)}
    assert kinds == {"events", "view"}
    return ws


def error_then_close(ws) -> tuple[dict, int]:
    """The error frame the server sent and the close code that followed it."""
    frame = None
    try:
        while True:
            message = json.loads(ws.recv(timeout=10))
            if message["type"] == "error":
                frame = message
    except ConnectionClosed as closed:
        code = closed.rcvd.code if closed.rcvd else 1006
    assert frame is not None, "no error frame before the close"
    assert set(frame) == {"type", "code", "detail"} and isinstance(frame["detail"], str), frame
    return frame, code


@pytest.mark.parametrize(
    ("frame", "code", "close"),
    [
        ('{"type": "command", "command": ' + "[" * 10_000 + "]" * 10_000 + "}", "too_deep", 4400),
        ('{"type": "command", "command": {"type": "resign.v1", "x": "' + "a" * 70_000 + '"}}', "too_large", 1009),
        ('{"type": "subscribe", "match": "all"}', "unknown_type", 4400),
        ("[1, 2, 3]", "malformed", 4400),
        ("not json at all", "malformed", 4400),
        ('{"type": "command", "command": {"type": "resign.v1"}, "extra": 1}', "malformed", 4400),
    ],
)
def test_a_bad_frame_gets_a_typed_error_then_a_documented_close(
    match: tuple[str, dict], frame: str, code: str, close: int
) -> None:
    url, created = match
    ws = open_socket(url, created)
    ws.send(frame)
    error, got = error_then_close(ws)
    assert (error["code"], got) == (code, close)


def test_a_binary_frame_gets_a_typed_error_then_1003(match: tuple[str, dict]) -> None:
    url, created = match
    ws = open_socket(url, created)
    ws.send(b"\x00\x01binary")
    error, got = error_then_close(ws)
    assert (error["code"], got) == ("binary_frame", 1003)


def test_a_5mb_message_closes_with_1009(match: tuple[str, dict]) -> None:
    """Over the 1 MiB the server reads of a message at all, the close comes without a frame."""
    url, created = match
    ws = open_socket(url, created)
    with pytest.raises(ConnectionClosed) as closed:
        ws.send("x" * 5_000_000)
        while True:
            ws.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009


def test_bad_token_and_unknown_match_close_with_4401_and_4404(match: tuple[str, dict]) -> None:
    url, created = match
    ws = ws_connect(socket_url(url, created, token="white.forged"), open_timeout=10)
    assert error_then_close(ws)[1] == 4401
    ws = ws_connect(url.replace("http://", "ws://") + "/ws/matches/no-such-match", open_timeout=10)
    assert error_then_close(ws)[1] == 4404


def test_a_refused_command_is_a_reply_and_the_socket_stays_open(match: tuple[str, dict]) -> None:
    url, created = match
    ws = open_socket(url, created)
    ws.send(json.dumps({"type": "command", "command": {"type": "move_piece.v1", "path": ["a1"], "x": 1}}))
    reply = json.loads(ws.recv(timeout=10))
    assert reply["type"] == "reply" and reply["reply"]["code"] == "malformed"
    ws.send(json.dumps({"type": "command", "command": {"type": "nope.v1"}, "command_id": "c" * 129}))
    error, close = error_then_close(ws)  # a command id over 128 characters is bad input
    assert (error["code"], close) == ("malformed", 4400)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)
FRAMES = st.one_of(
    st.text(max_size=200),
    JSON.map(json.dumps),
    st.fixed_dictionaries({"type": st.text(max_size=12)}, optional={"command": JSON}).map(json.dumps),
    st.fixed_dictionaries({"type": st.just("command"), "command": JSON}).map(json.dumps),
    st.integers(1, 4000).map(lambda n: '{"type": "command", "command": ' + "[" * n + "]" * n + "}"),
    st.binary(max_size=64),
)


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(frame=FRAMES)
def test_websocket_fuzz_every_frame_gets_a_reply_or_a_typed_error(match: tuple[str, dict], frame: str | bytes) -> None:
    url, created = match
    ws = open_socket(url, created)
    try:
        ws.send(frame)
        try:
            message = json.loads(ws.recv(timeout=10))
            while message["type"] in ("events", "view"):  # an accepted command is pushed first
                message = json.loads(ws.recv(timeout=10))
        except ConnectionClosed as closed:
            raise AssertionError(f"closed without an error frame: {closed}") from None
        assert message["type"] in ("reply", "error"), message
        if message["type"] == "reply":
            assert message["reply"]["type"] in ("accepted.v1", "rejected.v1")
            if message["reply"]["type"] == "rejected.v1":
                assert 400 <= message["reply"]["status"] < 500, message
        else:
            assert {"code", "detail"} <= set(message)
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    ws.recv(timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code in (1003, 1009, 4400)
    finally:
        ws.close()


def test_the_create_reply_gives_each_seat_a_socket_url_ready_to_open(match: tuple[str, dict]) -> None:
    """The reply's ``seats[i].websocket`` is absolute and carries the seat's token: opened as it
    is, it serves that seat (its view names the seat); the top-level one is a spectator's."""
    url, created = match
    seat = created["seats"][0]
    assert seat["websocket"] == socket_url(url, created, seat["token"])
    with ws_connect(seat["websocket"], open_timeout=10) as ws:
        frames = [json.loads(ws.recv(timeout=10)) for _ in range(2)]
    view = next(f for f in frames if f["type"] == "view")["view"]
    assert view["viewer"] == seat["seat"], view
    assert created["websocket"] == socket_url(url, created).split("?")[0]
    with ws_connect(created["websocket"], open_timeout=10) as ws:
        frames = [json.loads(ws.recv(timeout=10)) for _ in range(2)]
    assert next(f for f in frames if f["type"] == "view")["view"]["viewer"] is None


def test_the_gateway_serves_the_asyncapi_description_with_its_own_socket_host(match: tuple[str, dict]) -> None:
    """``GET /asyncapi.json``: the document of contracts/asyncapi.py, its WebSocket server the
    host the client asked (docs/api.md "Messages (AsyncAPI)")."""
    from contracts.asyncapi import document

    url, _ = match
    served = httpx.get(f"{url}/asyncapi.json", timeout=10).json()
    assert served["asyncapi"] == "3.0.0"
    assert served["servers"]["gateway"]["host"] == url.removeprefix("http://")
    expected = document(served["info"]["version"])
    assert served["channels"] == json.loads(json.dumps(expected["channels"]))
    assert served["components"] == json.loads(json.dumps(expected["components"]))
