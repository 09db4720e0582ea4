"""Round scoring helpers shared by card games: hand values, running totals, the end of a match.

Seats are indexes; ``out_round[i]`` is 0 while seat ``i`` plays and the round it dropped out in
otherwise.

- ``next_seat`` / ``seats_from``: rotation to the left, skipping seats that are out;
- ``hand_value(hand, value)``: the points of the cards left in a hand under a point table;
- ``add_points(totals, points)``: running totals after a round;
- ``reached`` / ``match_over``: targets (reach or strictly exceed), fixed rounds, single round,
  elimination;
- ``standings`` / ``places``: places per seat, 1 best, equal keys sharing a place; seats still
  in beat eliminated ones (later eliminations first), and seats that resigned come last (later
  resignations first).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Literal

MatchEndKind = Literal["single_round", "fixed_rounds", "target", "elimination"]


def next_seat(out_round: Sequence[int], i: int) -> int:
    """The next seat clockwise (to the left) after ``i`` that still plays (``out_round[j] == 0``)."""
    n = len(out_round)
    for step in range(1, n + 1):
        j = (i + step) % n
        if out_round[j] == 0:
            return j
    raise ValueError("no seat is still playing")


def seats_from(out_round: Sequence[int], dealer: int) -> tuple[int, ...]:
    """Every playing seat, starting with the one left of ``dealer`` (deal and turn order)."""
    first = next_seat(out_round, dealer)
    order = [first]
    while len(order) < sum(1 for r in out_round if r == 0):
        order.append(next_seat(out_round, order[-1]))
    return tuple(order)


def reached(total: int, target: int, strict: bool = False) -> bool:
    """A running total against a target: reach-or-exceed, or strictly exceed."""
    return total > target if strict else total >= target


def match_over(
    kind: MatchEndKind,
    value: int,
    round_no: int,
    totals: Sequence[int],
    playing: Sequence[int],
    strict: bool = False,
) -> tuple[bool, frozenset[int]]:
    """After a round is scored: is the match over, and which playing seats drop out now."""
    if kind == "single_round":
        return True, frozenset()
    if kind == "fixed_rounds":
        return round_no >= value, frozenset()
    if kind == "target":
        return any(reached(totals[j], value, strict) for j in playing), frozenset()
    out = frozenset(j for j in playing if reached(totals[j], value, strict))
    return len(playing) - len(out) <= 1, out


def places(keys: Sequence[tuple[int, ...]]) -> tuple[int, ...]:
    """Places (1 best) from sort keys, lower key better; equal keys share a place."""
    return tuple(1 + sum(1 for k in keys if k < mine) for mine in keys)


def hand_value(hand: Sequence[str], value: Callable[[str], int]) -> int:
    """Sum of ``value(card)`` over the cards of ``hand``."""
    return sum(value(c) for c in hand)


def add_points(totals: Sequence[int], points: Mapping[int, int]) -> tuple[int, ...]:
    """``totals`` with ``points[i]`` added for every seat index in ``points``."""
    return tuple(t + points.get(i, 0) for i, t in enumerate(totals))


def standings(
    totals: Sequence[int],
    out_round: Sequence[int],
    lower_is_better: bool = True,
    resigned: Sequence[int] = (),
) -> tuple[int, ...]:
    """Places per seat (1 best).

    ``out_round[i]``: the round seat ``i`` dropped out in (0 = still in); ``resigned[i]``: 1, 2, ...
    in the order seats resigned (0 = did not).  Seats still in rank first by total, then
    eliminated seats (the later out first, then by total), then resigned seats (the later first).
    """
    keys = []
    for i, (total, out) in enumerate(zip(totals, out_round, strict=True)):
        t = total if lower_is_better else -total
        if resigned and resigned[i]:
            keys.append((2, -resigned[i], 0))
        elif out:
            keys.append((1, -out, t))
        else:
            keys.append((0, 0, t))
    return places(keys)
