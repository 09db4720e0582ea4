"""Gateway routes of the lobby: quick match through matchmaking, leaderboards and player pages.

Quick match: ``POST /api/queue`` joins a matchmaking queue (``contracts.matchmaking.JoinQueue``).
Matchmaking announces a full table as ``TableFormed``; the gateway that follows it creates the
match (its id derived from the table id, so a second gateway gets ``match_exists``), hands the
computer seats to the bots service and keeps each person's seat token under their queue ticket
until ``GET /api/queue/{ticket_id}`` collects it.

Leaderboards and player pages read the SQL read models through ``services.common.queries``.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Query
from nats.js.api import DeliverPolicy
from pydantic import BaseModel, Field
from sqlalchemy import Engine
from sqlalchemy.exc import SQLAlchemyError

from contracts import subjects
from contracts.codecs import integration_decoder
from contracts.envelope import Rejected
from contracts.integration import TableFormed
from contracts.matchmaking import JoinQueue, Queued, Seated
from domain.games import registry
from services.common import commands, db, logs, queries
from services.common import matchmaking_client as mm_client

if TYPE_CHECKING:
    from services.gateway.app import Gateway

log = logs.get("gateway")

QUEUE_STATUS = {"already_queued": 409, "in_match": 409, "not_queued": 404, "unknown_game": 404}


class JoinBody(BaseModel):
    player: str = Field(min_length=1, max_length=64, description="Your player name.")
    game: str
    preset: str | None = None
    seats: int = 2
    ranked: bool = True
    bots_ok: bool = Field(default=False, description="Fill the table with computer players after a wait.")
    invite: str = Field(default="", description="Private table code: everyone with it sits together.")


class LeaveBody(BaseModel):
    player: str


def table_match_id(table_id: str) -> str:
    return hashlib.sha256(f"table:{table_id}".encode()).hexdigest()[:16]


class Lobby:
    def __init__(self, gw: Gateway) -> None:
        self.gw = gw
        self.tickets: dict[str, dict[str, Any]] = {}  # ticket id -> player, then match id, seat, token
        self._sub: Any = None
        self._engine: Engine | None = None

    async def start(self) -> None:
        assert self.gw.nc is not None
        js = self.gw.nc.jetstream()
        self._sub = await js.subscribe(
            subjects.TABLE_FORMED,
            stream=subjects.INTEGRATION_STREAM,
            ordered_consumer=True,
            deliver_policy=DeliverPolicy.NEW,
            cb=self.on_table,
        )

    async def stop(self) -> None:
        if self._sub is not None:
            with contextlib.suppress(Exception):
                await self._sub.unsubscribe()
        if self._engine is not None:
            self._engine.dispose()

    async def on_table(self, msg: Any) -> None:
        try:
            event = integration_decoder.decode(msg.data)
        except Exception:  # a version this build does not know
            return
        if isinstance(event, TableFormed):
            try:
                await self.create_table(event)
            except Exception:
                log.exception("table_match_failed", table_id=event.table_id)

    async def create_table(self, table: TableFormed) -> None:
        from services.gateway.app import assign_bot

        gw = self.gw
        assert gw.nc is not None
        created = await commands.create_match(
            gw.nc,
            table.game,
            table.preset,
            {},
            tuple(table.players),
            seats=len(table.players),
            ranked=table.ranked,
            match_id=table_match_id(table.table_id),
            partitions=gw.settings.partitions,
        )
        if isinstance(created, Rejected):
            log.warning(
                "table_match_refused", table_id=table.table_id, code=created.code, detail=created.detail
            )
            return
        gw._games[created.match_id] = created.game
        strength = registry.get(table.game).default_bot
        humans = [s for i, s in enumerate(created.seats) if i not in table.bots]
        for i in table.bots:
            await assign_bot(gw, created, created.seats[i], strength, None, gw.internal_url)
        for ticket, seat in zip(table.tickets, humans, strict=False):
            entry = self.tickets.setdefault(ticket, {})
            entry.update(match_id=created.match_id, seat=seat, token=created.tokens[seat])
        log.info("table_match_created", table_id=table.table_id, match_id=created.match_id)

    def engine(self) -> Engine:
        if self._engine is None:
            self._engine = db.make_engine(self.gw.settings.database_url)
        return self._engine


def router(lobby: Lobby) -> APIRouter:
    api = APIRouter()

    @api.post("/api/queue", tags=["lobby"], summary="Quick match: join a matchmaking queue")
    async def join(body: JoinBody) -> dict[str, Any]:
        from services.gateway.app import ApiError

        gw = lobby.gw
        assert gw.nc is not None
        game = registry.GAMES.get(body.game)
        if game is None:
            raise ApiError(404, "unknown_game", f"unknown game {body.game!r}")
        if game.helper:
            raise ApiError(
                400, "not_offered", f"{game.title} is a table helper: open a table with POST /api/matches"
            )
        request = JoinQueue(
            player=body.player,
            game=body.game,
            preset=body.preset or game.default_preset,
            seats=body.seats,
            ranked=body.ranked,
            bots_ok=body.bots_ok,
            invite=body.invite,
        )
        try:
            reply = await mm_client.join(gw.nc, request)
        except Exception as exc:  # no matchmaking service answers
            raise ApiError(503, "unavailable", f"matchmaking does not answer: {exc!r}") from exc
        if isinstance(reply, Rejected):
            raise ApiError(QUEUE_STATUS.get(reply.code, 400), reply.code, reply.detail)
        if isinstance(reply, Queued):
            lobby.tickets.setdefault(reply.ticket_id, {})["player"] = body.player
            return {"state": "queued", **_plain(reply)}
        return {"state": type(reply).__name__.lower(), **_plain(reply)}

    @api.get("/api/queue/{ticket_id}", tags=["lobby"], summary="Quick match: your seat once the table formed")
    async def ticket(ticket_id: str) -> dict[str, Any]:
        from services.gateway.app import ApiError

        entry = lobby.tickets.get(ticket_id)
        if entry is None:
            raise ApiError(404, "not_queued", "no such ticket at this gateway")
        if "token" in entry:
            return {
                "state": "seated",
                "match_id": entry["match_id"],
                "seat": entry["seat"],
                "token": entry["token"],
            }
        gw = lobby.gw
        assert gw.nc is not None
        try:
            reply = await mm_client.status(gw.nc, entry["player"])
        except Exception as exc:
            raise ApiError(503, "unavailable", f"matchmaking does not answer: {exc!r}") from exc
        if isinstance(reply, Seated):
            return {"state": "forming", **_plain(reply)}
        if isinstance(reply, Rejected):
            return {"state": "unknown", "code": reply.code, "detail": reply.detail}
        return {"state": "queued" if isinstance(reply, Queued) else "idle", **_plain(reply)}

    @api.post("/api/queue/leave", tags=["lobby"], summary="Quick match: leave the queue")
    async def leave(body: LeaveBody) -> dict[str, Any]:
        from services.gateway.app import ApiError

        assert lobby.gw.nc is not None
        try:
            reply = await mm_client.leave(lobby.gw.nc, body.player)
        except Exception as exc:
            raise ApiError(503, "unavailable", f"matchmaking does not answer: {exc!r}") from exc
        if isinstance(reply, Rejected):
            raise ApiError(QUEUE_STATUS.get(reply.code, 400), reply.code, reply.detail)
        return _plain(reply)

    @api.get(
        "/api/leaderboard/{game}", tags=["ranked"], summary="Standings of a game (latest season by default)"
    )
    async def leaderboard(
        game: str,
        season: str | None = None,
        family: str | None = None,
        limit: int = Query(100, ge=1, le=1000),
    ) -> dict[str, Any]:
        try:
            return await asyncio.to_thread(queries.leaderboard, lobby.engine(), game, season, family, limit)
        except SQLAlchemyError:  # no read model yet (scoring has not run here)
            return {"game": game, "season": season or "", "preset_family": family, "entries": []}

    @api.get("/api/players/{player}", tags=["ranked"], summary="A player's ratings, standings and matches")
    async def player(player: str) -> dict[str, Any]:
        from services.gateway.app import ApiError

        try:
            profile = await asyncio.to_thread(queries.player_profile, lobby.engine(), player)
        except SQLAlchemyError:
            profile = None
        if profile is None:
            raise ApiError(404, "unknown_player", f"no player {player!r}")
        return profile

    @api.get("/api/history", tags=["ranked"], summary="Finished matches, newest first")
    async def history(
        player: str | None = None, game: str | None = None, limit: int = Query(50, ge=1, le=500)
    ) -> list[dict[str, Any]]:
        try:
            return await asyncio.to_thread(queries.match_history, lobby.engine(), player, limit, game)
        except SQLAlchemyError:
            return []

    return api


def _plain(reply: Any) -> dict[str, Any]:
    import msgspec

    out: dict[str, Any] = msgspec.to_builtins(reply)
    out.pop("type", None)
    return out
