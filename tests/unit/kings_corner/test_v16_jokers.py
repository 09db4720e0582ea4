"""V16 (rules/kings-corner.md §5.6 ``after_stock_exhausted``) with V17 jokers in the deck."""

from __future__ import annotations

from contracts.games.kings_corner import PlayCard
from domain.games.kings_corner import GAME

from .conftest import dealt, kc


def test_v16_a_joker_drawn_after_going_out_must_be_placed_when_an_empty_slot_takes_it() -> None:
    """V16: the card drawn after going out goes to an empty slot if it may legally go there; a
    joker may, declared as a king in an empty corner (V17), so it is pending in phase place."""
    given = dealt(hands=("8C", "3D"), layout={"N": "9H", "E": "QD", "S": "5S", "W": "4H"}, stock="RJ 2C 7D")
    state = (
        kc("becker-four-card", jokers=2)
        .given(given)
        .when("p1", PlayCard(card="8C", slot="N"))
        .then_accepted()
    )
    assert state.phase == "place" and state.pending == "RJ"
    legal = GAME.legal_commands(state, "p1")
    assert legal and all(isinstance(c, PlayCard) and c.card == "RJ" and c.as_card for c in legal)
    assert {c.slot for c in legal} == {"NE", "SE", "SW", "NW"}  # type: ignore[union-attr]
