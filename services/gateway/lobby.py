"""The lobby's state: the matchmaking queue (read only), the tables matchmaking forms, the
accounts database and the read models (its routes are in ``services.gateway.api``: ``queue``,
``accounts``, ``ratings``, ``disputes``).

Quick match: ``POST /api/queue`` joins a matchmaking queue (``contracts.matchmaking.JoinQueue``).
Matchmaking announces a full table as ``TableFormed``; one of the gateways (a shared durable
consumer, so a table announced while every gateway is down is created when one comes back)
creates the match (its id derived from the table id, so a second attempt gets ``match_exists``)
and hands the computer seats to the bots service.  The seat tokens of a table are derived from
the gateways' shared secret and the table id, so they are stored nowhere: any gateway answers
``GET /api/queue/{ticket_id}`` from the player's entry in the queue bucket
(``services.common.tickets``), and a restarted gateway loses nothing.

Player identity: ``POST /api/accounts`` signs a player up (an API token, shown once) and every
queue route acts only for the player its ``Authorization: Bearer`` credential (API token or an
app's JWT, ``services.common.accounts``) names; a ticket and its seat token are answered only to
that player, and no error names another player's ticket.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import time
from typing import Any

from nats.js.api import ConsumerConfig, DeliverPolicy
from sqlalchemy import Engine

from contracts import subjects
from contracts.codecs import integration_decoder
from contracts.envelope import Rejected
from contracts.integration import TableFormed
from contracts.match import TimeControl
from domain.games import registry
from domain.matchmaking.clocks import ranked_time_control
from domain.matchmaking.provenance import signed_table
from services.common import accounts, commands, db, logs, natsio, serverkey
from services.common.serverkey import ServerKey
from services.common.tickets import TABLE_TOO_OLD_MS, QueueStore, table_match_id
from services.gateway.bots import assign_bot
from services.gateway.core import Gateway
from services.gateway.edge import gateway_secret
from services.gateway.errors import Unauthenticated

log = logs.get("gateway")


def table_token_key(secret: bytes, table_id: str) -> bytes:
    """The key the seat tokens of a table's match are derived from (any gateway with the
    shared secret derives the same tokens; none is stored)."""
    return hmac.new(secret, b"table\n" + table_id.encode(), hashlib.sha256).digest()


def table_clock(table: TableFormed) -> TimeControl | None:
    """The clock of a formed table's match: a tournament's own, a ranked queue's preset's, else none."""
    if table.tournament_id:
        return table.time_control
    return ranked_time_control(table.game, table.preset) if table.ranked else None


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
            # A ranked queue's preset carries its clock (docs/ranked.md "Time controls"); a
            # tournament's table carries the tournament's.
            time_control=table_clock(table),
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
        default = registry.get(table.game).default_bot
        strengths = dict(zip(table.bots, table.strengths, strict=False))
        for i in table.bots:
            strength = strengths.get(i) or default
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
            raise Unauthenticated(
                "unauthenticated",
                "send 'Authorization: Bearer <API token or app JWT>' (sign up with POST /api/accounts)",
            )
        engine = await self.accounts_engine()
        found = await asyncio.to_thread(accounts.authenticate, engine, credential, self.server_key)
        if isinstance(found, Rejected):
            raise Unauthenticated(found.code, found.detail)
        return found
