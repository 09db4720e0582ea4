"""Fault tests: a referee killed mid-match, a nats-server killed and restarted."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import uuid
from pathlib import Path

import pytest

from contracts.envelope import Accepted, Rejected
from domain.core import match as match_layer
from domain.games import registry
from services.common import commands
from services.common.embedded import EmbeddedNats
from services.common.natsio import connect, ensure_streams
from services.common.processes import gamehall_args, spawn
from services.referee.core import Referee
from tests.support.referees import fold_log, stored_envelopes

pytestmark = pytest.mark.integration
ROOT = Path(__file__).resolve().parents[2]


def start_referee(nats_url: str, data_dir: Path) -> subprocess.Popen[bytes]:
    env = dict(os.environ, NATS_URL=nats_url, GAMEHALL_DATA_DIR=str(data_dir), GAMEHALL_LOG_FORMAT="json")
    return spawn(gamehall_args("serve", "referee"), env)


async def send_until_accepted(nc, created, seat, command, command_id: str, attempts: int = 100) -> Accepted:
    """A client that retries with the same command id until a referee answers."""
    for _ in range(attempts):
        reply = await commands.send(
            nc,
            created.game,
            created.match_id,
            command,
            seat=seat,
            token=created.tokens[seat],
            command_id=command_id,
            timeout=2.0,
        )
        if isinstance(reply, Accepted):
            return reply
        assert reply.code in ("unavailable", "timeout"), reply
        await asyncio.sleep(0.1)
    raise AssertionError("no referee answered")


async def next_move(nc, created, rng):
    decider = registry.get(created.game)
    state = await fold_log(nc, created.game, created.match_id)
    movers = match_layer.to_move(decider, state)
    if not movers:
        return None, None
    legal = decider.legal_commands(state.game_state, movers[0])
    return movers[0], legal[rng.randrange(len(legal))]


async def test_referee_killed_mid_match_continues_without_loss_or_duplicates(
    nats_url: str, tmp_path: Path
) -> None:
    proc = start_referee(nats_url, tmp_path)
    nc = await connect(nats_url, "client")
    rng = random.Random(7)
    try:
        created = None
        for _ in range(100):
            created = await commands.create_match(nc, "ugolki")
            if not isinstance(created, Rejected):
                break
            await asyncio.sleep(0.1)
        assert created is not None and not isinstance(created, Rejected), created
        accepted_seqs = []
        for i in range(16):
            if i == 6:
                # Kill mid-match while a command is in flight.
                seat, move = await next_move(nc, created, rng)
                cid = uuid.uuid4().hex
                inflight = asyncio.create_task(send_until_accepted(nc, created, seat, move, cid))
                proc.send_signal(signal.SIGKILL)
                proc.wait()
                proc = start_referee(nats_url, tmp_path)
                reply = await inflight
                accepted_seqs.append(reply.seq)
                continue
            seat, move = await next_move(nc, created, rng)
            if seat is None:
                break
            reply = await send_until_accepted(nc, created, seat, move, uuid.uuid4().hex)
            accepted_seqs.append(reply.seq)
        envs = await stored_envelopes(nc, "ugolki", created.match_id)
        assert [e.seq for e in envs] == list(range(1, len(envs) + 1))
        assert len({e.command_id for e in envs}) == len(envs), "a command was stored twice"
        assert sorted(accepted_seqs) == [e.seq for e in envs[1:]]
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        await nc.close()


async def test_restarted_nats_server_loses_no_acknowledged_event(tmp_path: Path) -> None:
    server = EmbeddedNats(tmp_path / "store").start()
    nc = await connect(server.url, "client")
    await ensure_streams(nc.jetstream())
    referee = Referee(nc, nc.jetstream())
    await referee.start()
    rng = random.Random(11)
    try:
        created = await commands.create_match(nc, "ugolki")
        assert not isinstance(created, Rejected)
        acked = [1]
        for _ in range(8):
            seat, move = await next_move(nc, created, rng)
            reply = await send_until_accepted(nc, created, seat, move, uuid.uuid4().hex)
            acked.append(reply.seq)
        server.kill()  # SIGKILL: no graceful flush
        server = EmbeddedNats(tmp_path / "store", port=server.port).start()
        for _ in range(100):
            if nc.is_connected:
                break
            await asyncio.sleep(0.1)
        await ensure_streams(nc.jetstream())
        envs = await stored_envelopes(nc, "ugolki", created.match_id)
        assert [e.seq for e in envs] == acked
        # ...and the match goes on.
        seat, move = await next_move(nc, created, rng)
        reply = await send_until_accepted(nc, created, seat, move, uuid.uuid4().hex)
        assert reply.seq == acked[-1] + 1
    finally:
        await referee.stop()
        await nc.close()
        server.stop()
