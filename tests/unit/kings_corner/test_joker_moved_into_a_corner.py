"""A joker that reaches a corner pile with its pile bars the card it stands for (rules/kings-corner.md
§2.12 V17, §5.4 A2 and A4, Q16; 000:L596).

Q16: "A joker in a corner bars its real card from corners only, not from cross piles"; A2: under
V17 a card in ``corner_barred_cards`` may not be played to a corner. A joker declared in a cross
pile is in a corner once MOVE_PILE puts its pile there, so its real card is barred from then on.
"""

from __future__ import annotations

from contracts.envelope import Rejected
from contracts.games.kings_corner import MovePile, PlayCard

from .conftest import dealt, kc, then_from


def test_q16_a_joker_moved_into_a_corner_with_its_pile_bars_its_real_card_from_the_corners() -> None:
    """`freeman-jokers`: p1 plays the joker on N's 9♠ as 8♥ (a cross pile: nothing barred), moves
    the pile N onto the corner NE (base 9♠ on 10♦), then tries the real 8♥ on the corner SE's 9♣,
    where it would fit: refused, 8♥ is barred. In the empty cross slot W it is still accepted."""
    spec = kc("freeman-jokers").given(
        dealt(
            hands=("RJ 8H 5D", "3H"),
            layout={"N": "9S", "NE": "KS QH JS 10D", "SE": "KC QD JC 10H 9C"},
            stock="4C 5C 6C",
        )
    )
    state = spec.when("p1", PlayCard(card="RJ", slot="N", as_card="8H")).then_accepted()
    state = then_from(state).when("p1", MovePile(from_slot="N", to_slot="NE")).then_accepted()
    refused = then_from(state).when("p1", PlayCard(card="8H", slot="SE")).result
    assert isinstance(refused, Rejected) and refused.code == "card_barred"
    then_from(state).when("p1", PlayCard(card="8H", slot="W")).then_accepted()
