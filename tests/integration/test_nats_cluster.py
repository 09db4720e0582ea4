"""gamehall on a three-node JetStream cluster (issue 16): streams with 3 replicas; killing the
meta leader, then the match stream's leader, under load loses no acknowledged decision and play
goes on."""

from __future__ import annotations

import asyncio
import random
import uuid
from pathlib import Path

import pytest

from contracts import subjects
from contracts.envelope import Accepted, Rejected
from domain.core import match as match_layer
from domain.games import registry
from services.common import commands
from services.common.natsio import connect, ensure_streams
from services.referee.core import Referee
from tests.support.natscluster import Cluster
from tests.support.referees import fold_log, stored_envelopes

pytestmark = pytest.mark.integration

MATCHES = 6
RETRYABLE = {"timeout", "unavailable", "busy"}


async def play(nc, match_id: str, tokens: dict[str, str], moves: int, rng: random.Random, acked: list) -> None:
    decider = registry.get("ugolki")
    for _ in range(moves):
        for _try in range(20):
            try:
                state = await fold_log(nc, "ugolki", match_id)
                break
            except Exception:  # noqa: BLE001 - reads fail while the stream elects a leader
                await asyncio.sleep(0.25)
        assert state is not None
        movers = match_layer.to_move(decider, state)
        if not movers:
            return
        seat = movers[0]
        legal = decider.legal_commands(state.game_state, seat)
        command = legal[rng.randrange(len(legal))]
        command_id = uuid.uuid4().hex
        for _attempt in range(20):  # the same command id on every retry: idempotent
            reply = await commands.send(
                nc, "ugolki", match_id, command, seat=seat, token=tokens[seat], command_id=command_id, timeout=3.0
            )
            if not (isinstance(reply, Rejected) and reply.code in RETRYABLE):
                break
            await asyncio.sleep(0.2)
        assert isinstance(reply, Accepted), reply
        acked.append((match_id, reply.seq, seat, command_id))


async def stream_leader(js, timeout: float = 30.0) -> str:
    """The match stream's leader, once the cluster has one (it may be electing right now)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        try:
            info = await js.stream_info(subjects.MATCH_STREAM)
            if info.cluster is not None and info.cluster.leader:
                return str(info.cluster.leader)
        except Exception:  # noqa: BLE001 - the API times out while leaders are elected
            if asyncio.get_running_loop().time() > deadline:
                raise
        await asyncio.sleep(0.2)


async def test_play_continues_when_cluster_leaders_are_killed(tmp_path: Path) -> None:
    cluster = Cluster(tmp_path / "cluster").start()
    client = ref_nc = None
    try:
        client = await connect(cluster.urls, "players")
        js = client.jetstream()
        await ensure_streams(js, replicas=3)
        info = await js.stream_info(subjects.MATCH_STREAM)
        assert info.config.num_replicas == 3 and info.cluster is not None and len(info.cluster.replicas or []) == 2
        ref_nc = await connect(cluster.urls, "referee")
        referee = Referee(ref_nc, ref_nc.jetstream())
        await referee.start()
        matches = []
        for _ in range(MATCHES):
            for _try in range(50):  # the referee's interest reaches the other nodes over routes
                created = await commands.create_match(client, "ugolki")
                if not (isinstance(created, Rejected) and created.code in RETRYABLE):
                    break
                await asyncio.sleep(0.1)
            assert not isinstance(created, Rejected), created
            matches.append(created)
        rng = random.Random(3)
        acked: list = []

        async def load(moves: int) -> None:
            await asyncio.gather(
                *(play(client, m.match_id, m.tokens, moves, random.Random(rng.random()), acked) for m in matches)
            )

        await load(3)
        # 1. the meta leader dies under load
        running = asyncio.create_task(load(6))
        await asyncio.sleep(0.3)
        leader = await asyncio.to_thread(cluster.wait_for_meta_leader)
        await asyncio.to_thread(cluster.kill, leader)
        await running
        await asyncio.to_thread(cluster.start_node, leader)
        await asyncio.to_thread(cluster.wait_for_meta_leader)
        # 2. the match stream's leader dies under load
        doomed = cluster.node(await stream_leader(js))
        running = asyncio.create_task(load(6))
        await asyncio.sleep(0.3)
        await asyncio.to_thread(cluster.kill, doomed)
        await running
        await load(2)

        assert len(acked) >= MATCHES * 12
        for m in matches:
            envs = await stored_envelopes(client, "ugolki", m.match_id)
            assert [e.seq for e in envs] == list(range(1, len(envs) + 1))
            stored = {(e.seq, e.seat, e.command_id) for e in envs}
            assert len(stored) == len(envs)
            lost = [a for a in acked if a[0] == m.match_id and (a[1], a[2], a[3]) not in stored]
            assert lost == [], f"acknowledged decisions missing from the log: {lost}"
        await referee.stop()
    finally:
        for nc in (ref_nc, client):
            if nc is not None:
                await nc.close()
        cluster.stop()
