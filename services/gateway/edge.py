"""The gateway's edge: what a request must be before any handler sees it, and how often a client
may send one.

- **One error shape.** Every 4xx/5xx body is ``{"code", "detail"}`` (plus ``retry_after`` on 429
  and 503, with a ``Retry-After`` header); :func:`error_response` builds it, never echoing input
  it cannot encode.
- **Bodies.** ``POST`` bodies must be ``application/json`` (415), at most :data:`MAX_BODY` bytes,
  refused from ``Content-Length`` before a byte is read and counted while reading (413), whole
  within ``body_timeout_s`` of the headers (408 ``body_timeout``, connection closed; below), nested
  at most :data:`MAX_DEPTH` deep, with arrays and objects of at most :data:`MAX_ITEMS` entries and
  strings of at most :data:`MAX_STRING` characters (400 ``too_deep`` / ``too_long``); JSON that
  does not decode, lone surrogates included, is ``400 malformed``.
- **Rate limits.** Token buckets per client address, per credential (seat token or bearer, read
  by :func:`services.gateway.credentials.credential_of`, the routes' own reading), on match
  creation per address, on sign-ups per address and on failed authentications per address:
  ``429 rate_limited``.
- **Connections.** :class:`ConnectionGuard`: at most ``max_connections_per_address`` open
  connections per address, a request's headers must arrive within ``header_timeout_s`` and its
  whole body within ``body_timeout_s`` of them (slow clients are dropped); the server's HTTP
  protocol enforces it (``services.gateway.server.http_protocol``).

The limits are documented in docs/api.md, the settings in docs/operations.md.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import os
import re
import secrets
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

from services.common.settings import EdgeLimits
from services.gateway.credentials import credential_of, limiter_key

MAX_BODY = 64 * 1024  # bytes of any request body (commands included)
MAX_DEPTH = 32  # nesting of arrays and objects
MAX_ITEMS = 256  # entries of one array or object
MAX_STRING = 1024  # characters of one string (or object key)
MAX_COMMAND_ID = 128
MAX_PLAYER_NAME = 64

JSON_TYPES = (b"application/json",)


class ApiError(Exception):
    """An error answer: HTTP ``status`` with ``{code, detail[, retry_after]}``; on a WebSocket an
    error frame, then the close code ``close`` (derived from the status when None)."""

    def __init__(
        self, status: int, code: str, detail: str, retry_after: float | None = None, close: int | None = None
    ) -> None:
        super().__init__(code, detail)
        self.status, self.code, self.detail, self.retry_after, self.close = (
            status,
            code,
            detail,
            retry_after,
            close,
        )


def safe_text(text: str) -> str:
    """``text`` encodable as UTF-8 (a lone surrogate from a client's input becomes "?")."""
    try:
        text.encode()
    except UnicodeEncodeError:
        return text.encode("utf-8", "replace").decode()
    return text


_encode = msgspec.json.Encoder().encode


def error_body(code: str, detail: str, retry_after: float | None = None) -> bytes:
    body: dict[str, Any] = {"code": code, "detail": safe_text(detail)}
    if retry_after is not None:
        body["retry_after"] = round(retry_after, 3)
    return _encode(body)


def json_headers(body: bytes, retry_after: float | None) -> list[tuple[bytes, bytes]]:
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if retry_after is not None:
        headers.append((b"retry-after", str(max(1, math.ceil(retry_after))).encode()))
    return headers


async def send_error(
    send: Any, status: int, code: str, detail: str, retry_after: float | None = None
) -> None:
    body = error_body(code, detail, retry_after)
    await send({"type": "http.response.start", "status": status, "headers": json_headers(body, retry_after)})
    await send({"type": "http.response.body", "body": body})


# ------------------------------------------------------------------ JSON shape limits
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)


def depth_problem(raw: bytes, max_depth: int = MAX_DEPTH) -> str | None:
    """Why ``raw`` nests deeper than ``max_depth``, or None.  Cheap for the usual small body: when
    it holds no more brackets than the limit it cannot nest deeper, and nothing is scanned."""
    if raw.count(b"[") + raw.count(b"{") <= max_depth:
        return None
    depth = 0
    for ch in _STRING.sub(b"", raw):
        if ch == 91 or ch == 123:  # [ {
            depth += 1
            if depth > max_depth:
                return f"JSON nests deeper than {max_depth} levels"
        elif ch == 93 or ch == 125:  # ] }
            depth -= 1
    return None


def shape_problem(value: Any) -> tuple[str, str] | None:
    """(code, detail) when a decoded JSON value holds a string or a collection over the limits."""
    if isinstance(value, str):
        if len(value) > MAX_STRING:
            return "too_long", f"a string is longer than {MAX_STRING} characters"
        return None
    if isinstance(value, dict):
        if len(value) > MAX_ITEMS:
            return "too_long", f"an object has more than {MAX_ITEMS} entries"
        for key, item in value.items():
            if len(key) > MAX_STRING:
                return "too_long", f"an object key is longer than {MAX_STRING} characters"
            if not isinstance(item, (int, float, bool)) and item is not None:
                found = shape_problem(item)
                if found:
                    return found
        return None
    if isinstance(value, list):
        if len(value) > MAX_ITEMS:
            return "too_long", f"an array has more than {MAX_ITEMS} items"
        for item in value:
            if not isinstance(item, (int, float, bool)) and item is not None:
                found = shape_problem(item)
                if found:
                    return found
    return None


def check_json(raw: bytes) -> ApiError | None:
    """The whole check of a JSON body that no faster path decodes itself."""
    problem = depth_problem(raw)
    if problem:
        return ApiError(400, "too_deep", problem)
    try:
        value = msgspec.json.decode(raw)
    except (msgspec.DecodeError, RecursionError) as exc:
        return ApiError(400, "malformed", f"the body is not JSON: {exc}")
    found = shape_problem(value)
    if found:
        return ApiError(400, *found)
    return None


# ------------------------------------------------------------------ token buckets
class Buckets:
    """Token buckets by key: ``rate`` tokens a second up to ``burst``; rate 0 disables them."""

    MAX_KEYS = 100_000

    __slots__ = ("rate", "burst", "state")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = max(burst, 1.0)
        self.state: dict[str, list[float]] = {}

    @property
    def enabled(self) -> bool:
        return self.rate > 0

    def take(self, key: str, now: float) -> float:
        """Take a token: 0.0 when allowed, else the seconds until one is there (nothing taken)."""
        st = self.state.get(key)
        if st is None:
            if len(self.state) >= self.MAX_KEYS:
                self.prune(now)
            self.state[key] = [self.burst - 1.0, now]
            return 0.0
        tokens = st[0] + (now - st[1]) * self.rate
        if tokens > self.burst:
            tokens = self.burst
        st[1] = now
        if tokens >= 1.0:
            st[0] = tokens - 1.0
            return 0.0
        st[0] = tokens
        return (1.0 - tokens) / self.rate

    def wait(self, key: str, now: float) -> float:
        """The seconds until a token is there (0.0 now), taking none."""
        st = self.state.get(key)
        if st is None:
            return 0.0
        tokens = min(self.burst, st[0] + (now - st[1]) * self.rate)
        return 0.0 if tokens >= 1.0 else (1.0 - tokens) / self.rate

    def charge(self, key: str, now: float) -> None:
        """Take a token even when none is left (a failed authentication costs one regardless)."""
        st = self.state.get(key)
        if st is None:
            if len(self.state) >= self.MAX_KEYS:
                self.prune(now)
            self.state[key] = [self.burst - 1.0, now]
            return
        st[0] = max(-self.burst, min(self.burst, st[0] + (now - st[1]) * self.rate) - 1.0)
        st[1] = now

    def prune(self, now: float) -> None:
        """Forget buckets that have filled up again; all of them if that frees nothing."""
        full = [k for k, (tokens, at) in self.state.items() if tokens + (now - at) * self.rate >= self.burst]
        for k in full:
            del self.state[k]
        if len(self.state) >= self.MAX_KEYS:
            self.state.clear()


def header(scope: Any, name: bytes) -> bytes | None:
    for key, value in scope["headers"]:
        if key == name:
            return value  # type: ignore[no-any-return]
    return None


def client_address(scope: Any) -> str:
    client = scope.get("client")
    return client[0] if client else ""


class Limiter:
    """The gateway's token buckets (one set per gateway process)."""

    def __init__(self, limits: EdgeLimits) -> None:
        self.limits = limits
        self.by_address = Buckets(limits.per_address.per_s, limits.per_address.burst)
        self.by_credential = Buckets(limits.per_credential.per_s, limits.per_credential.burst)
        self.creations = Buckets(limits.create_match.per_s, limits.create_match.burst)
        self.auth_failures = Buckets(limits.auth_failures.per_s, limits.auth_failures.burst)
        self.sign_ups = Buckets(limits.sign_up.per_s, limits.sign_up.burst)
        self.limited = 0  # 429s answered

    def throttled(self, scope: Any, credential: str | None, now: float) -> tuple[str, float] | None:
        """(detail, retry_after) when a bucket of this request is empty, else None."""
        addr = client_address(scope)
        if self.by_address.rate:
            wait = self.by_address.take(addr, now)
            if wait:
                return "too many requests from this address", wait
        if credential is not None:
            if self.auth_failures.rate:
                wait = self.auth_failures.wait(addr, now)
                if wait:
                    return "too many failed authentications from this address", wait
            if self.by_credential.rate:
                wait = self.by_credential.take(limiter_key(credential), now)
                if wait:
                    return "too many requests with this credential", wait
        if scope.get("method") == "POST":
            path = scope["path"]
            if self.creations.rate and path == "/api/matches":
                wait = self.creations.take(addr, now)
                if wait:
                    return "too many matches created from this address", wait
            elif self.sign_ups.rate and path == "/api/accounts":
                wait = self.sign_ups.take(addr, now)
                if wait:
                    return "too many sign-ups from this address", wait
        return None

    def credential_throttled(self, credential: str) -> float:
        """Seconds to wait before this credential may send again (0.0: now; a token is taken)."""
        if not self.by_credential.rate:
            return 0.0
        return self.by_credential.take(limiter_key(credential), time.monotonic())


class EdgeGuard:
    """The outermost ASGI layer: rate limits, then the body checks for every ``POST``; the body,
    once read and checked, is handed on whole (``receive`` replays it)."""

    def __init__(self, app: Any, limiter: Limiter, self_checked: re.Pattern[str] | None = None) -> None:
        self.app = app
        self.limiter = limiter
        # Routes whose handler decodes and checks the JSON itself (the command fast path): the
        # edge checks size, type and depth there, not the whole shape a second time.
        self.self_checked = self_checked

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        kind = scope["type"]
        if kind == "lifespan":
            await self.app(scope, receive, send)
            return
        now = time.monotonic()
        credential = credential_of(scope)
        limited = self.limiter.throttled(scope, credential, now)
        if limited is not None:
            self.limiter.limited += 1
            detail, wait = limited
            if kind == "websocket":
                await send({"type": "websocket.close", "code": 4429, "reason": "rate_limited"})
                return
            await send_error(send, 429, "rate_limited", detail, wait)
            return
        if credential is not None and self.limiter.auth_failures.rate:
            send = self.watch_auth(scope, send)
        if kind == "http" and scope["method"] in ("POST", "PUT", "PATCH"):
            body = await self.read_body(scope, receive, send)
            if body is None:
                return
            await self.app(scope, replay(body, receive), send)
            return
        await self.app(scope, receive, send)

    def watch_auth(self, scope: Any, send: Any) -> Any:
        failures, addr = self.limiter.auth_failures, client_address(scope)

        async def watching(message: Any) -> None:
            kind = message["type"]
            if (kind == "http.response.start" and message["status"] == 401) or (
                kind == "websocket.close" and message.get("code") == 4401
            ):
                failures.charge(addr, time.monotonic())
            await send(message)

        return watching

    async def read_body(self, scope: Any, receive: Any, send: Any) -> bytes | None:
        """The checked body, or None when an error was answered.  (How long it may take to
        arrive is the server protocol's: ``services.gateway.server.http_protocol``.)"""
        length = header(scope, b"content-length")
        if length is not None:
            if not length.isdigit():
                await send_error(send, 400, "malformed", "Content-Length is not a number")
                return None
            if int(length) > MAX_BODY:
                await send_error(send, 413, "body_too_large", f"bodies are at most {MAX_BODY} bytes")
                return None
        chunked = header(scope, b"transfer-encoding") is not None
        if length not in (None, b"0") or chunked:
            ctype = header(scope, b"content-type")
            if ctype is None or ctype.split(b";", 1)[0].strip().lower() not in JSON_TYPES:
                await send_error(send, 415, "unsupported_media_type", "send the body as application/json")
                return None
        message = await receive()
        body = message.get("body", b"")
        if message.get("more_body"):
            chunks = [body]
            size = len(body)
            while True:
                message = await receive()
                if message["type"] == "http.disconnect":
                    return None
                chunk = message.get("body", b"")
                size += len(chunk)
                if size > MAX_BODY:
                    await send_error(send, 413, "body_too_large", f"bodies are at most {MAX_BODY} bytes")
                    return None
                chunks.append(chunk)
                if not message.get("more_body"):
                    break
            body = b"".join(chunks)
        elif message["type"] == "http.disconnect":
            return None
        if len(body) > MAX_BODY:
            await send_error(send, 413, "body_too_large", f"bodies are at most {MAX_BODY} bytes")
            return None
        if not body:
            return body
        if self.self_checked is not None and self.self_checked.match(scope["path"]):
            problem = depth_problem(body)
            if problem:
                await send_error(send, 400, "too_deep", problem)
                return None
            return body
        error = check_json(body)
        if error is not None:
            await send_error(send, error.status, error.code, error.detail)
            return None
        return body


def replay(body: bytes, receive: Any) -> Any:
    """``receive`` for the app behind: the whole body once, then the server's own messages."""
    sent = False

    async def replaying() -> Any:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replaying


# ------------------------------------------------------------------ connections
TOO_MANY_CONNECTIONS = (
    b"HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\nretry-after: 1\r\n"
    b"connection: close\r\ncontent-length: %d\r\n\r\n%s"
)
REQUEST_TIMEOUT = (  # headers or body not in time
    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\n"
    b"connection: close\r\ncontent-length: %d\r\n\r\n%s"
)
HEADERS_TOO_LARGE = (
    b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: application/json\r\n"
    b"connection: close\r\ncontent-length: %d\r\n\r\n%s"
)
MAX_HEADER_BYTES = 32 * 1024


def _raw_error(template: bytes, code: str, detail: str, retry_after: float | None = None) -> bytes:
    body = error_body(code, detail, retry_after)
    return template % (len(body), body)


class ConnectionGuard:
    """Open connections per client address (shared by every connection of one server)."""

    def __init__(self, max_per_address: int, header_timeout_s: float, body_timeout_s: float = 0.0) -> None:
        self.max_per_address = max_per_address
        self.max_header_bytes = MAX_HEADER_BYTES
        self.header_timeout_s = header_timeout_s
        self.body_timeout_s = body_timeout_s  # 0: no deadline
        self.open: dict[str, int] = {}
        self.refused = 0
        self.timed_out = 0
        self.body_timed_out = 0

    def acquire(self, addr: str) -> bool:
        n = self.open.get(addr, 0)
        if self.max_per_address and n >= self.max_per_address:
            self.refused += 1
            return False
        self.open[addr] = n + 1
        return True

    def release(self, addr: str) -> None:
        n = self.open.get(addr, 0) - 1
        if n > 0:
            self.open[addr] = n
        else:
            self.open.pop(addr, None)

    # What the server's protocol writes before it closes a connection (services.gateway.server).
    def refused_answer(self) -> bytes:
        return _raw_error(
            TOO_MANY_CONNECTIONS, "too_many_connections", "too many connections from this address", 1.0
        )

    def header_timeout_answer(self) -> bytes:
        self.timed_out += 1
        return _raw_error(REQUEST_TIMEOUT, "header_timeout", "the request headers did not arrive in time")

    def headers_too_large_answer(self) -> bytes:
        return _raw_error(HEADERS_TOO_LARGE, "headers_too_large", "the request headers are too large")

    def body_timeout_answer(self) -> bytes:
        self.body_timed_out += 1
        return _raw_error(
            REQUEST_TIMEOUT,
            "body_timeout",
            f"the request body did not arrive within {self.body_timeout_s:g} s",
        )


# ------------------------------------------------------------------ Idempotency-Key
@dataclass
class Idempotent:
    """A creation under an ``Idempotency-Key``: the match id and the seat tokens are derived
    from the (client, key) pair with the gateway's secret, so a retry names the same match
    (the referee answers ``match_exists``) and re-derives the same tokens."""

    scope_key: str
    match_id: str
    token_key: bytes
    body_hash: str
    reply: dict[str, Any] | None = None


class IdempotencyStore:
    MAX_ENTRIES = 10_000

    def __init__(self, secret: bytes, window_s: float) -> None:
        self.secret = secret
        self.window_s = window_s
        self.entries: dict[str, tuple[float, str, dict[str, Any]]] = {}

    def begin(self, client: str, key: str, body: bytes) -> Idempotent:
        scope_key = f"{client}\n{key}"
        digest = hmac.new(self.secret, b"match\n" + scope_key.encode(), hashlib.sha256).digest()
        token_key = hmac.new(self.secret, b"tokens\n" + scope_key.encode(), hashlib.sha256).digest()
        idem = Idempotent(scope_key, digest[:8].hex(), token_key, hashlib.sha256(body).hexdigest())
        entry = self.entries.get(scope_key)
        if entry is not None and entry[0] > time.monotonic():
            if entry[1] != idem.body_hash:
                raise ApiError(409, "idempotency_conflict", "this Idempotency-Key came with another body")
            idem.reply = entry[2]
        return idem

    def finish(self, idem: Idempotent, reply: dict[str, Any]) -> None:
        now = time.monotonic()
        if len(self.entries) >= self.MAX_ENTRIES:
            for k in [k for k, (until, _, _) in self.entries.items() if until <= now]:
                del self.entries[k]
            while len(self.entries) >= self.MAX_ENTRIES:
                self.entries.pop(next(iter(self.entries)))
        self.entries[idem.scope_key] = (now + self.window_s, idem.body_hash, reply)


def gateway_secret(data_dir: Path) -> bytes:
    """The gateway's secret (``<data dir>/gateway.secret``, mode 0600), made on first use."""
    path = Path(data_dir) / "gateway.secret"
    try:
        return bytes.fromhex(path.read_text().strip())
    except (FileNotFoundError, ValueError):
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    secret = secrets.token_bytes(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(secret.hex())
    return secret
