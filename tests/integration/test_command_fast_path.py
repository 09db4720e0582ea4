"""The command fast path answers exactly like the documented FastAPI route: for the same
requests, the same status, body and headers (docs/architecture.md, "The gateway's hot route"),
both behind the same edge."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from services.common.natsio import connect, ensure_streams
from services.common.settings import GatewaySettings, Settings
from services.gateway.app import asgi_app
from services.referee.core import Referee
from tests.support.gateway import OPEN

pytestmark = pytest.mark.integration

MOVE = {"type": "move_piece.v1", "path": ["e1", "d1"]}
# (what the request is, seat whose token it carries or a literal token, how, body)
CASES: list[tuple[str, str | None, str, Any]] = [
    ("a legal move", "white", "header", {"command": MOVE, "command_id": "c1"}),
    ("the same command id again", "white", "header", {"command": MOVE, "command_id": "c1"}),
    ("not your turn", "white", "header", {"command": {"type": "move_piece.v1", "path": ["f1", "f3"]}, "command_id": "c2"}),
    ("an illegal move", "black", "header", {"command": {"type": "move_piece.v1", "path": ["a8", "a2"]}, "command_id": "c3"}),
    ("a move with the token in the query", "black", "query", {"command": {"type": "move_piece.v1", "path": ["d8", "e8"]}, "command_id": "c4"}),
    ("no token", None, "header", {"command": MOVE}),
    ("a token of no seat", "white.not-a-real-token", "header", {"command": MOVE}),
    ("not a seat token", "nonsense", "header", {"command": MOVE}),
    ("a draw offer", "white", "header", {"command": {"type": "offer_draw.v1"}, "command_id": "c5"}),
    ("an unknown command", "black", "header", {"command": {"type": "fly.v1"}}),
    ("an unknown field in the command", "black", "header", {"command": {**MOVE, "speed": 3}}),
    ("an unknown field in the body", "black", "header", {"command": MOVE, "extra": 1}),
    ("no command", "black", "header", {"command_id": "x"}),
    ("a command that is not an object", "black", "header", {"command": "e1-d1"}),
    ("a body that is a list", "black", "header", []),
    ("a body that is not JSON", "black", "header", b"{not json"),
    ("an empty body", "black", "header", b""),
]


@contextlib.asynccontextmanager
async def lifespan(asgi: Any) -> AsyncIterator[None]:
    """Run an ASGI app's start-up and shut-down, as uvicorn does."""
    inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    task = asyncio.create_task(asgi({"type": "lifespan", "asgi": {"version": "3.0"}}, inbox.get, outbox.put))
    await inbox.put({"type": "lifespan.startup"})
    assert (await outbox.get())["type"] == "lifespan.startup.complete"
    try:
        yield
    finally:
        await inbox.put({"type": "lifespan.shutdown"})
        await outbox.get()
        await task


@pytest.fixture
async def gateway_apps(nats_url: str, tmp_path: Path) -> AsyncIterator[tuple[httpx.AsyncClient, httpx.AsyncClient]]:
    """The gateway's whole ASGI stack twice: with the command fast path (as it runs), and without
    it, so that the documented FastAPI route answers the commands."""
    nc = await connect(nats_url, "fast-path-test")
    await ensure_streams(nc.jetstream())
    referee = Referee(nc, nc.jetstream())
    await referee.start()
    settings = Settings(data_dir=tmp_path, nats_url=nats_url).replace(gateway=GatewaySettings.of(OPEN))
    fast, _ = asgi_app(settings, nats_url)
    plain, _ = asgi_app(settings, nats_url, fast_path=False)
    try:
        async with (
            lifespan(fast),
            lifespan(plain),
            httpx.AsyncClient(transport=httpx.ASGITransport(fast), base_url="http://gw") as via_fast,
            httpx.AsyncClient(transport=httpx.ASGITransport(plain), base_url="http://gw") as via_route,
        ):
            yield via_fast, via_route
    finally:
        await referee.stop()
        await nc.drain()


async def new_match(client: httpx.AsyncClient) -> dict[str, Any]:
    r = await client.post("/api/matches", json={"game": "ugolki", "preset": "halma-8x8-1234", "players": ["a", "b"]})
    assert r.status_code == 201, r.text
    created = r.json()
    return {"id": created["match_id"], **{s["seat"]: s["token"] for s in created["seats"]}}


async def send(client: httpx.AsyncClient, match: dict[str, Any], case: tuple[str, str | None, str, Any]) -> httpx.Response:
    _, who, how, body = case
    token = match.get(who, who) if who else None
    headers = {"content-type": "application/json"}
    params = {}
    if token and how == "header":
        headers["authorization"] = f"Bearer {token}"
    elif token:
        params["token"] = token
    content = body if isinstance(body, bytes) else json.dumps(body).encode()
    return await client.post(f"/api/matches/{match['id']}/commands", content=content, headers=headers, params=params)


def same_text(text: str, mine: dict[str, Any], theirs: dict[str, Any]) -> str:
    """A reply about match B written as if about match A (ids and tokens swapped)."""
    for key, value in theirs.items():
        text = text.replace(value, mine[key])
    return text


async def test_fast_path_and_documented_route_answer_alike(
    gateway_apps: tuple[httpx.AsyncClient, httpx.AsyncClient],
) -> None:
    via_fast, via_route = gateway_apps
    a, b = await new_match(via_fast), await new_match(via_route)
    statuses = set()
    for case in CASES:
        fast, route = await send(via_fast, a, case), await send(via_route, b, case)
        what = case[0]
        assert fast.status_code == route.status_code, (what, fast.text, route.text)
        assert fast.text == same_text(route.text, a, b), what
        assert sorted(fast.headers.items()) == sorted(
            (k, same_text(v, a, b)) for k, v in route.headers.items()
        ), what
        assert fast.json() is not None and fast.headers["content-type"].startswith("application/json")
        statuses.add(fast.status_code)
    # The cases reach every kind of answer: accepted, refused by the rules, bad token, bad body.
    assert {200, 401, 409} <= statuses and statuses & {400, 422}
    missing = await send(via_fast, {"id": "no-such-match", "white": "white.x"}, CASES[0])
    again = await send(via_route, {"id": "no-such-match", "white": "white.x"}, CASES[0])
    assert (missing.status_code, missing.text) == (again.status_code, again.text) == (
        404,
        missing.text,
    ) and missing.json()["code"] == "match_not_found"
