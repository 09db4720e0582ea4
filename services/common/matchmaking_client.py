"""Request helpers for the matchmaking service (used by the gateway, the demo and tests)."""

from __future__ import annotations

from nats.aio.client import Client

from contracts import subjects
from contracts.codecs import encode
from contracts.matchmaking import (
    JoinQueue,
    LeaveQueue,
    ListSeeks,
    ListTables,
    MatchmakingReply,
    QueueStatus,
    reply_decoder,
)


async def _request(nc: Client, subject: str, body: object, timeout: float) -> MatchmakingReply:
    msg = await nc.request(subject, encode(body), timeout=timeout)
    return reply_decoder.decode(msg.data)


async def join(nc: Client, request: JoinQueue, timeout: float = 5.0) -> MatchmakingReply:
    return await _request(nc, subjects.MATCHMAKING_JOIN, request, timeout)


async def leave(nc: Client, player: str, timeout: float = 5.0) -> MatchmakingReply:
    return await _request(nc, subjects.MATCHMAKING_LEAVE, LeaveQueue(player=player), timeout)


async def status(nc: Client, player: str, timeout: float = 5.0) -> MatchmakingReply:
    return await _request(nc, subjects.MATCHMAKING_STATUS, QueueStatus(player=player), timeout)


async def seeks(nc: Client, game: str = "", timeout: float = 5.0) -> MatchmakingReply:
    return await _request(nc, subjects.MATCHMAKING_SEEKS, ListSeeks(game=game), timeout)


async def tables(nc: Client, game: str = "", timeout: float = 5.0) -> MatchmakingReply:
    return await _request(nc, subjects.MATCHMAKING_TABLES, ListTables(game=game), timeout)
