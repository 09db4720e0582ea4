"""What the 1000 view names (§2.21.5: bids, the sitting-out dealer, tricks are public; the last
completed trick only during its deal)."""

from __future__ import annotations

from domain.games.thousand.evolve import evolve
from domain.games.thousand.scoring import score_deal
from domain.games.thousand.view import view
from tests.unit.thousand.support import CLASSIC, HANDS, NO_WINDOWS, deal, end_state, rules

R = rules(CLASSIC, **NO_WINDOWS)


def test_the_first_seat_holding_the_high_bid_is_shown_2_5_2_21_5() -> None:
    """§2.5: with p3 dealing, p1 (left of the dealer) sits on the hundred: the standing 100 is
    the high bid, held by p1."""
    s = deal(R, HANDS, dealer=2)
    v = view(s, "p2")
    assert v.high_bid == 100 and v.high_seat == "p1" and v.forced_seat == "p1"


def test_the_dealer_sitting_out_is_named_2_15() -> None:
    """§2.15 four players: the dealer sits the deal out."""
    s = deal(rules(R, sitout_4p=True), ("", *HANDS))
    assert view(s, "p2").sitout == "p1" and view(s, None).sitout == "p1"


def test_between_deals_no_trick_is_shown_2_21_5() -> None:
    """§2.21.5: the last completed trick may be reviewed during the deal; once the deal is scored
    the view shows the sheet, not a trick of the deal before."""
    s = end_state(
        CLASSIC, declarer=0, contract=100, raw=(100, 20, 0), last_trick=((0, "AS"), (1, "9S"), (2, "JS"))
    )
    after = evolve(s, score_deal(s))
    assert after.phase == "next_deal"
    v = view(after, "p1")
    assert v.last_trick == () and v.trick == ()
