"""perft (rules/draughts.md §10.13, D2): the number of move sequences of a given length, counting
each move once (``perft``) or every capture path (``perft_paths``), draw rules ignored."""

from __future__ import annotations

from collections.abc import Callable

from contracts.games.draughts import DraughtsRuleset

from .movegen import all_paths, legal_moves
from .play import moved
from .state import DraughtsState, Move, Position

Gen = Callable[[DraughtsRuleset, Position], list[Move]]


def count(rules: DraughtsRuleset, pos: Position, depth: int, gen: Gen) -> int:
    if depth == 0:
        return 1
    moves = gen(rules, pos)
    if depth == 1:
        return len(moves)
    return sum(count(rules, moved(pos, m), depth - 1, gen) for m in moves)


def perft(state: DraughtsState, depth: int) -> int:
    return count(state.rules, state.pos, depth, legal_moves)


def perft_paths(state: DraughtsState, depth: int) -> int:
    return count(state.rules, state.pos, depth, all_paths)
