"""Geometric move generation on int bitboards (rules/ugolki.md §4.2).

This is the inner loop of perft, bots and audits: no structs, only ints.  ``own`` and
``opp`` are the bitboards of the side to move and of the other side.

``lock`` encodes the target-home lock (§6.6): 0 off, 1 every landing square of a piece that
starts in ``target`` must stay inside it, 2 only the final square must.
"""

from __future__ import annotations

from .geometry import Geometry


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


# Why one jump graph serves every piece of a position: a jump changes each coordinate by 0 or
# +-2, so a chain never lands next to its origin and can never jump over it; the origin being
# empty during the chain therefore changes nothing but the origin itself as a landing square,
# which adds no destination.  Between empty squares the jump relation is symmetric, so the
# squares a piece reaches are the union of the connected components of its first landings.


def _jump_sources(g: Geometry, occ: int, empty: int) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Per direction: (squares q with q+s occupied and q+2s empty, 2|s|), split by shift sign."""
    up = [((((empty >> k) & occ) >> k), k + k) for k in g.jump_up]
    down = [((((empty << k) & occ) << k), k + k) for k in g.jump_down]
    return up, down


def _component(start: int, up: list[tuple[int, int]], down: list[tuple[int, int]]) -> int:
    """The connected component of ``start`` (an empty square) in the jump graph."""
    reach = frontier = start
    while frontier:
        new = 0
        for a, k2 in up:
            new |= (frontier & a) << k2
        for a, k2 in down:
            new |= (frontier & a) >> k2
        frontier = new & ~reach
        reach |= frontier
    return reach


def _components(free: int, up: list[tuple[int, int]], down: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """(component, pieces of ``free`` whose first jump lands in it) for every reachable component."""
    first = 0
    for a, k2 in up:
        first |= (a & free) << k2
    for a, k2 in down:
        first |= (a & free) >> k2
    out = []
    while first:
        c = _component(first & -first, up, down)
        first &= ~c
        into = 0
        for a, k2 in up:
            into |= (c >> k2) & a
        for a, k2 in down:
            into |= (c << k2) & a
        out.append((c, into & free))
    return out


def count_moves(g: Geometry, own: int, opp: int, target: int = 0, lock: int = 0) -> int:
    """Number of distinct (from, to) moves of ``own`` (bulk count for perft leaves)."""
    occ = own | opp
    empty = g.board ^ occ
    locked = own & target if lock else 0
    free = own ^ locked
    n = 0
    for k in g.step_up:
        n += ((free << k) & empty).bit_count()
    for k in g.step_down:
        n += ((free >> k) & empty).bit_count()
    # Jumps: a piece reaches every square of each component its first jumps land in.  A landing
    # square with no onward jump is a component of its own: count those single jumps in bulk.
    up = []
    onward = 0
    for k in g.jump_up:
        a = ((empty >> k) & occ) >> k
        up.append((a, k + k))
        onward |= a
    down = []
    for k in g.jump_down:
        a = ((empty << k) & occ) << k
        down.append((a, k + k))
        onward |= a
    onward &= empty
    first = 0
    for a, k2 in up:
        land = (a & free) << k2
        n += (land & ~onward).bit_count()
        first |= land
    for a, k2 in down:
        land = (a & free) >> k2
        n += (land & ~onward).bit_count()
        first |= land
    first &= onward
    while first:
        reach = frontier = first & -first
        while frontier:
            new = 0
            for a, k2 in up:
                new |= (frontier & a) << k2
            for a, k2 in down:
                new |= (frontier & a) >> k2
            frontier = new & ~reach
            reach |= frontier
        first &= ~reach
        into = 0
        for a, k2 in up:
            into |= (reach >> k2) & a
        for a, k2 in down:
            into |= (reach << k2) & a
        n += reach.bit_count() * (into & free).bit_count()
    if locked:
        inside = empty & target
        for k in g.step_up:
            n += ((locked << k) & inside).bit_count()
        for k in g.step_down:
            n += ((locked >> k) & inside).bit_count()
        while locked:
            p = locked & -locked
            locked ^= p
            n += _locked_reach(g, p, occ, empty, target, lock).bit_count()
    return n


def _locked_reach(g: Geometry, p: int, occ: int, empty: int, target: int, lock: int) -> int:
    """Destinations of a piece standing in its target home under the target-home lock (§6.6)."""
    if lock == 1:
        return _flood(g.jump_shifts, p, occ ^ p, (empty | p) & target) & ~p
    return _flood(g.jump_shifts, p, occ ^ p, empty | p) & target & ~p


def gen_moves(g: Geometry, own: int, opp: int, target: int = 0, lock: int = 0) -> list[tuple[int, int]]:
    """Every distinct (from_bit, to_bit) move of ``own``: steps, then jumps by component."""
    occ = own | opp
    empty = g.board ^ occ
    locked = own & target if lock else 0
    free = own ^ locked
    out: list[tuple[int, int]] = []
    inside = empty & target
    for k in g.step_up:
        dests = ((free << k) & empty) | ((locked << k) & inside)
        while dests:
            t = dests & -dests
            dests ^= t
            out.append((t >> k, t))
    for k in g.step_down:
        dests = ((free >> k) & empty) | ((locked >> k) & inside)
        while dests:
            t = dests & -dests
            dests ^= t
            out.append((t << k, t))
    up, down = _jump_sources(g, occ, empty)
    for comp, into in _components(free, up, down):
        while into:
            p = into & -into
            into ^= p
            dests = comp
            while dests:
                t = dests & -dests
                dests ^= t
                out.append((p, t))
    while locked:
        p = locked & -locked
        locked ^= p
        dests = _locked_reach(g, p, occ, empty, target, lock)
        while dests:
            t = dests & -dests
            dests ^= t
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
