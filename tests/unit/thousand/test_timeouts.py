"""1000 timeouts (§2.21.2 "Timeouts [DECISION]"): the action taken for a seat whose clock runs out,
phase by phase, even where a bolder action is legal (a redeal claim, a bid, a raise, an announcement)."""

from __future__ import annotations

from typing import Any

import msgspec

from contracts.games.thousand import (
    Bid,
    ClaimRedeal,
    DeclineBlind,
    GiveCards,
    KeepHand,
    Pass,
    Play,
    Ready,
    SetContract,
    WriteOff,
)
from domain.games.thousand import GAME
from domain.games.thousand.state import initial_state
from domain.games.thousand.timeout import lowest_legal
from tests.unit.thousand.support import CLASSIC, HANDS, NO_WINDOWS, ONLINE, SEATS, act, deal, keep_all, rules

_r = msgspec.structs.replace


def timeout(s: Any, seat: str) -> Any:
    """The timeout action, which must be one of the seat's legal commands."""
    cmd = lowest_legal(s, seat)
    assert cmd in GAME.legal_commands(s, seat), (cmd, GAME.legal_commands(s, seat))
    return cmd


def play_state(
    hand: tuple[str, ...], trick: tuple[tuple[int, str], ...] = (), trump: str | None = None
) -> Any:
    """p1 to play with ``hand`` in trick 2 of a deal p2 declared (p3 led when ``trick`` is given)."""
    base = initial_state(rules(CLASSIC, **NO_WINDOWS), SEATS, None)
    return _r(
        base,
        phase="play",
        hands=(hand, ("9D",), ("JD",)),
        trick=trick,
        trump=trump,
        leader=2 if trick else 0,
        trick_no=1,
        sitout=-1,
        declarer=1,
        seen=(True,) * 3,
    )


def test_blind_offer_times_out_to_decline_blind() -> None:
    s = deal(rules(CLASSIC, blind_on=True, **NO_WINDOWS), HANDS)
    assert s.phase == "blind_offer"
    assert timeout(s, "p2") == DeclineBlind()


def test_the_before_bid_window_times_out_to_keep_hand_even_with_a_claim_open_t1() -> None:
    weak = ("9S 9C 9D JS JC QS JH", "KH QH AH 10H KD QD AD", "9H JD 10D 10S AS KS QC")
    s = deal(CLASSIC, weak)
    assert s.phase == "redeal_window" and GAME.legal_commands(s, "p1")[0] == ClaimRedeal(reason="weak")
    assert timeout(s, "p1") == KeepHand()
    assert timeout(s, "p2") == KeepHand()


def test_the_talon_window_times_out_to_keep_hand_t1() -> None:
    r = rules(CLASSIC, redeal_weak_before_bid=None, redeal_four_nines_before_bid=False)
    hands = ("9S QS KS 10S AS 10C AC", "KH QH AH 10H KD QD AD", "JH 9D JD 10D JC QC KC")
    s = deal(r, hands, talon="9H 9C JS")
    s = act(act(s, "p3", Pass()), "p1", Pass())
    assert s.phase == "talon_window" and GAME.legal_commands(s, "p2")[0] == ClaimRedeal(reason="talon_low")
    assert timeout(s, "p2") == KeepHand()


def test_the_after_passing_window_times_out_to_keep_hand_t1() -> None:
    hands = ("9S JS QS KS 10S AS 10D", "KH QH AH 10H KD QD AD", "9H JH 9D JD 9C JC QC")
    s = deal(ONLINE, hands)
    s = act(act(s, "p3", Pass()), "p1", Pass())
    s = act(s, "p2", GiveCards(gifts={"p3": "KC", "p1": "AC"}))  # p3: 9 + 4 card points < 14
    assert s.phase == "after_pass_window" and GAME.legal_commands(s, "p3")[0] == ClaimRedeal(reason="weak")
    assert timeout(s, "p3") == KeepHand()
    assert timeout(s, "p1") == KeepHand()


def test_the_auction_times_out_to_pass() -> None:
    s = deal(rules(CLASSIC, bid_jumps=True, **NO_WINDOWS), HANDS)
    assert Bid(amount=105) in GAME.legal_commands(s, "p3")
    assert timeout(s, "p3") == Pass()


def test_passing_gives_the_two_lowest_cards_the_lower_to_the_next_seat_clockwise() -> None:
    s = keep_all(deal(rules(CLASSIC, **NO_WINDOWS), HANDS))
    s = act(act(s, "p3", Pass()), "p1", Pass())
    assert s.phase == "passing" and GAME.legal_commands(s, "p2")[0] == WriteOff()
    # KH QH AH 10H KD QD AD + 10C KC AC: the queens are lowest, QD before QH (suit order S C D H)
    assert timeout(s, "p2") == GiveCards(gifts={"p3": "QD", "p1": "QH"})
    # p3 declares: the next seat clockwise is p1
    s = keep_all(deal(rules(CLASSIC, **NO_WINDOWS), HANDS))
    s = act(act(act(s, "p3", Bid(amount=105)), "p1", Pass()), "p2", Pass())
    assert s.seats[s.declarer] == "p3"
    # 9H JH 9D JD 10D JC QC + 10C KC AC: 9D < 9H
    assert timeout(s, "p3") == GiveCards(gifts={"p1": "9D", "p2": "9H"})


def test_passing_skips_the_sitting_out_dealer_2_15() -> None:
    r = rules(CLASSIC, sitout_4p=True, **NO_WINDOWS)
    hands = ("", "9S JS QS KS 10S AS 9C", "KH QH AH 10H KD QD AD", "9H JH 9D JD 10D JC QC")
    s = deal(r, hands)  # p1 deals and sits out; p2 holds the hundred
    s = act(act(s, "p3", Pass()), "p4", Bid(amount=105))
    s = act(s, "p2", Pass())
    assert s.seats[s.declarer] == "p4" and s.phase == "passing"
    # p4 holds 9H JH 9D JD 10D JC QC + 10C KC AC; clockwise from p4: p1 sits out, so p2 first
    assert timeout(s, "p4") == GiveCards(gifts={"p2": "9D", "p3": "9H"})


def test_the_contract_times_out_to_the_winning_bid() -> None:
    s = keep_all(deal(rules(CLASSIC, **NO_WINDOWS), HANDS))
    s = act(act(act(s, "p3", Bid(amount=105)), "p1", Pass()), "p2", Pass())
    s = act(s, "p3", GiveCards(gifts={"p1": "9D", "p2": "9H"}))
    assert s.phase == "contract" and s.bid == 105
    legal = GAME.legal_commands(s, "p3")
    assert legal[0] == WriteOff() and SetContract(amount=120) in legal
    assert timeout(s, "p3") == SetContract(amount=105)


def test_play_times_out_to_the_lowest_legal_card_without_an_announcement() -> None:
    lead = play_state(("QS", "KS", "AH", "10C"))
    assert Play(card="QS", announce="marriage") in GAME.legal_commands(lead, "p1")
    assert timeout(lead, "p1") == Play(card="QS")
    assert timeout(play_state(("9H", "10C", "9S", "AD", "9C")), "p1") == Play(card="9S")
    assert timeout(play_state(("9H", "10C", "9D", "AD")), "p1") == Play(card="9D")
    # following: the lowest card of the led suit, not the lowest card held
    follow = play_state(("9S", "AH", "KH", "9C"), trick=((2, "QH"),))
    assert timeout(follow, "p1") == Play(card="KH")
    # void in the led suit with a trump held (must_trump_when_void): the lowest trump
    trumping = play_state(("9S", "AC", "KC", "JS"), trick=((2, "QH"),), trump="C")
    assert timeout(trumping, "p1") == Play(card="KC")


def test_between_deals_the_timeout_is_ready() -> None:
    s = _r(initial_state(CLASSIC, SEATS, None), phase="next_deal", dealer=2, ready=(True,) * 3)
    assert timeout(s, "p3") == Ready()
    assert lowest_legal(s, "p1") is None
    fresh = initial_state(CLASSIC, SEATS, None)
    assert timeout(fresh, "p2") == Ready()


def test_no_timeout_action_for_a_seat_not_to_act() -> None:
    s = deal(rules(CLASSIC, **NO_WINDOWS), HANDS)
    assert s.phase == "auction" and GAME.to_move(s) == frozenset({"p3"})
    assert lowest_legal(s, "p1") is None
    assert lowest_legal(s, "p9") is None
    assert lowest_legal(_r(s, phase="finished"), "p3") is None
