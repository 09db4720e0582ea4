"""``gamehall serve referee``: the referee as a process."""

from __future__ import annotations

import asyncio
import contextlib
import os
import time

from nats.aio.msg import Msg
from nats.js import JetStreamContext

from contracts import subjects
from contracts.subjects import INTEGRATION_STREAM, MATCH_STREAM, SECRET_STREAM
from domain.games.registry import GAMES
from services.common import logs, metrics, natsauth, natsio
from services.common.certificates import KeyRing
from services.common.health import REFEREE_PING, Check
from services.common.settings import Settings
from services.common.shell import service_shell
from services.common.tablekeys import TableTrust
from services.referee.core import Referee, now_ms


def owned_partitions(settings: Settings) -> tuple[int, ...] | None:
    """GAMEHALL_REFEREE_PARTITIONS="0,1" limits a referee to some partitions (scale-out)."""
    owned = settings.referee.owned_partitions
    if not owned:
        return None
    partitions = settings.partitions
    bad = [p for p in owned if not 0 <= p < partitions]
    if bad:
        raise SystemExit(f"GAMEHALL_REFEREE_PARTITIONS: {bad} outside 0..{partitions - 1}")
    return owned


CONSUMER_SAMPLE_S = 15.0
log = logs.get("referee")


def process_age_s() -> float | None:
    """Seconds since this process was started (Linux ``/proc``; None elsewhere): the interpreter's
    start and the imports before ``run`` in the start-up log."""
    try:
        with open("/proc/self/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
        with open("/proc/uptime", "rb") as f:
            uptime = float(f.read().split()[0])
        return round(uptime - int(fields[19]) / os.sysconf("SC_CLK_TCK"), 3)
    except (OSError, ValueError, IndexError):
        return None


async def sample_consumers(js: JetStreamContext, secrets_js: JetStreamContext, stop: asyncio.Event) -> None:
    """Publish how many consumers each stream holds (alert: consumers piling up towards the
    server's limit, e.g. WebSocket followers that are never cleaned up)."""
    while not stop.is_set():
        for stream, where in ((MATCH_STREAM, js), (SECRET_STREAM, secrets_js), (INTEGRATION_STREAM, js)):
            try:
                info = await where.stream_info(stream)
            except Exception:  # noqa: BLE001 - a sample missed is retried next time; NATS may be away
                continue
            metrics.JETSTREAM_CONSUMERS.labels(stream).set(info.state.consumer_count)
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(stop.wait(), CONSUMER_SAMPLE_S)


def referee_subscribed(referee: Referee) -> Check:
    async def check() -> str | None:
        return None if referee.subscribed else "not subscribed to any command subject"

    return check


async def sweep_idle_matches(referee: Referee, hours: float, stop: asyncio.Event) -> None:
    """The abandonment rule (docs/audit.md): every stored match of this referee's partitions at
    start-up, then the matches in memory every minute (or a tenth of the limit, if shorter)."""
    if hours <= 0:
        return
    limit_ms = int(hours * 3_600_000)
    every_s = min(60.0, limit_ms / 10_000)
    stored = True
    while not stop.is_set():
        try:
            await referee.sweep_idle(limit_ms, stored=stored)
            stored = False
        except Exception:  # noqa: BLE001 - NATS may be away; the next sweep tries again
            log.exception("idle_sweep_failed")
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(stop.wait(), every_s)


BOT_RETRY_MS = 1_000  # how often a handover no bots service took is offered again


async def run_clocks(referee: Referee, stop: asyncio.Event) -> None:
    """The timeout timer (docs/audit.md "Clocks"): at start-up every unfinished clocked match of
    this referee's partitions is loaded and its deadlines recomputed from the log; then every
    passed deadline (a timeout, or an abandonment after ``grace_s``) is claimed, waking at the next
    deadline (at least every half second); a seat handed to a computer player that no bots
    service took is offered again every few seconds; a change of the signing keys (a rotation) is
    published at the next round."""
    loaded = False
    retried = 0.0
    while not stop.is_set():
        wait_s = 0.5
        try:
            if not loaded:
                await referee.load_clocked_matches()
                loaded = True
            await referee.publish_key_changes()
            upcoming = await referee.claim_due_timeouts()
            if now_ms() - retried >= BOT_RETRY_MS:
                retried = now_ms()
                await referee.retry_bot_assignments()
            if upcoming is not None:
                wait_s = min(wait_s, max(0.01, (upcoming - now_ms()) / 1000))
        except Exception:  # noqa: BLE001 - NATS may be away; the next round tries again
            log.exception("clock_round_failed")
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(stop.wait(), wait_s)


async def run(settings: Settings, stop: asyncio.Event, metrics_port: int | None = 0) -> None:
    owned = owned_partitions(settings)
    # Where the seconds of a (re)start go, in the "referee_started" line: the process and its
    # imports until here, the shell (NATS connection and streams), the secrets connection and
    # stream, the subscriptions.
    phases: dict[str, float | None] = {"process": process_age_s()}
    mark = time.perf_counter()

    def phase(name: str) -> None:
        nonlocal mark
        now = time.perf_counter()
        phases[name] = round(now - mark, 3)
        mark = now

    async with service_shell("referee", settings, metrics_port) as shell:
        phase("shell")
        # GH_SECRETS lives in its own account on a server with users (services.common.natsauth):
        # the referee reaches it on a second connection; on an open server, on the same one.
        secrets_nc = None
        credential = settings.nats_credential(natsauth.REFEREE_SECRETS)
        if credential is not None:
            assert settings.nats_url is not None
            secrets_nc = await natsio.connect(settings.nats_url, "gamehall-referee-secrets", credential)
        secrets_js = (secrets_nc or shell.nc).jetstream()
        try:
            await natsio.ensure_streams(
                secrets_js, replicas=settings.stream_replicas, streams=natsio.SECRET_STREAMS
            )
            phase("secrets")
            # The matchmaking and tournament keys whose ranked tables become ranked matches, each
            # only for its own signer's tables (a bad entry, or one key for both, stops here).
            trusted = TableTrust.from_entries(settings.trusted_matchmaking_keys, settings.trusted_tournament_keys)
            referee = Referee(
                shell.nc,
                shell.nc.jetstream(),
                partitions=settings.partitions,
                owned=owned,
                secrets_js=secrets_js,
                keys=KeyRing(settings.signing_keys_dir),
                table_check=trusted.check,
            )
            metrics.init_game_series(GAMES)
            await referee.start()

            async def pong(msg: Msg) -> None:
                await msg.respond(b"")

            # Readiness: anyone (the gateway's /readyz) may ask whether a referee answers.
            ping = await shell.nc.subscribe(REFEREE_PING, queue=subjects.REFEREE_QUEUE, cb=pong)
            shell.health.checks["subscriptions"] = referee_subscribed(referee)
            sampler = asyncio.create_task(sample_consumers(shell.nc.jetstream(), secrets_js, stop))
            sweeper = asyncio.create_task(
                sweep_idle_matches(referee, settings.referee.idle_expiry_hours, stop)
            )
            clocks = asyncio.create_task(run_clocks(referee, stop))
            phase("subscribe")
            shell.log.info(
                "referee_started",
                nats=settings.nats_url,
                partitions=owned or "all",
                startup_s=phases,
                matchmaking_keys=trusted.by_signer["matchmaking"].key_ids,
                tournament_keys=trusted.by_signer["tournaments"].key_ids,
            )
            await stop.wait()
            await sampler
            await sweeper
            await clocks
            await ping.unsubscribe()
            await referee.stop()
        finally:
            if secrets_nc is not None:
                await secrets_nc.drain()
