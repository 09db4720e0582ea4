"""Computer players: pure functions (state, seat, rng) -> MovePiece.

* ``random``: any legal move.
* ``greedy``: the legal move that lowers its own tempo number (§7) the most.
* ``search``: a shallow alpha-beta on bitboards with a race evaluation (tempo plus a penalty for
  stragglers and for pieces still at home before the leave-home deadline).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from contracts.games.ugolki import MovePiece

from .geometry import Geometry
from .legal import legal_moves, lock_mode, representative_path, target_of
from .movegen import gen_moves
from .state import WHITE, UgolkiState

Bot = Callable[[UgolkiState, str, random.Random], MovePiece]


def _command(state: UgolkiState, move: tuple[int, int]) -> MovePiece:
    geo = state.geo
    return MovePiece(path=tuple(geo.names[i] for i in representative_path(state, state.side, move)))


def _check_turn(state: UgolkiState, seat: str) -> list[tuple[int, int]]:
    if state.result is not None or seat != state.seats[state.side]:
        raise ValueError(f"{seat} is not to move")
    moves = legal_moves(state)
    if not moves:
        raise ValueError("no legal move (the referee records a forced pass)")
    return moves


def _suicidal(state: UgolkiState, move: tuple[int, int]) -> bool:
    """The move would lose at once under the return-home ban (§6.3)."""
    n = state.ruleset.return_home_loss_after
    side = state.side
    return n is not None and state.moves_made[side] + 1 > n and bool((state.geo.homes[side] >> move[1]) & 1)


def random_bot(state: UgolkiState, seat: str, rng: random.Random) -> MovePiece:
    return _command(state, rng.choice(_check_turn(state, seat)))


def greedy_bot(state: UgolkiState, seat: str, rng: random.Random) -> MovePiece:
    moves = _check_turn(state, seat)
    safe = [m for m in moves if not _suicidal(state, m)] or moves
    dist = state.geo.dist[state.side]
    best = max(dist[f] - dist[t] for f, t in safe)
    return _command(state, rng.choice([m for m in safe if dist[m[0]] - dist[m[1]] == best]))


# ---------------------------------------------------------------- search
_WIN = 1_000_000.0


def _side_score(geo: Geometry, side: int, own: int, home_penalty: float) -> float:
    """Lower is better for ``side``: tempo + straggler term + home penalty."""
    dist = geo.dist[side]
    total = 0
    worst = 0
    bits = own
    while bits:
        low = bits & -bits
        bits ^= low
        d = dist[low.bit_length() - 1]
        total += d
        worst += d * d
    at_home = (own & geo.homes[side]).bit_count()
    return total + 0.04 * worst + home_penalty * at_home


def _evaluate(geo: Geometry, side: int, own: int, opp: int, home_penalty: float) -> float:
    """Score for ``side`` (higher is better)."""
    target = geo.homes[1 - side]
    if own & target == target:
        return _WIN
    return _side_score(geo, 1 - side, opp, home_penalty) - _side_score(geo, side, own, home_penalty)


def _ordered(geo: Geometry, side: int, moves: list[tuple[int, int]]) -> list[tuple[int, int]]:
    dist = geo.dist[side]
    return sorted(moves, key=lambda m: dist[m[1].bit_length() - 1] - dist[m[0].bit_length() - 1])


def _alphabeta(
    geo: Geometry, side: int, own: int, opp: int, depth: int, alpha: float, beta: float, lock: int, hp: float
) -> float:
    if depth == 0 or own & geo.homes[1 - side] == geo.homes[1 - side]:
        return _evaluate(geo, side, own, opp, hp)
    if opp & geo.homes[side] == geo.homes[side]:
        return -_WIN
    moves = gen_moves(geo, own, opp, geo.homes[1 - side], lock)
    if not moves:
        return -_alphabeta(geo, 1 - side, opp, own, depth - 1, -beta, -alpha, lock, hp)
    best = -2 * _WIN
    for f, t in _ordered(geo, side, moves):
        score = -_alphabeta(geo, 1 - side, opp, own ^ f ^ t, depth - 1, -beta, -alpha, lock, hp)
        if score > best:
            best = score
            if score > alpha:
                alpha = score
                if alpha >= beta:
                    break
    return best


def search_bot(state: UgolkiState, seat: str, rng: random.Random, depth: int = 2) -> MovePiece:
    moves = _check_turn(state, seat)
    safe = [m for m in moves if not _suicidal(state, m)] or moves
    geo = state.geo
    side = state.side
    own, opp = state.boards(side)
    rs = state.ruleset
    # Pieces left at home cost more as the leave-home deadline approaches (§6.2).
    hp = 0.0
    if rs.leave_home != "none":
        left = rs.leave_home_moves - state.moves_made[side]
        hp = 6.0 if left < 12 else 1.5
    lock = lock_mode(state)
    assert target_of(geo, side) == geo.homes[1 - side]
    dist = geo.dist[side]
    scored: list[tuple[float, float, tuple[int, int]]] = []
    alpha = -2 * _WIN
    for f, t in sorted(safe, key=lambda m: dist[m[1]] - dist[m[0]]):
        fb, tb = 1 << f, 1 << t
        score = -_alphabeta(geo, 1 - side, opp, own ^ fb ^ tb, depth - 1, -2 * _WIN, -alpha + 1e-9, lock, hp)
        alpha = max(alpha, score)
        scored.append((score, rng.random(), (f, t)))
    best = max(s for s, _, _ in scored)
    choice = max((item for item in scored if item[0] >= best - 1e-9), key=lambda item: item[1])
    return _command(state, choice[2])


BOTS: dict[str, Bot] = {"random": random_bot, "greedy": greedy_bot, "search": search_bot}

__all__ = ["BOTS", "WHITE"]
