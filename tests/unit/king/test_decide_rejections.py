"""Every refusal of King's referee is a typed ``{code, detail}`` whose detail says what is
allowed (rules/king.md §12.3 validity column; docs/api.md "King" rejection codes)."""

from __future__ import annotations

import msgspec

from contracts.envelope import Rejected
from contracts.games.king import (
    AcceptBuyout,
    Bid,
    ChooseContract,
    ChooseTrump,
    Declare,
    Discard,
    OfferBuyout,
    PassBid,
    PassBuyout,
    PassOrder,
    Play,
    Ready,
)
from domain.games.king.phases import decide
from domain.games.king.rules import PRESETS
from tests.unit.king.helpers import DEAL4, act, one_deal, scripted

ATOMIC_HANDS = [
    ["AC", "KS", "7H", "7C", "8C", "9C", "10C", "JC", "QC", "KC"],
    ["8H", "9H", "JH", "QH", "KH", "AH", "7D", "9D", "10D", "JD"],
    ["QD", "KD", "AD", "7S", "8S", "9S", "10S", "JS", "QS", "AS"],
]


def test_commands_outside_their_phase_or_turn() -> None:
    s = scripted(one_deal("NT"), [DEAL4], first_dealer=3)
    assert decide(s, "p1", "play 7C") == Rejected(code="malformed", detail="not a King command")  # type: ignore[arg-type]
    assert decide(s, "p9", Play(card="7C")) == Rejected(
        code="not_your_turn", detail="'p9' is not a seat of this match"
    )
    assert decide(s, "p1", Ready()) == Rejected(
        code="wrong_phase", detail="Ready is not taken in phase playing"
    )
    assert decide(s, "p2", Play(card="KH")) == Rejected(code="not_your_turn", detail="p1 is to act")
    assert decide(s, "p1", Play(card="KH")) == Rejected(
        code="card_not_in_hand", detail="KH may not be played now"
    )


def test_ordering_refusals_name_the_list() -> None:
    """§12.3 ORDER / PASS_ORDER (ordered King)."""
    s = scripted(PRESETS["king-4p-ordered"], [DEAL4], first_dealer=3)
    refused = decide(s, "p1", ChooseContract(game="HV"))
    assert isinstance(refused, Rejected) and refused.code == "not_in_list"
    assert refused.detail.startswith("HV is not in your list ['NT', 'NB', 'NG', 'NH', 'NK', 'NL', 'NE', 'PT'")
    assert decide(s, "p1", ChooseContract(game="NT", trump="S")) == Rejected(
        code="trump_not_allowed", detail="NT is played without trumps"
    )
    for seat in ("p1", "p2", "p3"):
        s = act(s, seat, PassOrder())
    assert decide(s, "p4", PassOrder()) == Rejected(code="must_order", detail="you must order a game")


def test_atomic_ordering_and_discard_refusals() -> None:
    """§8.4 / §12.3 ORDER_ATOMIC and DISCARD: the otyigrysh names its trump; nobody passes;
    two different cards of the hand that do not score in the game."""
    s = scripted(PRESETS["king-atomic"], [ATOMIC_HANDS], first_dealer=2, talons=[["8D", "10H"]])
    assert decide(s, "p1", ChooseContract(game="OT")) == Rejected(
        code="trump_required", detail="the otyigrysh is ordered with its trump suit"
    )
    assert decide(s, "p1", PassOrder()) == Rejected(code="must_order", detail="you must order a game")
    s = act(s, "p1", ChooseContract(game="NB"))
    two = Rejected(code="bad_discard", detail="discard 2 different cards")
    assert decide(s, "p1", Discard(cards=("7C",))) == two
    assert decide(s, "p1", Discard(cards=("7C", "7C"))) == two
    assert decide(s, "p1", Discard(cards=("7C", "8C", "9C"))) == two
    assert decide(s, "p1", Discard(cards=("7C", "AS"))) == Rejected(
        code="bad_discard", detail="you can only discard cards of your hand"
    )
    assert decide(s, "p1", Discard(cards=("JC", "7C"))) == Rejected(
        code="scoring_discard", detail="JC scores in NB (001:L158)"
    )


def test_buyout_refusals_name_the_range() -> None:
    """§12.3 OFFER_BUYOUT: an offer beats the best one, up to the hand size."""
    r = one_deal("HV", hv_buyout=True)
    s = scripted(r, [DEAL4], first_dealer=3)
    assert decide(s, "p2", OfferBuyout(tricks=0)) == Rejected(
        code="buyout_too_low", detail="an offer is 1..8 tricks"
    )
    assert decide(s, "p2", OfferBuyout(tricks=9)) == Rejected(
        code="buyout_too_low", detail="an offer is 1..8 tricks"
    )
    s = act(s, "p2", OfferBuyout(tricks=3))
    assert decide(s, "p3", OfferBuyout(tricks=3)) == Rejected(
        code="buyout_too_low", detail="an offer is 4..8 tricks"
    )
    s = act(s, "p3", OfferBuyout(tricks=8))
    s = act(s, "p4", PassBuyout())
    s = act(s, "p2", PassBuyout())
    assert s.phase == "buyout_answer"
    no_offer = msgspec.structs.replace(s, best=None)
    assert decide(no_offer, "p1", AcceptBuyout()) == Rejected(code="no_offer", detail="there is no offer")


def test_declaration_refusals_name_the_options() -> None:
    """§12.3 DECLARE / DECLARE_TRUMP: the ruleset's options; SUIT needs a suit, the others none."""
    hv = scripted(one_deal("HV", hv_options=("SUIT", "BY_LAST")), [DEAL4], first_dealer=3)
    assert decide(hv, "p1", Declare(option="NO_TRUMP")) == Rejected(
        code="option_not_allowed", detail="this ruleset offers ['SUIT', 'BY_LAST']"
    )
    assert decide(hv, "p1", Declare(option="SUIT")) == Rejected(
        code="trump_required", detail="SUIT needs a suit"
    )
    assert decide(hv, "p1", Declare(option="BY_LAST", suit="S")) == Rejected(
        code="trump_not_allowed", detail="BY_LAST takes no suit"
    )
    assert decide(hv, "p1", ChooseTrump(suit="S")) == Rejected(
        code="wrong_phase", detail="a hvalenka is declared with declare"
    )
    tr = scripted(one_deal("TR", "king-4p-trump", hv_options=("SUIT",)), [DEAL4], first_dealer=3)
    assert decide(tr, "p1", Declare(option="SUIT", suit="S")) == Rejected(
        code="wrong_phase", detail="this trump deal is declared with choose_trump"
    )
    assert decide(tr, "p1", ChooseTrump(suit=None)) == Rejected(
        code="option_not_allowed", detail="this ruleset offers ['SUIT']"
    )


def test_auction_refusals_name_the_range() -> None:
    """§6.5 / §12.3 BID, K3."""
    s = scripted(one_deal("AU", "king-4p-trading"), [DEAL4], first_dealer=3)
    assert decide(s, "p1", Bid(tricks=0)) == Rejected(code="bid_too_low", detail="a bid is 1..8 tricks")
    assert decide(s, "p1", Bid(tricks=9)) == Rejected(code="bid_too_low", detail="a bid is 1..8 tricks")
    s = act(s, "p1", Bid(tricks=2))
    assert decide(s, "p2", Bid(tricks=2)) == Rejected(code="bid_too_low", detail="a bid is 3..8 tricks")
    t = scripted(one_deal("AU", "king-4p-trading"), [DEAL4], first_dealer=3)
    for seat in ("p1", "p2", "p3"):
        t = act(t, seat, PassBid())
    assert decide(t, "p4", Bid(tricks=2)) == Rejected(
        code="bid_too_low", detail="the forced dealer bids 1 (K3)"
    )
