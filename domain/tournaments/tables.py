"""Fair tables for 3- and 4-seat games.

Each round seats the players at tables of ``size`` (and ``min_size`` when the count does not
divide); over the tournament every pair should meet as evenly as the numbers allow and every
player should sit in every position (seat 0 deals or leads first) as evenly as possible.

The measure optimised, reported by ``evenness``:

    pairs     = sum over every pair of players of (meetings - mean meetings)^2
    positions = sum over every player and position p of (times in p - expected times in p)^2
                where a table of k seats adds 1/k to the expected count of each of its k positions
    total     = pairs + POSITION_WEIGHT * positions

With a fixed number of meetings, ``pairs`` is smallest exactly when all pair counts are within 1
of each other, so the planner minimises sum(meetings^2).  It plans the remaining rounds at once:
a greedy seating per round (the next player in a seeded order joins the table whose members it
has met least), then a local search swapping two players between two tables of one round while
the sum does not grow, until every pair count is within 1 of every other or the budget is spent.
Positions are then given table by table, round by round: the permutation of the table's seats
(all of them, at most 24) that lowers the players' position imbalance most.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence

import msgspec

from domain.core.rng import Stream, permutation

POSITION_WEIGHT = 1.0
GREEDY_WINDOW = 64  # candidates a greedy seat looks at (enough when most pairs have not met)

Seating = tuple[tuple[str, ...], ...]  # one round: each table's seats in position order


class Evenness(msgspec.Struct, frozen=True, kw_only=True):
    pairs: float
    positions: float
    total: float
    min_meetings: int
    max_meetings: int
    max_position_gap: float  # the largest |times in p - expected| of any player and position


class PlannedRound(msgspec.Struct, frozen=True, kw_only=True):
    tables: Seating
    byes: tuple[str, ...]


def table_sizes(count: int, size: int, min_size: int) -> tuple[tuple[int, ...], int]:
    """The tables of a round of ``count`` players, biggest first, and how many sit out."""
    if count < min_size:
        return (), count
    k = -(-count // size)
    if k * min_size <= count:
        sizes = [min_size] * k
        extra = count - k * min_size
        for i in range(k):
            add = min(size - min_size, extra)
            sizes[i] += add
            extra -= add
        return tuple(sorted(sizes, reverse=True)), 0
    k = count // size
    return (size,) * k, count - k * size


def evenness(
    rounds: Sequence[Seating], players: Sequence[str] | None = None, position_weight: float = POSITION_WEIGHT
) -> Evenness:
    """The measure of a schedule (module docstring) over ``players`` (default: everyone seated)."""
    meet: Counter[tuple[str, str]] = Counter()
    pos: Counter[tuple[str, int]] = Counter()
    expected: dict[tuple[str, int], float] = {}
    seen: set[str] = set()
    for seating in rounds:
        for table in seating:
            k = len(table)
            for p, player in enumerate(table):
                seen.add(player)
                pos[player, p] += 1
                for q in range(k):
                    expected[player, q] = expected.get((player, q), 0.0) + 1.0 / k
            for a, b in itertools.combinations(sorted(table), 2):
                meet[a, b] += 1
    everyone = sorted(seen if players is None else set(players))
    pair_count = len(everyone) * (len(everyone) - 1) // 2
    total_meetings = sum(meet.values())
    mean = total_meetings / pair_count if pair_count else 0.0
    sum_sq = sum(c * c for c in meet.values())
    pairs_term = sum_sq - 2 * mean * total_meetings + pair_count * mean * mean
    counts = list(meet.values())
    if len(counts) < pair_count:
        counts.append(0)
    positions_term = 0.0
    gap = 0.0
    for (player, q), e in expected.items():
        d = pos[player, q] - e
        positions_term += d * d
        gap = max(gap, abs(d))
    return Evenness(
        pairs=round(pairs_term, 9),
        positions=round(positions_term, 9),
        total=round(pairs_term + position_weight * positions_term, 9),
        min_meetings=min(counts) if counts else 0,
        max_meetings=max(counts) if counts else 0,
        max_position_gap=round(gap, 9),
    )


def _key(a: int, b: int) -> int:
    return a * 65536 + b if a < b else b * 65536 + a


def plan(
    players: Sequence[str],
    prior: Sequence[PlannedRound],
    rounds: int,
    size: int,
    min_size: int,
    key: bytes,
    label: bytes,
    budget: int | None = None,
) -> tuple[PlannedRound, ...]:
    """Seat ``players`` (in seeding order) for the next ``rounds`` rounds, after the ``prior``
    rounds (their meetings, positions and byes count).  A pure function of its arguments."""
    n = len(players)
    index = {p: i for i, p in enumerate(players)}
    meet: Counter[int] = Counter()
    pos: list[list[int]] = [[0] * size for _ in range(n)]
    expected: list[list[float]] = [[0.0] * size for _ in range(n)]
    byes = [0] * n
    for past in prior:
        for table in past.tables:
            ids = [index[p] for p in table if p in index]
            for a, b in itertools.combinations(ids, 2):
                meet[_key(a, b)] += 1
            for q, p in enumerate(table):
                if p in index:
                    i = index[p]
                    pos[i][q] += 1
                    for r in range(len(table)):
                        expected[i][r] += 1.0 / len(table)
        for p in past.byes:
            if p in index:
                byes[index[p]] += 1
    sizes, sitting_out = table_sizes(n, size, min_size)
    groups: list[list[list[int]]] = []
    bye_rounds: list[list[int]] = []
    for r in range(rounds):
        # byes: fewest so far, then the lowest seed
        out = sorted(range(n), key=lambda i: (byes[i], -i))[:sitting_out]
        for i in out:
            byes[i] += 1
        bye_rounds.append(sorted(out))
        out_set = set(out)
        order = [i for i in permutation(key, label + b":order:" + str(r).encode(), n) if i not in out_set]
        tables: list[list[int]] = []
        for sz in sizes:
            members = [order.pop(0)]
            while len(members) < sz:
                best, best_cost = 0, -1
                for c in range(min(GREEDY_WINDOW, len(order))):
                    cand = order[c]
                    cost = sum(meet[_key(cand, m)] for m in members)
                    if best_cost < 0 or cost < best_cost:
                        best, best_cost = c, cost
                        if cost == 0:
                            break
                members.append(order.pop(best))
            for a, b in itertools.combinations(members, 2):
                meet[_key(a, b)] += 1
            tables.append(members)
        groups.append(tables)
    _improve(groups, meet, n, key, label, budget)
    planned: list[PlannedRound] = []
    for tables, out in zip(groups, bye_rounds, strict=True):
        seated: list[tuple[str, ...]] = []
        for members in tables:
            k = len(members)
            best_perm: tuple[int, ...] = tuple(members)
            best_perm_cost: float | None = None
            for perm in itertools.permutations(sorted(members)):
                imbalance = 0.0
                for q, i in enumerate(perm):
                    for r in range(k):
                        e = expected[i][r] + 1.0 / k
                        c = pos[i][r] + (1 if r == q else 0)
                        imbalance += (c - e) ** 2
                if best_perm_cost is None or imbalance < best_perm_cost - 1e-9:
                    best_perm, best_perm_cost = perm, imbalance
            for q, i in enumerate(best_perm):
                pos[i][q] += 1
                for r in range(k):
                    expected[i][r] += 1.0 / k
            seated.append(tuple(players[i] for i in best_perm))
        planned.append(PlannedRound(tables=tuple(seated), byes=tuple(players[i] for i in out)))
    return tuple(planned)


def _improve(
    groups: list[list[list[int]]], meet: Counter[int], n: int, key: bytes, label: bytes, budget: int | None
) -> None:
    """Swap players between tables of one round while sum(meetings^2) does not grow."""
    pair_count = n * (n - 1) // 2
    hist: Counter[int] = Counter(meet[k] for k in meet if meet[k])
    zero = pair_count - sum(hist.values())
    if zero:
        hist[0] = zero

    def even() -> bool:
        live = [c for c, v in hist.items() if v]
        return max(live) - min(live) <= 1

    movable = [r for r, tables in enumerate(groups) if len(tables) >= 2]
    if not movable or even():
        return
    stream = Stream(key, label + b":improve")
    steps = budget if budget is not None else min(200_000, 4000 * len(movable) * max(1, n // 4))

    cost = 0.0
    best_cost = 0.0
    best = [[list(t) for t in groups[r]] for r in movable]

    def shift(k: int, by: int) -> None:
        c = meet[k]
        hist[c] -= 1
        hist[c + by] += 1
        meet[k] = c + by

    for _ in range(steps):
        tables = groups[movable[stream.randbelow(len(movable))]]
        t1 = stream.randbelow(len(tables))
        t2 = stream.randbelow(len(tables) - 1)
        if t2 >= t1:
            t2 += 1
        i1 = stream.randbelow(len(tables[t1]))
        i2 = stream.randbelow(len(tables[t2]))
        a, b = tables[t1][i1], tables[t2][i2]
        rest1 = [x for x in tables[t1] if x != a]
        rest2 = [y for y in tables[t2] if y != b]
        delta = 0
        for x in rest1:
            delta += -(2 * meet[_key(a, x)] - 1) + (2 * meet[_key(b, x)] + 1)
        for y in rest2:
            delta += -(2 * meet[_key(b, y)] - 1) + (2 * meet[_key(a, y)] + 1)
        # sideways moves walk the plateaus; a rare small uphill move leaves a local minimum
        if delta > 0 and not (delta <= 4 and stream.randbelow(64) == 0):
            continue
        for x in rest1:
            shift(_key(a, x), -1)
            shift(_key(b, x), 1)
        for y in rest2:
            shift(_key(b, y), -1)
            shift(_key(a, y), 1)
        tables[t1][i1], tables[t2][i2] = b, a
        cost += delta
        if cost < best_cost:
            best_cost = cost
            best = [[list(t) for t in groups[r]] for r in movable]
            if even():
                return
    for r, tables in zip(movable, best, strict=True):
        groups[r] = tables
