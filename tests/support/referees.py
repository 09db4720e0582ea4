"""Helpers for integration tests that drive referees over a real nats-server."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from nats.aio.client import Client

from contracts import subjects
from contracts.audit import AuditBundle, StoredEnvelope
from contracts.codecs import codec
from contracts.envelope import Accepted
from contracts.match import MatchEnded
from domain.core import match as match_layer
from domain.core.audit import envelope_hash
from domain.games import registry
from services.common import commands
from services.common.embedded import EmbeddedNats
from services.common.natsio import EventStore, connect, ensure_streams
from services.referee.app import run_clocks
from services.referee.core import Referee
from tests.support import tables


async def stored_envelopes(nc: Client, game: str, match_id: str) -> list[Any]:
    store = EventStore(nc.jetstream())
    stored = await store.load(subjects.match_subject(game, match_id))
    return [codec(game).decode_envelope(s.data) for s in stored]


async def fold_log(nc: Client, game: str, match_id: str) -> match_layer.MatchState | None:
    decider = registry.get(game)
    state = None
    for env in await stored_envelopes(nc, game, match_id):
        for event in env.events:
            state = match_layer.evolve(decider, state, event, None)
    return state


async def play_random_moves(
    nc: Client, created: commands.CreatedMatch, n: int, rng: random.Random
) -> list[str]:
    """Play up to n legal moves (chosen from a fold of the log); returns the command ids used."""
    used = []
    decider = registry.get(created.game)
    for _ in range(n):
        state = await fold_log(nc, created.game, created.match_id)
        assert state is not None
        movers = match_layer.to_move(decider, state)
        if not movers:
            break
        seat = movers[0]
        legal = decider.legal_commands(state.game_state, seat)
        command_id = uuid.uuid4().hex
        reply = await commands.send(
            nc,
            created.game,
            created.match_id,
            legal[rng.randrange(len(legal))],
            seat=seat,
            token=created.tokens[seat],
            command_id=command_id,
        )
        assert isinstance(reply, Accepted), reply
        used.append(command_id)
    return used


async def create_direct(referee: Any, game: str, preset: str | None = None) -> tuple[str, dict[str, str]]:
    """Create a match by handing the command straight to a referee object (no subscription needed)."""
    import msgspec

    from contracts.codecs import encode
    from contracts.envelope import CommandEnvelope
    from contracts.match import CreateMatch
    from services.common.commands import token_hash

    decider = registry.get(game)
    preset = preset or decider.default_preset
    ruleset = match_layer.resolve_ruleset(decider, preset, {})
    seats = decider.seat_names(match_layer.default_seats_of(decider, preset))
    tokens = {s: commands.new_token(s) for s in seats}
    match_id = uuid.uuid4().hex[:16]
    env = CommandEnvelope(
        command_id="create",
        match_id=match_id,
        game=game,
        command=CreateMatch(
            preset=preset,
            ruleset=msgspec.to_builtins(ruleset),
            seats=seats,
            players=seats,
            token_hashes=tuple(token_hash(tokens[s]) for s in seats),
        ),
    )
    reply = await referee.handle_bytes(game, match_id, encode(env))
    assert isinstance(reply, Accepted), reply
    return match_id, tokens


async def one_move(nc: Client, created: commands.CreatedMatch) -> None:
    """White plays its first legal move in an Ugolki match."""
    state = await fold_log(nc, "ugolki", created.match_id)
    assert state is not None
    move = registry.get("ugolki").legal_commands(state.game_state, "white")[0]
    reply = await commands.send(nc, "ugolki", created.match_id, move, "white", created.tokens["white"])
    assert isinstance(reply, Accepted)


async def bundle_of(nc: Client, match_id: str, game: str = "ugolki") -> AuditBundle:
    """The audit bundle of a match as stored."""
    stored = await EventStore(nc.jetstream()).load(subjects.match_subject(game, match_id))
    return AuditBundle(
        match_id=match_id,
        game=game,
        rules_version=codec(game).decode_envelope(stored[0].data).rules_version,
        exported_at=int(time.time() * 1000),
        head_hash=envelope_hash(stored[-1].data),
        envelopes=tuple(StoredEnvelope(stream_seq=s.stream_seq, data=s.data.decode()) for s in stored),
    )


async def envelopes_until_ended(nc: Client, game: str, match_id: str, polls: int) -> list[Any]:
    """The stored envelopes once the match has ended, or after ``polls`` polls 0.1 s apart."""
    envs = await stored_envelopes(nc, game, match_id)
    for _ in range(polls):
        await asyncio.sleep(0.1)
        envs = await stored_envelopes(nc, game, match_id)
        if any(isinstance(e, MatchEnded) for e in envs[-1].events):
            break
    return envs


@contextlib.asynccontextmanager
async def clocked_referee(nc: Client) -> AsyncIterator[Referee]:
    """A started referee with its timer running (``run_clocks``), stopped on the way out; it trusts
    the tests' matchmaking key (``tests.support.tables``), so ranked matches can be made for it."""
    referee = Referee(nc, nc.jetstream(), table_check=tables.trusted().check)
    await referee.start()
    stop = asyncio.Event()
    timer = asyncio.create_task(run_clocks(referee, stop))
    try:
        yield referee
    finally:
        stop.set()
        await timer
        await referee.stop()


@contextlib.asynccontextmanager
async def own_nats(store: Path) -> AsyncIterator[Client]:
    """A connection (streams ensured) to an embedded nats-server of the test's own, which the test
    may leave without a referee (a restart) and whose every match is the test's."""
    server = EmbeddedNats(store).start()
    nc = await connect(server.url, "test")
    try:
        await ensure_streams(nc.jetstream())
        yield nc
    finally:
        await nc.close()
        server.stop()
