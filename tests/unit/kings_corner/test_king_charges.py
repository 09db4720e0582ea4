"""penalty3 (rules/kings-corner.md §5.4 A6, §5.9 vector 16): which kings a turn's charge counts."""

from __future__ import annotations

from contracts.games.kings_corner import CardsDrawn, EndTurn, KingPenaltyCharged, TurnEnded

from .conftest import dealt, kc


def test_a_king_drawn_at_the_start_of_the_turn_and_held_back_costs_3() -> None:
    """A6 penalty3: a king "in hand at some moment of this turn's PLAY phase when an empty corner
    existed" costs 3; only the king drawn by the turn-ending DRAW of end timing is exempt
    (vector 16).  Under start timing the drawn K♣ is held through the PLAY phase."""
    given = dealt(hands=("5D 9C", "8D"), stock="KC 9H 4S", first="p2")
    spec = kc("pagat-kings-penalty", draw_timing="start").given(
        given,
        TurnEnded(seat="p2", next_seat="p1"),
        CardsDrawn(seat="p1", cards=("KC",), count=1, reason="turn_start"),
    )
    spec.when("p1", EndTurn()).then(
        KingPenaltyCharged(seat="p1", points=3),
        TurnEnded(seat="p1", next_seat="p2"),
        CardsDrawn(seat="p2", cards=("9H",), count=1, reason="turn_start"),
    )
