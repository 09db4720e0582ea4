"""What a seat sees (rules/king.md §12.9): the seat to act, the contract's orderer, the
completed tricks with their play order and winners, and the tricks each seat has won."""

from __future__ import annotations

from contracts.games.king import ChooseContract, Play
from domain.games.king.rules import PRESETS
from domain.games.king.view import view
from tests.unit.king.helpers import DEAL4, act, one_deal, scripted


def _first_trick_played():
    s = scripted(one_deal("NT"), [DEAL4], first_dealer=3)
    for seat, card in (("p1", "10C"), ("p2", "9D"), ("p3", "AC"), ("p4", "7C")):
        s = act(s, seat, Play(card=card))
    return s


def test_the_first_seat_to_act_is_shown() -> None:
    """§12.2 step 4: left of the dealer p4 is p1, who leads; every seat sees that p1 acts."""
    s = scripted(one_deal("NT"), [DEAL4], first_dealer=3)
    for seat in s.seats:
        v = view(s, seat)
        assert v.to_act == "p1" and v.to_move == ("p1",)


def test_the_contract_shows_its_orderer() -> None:
    """§12.9: contract and ordering history are seen by everybody; §12.3 ORDER sets orderer = seat."""
    s = scripted(PRESETS["king-4p-ordered"], [DEAL4], first_dealer=3)
    s = act(s, "p1", ChooseContract(game="NB"))
    for seat in s.seats:
        c = view(s, seat).contract
        assert c is not None and c.game == "NB" and c.orderer == "p1"
    fixed = scripted(one_deal("NT"), [DEAL4], first_dealer=3)
    c = view(fixed, "p1").contract
    assert c is not None and c.orderer is None


def test_completed_tricks_are_seen_by_everybody_in_play_order_with_winners() -> None:
    """§12.9: completed tricks are seen by everybody [rec]; §12.5 the winner takes the trick."""
    s = _first_trick_played()
    for seat in (*s.seats, None):
        v = view(s, seat)
        assert len(v.tricks) == 1
        t = v.tricks[0]
        assert t.trick_no == 1 and t.leader == "p1" and t.winner == "p3"
        assert t.plays == (("p1", "10C"), ("p2", "9D"), ("p3", "AC"), ("p4", "7C"))
        assert v.tricks_won == {"p1": 0, "p2": 0, "p3": 1, "p4": 0}
        assert v.to_act == "p3" and v.trick is not None and v.trick.leader == "p3"


def test_a_trick_led_by_a_later_seat_lists_its_plays_from_the_leader() -> None:
    """§3.4: play goes clockwise from the leader; the second trick, led by p3, reads p3 p4 p1 p2."""
    s = _first_trick_played()
    for seat, card in (("p3", "QC"), ("p4", "KC"), ("p1", "8C"), ("p2", "8S")):
        s = act(s, seat, Play(card=card))
    v = view(s, "p2")
    assert v.tricks[1].plays == (("p3", "QC"), ("p4", "KC"), ("p1", "8C"), ("p2", "8S"))
    assert v.tricks[1].leader == "p3" and v.tricks[1].winner == "p4"
    assert v.tricks_won == {"p1": 0, "p2": 0, "p3": 1, "p4": 1}
