"""Helpers for integration tests that drive referees over a real nats-server."""

from __future__ import annotations

import random
import uuid
from typing import Any

from nats.aio.client import Client

from contracts import subjects
from contracts.codecs import codec
from contracts.envelope import Accepted
from domain.core import match as match_layer
from domain.games import registry
from services.common import commands
from services.common.natsio import EventStore


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
