"""Gateway routes of the lobby: quick match through matchmaking, leaderboards and player pages.

Quick match: ``POST /api/queue`` joins a matchmaking queue (``contracts.matchmaking.JoinQueue``).
Matchmaking announces a full table as ``TableFormed``; one of the gateways (a shared durable
consumer, so a table announced while every gateway is down is created when one comes back)
creates the match (its id derived from the table id, so a second attempt gets ``match_exists``)
and hands the computer seats to the bots service.  The seat tokens of a table are derived from
the gateways' shared secret and the table id, so they are stored nowhere: any gateway answers
``GET /api/queue/{ticket_id}`` from the player's entry in the queue bucket
(``services.common.tickets``), and a restarted gateway loses nothing.

Leaderboards and player pages read the SQL read models through ``services.common.queries``.

Player identity (issue 9): ``POST /api/accounts`` signs a player up (an API token, shown once)
and every queue route acts only for the player its ``Authorization: Bearer`` credential (API
token or an app's JWT, ``services.common.accounts``) names; a ticket and its seat token are
answered only to that player, and no error names another player's ticket.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from fastapi import APIRouter, Depends, Query
from nats.js.api import ConsumerConfig, DeliverPolicy
from pydantic import BaseModel, Field
from sqlalchemy import Engine
from sqlalchemy.exc import SQLAlchemyError

from contracts import subjects
from contracts.codecs import integration_decoder
from contracts.envelope import Rejected
from contracts.integration import TableFormed
from contracts.matchmaking import Forming, JoinQueue, OpenTables, Playing, Queued, Seated, Seeks, Waiting
from domain.core.words import Lang
from domain.disputes import Actor, DisputeState
from domain.games import registry
from domain.games.catalogue import game_title, preset_family
from domain.matchmaking.clocks import ranked_time_control
from domain.matchmaking.provenance import signed_table
from services.common import accounts, commands, db, logs, natsio, queries, serverkey
from services.common import disputes as disputes_io
from services.common import matchmaking_client as mm_client
from services.common.serverkey import ServerKey
from services.common.tickets import TABLE_TOO_OLD_MS, QueueStore, table_match_id
from services.gateway.bots import assign_bot
from services.gateway.core import Gateway, asked_language
from services.gateway.credentials import request_credential
from services.gateway.edge import ApiError, gateway_secret
from services.gateway.errors import errors

log = logs.get("gateway")
T = TypeVar("T")

QUEUE_STATUS = {"already_queued": 409, "in_match": 409, "not_queued": 404, "unknown_game": 404}
AUTH_STATUS = {"bad_credentials": 401, "invalid_name": 400, "name_taken": 409}


class SignUpBody(BaseModel):
    name: str = Field(min_length=1, max_length=64, description="Your player name (unique).")


class JoinBody(BaseModel):
    player: str | None = Field(
        default=None,
        max_length=64,
        description="Optional: your player name; it must be the one your credential names.",
    )
    game: str
    preset: str | None = None
    seats: int = 2
    ranked: bool = True
    bots_ok: bool = Field(default=False, description="Fill the table with computer players after a wait.")
    invite: str = Field(
        default="", max_length=64, description="Private table code: everyone with it sits together."
    )
    public: bool = Field(
        default=False,
        description="With invite, when you open the table (the first to join with the code): list it in "
        "GET /api/tables so anyone may join it. Without invite: 400 public_needs_invite.",
    )


class DisputeBody(BaseModel):
    reason: str = Field(min_length=1, max_length=2000, description="What is wrong with the result, for the operator.")


class NoteBody(BaseModel):
    text: str = Field(min_length=1, max_length=4000, description="An operator's note on the dispute.")


class RulingBody(BaseModel):
    ruling: str = Field(
        description="'upheld' (the result stands), 'amended' (new ranks, and scores, per seat) or "
        "'void' (the match does not count)."
    )
    ranks: list[int] = Field(
        default_factory=list, max_length=16, description="Amended only: one rank per seat in seat order, 1 best."
    )
    scores: list[float] = Field(
        default_factory=list, max_length=16, description="Amended only, optional: one score per seat."
    )
    reason: str = Field(min_length=1, max_length=2000, description="Why, for the players and the record.")


class SeekOut(BaseModel):
    game: str
    game_title: str = Field(default="", description="The game's title (GET /api/games), in lang.")
    preset: str
    title: str = Field(default="", description="The preset's title (GET /api/games), in lang.")
    seats: int = Field(description="Seats at the table the seek forms.")
    ranked: bool
    players: list[str] = Field(description="The players waiting, oldest first.")
    waiting: int
    since: int = Field(description="Unix ms: when the oldest of them joined.")
    bots_ok: bool = Field(description="Someone waiting accepts computer players after the wait.")


class SeeksOut(BaseModel):
    seeks: list[SeekOut]


class TableOut(BaseModel):
    game: str
    game_title: str = Field(default="", description="The game's title (GET /api/games), in lang.")
    preset: str
    title: str = Field(description="The preset's title (GET /api/games), in lang.")
    seats: int = Field(description="Seats at the table.")
    taken: int = Field(description="Seats taken: the players waiting at it.")
    host: str = Field(description="The player who opened it.")
    players: list[str] = Field(description="The players waiting, oldest (the host) first.")
    ranked: bool
    invite: str = Field(description="The table's code: join with POST /api/queue and this invite.")
    since: int = Field(description="Unix ms: when the host opened it.")
    age_s: int = Field(description="Seconds since the host opened it.")


class TablesOut(BaseModel):
    tables: list[TableOut]


class LeaveBody(BaseModel):
    player: str | None = Field(default=None, description="Optional: your player name.")


def table_token_key(secret: bytes, table_id: str) -> bytes:
    """The key the seat tokens of a table's match are derived from (any gateway with the
    shared secret derives the same tokens; none is stored)."""
    return hmac.new(secret, b"table\n" + table_id.encode(), hashlib.sha256).digest()


class Lobby:
    def __init__(self, gw: Gateway) -> None:
        self.gw = gw
        self.secret = gateway_secret(gw.settings.data_dir)
        self.queue: QueueStore | None = None  # the matchmaking queue (read only)
        self._sub: Any = None
        self._engine: Engine | None = None
        self._migrated = False
        self._server_key: ServerKey | None = None

    async def start(self) -> None:
        assert self.gw.nc is not None
        js = self.gw.nc.jetstream()
        buckets = await natsio.ensure_buckets(js, replicas=self.gw.settings.stream_replicas)
        self.queue = QueueStore(buckets[subjects.TICKETS_BUCKET])
        self._sub = await js.subscribe(
            subjects.TABLE_FORMED,
            queue=subjects.TABLES_CONSUMER,
            durable=subjects.TABLES_CONSUMER,
            stream=subjects.INTEGRATION_STREAM,
            cb=self.on_table,
            manual_ack=True,
            config=ConsumerConfig(deliver_policy=DeliverPolicy.NEW, ack_wait=30, max_ack_pending=64),
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
            await msg.ack()
            return
        if isinstance(event, TableFormed):
            age = time.time_ns() // 1_000_000 - event.formed_at
            if age > TABLE_TOO_OLD_MS:
                # Matchmaking frees the players of a table left this long: never seat them twice.
                log.warning("table_too_old", table_id=event.table_id, age_ms=age)
            else:
                try:
                    await self.create_table(event)
                except Exception:
                    # Not acknowledged: the table comes back soon (to this or another gateway).
                    log.exception("table_match_failed", table_id=event.table_id)
                    with contextlib.suppress(Exception):
                        await msg.nak(delay=1.0)
                    return
        await msg.ack()

    async def create_table(self, table: TableFormed) -> None:
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
            guests=(),  # every person at a table joined the queue with a credential
            # A ranked queue's preset carries its clock (docs/ranked.md "Time controls").
            time_control=ranked_time_control(table.game, table.preset) if table.ranked else None,
            token_key=table_token_key(self.secret, table.table_id),
            # Matchmaking's signature: only a table it signed becomes a ranked match.
            table=signed_table(table) if table.signature else None,
        )
        if isinstance(created, Rejected):
            log.warning(
                "table_match_refused", table_id=table.table_id, code=created.code, detail=created.detail
            )
            return
        gw.remember(created.match_id, created.game)
        strength = registry.get(table.game).default_bot
        for i in table.bots:
            await assign_bot(gw, created, created.seats[i], strength, None, gw.internal_url)
        log.info("table_match_created", table_id=table.table_id, match_id=created.match_id)

    def engine(self) -> Engine:
        if self._engine is None:
            self._engine = db.make_engine(self.gw.settings.database_url)
        return self._engine

    async def accounts_engine(self) -> Engine:
        """The database with the accounts tables (migrated on first use; app secrets an older
        version stored in clear are sealed with the server key then)."""
        if not self._migrated:
            await asyncio.to_thread(db.upgrade, self.engine())
            self._server_key = await asyncio.to_thread(serverkey.load, self.gw.settings.server_key_file)
            await asyncio.to_thread(accounts.seal_stored_secrets, self.engine(), self._server_key)
            self._migrated = True
        return self.engine()

    @property
    def server_key(self) -> ServerKey:
        """The server key (loaded by :meth:`accounts_engine`)."""
        assert self._server_key is not None
        return self._server_key

    async def player(self, credential: str | None) -> accounts.Player:
        """The player the request's credential (``credentials.request_credential``) names; 401
        without one or with a bad one."""
        if not credential:
            raise ApiError(
                401,
                "unauthenticated",
                "send 'Authorization: Bearer <API token or app JWT>' (sign up with POST /api/accounts)",
            )
        engine = await self.accounts_engine()
        found = await asyncio.to_thread(accounts.authenticate, engine, credential, self.server_key)
        if isinstance(found, Rejected):
            raise ApiError(401, found.code, found.detail)
        return found


def router(lobby: Lobby) -> APIRouter:
    api = APIRouter()

    @api.post("/api/accounts", status_code=201, tags=["players"], summary="Sign up: a player name and its API token")
    async def sign_up(body: SignUpBody) -> dict[str, Any]:
        engine = await lobby.accounts_engine()
        made = await asyncio.to_thread(accounts.sign_up, engine, body.name, lobby.server_key)
        if isinstance(made, Rejected):
            raise ApiError(AUTH_STATUS.get(made.code, 400), made.code, made.detail)
        player, token = made
        # The token is shown this once; only its sha256 is stored.
        return {"player": player.name, "token": token, "authorization": "Bearer <token>"}

    @api.get("/api/accounts/me", tags=["players"], summary="The player your credential names")
    async def me(credential: str | None = Depends(request_credential)) -> dict[str, Any]:
        player = await lobby.player(credential)
        return {"player": player.name, "app_id": player.app_id}

    @api.post("/api/queue", tags=["lobby"], summary="Quick match: join a matchmaking queue (your credential)")
    async def join(body: JoinBody, credential: str | None = Depends(request_credential)) -> dict[str, Any]:
        gw = lobby.gw
        assert gw.nc is not None
        me = await lobby.player(credential)
        if body.player is not None and body.player != me.name:
            raise ApiError(403, "not_your_player", "you may join the queue only as the player your credential names")
        game = registry.GAMES.get(body.game)
        if game is None:
            raise ApiError(404, "unknown_game", f"unknown game {body.game!r}")
        if game.helper:
            raise ApiError(
                400, "not_offered", f"{game.title} is a table helper: open a table with POST /api/matches"
            )
        if body.public and not body.invite:
            raise ApiError(400, "public_needs_invite", "a public table needs its code: send invite with public")
        request = JoinQueue(
            player=me.name,
            game=body.game,
            preset=body.preset or game.default_preset,
            seats=body.seats,
            ranked=body.ranked,
            bots_ok=body.bots_ok,
            invite=body.invite,
            public=body.public,
        )
        try:
            reply = await mm_client.join(gw.nc, request)
        except Exception as exc:  # no matchmaking service answers
            raise ApiError(503, "unavailable", f"matchmaking does not answer: {exc!r}") from exc
        if isinstance(reply, Rejected):
            raise ApiError(QUEUE_STATUS.get(reply.code, 400), reply.code, queue_detail(reply))
        if isinstance(reply, Queued):
            return {"state": "queued", **_plain(reply)}
        return {"state": type(reply).__name__.lower(), **_plain(reply)}

    @api.get("/api/queue", tags=["lobby"], summary="Quick match: where you are (your own ticket when queued)")
    async def my_queue(credential: str | None = Depends(request_credential)) -> dict[str, Any]:
        me = await lobby.player(credential)
        assert lobby.gw.nc is not None
        try:
            reply = await mm_client.status(lobby.gw.nc, me.name)
        except Exception as exc:
            raise ApiError(503, "unavailable", f"matchmaking does not answer: {exc!r}") from exc
        if isinstance(reply, Rejected):
            raise ApiError(QUEUE_STATUS.get(reply.code, 400), reply.code, queue_detail(reply))
        state = {Queued: "queued", Seated: "forming"}.get(type(reply), "idle")
        return {"state": state, **_plain(reply)}

    @api.get("/api/queue/{ticket_id}", tags=["lobby"], summary="Quick match: your seat once the table formed")
    async def ticket(ticket_id: str, credential: str | None = Depends(request_credential)) -> dict[str, Any]:
        me = await lobby.player(credential)
        gw = lobby.gw
        gw.check_bus()
        assert gw.nc is not None and lobby.queue is not None
        try:
            entry, _ = await lobby.queue.get(me.name)
        except Exception as exc:
            raise ApiError(503, "unavailable", f"the queue does not answer: {exc!r}") from exc
        # Another player's ticket is answered as no ticket at all: its seat token is theirs.
        if not isinstance(entry, Waiting | Forming | Playing) or entry.ticket.ticket_id != ticket_id:
            raise ApiError(404, "not_queued", "you hold no such ticket")
        if isinstance(entry, Playing):
            token = commands.derived_token(table_token_key(lobby.secret, entry.table.table_id), entry.seat)
            return {"state": "seated", "match_id": entry.match_id, "seat": entry.seat, "token": token}
        try:
            reply = await mm_client.status(gw.nc, me.name)
        except Exception as exc:
            raise ApiError(503, "unavailable", f"matchmaking does not answer: {exc!r}") from exc
        if isinstance(reply, Seated):
            return {"state": "forming", **_plain(reply)}
        if isinstance(reply, Rejected):
            return {"state": "unknown", "code": reply.code, "detail": reply.detail}
        return {"state": "queued" if isinstance(reply, Queued) else "idle", **_plain(reply)}

    async def matchmaking_listing(ask: Callable[[Any, str], Awaitable[Any]], shape: type[T], game: str | None) -> T:
        """A listing the matchmaking service answers (seeks, open tables) for ``game`` or all."""
        if game is not None and game not in registry.GAMES:
            raise ApiError(404, "unknown_game", f"unknown game {game!r}")
        lobby.gw.check_bus()
        assert lobby.gw.nc is not None
        try:
            reply = await ask(lobby.gw.nc, game or "")
        except Exception as exc:  # no matchmaking service answers
            raise ApiError(503, "unavailable", f"matchmaking does not answer: {exc!r}") from exc
        if not isinstance(reply, shape):
            raise ApiError(503, "unavailable", f"matchmaking answered {type(reply).__name__}")
        return reply

    @api.get(
        "/api/seeks",
        tags=["lobby"],
        summary="Open seeks: public quick-match queues with players waiting, oldest first",
        response_model=SeeksOut,
        responses=errors(404, 422, 503),
    )
    async def open_seeks(
        game: str | None = Query(None, max_length=64), words: Lang = Depends(asked_language)
    ) -> dict[str, Any]:
        # Join one with POST /api/queue and the same game, preset, seats and ranked.  Private
        # (invite) queues and computer tables are never listed, nor any ticket id.
        reply = await matchmaking_listing(mm_client.seeks, Seeks, game)
        return {"seeks": [{**_plain(s), **titles(s.game, s.preset, words)} for s in reply.seeks]}

    @api.get(
        "/api/tables",
        tags=["lobby"],
        summary="Open tables: private tables their host opened to anyone, oldest first",
        response_model=TablesOut,
        responses=errors(404, 422, 503),
    )
    async def open_tables(
        game: str | None = Query(None, max_length=64), words: Lang = Depends(asked_language)
    ) -> dict[str, Any]:
        # Join one with POST /api/queue and its game, preset, seats, ranked and invite.  Only
        # tables whose host asked for it (public) are listed; never a ticket id or seat token.
        reply = await matchmaking_listing(mm_client.tables, OpenTables, game)
        now = int(time.time() * 1000)
        return {
            "tables": [
                {
                    **_plain(t),
                    **titles(t.game, t.preset, words),
                    "age_s": max(0, (now - t.since) // 1000),
                }
                for t in reply.tables
            ]
        }

    @api.post("/api/queue/leave", tags=["lobby"], summary="Quick match: leave the queue (your credential)")
    async def leave(body: LeaveBody | None = None, credential: str | None = Depends(request_credential)) -> dict[str, Any]:
        me = await lobby.player(credential)
        if body is not None and body.player is not None and body.player != me.name:
            raise ApiError(403, "not_your_player", "you may take only yourself out of the queue")
        assert lobby.gw.nc is not None
        try:
            reply = await mm_client.leave(lobby.gw.nc, me.name)
        except Exception as exc:
            raise ApiError(503, "unavailable", f"matchmaking does not answer: {exc!r}") from exc
        if isinstance(reply, Rejected):
            raise ApiError(QUEUE_STATUS.get(reply.code, 400), reply.code, queue_detail(reply))
        return _plain(reply)

    @api.get(
        "/api/leaderboard/{game}",
        tags=["ranked"],
        summary="Standings of a game (latest season by default)",
        responses=errors(422),
    )
    async def leaderboard(
        game: str,
        season: str | None = None,
        family: str | None = None,
        limit: int = Query(100, ge=1, le=1000),
        words: Lang = Depends(asked_language),
    ) -> dict[str, Any]:
        # Each entry's family is a preset name (domain/rating/seasons.preset_family); its title and
        # the game's are the catalogue's, in ``words``.
        try:
            board = await asyncio.to_thread(queries.leaderboard, lobby.engine(), game, season, family, limit)
        except SQLAlchemyError:  # no read model yet (scoring has not run here)
            board = {"game": game, "season": season or "", "preset_family": family, "entries": []}
        board["game_title"] = titles(game, "", words)["game_title"]
        for entry in board["entries"]:
            entry["title"] = titles(game, entry["family"], words)["title"]
        return board

    @api.get("/api/players/{player}", tags=["ranked"], summary="A player's ratings, standings and matches")
    async def player(player: str) -> dict[str, Any]:
        try:
            profile = await asyncio.to_thread(queries.player_profile, lobby.engine(), player)
        except SQLAlchemyError:
            profile = None
        if profile is None:
            raise ApiError(404, "unknown_player", f"no player {player!r}")
        return profile

    # ------------------------------------------------------------------ disputes
    async def actor(credential: str | None) -> Actor:
        player = await lobby.player(credential)
        return Actor(name=player.name, operator=player.operator)

    def refused(rej: Rejected) -> ApiError:
        return ApiError(disputes_io.STATUS.get(rej.code, 409), rej.code, rej.detail)

    def js() -> Any:
        lobby.gw.check_bus()
        assert lobby.gw.nc is not None
        return lobby.gw.nc.jetstream()

    def checked_match(match_id: str) -> str:
        if not disputes_io.valid_match_id(match_id):
            raise ApiError(400, "malformed", "a match id is 1-64 letters, digits, '-' and '_'")
        return match_id

    def checked_dispute(dispute_id: str) -> str:
        if not disputes_io.match_of(dispute_id):
            raise ApiError(400, "malformed", "a dispute id is <match id>-<n>")
        return dispute_id

    async def decided(
        credential: str | None, act: Callable[[Actor], Awaitable[DisputeState | Rejected]]
    ) -> tuple[Actor, DisputeState]:
        """Who acts (from the credential), what their ``act`` on the disputes stream made of the
        dispute; a refusal is raised with its status and code."""
        who = await actor(credential)
        made = await act(who)
        if isinstance(made, Rejected):
            raise refused(made)
        return who, made

    @api.post(
        "/api/matches/{match_id}/disputes",
        status_code=201,
        tags=["disputes"],
        summary="Dispute a finished match (a player of the match or an operator)",
    )
    async def open_dispute(
        match_id: str, body: DisputeBody, credential: str | None = Depends(request_credential)
    ) -> dict[str, Any]:
        who, made = await decided(
            credential, lambda by: disputes_io.open_dispute(js(), checked_match(match_id), by, body.reason)
        )
        log.info("dispute_opened", dispute_id=made.dispute_id, by=who.name)
        return disputes_io.as_dict(made)

    @api.get("/api/disputes", tags=["disputes"], summary="Every dispute, newest first (operators)")
    async def list_disputes(
        status: str | None = Query(None, pattern="^(open|ruled)$", description="Only 'open' or 'ruled' ones."),
        credential: str | None = Depends(request_credential),
    ) -> list[dict[str, Any]]:
        who = await actor(credential)
        if not who.operator:
            raise ApiError(403, "not_an_operator", "only an operator lists every dispute")
        return [disputes_io.as_dict(s) for s in await disputes_io.list_all(js(), status)]

    @api.get(
        "/api/disputes/{dispute_id}",
        tags=["disputes"],
        summary="A dispute with its notes and ruling (operators, and the match's players)",
    )
    async def show_dispute(dispute_id: str, credential: str | None = Depends(request_credential)) -> dict[str, Any]:
        who = await actor(credential)
        state = await disputes_io.get(js(), checked_dispute(dispute_id))
        if state is None and who.operator:
            raise ApiError(404, "dispute_not_found", "no such dispute")
        # Whether a dispute exists is for its readers only.
        if state is None or not await disputes_io.may_read(js(), state, who):
            raise ApiError(403, "not_allowed", "only an operator or a player of the match reads a dispute")
        return disputes_io.as_dict(state)

    @api.post("/api/disputes/{dispute_id}/notes", tags=["disputes"], summary="Add an operator's note")
    async def add_note(
        dispute_id: str, body: NoteBody, credential: str | None = Depends(request_credential)
    ) -> dict[str, Any]:
        _, made = await decided(
            credential, lambda by: disputes_io.add_note(js(), checked_dispute(dispute_id), by, body.text)
        )
        return disputes_io.as_dict(made)

    @api.post(
        "/api/disputes/{dispute_id}/ruling",
        tags=["disputes"],
        summary="Rule on a dispute: upheld, amended or void (operators); closes it",
    )
    async def rule(dispute_id: str, body: RulingBody, credential: str | None = Depends(request_credential)) -> dict[str, Any]:
        who, made = await decided(
            credential,
            lambda by: disputes_io.rule(
                js(), checked_dispute(dispute_id), by, body.ruling, body.ranks, body.scores, body.reason
            ),
        )
        log.info("dispute_ruled", dispute_id=dispute_id, ruling=body.ruling, by=who.name)
        return disputes_io.as_dict(made)

    return api


QUEUE_DETAILS = {
    "already_queued": "you are already in a queue (GET /api/queue shows your ticket)",
    "in_match": "you are at a table or in a match that has not finished",
    "not_queued": "you are in no queue",
}


def titles(game: str, preset: str, lang: Lang) -> dict[str, str]:
    """A listed game's and preset's titles in ``lang`` (the catalogue's, GET /api/games)."""
    known = registry.GAMES.get(game)
    return {
        "game_title": game_title(game, known.title if known else game, lang),
        "title": preset_family(game, preset, lang)[1],
    }


def queue_detail(reply: Rejected) -> str:
    """The detail of a matchmaking refusal as the gateway answers it: never a ticket id."""
    return QUEUE_DETAILS.get(reply.code, reply.detail)


def _plain(reply: Any) -> dict[str, Any]:
    import msgspec

    out: dict[str, Any] = msgspec.to_builtins(reply)
    out.pop("type", None)
    return out
