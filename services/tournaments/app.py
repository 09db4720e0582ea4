"""``gamehall serve tournaments``: the tournaments service as a process (``services.tournaments.core``).

It answers ``TournamentRequest`` on ``tournaments.cmd`` (queue group ``tournaments``, so several
instances share the load), records finished tournament games from the integration stream (the
durable consumer ``tournaments``), voids or amends them by dispute rulings (the durable consumer
``tournaments-rulings`` of the disputes stream, ``services.tournaments.rulings``) and runs the
schedule every half second.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from nats.aio.client import Client
from nats.js.api import ConsumerConfig, DeliverPolicy

from contracts import subjects
from contracts.codecs import integration_decoder
from contracts.integration import MatchFinished
from services.common import logs, natsio
from services.common.settings import Settings
from services.common.shell import service_shell
from services.common.tablekeys import TableSigner
from services.tournaments import rulings
from services.tournaments.core import Tournaments

SERVICE = "tournaments"
TICK_S = 0.5
DISCOVER_EVERY = 10  # ticks between looks for tournaments another instance created

log = logs.get(SERVICE)


async def run(settings: Settings, stop: asyncio.Event, metrics_port: int | None = 0) -> None:
    async with service_shell(SERVICE, settings, metrics_port) as shell:
        await run_tournaments(settings, stop, shell.nc)


async def run_tournaments(
    settings: Settings, stop: asyncio.Event, nc: Client, tick_s: float = TICK_S
) -> None:
    js = nc.jetstream()
    seeds = await natsio.ensure_own_bucket(
        js, subjects.TOURNAMENT_SEEDS_BUCKET, replicas=settings.stream_replicas
    )
    # Signs the tables of rated tournaments (a key only this service reads, made on first start).
    signer = TableSigner.from_file(settings.tournaments_key_file, "tournaments")
    log.info("table_key", key_id=signer.key_id, public_key=signer.public_key.hex())
    service = Tournaments(js, seeds, signer=signer)
    await service.load_all()
    await service.reannounce()
    tasks: set[asyncio.Task[None]] = set()

    async def answer(msg: Any) -> None:
        try:
            reply = await service.handle_bytes(msg.data)
        except Exception:
            log.exception("tournament_request_failed")
            return  # no reply: the sender retries with the same command id
        await msg.respond(reply)

    async def on_request(msg: Any) -> None:
        task = asyncio.create_task(answer(msg))
        tasks.add(task)
        task.add_done_callback(tasks.discard)

    async def on_finished(msg: Any) -> None:
        try:
            event = integration_decoder.decode(msg.data)
        except Exception:  # a version this build does not know
            await msg.ack()
            return
        if isinstance(event, MatchFinished):
            try:
                if event.match_id not in service.games:
                    await service.discover()
                await service.on_finished(event)
            except Exception:
                log.exception("tournament_result_failed", match_id=event.match_id)
                with contextlib.suppress(Exception):
                    await msg.nak(delay=1.0)
                return
        await msg.ack()

    async def on_ruling(msg: Any) -> None:
        await rulings.on_message(service, msg)

    requests = await nc.subscribe(
        subjects.TOURNAMENT_COMMANDS, queue=subjects.TOURNAMENTS_QUEUE, cb=on_request
    )
    finished = await js.subscribe(
        subjects.MATCH_FINISHED,
        queue=subjects.TOURNAMENTS_CONSUMER,
        durable=subjects.TOURNAMENTS_CONSUMER,
        stream=subjects.INTEGRATION_STREAM,
        cb=on_finished,
        manual_ack=True,
        config=ConsumerConfig(deliver_policy=DeliverPolicy.NEW, ack_wait=30, max_ack_pending=256),
    )
    ruled = await js.subscribe(
        subjects.DISPUTE_SUBJECTS,
        queue=subjects.TOURNAMENT_RULINGS_CONSUMER,
        durable=subjects.TOURNAMENT_RULINGS_CONSUMER,
        stream=subjects.DISPUTE_STREAM,
        cb=on_ruling,
        manual_ack=True,
        config=ConsumerConfig(deliver_policy=DeliverPolicy.ALL, ack_wait=30, max_ack_pending=64),
    )
    log.info("tournaments_ready", held=len(service.held))
    ticks = 0
    try:
        while not stop.is_set():
            ticks += 1
            if ticks % DISCOVER_EVERY == 0:
                with contextlib.suppress(Exception):
                    await service.discover()
            await service.tick()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(stop.wait(), tick_s)
    finally:
        for sub in (requests, finished, ruled):
            with contextlib.suppress(Exception):
                await sub.unsubscribe()
        for task in list(tasks):
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
