"""TIMEOUT auto-acts (rules/king.md §12.3 TIMEOUT with Decision K8), phase by phase: a pass where a
pass is legal; REFUSE_BUYOUT for the declarer; BY_LAST in a hvalenka, DECLINE in TR; a forced
order takes the first game left in the list (atomic OT: trumps = the longest suit); discard the two
lowest legal cards; play the lowest legal card.  K8: ties by the canonical order (suits C D H S,
ranks low to high); naming trumps, the longest suit, ties by that suit order; never MISERE or
RASPIS."""

from __future__ import annotations

from typing import Any

import msgspec

from contracts.games.king import (
    ChooseContract,
    ChooseTrump,
    Declare,
    Discard,
    OfferBuyout,
    PassBuyout,
    PassOrder,
    Ready,
    RefuseBuyout,
)
from domain.games.king.queries import legal_commands, longest_suit, timeout_command
from domain.games.king.rules import PRESETS
from tests.unit.king.helpers import DEAL4, act, one_deal, scripted


def timed_out(s: Any, seat: str) -> Any:
    cmd = timeout_command(s, seat)
    assert cmd is None or cmd in legal_commands(s, seat), cmd
    return cmd


def test_longest_suit_breaks_ties_by_the_suit_order() -> None:
    """K8: the longest suit; between equally long suits the first of C D H S; unseen cards count
    for nothing."""
    assert longest_suit(("7S", "8S", "7C", "8C", "AH")) == "C"
    assert longest_suit(("7S", "8S", "9D", "8D")) == "D"
    assert longest_suit(("7S", "8S", "9S", "AH", "KH")) == "S"
    assert longest_suit(("AH", "??", "??", "KS")) == "H"


def test_buyout_offers_pass_and_the_declarer_refuses() -> None:
    """§12.3 TIMEOUT: PASS_BUYOUT for a seat asked for an offer, REFUSE_BUYOUT for the declarer."""
    s = scripted(one_deal("HV", hv_buyout=True), [DEAL4], first_dealer=3)
    assert timed_out(s, "p2") == PassBuyout()
    s = act(s, "p2", OfferBuyout(tricks=3))
    s = act(s, "p3", PassBuyout())
    s = act(s, "p4", PassBuyout())
    assert s.phase == "buyout_answer"
    assert timed_out(s, "p1") == RefuseBuyout()


def test_ordered_king_passes_and_the_dealer_orders_the_first_game_left() -> None:
    """§12.3 PASS_ORDER / ORDER (§11.4 ordered King): a seat that may pass passes; the dealer,
    who must order, orders the first game left in his list, without trumps."""
    s = scripted(PRESETS["king-4p-ordered"], [DEAL4], first_dealer=3)
    assert timed_out(s, "p1") == PassOrder()
    for seat in ("p1", "p2", "p3"):
        s = act(s, seat, PassOrder())
    assert timed_out(s, "p4") == ChooseContract(game=s.remaining[3][0])
    assert s.remaining[3][0] == "NT"


ATOMIC = [
    ["7H", "8H", "9H", "10H", "JH", "7S", "8S", "9S", "10S", "JS"],
    ["7C", "8C", "9C", "10C", "JC", "QC", "KC", "AC", "QH", "KH"],
    ["7D", "8D", "9D", "10D", "JD", "QD", "KD", "AD", "AH", "QS"],
]


def atomic() -> Any:
    return scripted(PRESETS["king-atomic"], [ATOMIC], first_dealer=2, talons=[["KS", "AS"]])


def test_atomic_forced_order_of_a_negative_game_has_no_trumps() -> None:
    """§12.3 ORDER_ATOMIC: the orderer must order; the first game in his list is a negative game,
    ordered without a trump suit."""
    s = atomic()
    first = s.remaining[0][0]
    assert first != "OT"
    assert timed_out(s, "p1") == ChooseContract(game=first)


def test_atomic_forced_order_of_the_otyigrysh_names_the_longest_suit() -> None:
    """§12.3: atomic OT is ordered with trumps = the longest suit; p1 holds five hearts and five
    spades, and the tie goes to hearts (K8: C D H S)."""
    s = atomic()
    s = msgspec.structs.replace(s, remaining=(("OT", *s.remaining[0]), *s.remaining[1:]))
    assert timed_out(s, "p1") == ChooseContract(game="OT", trump="H")


def test_atomic_discard_is_the_two_lowest_cards_that_may_be_discarded() -> None:
    """§12.3 DISCARD and TIMEOUT: in NH no heart may be discarded (001:L158), so of p1's hand
    (7♥..J♥, 7♠..J♠, K♠ A♠ from the talon) the two lowest others go: 7♠ 8♠."""
    s = atomic()
    s = act(s, "p1", ChooseContract(game="NH"))
    assert s.phase == "discard"
    assert timed_out(s, "p1") == Discard(cards=("7S", "8S"))
    t = act(atomic(), "p1", ChooseContract(game="NT"))
    assert timed_out(t, "p1") == Discard(cards=("7H", "8H"))  # in NT hearts may go, and come first


def hv(**overrides: Any) -> Any:
    return scripted(one_deal("HV", **overrides), [DEAL4], first_dealer=3)


def test_hvalenka_declares_by_the_last_card() -> None:
    """§12.3 TIMEOUT: BY_LAST (HV)."""
    assert timed_out(hv(), "p1") == Declare(option="BY_LAST")


def test_hvalenka_without_by_the_last_names_the_longest_suit() -> None:
    """K8: where BY_LAST is not offered, trumps are named as the longest suit of what the
    declarer holds (p1's peek: 10♣ 8♣ 9♣)."""
    s = hv(hv_options=("SUIT", "NO_TRUMP", "MISERE"))
    assert timed_out(s, "p1") == Declare(option="SUIT", suit="C")


def test_hvalenka_without_suits_declares_no_trumps_never_misere_or_raspis() -> None:
    """K8: a timeout never chooses MISERE or RASPIS; with neither BY_LAST nor a suit offered it
    declares no trumps."""
    s = hv(hv_options=("MISERE", "NO_TRUMP", "RASPIS"))
    assert timed_out(s, "p1") == Declare(option="NO_TRUMP")


def test_trump_deal_declines_and_without_decline_names_the_longest_suit() -> None:
    """§12.3 TIMEOUT: DECLINE (TR), that is trumps by the last card (K13); offered suits only,
    the longest suit."""
    s = scripted(one_deal("TR", "king-4p-trump"), [DEAL4], first_dealer=3)
    assert timed_out(s, "p1") == ChooseTrump(suit=None)
    t = scripted(one_deal("TR", "king-4p-trump", hv_options=("SUIT",)), [DEAL4], first_dealer=3)
    assert timed_out(t, "p1") == ChooseTrump(suit="C")


def test_between_deals_the_seat_is_ready_and_a_seat_with_nothing_to_do_gets_none() -> None:
    """§12.3: a seat whose clock runs out between deals confirms the next one; a seat that is not
    to act has no auto-act."""
    s = scripted(one_deal("HV", hv_count=2), [DEAL4, DEAL4], first_dealer=3)
    assert timed_out(s, "p3") is None
    s = act(s, "p1", Declare(option="RASPIS"))
    assert s.phase == "scored"
    assert timed_out(s, "p2") == Ready()
