"""The legal commands of the seat to move, in canonical text with their captures (§9.2, T3)."""

from __future__ import annotations

from contracts.games.tablut import TablutMove

from .engine import apply, geometry, moves
from .notation import text
from .state import TablutState


def legal_moves(state: TablutState) -> list[tuple[int, int, tuple[int, ...]]]:
    """(from, to, captured) of every legal move of the side to move."""
    if state.result is not None:
        return []
    g = geometry(state.rules)
    return [(s, x, tuple(apply(g, state.board, (s, x))[1])) for s, x in moves(g, state.board, state.side)]


def legal_commands(state: TablutState, seat: str) -> tuple[TablutMove, ...]:
    if state.result is not None or seat != state.seats[state.side]:
        return ()
    return tuple(TablutMove(move=text(s, x, caps)) for s, x, caps in legal_moves(state))
