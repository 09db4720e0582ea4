"""The exact state after an event (rules/king.md §12.2 lifecycle, §12.3 actions, §12.9
visibility of the auction history): who acts, who leads, the auction entries, the orderer's list."""

from __future__ import annotations

import msgspec

from contracts.envelope import Rejected
from contracts.games.king import (
    AcceptBuyout,
    AuctionEntry,
    Bid,
    CardPlayed,
    ChooseContract,
    ChooseTrump,
    Declare,
    Discard,
    OfferBuyout,
    PassBid,
    PassBuyout,
    Play,
    Ready,
    RefuseBuyout,
    TalonShown,
)
from domain.games.king import GAME
from domain.games.king.deal import initial_state
from domain.games.king.evolve import UNKNOWN, evolve
from domain.games.king.phases import decide
from domain.games.king.queries import timeout_command, to_move
from domain.games.king.rules import PRESETS
from domain.games.king.view import redact
from tests.unit.king.helpers import DEAL4, act, one_deal, scripted


def test_after_the_last_card_of_a_trick_nobody_acts_until_it_is_taken() -> None:
    """§12.5: the trick is resolved after the last card; folding the events one by one, the
    state between the last CardPlayed and TrickTaken has nobody to act."""
    s = scripted(one_deal("NT"), [DEAL4], first_dealer=3)
    for seat, card in (("p1", "10C"), ("p2", "9D"), ("p3", "AC")):
        s = act(s, seat, Play(card=card))
    events = decide(s, "p4", Play(card="7C"))
    assert not isinstance(events, Rejected)
    assert isinstance(events[0], CardPlayed)
    mid = evolve(s, events[0])
    assert mid.to_act == -1 and to_move(mid) == frozenset()
    for e in events:
        s = evolve(s, e)
    assert s.to_act == 2


def test_the_winner_of_a_trick_leads_the_next() -> None:
    """§12.2 step 4: the winner of each trick leads the next."""
    s = scripted(one_deal("NT"), [DEAL4], first_dealer=3)
    assert s.leader == 0
    for seat, card in (("p1", "10C"), ("p2", "9D"), ("p3", "AC"), ("p4", "7C")):
        s = act(s, seat, Play(card=card))
    assert s.tricks[-1].winner == "p3"
    assert s.leader == 2 and s.to_act == 2
    s = act(s, "p3", Play(card="QC"))
    assert s.plays == ((2, "QC"),) and s.leader == 2 and s.to_act == 3


def _buyout_offered(tricks: int):
    s = scripted(one_deal("HV", hv_buyout=True), [DEAL4], first_dealer=3)
    s = act(s, "p2", OfferBuyout(tricks=tricks))
    s = act(s, "p3", PassBuyout())
    return act(s, "p4", PassBuyout())


def test_the_buyout_answer_is_recorded_with_its_tricks() -> None:
    """§12.9: the buy-out history is seen by everybody; §12.3 ACCEPT/REFUSE_BUYOUT records n."""
    s = act(_buyout_offered(2), "p1", AcceptBuyout())
    assert s.auction[-1] == AuctionEntry(seat="p1", action="accept", value="2")
    t = act(_buyout_offered(3), "p1", RefuseBuyout())
    assert t.auction[-1] == AuctionEntry(seat="p1", action="refuse", value="3")
    assert [e.value for e in t.auction] == ["3", "", "", "3"]


def test_a_declaration_without_trumps_is_recorded_by_its_option_only() -> None:
    """§12.9 auction history: NO_TRUMP names no suit; SUIT names it."""
    r = one_deal("HV", hv_options=("SUIT", "NO_TRUMP", "BY_LAST"))
    s = act(scripted(r, [DEAL4], first_dealer=3), "p1", Declare(option="NO_TRUMP"))
    assert [e for e in s.auction if e.action == "declare"] == [
        AuctionEntry(seat="p1", action="declare", value="NO_TRUMP")
    ]
    t = act(scripted(r, [DEAL4], first_dealer=3), "p1", Declare(option="SUIT", suit="H"))
    assert [e.value for e in t.auction if e.action == "declare"] == ["SUIT H"]


def test_bids_are_recorded_with_their_tricks() -> None:
    """§12.3 BID: high bid = (seat, n), in the auction history everybody sees (§12.9)."""
    s = scripted(one_deal("AU", "king-4p-trading"), [DEAL4], first_dealer=3)
    s = act(s, "p1", Bid(tricks=2))
    s = act(s, "p2", Bid(tricks=3))
    s = act(s, "p3", PassBid())
    assert s.best == (1, 3)
    assert s.auction == (
        AuctionEntry(seat="p1", action="bid", value="2"),
        AuctionEntry(seat="p2", action="bid", value="3"),
        AuctionEntry(seat="p3", action="pass_bid", value=""),
    )
    s = act(s, "p4", PassBid())
    s = act(s, "p1", PassBid())
    assert s.phase == "naming" and s.to_act == 1
    s = act(s, "p2", ChooseTrump(suit="D"))
    assert s.contract.bid == 3 and s.contract.trump == "D"


def test_a_scored_deal_strikes_the_game_from_the_orderers_list() -> None:
    """§12.2 step 6 ADVANCE: in ordered presets, strike the game from the orderer's list."""
    r = PRESETS["king-4p-ordered"]
    s = scripted(r, [DEAL4, DEAL4], first_dealer=3)
    before = s.remaining
    s = act(s, "p1", ChooseContract(game="NT"))
    while s.phase == "playing":
        seat = s.seats[s.to_act]
        s = act(s, seat, timeout_command(s, seat))
    assert s.phase == "scored"
    want = list(before[0])
    want.remove("NT")
    assert s.remaining[0] == tuple(want)
    assert s.remaining[1:] == before[1:]
    assert len(s.remaining[0]) == len(before[0]) - 1


def test_another_seats_information_state_takes_the_talon_as_placeholders() -> None:
    """§12.2 atomic TALON and §12.9: the talon is shown to everybody and joins the orderer's
    hand; in another seat's information state (redacted events folded) the orderer's hand stays
    all placeholders, and the discard is hidden."""
    r = one_deal("NT", "king-atomic", compensation="none", compensation_value=0, games=("NT",))
    seats = GAME.seat_names(r.players)
    full = initial_state(r, seats, None)
    full = msgspec.structs.replace(
        full,
        scripted=(
            (
                ("AC", "KS", "7H", "7C", "8C", "9C", "10C", "JC", "QC", "KC"),
                ("8H", "9H", "JH", "QH", "KH", "AH", "7D", "9D", "10D", "JD"),
                ("QD", "KD", "AD", "7S", "8S", "9S", "10S", "JS", "QS", "AS"),
            ),
        ),
        scripted_talons=(("8D", "10H"),),
        scripted_first_dealer=2,
    )
    mine = full
    commands = [(x, Ready()) for x in seats] + [
        ("p1", ChooseContract(game="NT")),
        ("p1", Discard(cards=("10H", "KS"))),
    ]
    shown = []
    for seat, cmd in commands:
        events = decide(full, seat, cmd)
        assert not isinstance(events, Rejected), events
        for e in events:
            full = evolve(full, e)
            seen = redact(e, "p2")
            if seen is not None:
                mine = evolve(mine, seen)
            if isinstance(e, TalonShown):
                shown.append(e)
                assert mine.hands[0] == (UNKNOWN,) * 12
                assert mine.talon == ("8D", "10H") and mine.talon_shown
    assert len(shown) == 1
    assert mine.hands[0] == (UNKNOWN,) * 10
    assert mine.hands[1] == full.hands[1]
    assert mine.phase == full.phase == "playing" and mine.to_act == full.to_act == 0
