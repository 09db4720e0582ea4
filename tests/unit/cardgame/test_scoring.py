"""Shared round structure (domain/core/cardgame/scoring.py): rotation, targets, elimination, places."""

from __future__ import annotations

from domain.core.cardgame import scoring as rounds


def test_rotation_skips_eliminated_seats() -> None:
    """§5.6 Dealer passes left; E26: eliminated seats are skipped for dealing and turns."""
    assert rounds.next_seat((0, 0, 0), 2) == 0
    assert rounds.next_seat((0, 2, 0), 0) == 2
    assert rounds.seats_from((0, 1, 0, 0), 3) == (0, 2, 3)


def test_targets_and_match_end() -> None:
    """§5.7 and Q9: reach-or-exceed by default, strictly-exceed for negative-25."""
    assert rounds.reached(25, 25) and not rounds.reached(25, 25, strict=True)
    assert rounds.match_over("fixed_rounds", 3, 3, (0, 0), (0, 1)) == (True, frozenset())
    assert rounds.match_over("fixed_rounds", 3, 2, (0, 0), (0, 1)) == (False, frozenset())
    assert rounds.match_over("target", 50, 9, (49, 50), (0, 1)) == (True, frozenset())
    assert rounds.match_over("elimination", 25, 4, (25, 3, 30), (0, 1, 2)) == (True, frozenset({0, 2}))
    assert rounds.match_over("elimination", 25, 4, (25, 3, 10), (0, 1, 2)) == (False, frozenset({0}))


def test_standings_share_places_and_rank_survivors_first() -> None:
    """§5.7 Q10/Q11: shared places on ties; survivors first, later eliminations before earlier ones."""
    assert rounds.standings((3, 3, 7), (0, 0, 0)) == (1, 1, 3)
    assert rounds.standings((30, 10, 26), (1, 0, 2)) == (3, 1, 2)
    assert rounds.standings((20, -15, -5), (0, 0, 0), lower_is_better=False) == (1, 3, 2)
