"""penalty3 is decided turn by turn (rules/kings-corner.md §5.4 A6, §5.9 vector 16, E13, D1).

A6: "for each king still in the seat's hand that was in hand at some moment of **this turn's**
PLAY phase when an empty corner existed, add 3 penalty points". A king held back in one turn
while a corner was empty costs 3 for that turn; in a later turn in which no corner is empty
(E13: possible with two decks) it costs nothing.
"""

from __future__ import annotations

from contracts.games.kings_corner import EndTurn, KingPenaltyCharged, PlayCard

from .conftest import dealt, kc, then_from


def _charges(result: object) -> list[KingPenaltyCharged]:
    events = result.result  # type: ignore[attr-defined]
    assert isinstance(events, tuple)
    return [e for e in events if isinstance(e, KingPenaltyCharged)]


def test_a_king_held_back_costs_nothing_in_a_later_turn_with_every_corner_full() -> None:
    """Two decks, `pagat-kings-penalty` (end timing): p1 holds K♣ while NE is empty and ends its
    turn (+3). p2 fills NE with its second-deck K♥. p1's next turn has no empty corner, so ending
    it with K♣ still in hand costs nothing."""
    spec = kc("pagat-kings-penalty", decks=2).given(
        dealt(
            hands=("KC 5D", "KH2 8D"),
            layout={"SE": "KD", "SW": "KH", "NW": "KS", "N": "9S"},
            stock="2C 3C 4C 6C 7C",
        )
    )
    result = spec.when("p1", EndTurn())
    state = result.then_accepted()
    assert _charges(result) == [KingPenaltyCharged(seat="p1", points=3)]
    state = then_from(state).when("p2", PlayCard(card="KH2", slot="NE")).then_accepted()
    state = then_from(state).when("p2", EndTurn()).then_accepted()
    result = then_from(state).when("p1", EndTurn())
    result.then_accepted()
    assert _charges(result) == []
