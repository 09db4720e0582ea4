"""perft (rules/tablut.md §12, T4): the leaves of the legal-move tree; a move that ends the game
(escape or the king captured) is a leaf, repetition and the move cap are ignored."""

from __future__ import annotations

from .board import ATTACKERS, KING
from .engine import Geometry, apply, count_moves, geometry, moves
from .state import TablutState


def count(g: Geometry, board: bytes | bytearray, side: int, depth: int) -> int:
    if depth == 0:
        return 1
    if depth == 1:
        return count_moves(g, board, side)
    legal = moves(g, board, side)
    total = 0
    for m in legal:
        b, taken = apply(g, board, m)
        if side == ATTACKERS:
            if any(board[q] == KING for q in taken):
                continue
        elif b[m[1]] == KING and m[1] in g.escape:
            continue
        total += count(g, b, 1 - side, depth - 1)
    return total


def perft(state: TablutState, depth: int) -> int:
    if state.result is not None:
        return 1 if depth == 0 else 0
    return count(geometry(state.rules), state.board, state.side, depth)
