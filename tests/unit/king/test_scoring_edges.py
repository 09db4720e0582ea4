"""Scoring and discard rules at their edges (rules/king.md §8.4, §12.3 DISCARD, §12.7, §12.9)."""

from __future__ import annotations

from contracts.games.king import ChooseContract, Discard
from domain.games.king import scoring
from domain.games.king.queries import legal_commands
from tests.unit.king.helpers import act, contract, rejected, rules, scripted

ATOMIC_HANDS = [
    ["AC", "KS", "7H", "7C", "8C", "9C", "10C", "JC", "QC", "KC"],
    ["8H", "9H", "JH", "QH", "KH", "AH", "7D", "9D", "10D", "JD"],
    ["QD", "KD", "AD", "7S", "8S", "9S", "10S", "JS", "QS", "AS"],
]


def _atomic_ordered(game: str) -> object:
    """king-atomic with ``game`` added to every list (not zero-sum then), p1 to order."""
    r = rules("king-atomic", games=("NT", "NB", "NG", "NH", "NL", "NK", game), zero_sum=False)
    assert r.validate() is None
    s = scripted(r, [ATOMIC_HANDS], first_dealer=2, talons=[["8D", "10H"]])
    return act(s, "p1", ChooseContract(game=game))  # type: ignore[arg-type]


def test_an_eralash_discard_refuses_every_scoring_card_and_only_those() -> None:
    """§8.4 / §12.3 DISCARD: the orderer may not discard cards that score in the ordered game.
    In an Eralash hearts, boys (jacks here), queens and K♥ score; tricks and the last two are not cards, so
    ♣7 and ♣8 may go."""
    s = _atomic_ordered("NE")
    assert rejected(s, "p1", Discard(cards=("JC", "7C"))) == "scoring_discard"  # a boy
    assert rejected(s, "p1", Discard(cards=("QC", "7C"))) == "scoring_discard"  # a queen
    assert rejected(s, "p1", Discard(cards=("10H", "7C"))) == "scoring_discard"  # a heart
    offered = {c.cards for c in legal_commands(s, "p1") if isinstance(c, Discard)}
    assert ("7C", "8C") in offered
    assert all(not {"JC", "QC", "7H", "10H"} & set(pair) for pair in offered)
    after = act(s, "p1", Discard(cards=("7C", "8C")))
    assert after.discards[0] == ("7C", "8C") and after.phase == "playing"


def test_in_a_tricks_game_any_two_cards_may_be_discarded() -> None:
    """§12.3 DISCARD: in NT (and NL) no card scores, so even a heart or a jack may go."""
    for game in ("NT", "NL"):
        s = rules("king-atomic")
        st = scripted(s, [ATOMIC_HANDS], first_dealer=2, talons=[["8D", "10H"]])
        st = act(st, "p1", ChooseContract(game=game))  # type: ignore[arg-type]
        after = act(st, "p1", Discard(cards=("JC", "7H")))
        assert after.discards[0] == ("JC", "7H")


def test_a_card_nobody_may_see_scores_nothing() -> None:
    """§12.9: another seat's discards are hidden from a seat ("??" in what it knows); scoring
    what it knows counts only the cards it has seen."""
    r = rules()
    for category in ("heart", "boy", "girl", "king", "trick", "last"):
        assert scoring.card_units(r, "??", category) == 0
    points = scoring.points_for(
        r, contract("NH"), range(4), (0, 0, 0, 0), (("??", "??", "7H"), ("8H",), (), ()), ()
    )
    assert points == (-2, -2, 0, 0)
