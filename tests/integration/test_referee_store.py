"""The event store and the referee against a real nats-server (ARCHITECTURE §6)."""

from __future__ import annotations

import asyncio
import random
import uuid

import pytest

from contracts.codecs import encode
from contracts.envelope import Accepted, CommandEnvelope, Rejected
from contracts.games.ugolki import MovePiece
from domain.core.audit import envelope_hash, genesis_hash
from domain.games import registry
from services.common import commands
from services.common.natsio import connect
from services.referee.core import Referee
from tests.support.natsserver import nats_server
from tests.support.referees import create_direct, fold_log, play_random_moves, stored_envelopes

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def nats_url(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """A nats-server of this module's own: these tests count every reply of the referees they
    start, so no referee or server state left by another module may answer for them."""
    with nats_server(tmp_path_factory.mktemp("nats")) as url:
        yield url


def first_legal(created: commands.CreatedMatch, state, seat: str) -> MovePiece:
    return registry.get("ugolki").legal_commands(state.game_state, seat)[0]


async def test_create_and_move_store_one_envelope_per_decision(nc, referee) -> None:
    created = await commands.create_match(nc, "ugolki")
    assert not isinstance(created, Rejected), created
    state = await fold_log(nc, "ugolki", created.match_id)
    reply = await commands.send(
        nc,
        "ugolki",
        created.match_id,
        first_legal(created, state, "white"),
        seat="white",
        token=created.tokens["white"],
    )
    assert isinstance(reply, Accepted) and reply.seq == 2
    envs = await stored_envelopes(nc, "ugolki", created.match_id)
    assert [e.seq for e in envs] == [1, 2]
    assert envs[0].prev_hash == genesis_hash(created.match_id)


async def test_duplicate_command_id_returns_first_reply_and_stores_nothing(nc, referee) -> None:
    created = await commands.create_match(nc, "ugolki")
    state = await fold_log(nc, "ugolki", created.match_id)
    move = first_legal(created, state, "white")
    cid = uuid.uuid4().hex
    first = await commands.send(nc, "ugolki", created.match_id, move, "white", created.tokens["white"], cid)
    again = await commands.send(nc, "ugolki", created.match_id, move, "white", created.tokens["white"], cid)
    assert isinstance(first, Accepted) and isinstance(again, Accepted)
    assert again.duplicate and not first.duplicate
    assert (again.seq, again.events) == (first.seq, first.events)
    assert len(await stored_envelopes(nc, "ugolki", created.match_id)) == 2
    # A fresh referee (empty memory) still answers the retry from the log.
    other = Referee(nc, nc.jetstream())
    env = CommandEnvelope(
        command_id=cid,
        match_id=created.match_id,
        game="ugolki",
        seat="white",
        token=created.tokens["white"],
        command=move,
    )
    third = await other.handle_bytes("ugolki", created.match_id, encode(env))
    assert isinstance(third, Accepted) and third.duplicate and third.seq == first.seq
    assert len(await stored_envelopes(nc, "ugolki", created.match_id)) == 2


async def test_seat_tokens_act_only_for_their_seat(nc, referee) -> None:
    created = await commands.create_match(nc, "ugolki")
    state = await fold_log(nc, "ugolki", created.match_id)
    move = first_legal(created, state, "white")
    cases = [
        ("white", created.tokens["black"], "bad_token"),
        ("white", "", "bad_token"),
        ("white", "white.forged", "bad_token"),
        ("referee", created.tokens["white"], "not_a_seat"),
        ("black", created.tokens["black"], "not_your_turn"),
    ]
    for seat, token, code in cases:
        reply = await commands.send(nc, "ugolki", created.match_id, move, seat=seat, token=token)
        assert isinstance(reply, Rejected) and reply.code == code, (seat, reply)
    assert len(await stored_envelopes(nc, "ugolki", created.match_id)) == 1


async def test_malformed_bytes_are_rejected_and_nothing_is_stored(nc, referee) -> None:
    created = await commands.create_match(nc, "ugolki")
    for data in (
        b"{",
        b'{"type":"command_envelope.v1"}',
        b'{"command_id":"x","match_id":"'
        + created.match_id.encode()
        + b'","game":"ugolki","command":{"type":"move_piece.v1","path":7}}',
    ):
        reply = await commands.send_raw(nc, "ugolki", created.match_id, data)
        assert isinstance(reply, Rejected) and reply.code == "malformed", reply
    bad_path = MovePiece(path=("z9", "a1"))
    reply = await commands.send(nc, "ugolki", created.match_id, bad_path, "white", created.tokens["white"])
    assert isinstance(reply, Rejected) and reply.code in registry.get("ugolki").rejection_codes
    assert len(await stored_envelopes(nc, "ugolki", created.match_id)) == 1


async def test_two_referees_racing_store_one_decision_per_round(nats_url: str) -> None:
    """Both referees hold the match in memory; each gets a different move for the same turn:
    exactly one decision is stored per round and the loser re-decides (and is refused)."""
    conns = [await connect(nats_url, f"race-{i}") for i in range(2)]
    try:
        refs = [Referee(c, c.jetstream()) for c in conns]
        mid, tokens = await create_direct(refs[0], "ugolki")
        decider = registry.get("ugolki")
        for r in range(6):
            for ref in refs:  # both warm: each has the current state cached
                await ref._live("ugolki", mid)
            state = await fold_log(conns[0], "ugolki", mid)
            seat = next(iter(decider.to_move(state.game_state)))
            legal = decider.legal_commands(state.game_state, seat)
            envs = [
                CommandEnvelope(
                    command_id=f"r{r}-{i}",
                    match_id=mid,
                    game="ugolki",
                    seat=seat,
                    token=tokens[seat],
                    command=move,
                )
                for i, move in enumerate((legal[0], legal[-1]))
            ]
            replies = await asyncio.gather(
                *(ref.handle_bytes("ugolki", mid, encode(e)) for ref, e in zip(refs, envs, strict=True))
            )
            accepted = [rep for rep in replies if isinstance(rep, Accepted)]
            rejected = [rep for rep in replies if isinstance(rep, Rejected)]
            assert len(accepted) == 1, replies
            assert len(rejected) == 1 and rejected[0].code == "not_your_turn", replies
            stored = await stored_envelopes(conns[0], "ugolki", mid)
            assert [e.seq for e in stored] == list(range(1, r + 3))
    finally:
        for c in conns:
            await c.close()


async def test_hash_chain_links_every_envelope(nc, referee) -> None:
    created = await commands.create_match(nc, "ugolki")
    await play_random_moves(nc, created, 6, random.Random(3))
    from contracts import subjects
    from services.common.natsio import EventStore

    stored = await EventStore(nc.jetstream()).load(subjects.match_subject("ugolki", created.match_id))
    envs = await stored_envelopes(nc, "ugolki", created.match_id)
    expected = genesis_hash(created.match_id)
    for item, env in zip(stored, envs, strict=True):
        assert env.prev_hash == expected
        expected = envelope_hash(item.data)


async def test_a_finished_match_leaves_memory_and_a_late_retry_gets_the_first_reply(nc, referee) -> None:
    created = await commands.create_match(nc, "ugolki")
    decider = registry.get("ugolki")
    rng = random.Random(21)
    last: tuple[str, str, MovePiece] | None = None
    first_reply = None
    while True:
        state = await fold_log(nc, "ugolki", created.match_id)
        if state.outcome is not None:
            break
        seat = decider.to_move(state.game_state)
        seat = next(iter(seat))
        legal = decider.legal_commands(state.game_state, seat)
        move = legal[rng.randrange(len(legal))]
        cid = uuid.uuid4().hex
        first_reply = await commands.send(
            nc, "ugolki", created.match_id, move, seat, created.tokens[seat], cid
        )
        assert isinstance(first_reply, Accepted), first_reply
        last = (seat, cid, move)
    assert first_reply.finished
    assert created.match_id not in referee.matches
    seat, cid, move = last
    again = await commands.send(nc, "ugolki", created.match_id, move, seat, created.tokens[seat], cid)
    assert isinstance(again, Accepted) and again.duplicate and again.seq == first_reply.seq
    late = await commands.send(nc, "ugolki", created.match_id, move, seat, created.tokens[seat])
    assert isinstance(late, Rejected) and late.code == "match_over"
