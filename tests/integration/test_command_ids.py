"""Command ids are scoped to (match, seat) and never stand in for a seat token (issue 9,
findings 2 and 3), against a real nats-server and referee."""

from __future__ import annotations

from typing import Any

import pytest

from contracts.envelope import Accepted, Rejected
from contracts.games.kings_corner import DrawCard
from domain.core import match as match_layer
from domain.games import registry
from services.common import commands
from services.referee.core import Referee, dedupe_id
from tests.support.referees import fold_log, stored_envelopes

pytestmark = pytest.mark.integration


async def legal(nc, created: commands.CreatedMatch, seat: str) -> list[Any]:
    state = await fold_log(nc, created.game, created.match_id)
    assert state is not None
    return list(registry.get(created.game).legal_commands(state.game_state, seat))


async def test_forged_token_with_a_known_command_id_is_refused(nc, referee) -> None:
    created = await commands.create_match(nc, "ugolki")
    assert not isinstance(created, Rejected)
    move = (await legal(nc, created, "white"))[0]
    cid = "move-1"
    first = await commands.send(nc, "ugolki", created.match_id, move, "white", created.tokens["white"], cid)
    assert isinstance(first, Accepted) and not first.duplicate
    forged = await commands.send(nc, "ugolki", created.match_id, move, "white", "white.garbage", cid)
    assert isinstance(forged, Rejected) and forged.code == "bad_token"
    assert "move-1" not in forged.detail
    # The same from a referee with an empty memory (the duplicate is found in the reloaded log).
    fresh = Referee(nc, nc.jetstream())
    await fresh.start()
    try:
        again = await commands.send(nc, "ugolki", created.match_id, move, "white", "white.garbage", cid)
        assert isinstance(again, Rejected) and again.code == "bad_token"
    finally:
        await fresh.stop()
    # The real seat still gets its first reply.
    retry = await commands.send(nc, "ugolki", created.match_id, move, "white", created.tokens["white"], cid)
    assert isinstance(retry, Accepted) and retry.duplicate and retry.seq == first.seq


async def test_another_seats_command_id_is_a_new_command_for_this_seat(nc, referee) -> None:
    created = await commands.create_match(nc, "ugolki")
    assert not isinstance(created, Rejected)
    white_move = (await legal(nc, created, "white"))[0]
    first = await commands.send(
        nc, "ugolki", created.match_id, white_move, "white", created.tokens["white"], "1"
    )
    assert isinstance(first, Accepted)
    black_move = (await legal(nc, created, "black"))[0]
    reply = await commands.send(
        nc, "ugolki", created.match_id, black_move, "black", created.tokens["black"], "1"
    )
    assert isinstance(reply, Accepted) and not reply.duplicate and reply.seq == first.seq + 1
    envs = await stored_envelopes(nc, "ugolki", created.match_id)
    assert [(e.seat, e.command_id) for e in envs[1:]] == [("white", "1"), ("black", "1")]
    # A retry of each is answered to its own seat with its own decision.
    again = await commands.send(
        nc, "ugolki", created.match_id, white_move, "white", created.tokens["white"], "1"
    )
    assert isinstance(again, Accepted) and again.duplicate and again.seq == first.seq


def test_the_stream_dedupe_id_names_the_seat() -> None:
    assert dedupe_id("m1", "white", "1") != dedupe_id("m1", "black", "1")
    assert dedupe_id("m1", None, "c") == "m1::c"


async def draw_once(nc, referee: Referee, created: commands.CreatedMatch) -> tuple[str, str, Any, Accepted]:
    """Play Kings in the Corner (legal moves from the referee's own state, which knows the
    stock) until a seat's command draws it cards; that seat, the command id and the reply."""
    decider = registry.get("kings-corner")
    for step in range(80):
        state = referee.matches[created.match_id].state
        assert state is not None and state.outcome is None
        seat = sorted(match_layer.to_move(decider, state))[0]
        options = decider.legal_commands(state.game_state, seat)
        command = next((c for c in options if isinstance(c, DrawCard)), options[0])
        cid = f"c{step}"
        reply = await commands.send(
            nc, "kings-corner", created.match_id, command, seat, created.tokens[seat], cid
        )
        assert isinstance(reply, Accepted), reply
        if any(e["type"] == "kc_cards_drawn.v1" and e["seat"] == seat for e in reply.events):
            return seat, cid, command, reply
    raise AssertionError("no seat drew a card")


async def test_duplicate_reply_shows_only_what_the_asking_seat_may_see(nc, referee) -> None:
    created = await commands.create_match(nc, "kings-corner", seats=2)
    assert not isinstance(created, Rejected), created
    seat, cid, command, first = await draw_once(nc, referee, created)
    drawn = [e for e in first.events if e["type"] == "kc_cards_drawn.v1" and e["seat"] == seat]
    assert drawn and all(c != "??" for c in drawn[0]["cards"]), first.events
    other = next(s for s in created.seats if s != seat)

    # Another seat presenting the drawer's command id with a forged token: refused, no cards.
    forged = await commands.send(nc, "kings-corner", created.match_id, command, seat, f"{seat}.garbage", cid)
    assert isinstance(forged, Rejected) and forged.code == "bad_token"
    # The other seat with its own token and the same id: its own new command, never the drawer's reply.
    theirs = await commands.send(
        nc, "kings-corner", created.match_id, command, other, created.tokens[other], cid
    )
    if isinstance(theirs, Accepted):
        assert not theirs.duplicate and theirs.seq > first.seq
    else:  # judged as its own command (not its turn), never answered from the drawer's decision
        assert theirs.code not in ("bad_token", "") and drawn[0]["cards"][0] not in theirs.detail
    # The drawer's own retry is answered as the first time, with its own cards.
    retry = await commands.send(
        nc, "kings-corner", created.match_id, command, seat, created.tokens[seat], cid
    )
    assert isinstance(retry, Accepted) and retry.duplicate and retry.events == first.events
