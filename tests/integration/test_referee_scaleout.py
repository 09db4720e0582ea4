"""Referees scale out without false rejections (issue 16): starting, stopping and killing
referees under load gives 0 false rejections and 0 lost or duplicated decisions.

Every referee subscribes to every partition (the default), so consecutive commands of one match
land on different referees and each referee's memory of a match is often stale.  A rejection
never appends, so no append conflict tells a stale referee that it is behind: it must check the
log before it refuses a command."""

from __future__ import annotations

import asyncio
import random
import uuid

import pytest

from contracts.envelope import Rejected
from domain.core import match as match_layer
from domain.games import registry
from services.common import commands
from services.common.natsio import connect, ensure_streams
from services.referee.core import Referee
from tests.support.natsserver import nats_server
from tests.support.referees import fold_log, stored_envelopes

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def nats_url(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """A nats-server of this module's own: these tests count every reply of the referees they
    start, so no referee or server state left by another module may answer for them."""
    with nats_server(tmp_path_factory.mktemp("nats")) as url:
        yield url

MATCHES = 8
MOVES_PER_PHASE = 4  # per match


class Pool:
    """Referees, each on its own NATS connection, started and stopped under load."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.running: list[tuple[Referee, object]] = []

    async def start_one(self) -> None:
        nc = await connect(self.url, f"referee-{len(self.running)}")
        ref = Referee(nc, nc.jetstream())
        await ref.start()
        self.running.append((ref, nc))

    async def stop_one(self) -> None:
        ref, nc = self.running.pop(0)
        await ref.stop()
        await nc.drain()  # type: ignore[attr-defined]

    async def kill_one(self) -> None:
        """Gone without unsubscribing or answering what it holds (its connection just closes)."""
        _ref, nc = self.running.pop()
        await nc.close()  # type: ignore[attr-defined]


async def play(nc, match_id: str, tokens: dict[str, str], moves: int, rng: random.Random, tally: dict) -> None:
    decider = registry.get("ugolki")
    for _ in range(moves):
        state = await fold_log(nc, "ugolki", match_id)
        assert state is not None
        movers = match_layer.to_move(decider, state)
        if not movers:
            return
        seat = movers[0]
        legal = decider.legal_commands(state.game_state, seat)
        command = legal[rng.randrange(len(legal))]
        command_id = uuid.uuid4().hex
        for _attempt in range(6):  # a killed referee's requests time out: retry with the same id
            reply = await commands.send(
                nc, "ugolki", match_id, command, seat=seat, token=tokens[seat], command_id=command_id, timeout=2.0
            )
            if not (isinstance(reply, Rejected) and reply.code in {"timeout", "no_referee"}):
                break
        if isinstance(reply, Rejected):
            tally["false_rejections"].append((match_id, reply.code, reply.detail))
            return
        tally["accepted"][match_id] = tally["accepted"].get(match_id, 0) + 1


async def test_one_two_three_two_referees_under_load(nats_url: str) -> None:
    client = await connect(nats_url, "players")
    await ensure_streams(client.jetstream())
    pool = Pool(nats_url)
    await pool.start_one()
    rng = random.Random(16)
    tally: dict = {"accepted": {}, "false_rejections": []}
    matches = []
    for _ in range(MATCHES):
        created = await commands.create_match(client, "ugolki")
        assert not isinstance(created, Rejected), created
        matches.append(created)

    async def phase() -> None:
        await asyncio.gather(
            *(play(client, m.match_id, m.tokens, MOVES_PER_PHASE, random.Random(rng.random()), tally) for m in matches)
        )

    try:
        await phase()  # 1 referee
        await pool.start_one()
        await phase()  # 2
        await pool.start_one()
        await phase()  # 3
        load = asyncio.create_task(phase())
        await asyncio.sleep(0.05)
        await pool.kill_one()  # 2, one of them gone mid-load
        await load
        await pool.stop_one()
        await pool.start_one()
        await phase()  # 2 again, one of them new
        assert tally["false_rejections"] == [], tally["false_rejections"][:5]
        for m in matches:
            envs = await stored_envelopes(client, "ugolki", m.match_id)
            assert [e.seq for e in envs] == list(range(1, len(envs) + 1))
            ids = [(e.seat, e.command_id) for e in envs]
            assert len(ids) == len(set(ids)), "a decision was stored twice"
            # every accepted move is stored exactly once (envelope 1 is the creation)
            assert len(envs) - 1 == tally["accepted"].get(m.match_id, 0)
        assert sum(tally["accepted"].values()) >= MATCHES * MOVES_PER_PHASE * 4
    finally:
        while pool.running:
            await pool.stop_one()
        await client.close()
