"""Computer players (issue 11): the heuristic tracks voids, dumps penalty cards, leads low in
negative deals and counts trumps; every strength answers a legal command."""

from __future__ import annotations

import random

from contracts.games.king import Play
from domain.games.king import GAME
from domain.games.king.bots import choose_card, heuristic_bot, search_bot, voids
from domain.games.king.queries import legal_commands
from tests.unit.king.helpers import DEAL4, act, contract, one_deal, rules, scripted

ALL = frozenset()


def test_voids_are_tracked_from_the_tricks() -> None:
    """A seat that does not follow the led suit has shown a void in it."""
    s = scripted(one_deal("NT"), [DEAL4], first_dealer=3)
    for seat, card in (("p1", "10C"), ("p2", "9D"), ("p3", "AC"), ("p4", "7C")):
        s = act(s, seat, Play(card=card))
    v = voids(s)
    assert v[1] == {"C"} and v[0] == v[2] == v[3] == set()


def test_negative_deal_leads_low_and_ducks() -> None:
    """NT: lead the lowest card; follow under the winning card with the highest that loses."""
    r = rules()
    c = contract("NT", r)
    unseen = {"AC", "KC", "QC", "AD", "KD"}
    assert choose_card(r, c, 0, ("9C", "7D", "QS"), ("9C", "7D", "QS"), (), 1, 4, unseen) == "7D"
    assert choose_card(r, c, 1, ("8C", "JC", "AC"), ("8C", "JC", "AC"), ("QC",), 1, 4, unseen) == "JC"


def test_negative_deal_dumps_the_dearest_card_when_void() -> None:
    """NG: void in the led suit, throw the queen; NH: throw the highest heart."""
    r = rules()
    ng = contract("NG", r)
    assert choose_card(r, ng, 1, ("QD", "AS", "7H"), ("QD", "AS", "7H"), ("9C",), 2, 4, ALL) == "QD"
    nh = contract("NH", r)
    assert choose_card(r, nh, 1, ("8H", "KH", "AS"), ("8H", "KH", "AS"), ("9C",), 2, 4, ALL) == "KH"


def test_trump_deal_draws_trumps_while_holding_the_best() -> None:
    """HV: holding the highest trump while trumps are still out, lead it (counts trumps)."""
    r = rules()
    c = contract("HV", r, trump="S", declarer=0)
    hand = ("AS", "7S", "KC", "8D")
    assert choose_card(r, c, 0, hand, hand, (), 1, 4, {"KS", "QS", "AC", "9D"}) == "AS"
    # no trump left unseen: lead a sure winner of a side suit instead of a trump
    assert choose_card(r, c, 0, hand, hand, (), 1, 4, {"QC", "9D", "7C"}) in ("KC", "AS")


def test_positive_deal_wins_cheaply_when_last() -> None:
    """The last seat to play takes the trick with its cheapest winning card."""
    r = rules()
    c = contract("PT", r)
    assert (
        choose_card(r, c, 3, ("KC", "AC", "8C"), ("KC", "AC", "8C"), ("QC", "9C", "10C"), 1, 4, ALL) == "KC"
    )


def test_every_strength_answers_a_legal_command() -> None:
    """random, heuristic and search play whole deals with legal commands only."""
    for name in ("random", "heuristic", "search"):
        s = scripted(one_deal("HV"), [DEAL4], first_dealer=3)
        rng = random.Random(1)
        while s.phase not in ("scored", "finished"):
            seat = s.seats[s.to_act]
            cmd = GAME.bots[name](s, seat, rng)
            assert cmd in legal_commands(s, seat), (name, cmd)
            s = act(s, seat, cmd)
        assert s.sheet and s.sheet[0].row_sum == 24


def test_the_heuristic_declares_its_longest_suit() -> None:
    """HV: with two cards of a suit in the peek the heuristic names it."""
    s = scripted(one_deal("HV"), [DEAL4], first_dealer=3)
    # p1's peek is ♣8 ♣9 ♣10
    cmd = heuristic_bot(s, "p1", random.Random(0))
    assert getattr(cmd, "suit", None) == "C"
    assert search_bot(s, "p1", random.Random(0)) == cmd  # outside card play the search is the heuristic
