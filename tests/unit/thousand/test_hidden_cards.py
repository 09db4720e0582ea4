"""1000 cards only one seat knows (``Decider.hidden``, §2.21.5): its own hand, less the cards shown to
everybody (a public talon, face-up gifts) and less the cards the declarer gave it (he knows them)."""

from __future__ import annotations

from typing import Any

import msgspec

from contracts.games.thousand import GiveCards, Pass
from domain.core.cardgame.redact import UNKNOWN
from domain.games.thousand import GAME
from domain.games.thousand.state import initial_state
from domain.games.thousand.view import private_cards
from tests.unit.thousand.support import CLASSIC, HANDS, NO_WINDOWS, SEATS, act, cs, deal, keep_all, rules

_r = msgspec.structs.replace


def passing(**kw: Any) -> Any:
    """p2 has taken the talon at the forced 100 and is to give two cards."""
    s = keep_all(deal(rules(CLASSIC, **{**NO_WINDOWS, **kw}), HANDS))
    return act(act(s, "p3", Pass()), "p1", Pass())


def test_nothing_is_private_before_the_deal_nor_for_a_stranger() -> None:
    assert GAME.hidden is private_cards
    s = initial_state(CLASSIC, SEATS, None)
    assert private_cards(s, "p1") == frozenset()
    dealt = deal(rules(CLASSIC, **NO_WINDOWS), HANDS)
    assert private_cards(dealt, "p9") == frozenset()


def test_each_hand_is_private_to_its_seat_after_the_deal() -> None:
    s = deal(rules(CLASSIC, **NO_WINDOWS), HANDS)
    for seat, hand in zip(SEATS, HANDS, strict=True):
        assert private_cards(s, seat) == frozenset(cs(hand))


def test_a_public_talon_is_nobodys_secret_2_6() -> None:
    s = passing()
    assert s.talon_public and len(s.hands[1]) == 10
    assert private_cards(s, "p2") == frozenset(cs(HANDS[1]))
    # shown to the declarer only (talon_hidden_at_forced_100): the talon is his secret too
    hidden = passing(talon_hidden_at_forced_100=True)
    assert not hidden.talon_public
    assert private_cards(hidden, "p2") == frozenset(set(cs(HANDS[1])) | {"10C", "KC", "AC"})


def test_given_cards_are_known_to_the_declarer_and_face_up_gifts_to_all_2_21_5() -> None:
    s = act(passing(), "p2", GiveCards(gifts={"p3": "KD", "p1": "AD"}))
    assert private_cards(s, "p1") == frozenset(cs(HANDS[0]))
    assert private_cards(s, "p3") == frozenset(cs(HANDS[2]))
    assert private_cards(s, "p2") == frozenset(cs("KH QH AH 10H QD"))
    up = passing(talon_hidden_at_forced_100=True)
    up = act(up, "p2", GiveCards(gifts={"p3": "10C", "p1": "AC"}, face_up=True))
    assert private_cards(up, "p3") == frozenset(cs(HANDS[2]))
    assert private_cards(up, "p2") == frozenset(set(cs(HANDS[1])) | {"KC"})


def test_unknown_placeholders_are_not_cards() -> None:
    """In a seat's fold of redacted events another hand shows placeholders only."""
    s = deal(rules(CLASSIC, **NO_WINDOWS), HANDS)
    fold = _r(s, hands=(cs(HANDS[0]), (UNKNOWN,) * 7, ("JC", UNKNOWN)))
    assert private_cards(fold, "p2") == frozenset()
    assert private_cards(fold, "p3") == frozenset({"JC"})
