"""perft: the number of move sequences of a given length, a check of the move generator.

A node is one turn: a distinct (from, to) move, or a forced pass (§6.10) when the side to move
has none.  Finished games have no children.  The last ply is bulk-counted.

Two paths give the same numbers:
* the fast path recurses on bare bitboards (``movegen``) and is used when no preset filter or
  end rule can fire inside the tree (checked conservatively from the root);
* the exact path plays every move through ``legal_moves`` and ``evolve``.
"""

from __future__ import annotations

from functools import cache

from contracts.games.ugolki import PieceMoved, TurnPassed

from .evolve import evolve
from .geometry import Geometry
from .legal import anti_lock_active, legal_moves, lock_mode, representative_path
from .movegen import count_moves, gen_moves
from .state import BLACK, WHITE, UgolkiState


class _NeedExact(Exception):
    """A node without moves (a forced pass): leave it to the exact path."""


def perft(state: UgolkiState, depth: int) -> int:
    if depth <= 0:
        return 1
    if fast_path_safe(state, depth):
        geo = state.geo
        side = state.side
        own, opp = state.boards(side)
        try:
            return _fast(geo, own, opp, geo.homes[1 - side], geo.homes[side], lock_mode(state), depth)
        except _NeedExact:
            pass
    return perft_exact(state, depth)


def perft_exact(state: UgolkiState, depth: int) -> int:
    if depth <= 0:
        return 1
    if state.result is not None:
        return 0
    side = state.side
    seat = state.seats[side]
    moves = legal_moves(state, side)
    if not moves:
        return 1 if depth == 1 else perft_exact(evolve(state, TurnPassed(seat=seat)), depth - 1)
    if depth == 1:
        return len(moves)
    geo = state.geo
    total = 0
    for move in moves:
        path = tuple(geo.names[i] for i in representative_path(state, side, move))
        total += perft_exact(evolve(state, PieceMoved(seat=seat, path=path)), depth - 1)
    return total


def _fast(geo: Geometry, own: int, opp: int, own_target: int, opp_target: int, lock: int, depth: int) -> int:
    if depth == 1:
        n = count_moves(geo, own, opp, own_target, lock)
        if not n:
            raise _NeedExact
        return n
    moves = gen_moves(geo, own, opp, own_target, lock)
    if not moves:
        raise _NeedExact
    total = 0
    depth -= 1
    for f, t in moves:
        total += _fast(geo, opp, own ^ f ^ t, opp_target, own_target, lock, depth)
    return total


@cache
def _cage_patterns(geo: Geometry) -> tuple[int, ...]:
    """The 8 pattern squares of §6.7 around every square where a full cage fits."""
    out = []
    for r in range(3, geo.n - 1):
        for f in range(3, geo.n - 1):
            mask = 0
            for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                mask |= 1 << geo.idx(f + df, r + dr)
                mask |= 1 << geo.idx(f + 2 * df, r + 2 * dr)
            out.append(mask)
    return tuple(out)


def fast_path_safe(state: UgolkiState, depth: int) -> bool:
    """True when no filter or end rule can apply within ``depth`` plies (conservative)."""
    if state.result is not None:
        return False
    rs = state.ruleset
    geo = state.geo
    side = state.side
    # Upper bounds on the number of turns each side plays inside the tree.
    turns = [0, 0]
    for ply in range(depth):
        turns[(side + ply) % 2] += 1
    white_moves, black_moves = state.moves_made
    homes = geo.homes
    boards = (state.white, state.black)
    for p in (WHITE, BLACK):
        target = homes[1 - p]
        if target.bit_count() - (boards[p] & target).bit_count() <= turns[p]:
            return False  # completion possible
    if (
        rs.return_home_loss_after is not None
        and max(white_moves, black_moves) + depth > rs.return_home_loss_after
    ):
        return False
    last_black = black_moves + turns[BLACK]
    if rs.leave_home == "STAGE" and black_moves < rs.leave_home_moves <= last_black:
        return False
    if rs.leave_home == "CONT_GT" and last_black > rs.leave_home_moves:
        return False
    if rs.leave_home == "CONT_GE" and last_black >= rs.leave_home_moves:
        return False
    if rs.long_game != "none" and black_moves < rs.long_game_moves <= last_black:
        return False
    if rs.repetition != "none" and (depth >= 5 or len(set(state.positions)) < len(state.positions)):
        return False
    if rs.mirror_limit is not None and (rs.mirror_window is None or black_moves < rs.mirror_window):
        if state.copies + turns[BLACK] > rs.mirror_limit:
            return False
    if rs.vrednyugi:
        if any(state.vrednyugi_bound):
            return False
        if min((boards[p] & homes[p]).bit_count() for p in (WHITE, BLACK)) <= max(turns):
            return False
    if anti_lock_active(state):
        if rs.anti_lock_edges:
            return False
        for p in (WHITE, BLACK):
            if any((boards[p] & mask).bit_count() + turns[p] >= 8 for mask in _cage_patterns(geo)):
                return False
    return True


def perft_table(state: UgolkiState, depth: int) -> list[int]:
    """perft(1) .. perft(depth)."""
    return [perft(state, d) for d in range(1, depth + 1)]
