"""Geometric move generation on int bitboards (rules/ugolki.md §4.2).

This is the inner loop of perft, bots and audits: no structs, only ints.  ``own`` and
``opp`` are the bitboards of the side to move and of the other side.

``lock`` encodes the target-home lock (§6.6): 0 off, 1 every landing square of a piece that
starts in ``target`` must stay inside it, 2 only the final square must.
"""

from __future__ import annotations

from .geometry import Geometry, iter_bits


def _flood(jump_shifts: tuple[int, ...], origin: int, occ: int, empty: int) -> int:
    """All squares reachable from ``origin`` by jump chains (origin included)."""
    reach = frontier = origin
    while frontier:
        new = 0
        for s in jump_shifts:
            if s > 0:
                new |= ((frontier << s) & occ) << s
            else:
                new |= ((frontier >> -s) & occ) >> -s
        frontier = new & empty & ~reach
        reach |= frontier
    return reach


def _jumpers(jump_shifts: tuple[int, ...], own: int, occ: int, empty: int) -> int:
    """Own pieces with at least one single jump available."""
    out = 0
    for s in jump_shifts:
        if s > 0:
            out |= ((empty >> s) & occ) >> s
        else:
            out |= ((empty << -s) & occ) << -s
    return out & own


def count_moves(g: Geometry, own: int, opp: int, target: int = 0, lock: int = 0) -> int:
    """Number of distinct (from, to) moves of ``own`` (bulk count for perft leaves)."""
    occ = own | opp
    empty = g.board ^ occ
    free = own
    locked = 0
    if lock and own & target:
        locked = own & target
        free = own ^ locked
    n = 0
    for s in g.step_shifts:
        if s > 0:
            n += ((free << s) & empty).bit_count()
            if locked:
                n += ((locked << s) & empty & target).bit_count()
        else:
            n += ((free >> -s) & empty).bit_count()
            if locked:
                n += ((locked >> -s) & empty & target).bit_count()
    jump_shifts = g.jump_shifts
    jumpers = _jumpers(jump_shifts, own, occ, empty)
    while jumpers:
        p = jumpers & -jumpers
        jumpers ^= p
        if p & locked:
            if lock == 1:
                n += (_flood(jump_shifts, p, occ ^ p, (empty | p) & target) ^ p).bit_count()
            else:
                n += ((_flood(jump_shifts, p, occ ^ p, empty | p) & target) & ~p).bit_count()
        else:
            n += (_flood(jump_shifts, p, occ ^ p, empty | p) ^ p).bit_count()
    return n


def gen_moves(g: Geometry, own: int, opp: int, target: int = 0, lock: int = 0) -> list[tuple[int, int]]:
    """Every distinct (from_bit, to_bit) move of ``own``; steps first, then jumps."""
    occ = own | opp
    empty = g.board ^ occ
    locked = own & target if lock else 0
    out: list[tuple[int, int]] = []
    for s in g.step_shifts:
        if s > 0:
            dests = (own << s) & empty
            for t in iter_bits(dests):
                f = t >> s
                if not (f & locked) or t & target:
                    out.append((f, t))
        else:
            dests = (own >> -s) & empty
            for t in iter_bits(dests):
                f = t << -s
                if not (f & locked) or t & target:
                    out.append((f, t))
    jump_shifts = g.jump_shifts
    for p in iter_bits(_jumpers(jump_shifts, own, occ, empty)):
        if p & locked:
            if lock == 1:
                reach = _flood(jump_shifts, p, occ ^ p, (empty | p) & target)
            else:
                reach = _flood(jump_shifts, p, occ ^ p, empty | p) & target
        else:
            reach = _flood(jump_shifts, p, occ ^ p, empty | p)
        for t in iter_bits(reach & ~p):
            out.append((p, t))
    return out


def jump_reach(g: Geometry, own: int, opp: int, origin: int, inside: int | None = None) -> dict[int, int]:
    """Breadth-first jump chains from ``origin`` (an index): landing index -> parent index.

    ``inside`` restricts every landing square to a mask (the target-home lock).  The first
    parent found is kept, so the representative path is a shortest chain in a fixed
    direction order.
    """
    ob = 1 << origin
    occ = (own | opp) ^ ob
    empty = g.board ^ occ  # the origin counts as empty while the chain is under way
    if inside is not None:
        empty &= inside
    parent: dict[int, int] = {origin: -1}
    queue = [origin]
    for sq in queue:
        for s in g.jump_shifts:
            over = sq + s
            land = sq + 2 * s
            if over < 0 or land < 0:
                continue
            if (occ >> over) & 1 and (empty >> land) & 1 and land not in parent:
                parent[land] = sq
                queue.append(land)
    return parent


def path_to(parent: dict[int, int], dest: int) -> tuple[int, ...]:
    path = [dest]
    while parent[path[-1]] != -1:
        path.append(parent[path[-1]])
    return tuple(reversed(path))
