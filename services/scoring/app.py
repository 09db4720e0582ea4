"""Scoring service: MatchFinished -> match history, ratings and RatingApplied; dispute rulings
(the disputes stream) -> recomputed ratings and RatingsRevised.  The two projections share one
lock, so their batches commit one at a time.  A third projection, of the match stream, keeps
the list of every stored match (``services/common/matchlist.py``) that the gateway pages
through; it writes only its own table.  Given a ``check`` (``gamehall serve scoring`` and
``gamehall up`` give it the standing check of derived data, ``services/cli/derived.py``), it
runs it beside the projections: every ``GAMEHALL_DOCTOR_EVERY_S`` a sample of the read models
compared with a rebuild from the log, in a thread of its own.

Run alone with ``run(settings, stop)``; ``/metrics`` on its own port.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import nats.errors
from sqlalchemy import Engine

from contracts import subjects
from domain.seasons import LEAD_MS
from services.common import logs
from services.common.matchlist import MatchList
from services.common.natsio import EventStore
from services.common.projection import Projection, ProjectionOptions
from services.common.settings import Settings
from services.common.shell import service_shell
from services.common.shutdown import run_until_stopped
from services.scoring import config as scoring_config
from services.scoring import logic, outbox

SERVICE = "scoring"


class Check(Protocol):
    async def run(self, stop: asyncio.Event) -> None: ...


CheckFactory = Callable[[Settings, Engine, Any], Check]
"""(settings, database, scoring config) -> a check that runs until ``stop``."""


async def run(
    settings: Settings,
    stop: asyncio.Event,
    options: ProjectionOptions | None = None,
    metrics_port: int | None = 0,
    check: CheckFactory | None = None,
) -> None:
    # Bounded from the start: a scoring told to stop while it still connects to NATS (its
    # nats-server died with the `gamehall up` that started both) would otherwise retry the
    # connection for ever; one stopped with a batch waiting for outbox acks from a dead
    # nats-server would wait 30 s for them (services/common/shutdown.py).
    await run_until_stopped(_run(settings, stop, options, metrics_port, check), stop)


async def _run(
    settings: Settings,
    stop: asyncio.Event,
    options: ProjectionOptions | None,
    metrics_port: int | None,
    check: CheckFactory | None = None,
) -> None:
    async with service_shell(SERVICE, settings, metrics_port, database=True) as shell:
        js, engine = shell.nc.jetstream(), shell.engine
        assert engine is not None
        cfg = scoring_config.load(settings.scoring)
        lock = asyncio.Lock()
        matches = Projection(
            js,
            engine,
            subjects.SCORING_CONSUMER,
            subjects.MATCH_FINISHED,
            logic.make_apply(cfg),
            after_commit=lambda: _flush(js, engine),
            options=options,
            prefetch=logic.make_prefetch(cfg),
            lock=lock,
            prepare=lambda _batch: _seasons(js, cfg),
        )
        rulings = Projection(
            js,
            engine,
            subjects.RULINGS_CONSUMER,
            subjects.DISPUTE_SUBJECTS,
            logic.make_ruling_apply(cfg),
            after_commit=lambda: _flush(js, engine),
            stream=subjects.DISPUTE_STREAM,
            lock=lock,
        )
        listed = MatchList(EventStore(js)).projection(js, engine)
        runs: list[Awaitable[None]] = [matches.run(stop), rulings.run(stop), listed.run(stop)]
        if check is not None:
            runs.append(check(settings, engine, cfg).run(stop))  # the standing check of derived data
        await asyncio.gather(*runs)


log = logs.get("scoring")

# A season starts and ends at least domain.seasons.LEAD_MS (10 s) after the command that says
# so is stored (1 s at the least), so a fold read within the last half second is as good as a fresh
# one for rating a batch; and while NATS does not answer, one read within half that lead is.
SEASONS_FRESH_S = 0.5
SEASONS_GOOD_FOR_S = LEAD_MS / 2000


async def _seasons(js: Any, cfg: scoring_config.ScoringConfig) -> None:
    """The seasons opened and closed since the last batch (before the batch is rated)."""
    while True:
        try:
            await cfg.seasons.refresh(js, max_age_s=SEASONS_FRESH_S)
            return
        except (nats.errors.Error, TimeoutError) as exc:
            if time.monotonic() - cfg.seasons.read_at < SEASONS_GOOD_FOR_S:
                return
            log.warning("seasons_unread", error=repr(exc))
            await asyncio.sleep(0.5)


async def _flush(js: object, engine: object) -> None:
    await outbox.flush(js, engine)  # type: ignore[arg-type]
