"""The stable rejection codes of a card play (rules/king.md §12.4, §3.5, §3.7; docs/api.md):
each rule that forbids a card names itself, and the rule text decides which one applies."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.games.king import legal
from domain.games.king.state import KingState
from tests.unit.king.helpers import DEAL4, contract, one_deal, scripted


def _state(game: str, hand: tuple[str, ...], plays: tuple[tuple[int, str], ...], **kw: Any) -> KingState:
    """Seat 0 (p1) to play ``hand`` in a deal of ``game``, the cards ``plays`` already on the trick."""
    r_over = kw.pop("rules", {})
    r = one_deal(game, **r_over)
    s = scripted(r, [DEAL4], first_dealer=3)
    hands = (hand, *s.hands[1:])
    return msgspec.structs.replace(s, hands=hands, plays=plays, contract=contract(game, r, **kw))


def test_a_card_not_held_is_card_not_in_hand() -> None:
    s = _state("NT", ("7C", "8C"), ())
    assert legal.play_problem(s, 0, "AS") == "card_not_in_hand"
    assert legal.play_problem(s, 0, "7C") is None


def test_hearts_lead_ban_names_itself_and_lifts_with_only_hearts() -> None:
    """§3.7a: in NH no heart lead while the seat holds another suit."""
    s = _state("NH", ("AH", "7H", "8C"), ())
    assert legal.play_problem(s, 0, "AH") == "hearts_lead_banned"
    assert legal.play_problem(s, 0, "8C") is None
    only = _state("NH", ("AH", "7H"), ())
    assert legal.play_problem(only, 0, "7H") is None


def test_trump_lead_restriction_names_itself_and_spares_the_declarer() -> None:
    """§12.4 / K15: with trumpLeadRestriction only the declarer may lead trumps (while holding
    another suit)."""
    over = {"rules": {"trump_lead_restriction": True}}
    s = _state("HV", ("AS", "7C"), (), trump="S", declarer=1, **over)
    assert legal.play_problem(s, 0, "AS") == "trump_lead_restricted"
    assert legal.play_problem(s, 0, "7C") is None
    declarer = _state("HV", ("AS", "7C"), (), trump="S", declarer=0, **over)
    assert legal.play_problem(declarer, 0, "AS") is None
    only_trumps = _state("HV", ("AS", "7S"), (), trump="S", declarer=1, **over)
    assert legal.play_problem(only_trumps, 0, "AS") is None
    # hearts as trumps in a hvalenka: the lead is barred as a trump, not by a hearts ban
    hearts = _state("HV", ("AH", "7C"), (), trump="H", declarer=1, **over)
    assert legal.play_problem(hearts, 0, "AH") == "trump_lead_restricted"


def test_following_suit_comes_first() -> None:
    """§3.5: a seat holding the led suit must follow it, trumps or not."""
    s = _state("HV", ("7C", "AD", "7S"), ((3, "KC"),), trump="S", declarer=1)
    assert legal.play_problem(s, 0, "AD") == "must_follow_suit"
    assert legal.play_problem(s, 0, "7S") == "must_follow_suit"
    assert legal.play_problem(s, 0, "7C") is None


def test_a_void_seat_holding_trumps_must_trump() -> None:
    """§3.5 mustTrump: void in the led suit and holding a trump, the seat must trump."""
    s = _state("HV", ("AD", "7S"), ((3, "KC"),), trump="S", declarer=1)
    assert legal.play_problem(s, 0, "AD") == "must_trump"
    assert legal.play_problem(s, 0, "7S") is None


def test_k5_a_trump_that_does_not_beat_the_trick_is_must_overtrump() -> None:
    """K5: with mustOvertrump a seat trumping a trick that holds a trump must beat it if it can."""
    over = {"rules": {"must_overtrump": True}}
    s = _state("HV", ("7S", "AS", "AD"), ((2, "KC"), (3, "QS")), trump="S", declarer=1, **over)
    assert legal.play_problem(s, 0, "7S") == "must_overtrump"
    assert legal.play_problem(s, 0, "AD") == "must_trump"
    assert legal.play_problem(s, 0, "AS") is None


def test_the_forced_king_discard_is_must_discard_king() -> None:
    """§3.7b: in NK a seat void in the led suit that holds K♥ must play it."""
    s = _state("NK", ("KH", "AD"), ((3, "7C"),))
    assert legal.play_problem(s, 0, "AD") == "must_discard_king"
    assert legal.play_problem(s, 0, "KH") is None
    follows = _state("NK", ("KH", "AD", "9C"), ((3, "7C"),))
    assert legal.play_problem(follows, 0, "9C") is None
    assert legal.play_problem(follows, 0, "KH") == "must_follow_suit"
    optional = _state("NK", ("KH", "AD"), ((3, "7C"),), rules={"king_discard_mode": "optional"})
    assert legal.play_problem(optional, 0, "AD") is None


def test_misere_reverses_who_wins_the_trick() -> None:
    """Misère (001:L73, L141; §12.11): no trumps, 7 high and A low."""
    c = contract("HV", misere=True, declarer=0)
    assert legal.trick_winner(c, ((0, "AC"), (1, "7C"), (2, "KC"), (3, "9D"))) == 1
    assert legal.trick_winner(contract("HV", declarer=0), ((0, "AC"), (1, "7C"), (2, "KC"), (3, "9D"))) == 0


def test_a_card_the_state_does_not_show_is_never_legal() -> None:
    """§12.9: in a state as one seat knows it, another seat's cards are unknown ("??"); no
    unknown card is ever a legal play, so nothing can be offered or played blind."""
    s = _state("NT", ("7C", "8C"), ())
    unseen = msgspec.structs.replace(s, hands=(("??", "??"), *s.hands[1:]))
    assert legal.legal_cards(unseen, 0) == ()
    mixed = msgspec.structs.replace(s, hands=(("??", "9D"), *s.hands[1:]))
    assert legal.legal_cards(mixed, 0) == ("9D",)
