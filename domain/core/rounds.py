"""Match structure shared by card games: seats in rotation, running totals, the end of a match.

Pure helpers over plain tuples; each game records the results as its own events.
"""

from __future__ import annotations

from collections.abc import Sequence
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


def standings(
    totals: Sequence[int], out_round: Sequence[int], lower_is_better: bool = True
) -> tuple[int, ...]:
    """Places per seat: seats still in beat eliminated ones (later eliminations first), then by total."""
    keys = []
    for total, out in zip(totals, out_round, strict=True):
        t = total if lower_is_better else -total
        keys.append((1, -out, t) if out else (0, 0, t))
    return places(keys)
