"""The legal commands of the seat to move: each move once, under its canonical text (§5.7, D1)."""

from __future__ import annotations

from contracts.games.draughts import DraughtsMove

from .movegen import legal_moves, text
from .state import DraughtsState


def legal_commands(state: DraughtsState, seat: str) -> tuple[DraughtsMove, ...]:
    if state.result is not None or seat != state.seats[state.side]:
        return ()
    return tuple(DraughtsMove(move=text(m)) for m in legal_moves(state.rules, state.pos))
