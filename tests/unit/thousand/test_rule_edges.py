"""1000 rules at their edges: rounding of negative scores (§2.9), the blind offer to a barrel sitter
(T4), the talon-low threshold (§2.21.2), a bid at the maximum contract (§2.5), the detail of a
refused command, and the cards a seat has not seen (§2.21.5)."""

from __future__ import annotations

from typing import Any

import msgspec

from contracts.envelope import Rejected
from contracts.games.thousand import (
    Bid,
    ClaimRedeal,
    GiveCards,
    KeepHand,
    Pass,
    Play,
    Ready,
    SetContract,
    WriteOff,
)
from domain.games.thousand import GAME, UNSEEN
from domain.games.thousand.legal import legal_bids
from domain.games.thousand.phases import decide
from domain.games.thousand.rules import DECK, round5
from domain.games.thousand.state import initial_state
from domain.games.thousand.view import unseen
from tests.unit.thousand.support import CLASSIC, HANDS, NO_WINDOWS, ONLINE, SEATS, act, code, cs, deal, rules

_r = msgspec.structs.replace
TALON = cs("10C KC AC")


def test_round5_is_symmetric_for_negative_scores_2_9() -> None:
    for x in (1, 2, 3, 4, 6, 7, 8, 9, 12, 23, 118):
        assert round5(-x) == -round5(x)
    assert [round5(x) for x in (-23, -12, -3, -7, -8, -1)] == [-25, -10, -5, -5, -10, 0]


def test_t4_a_blind_seat_on_the_barrel_gets_the_offer_only_when_120_suffices() -> None:
    """CLASSIC (normal barrel bidding): the sitter left of the dealer may play the blind 120 when
    barrel_required is 120, not when he must bid more than 120."""
    on: dict[str, Any] = dict(scores=(0, 880, 0), barrel_on=(False, True, False))
    assert CLASSIC.required() == 120
    assert deal(rules(CLASSIC, blind_on=True, **NO_WINDOWS), HANDS, **on).phase == "blind_offer"
    more = rules(CLASSIC, blind_on=True, barrel_required=125, target=1005, **NO_WINDOWS)
    assert deal(more, HANDS, **on).phase == "auction"


def test_talon_low_needs_fewer_than_5_card_points_2_21_2() -> None:
    r = rules(CLASSIC, redeal_weak_before_bid=None, redeal_four_nines_before_bid=False)
    assert r.redeal_talon_low == 5
    p1, p2 = "9S QS KS 10S AS 10C AC", "KH QH AH 10H KD QD AD"
    four = act(act(deal(r, (p1, p2, "9H 9D JD 10D JC QC KC"), talon="JH 9C JS"), "p3", Pass()), "p1", Pass())
    assert GAME.legal_commands(four, "p2") == (ClaimRedeal(reason="talon_low"), KeepHand())
    five = act(act(deal(r, (p1, p2, "9H 9D JD 10D JC JH KC"), talon="JS 9C QC"), "p3", Pass()), "p1", Pass())
    assert five.phase == "talon_window"
    assert GAME.legal_commands(five, "p2") == (KeepHand(),)
    refused = decide(five, "p2", ClaimRedeal(reason="talon_low"))
    assert refused == Rejected(code="redeal_not_allowed", detail="the talon has 5 card points or more")


def test_a_bid_may_reach_the_maximum_contract_c10() -> None:
    s = deal(rules(ONLINE, **NO_WINDOWS), HANDS)  # p2 holds both red marriages: cap 300 = max
    s = act(act(s, "p3", Pass()), "p1", Bid(amount=105))
    assert legal_bids(s, 1)[-1] == 300
    assert act(s, "p2", Bid(amount=300)).high_bid == 300
    assert code(s, "p2", Bid(amount=305)) == "bid_above_max"


def test_a_refused_command_says_why() -> None:
    s = deal(rules(CLASSIC, **NO_WINDOWS), HANDS)
    assert decide(s, "p9", Pass()) == Rejected(
        code="not_your_turn", detail="'p9' is not a seat of this match"
    )
    assert decide(s, "p1", Pass()) == Rejected(
        code="not_your_turn", detail="p1 is not to act in phase auction"
    )
    assert decide(s, "p3", Ready()) == Rejected(
        code="not_dealing", detail="Ready is for the start of the match and of each deal"
    )
    assert decide(s, "p3", KeepHand()) == Rejected(
        code="wrong_phase", detail="no redeal window is open"
    )


# ---------------------------------------------------------------- unseen cards (§2.21.5)
def test_after_the_deal_a_seat_sees_its_own_hand_only() -> None:
    assert UNSEEN is unseen
    assert unseen(initial_state(CLASSIC, SEATS, None), "p1") == frozenset()
    s = deal(rules(CLASSIC, **NO_WINDOWS), HANDS)
    assert unseen(s, "p1") == frozenset(DECK) - frozenset(cs(HANDS[0]))
    assert unseen(s, None) == frozenset(DECK)
    blind = deal(rules(CLASSIC, blind_on=True, **NO_WINDOWS), HANDS)
    assert unseen(blind, "p2") == frozenset(DECK)  # the blind seat has not looked yet


def test_a_public_talon_and_the_declarers_gifts_are_seen_2_21_5() -> None:
    s = act(act(deal(rules(CLASSIC, **NO_WINDOWS), HANDS), "p3", Pass()), "p1", Pass())
    assert unseen(s, "p1") == frozenset(cs(HANDS[1] + " " + HANDS[2]))
    assert unseen(s, "p2") == frozenset(cs(HANDS[0] + " " + HANDS[2]))
    s = act(s, "p2", GiveCards(gifts={"p3": "KD", "p1": "AD"}))
    assert unseen(s, "p2") == frozenset(cs(HANDS[0] + " " + HANDS[2]))
    assert unseen(s, "p1") == frozenset(cs("KH QH AH 10H QD KD") + cs(HANDS[2]))
    assert unseen(s, "p3") == frozenset(cs("KH QH AH 10H QD AD") + cs(HANDS[0]))


def test_a_hidden_talon_is_seen_by_the_declarer_only_c11() -> None:
    r = rules(CLASSIC, talon_hidden_at_forced_100=True, **NO_WINDOWS)
    s = act(act(deal(r, HANDS), "p3", Pass()), "p1", Pass())
    assert not s.talon_public
    assert unseen(s, "p2") == frozenset(cs(HANDS[0] + " " + HANDS[2]))
    assert unseen(s, "p1") == frozenset(cs(HANDS[1] + " " + HANDS[2]) + TALON)


def test_an_after_passing_claim_needs_its_hand_condition_t1() -> None:
    hands = ("9S JS QS KS 10S AS 10D", "KH QH AH 10H KD QD AD", "9H JH 9D JD 9C JC QC")
    s = act(act(deal(ONLINE, hands), "p3", Pass()), "p1", Pass())
    s = act(s, "p2", GiveCards(gifts={"p3": "KC", "p1": "AC"}))
    assert s.phase == "after_pass_window"
    assert decide(s, "p3", ClaimRedeal(reason="four_nines")) == Rejected(
        code="redeal_not_allowed", detail="the hand does not hold four nines"
    )
    assert decide(s, "p1", ClaimRedeal(reason="weak")) == Rejected(
        code="redeal_not_allowed", detail="the hand has 14 card points or more"
    )
    assert GAME.legal_commands(s, "p3") == (ClaimRedeal(reason="weak"), KeepHand())


def test_no_command_but_ready_before_the_deal_or_after_the_match() -> None:
    fresh = initial_state(CLASSIC, SEATS, None)
    assert decide(fresh, "p1", Pass()) == Rejected(
        code="wrong_phase", detail="no deal is being played (waiting)"
    )
    over = msgspec.structs.replace(fresh, phase="finished", ready=(True,) * 3)
    assert decide(over, "p1", Pass()) == Rejected(
        code="wrong_phase", detail="no deal is being played (finished)"
    )


def test_a_bid_and_a_contract_are_integers() -> None:
    s = deal(rules(CLASSIC, **NO_WINDOWS), HANDS)
    for amount in ("105", 105.0, True):
        assert decide(s, "p3", Bid(amount=amount)) == Rejected(  # type: ignore[arg-type]
            code="malformed", detail="a bid is an integer"
        )
    s = act(act(s, "p3", Pass()), "p1", Pass())
    s = act(s, "p2", GiveCards(gifts={"p3": "KD", "p1": "AD"}))
    assert decide(s, "p2", SetContract(amount="100")) == Rejected(  # type: ignore[arg-type]
        code="malformed", detail="a contract is an integer"
    )


def test_commands_out_of_their_phase_say_when_they_belong_2_21_2() -> None:
    s = deal(rules(CLASSIC, **NO_WINDOWS), HANDS)
    assert s.phase == "auction"
    assert decide(s, "p3", WriteOff()) == Rejected(
        code="wrong_phase", detail="a write-off comes after taking the talon, before the contract"
    )
    assert decide(s, "p3", Play(card="9H")) == Rejected(
        code="wrong_phase", detail="no trick is being played"
    )
