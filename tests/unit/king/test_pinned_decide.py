"""Typed rejections of King's decide (rules/king.md §12.3 actions and validity; ARCHITECTURE:
bad input gets a typed {code, detail} error)."""

from __future__ import annotations

from contracts.envelope import Rejected
from contracts.games.king import Bid, ChooseTrump, Declare, PassBid, Ready
from domain.games.king import GAME
from domain.games.king.deal import initial_state
from domain.games.king.phases import decide
from domain.games.king.rules import PRESETS
from tests.unit.king.helpers import DEAL4, act, one_deal, scripted


def test_no_deal_without_the_server_seed() -> None:
    """§12.2 step 2 SHUFFLE needs the server seed (a CSPRNG): the Ready that would deal is
    rejected with a typed code and a detail that says why."""
    r = PRESETS["king-4p-classic"]
    seats = GAME.seat_names(r.players)
    s = initial_state(r, seats, None)
    for seat in seats[:-1]:
        s = act(s, seat, Ready())
    got = decide(s, seats[-1], Ready())
    assert isinstance(got, Rejected)
    assert got.code == "seed_unavailable"
    assert "seed" in got.detail


def test_a_record_without_the_next_deal_is_rejected_typed() -> None:
    """§12.10 replay of a record: after its last deal there is none to deal next."""
    s = scripted(one_deal("HV", hv_count=2), [DEAL4], first_dealer=3)
    s = act(s, "p1", Declare(option="RASPIS"))
    assert s.phase == "scored"
    for seat in s.seats[:-1]:
        s = act(s, seat, Ready())
    got = decide(s, s.seats[-1], Ready())
    assert isinstance(got, Rejected)
    assert got.code == "seed_unavailable" and "deal 2" in got.detail


def test_naming_trumps_after_the_auction_needs_a_suit() -> None:
    """§12.3 NAME_TRUMP(s): the high bidder names a suit; declining is a typed rejection with
    a detail saying so."""
    s = scripted(one_deal("AU", "king-4p-trading"), [DEAL4], first_dealer=3)
    s = act(s, "p1", Bid(tricks=2))
    for seat in ("p2", "p3", "p4"):
        s = act(s, seat, PassBid())
    assert s.phase == "naming"
    got = decide(s, "p1", ChooseTrump(suit=None))
    assert isinstance(got, Rejected)
    assert got.code == "trump_required"
    assert "suit" in got.detail
