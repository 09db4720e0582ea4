"""The Ugolki Decider functions that are not in their own module."""

from __future__ import annotations

from contracts.games.ugolki import MovePiece
from contracts.match import Outcome

from .legal import legal_moves, representative_path
from .state import UgolkiState


def legal_commands(state: UgolkiState, seat: str) -> tuple[MovePiece, ...]:
    """One MovePiece per legal (from, to), sorted by (from, to), each with a full path."""
    if state.result is not None or seat != state.seats[state.side]:
        return ()
    geo = state.geo
    side = state.side
    return tuple(
        MovePiece(path=tuple(geo.names[i] for i in representative_path(state, side, move)))
        for move in legal_moves(state, side)
    )


def to_move(state: UgolkiState) -> frozenset[str]:
    if state.result is not None:
        return frozenset()
    return frozenset({state.seats[state.side]})


def outcome(state: UgolkiState) -> Outcome | None:
    return state.result
