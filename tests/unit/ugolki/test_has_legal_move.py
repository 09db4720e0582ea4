"""The early-exit check for a forced pass (§6.10) agrees with the full list of legal moves."""

from __future__ import annotations

import random

import pytest

from domain.games.ugolki import GAME
from domain.games.ugolki.legal import has_legal_move, legal_moves

PRESETS = ("halma-8x8-1234", "gambiter-classic", "pryamye", "kosye", "shashki-online-12", "kostrov-diagonal")


@pytest.mark.parametrize("preset", PRESETS)
def test_has_legal_move_matches_the_full_list_along_random_games(preset: str) -> None:
    """rules/ugolki.md §6.10: no legal move -> forced pass; §6.7/§6.8 filters count."""
    rng = random.Random(preset)
    ruleset = GAME.presets[preset].ruleset
    checked = 0
    for _ in range(4):
        state = GAME.initial_state(ruleset, ("white", "black"), None)
        while GAME.outcome(state) is None and checked < 600:
            assert has_legal_move(state) == bool(legal_moves(state))
            checked += 1
            seat = next(iter(GAME.to_move(state)))
            for event in GAME.decide(state, seat, GAME.bots["random"](state, seat, rng)):
                state = GAME.evolve(state, event)
    assert checked > 50
