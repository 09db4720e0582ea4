"""The score sheet's row for a deal (rules/king.md §9.1, §12.7; issue 11 "the score sheet"): the
contract as played is written in the row's detail, with the declarer, the tricks and the sums."""

from __future__ import annotations

from typing import Any

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
)
from domain.games.king import legal
from domain.games.king.rules import PRESETS
from domain.games.king.state import KingState
from tests.unit.king.helpers import DEAL4, act, one_deal, scripted


def _play_out(s: KingState) -> KingState:
    while s.phase == "playing":
        s = act(s, s.seats[s.to_act], Play(card=legal.legal_cards(s, s.to_act)[0]))
    return s


def _hv(**overrides: Any) -> KingState:
    return scripted(one_deal("HV", **overrides), [DEAL4], first_dealer=3)  # p1 declares


def test_a_hvalenka_row_names_the_declaration() -> None:
    """§6.2: trumps by suit, no trumps, by the last card (the declarer's last dealt card, §6.3)."""
    options = ("SUIT", "NO_TRUMP", "BY_LAST", "MISERE", "RASPIS")
    row = _play_out(act(_hv(hv_options=options), "p1", Declare(option="SUIT", suit="D"))).sheet[0]
    assert row.detail == "trumps D" and row.declarer == "p1" and row.game == "HV"
    assert sum(row.tricks) == 8 and row.row_sum == row.expected_sum == 24
    row = _play_out(act(_hv(hv_options=options), "p1", Declare(option="NO_TRUMP"))).sheet[0]
    assert row.detail == "no trumps"
    row = _play_out(act(_hv(hv_options=options), "p1", Declare(option="BY_LAST"))).sheet[0]
    assert row.detail == f"trumps S (by the last card {DEAL4[0][-1]})"
    row = _play_out(act(_hv(hv_options=options), "p1", Declare(option="MISERE"))).sheet[0]
    assert row.detail == "misère"
    row = act(_hv(hv_options=options), "p1", Declare(option="RASPIS")).sheet[0]
    assert row.detail == "raspis" and row.tricks == (2, 2, 2, 2) and row.points == (6, 6, 6, 6)


def test_a_buyout_row_names_buyer_seller_and_tricks() -> None:
    """§12.3 buy-out, K1: the buyer declares; the row says who bought from whom for how much."""
    s = _hv(hv_buyout=True)
    s = act(s, "p2", OfferBuyout(tricks=2))
    for seat in ("p3", "p4"):
        s = act(s, seat, PassBuyout())
    s = act(s, "p1", AcceptBuyout())
    row = _play_out(act(s, "p2", Declare(option="SUIT", suit="C"))).sheet[0]
    assert row.detail == "trumps C; bought by p2 from p1 for 2" and row.declarer == "p2"


def test_a_trading_row_names_the_bid() -> None:
    """§6.5: the high bidder names trumps; the row keeps the bid."""
    s = scripted(one_deal("AU", "king-4p-trading"), [DEAL4], first_dealer=3)
    s = act(s, "p1", Bid(tricks=2))
    for seat in ("p2", "p3", "p4"):
        s = act(s, seat, PassBid())
    s = act(s, "p1", ChooseTrump(suit="H"))
    row = _play_out(s).sheet[0]
    assert row.detail == "trumps H; bid 2" and row.declarer == "p1"


def test_an_ordered_row_names_the_orderer_and_no_declarer() -> None:
    """§11.4 ordered King: the seat that ordered is written; a negative game has no declarer."""
    s = scripted(PRESETS["king-4p-ordered"], [DEAL4], first_dealer=3)
    for seat in ("p1", "p2"):
        s = act(s, seat, PassOrder())
    row = _play_out(act(s, "p3", ChooseContract(game="NT"))).sheet[0]
    assert row.detail == "ordered by p3" and row.declarer is None and row.game == "NT"
    assert row.dealer == "p4" and row.row_sum == row.expected_sum == -16


def test_a_fixed_negative_row_has_no_detail() -> None:
    row = _play_out(scripted(one_deal("NT"), [DEAL4], first_dealer=3)).sheet[0]
    assert row.detail == "" and row.declarer is None and not row.ended_early
    assert row.totals == row.points  # the first deal: no compensation in the classic preset
