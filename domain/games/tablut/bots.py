"""Computer players: pure functions (state, seat, rng) -> TablutMove, weakest first.

* ``random``: any legal move.
* ``greedy``: the move with the best position one move ahead: a win first, then material, the
  king's open ways out and the hostile squares around him.
* ``search``: alpha-beta, two moves deep (its move and the reply), on the same evaluation.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from contracts.games.tablut import TablutMove

from .board import ATTACKER, ATTACKERS, DEFENDER, DEFENDERS, KING, NEIGHBOURS
from .engine import Geometry, apply, geometry, king_routes, moves
from .legal import legal_moves
from .notation import text
from .state import TablutState

Bot = Callable[[TablutState, str, random.Random], TablutMove]
_WIN = 10_000.0


def _value(g: Geometry, board: bytes | bytearray, to_move: int) -> float:
    """The position for the defenders (higher is better for them), ``to_move`` to play."""
    k = board.find(KING)
    if k < 0:
        return -_WIN
    if k in g.escape:
        return _WIN
    routes = len(king_routes(g, board))
    if routes and to_move == DEFENDERS:
        return _WIN / 2
    hostile = sum(1 for n in NEIGHBOURS[k] if board[n] == ATTACKER or n in g.corners)
    return 1.5 * board.count(DEFENDER) - board.count(ATTACKER) + 4.0 * routes - 0.8 * hostile


def _ended(g: Geometry, before: bytes | bytearray, after: bytearray, side: int, move: tuple[int, int], taken: list[int]) -> float | None:
    if side == ATTACKERS and any(before[q] == KING for q in taken):
        return -_WIN
    if side == DEFENDERS and after[move[1]] == KING and move[1] in g.escape:
        return _WIN
    return None


def _search(g: Geometry, board: bytes | bytearray, side: int, depth: int, alpha: float, beta: float) -> float:
    """Negamax: the value of ``board`` for ``side``, to move."""
    sign = 1.0 if side == DEFENDERS else -1.0
    if depth == 0:
        return sign * _value(g, board, side)
    legal = moves(g, board, side)
    if not legal:
        return -_WIN / 4
    best = -2 * _WIN
    for m in legal:
        b, taken = apply(g, board, m)
        end = _ended(g, board, b, side, m, taken)
        value = sign * end if end is not None else -_search(g, b, 1 - side, depth - 1, -beta, -alpha)
        if value > best:
            best = value
        alpha = max(alpha, value)
        if alpha >= beta:
            break
    return best


def _best(state: TablutState, seat: str, rng: random.Random, depth: int) -> TablutMove:
    legal = _legal(state, seat)
    g = geometry(state.rules)
    side = state.side
    scored = []
    for s, x, caps in legal:
        b, taken = apply(g, state.board, (s, x))
        end = _ended(g, state.board, b, side, (s, x), taken)
        sign = 1.0 if side == DEFENDERS else -1.0
        v = sign * end if end is not None else -_search(g, b, 1 - side, depth - 1, -2 * _WIN, 2 * _WIN)
        scored.append((v, (s, x, caps)))
    top = max(v for v, _ in scored)
    s, x, caps = rng.choice([m for v, m in scored if v >= top - 1e-9])
    return TablutMove(move=text(s, x, caps))


def _legal(state: TablutState, seat: str) -> list[tuple[int, int, tuple[int, ...]]]:
    if state.result is not None or seat != state.seats[state.side]:
        raise ValueError(f"{seat} is not to move")
    return legal_moves(state)


def random_bot(state: TablutState, seat: str, rng: random.Random) -> TablutMove:
    s, x, caps = rng.choice(_legal(state, seat))
    return TablutMove(move=text(s, x, caps))


def greedy_bot(state: TablutState, seat: str, rng: random.Random) -> TablutMove:
    return _best(state, seat, rng, 1)


def search_bot(state: TablutState, seat: str, rng: random.Random) -> TablutMove:
    return _best(state, seat, rng, 2)


BOTS: dict[str, Bot] = {"random": random_bot, "greedy": greedy_bot, "search": search_bot}


def draw_answer(state: TablutState, seat: str) -> bool:
    """A computer player's answer to a draw offer: it accepts when the position is against it."""
    v = _value(geometry(state.rules), state.board, state.side)
    return v < -2 if state.seats.index(seat) == DEFENDERS else v > 2
