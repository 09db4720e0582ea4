"""Jokers on the layout (rules/kings-corner.md V17, §5.2 "For jokers, use as_card", §5.4 A3/A4,
Decision D7): a pile whose base is a joker moves as its declared card, and a card a corner joker
stands for enters no corner, not even as the third card of a run."""

from __future__ import annotations

from contracts.envelope import Rejected
from contracts.games.kings_corner import CardPlayed, MovePile, PileMoved, PlayCard, PlayRun
from domain.games.kings_corner import GAME

from .conftest import dealt, kc, then_from


def _legal(state: object) -> tuple[object, ...]:
    return GAME.legal_commands(state, "p1")  # type: ignore[arg-type]


def test_a_pile_with_a_joker_at_its_base_moves_as_the_declared_card() -> None:
    """A4 with §5.2: the moving pile's base is the joker, declared 9♥: it fits the black 10 at N."""
    given = dealt(hands=("RJ 2D", "3H"), layout={"N": "10S"}, stock="4C 5C")
    state = (
        kc("freeman-jokers")
        .given(given)
        .when("p1", PlayCard(card="RJ", slot="E", as_card="9H"))
        .then(CardPlayed(seat="p1", card="RJ", slot="E", as_card="9H"))
    )
    move = MovePile(from_slot="E", to_slot="N")
    assert move in _legal(state)
    after = then_from(state).when("p1", move).then(PileMoved(seat="p1", from_slot="E", to_slot="N"))
    assert after.layout[0] == ("10S", "RJ") and after.layout[1] == ()


def test_a_run_into_a_corner_stops_before_a_card_a_corner_joker_stands_for() -> None:
    """V17 (000:L596): with the joker declared 10♥ in corner NE, the real 10♥ "can no longer be
    played or moved to a corner pile": the run Q♦ J♣ may go to the K♣ corner, Q♦ J♣ 10♥ may not."""
    given = dealt(hands=("RJ QD JC 10H 5C", "3H"), layout={"NE": "KS QH JS", "SE": "KC"}, stock="4C 5D")
    state = (
        kc("freeman-jokers")
        .given(given)
        .when("p1", PlayCard(card="RJ", slot="NE", as_card="10H"))
        .then(CardPlayed(seat="p1", card="RJ", slot="NE", as_card="10H"))
    )
    legal = _legal(state)
    assert PlayRun(cards=("QD", "JC"), slot="SE") in legal
    assert PlayRun(cards=("QD", "JC", "10H"), slot="SE") not in legal
    assert then_from(state).when("p1", PlayRun(cards=("QD", "JC", "10H"), slot="SE")).result == Rejected(
        code="card_barred", detail="10H may not enter a corner"
    )
