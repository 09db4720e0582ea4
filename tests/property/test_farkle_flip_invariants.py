"""Farkle Flip: the invariants of rules/thousand-and-farkle-flip.md §3.9 on random playouts of every
preset (card conservation, locked combinations never change, banked scores never decrease, a player
not on board never banks less than the entry) and FF1 (every lock holds a card from no lost group)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from contracts.envelope import Rejected
from contracts.games.farkle_flip import FARKLE, CombinationLocked, Stopped, TurnEnded
from domain.games.farkle_flip import GAME
from domain.games.farkle_flip.rules import PRESETS
from domain.games.farkle_flip.state import FFState


def cards_in_play(s: FFState) -> int:
    return (
        len(s.draw_pile)
        + len(s.scored_pile)
        + sum(len(a) for a in s.areas)
        + sum(len(c.cards) for c in s.centre)
        + (s.pending is not None)
        + sum(s.farkle_held)
        + len(s.set_aside)
    )


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    preset=st.sampled_from(sorted(PRESETS)),
    extra=st.integers(0, 6),
    seed=st.integers(0, 2**32),
    server_seed=st.binary(min_size=32, max_size=32),
    heuristic=st.floats(0, 1),
)
def test_section_3_9_invariants_hold_on_random_playouts(
    preset: str, extra: int, seed: int, server_seed: bytes, heuristic: float
) -> None:
    rules = PRESETS[preset]
    n = min(rules.min_players + extra, rules.max_players)
    seats = GAME.seat_names(n)
    r = random.Random(seed)
    s = GAME.initial_state(rules, seats, server_seed)
    deck_size = sum(rules.deck_composition.values())
    assert GAME.bots is not None
    decisions = 0
    while GAME.outcome(s) is None:
        decisions += 1
        assert decisions < 20_000, "no end"
        seat = r.choice(sorted(GAME.to_move(s)))
        bot = GAME.bots["heuristic" if r.random() < heuristic else "random"]
        cmd = bot(s, seat, r)
        events = GAME.decide(s, seat, cmd)
        assert not isinstance(events, Rejected), (cmd, events)
        for e in events:
            before = s
            s = GAME.evolve(s, e)
            if s.status == "waiting":
                continue
            if before.status == "playing":
                for a, b in zip(before.banked, s.banked, strict=True):
                    assert b >= a  # 004:L1174: banked points are never lost
                for j in range(n):
                    if s.on_board[j] and not before.on_board[j]:
                        assert s.banked[j] >= rules.entry
                if isinstance(e, CombinationLocked):
                    o = seats.index(e.owner)
                    assert any(before.areas[o][k][1] == 0 for k in e.positions)  # FF1
                    assert s.centre[:-1] == before.centre
                elif not isinstance(e, (TurnEnded, Stopped)) and e.__class__.__name__ != "Busted":
                    assert s.centre == before.centre  # locked combinations never change
        if s.status != "waiting":
            assert cards_in_play(s) == deck_size, events
    out = GAME.outcome(s)
    assert out is not None and len(out.ranks) == n
    best = max(s.banked)
    assert all((rank == 1) == (b == best) for rank, b in zip(out.ranks, s.banked, strict=True))
    if s.end_reason == "final_round":
        assert best >= rules.target
    assert s.pending != FARKLE
