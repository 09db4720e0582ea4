"""A small typed async client of the gamehall API (docs/api.md "The client library").

    async with GamehallClient("http://127.0.0.1:8000") as gh:
        created = await gh.create_match("ugolki", preset="mini-3x3", players=["ann", "bob"])
        view = await gh.match(created.match_id, token=created.token("white"))
        await gh.send(created.match_id, view.legal_moves[0].command, token=created.token("white"))
        async with gh.stream(created.match_id, token=created.token("black")) as stream:
            async for frame in stream:         # EventsFrame, ViewFrame, ReplyFrame
                ...

HTTP goes through httpx, the match socket through websockets; answers decode into the msgspec
structs of ``contracts`` (``contracts.api``, ``contracts.match.MatchView``, and each game's own
view with :func:`game_view`).  Every error answer raises :class:`ApiError` with the server's
``code`` and ``detail``; a ``429`` is waited out (``Retry-After``) and sent again, a bounded number
of times.  Commands are given as the game's msgspec structs (``contracts.games.*``) or as plain
JSON objects with their ``type`` tag, e.g. ``{"type": "move_piece.v1", "path": ["h3", "h5"]}``.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from typing import Any, TypeVar

import httpx
import msgspec
from websockets.asyncio.client import ClientConnection
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed

from contracts.api import (
    CommandFrame,
    CommandRejected,
    CommandReply,
    Decision,
    ErrorBody,
    ErrorFrame,
    EventsFrame,
    MatchCreatedReply,
    ReplyFrame,
    ServerFrame,
    ViewFrame,
    frame_decoder,
)
from contracts.envelope import Accepted
from contracts.games.registry import CONTRACTS
from contracts.match import MatchView

__all__ = [
    "Accepted",
    "ApiError",
    "CommandRejected",
    "CommandReply",
    "Decision",
    "ErrorFrame",
    "EventsFrame",
    "GamehallClient",
    "MatchCreatedReply",
    "MatchStream",
    "MatchView",
    "ReplyFrame",
    "ServerFrame",
    "StreamClosed",
    "ViewFrame",
    "game_view",
]

T = TypeVar("T")
MAX_429_RETRIES = 50
MAX_WAIT_S = 5.0


class ApiError(Exception):
    """An error answer of the API: ``status`` (HTTP), ``code`` and ``detail`` as the server sent them."""

    def __init__(self, status: int, code: str, detail: str, retry_after: float | None = None) -> None:
        super().__init__(f"{status} {code}: {detail}")
        self.status, self.code, self.detail, self.retry_after = status, code, detail, retry_after

    @property
    def rejected(self) -> CommandRejected:
        """The error as the ``rejected.v1`` reply a socket would carry (a refused command: 409)."""
        return CommandRejected(code=self.code, detail=self.detail, status=self.status)


class StreamClosed(Exception):
    """The server closed the match socket: ``close_code`` (4400, 4401, 4404, 4408, 4429, ...) and
    the error frame it sent before, if any."""

    def __init__(self, close_code: int | None, error: ErrorFrame | None) -> None:
        what = f"{error.code}: {error.detail}" if error else "no error frame"
        super().__init__(f"the match socket closed with {close_code} ({what})")
        self.close_code, self.error = close_code, error


def as_builtins(command: Any) -> Any:
    """A command as the API takes it: a game's msgspec struct (with its tag) or a JSON object."""
    return msgspec.to_builtins(command)


def game_view(view: MatchView) -> Any:
    """The game's own view of a match, decoded into that game's view struct
    (``contracts.games.<game>``), e.g. ``UgolkiView`` for an Ugolki match."""
    return msgspec.convert(view.game_view, type=CONTRACTS[view.game].view_type)


def _retry_after(response: httpx.Response) -> float:
    try:
        body = response.json()
        wait = float(body.get("retry_after") or response.headers.get("retry-after", 1))
    except (ValueError, AttributeError):
        wait = 1.0
    return min(max(wait, 0.01), MAX_WAIT_S)


def _error(response: httpx.Response) -> ApiError:
    try:
        body = msgspec.json.decode(response.content, type=ErrorBody)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return ApiError(response.status_code, "http_error", response.text[:300])
    return ApiError(response.status_code, body.code, body.detail, body.retry_after)


def _auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


class GamehallClient:
    """The gamehall API at ``base_url``.  ``credential`` is a player credential (an API token from
    :meth:`sign_up`, or an app's JWT) sent on the routes that act for a player (quick match);
    seat tokens are passed per call.  Use as ``async with``, or call :meth:`aclose`."""

    def __init__(
        self,
        base_url: str,
        *,
        credential: str | None = None,
        timeout: float = 60.0,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.credential = credential
        self.http = httpx.AsyncClient(base_url=self.base_url, timeout=timeout, transport=transport)

    async def __aenter__(self) -> GamehallClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self.http.aclose()

    async def request(
        self,
        method: str,
        path: str,
        *,
        json: Any = None,
        params: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
    ) -> httpx.Response:
        """One request; an error answer raises :class:`ApiError`, a ``429`` is retried after the
        time the server asks for."""
        response = None
        for _ in range(MAX_429_RETRIES):
            response = await self.http.request(method, path, json=json, params=params, headers=headers)
            if response.status_code != 429:
                break
            await asyncio.sleep(_retry_after(response))
        assert response is not None
        if response.status_code >= 400:
            raise _error(response)
        return response

    async def _get(self, path: str, type: type[T], **kw: Any) -> T:
        response = await self.request("GET", path, **kw)
        return msgspec.json.decode(response.content, type=type)

    # Games and matches

    async def games(self) -> list[dict[str, Any]]:
        """Every game with its rules version, seats, presets and computer strengths."""
        return await self._get("/api/games", list[dict[str, Any]])

    async def create_match(
        self,
        game: str,
        *,
        preset: str | None = None,
        players: list[str] | None = None,
        seats: int | None = None,
        rules: dict[str, Any] | None = None,
        bots: dict[str, str] | None = None,
        bot_think_ms: int | None = None,
        time_control: dict[str, float] | None = None,
        idempotency_key: str | None = None,
    ) -> MatchCreatedReply:
        """``POST /api/matches``: a match whose ``bots`` seats the computer plays; the reply holds
        the other seats' tokens and invites.  Without ``players`` the seats are guests named
        ``guest-<seat>``."""
        body: dict[str, Any] = {"game": game}
        for key, value in (
            ("preset", preset),
            ("players", players),
            ("seats", seats),
            ("rules", rules),
            ("bots", bots),
            ("bot_think_ms", bot_think_ms),
            ("time_control", time_control),
        ):
            if value is not None:
                body[key] = value
        headers = {"Idempotency-Key": idempotency_key} if idempotency_key else None
        response = await self.request("POST", "/api/matches", json=body, headers=headers)
        return msgspec.json.decode(response.content, type=MatchCreatedReply)

    async def match(self, match_id: str, *, token: str | None = None) -> MatchView:
        """The match as the seat of ``token`` sees it (a spectator without)."""
        return await self._get(f"/api/matches/{match_id}", MatchView, headers=_auth(token))

    async def events(self, match_id: str, *, since: int = 0, token: str | None = None) -> list[Decision]:
        """The decisions after ``since``, redacted for the seat of ``token``."""
        return await self._get(
            f"/api/matches/{match_id}/events", list[Decision], params={"since": since}, headers=_auth(token)
        )

    async def send(
        self, match_id: str, command: Any, *, token: str, command_id: str | None = None
    ) -> Accepted:
        """Send a command for the seat of ``token``; a refusal raises :class:`ApiError` (``409``
        with the game's code).  ``command_id`` makes a retry safe (a fresh one when omitted)."""
        body = {"command": as_builtins(command), "command_id": command_id or uuid.uuid4().hex}
        response = await self.request("POST", f"/api/matches/{match_id}/commands", json=body, headers=_auth(token))
        return msgspec.json.decode(response.content, type=Accepted)

    async def replay(self, match_id: str) -> dict[str, Any]:
        return await self._get(f"/api/matches/{match_id}/replay", dict[str, Any])

    async def export(self, match_id: str) -> dict[str, Any]:
        """The audit bundle (docs/audit.md); a running match with hidden cards is ``409 match_running``."""
        return await self._get(f"/api/matches/{match_id}/export", dict[str, Any])

    # Players and quick match

    async def sign_up(self, name: str) -> str:
        """A new player: its API token (shown once), also kept as this client's credential."""
        response = await self.request("POST", "/api/accounts", json={"name": name})
        token: str = response.json()["token"]
        self.credential = token
        return token

    def _credential(self, credential: str | None) -> dict[str, str]:
        return _auth(credential or self.credential)

    async def join_queue(
        self,
        game: str,
        *,
        preset: str | None = None,
        seats: int = 2,
        ranked: bool = True,
        bots_ok: bool = False,
        invite: str = "",
        credential: str | None = None,
    ) -> dict[str, Any]:
        body = {"game": game, "preset": preset, "seats": seats, "ranked": ranked, "bots_ok": bots_ok, "invite": invite}
        response = await self.request("POST", "/api/queue", json=body, headers=self._credential(credential))
        result: dict[str, Any] = response.json()
        return result

    async def ticket(self, ticket_id: str, *, credential: str | None = None) -> dict[str, Any]:
        """``queued``, ``forming``, then ``seated`` with ``match_id``, ``seat`` and the seat ``token``."""
        return await self._get(f"/api/queue/{ticket_id}", dict[str, Any], headers=self._credential(credential))

    async def leaderboard(self, game: str, **params: Any) -> dict[str, Any]:
        return await self._get(f"/api/leaderboard/{game}", dict[str, Any], params=params or None)

    async def history(self, **params: Any) -> list[dict[str, Any]]:
        """One page of finished matches, newest first (``player``, ``game``, ``limit``, ``cursor``)."""
        return (await self.history_page(**params))[0]

    async def history_page(self, **params: Any) -> tuple[list[dict[str, Any]], str | None]:
        """One page of ``GET /api/history`` and the ``cursor`` of the next (None on the last)."""
        response = await self.request("GET", "/api/history", params=params or None)
        rows = msgspec.json.decode(response.content, type=list[dict[str, Any]])
        return rows, response.headers.get("next-cursor")

    # The match socket

    def stream(self, match_id: str, *, token: str | None = None, since: int = 0) -> MatchStream:
        """The match's WebSocket: the decisions after ``since``, then the view, then both after
        every stored decision; commands may be sent on it."""
        return MatchStream(self.base_url, match_id, token, since)


class MatchStream:
    """One match socket (``async with``): iterate it for :data:`contracts.api.ServerFrame`\\ s.
    An error frame and the close after it raise :class:`StreamClosed`; a normal end (the server
    or :meth:`close`) ends the iteration."""

    def __init__(self, base_url: str, match_id: str, token: str | None, since: int) -> None:
        ws_base = base_url.replace("http://", "ws://", 1).replace("https://", "wss://", 1)
        query = f"since={since}" + (f"&token={token}" if token else "")
        self.url = f"{ws_base}/ws/matches/{match_id}?{query}"
        self.ws: ClientConnection | None = None
        self.seq = since  # the last decision seen (reconnect with it as ``since``)

    async def __aenter__(self) -> MatchStream:
        self.ws = await ws_connect(self.url, open_timeout=10, max_size=2**24)
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()

    async def send(self, command: Any, command_id: str | None = None) -> str:
        """Send a command for this socket's seat; its ``ReplyFrame`` comes with this id."""
        assert self.ws is not None, "use the stream as 'async with'"
        command_id = command_id or uuid.uuid4().hex
        await self.ws.send(msgspec.json.encode(CommandFrame(command=as_builtins(command), command_id=command_id)).decode())
        return command_id

    async def receive(self) -> ServerFrame:
        """The next frame; :class:`StreamClosed` after an error frame or an abnormal close."""
        assert self.ws is not None, "use the stream as 'async with'"
        try:
            text = await self.ws.recv()
        except ConnectionClosed as exc:
            raise StreamClosed(exc.rcvd.code if exc.rcvd else None, None) from None
        frame = frame_decoder.decode(text)
        if isinstance(frame, ErrorFrame):
            code = None
            try:
                await self.ws.recv()
            except ConnectionClosed as exc:
                code = exc.rcvd.code if exc.rcvd else None
            raise StreamClosed(code, frame)
        if isinstance(frame, EventsFrame) and frame.events:
            self.seq = max(self.seq, frame.events[-1].seq)
        return frame

    def __aiter__(self) -> AsyncIterator[ServerFrame]:
        return self._frames()

    async def _frames(self) -> AsyncIterator[ServerFrame]:
        while True:
            try:
                yield await self.receive()
            except StreamClosed as closed:
                if closed.error is None and closed.close_code in (1000, 1001, None):
                    return
                raise


CommandReplyType = CommandReply  # the reply of a command sent on the socket (ReplyFrame.reply)
