"""Shared builders for the Ugolki rule tests."""

from __future__ import annotations

from typing import Any

import msgspec

from contracts.games.ugolki import MovePiece, PieceMoved, TurnPassed, UgolkiRuleset
from domain.games.ugolki import GAME
from domain.games.ugolki.rules import PRESETS
from domain.games.ugolki.state import UgolkiState, position
from tests.support.gwt import Spec, spec


def rules(preset: str = "halma-8x8-1234", **overrides: Any) -> UgolkiRuleset:
    return msgspec.structs.replace(PRESETS[preset], **overrides)


def pos(ruleset: UgolkiRuleset, white: str, black: str, moves_made: tuple[int, int] = (0, 0)) -> UgolkiState:
    return position(ruleset, white.split(), black.split(), moves_made)


def at(state: UgolkiState) -> Spec:
    return spec(GAME, state=state)


def start(preset: str = "halma-8x8-1234", **overrides: Any) -> Spec:
    return spec(GAME, rules(preset, **overrides))


def mv(*squares: str) -> MovePiece:
    return MovePiece(path=squares)


def moved(seat: str, *squares: str) -> PieceMoved:
    return PieceMoved(seat=seat, path=squares)


def passed(seat: str) -> TurnPassed:
    return TurnPassed(seat=seat)


def play(state: UgolkiState, *moves: str) -> UgolkiState:
    """Play moves written as 'e1-d1' alternately from the side to move; each must be accepted."""
    for text in moves:
        seat = state.seats[state.side]
        result = GAME.decide(state, seat, MovePiece(path=(text,)))
        assert isinstance(result, tuple), f"{text}: {result}"
        for event in result:
            state = GAME.evolve(state, event)
    return state
