"""Matchmaking service: queues by (game, preset, seats, ranked, invite), pure pairing on a tick,
``TableFormed`` on the integration stream for the gateway to turn into a match.

The queues live in the JetStream key-value bucket ``GH_TICKETS`` (``services.common.tickets``):
any number of matchmakers serve one queue, the holder of the forming lease pairs, every change
is revision-checked, and the integration stream (a shared durable consumer) moves players from
a forming table to its match and out when it finishes.  Requests: ``contracts.matchmaking`` on
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
from nats.js.api import ConsumerConfig, DeliverPolicy
from prometheus_client import Counter
from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from contracts import subjects
from contracts.codecs import encode, integration_decoder
from contracts.envelope import Rejected
from contracts.integration import MatchFinished, MatchStarted, TableFormed
from contracts.matchmaking import (
    Forming,
    Idle,
    JoinQueue,
    LeaveQueue,
    Left,
    ListSeeks,
    ListTables,
    MatchmakingReply,
    Playing,
    Queued,
    QueueEntry,
    QueueStatus,
    Seated,
    Seek,
    Seeks,
    Ticket,
    Waiting,
    request_decoder,
)
from contracts.subjects import ticket_key
from domain.core.match.create import playable_seats
from domain.games import registry
from domain.matchmaking.listing import open_tables
from domain.matchmaking.pairing import Policy, Table, allowed_gap, form_tables, queue_key
from domain.rating.ranked import GLICKO2, model_for
from domain.rating.seasons import preset_family
from services.common import db, logs, metrics, natsio
from services.common.natsauth import Credential
from services.common.settings import Settings
from services.common.shell import service_shell
from services.common.tablekeys import TableSigner
from services.common.tickets import FORMING_TIMEOUT_MS, QueueStore, table_match_id

SERVICE = "matchmaking"
TABLES_FORMED = Counter("gamehall_matchmaking_tables_total", "Tables formed by matchmaking", ["game", "kind"])
POLLS = ("seeks", "tables", "status")  # the requests a client repeats while it waits
REQUESTS = Counter("gamehall_matchmaking_requests_total", "Matchmaking requests", ["kind", "result"])

DEFAULT_RATING = 1500.0
OPENSKILL_TO_GLICKO = 40.0  # one OpenSkill mu point ~ 40 Glicko points, so one gap policy fits both


def now_ms() -> int:
    return time.time_ns() // 1_000_000


@dataclass
class Matchmaker:
    """The queue rules around the stored entries; every method is synchronous and pure in its
    inputs (the entries come from the tickets bucket)."""

    policy: Policy = field(default_factory=Policy)

    def refusal(self, request: JoinQueue) -> Rejected | None:
        game = registry.GAMES.get(request.game)
        if game is not None and game.helper:
            return Rejected(code="not_offered", detail=f"{game.title} is a table helper, not in quick match")
        if not 1 <= request.seats <= 8 or (request.vs_computer and request.seats < 2):
            return Rejected(code="invalid_seats", detail=str(request.seats))
        if game is None:
            return None
        # A table of a seat count the preset cannot play would form and then never become a
        # match: refuse it here, whoever asks (ranked or not).  The counts are the game's own
        # declaration; a preset the game does not know is checked against the game's seats.
        counts = playable_seats(game, request.preset)
        what = game.title
        if counts is None:
            counts = tuple(range(game.min_seats, game.max_seats + 1))
        else:
            what = game.preset_title(game.canonical_preset(request.preset), "en")
        if request.seats not in counts:
            detail = f"{what} is played with {seat_counts(counts)} seats, not {request.seats}"
            return Rejected(code="unplayable_seats", detail=detail)
        return None

    def join(self, request: JoinQueue, rating: float, at: int) -> Rejected | Queued:
        """A new ticket for ``request`` (the service stores it only if the player has none), or
        why the request is refused whoever asks."""
        refused = self.refusal(request)
        if refused is not None:
            return refused
        return self.queued(self.ticket(request, rating, at), [], at)

    def ticket(self, request: JoinQueue, rating: float, at: int) -> Ticket:
        return Ticket(
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
            public=request.public and bool(request.invite),
        )

    def queued(self, ticket: Ticket, waiting: list[Ticket], at: int) -> Queued:
        same = sorted(
            {t.ticket_id: t for t in (*waiting, ticket) if queue_key(t) == queue_key(ticket)}.values(),
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

    def status(self, player: str, entry: QueueEntry | None, waiting: list[Ticket], at: int) -> MatchmakingReply:
        if isinstance(entry, Waiting):
            return self.queued(entry.ticket, waiting, at)
        if isinstance(entry, Forming | Playing):
            t = entry.table
            return Seated(
                player=player,
                table_id=t.table_id,
                game=t.game,
                preset=t.preset,
                players=t.players,
                bots=t.bots if isinstance(entry, Forming) else (),
                match_id=entry.match_id if isinstance(entry, Playing) else "",
            )
        return Idle(player=player)

    def seeks(self, waiting: list[Ticket], game: str = "") -> Seeks:
        """The public queues with players waiting, oldest first: never a private (invite) queue, a
        computer table or a ticket id."""
        queues: dict[Any, list[Ticket]] = {}
        for ticket in waiting:
            if ticket.invite or ticket.vs_computer or (game and ticket.game != game):
                continue
            queues.setdefault(queue_key(ticket), []).append(ticket)
        out = []
        for members in queues.values():
            members.sort(key=lambda t: (t.joined_at, t.ticket_id))
            first = members[0]
            out.append(
                Seek(
                    game=first.game,
                    preset=first.preset,
                    seats=first.seats,
                    ranked=first.ranked,
                    players=tuple(t.player for t in members),
                    waiting=len(members),
                    since=first.joined_at,
                    bots_ok=any(t.bots_ok for t in members),
                )
            )
        out.sort(key=lambda s: (s.since, s.game, s.preset, s.seats))
        return Seeks(seeks=tuple(out))


def seat_counts(counts: tuple[int, ...]) -> str:
    """``(4,)`` -> ``"4"``, ``(3, 4)`` -> ``"3 or 4"``, ``(2, 3, 4, 5)`` -> ``"2-5"``, ``(2, 4, 6)``
    -> ``"2, 4 or 6"``."""
    if not counts:
        return "no"
    if len(counts) > 2 and counts[-1] - counts[0] == len(counts) - 1:
        return f"{counts[0]}-{counts[-1]}"
    if len(counts) == 1:
        return str(counts[0])
    return f"{', '.join(map(str, counts[:-1]))} or {counts[-1]}"


def table_event(table: Table, at: int) -> TableFormed:
    return TableFormed(
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


def humans(table: TableFormed) -> list[str]:
    return [p for i, p in enumerate(table.players) if i not in table.bots]


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
    """Join/leave/status requests on the queue group, and (while holding the forming lease)
    the pairing tick.  Any number of these serve one queue: the queue is the tickets bucket,
    every change to it is revision-checked, and one lease holder forms tables at a time."""

    def __init__(
        self,
        nc: Client,
        engine: Engine | None,
        matchmaker: Matchmaker,
        store: QueueStore,
        tick_s: float = 0.1,
        lease_ms: int = 3_000,
        recover_after_ms: int = 10_000,
        forming_timeout_ms: int = FORMING_TIMEOUT_MS,
        signer: TableSigner | None = None,
    ) -> None:
        self.nc = nc
        # Signs every ranked table (only a signed table becomes a ranked match); None: unsigned.
        self.signer = signer
        self.js = nc.jetstream()
        self.engine = engine
        self.mm = matchmaker
        self.store = store
        self.tick_s = tick_s
        self.lease_ms = lease_ms
        self.recover_after_ms = recover_after_ms
        self.forming_timeout_ms = forming_timeout_ms
        self.owner = uuid.uuid4().hex
        self.log = logs.get(SERVICE)
        self._lock = asyncio.Lock()
        self._forming: set[asyncio.Task[None]] = set()
        self._announced: set[str] = set()  # tables this instance announced (or announced again)
        self._games: set[str] = set()

    def waiting(self) -> list[Ticket]:
        return [e.ticket for _, e, _ in self.store.entries() if isinstance(e, Waiting)]

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
            reply, kind = await self.join(request, at), "join"
        elif isinstance(request, LeaveQueue):
            reply, kind = await self.leave(request.player), "leave"
        elif isinstance(request, ListSeeks):
            reply, kind = self.mm.seeks(self.waiting(), request.game), "seeks"
        elif isinstance(request, ListTables):
            reply, kind = open_tables(self.waiting(), request.game), "tables"
        else:
            assert isinstance(request, QueueStatus)
            async with self._lock:  # a table this instance is forming right now is seen formed
                entry, _ = await self.store.get(request.player)
            reply, kind = self.mm.status(request.player, entry, self.waiting(), at), "status"
        result = reply.code if isinstance(reply, Rejected) else "ok"
        REQUESTS.labels(kind=kind, result=result).inc()
        # The lobby page polls the seeks (every 4 s) and a queued ticket's status (every second):
        # an answered poll is logged at debug, so the log keeps joins, leaves and refusals.
        log = self.log.debug if kind in POLLS and result == "ok" else self.log.info
        log("matchmaking_request", kind=kind, result=result, player=getattr(request, "player", ""))
        if kind == "join" and result == "ok":
            # A new ticket may complete a table right away (after this reply goes out).
            task = asyncio.create_task(self.form())
            self._forming.add(task)
            task.add_done_callback(self._forming.discard)
        return encode(reply)

    async def join(self, request: JoinQueue, at: int) -> MatchmakingReply:
        for _ in range(5):
            entry, _revision = await self.store.get(request.player)
            if entry is not None:
                break
            refused = self.mm.refusal(request)
            if refused is not None:
                return refused
            rating = DEFAULT_RATING
            if request.rating is not None or self.engine is None:
                rating = lookup_rating(None, request)
            else:
                rating = await asyncio.to_thread(lookup_rating, self.engine, request)
            ticket = self.mm.ticket(request, rating, at)
            if await self.store.create(request.player, Waiting(ticket=ticket)) is not None:
                return self.mm.queued(ticket, self.waiting(), at)
            # someone else stored an entry for this player first: read it
        if isinstance(entry, Waiting):
            # Never the ticket id: it is a secret of its owner (issue 9, finding 1).
            return Rejected(code="already_queued", detail="this player is already in a queue")
        return Rejected(code="in_match")

    async def leave(self, player: str) -> MatchmakingReply:
        for _ in range(5):
            entry, revision = await self.store.get(player)
            if not isinstance(entry, Waiting):
                return Rejected(code="not_queued")
            if await self.store.delete(player, revision):
                return Left(player=player, ticket_id=entry.ticket.ticket_id)
        return Rejected(code="not_queued")

    def broker(self, url: str, credential: Credential | None = None) -> NatsBroker:
        """The request handlers as a FastStream app: thin handlers on the queue group.

        The pass-through decoder hands them the raw bytes (msgspec decodes them), so a malformed
        body still gets a typed ``malformed`` reply."""
        security = (
            SASLPlaintext(username=credential.user, password=credential.password) if credential else None
        )
        # ``url`` may list several servers of a cluster, comma-separated, as for every service
        # (services.common.natsio.connect); FastStream takes them as a list.
        servers = [part.strip() for part in url.split(",") if part.strip()]
        # the identity's own reply inbox and the error callback that logs and counts refusals
        options = natsio.connect_options(f"gamehall-{SERVICE}", credential)
        own = {key: options[key] for key in ("error_cb", "inbox_prefix") if key in options}
        broker = NatsBroker(servers, logger=None, security=security, **own)

        async def raw_body(msg: Any) -> bytes:
            return bytes(msg.body)

        for subject in (
            subjects.MATCHMAKING_JOIN,
            subjects.MATCHMAKING_LEAVE,
            subjects.MATCHMAKING_STATUS,
            subjects.MATCHMAKING_SEEKS,
            subjects.MATCHMAKING_TABLES,
        ):

            @broker.subscriber(subject, queue=subjects.MATCHMAKING_QUEUE, decoder=raw_body)
            async def handle(body: bytes) -> bytes:
                return await self.answer(body)

        return broker

    # ------------------------------------------------------------------ forming tables
    async def form(self) -> None:
        async with self._lock:
            at = now_ms()
            if await self.store.hold_lease(self.owner, at, self.lease_ms):
                for table in form_tables(tuple(self.waiting()), at, self.mm.policy):
                    event = table_event(table, at)
                    if event.ranked and self.signer is not None:
                        event = self.signer.sign(event)
                    await self.claim(event)
                await self.recover(at)
            self.count()

    async def claim(self, table: TableFormed) -> bool:
        """Move every human of ``table`` from waiting to forming (each write at the revision
        paired from), then announce the table.  If one write loses (the player left, or another
        matchmaker paired them), the others go back to waiting: a player is seated once."""
        wanted = dict(zip(table.tickets, humans(table), strict=False))
        claimed: list[tuple[str, Ticket, int]] = []
        for ticket_id, player in wanted.items():
            current = self.store.mirror.get(ticket_key(player))
            entry, revision = current if current is not None else (None, 0)
            done = None
            if isinstance(entry, Waiting) and entry.ticket.ticket_id == ticket_id:
                done = await self.store.update(player, Forming(ticket=entry.ticket, table=table), last=revision)
            if done is None:
                for who, ticket, rev in claimed:
                    await self.store.update(who, Waiting(ticket=ticket), last=rev)
                self.log.info("table_claim_lost", table_id=table.table_id, player=player)
                return False
            assert isinstance(entry, Waiting)
            claimed.append((player, entry.ticket, done))
        await self.announce(table)
        kind = "private" if table.invite else "bots" if table.bots else "public"
        TABLES_FORMED.labels(game=table.game, kind=kind).inc()
        for waited in table.waited_ms:
            metrics.QUEUE_WAIT.labels(game=table.game).observe(waited / 1000.0)
        self.log.info(
            "table_formed",
            table_id=table.table_id,
            game=table.game,
            players=table.players,
            bots=table.bots,
            gap=table.gap,
        )
        return True

    async def announce(self, table: TableFormed) -> None:
        await self.js.publish(
            subjects.TABLE_FORMED,
            encode(table),
            stream=subjects.INTEGRATION_STREAM,
            headers={subjects.MSG_ID: f"table:{table.table_id}"},
        )
        self._announced.add(table.table_id)

    async def recover(self, at: int) -> None:
        """Tables left half-done by a matchmaker that stopped: a table whose claim is complete
        is announced again (the announcement is deduplicated, and the match id is derived from
        the table id); an incomplete claim goes back to waiting; a table whose match was never
        created within ``forming_timeout_ms`` frees its players."""
        tables: dict[str, list[tuple[str, QueueEntry, int]]] = {}
        for key, entry, revision in self.store.entries():
            if isinstance(entry, Forming | Playing):
                tables.setdefault(entry.table.table_id, []).append((key, entry, revision))
        for table_id, members in tables.items():
            forming = [(e, r) for _, e, r in members if isinstance(e, Forming)]
            if not forming:
                continue
            table = forming[0][0].table
            age = at - table.formed_at
            if age < self.recover_after_ms:
                continue
            if any(isinstance(e, Playing) for _, e, _ in members):
                continue  # the match exists; MatchStarted moves the rest
            if age >= self.forming_timeout_ms:
                for entry, revision in forming:
                    await self.store.delete(entry.ticket.player, revision)
                self.log.warning("table_given_up", table_id=table_id, players=table.players)
            elif len(forming) < len(humans(table)):
                for entry, revision in forming:
                    await self.store.update(entry.ticket.player, Waiting(ticket=entry.ticket), last=revision)
                self.log.warning("table_claim_undone", table_id=table_id)
            elif table_id not in self._announced:
                await self.announce(table)
                self.log.info("table_announced_again", table_id=table_id)

    def count(self, at: int | None = None) -> None:
        """Queue depth and the oldest ticket's wait per game (a game seen once keeps its series,
        at 0 when its queue empties)."""
        at = now_ms() if at is None else at
        counts: dict[str, int] = {}
        oldest: dict[str, int] = {}
        for t in self.waiting():
            counts[t.game] = counts.get(t.game, 0) + 1
            oldest[t.game] = min(oldest.get(t.game, t.joined_at), t.joined_at)
        self._games.update(counts)
        for game in self._games:
            metrics.QUEUE_DEPTH.labels(game=game).set(counts.get(game, 0))
            waited = max(0, at - oldest[game]) / 1000.0 if game in oldest else 0.0
            metrics.QUEUE_OLDEST_WAIT.labels(game=game).set(waited)

    # ------------------------------------------------------------------ integration events
    async def on_integration(self, msg: Msg) -> None:
        try:
            event = integration_decoder.decode(msg.data)
        except Exception:  # an event version this build does not know: not ours to judge
            await msg.ack()
            return
        if isinstance(event, MatchStarted) and event.guests != event.seats:
            for seat, player in zip(event.seats, event.players, strict=False):
                await self.started(player, event, seat)
        elif isinstance(event, MatchFinished):
            for player in event.players:
                await self.finished(player, event.match_id)
        await msg.ack()
        match_id = getattr(event, "match_id", None)
        if match_id:
            self.log.debug("integration_event", match_id=match_id, kind=type(event).__name__)

    async def started(self, player: str, event: MatchStarted, seat: str) -> None:
        """The player's table became a match (the match id is derived from the table id):
        forming -> playing."""
        for _ in range(10):
            entry, revision = await self.store.get(player)
            if not isinstance(entry, Forming):
                return
            table_id = entry.table.table_id
            if event.table_id != table_id and event.match_id != table_match_id(table_id):
                return
            playing = Playing(ticket=entry.ticket, table=entry.table, match_id=event.match_id, seat=seat)
            if await self.store.update(player, playing, last=revision) is not None:
                return

    async def finished(self, player: str, match_id: str) -> None:
        for _ in range(10):
            entry, revision = await self.store.get(player)
            if not (isinstance(entry, Playing) and entry.match_id == match_id):
                return
            if await self.store.delete(player, revision):
                return

    async def run(self, stop: asyncio.Event, url: str, credential: Credential | None = None) -> None:
        watcher = asyncio.create_task(self.store.watch())
        follower = await self.js.subscribe(
            subjects.INTEGRATION_SUBJECTS,
            queue=subjects.MATCHMAKING_CONSUMER,  # a queue consumer is named by its queue
            durable=subjects.MATCHMAKING_CONSUMER,
            stream=subjects.INTEGRATION_STREAM,
            cb=self.on_integration,
            manual_ack=True,
            config=ConsumerConfig(deliver_policy=DeliverPolicy.NEW, ack_wait=30, max_ack_pending=256),
        )
        await asyncio.wait_for(self.store.synced.wait(), 30)
        broker = self.broker(url, credential)
        await broker.start()
        self.log.info("matchmaking_started", owner=self.owner)
        try:
            while not stop.is_set():
                try:
                    await self.form()
                except Exception:  # NATS away for a moment: the next tick tries again
                    self.log.exception("form_failed")
                try:
                    await asyncio.wait_for(stop.wait(), self.tick_s)
                except TimeoutError:
                    pass
        finally:
            await broker.stop()
            if self._forming:
                await asyncio.gather(*self._forming, return_exceptions=True)
            await self.store.release_lease(self.owner)
            watcher.cancel()
            await asyncio.gather(watcher, return_exceptions=True)
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
        signer = TableSigner.from_file(settings.matchmaking_key_file)
        shell.log.info("table_key", key_id=signer.key_id, public_key=signer.public_key.hex())
        buckets = await natsio.ensure_buckets(shell.nc.jetstream(), replicas=settings.stream_replicas)
        service = MatchmakingService(
            shell.nc,
            shell.engine,
            Matchmaker(policy=policy or settings.matchmaking.policy()),
            QueueStore(buckets[subjects.TICKETS_BUCKET]),
            tick_s=tick_s,
            signer=signer,
        )
        assert settings.nats_url is not None
        await service.run(stop, settings.nats_url, settings.nats_credential(SERVICE))
