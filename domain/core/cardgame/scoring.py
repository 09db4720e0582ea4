"""Round scoring helpers shared by card games: hand values, running totals, the end of a match.

Seats are indexes; ``out_round[i]`` is 0 while seat ``i`` plays and the round it dropped out in
otherwise.  The rotation and match-end functions are those of ``domain.core.rounds`` (re-exported
here so a card game imports its kernel from one place).

- ``hand_value(hand, value)``: the points of the cards left in a hand under a point table;
- ``add_points(totals, points)``: running totals after a round;
- ``reached`` / ``match_over``: targets (reach or strictly exceed), fixed rounds, single round,
  elimination;
- ``standings`` / ``places``: places per seat, 1 best, equal keys sharing a place.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from domain.core.rounds import MatchEndKind, match_over, next_seat, places, reached, seats_from, standings

__all__ = [
    "MatchEndKind",
    "add_points",
    "hand_value",
    "match_over",
    "next_seat",
    "places",
    "reached",
    "seats_from",
    "standings",
]


def hand_value(hand: Sequence[str], value: Callable[[str], int]) -> int:
    """Sum of ``value(card)`` over the cards of ``hand``."""
    return sum(value(c) for c in hand)


def add_points(totals: Sequence[int], points: Mapping[int, int]) -> tuple[int, ...]:
    """``totals`` with ``points[i]`` added for every seat index in ``points``."""
    return tuple(t + points.get(i, 0) for i, t in enumerate(totals))
