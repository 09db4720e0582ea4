"""The 1000 computer players' card play (domain/games/thousand/bots.py, issue 12): the heuristic's
lead, follow and feeding choices, and the search player finding a line the heuristic misses."""

from __future__ import annotations

import random
from typing import Any

import msgspec

from contracts.games.thousand import Play
from domain.games.thousand import GAME, bots
from domain.games.thousand.rules import DECK
from domain.games.thousand.state import initial_state
from tests.unit.thousand.support import CLASSIC, SEATS, cs

_r = msgspec.structs.replace


def table(hands: tuple[str, str, str], declarer: int = 1, **fields: Any) -> Any:
    """A deal in play (CLASSIC), every hand known; trick 2 unless told, p1 to lead unless a trick is
    given."""
    base = initial_state(CLASSIC, SEATS, None)
    at: dict[str, Any] = dict(
        phase="play",
        hands=tuple(cs(h) for h in hands),
        leader=0,
        trick_no=1,
        sitout=-1,
        declarer=declarer,
        seen=(True,) * 3,
        won_points=(0, 0, 0),
        marriage_pts=(0, 0, 0),
        tricks_count=(0, 0, 0),
    )
    return _r(base, **{**at, **fields})


def heuristic(s: Any, seat: str = "p1") -> Any:
    cmd = bots.heuristic_bot(s, seat, random.Random(0))
    assert cmd in GAME.legal_commands(s, seat)
    return cmd


def test_the_heuristic_leads_low_without_a_sure_winner() -> None:
    """No card is the best of its suit still out: the lead is the cheapest card, not the ten."""
    assert heuristic(table(("10H 9S JC", "9D", "JD"))) == Play(card="9S")


def test_the_heuristic_leads_a_sure_winner_when_it_holds_one() -> None:
    assert heuristic(table(("10H 9S AC", "9D", "JD"))) == Play(card="AC")


def test_the_heuristic_announces_the_four_aces_2_2() -> None:
    assert heuristic(table(("AC AS AD AH 9S", "9D", "JD"))) == Play(card="AC", announce="aces")


def test_a_defender_feeds_the_other_defenders_trick_when_last() -> None:
    """p2 declared and led 9H, p3 holds the trick with KH: p1 gives it the queen, not the jack."""
    s = table(("JH QH 9S", "AD", "JD"), trick=((1, "9H"), (2, "KH")), leader=1)
    assert heuristic(s) == Play(card="QH")


def test_a_defender_beats_the_declarer_with_the_cheapest_winning_card() -> None:
    """p2 (declarer) leads KH, p3 follows 9H: p1 takes it with the ten, keeping the ace."""
    s = table(("AH 10H QH", "AD", "JD"), trick=((1, "KH"), (2, "9H")), leader=1)
    assert heuristic(s) == Play(card="10H")


def _endgame(hands: tuple[str, str, str], trick_no: int, **fields: Any) -> Any:
    """p1 declares and leads with every other card already played."""
    held = {c for h in hands for c in cs(h)}
    played = tuple(c for c in DECK if c not in held)
    return table(hands, declarer=0, trick_no=trick_no, played=played, **fields)


def test_the_search_finds_the_line_the_heuristic_misses() -> None:
    """Trump spades, two tricks left, p1 needs 20 more: the heuristic cashes AH (p2 trumps it with
    9S); trumping out with JS first wins both tricks and makes the contract."""
    s = _endgame(("AH JS", "9S 10D", "QH KD"), 6, trump="S", contract=120, bid=120)
    s = _r(s, won_points=(100, 10, 10), tricks_count=(5, 1, 0))
    assert heuristic(s) == Play(card="AH")
    assert bots.search_bot(s, "p1", random.Random(0)) == Play(card="JS")


def test_the_search_counts_the_four_aces_it_announces_2_2() -> None:
    """Only the 200 of the four aces makes the 150: the search announces them."""
    s = _endgame(("AS AC AD AH", "9S 9C 9D 9H", "JS JC JD JH"), 4, contract=150, bid=150)
    choice = bots.search_bot(s, "p1", random.Random(0))
    assert isinstance(choice, Play) and choice.announce == "aces"


def test_the_playout_policy_announces_its_best_marriage() -> None:
    """In the search's playouts a leader announces the most valuable marriage (♥100 over ♠40) by
    its queen, and never on the first lead (§2.8)."""
    hand = ["KS", "QS", "KH", "QH", "9D"]
    assert bots._fast_policy(CLASSIC, hand, [], None, 1, [], 0, 0) == Play(card="QH", announce="marriage")
    first = bots._fast_policy(CLASSIC, hand, [], None, 0, [], 0, 0)
    assert first.announce == "none"
