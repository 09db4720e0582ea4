"""The gateway's edge margins a hostile client found (issue 22), against a real gateway on a real
nats-server: every spelling of a credential the app reads meets the failed-authentication
limiter; a body must arrive whole within a total deadline; sign-ups are limited per address;
/metrics is not on the public port."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import socket
import time
import uuid
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect as ws_connect

from services.common.settings import Rate
from tests.support.gateway import OPEN, running_gateway

pytestmark = pytest.mark.integration

# Failed authentications: a burst of 5, then one every 100 s (no refill while a test runs).
GUARDED = dataclasses.replace(OPEN, auth_failures=Rate(0.01, 5.0))
ATTEMPTS = 60


def error_of(response: httpx.Response, status: int, code: str) -> dict:
    assert response.status_code == status, (response.status_code, response.text[:300])
    body = response.json()
    assert body["code"] == code and isinstance(body["detail"], str), body
    return body


def new_match(c: httpx.Client) -> dict:
    r = c.post("/api/matches", json={"game": "ugolki"})
    assert r.status_code == 201, r.text
    return r.json()


def guesses(c: httpx.Client, path: str, query: str) -> list[int]:
    """Statuses of up to ATTEMPTS requests, each with a new bad token spelled by ``query``,
    until one is limited."""
    statuses = []
    for i in range(ATTEMPTS):
        bad = f"white.guess{uuid.uuid4().hex}{i}"
        r = c.get(f"{path}?{query.format(bad=bad)}")
        statuses.append(r.status_code)
        if r.status_code == 429:
            error_of(r, 429, "rate_limited")
            assert int(r.headers["Retry-After"]) >= 1
            break
    return statuses


@pytest.mark.parametrize(
    "query",
    [
        "xtoken=1&token={bad}",  # another parameter whose name ends in "token" comes first
        "%74oken={bad}",  # the name percent-encoded
        "to%6Ben={bad}&since=0",
        "token=white.x&token={bad}",  # repeated: the app reads the last one
        "token={bad}",
    ],
)
def test_bad_tokens_however_spelled_in_the_query_are_limited(nats_url: str, tmp_path: Path, query: str) -> None:
    with running_gateway(nats_url, tmp_path, GUARDED) as url, httpx.Client(base_url=url, timeout=30) as c:
        mid = new_match(c)["match_id"]
        statuses = guesses(c, f"/api/matches/{mid}", query)
        # each guess the app refused (401) cost a token; the 6th request meets the spent bucket
        assert statuses == [401] * 5 + [429], statuses
        # the account routes read the credential the same way
        assert guesses(c, "/api/accounts/me", query) == [429]


def test_a_header_and_the_query_are_one_credential_and_the_header_wins(nats_url: str, tmp_path: Path) -> None:
    with running_gateway(nats_url, tmp_path, GUARDED) as url, httpx.Client(base_url=url, timeout=30) as c:
        created = new_match(c)
        mid, good = created["match_id"], created["seats"][0]["token"]
        # a good token in the query, a bad one in the header: the header is what is checked
        r = c.get(f"/api/matches/{mid}?token={good}", headers={"Authorization": "Bearer white.bad"})
        error_of(r, 401, "bad_token")
        # the good one in the header, a bad one in the query: the seat's view
        r = c.get(f"/api/matches/{mid}?token=white.bad", headers={"Authorization": f"Bearer {good}"})
        assert r.status_code == 200 and r.json()["viewer"] == "white", r.text
        statuses = [
            c.get(f"/api/matches/{mid}", headers={"Authorization": f"Bearer white.h{i}"}).status_code for i in range(10)
        ]
        assert statuses[:4] == [401] * 4 and statuses[-1] == 429, statuses
        # now the good token waits too, in the header or the query
        error_of(c.get(f"/api/matches/{mid}", headers={"Authorization": f"Bearer {good}"}), 429, "rate_limited")
        error_of(c.get(f"/api/matches/{mid}?%74oken={good}"), 429, "rate_limited")
        assert c.get(f"/api/matches/{mid}").status_code == 200  # a spectator is not authenticating


def ws_close_code(url: str) -> int | None:
    try:
        with ws_connect(url, open_timeout=10, close_timeout=5) as ws:
            while True:
                ws.recv(timeout=10)
    except ConnectionClosed as exc:
        return exc.rcvd.code if exc.rcvd is not None else None
    except Exception as exc:  # noqa: BLE001 - a refused handshake: its status
        return getattr(getattr(exc, "response", None), "status_code", None)


def test_bad_tokens_on_the_websocket_however_spelled_are_limited(nats_url: str, tmp_path: Path) -> None:
    with running_gateway(nats_url, tmp_path, GUARDED) as url, httpx.Client(base_url=url, timeout=30) as c:
        mid = new_match(c)["match_id"]
        base = url.replace("http", "ws", 1) + f"/ws/matches/{mid}"
        codes = []
        for i, query in enumerate(["xtoken=1&token={bad}", "%74oken={bad}", "token=a&token={bad}"] * 3):
            codes.append(ws_close_code(f"{base}?{query.format(bad=f'white.ws{i}')}"))
            if codes[-1] in (403, 4429):
                break
        # limited: the handshake is refused (docs/api.md "WebSocket close codes": 4429, no frame)
        assert codes[:5] == [4401] * 5 and codes[5] in (403, 4429) and len(codes) == 6, codes


def test_a_body_trickled_byte_by_byte_is_cut_off_at_the_total_deadline(nats_url: str, tmp_path: Path) -> None:
    limits = dataclasses.replace(OPEN, body_timeout_s=1.5)
    body = json.dumps({"game": "ugolki", "players": ["ann", "bob"], "ranked": False}).encode()
    with running_gateway(nats_url, tmp_path, limits) as url:
        host, port = url.rsplit("//", 1)[1].split(":")
        with socket.create_connection((host, int(port)), timeout=30) as s:
            s.sendall(
                b"POST /api/matches HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                + f"Content-Length: {len(body)}\r\n\r\n".encode()
            )
            answer = b""
            sent = 0
            s.settimeout(0.25)
            # a byte every 0.25 s: every byte is in time, the whole body (~60 bytes) never is
            while sent < len(body):
                try:
                    s.sendall(body[sent : sent + 1])
                    sent += 1
                    chunk = s.recv(4096)
                except TimeoutError:
                    continue
                except OSError:  # reset: the gateway closed first
                    break
                answer += chunk
                if not chunk:
                    break
                if b"\r\n\r\n" in answer:
                    break
            s.settimeout(10)
            with contextlib.suppress(OSError):
                while chunk := s.recv(4096):
                    answer += chunk
        assert sent < len(body), "the whole body was taken"
        head, _, rest = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 408"), answer[:200]
        assert b"connection: close" in head.lower()
        assert json.loads(rest)["code"] == "body_timeout"
        # a body sent at once is taken as before, and the slow one created nothing
        with httpx.Client(base_url=url, timeout=30) as c:
            assert c.post("/api/matches", content=body, headers={"Content-Type": "application/json"}).status_code == 201


def test_a_whole_body_in_one_go_and_a_keep_alive_connection_are_not_cut(nats_url: str, tmp_path: Path) -> None:
    limits = dataclasses.replace(OPEN, body_timeout_s=1.0)
    with running_gateway(nats_url, tmp_path, limits) as url, httpx.Client(base_url=url, timeout=30) as c:
        created = new_match(c)
        # the connection stays open past the deadline between requests: only a body in flight is timed
        time.sleep(1.5)
        r = c.post(
            f"/api/matches/{created['match_id']}/commands",
            json={"command": {"type": "resign.v1"}},
            headers={"Authorization": f"Bearer {created['seats'][0]['token']}"},
        )
        assert r.status_code == 200, r.text


def test_sign_ups_are_limited_per_address(nats_url: str, tmp_path: Path) -> None:
    limits = dataclasses.replace(OPEN, sign_up=Rate(0.01, 3.0))
    with running_gateway(nats_url, tmp_path, limits) as url, httpx.Client(base_url=url, timeout=30) as c:
        answers = [c.post("/api/accounts", json={"name": f"su{uuid.uuid4().hex[:8]}"}) for _ in range(6)]
        assert [r.status_code for r in answers] == [201] * 3 + [429] * 3
        body = error_of(answers[3], 429, "rate_limited")
        assert body["retry_after"] > 0 and int(answers[3].headers["Retry-After"]) >= 1
        assert "sign-ups" in body["detail"]
        # other routes, match creation included, are not held back by it
        assert c.get("/api/games").status_code == 200
        new_match(c)


def test_metrics_are_not_served_on_the_public_port(nats_url: str, tmp_path: Path) -> None:
    with running_gateway(nats_url, tmp_path, OPEN) as url, httpx.Client(base_url=url, timeout=30) as c:
        r = c.get("/metrics")
        error_of(r, 404, "not_found")
        assert "gamehall_" not in r.text
        assert "/metrics" not in c.get("/openapi.json").json()["paths"]
        assert c.get("/healthz").status_code == 200
