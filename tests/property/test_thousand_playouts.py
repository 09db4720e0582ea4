"""1000 on random playouts of every preset: the invariants of thousand-and-farkle-flip.md §2.21.6,
no leak of hands, talon or passed cards (§2.21.5), fold = incremental state, and a seat's
redacted events fold into a state with the same view and legal commands."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from contracts.envelope import Rejected
from contracts.games.thousand import (
    CardPlayed,
    CardsGiven,
    ContractSet,
    DealDealt,
    DealScored,
    DeclarerChosen,
    TalonTaken,
    TrickTaken,
)
from domain.games.thousand import GAME
from domain.games.thousand.deal import verify_chance
from domain.games.thousand.legal import cap
from domain.games.thousand.rules import PRESETS, card_points
from domain.games.thousand.view import redact, unseen, view
from tests.support.redaction import strings

DECISIONS = 400


def _decide(state: Any, seat: str, cmd: Any) -> tuple[Any, ...]:
    events = GAME.decide(state, seat, cmd)
    assert not isinstance(events, Rejected), (cmd, events)
    return events


def run(preset: str, seed: int, server_seed: bytes) -> None:  # noqa: C901 - one check per invariant
    rules = PRESETS[preset]
    seats = GAME.seat_names(rules.players())
    state = GAME.initial_state(rules, seats, server_seed)
    folds: dict[str, Any] = {s: GAME.initial_state(rules, seats, None) for s in seats}
    r = random.Random(seed)
    log: list[Any] = []
    trick_points = 0
    cap7: dict[str, int] = {}
    trump_changes = 0
    last_winner: str | None = None
    for _ in range(DECISIONS):
        if GAME.outcome(state) is not None:
            break
        seat = r.choice(sorted(GAME.to_move(state)))
        cmd = r.choice(GAME.legal_commands(state, seat))
        events = _decide(state, seat, cmd)
        for e in events:
            prev = state
            state = GAME.evolve(state, e)
            log.append(e)
            if isinstance(e, DealDealt):
                trick_points, trump_changes, last_winner = 0, 0, None
                assert all(len(h) == 7 for i, h in enumerate(e.hands) if seats[i] != e.sitout)
                assert len(e.talon) == 3
                cap7 = {s: cap(rules, h) for s, h in zip(seats, e.hands, strict=True)}
            if isinstance(e, DeclarerChosen) and e.how == "auction" and e.voluntary:
                assert e.bid <= cap7[e.seat] or e.bid == rules.required()  # §2.21.6 cap on 7 cards
            if isinstance(e, TalonTaken):
                assert len(state.hands[seats.index(e.declarer)]) == 10
            if isinstance(e, CardsGiven):
                assert sorted(len(state.hands[i]) for i in state.active()) == [8, 8, 8]
            if isinstance(e, ContractSet) and e.amount > prev.bid:
                assert e.amount <= cap(rules, prev.hands[prev.declarer])
                assert rules.max_contract is None or e.amount <= rules.max_contract
            if isinstance(e, CardPlayed):
                if not prev.trick and last_winner is not None:
                    assert e.seat == last_winner  # the winner of trick k leads trick k+1
                if e.trump != prev.trump:
                    assert e.announce != "none" and not prev.trick
                    trump_changes += 1
                    assert trump_changes <= 5
            if isinstance(e, TrickTaken):
                assert len(e.cards) == 3 and len({c for c in e.cards}) == 3
                trick_points += e.points
                last_winner = e.winner
                assert e.points == sum(card_points(c) for c in e.cards)
            if isinstance(e, DealScored):
                if e.result != "written_off":
                    assert trick_points == 120  # §2.21.6
                    assert all(len(prev.hands[i]) == 0 for i in prev.active())  # 7 -> 10 -> 8 -> 0
                if not e.match_over:
                    assert all(x.score % 5 == 0 for x in e.seats), e
        # no leak: every string a seat is shown of this decision and of its view (§2.21.5)
        for viewer in (*seats, None):
            hidden = unseen(state, viewer)
            seen = strings(view(state, viewer))
            for e in events:
                red = redact(e, viewer)
                if red is not None:
                    seen |= strings(red)
            leak = seen & hidden
            assert not leak, f"{viewer} sees {sorted(leak)} in phase {state.phase}"
        # a seat's information state
        for s in seats:
            for e in events:
                red = redact(e, s)
                if red is not None:
                    folds[s] = GAME.evolve(folds[s], red)
            assert view(folds[s], s) == view(state, s)
            assert GAME.legal_commands(folds[s], s) == GAME.legal_commands(state, s)
    folded = GAME.initial_state(rules, seats, server_seed)
    for e in log:
        folded = GAME.evolve(folded, e)
    assert folded == state


@pytest.mark.parametrize("preset", sorted(PRESETS))
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), server_seed=st.binary(min_size=32, max_size=32))
def test_random_playouts_keep_the_invariants_and_hide_the_cards(
    preset: str, seed: int, server_seed: bytes
) -> None:
    run(preset, seed, server_seed)


def test_verify_chance_rederives_every_deal_and_catches_a_changed_card() -> None:
    rules = PRESETS["classic"]
    seats = ("p1", "p2", "p3")
    seed = bytes(range(32))
    state = GAME.initial_state(rules, seats, seed)
    r = random.Random(5)
    checked = 0
    for _ in range(400):
        seat = r.choice(sorted(GAME.to_move(state)))
        for e in _decide(state, seat, r.choice(GAME.legal_commands(state, seat))):
            if isinstance(e, DealDealt):
                assert verify_chance(state, e) is None
                bad = type(e)(
                    **{
                        **{f: getattr(e, f) for f in e.__struct_fields__},
                        "order": (e.order[1], e.order[0], *e.order[2:]),
                    }
                )
                assert verify_chance(state, bad) is not None
                checked += 1
            state = GAME.evolve(state, e)
    assert checked >= 5
