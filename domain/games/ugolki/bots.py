"""Computer players: pure functions (state, seat, rng) -> MovePiece.

* ``random``: any legal move.
* ``greedy``: the legal move that lowers its own tempo number (§7) the most.
* ``search``: a three-ply alpha-beta on bitboards with a race evaluation (tempo plus a penalty
  for stragglers and for pieces still at home before the leave-home deadline).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from contracts.games.ugolki import MovePiece

from .legal import legal_moves, lock_mode, representative_path
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


def _weights(state: UgolkiState, side: int) -> tuple[float, ...]:
    """Per-square cost of a piece of ``side`` (lower is better).

    Tempo distance (§7), plus a small quadratic term so that stragglers are brought up, plus a
    penalty for standing in the own home that grows as the leave-home deadline (§6.2) nears
    (2, then 8 from eleven moves before it).  In the ending (at most three pieces still outside
    the target home) a square outside costs 6 plus its file and rank distance to the nearest
    free target square, so a piece outside is drawn there instead of the corner, and pieces
    inside prefer deeper squares (0.3 x the distance), which frees the shallow ones.
    """
    geo = state.geo
    rs = state.ruleset
    home_penalty = 0.0
    if rs.leave_home != "none":
        left = rs.leave_home_moves - state.moves_made[side]
        home_penalty = 8.0 if left < 12 else 2.0
    if rs.return_home_loss_after is not None and state.moves_made[side] + 3 > rs.return_home_loss_after:
        home_penalty = max(home_penalty, 50.0)
    home = geo.homes[side]
    target = geo.homes[1 - side]
    own, _ = state.boards(side)
    dist = geo.dist[side]
    outside = (own & ~target).bit_count()
    holes = [geo.file_rank(i) for i in geo.squares(target & ~own)]
    out = []
    for i, d in enumerate(dist):
        if (target >> i) & 1:
            cost = 0.3 * d if outside <= 3 else d + 0.04 * d * d
        elif outside <= 3 and holes and i in geo.names:
            f, r = geo.file_rank(i)
            cost = 6.0 + min(abs(f - hf) + abs(r - hr) for hf, hr in holes)
        else:
            cost = d + 0.04 * d * d
        out.append(cost + (home_penalty if (home >> i) & 1 else 0.0))
    return tuple(out)


class _Search:
    """Negamax with alpha-beta on bare bitboards; scores are updated incrementally per move."""

    def __init__(self, state: UgolkiState) -> None:
        self.geo = state.geo
        self.lock = lock_mode(state)
        self.weights = (_weights(state, WHITE), _weights(state, 1 - WHITE))
        self.homes = self.geo.homes

    def score(self, side: int, bits: int) -> float:
        w = self.weights[side]
        total = 0.0
        while bits:
            low = bits & -bits
            bits ^= low
            total += w[low.bit_length() - 1]
        return total

    def negamax(
        self, side: int, own: int, opp: int, s_own: float, s_opp: float, depth: int, alpha: float, beta: float
    ) -> float:
        """Value for ``side`` to move; ``s_own``/``s_opp`` are the two sides' costs."""
        homes = self.homes
        if opp & homes[side] == homes[side]:
            return -_WIN
        target = homes[1 - side]
        moves = gen_moves(self.geo, own, opp, target, self.lock)
        w = self.weights[side]
        if not moves:
            if depth <= 1:
                return s_opp - s_own
            return -self.negamax(1 - side, opp, own, s_opp, s_own, depth - 1, -beta, -alpha)
        scored = []
        for f, t in moves:
            delta = w[t.bit_length() - 1] - w[f.bit_length() - 1]
            if (own ^ f ^ t) & target == target:
                return _WIN
            scored.append((delta, f, t))
        if depth <= 1:  # stand pat: the last mover may not be forced into a worse square
            return s_opp - s_own - min(0.0, min(scored)[0])
        scored.sort()
        best = -2 * _WIN
        for delta, f, t in scored:
            value = -self.negamax(1 - side, opp, own ^ f ^ t, s_opp, s_own + delta, depth - 1, -beta, -alpha)
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        return best


def search_bot(state: UgolkiState, seat: str, rng: random.Random, depth: int | None = None) -> MovePiece:
    moves = _check_turn(state, seat)
    safe = [m for m in moves if not _suicidal(state, m)] or moves
    if depth is None:  # three plies, two when the position is wide (keeps a move well under 0.2 s)
        depth = 3 if len(safe) <= 36 else 2
    side = state.side
    own, opp = state.boards(side)
    search = _Search(state)
    s_own, s_opp = search.score(side, own), search.score(1 - side, opp)
    w = search.weights[side]
    target = state.geo.homes[1 - side]
    ranked: list[tuple[float, float, tuple[int, int]]] = []
    alpha = -2 * _WIN
    for f, t in sorted(safe, key=lambda m: w[m[1]] - w[m[0]]):
        after = own ^ (1 << f) ^ (1 << t)
        if after & target == target:
            return _command(state, (f, t))
        delta = w[t] - w[f]
        value = -search.negamax(
            1 - side, opp, after, s_opp, s_own + delta, depth - 1, -2 * _WIN, -alpha + 1e-9
        )
        alpha = max(alpha, value)
        ranked.append((value, rng.random(), (f, t)))
    best = max(v for v, _, _ in ranked)
    choice = max((item for item in ranked if item[0] >= best - 1e-9), key=lambda item: item[1])
    return _command(state, choice[2])


BOTS: dict[str, Bot] = {"random": random_bot, "greedy": greedy_bot, "search": search_bot}

__all__ = ["BOTS"]
