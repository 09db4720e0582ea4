"""Computer players: pure functions (state, seat, rng) -> a legal MovePiece."""

from __future__ import annotations

import random

import pytest

from contracts.envelope import Rejected
from domain.games.ugolki import GAME
from tests.unit.ugolki.helpers import play, pos, rules, start

BOTS = GAME.bots or {}


@pytest.mark.parametrize("bot", sorted(BOTS))
@pytest.mark.parametrize("preset", ["halma-8x8-1234", "halma-8x8-1234-diag", "kosye", "kosynka-universal"])
def test_bots_play_legal_moves_deterministically(bot: str, preset: str) -> None:
    state = start(preset).state
    for _ in range(12):
        seat = state.seats[state.side]
        first = BOTS[bot](state, seat, random.Random(3))
        assert BOTS[bot](state, seat, random.Random(3)) == first  # pure: same rng, same move
        events = GAME.decide(state, seat, first)
        assert not isinstance(events, Rejected), (bot, first, events)
        for event in events:
            state = GAME.evolve(state, event)


def test_search_takes_the_completing_move() -> None:
    """§6.1: the search bot finishes the home when it can (IMMEDIATE)."""
    state = pos(rules("kostrov"), "a6 b6 c6 a7 b7 c7 a8 b8 d8", "f1 g1 h1 f2 g2 h2 f3 g3 h4")
    cmd = BOTS["search"](state, "white", random.Random(0))
    assert (cmd.path[0], cmd.path[-1]) == ("d8", "c8")


def test_bots_avoid_losing_by_returning_home() -> None:
    """§6.3: after move 50 a piece put back home loses; greedy and search do not do it when avoidable."""
    state = pos(rules("ugolki-50"), "c4 e5", "e4 g3", (50, 50))
    for bot in ("greedy", "search"):
        cmd = BOTS[bot](state, "white", random.Random(1))
        assert cmd.path[-1] not in {"a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"}


def test_search_beats_greedy() -> None:
    """The strongest bot beats the tempo-greedy one (bench/ugolki_bots.py plays 50 matches)."""
    score = 0.0
    for i in range(2):
        state = start().state
        names = {"white": "search", "black": "greedy"} if i == 0 else {"white": "greedy", "black": "search"}
        rng = random.Random(i)
        while GAME.outcome(state) is None:
            seat = state.seats[state.side]
            events = GAME.decide(state, seat, BOTS[names[seat]](state, seat, rng))
            assert isinstance(events, tuple)
            for event in events:
                state = GAME.evolve(state, event)
        outcome = GAME.outcome(state)
        assert outcome is not None
        search_rank = outcome.ranks[0 if names["white"] == "search" else 1]
        score += 0.5 if outcome.draw else float(search_rank == 1)
    assert score >= 1.5


def test_bots_refuse_when_not_their_turn() -> None:
    state = play(start().state, "h3-h5")
    with pytest.raises(ValueError):
        BOTS["random"](state, "white", random.Random(0))
