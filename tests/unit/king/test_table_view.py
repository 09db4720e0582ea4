"""What the table shows during a deal (rules/king.md §12.9 view, §12.1 state): the completed
tricks in play order with their winners, the trick in progress and who leads it, the tricks won,
the contract's orderer, the auction log of §12.3's actions, the cards hidden from a seat, and a
seat's information state; plus the outcome of a finished match (§12.8, K4)."""

from __future__ import annotations

from typing import Any

import msgspec

from contracts.envelope import Rejected
from contracts.games.king import (
    AcceptBuyout,
    Bid,
    ChooseContract,
    ChooseTrump,
    Declare,
    OfferBuyout,
    PassBid,
    PassBuyout,
    PassOrder,
    Play,
    Ready,
    RefuseBuyout,
    TrickView,
)
from domain.games.king import GAME
from domain.games.king.deal import initial_state
from domain.games.king.evolve import UNKNOWN, evolve
from domain.games.king.phases import decide
from domain.games.king.queries import hidden, legal_commands, outcome
from domain.games.king.rules import PRESETS
from domain.games.king.view import redact, view
from tests.unit.king.helpers import DEAL4, act, one_deal, rejected, scripted


def nt_after_one_trick() -> Any:
    s = scripted(one_deal("NT"), [DEAL4], first_dealer=3)
    for seat, card in (("p1", "8C"), ("p2", "9D"), ("p3", "AC"), ("p4", "7C")):
        s = act(s, seat, Play(card=card))
    return s


def test_the_first_leader_is_shown_to_act() -> None:
    """§3.4: the player left of the dealer (p1, seat 0) leads the first trick; the view names him."""
    s = scripted(one_deal("NT"), [DEAL4], first_dealer=3)
    v = view(s, "p2")
    assert v.to_act == "p1" and v.trick is not None and v.trick.leader == "p1"


def test_completed_tricks_show_their_plays_in_order_and_the_winner() -> None:
    """§3.6, §12.9 (Q14: completed tricks are public): p1 led 8♣, p2 threw 9♦, p3 took it with A♣;
    p3 leads the next trick and has won one trick."""
    v = view(nt_after_one_trick(), "p1")
    assert v.tricks == (
        TrickView(
            trick_no=1,
            leader="p1",
            plays=(("p1", "8C"), ("p2", "9D"), ("p3", "AC"), ("p4", "7C")),
            winner="p3",
        ),
    )
    assert v.tricks_won == {"p1": 0, "p2": 0, "p3": 1, "p4": 0}
    assert v.to_act == "p3"
    assert v.trick == TrickView(trick_no=2, leader="p3", plays=())


def test_the_trick_winner_leads_the_next_trick() -> None:
    """§3.4: the winner of each trick leads to the next: the trick in progress is p3's."""
    s = nt_after_one_trick()
    s = act(s, "p3", Play(card="QC"))
    v = view(s, "p4")
    assert v.trick is not None and v.trick.leader == "p3" and v.trick.plays == (("p3", "QC"),)
    assert v.to_act == "p4"


def test_the_contract_names_its_orderer() -> None:
    """§12.3 ORDER: the contract records the orderer (ordered King, §11.4)."""
    s = scripted(PRESETS["king-4p-ordered"], [DEAL4], first_dealer=3)
    for seat in ("p1", "p2", "p3"):
        s = act(s, seat, PassOrder())
    s = act(s, "p4", ChooseContract(game="PH"))
    c = view(s, "p1").contract
    assert c is not None and c.orderer == "p4" and c.declarer is None


def test_the_auction_log_records_each_action_with_its_value() -> None:
    """§12.3: the table's log of the bidding: bids and offers with their numbers, the declarer's
    answer with the offer it answered, the declaration with its option and the trump suit it gives."""
    t = scripted(one_deal("AU", "king-4p-trading"), [DEAL4], first_dealer=3)
    t = act(t, "p1", Bid(tricks=2))
    t = act(t, "p2", PassBid())
    assert [(e.seat, e.action, e.value) for e in view(t, "p3").auction] == [
        ("p1", "bid", "2"),
        ("p2", "pass_bid", ""),
    ]
    for answer, word in ((AcceptBuyout(), "accept"), (RefuseBuyout(), "refuse")):
        s = scripted(one_deal("HV", hv_buyout=True), [DEAL4], first_dealer=3)
        s = act(s, "p2", OfferBuyout(tricks=3))
        s = act(s, "p3", PassBuyout())
        s = act(s, "p4", PassBuyout())
        s = act(s, "p1", answer)
        assert [(e.seat, e.action, e.value) for e in view(s, "p2").auction][-1] == ("p1", word, "3")
    h = scripted(one_deal("HV"), [DEAL4], first_dealer=3)
    for declared, value in (
        (Declare(option="BY_LAST"), "BY_LAST S"),  # p1's last card is 9♠ (§6.3)
        (Declare(option="SUIT", suit="D"), "SUIT D"),
        (Declare(option="NO_TRUMP"), "NO_TRUMP"),
    ):
        auction = view(act(h, "p1", declared), "p2").auction
        assert [(e.seat, e.action, e.value) for e in auction] == [("p1", "declare", value)]


def test_after_the_forced_dealers_bid_nobody_is_forced() -> None:
    """§12.3 BID / PASS_BID (001:L291-292, K3): after three passes the dealer must bid 1; once he
    has, the auction is over and the high bidder names trumps: nobody is forced any more."""
    s = scripted(one_deal("AU", "king-4p-trading"), [DEAL4], first_dealer=3)
    for seat in ("p1", "p2", "p3"):
        s = act(s, seat, PassBid())
    assert s.forced and legal_commands(s, "p4") == (Bid(tricks=1),)
    s = act(s, "p4", Bid(tricks=1))
    assert s.phase == "naming" and s.to_act == 3 and not s.forced


def test_naming_trumps_needs_a_suit() -> None:
    """§12.3 NAME_TRUMP(s): the high bidder names a suit; no suit is ``trump_required`` with why."""
    s = scripted(one_deal("AU", "king-4p-trading"), [DEAL4], first_dealer=3)
    s = act(s, "p1", Bid(tricks=2))
    for seat in ("p2", "p3", "p4"):
        s = act(s, seat, PassBid())
    out = decide(s, "p1", ChooseTrump(suit=None))
    assert isinstance(out, Rejected) and out.code == "trump_required" and "suit" in out.detail


def test_later_offers_must_beat_the_best_offer() -> None:
    """§12.3 OFFER_BUYOUT(n): n greater than the current best offer, up to handSize."""
    s = scripted(one_deal("HV", hv_buyout=True), [DEAL4], first_dealer=3)
    s = act(s, "p2", OfferBuyout(tricks=2))
    offers = [c.tricks for c in legal_commands(s, "p3") if isinstance(c, OfferBuyout)]
    assert offers == [3, 4, 5, 6, 7, 8] and PassBuyout() in legal_commands(s, "p3")
    assert rejected(s, "p3", OfferBuyout(tricks=2)) == "buyout_too_low"


def test_otyigrysh_ordered_with_its_trump_is_declared() -> None:
    """§8.4 ORDER_ATOMIC(OT, s): the orderer fixes the trump suit with the order; he is the
    declarer and nothing is left to declare."""
    deal = [
        ["7S", "8S", "9S", "10S", "7C", "8C", "9C", "7D", "8D", "9D"],
        ["10C", "JC", "QC", "KC", "AC", "10D", "JD", "QD", "KD", "AD"],
        ["7H", "8H", "9H", "10H", "JH", "QH", "KH", "AH", "JS", "QS"],
    ]
    s = scripted(PRESETS["king-atomic"], [deal], first_dealer=2, talons=[["KS", "AS"]])
    s = act(s, "p1", ChooseContract(game="OT", trump="S"))
    c = s.contract
    assert c is not None and (c.trump, c.declarer, c.orderer, c.declared) == ("S", 0, 0, True)


# ---------------------------------------------------------------- hidden cards, information state
def test_hidden_cards_of_a_seat() -> None:
    """§12.9 / Q13: hidden from everybody but p1 are his cards; hidden from everybody, p1 too,
    are the cards fixed by the shuffle but not dealt yet (the rest after the 3-card peek, §6.2)."""
    s = scripted(one_deal("HV"), [DEAL4], first_dealer=3)
    pending = {x for p in s.pending for x in p}
    assert len(pending) == 20
    assert hidden(s, "p1") == frozenset({"10C", "8C", "9C"} | pending)
    t = scripted(PRESETS["king-4p-ordered"], [DEAL4], first_dealer=3)
    assert t.contract is None and hidden(t, "p1") == frozenset(DEAL4[0])


def test_the_last_card_shown_is_not_hidden() -> None:
    """§6.3: trumps by the last card show that card to everybody; it is no longer hidden."""
    s = scripted(one_deal("HV"), [DEAL4], first_dealer=3)
    s = act(s, "p1", Declare(option="BY_LAST"))
    assert s.contract is not None and s.contract.by_last == "9S"
    assert hidden(s, "p1") == frozenset(DEAL4[0]) - {"9S"}


def test_another_seat_sees_the_orderer_take_the_talon_but_not_what_he_keeps() -> None:
    """§8.4: the talon is shown, then joins the orderer's hand; in p2's information state (the
    events redacted for p2) the orderer holds 12 unknown cards, and the talon is known."""
    r = PRESETS["king-atomic"]
    deal = [
        ["7S", "8S", "9S", "10S", "7C", "8C", "9C", "7D", "8D", "9D"],
        ["10C", "JC", "QC", "KC", "AC", "10D", "JD", "QD", "KD", "AD"],
        ["7H", "8H", "9H", "10H", "JH", "QH", "KH", "AH", "JS", "QS"],
    ]
    seats = GAME.seat_names(3)
    full = msgspec.structs.replace(
        initial_state(r, seats, None),
        scripted=(tuple(tuple(h) for h in deal),),
        scripted_talons=(("KS", "AS"),),
        scripted_first_dealer=2,
    )
    mine = full
    for seat, cmd in [*((x, Ready()) for x in seats), ("p1", ChooseContract(game="NT"))]:
        events = decide(full, seat, cmd)
        assert not isinstance(events, Rejected)
        for e in events:
            full = evolve(full, e)
            seen = redact(e, "p2")
            if seen is not None:
                mine = evolve(mine, seen)
    assert full.hands[0] == (*deal[0], "KS", "AS")
    assert mine.hands[0] == (UNKNOWN,) * 12 and mine.talon == ("KS", "AS") and mine.talon_shown
    assert mine.hands[1] == tuple(deal[1])


# ---------------------------------------------------------------- outcome (§12.8, K4)
def test_outcome_of_a_finished_match() -> None:
    """§12.8: the outcome carries every seat's total and the ranks; RASPIS gives every seat two
    tricks (§6.2), so all four tie for first (K4) and the match is a draw."""
    s = scripted(one_deal("HV"), [DEAL4], first_dealer=3)
    assert outcome(s) is None
    s = act(s, "p1", Declare(option="RASPIS"))
    o = outcome(s)
    assert o is not None and s.phase == "finished"
    assert o.scores == (6.0, 6.0, 6.0, 6.0) and o.ranks == (1, 1, 1, 1) and o.draw is True
    t = scripted(one_deal("NT"), [DEAL4], first_dealer=3)
    while t.phase == "playing":
        seat = t.seats[t.to_act]
        t = act(t, seat, legal_commands(t, seat)[0])
    o = outcome(t)
    assert o is not None and o.draw is False
    assert o.scores == tuple(float(x) for x in t.totals) and sum(o.scores) == -16.0


def test_no_deal_without_the_server_seed() -> None:
    """§3.3 / architecture "chance is data": a live deal comes from rng_v1 and the server seed;
    without it (and without a record's deals) the last Ready is refused as ``seed_unavailable``."""
    r = PRESETS["king-4p-classic"]
    s = initial_state(r, GAME.seat_names(4), None)
    for seat in ("p1", "p2", "p3"):
        s = act(s, seat, Ready())
    out = decide(s, "p4", Ready())
    assert isinstance(out, Rejected) and out.code == "seed_unavailable" and out.detail
