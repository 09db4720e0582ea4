"""What a seat sees (rules/king.md §12.9): the view, the move labels and the redaction of events."""

from __future__ import annotations

from contracts.games.king import (
    AcceptBuyout,
    Bid,
    ChooseContract,
    ChooseTrump,
    Dealt,
    Declare,
    Discard,
    Discarded,
    OfferBuyout,
    PassBid,
    PassBuyout,
    PassOrder,
    Play,
    Ready,
    RefuseBuyout,
    RestDealt,
)
from domain.games.king.rules import PRESETS
from domain.games.king.view import cost, notation, redact, view
from tests.unit.king.helpers import DEAL4, act, one_deal, scripted


def test_labels_of_every_command() -> None:
    """The label of a legal move in King's notation (the view's legal_moves)."""
    cases = {
        Play(card="QS"): "QS",
        Ready(): "ready",
        ChooseContract(game="NH"): "order NH",
        ChooseContract(game="OT", trump="S"): "order OT S",
        PassOrder(): "pass",
        PassBuyout(): "pass",
        PassBid(): "pass",
        OfferBuyout(tricks=2): "buy for 2",
        AcceptBuyout(): "accept",
        RefuseBuyout(): "refuse",
        Declare(option="SUIT", suit="H"): "trumps H",
        Declare(option="NO_TRUMP"): "no trumps",
        Declare(option="BY_LAST"): "by the last",
        Declare(option="MISERE"): "misère",
        Declare(option="RASPIS"): "raspis",
        ChooseTrump(suit="D"): "trumps D",
        ChooseTrump(suit=None): "decline (by the last)",
        Bid(tricks=3): "bid 3",
        Discard(cards=("AC", "KS")): "discard AC KS",
    }
    for cmd, label in cases.items():
        assert notation(cmd) == label


def test_what_each_game_costs() -> None:
    """The contract's cost line: unit values of §4 and §11.3, and the deal total."""
    s = scripted(one_deal("NH"), [DEAL4], first_dealer=3)
    assert cost(s, "NH") == "-2 per heart (deal total -16)"
    assert cost(s, "NK") == "-16 for K♥"
    assert cost(s, "PG") == "+4 per queen"
    assert cost(s, "NE").startswith("every category at once: -2 per trick, -2 per heart, -4 per boy")
    assert cost(s, "HV") == "+3 per trick (deal total 24)"
    assert cost(s, "AU") == "+3 per trick; the declarer scores only the tricks above his bid"
    three = scripted(
        one_deal("NL", "king-3p"),
        [[DEAL4[0] + DEAL4[3][:2], DEAL4[1] + DEAL4[3][2:4], DEAL4[2] + DEAL4[3][4:6]]],
        first_dealer=2,
    )
    assert cost(three, "NL") == "-20 per last-two trick (deal total -40)"


def test_the_view_of_a_seat_shows_its_own_cards_only() -> None:
    """§12.9: own hand; others' counts; the contract, the trick and the completed tricks for all."""
    s = scripted(one_deal("NK"), [DEAL4], first_dealer=3)
    s = act(s, "p1", Play(card="10C"))
    v = view(s, "p2")
    assert v.hand == ("9D", "10D", "JD", "QD", "KD", "AD", "KH", "8S")
    assert v.hand_sizes == {"p1": 7, "p2": 8, "p3": 8, "p4": 8}
    assert v.to_act == "p2" and v.dealer == "p4" and v.phase == "playing"
    assert v.trick is not None and v.trick.leader == "p1" and v.trick.plays == (("p1", "10C"),)
    c = v.contract
    assert c is not None and c.game == "NK" and c.name == "don't take the King" and c.sign == -1
    assert c.hearts_lead_ban and c.king_discard and not c.trump_lead_restriction and c.expected_sum == -16
    assert view(s, None).hand == () and view(s, "p3").hand != v.hand
    for seat in ("p2", "p3", "p4"):
        s = act(s, seat, Play(card={"p2": "KH", "p3": "AC", "p4": "7C"}[seat]))
    done = view(s, "p1")
    assert done.phase == "finished" and done.hand == () and done.ranks == (1, 1, 4, 1)
    assert done.sheet[0].points == (0, 0, -16, 0) and done.totals == {"p1": 0, "p2": 0, "p3": -16, "p4": 0}
    assert done.balance == -16 and not done.zero_sum


def test_the_view_of_a_peek_and_of_the_declaration() -> None:
    """§12.9: the 3 peek cards are the owner's; pending cards are only counted; BY_LAST is public."""
    s = scripted(one_deal("HV"), [DEAL4], first_dealer=3)
    v = view(s, "p1")
    assert v.hand == ("8C", "9C", "10C") and v.pending_sizes == {"p1": 5, "p2": 5, "p3": 5, "p4": 5}
    assert v.contract is not None and v.contract.declarer == "p1" and v.contract.trump is None
    s = act(s, "p1", Declare(option="BY_LAST"))
    v = view(s, "p3")
    assert v.contract is not None and v.contract.by_last_card == "9S" and v.contract.trump == "S"
    assert v.auction[-1].action == "declare" and v.auction[-1].value == "BY_LAST S"
    assert v.pending_sizes == {"p1": 0, "p2": 0, "p3": 0, "p4": 0} and len(v.hand) == 8


def test_the_view_of_ordering_lists_every_seats_games() -> None:
    """§12.1 remaining: the games each seat may still order are public."""
    s = scripted(PRESETS["king-4p-ordered"], [DEAL4], first_dealer=3)
    v = view(s, "p1")
    assert v.phase == "ordering" and v.contract is None and v.deals_total == 56
    assert len(v.remaining["p1"]) == 14 and v.remaining["p1"][0] == "NT"


def test_redaction_blanks_what_a_viewer_may_not_see() -> None:
    """§12.9: other hands, every pending card and the talon become ``??``; shown cards stay."""
    dealt = Dealt(
        deal_no=1,
        dealer="p3",
        seats=("p1", "p2", "p3"),
        game=None,
        hands=(("AS", "KS"), ("QS", "JS"), ("10S", "9S")),
        pending=(("8S",), ("7S",), ("AH",)),
        talon=("KH", "QH"),
    )
    mine = redact(dealt, "p2")
    assert isinstance(mine, Dealt)
    assert mine.hands == (("??", "??"), ("QS", "JS"), ("??", "??"))
    assert mine.pending == (("??",), ("??",), ("??",)) and mine.talon == ("??", "??")
    spectator = redact(dealt, None)
    assert isinstance(spectator, Dealt) and spectator.hands == (("??", "??"),) * 3
    rest = RestDealt(seats=("p1", "p2"), cards=(("AC", "9S"), ("KC",)), shown="9S")
    shown = redact(rest, "p2")
    assert isinstance(shown, RestDealt) and shown.cards == (("??", "9S"), ("KC",))
    d = Discarded(seat="p1", cards=("AC", "KS"))
    assert redact(d, "p1") == d
    other = redact(d, "p2")
    assert isinstance(other, Discarded) and other.cards == ("??", "??")
