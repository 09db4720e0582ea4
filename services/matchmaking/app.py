"""Matchmaking service: queues by (game, preset, seats, ranked, invite), pure pairing on a tick,
``TableFormed`` on the integration stream for the gateway to turn into a match.

One instance holds the queues in memory (the source of truth for running matches is the
integration stream, which it follows).  Requests: ``contracts.matchmaking`` on
``contracts.subjects.MATCHMAKING_*``.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from faststream.nats import NatsBroker
from faststream.security import SASLPlaintext
from nats.aio.client import Client
from nats.aio.msg import Msg
from nats.js.api import DeliverPolicy
from prometheus_client import Counter, Gauge, Histogram
from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from contracts import subjects
from contracts.codecs import encode, integration_decoder
from contracts.envelope import Rejected
from contracts.integration import MatchFinished, MatchStarted, TableFormed
from contracts.matchmaking import (
    Idle,
    JoinQueue,
    LeaveQueue,
    Left,
    MatchmakingReply,
    Queued,
    QueueStatus,
    Seated,
    request_decoder,
)
from domain.games import registry
from domain.matchmaking.pairing import Policy, Table, Ticket, allowed_gap, form_tables, queue_key
from domain.rating.ranked import GLICKO2, model_for
from domain.rating.seasons import preset_family
from services.common import db, logs
from services.common.natsauth import Credential
from services.common.settings import Settings
from services.common.shell import service_shell

SERVICE = "matchmaking"
QUEUE_TICKETS = Gauge("gamehall_matchmaking_queue_tickets", "Tickets waiting in matchmaking queues", ["game"])
TABLES_FORMED = Counter("gamehall_matchmaking_tables_total", "Tables formed by matchmaking", ["game", "kind"])
QUEUE_WAIT = Histogram(
    "gamehall_matchmaking_wait_seconds",
    "Time from joining a queue to being seated",
    ["game"],
    buckets=(0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 20, 30, 60, 120),
)
REQUESTS = Counter("gamehall_matchmaking_requests_total", "Matchmaking requests", ["kind", "result"])

DEFAULT_RATING = 1500.0
OPENSKILL_TO_GLICKO = 40.0  # one OpenSkill mu point ~ 40 Glicko points, so one gap policy fits both


def now_ms() -> int:
    return time.time_ns() // 1_000_000


@dataclass
class Pending:
    table: Table
    formed_at: float  # monotonic


@dataclass
class Matchmaker:
    """The in-memory state; every method is synchronous and called from the event loop."""

    policy: Policy = field(default_factory=Policy)
    pending_timeout_s: float = 60.0
    tickets: dict[str, Ticket] = field(default_factory=dict)  # by player
    pending: dict[str, Pending] = field(default_factory=dict)  # by player: table formed, no match yet
    running: dict[str, MatchStarted] = field(default_factory=dict)  # by player

    def join(self, request: JoinQueue, rating: float, at: int) -> MatchmakingReply:
        if request.player in self.tickets:
            # Never the ticket id: it is a secret of its owner (issue 9, finding 1).
            return Rejected(code="already_queued", detail="this player is already in a queue")
        if request.player in self.pending or request.player in self.running:
            return Rejected(code="in_match")
        game = registry.GAMES.get(request.game)
        if game is not None and game.helper:
            return Rejected(code="not_offered", detail=f"{game.title} is a table helper, not in quick match")
        if not 1 <= request.seats <= 8 or (request.vs_computer and request.seats < 2):
            return Rejected(code="invalid_seats", detail=str(request.seats))
        ticket = Ticket(
            ticket_id=uuid.uuid4().hex,
            player=request.player,
            game=request.game,
            preset=request.preset,
            seats=request.seats,
            rating=rating,
            joined_at=at,
            ranked=request.ranked and not request.vs_computer,
            bots_ok=request.bots_ok or request.vs_computer,
            invite=request.invite,
            vs_computer=request.vs_computer,
        )
        self.tickets[request.player] = ticket
        return self.queued(ticket, at)

    def queued(self, ticket: Ticket, at: int) -> Queued:
        same = sorted(
            (t for t in self.tickets.values() if queue_key(t) == queue_key(ticket)),
            key=lambda t: (t.joined_at, t.ticket_id),
        )
        position = next(i for i, t in enumerate(same, 1) if t.ticket_id == ticket.ticket_id)
        return Queued(
            ticket_id=ticket.ticket_id,
            player=ticket.player,
            game=ticket.game,
            preset=ticket.preset,
            rating=ticket.rating,
            joined_at=ticket.joined_at,
            position=position,
            waiting=len(same),
            gap=min(allowed_gap(self.policy, at - ticket.joined_at), 1e12),
            waited_ms=max(0, at - ticket.joined_at),
        )

    def leave(self, player: str) -> MatchmakingReply:
        ticket = self.tickets.pop(player, None)
        if ticket is None:
            return Rejected(code="not_queued")
        return Left(player=player, ticket_id=ticket.ticket_id)

    def status(self, player: str, at: int) -> MatchmakingReply:
        if player in self.tickets:
            return self.queued(self.tickets[player], at)
        if player in self.pending:
            t = self.pending[player].table
            return Seated(
                player=player,
                table_id=t.table_id,
                game=t.game,
                preset=t.preset,
                players=t.players,
                bots=t.bots,
            )
        if player in self.running:
            m = self.running[player]
            return Seated(
                player=player,
                table_id=m.table_id,
                game=m.game,
                preset=m.preset,
                players=m.players,
                match_id=m.match_id,
            )
        return Idle(player=player)

    def tick(self, at: int) -> tuple[Table, ...]:
        self._expire_pending()
        tables = form_tables(tuple(self.tickets.values()), at, self.policy)
        clock = time.monotonic()
        for table in tables:
            for player in table.players:
                ticket = self.tickets.get(player)
                if ticket is not None and ticket.ticket_id in table.tickets:
                    del self.tickets[player]
                    self.pending[player] = Pending(table=table, formed_at=clock)
        return tables

    def _expire_pending(self) -> None:
        limit = time.monotonic() - self.pending_timeout_s
        for player in [p for p, pend in self.pending.items() if pend.formed_at < limit]:
            del self.pending[player]

    def on_integration(self, event: Any) -> None:
        if isinstance(event, MatchStarted):
            for player in event.players:
                self.pending.pop(player, None)
                self.running[player] = event
        elif isinstance(event, MatchFinished):
            for player in event.players:
                current = self.running.get(player)
                if current is not None and current.match_id == event.match_id:
                    del self.running[player]


def lookup_rating(engine: Engine | None, request: JoinQueue) -> float:
    if request.rating is not None:
        return request.rating
    if engine is None or request.vs_computer or request.invite:
        return DEFAULT_RATING
    try:
        model = model_for(request.seats)
    except ValueError:
        return DEFAULT_RATING
    with Session(engine) as session:
        row = session.scalar(
            select(db.Rating).where(
                db.Rating.player == request.player,
                db.Rating.game == request.game,
                db.Rating.family == preset_family(request.preset),
                db.Rating.model == model,
            )
        )
    if row is None:
        return DEFAULT_RATING
    if model == GLICKO2:
        return row.rating
    return DEFAULT_RATING + (row.rating - 25.0) * OPENSKILL_TO_GLICKO


class MatchmakingService:
    def __init__(
        self, nc: Client, engine: Engine | None, matchmaker: Matchmaker, tick_s: float = 0.1
    ) -> None:
        self.nc = nc
        self.js = nc.jetstream()
        self.engine = engine
        self.mm = matchmaker
        self.tick_s = tick_s
        self.log = logs.get(SERVICE)
        self._lock = asyncio.Lock()
        self._forming: set[asyncio.Task[None]] = set()

    async def answer(self, data: bytes) -> bytes:
        """One join/leave/status request (bytes in, encoded reply out)."""
        try:
            request = request_decoder.decode(data)
        except Exception as exc:  # malformed bytes are a reply, never a crash
            REQUESTS.labels(kind="unknown", result="malformed").inc()
            return encode(Rejected(code="malformed", detail=str(exc)))
        at = now_ms()
        reply: MatchmakingReply
        if isinstance(request, JoinQueue):
            rating = DEFAULT_RATING
            if request.rating is not None or self.engine is None:
                rating = lookup_rating(None, request)
            else:
                rating = await asyncio.to_thread(lookup_rating, self.engine, request)
            reply = self.mm.join(request, rating, at)
            kind = "join"
        elif isinstance(request, LeaveQueue):
            reply, kind = self.mm.leave(request.player), "leave"
        else:
            assert isinstance(request, QueueStatus)
            reply, kind = self.mm.status(request.player, at), "status"
        result = reply.code if isinstance(reply, Rejected) else "ok"
        REQUESTS.labels(kind=kind, result=result).inc()
        self.log.info("matchmaking_request", kind=kind, result=result, player=getattr(request, "player", ""))
        if kind == "join" and result == "ok":
            # A new ticket may complete a table right away (after this reply goes out).
            task = asyncio.create_task(self.form())
            self._forming.add(task)
            task.add_done_callback(self._forming.discard)
        return encode(reply)

    def broker(self, url: str, credential: Credential | None = None) -> NatsBroker:
        """The request handlers as a FastStream app: thin handlers on the queue group.

        The pass-through decoder hands them the raw bytes (msgspec decodes them), so a malformed
        body still gets a typed ``malformed`` reply."""
        security = (
            SASLPlaintext(username=credential.user, password=credential.password) if credential else None
        )
        broker = NatsBroker(url, logger=None, security=security)

        async def raw_body(msg: Any) -> bytes:
            return bytes(msg.body)

        for subject in (subjects.MATCHMAKING_JOIN, subjects.MATCHMAKING_LEAVE, subjects.MATCHMAKING_STATUS):

            @broker.subscriber(subject, queue=subjects.MATCHMAKING_QUEUE, decoder=raw_body)
            async def handle(body: bytes) -> bytes:
                return await self.answer(body)

        return broker

    async def form(self) -> None:
        async with self._lock:
            at = now_ms()
            tables = self.mm.tick(at)
            for table in tables:
                kind = "private" if table.invite else "bots" if table.bots else "public"
                TABLES_FORMED.labels(game=table.game, kind=kind).inc()
                for waited in table.waited_ms:
                    QUEUE_WAIT.labels(game=table.game).observe(waited / 1000.0)
                event = TableFormed(
                    table_id=table.table_id,
                    game=table.game,
                    preset=table.preset,
                    ranked=table.ranked,
                    players=table.players,
                    bots=table.bots,
                    tickets=table.tickets,
                    invite=table.invite,
                    formed_at=at,
                    waited_ms=table.waited_ms,
                    gap=table.gap,
                )
                await self.js.publish(
                    subjects.TABLE_FORMED,
                    encode(event),
                    stream=subjects.INTEGRATION_STREAM,
                    headers={subjects.MSG_ID: f"table:{table.table_id}"},
                )
                self.log.info(
                    "table_formed",
                    table_id=table.table_id,
                    game=table.game,
                    players=table.players,
                    bots=table.bots,
                    gap=table.gap,
                )
            counts: dict[str, int] = {}
            for t in self.mm.tickets.values():
                counts[t.game] = counts.get(t.game, 0) + 1
            for game, count in counts.items():
                QUEUE_TICKETS.labels(game=game).set(count)

    async def on_integration(self, msg: Msg) -> None:
        try:
            event = integration_decoder.decode(msg.data)
        except Exception:  # an event version this build does not know: not ours to judge
            return
        self.mm.on_integration(event)
        match_id = getattr(event, "match_id", None)
        if match_id:
            self.log.debug("integration_event", match_id=match_id, kind=type(event).__name__)

    async def run(self, stop: asyncio.Event, url: str, credential: Credential | None = None) -> None:
        follower = await self.js.subscribe(
            subjects.INTEGRATION_SUBJECTS,
            stream=subjects.INTEGRATION_STREAM,
            ordered_consumer=True,
            deliver_policy=DeliverPolicy.ALL,
            cb=self.on_integration,
        )
        broker = self.broker(url, credential)
        await broker.start()
        self.log.info("matchmaking_started")
        try:
            while not stop.is_set():
                await self.form()
                try:
                    await asyncio.wait_for(stop.wait(), self.tick_s)
                except TimeoutError:
                    pass
        finally:
            await broker.stop()
            if self._forming:
                await asyncio.gather(*self._forming, return_exceptions=True)
            try:
                await follower.unsubscribe()
            except Exception:  # noqa: BLE001 - the connection may already be closing
                pass


async def run(
    settings: Settings,
    stop: asyncio.Event,
    policy: Policy | None = None,
    tick_s: float = 0.1,
    metrics_port: int | None = 0,
) -> None:
    async with service_shell(SERVICE, settings, metrics_port, database=True) as shell:
        assert shell.engine is not None
        service = MatchmakingService(
            shell.nc, shell.engine, Matchmaker(policy=policy or settings.matchmaking.policy()), tick_s=tick_s
        )
        assert settings.nats_url is not None
        await service.run(stop, settings.nats_url, settings.nats_credential(SERVICE))
