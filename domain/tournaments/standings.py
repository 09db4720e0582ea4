"""Standings and tie-breaks, computed from the games' results.

A game is a table (its seats) with the ranks recorded for it.  Against each table mate a player
scores 2 half points when placed above, 1 when level, 0 below (a win, a draw, a loss in a
two-seat game).  Tie-breaks, in the order the settings name them:

- ``buchholz``: the sum of the final points of every opponent met (every table mate of every
  counted game; a bye adds nothing);
- ``median_buchholz``: Buchholz without the highest and the lowest of those opponents' points;
- ``sonneborn_berger``: the sum over opponents of their final points times the result against
  them (1, 1/2, 0);
- ``direct_encounter``: among players equal on points and every earlier tie-break, the points
  scored in the games between them;
- ``wins``: games finished first alone at the table (forfeits won included, byes not);
- ``game_totals``: the sum of the game's own scores (a card game's totals) as recorded.

Players equal on everything share a rank and are listed in seeding order.  A voided game counts
for nobody.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence

import msgspec

from contracts.tournaments import Standing


class CountedGame(msgspec.Struct, frozen=True, kw_only=True):
    seats: tuple[str, ...]
    ranks: tuple[int, ...]
    scores: tuple[int, ...] = ()


def pair_points(ranks: Sequence[int], i: int, j: int) -> int:
    """Half points seat i scores against seat j."""
    return 2 if ranks[i] < ranks[j] else 1 if ranks[i] == ranks[j] else 0


def points_of(game: CountedGame) -> tuple[int, ...]:
    n = len(game.seats)
    return tuple(sum(pair_points(game.ranks, i, j) for j in range(n) if j != i) for i in range(n))


def standings(
    players: Sequence[str],
    games: Sequence[CountedGame],
    byes: Mapping[str, int],
    tie_breaks: Sequence[str],
) -> tuple[Standing, ...]:
    """``players`` in seeding order; ``byes``: half points from byes per player."""
    points: dict[str, int] = {p: byes.get(p, 0) for p in players}
    wins: dict[str, int] = dict.fromkeys(players, 0)
    totals: dict[str, int] = dict.fromkeys(players, 0)
    met: dict[str, list[tuple[str, int]]] = defaultdict(list)  # opponent, half points against
    for game in games:
        for i, p in enumerate(game.seats):
            for j, q in enumerate(game.seats):
                if i != j:
                    score = pair_points(game.ranks, i, j)
                    points[p] = points.get(p, 0) + score
                    met[p].append((q, score))
            if game.ranks.count(game.ranks[i]) == 1 and game.ranks[i] == min(game.ranks):
                wins[p] = wins.get(p, 0) + 1
            if game.scores:
                totals[p] = totals.get(p, 0) + game.scores[i]

    def value(tb: str, p: str) -> float:
        if tb == "buchholz":
            return sum(points.get(q, 0) for q, _ in met[p]) / 2
        if tb == "median_buchholz":
            opp = sorted(points.get(q, 0) for q, _ in met[p])
            return sum(opp[1:-1]) / 2 if len(opp) > 2 else 0.0
        if tb == "sonneborn_berger":
            return sum(points.get(q, 0) * s for q, s in met[p]) / 4
        if tb == "wins":
            return float(wins[p])
        if tb == "game_totals":
            return float(totals[p])
        raise ValueError(f"unknown tie-break {tb}")

    seed = {p: i for i, p in enumerate(players)}
    keys: dict[str, list[float]] = {p: [points[p] / 2] for p in players}
    for tb in tie_breaks:
        if tb != "direct_encounter":
            for p in players:
                keys[p].append(value(tb, p))
            continue
        groups: dict[tuple[float, ...], list[str]] = defaultdict(list)
        for p in players:
            groups[tuple(keys[p])].append(p)
        for group in groups.values():
            members = set(group)
            for p in group:
                mutual = sum(s for q, s in met[p] if q in members and q != p) if len(group) > 1 else 0
                keys[p].append(mutual / 2)
    ordered = sorted(players, key=lambda p: ([-v for v in keys[p]], seed[p]))
    rows: list[Standing] = []
    for i, p in enumerate(ordered):
        rank = rows[-1].rank if rows and keys[ordered[i - 1]] == keys[p] else i + 1
        rows.append(Standing(rank=rank, player=p, points=keys[p][0], tie_breaks=tuple(keys[p][1:])))
    return tuple(rows)
