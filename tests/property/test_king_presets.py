"""King over every preset (rules/king.md §11): random full matches through the match layer.

For every preset: the hidden-information property of §12.9 (no view or redacted event shows a
seat another seat's cards, any pending card, an unshown talon or another seat's discards, and a
seat never sees its own pending cards before they are dealt); every seat's redacted events fold
into its information state with the same view and legal commands; every deal re-derives from
rng_v1 (``verify_chance``); every deal's points sum to its expected total and a zero-sum preset
ends with totals summing to 0 (§9.3); the match ends after the preset's number of deals (§11.4).
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

import msgspec
import pytest

from contracts.envelope import Rejected
from contracts.games.king import Dealt, schedule_deals
from contracts.match import CreateMatch
from domain.core import match
from domain.core import rng as rng_v1
from domain.games.king import GAME, HIDDEN
from domain.games.king.rules import PRESETS
from tests.support.redaction import strings

SEED = b"\x11" * 32


def create(preset: str) -> CreateMatch:
    rules = PRESETS[preset]
    seats = GAME.seat_names(rules.players)
    return CreateMatch(
        preset=preset,
        ruleset=msgspec.to_builtins(rules),
        seats=seats,
        players=seats,
        token_hashes=tuple(hashlib.sha256(s.encode()).hexdigest() for s in seats),
        seed_commitment=rng_v1.commitment(SEED),
    )


def forbidden_for(gs: Any, viewer: str | None) -> frozenset[str]:
    out: frozenset[str] = frozenset()
    for s in gs.seats:
        if s != viewer:
            out |= HIDDEN(gs, s)
    if viewer is not None:
        # a seat's own pending cards are hidden from it too (§6.2 step 1: only the peek is dealt)
        out |= frozenset(c for p in gs.pending for c in p) - {"??"}
    return out


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_king_preset_random_match_keeps_every_law(preset: str) -> None:
    """king.md §12.9, §12.10, §9.3 and §11.4 on a random match of each preset."""
    r = random.Random(preset)
    events = match.decide(GAME, None, None, create(preset), SEED)
    assert not isinstance(events, Rejected), events
    state = match.evolve(GAME, None, events[0], SEED)
    seats = state.created.seats
    folds: dict[str, Any] = {s: match.evolve(GAME, None, events[0], None) for s in seats}
    deals = 0
    decisions = 0
    while state.outcome is None:
        decisions += 1
        assert decisions <= GAME.max_decisions
        seat = r.choice(match.to_move(GAME, state))
        cmd = r.choice(GAME.legal_commands(state.game_state, seat))
        events = match.decide(GAME, state, seat, cmd, SEED)
        assert not isinstance(events, Rejected), (cmd, events)
        for e in events:
            if isinstance(e, Dealt):
                assert GAME.verify_chance is not None
                assert GAME.verify_chance(state.game_state, e) is None
                deals += 1
            state = match.evolve(GAME, state, e, SEED)
            for s in seats:
                shown = match.redact(GAME, e, s)
                if shown is not None:
                    folds[s] = match.evolve(GAME, folds[s], shown, None)
        gs = state.game_state
        for viewer in (*seats, None):
            seen = strings(GAME.view(gs, viewer))
            for e in events:
                red = match.redact(GAME, e, viewer)
                if red is not None:
                    seen |= strings(red)
            leak = seen & forbidden_for(gs, viewer)
            assert not leak, f"{viewer} sees {sorted(leak)} in phase {gs.phase}"
        for s in seats:
            assert match.view(GAME, folds[s], s, "m", 0) == match.view(GAME, state, s, "m", 0)
            assert GAME.legal_commands(folds[s].game_state, s) == GAME.legal_commands(gs, s)
    gs = state.game_state
    assert deals == len(schedule_deals(gs.rules)) == len(gs.sheet)
    for row in gs.sheet:
        assert row.row_sum == sum(row.points) == row.expected_sum
    if gs.rules.zero_sum:
        assert sum(gs.totals) == 0
    assert len(state.outcome.ranks) == len(seats)
