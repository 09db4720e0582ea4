"""Every game's endings in words: a match played out by the game's own computer players ends with
an ``outcome_text`` that names the players and gives the reason as a sentence, never its code."""

from __future__ import annotations

import random
import re

import pytest

from contracts.envelope import Rejected
from domain.core import match
from domain.games import registry
from tests.property.test_conformance import create_command

CODE = re.compile(r"\b[a-z]+_[a-z_]+\b")  # leave_home, final_round, fourth_king, ...
SEED = bytes(range(32))
GAMES = [("ugolki", "mini-3x3", 2), ("kings-corner", "family-draw-first", 3), ("king", "king-3p-short", 3),
         ("thousand", "classic", 3), ("farkle-flip", "farkle-flip-placeholder-party-5000", 6),
         ("kings-cup", "kings-cup-neutral", 3), ("kings-cup", "kings-cup-deck-out", 2)]


def play_out(game: registry.Game, preset: str, n: int, seed: int) -> match.MatchState:
    rng = random.Random(seed)
    server_seed = SEED if game.chance else None
    created = match.decide(game, None, None, create_command(game, preset, n, server_seed))
    assert not isinstance(created, Rejected), created
    state = match.evolve(game, None, created[0], server_seed)
    bot = game.bots[game.default_bot]
    for _ in range(game.max_decisions):
        if state.outcome is not None:
            break
        seat = sorted(match.to_move(game, state))[0]
        events = match.decide(game, state, seat, bot(state.game_state, seat, rng), server_seed)
        assert not isinstance(events, Rejected), events
        for event in events:
            state = match.evolve(game, state, event, server_seed)
    return state


@pytest.mark.parametrize("name, preset, n", GAMES)
def test_a_played_out_match_ends_with_its_reason_in_words(name: str, preset: str, n: int) -> None:
    game = registry.get(name)
    state = play_out(game, preset, n, seed=3)
    assert state.outcome is not None, f"{name} {preset} did not finish"
    text = match.outcome_text(game, state)
    assert text and text.endswith(".") and not CODE.search(text), text
    players = list(state.created.players)
    assert any(p in text for p in players) or text.startswith(("Draw", "Game over")), text
    view = match.view(game, state, None, "m", 1)
    assert view.outcome_text == text
