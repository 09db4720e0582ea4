"""Clocks, deadlines and idle time as the match layer folds them from the decisions' stamps
(docs/audit.md "Clocks", docs/architecture.md "Abandonment")."""

from __future__ import annotations

import msgspec

from contracts.envelope import EventEnvelope, Rejected
from contracts.match import OfferDraw, TimeControl
from domain.core import match as match_layer
from domain.core.matchlog import Folded, fold_decision, fold_envelopes
from domain.games import registry
from tests.unit.test_clocks import T0, UGOLKI, Match, create

KC = registry.get("kings-corner")


def test_idle_time_keeps_growing_over_decisions_the_seat_did_not_send() -> None:
    """A seat is abandoned when it has been to move for grace_s in all without a command of its
    own: the others' decisions in between do not reset its idle time."""
    m = Match(KC, tc=TimeControl(move_s=60, grace_s=10, on_timeout="forfeit"), seats=3)
    assert match_layer.to_move(KC, m.state) == ("p1", "p2", "p3")  # every seat is to say Ready
    for seat, at in (("p1", T0 + 1_000), ("p3", T0 + 3_000)):
        ready = KC.legal_commands(m.state.game_state, seat)[0]
        assert not isinstance(m.decide(seat, ready, at), Rejected)
    # p2 has been to move since T0, through two decisions of the others.
    assert m.state.clock is not None and m.state.clock.idle_ms == (0, 3_000, 0)
    assert match_layer.abandon_deadline(m.state, "p2") == T0 + 10_000


def test_deadlines_are_each_running_seats_since_plus_remaining() -> None:
    m = Match(tc=TimeControl(base_s=60))
    assert match_layer.deadlines(m.state) == {"white": T0 + 60_000}
    m.play(T0 + 10_000)
    assert match_layer.deadlines(m.state) == {"black": T0 + 10_000 + 60_000}


def test_the_view_shows_each_seats_time_left() -> None:
    """Every view carries clock {time_control, since, running, remaining_ms, deadlines}."""
    m = Match(tc=TimeControl(base_s=60))
    m.play(T0 + 10_000)
    view = match_layer.view(UGOLKI, m.state, None, "m", m.folded.seq)
    assert view.clock is not None and view.clock.remaining_ms == (50_000, 60_000)


def test_a_timed_match_folded_without_stamps_has_no_clock() -> None:
    """Clocks are computed from the stamps only: a fold without them (``at`` None) keeps none, and
    nothing is due."""
    folded = Folded()
    decided = match_layer.decide(UGOLKI, None, None, create(tc=TimeControl(base_s=60, grace_s=5)))
    assert isinstance(decided, tuple)
    folded = fold_decision(UGOLKI, folded, 1, decided)
    state = folded.state
    assert state is not None and state.created.time_control is not None and state.clock is None
    assert match_layer.deadline(state, "white") is None
    assert match_layer.abandon_deadline(state, "white") is None
    assert match_layer.view(UGOLKI, state, None, "m", 1).clock is None


def test_folding_envelopes_runs_the_clocks_from_their_recorded_at() -> None:
    """The one fold of the stored log (referee, gateway, audit) reads each envelope's stamp."""
    m = Match(tc=TimeControl(base_s=60))
    decided = match_layer.decide(UGOLKI, None, None, create(tc=TimeControl(base_s=60)))
    assert isinstance(decided, tuple)
    envelope = EventEnvelope(
        match_id="m",
        game="ugolki",
        rules_version=UGOLKI.rules_version,
        seq=1,
        command_id="c1",
        correlation_id="c1",
        recorded_at=T0,
        prev_hash="0" * 64,
        events=decided,
    )
    state = fold_envelopes(UGOLKI, [envelope]).state
    assert state is not None and state.clock == m.state.clock
    assert state.clock is not None and state.clock.since == T0
    # Black's draw offer, then white's move: the envelope's seat is who sent it, and white's own
    # move makes white idle no more.
    offer = match_layer.decide(UGOLKI, state, "black", OfferDraw())
    move = UGOLKI.legal_commands(state.game_state, "white")[0]
    assert not isinstance(m.decide("black", OfferDraw(), T0 + 1_000), Rejected)
    assert isinstance(offer, tuple)
    second = msgspec.structs.replace(envelope, seq=2, recorded_at=T0 + 1_000, seat="black", events=offer)
    after_offer = fold_envelopes(UGOLKI, [envelope, second]).state
    assert after_offer is not None
    moved = match_layer.decide(UGOLKI, after_offer, "white", move)
    assert isinstance(moved, tuple) and not isinstance(m.decide("white", move, T0 + 3_000), Rejected)
    third = msgspec.structs.replace(envelope, seq=3, recorded_at=T0 + 3_000, seat="white", events=moved)
    folded = fold_envelopes(UGOLKI, [envelope, second, third]).state
    assert folded is not None and folded.clock == m.state.clock
    assert folded.clock is not None and folded.clock.idle_ms == (0, 0)


def test_a_late_move_is_refused_naming_the_deadline_and_the_time_it_came() -> None:
    m = Match(tc=TimeControl(base_s=2))
    move = UGOLKI.legal_commands(m.state.game_state, "white")[0]
    late = m.decide("white", move, T0 + 2_500)
    assert late == Rejected(
        code="out_of_time", detail=f"white's time ran out at {T0 + 2_000}; the move came at {T0 + 2_500}"
    )
