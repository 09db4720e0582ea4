"""What a King state answers (rules/king.md §12.3 actions and TIMEOUT with K8, §12.8 the end of
the match, §12.9 visibility): the legal commands, the outcome, what is hidden, the timeout command."""

from __future__ import annotations

from contracts.envelope import Rejected
from contracts.games.king import (
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
    RefuseBuyout,
)
from domain.games.king.phases import decide
from domain.games.king.queries import hidden, legal_commands, longest_suit, outcome, timeout_command
from domain.games.king.rules import PRESETS
from tests.unit.king.helpers import DEAL4, act, one_deal, scripted

# Clubs and spades four each for p1 (a tie), diamonds for p3, hearts for p4.
TIED = [
    ["7C", "8C", "9C", "10C", "7S", "8S", "9S", "10S"],
    ["JC", "QC", "KC", "AC", "JS", "QS", "KS", "AS"],
    ["7D", "8D", "9D", "10D", "JD", "QD", "KD", "AD"],
    ["7H", "8H", "9H", "10H", "JH", "QH", "KH", "AH"],
]


def _until_finished(s):
    """Play every turn by the TIMEOUT auto-act (§12.3) until the match ends."""
    while s.phase != "finished":
        seat = next(x for x in s.seats if timeout_command(s, x) is not None)
        s = act(s, seat, timeout_command(s, seat))
    return s


def test_buyout_offers_start_above_the_best_offer() -> None:
    """§12.3 OFFER_BUYOUT: 1 <= n <= handSize and greater than the current best offer."""
    s = scripted(one_deal("HV", hv_buyout=True), [DEAL4], first_dealer=3)
    assert s.phase == "buyout" and s.to_act == 1
    offers = [c.tricks for c in legal_commands(s, "p2") if isinstance(c, OfferBuyout)]
    assert sorted(offers) == [1, 2, 3, 4, 5, 6, 7, 8]
    assert PassBuyout() in legal_commands(s, "p2")
    s = act(s, "p2", OfferBuyout(tricks=2))
    offers = [c.tricks for c in legal_commands(s, "p3") if isinstance(c, OfferBuyout)]
    assert sorted(offers) == [3, 4, 5, 6, 7, 8]
    for c in legal_commands(s, "p3"):
        assert not isinstance(decide(s, "p3", c), Rejected), c


def test_outcome_scores_are_the_totals_and_a_clear_result_is_no_draw() -> None:
    """§12.8: final totals, the highest total wins, ties share (K4); no tie here, so no draw."""
    s = _until_finished(scripted(one_deal("NT"), [DEAL4], first_dealer=3))
    o = outcome(s)
    assert o is not None
    assert o.scores == tuple(float(t) for t in s.totals)
    assert len(set(o.scores)) > 1 and len(set(o.ranks)) > 1
    assert o.draw is False


def test_outcome_of_an_all_tied_match_is_a_draw() -> None:
    """§6.2 step 3 RASPIS credits 2 tricks to every seat: all totals equal, all share rank 1
    (K4, §12.8 ties share), which is a draw."""
    s = scripted(one_deal("HV"), [DEAL4], first_dealer=3)
    s = act(s, "p1", Declare(option="RASPIS"))
    o = outcome(s)
    assert o is not None
    assert o.ranks == (1, 1, 1, 1) and o.scores == (6.0, 6.0, 6.0, 6.0)
    assert o.draw is True


def test_pending_cards_are_hidden_from_everybody() -> None:
    """§12.9 + §6.2 step 1: in a hvalenka each seat sees its 3 peek cards; the cards still to be
    dealt (pending) are seen by nobody, so they are in every seat's hidden set."""
    s = scripted(one_deal("HV"), [DEAL4], first_dealer=3)
    h = hidden(s, "p2")
    every_pending = {c for p in s.pending for c in p}
    assert len(every_pending) == 20
    assert every_pending <= h
    assert set(DEAL4[1][:3]) <= h
    assert not (set(DEAL4[0][:3]) | set(DEAL4[2][:3]) | set(DEAL4[3][:3])) & h


def test_hidden_before_a_game_is_ordered() -> None:
    """§12.9: during ORDERING (no contract yet) a seat's hidden cards are its own hand."""
    s = scripted(PRESETS["king-4p-ordered"], [DEAL4], first_dealer=3)
    assert s.phase == "ordering" and s.contract is None
    assert hidden(s, "p1") == frozenset(DEAL4[0])


def test_longest_suit_ties_go_by_the_suit_order() -> None:
    """K8: naming trumps by timeout, the longest suit, ties by the suit order C D H S."""
    assert longest_suit(("7C", "8C", "7S", "8S")) == "C"
    assert longest_suit(("7H", "7S", "8D", "9D", "AH")) == "D"
    assert longest_suit(("7S", "8S", "KH", "AH")) == "H"
    s = scripted(one_deal("AU", "king-4p-trading"), [TIED], first_dealer=3)
    s = act(s, "p1", Bid(tricks=1))
    for seat in ("p2", "p3", "p4"):
        s = act(s, seat, PassBid())
    assert s.phase == "naming" and s.to_act == 0
    assert timeout_command(s, "p1") == ChooseTrump(suit="C")


def test_timeout_of_the_declarer_answering_a_buyout_refuses() -> None:
    """§12.3 TIMEOUT: REFUSE_BUYOUT (declarer)."""
    s = scripted(one_deal("HV", hv_buyout=True), [DEAL4], first_dealer=3)
    s = act(s, "p2", OfferBuyout(tricks=1))
    s = act(s, "p3", PassBuyout())
    s = act(s, "p4", PassBuyout())
    assert s.phase == "buyout_answer"
    assert timeout_command(s, "p1") == RefuseBuyout()


def test_timeout_of_a_forced_order_is_the_first_game_left_without_trumps() -> None:
    """§12.3 TIMEOUT: PASS where a pass is legal; for a forced order the first game left in the
    list (trumps only for atomic OT)."""
    s = scripted(PRESETS["king-4p-ordered"], [DEAL4], first_dealer=3)
    assert timeout_command(s, "p1") == PassOrder()
    for seat in ("p1", "p2", "p3"):
        s = act(s, seat, PassOrder())
    cmd = timeout_command(s, "p4")
    assert cmd == ChooseContract(game=s.remaining[3][0])
    assert cmd.trump is None and cmd in legal_commands(s, "p4")


def test_timeout_in_a_hvalenka_without_by_last_names_the_longest_suit() -> None:
    """§12.3 TIMEOUT (BY_LAST in a hvalenka) with K8 where the ruleset offers no BY_LAST:
    naming trumps, the longest suit (p1 holds 10C 8C 9C); never MISERE or RASPIS."""
    s = scripted(one_deal("HV", hv_options=("SUIT", "NO_TRUMP", "MISERE")), [DEAL4], first_dealer=3)
    assert s.phase == "declaring"
    assert timeout_command(s, "p1") == Declare(option="SUIT", suit="C")


def test_timeout_in_a_hvalenka_with_neither_by_last_nor_suit_is_no_trumps() -> None:
    """K8: a MISERE or RASPIS is never chosen by a timeout; what is left is NO_TRUMP."""
    s = scripted(one_deal("HV", hv_options=("NO_TRUMP", "MISERE", "RASPIS")), [DEAL4], first_dealer=3)
    assert timeout_command(s, "p1") == Declare(option="NO_TRUMP")


def test_timeout_discard_is_the_two_lowest_legal_cards() -> None:
    """§12.3 TIMEOUT: discard the two lowest legal cards (K8's canonical order); in NH no heart
    may be laid aside (§12.3 DISCARD)."""
    s = scripted(
        one_deal("NH", "king-atomic", compensation="none", compensation_value=0, games=("NH",)),
        [
            [
                ["AC", "KS", "7H", "10C", "8C", "9C", "7D", "JC", "QC", "KC"],
                ["8H", "9H", "JH", "QH", "KH", "AH", "7C", "9D", "10D", "JD"],
                ["QD", "KD", "AD", "7S", "8S", "9S", "10S", "JS", "QS", "AS"],
            ]
        ],
        first_dealer=2,
        talons=[["8D", "10H"]],
    )
    s = act(s, "p1", ChooseContract(game="NH"))
    assert s.phase == "discard"
    cmd = timeout_command(s, "p1")
    assert cmd == Discard(cards=("8C", "9C"))
    s = act(s, "p1", cmd)
    assert s.phase == "playing" and s.discards[0] == ("8C", "9C")
    assert timeout_command(s, "p1") == Play(card="10C")
