"""A decision's views list the side to move's legal moves once: the mover's game view and the
match layer's legal commands share one listing per state object, and never answer for another
state than the one asked about."""

from __future__ import annotations

import random

import msgspec

from contracts.games.ugolki import MovePiece
from domain.games.ugolki import GAME
from domain.games.ugolki.legal import legal_moves, representative_path
from domain.games.ugolki.rules import PRESETS
from domain.games.ugolki.state import UgolkiState


def _states(preset: str, seed: int) -> list[UgolkiState]:
    bots = GAME.bots
    assert bots is not None
    rng = random.Random(seed)
    state = GAME.initial_state(PRESETS[preset], ("white", "black"), None)
    out = [state]
    while GAME.outcome(state) is None and len(out) < 120:
        seat = next(iter(GAME.to_move(state)))
        events = GAME.decide(state, seat, bots["random"](state, seat, rng))
        assert isinstance(events, tuple)
        for event in events:
            state = GAME.evolve(state, event)
        out.append(state)
    return out


def _listed(state: UgolkiState) -> tuple[tuple[str, ...], tuple[MovePiece, ...]]:
    """The labels and commands computed from the rules directly, nothing kept."""
    geo = state.geo
    moves = legal_moves(state)
    labels = tuple(f"{geo.names[f]}-{geo.names[t]}" for f, t in moves)
    commands = tuple(
        MovePiece(path=tuple(geo.names[i] for i in representative_path(state, state.side, m))) for m in moves
    )
    return labels, commands


def test_the_movers_view_and_legal_commands_answer_for_the_state_asked_about() -> None:
    # anti-lock (ORTH) and mirror limits (the filters the listing runs) in the first preset
    for preset, seed in (("gambiter-classic", 3), ("kosynka-universal", 4), ("ugolki-50", 5)):
        states = _states(preset, seed)
        for i, state in enumerate(states):
            mover = state.seats[state.side]
            other = state.seats[1 - state.side]
            labels, commands = _listed(state)
            # in the order a hub renders a decision, and again in another order
            assert GAME.view(state, other).legal == ()
            assert GAME.view(state, mover).legal == (labels if state.result is None else ())
            assert GAME.legal_commands(state, mover) == (commands if state.result is None else ())
            assert GAME.legal_commands(state, other) == ()
            # an equal state that is another object, then the previous state, then this one again
            copy = msgspec.structs.replace(state)
            assert copy is not state
            assert GAME.legal_commands(copy, mover) == GAME.legal_commands(state, mover)
            if i:
                before = states[i - 1]  # not the last state: no result yet
                assert GAME.view(before, before.seats[before.side]).legal == _listed(before)[0]
                assert GAME.legal_commands(before, before.seats[before.side]) == _listed(before)[1]
            assert GAME.view(state, mover).legal == (labels if state.result is None else ())


def test_the_same_state_is_listed_once() -> None:
    state = _states("halma-8x8-1234", 6)[10]
    mover = state.seats[state.side]
    first = GAME.legal_commands(state, mover)
    assert first and GAME.legal_commands(state, mover) is first
    assert GAME.view(state, mover).legal == _listed(state)[0]
    assert GAME.legal_commands(state, mover) is first
