"""The heuristic's and the search player's choices in constructed positions (issue 11): which
contract it orders, bids, declares, discards and sells, what it plays in a dealt position, and
the search's building blocks (the sample of the unseen cards, the play-out score).
Rules: rules/king.md §3.5 (following), §4 (values), §6.2 (hvalenki), §7 (trading), §8.4 (atomic),
§12.2-§12.4 (phases and actions)."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

from contracts.games.king import (
    AcceptBuyout,
    Bid,
    ChooseContract,
    ChooseTrump,
    Declare,
    Discard,
    OfferBuyout,
    PassBid,
    PassBuyout,
    Play,
    Ready,
    RefuseBuyout,
)
from domain.games.king import GAME
from domain.games.king.bots import _early, _play_out, _sample, heuristic_bot, unseen_cards, voids
from domain.games.king.deal import initial_state
from domain.games.king.evolve import UNKNOWN, evolve
from domain.games.king.phases import decide
from domain.games.king.queries import legal_commands
from domain.games.king.rules import PRESETS
from domain.games.king.view import redact
from tests.unit.king.helpers import DEAL4, act, contract, one_deal, rules, scripted

RNG = random.Random(0)

# Every seat holds one whole suit: the leader wins each trick it leads with its own suit.
SUITED = [
    ["7C", "8C", "9C", "10C", "JC", "QC", "KC", "AC"],
    ["7D", "8D", "9D", "10D", "JD", "QD", "KD", "AD"],
    ["7H", "8H", "9H", "10H", "JH", "QH", "KH", "AH"],
    ["7S", "8S", "9S", "10S", "JS", "QS", "KS", "AS"],
]


def bot(s: Any, seat: str) -> Any:
    cmd = heuristic_bot(s, seat, random.Random(0))
    assert cmd in legal_commands(s, seat), cmd
    return cmd


def seat_state(
    r: Any, deal: list[list[str]], first_dealer: int, viewer: str, moves: list[tuple[str, Any]]
) -> Any:
    """The information state of ``viewer`` (the match's events redacted for it, as the bot
    service folds them) after every seat is ready and ``moves`` are played."""
    seats = GAME.seat_names(r.players)
    full = initial_state(r, seats, None)
    full = msgspec.structs.replace(
        full, scripted=(tuple(tuple(h) for h in deal),), scripted_first_dealer=first_dealer
    )
    mine = full
    for seat, cmd in [(x, Ready()) for x in seats] + moves:
        events = decide(full, seat, cmd)
        assert isinstance(events, tuple), (seat, cmd, events)
        for e in events:
            full = evolve(full, e)
            seen = redact(e, viewer)
            if seen is not None:
                mine = evolve(mine, seen)
    return mine


# ---------------------------------------------------------------- card play in a dealt position
def test_void_in_no_hearts_the_heuristic_discards_its_heart() -> None:
    """NH, clubs led and p2 void in clubs (§3.5: any card may be played): it discards its heart
    K♥ (a heart costs 2 to whoever takes it) rather than its higher A♦, which costs nothing."""
    s = scripted(one_deal("NH"), [DEAL4], first_dealer=3)
    s = act(s, "p1", Play(card="8C"))
    assert bot(s, "p2") == Play(card="KH")


def test_void_in_no_tricks_the_heuristic_discards_its_highest_card() -> None:
    """NT, clubs led, p2 void: A♦ goes, the card most likely to win a later trick."""
    s = scripted(one_deal("NT"), [DEAL4], first_dealer=3)
    s = act(s, "p1", Play(card="8C"))
    assert bot(s, "p2") == Play(card="AD")


# ---------------------------------------------------------------- ordering (§8.4, §11.4 ordered)
ATOMIC_NO_LENGTH = [  # p1: 3-3-2-2, all low, no K♥
    ["7C", "8C", "9C", "7D", "8D", "9D", "7H", "8H", "7S", "8S"],
    ["10C", "JC", "QC", "KC", "AC", "10D", "JD", "QD", "KD", "AD"],
    ["9H", "10H", "JH", "QH", "KH", "AH", "9S", "10S", "JS", "QS"],
]
ATOMIC_FOUR_SPADES = [  # p1: four spades, three clubs, three diamonds, all low, no K♥
    ["7S", "8S", "9S", "10S", "7C", "8C", "9C", "7D", "8D", "9D"],
    ["10C", "JC", "QC", "KC", "AC", "10D", "JD", "QD", "KD", "AD"],
    ["7H", "8H", "9H", "10H", "JH", "QH", "KH", "AH", "JS", "QS"],
]


def atomic(deal: list[list[str]], talon: list[str]) -> Any:
    return scripted(PRESETS["king-atomic"], [deal], first_dealer=2, talons=[talon])


def test_atomic_orderer_without_a_long_suit_orders_a_safe_negative_game() -> None:
    """§8.4: p1 orders.  With three low cards at most in a suit the otyigrysh is a poor bet (two
    points a trump, a quarter of their power, less a base of 8: −0.5 here), while a negative game
    it cannot lose much in (no high card, no K♥, no boy, no queen) costs it nothing."""
    s = atomic(ATOMIC_NO_LENGTH, ["KS", "AS"])
    assert s.phase == "ordering" and s.to_act == 0
    cmd = bot(s, "p1")
    assert isinstance(cmd, ChooseContract) and cmd.game in ("NT", "NB", "NG", "NK", "NL"), cmd


def test_atomic_orderer_with_four_trumps_orders_the_otyigrysh_in_them() -> None:
    """§8.4: four spades make the otyigrysh worth 8 + 10/4 − 8 = 2.5 to the heuristic, more than
    any negative game (at best 0), so it orders OT with spades as trumps (its longest suit)."""
    s = atomic(ATOMIC_FOUR_SPADES, ["KS", "AS"])
    assert bot(s, "p1") == ChooseContract(game="OT", trump="S")


def test_ordered_weak_hand_orders_a_negative_game_not_a_take_game() -> None:
    """§11.4 ordered King: p1's cards average 2.6 of 8 in power, so "take" games look bad to it
    (below the middle, 4.5); it orders a negative game in which its low cards are safe."""
    s = scripted(PRESETS["king-4p-ordered"], [DEAL4], first_dealer=3)
    cmd = bot(s, "p1")
    assert isinstance(cmd, ChooseContract) and cmd.game.startswith("N"), cmd


# ---------------------------------------------------------------- trading auction (§7, §12.3 BID)
TRADING = [
    ["7C", "8C", "9C", "10C", "7D", "8D", "9D", "10D"],
    ["AS", "KS", "QS", "10S", "9S", "7H", "8H", "JC"],  # p2: five spades of power 8+7+6+4+3 = 28
    ["JS", "8S", "7S", "AH", "KH", "QH", "JH", "10H"],
    ["QC", "KC", "AC", "JD", "QD", "KD", "AD", "9H"],
]


def trading() -> Any:
    return scripted(one_deal("AU", "king-4p-trading"), [TRADING], first_dealer=3)


def test_auction_a_strong_five_card_suit_bids_one() -> None:
    """§7 (the declarer scores only the tricks above his bid): to the heuristic five cards of a
    suit with power 28 (A K Q 10 9) are worth a bid of 1, to name that suit; after the weak p1's
    pass, p2 bids 1."""
    s = trading()
    assert bot(s, "p1") == PassBid()
    s = act(s, "p1", PassBid())
    assert bot(s, "p2") == Bid(tricks=1)


def test_auction_a_five_card_suit_does_not_bid_two() -> None:
    """§7: the same hand is worth a bid of 1, not 2: over p1's 1 it passes."""
    s = trading()
    s = act(s, "p1", Bid(tricks=1))
    assert bot(s, "p2") == PassBid()


def test_auction_six_trumps_bid_two() -> None:
    """§7: six cards of a suit are worth a bid of 2 to the heuristic."""
    deal = [
        ["7C", "8C", "9C", "10C", "7D", "8D", "9D", "10D"],
        ["AS", "KS", "QS", "10S", "9S", "8S", "7H", "JC"],
        ["JS", "8H", "7S", "AH", "KH", "QH", "JH", "10H"],
        ["QC", "KC", "AC", "JD", "QD", "KD", "AD", "9H"],
    ]
    s = scripted(one_deal("AU", "king-4p-trading"), [deal], first_dealer=3)
    s = act(s, "p1", Bid(tricks=1))
    assert bot(s, "p2") == Bid(tricks=2)


# ---------------------------------------------------------------- declaring (§6.2, §12.3 DECLARE)
def hv(first_three: list[str], game: str = "HV", preset: str = "king-4p-classic") -> Any:
    p1 = first_three + [x for x in DEAL4[0] if x not in first_three]
    return scripted(one_deal(game, preset), [[p1, *DEAL4[1:]]], first_dealer=3)


def test_declarer_names_a_suit_it_holds_two_of() -> None:
    """§6.2: with two clubs among the three cards of the peek, clubs are trumps."""
    s = hv(["10C", "8C", "7D"])
    assert s.phase == "declaring" and s.to_act == 0
    assert bot(s, "p1") == Declare(option="SUIT", suit="C")


def test_declarer_with_a_weak_peek_declares_raspis() -> None:
    """§6.2 RASPIS (two tricks to everybody without play): three low cards of three suits."""
    s = hv(["7D", "8C", "9S"])
    assert bot(s, "p1") == Declare(option="RASPIS")


def test_declarer_with_no_two_of_a_suit_but_high_cards_goes_by_the_last() -> None:
    """§6.3: no suit of two and a card above 10 in the peek: trumps by the last card."""
    s = hv(["JC", "8D", "9S"])
    assert bot(s, "p1") == Declare(option="BY_LAST")


def test_trump_deal_names_a_suit_it_holds_two_of() -> None:
    """§6.4 King with trump (K13): two clubs in the first three cards: clubs, not "by the last"."""
    s = hv(["10C", "8C", "7D"], "TR", "king-4p-trump")
    assert s.phase == "declaring" and s.to_act == 0
    assert bot(s, "p1") == ChooseTrump(suit="C")
    t = hv(["7D", "8C", "9S"], "TR", "king-4p-trump")
    assert bot(t, "p1") == ChooseTrump(suit=None)
    # suits only (no "by the last" offered): two diamonds name diamonds, not the first suit listed
    p1 = ["7D", "8D", "9S", *[x for x in DEAL4[0] if x not in ("7D", "8D", "9S")]]
    u = scripted(one_deal("TR", "king-4p-trump", hv_options=("SUIT",)), [[p1, *DEAL4[1:]]], first_dealer=3)
    assert bot(u, "p1") == ChooseTrump(suit="D")


# ---------------------------------------------------------------- buy-out answer (§12.3, Q8)
def test_declarer_sells_for_three_tricks_or_more() -> None:
    """§12.3 ACCEPT_BUYOUT / REFUSE_BUYOUT: the heuristic declarer sells the declaration for an
    offer of 3 tricks (9 points) and keeps it for 2."""
    for offer, answer in ((3, AcceptBuyout()), (2, RefuseBuyout())):
        s = scripted(one_deal("HV", hv_buyout=True), [DEAL4], first_dealer=3)
        s = act(s, "p2", OfferBuyout(tricks=offer))
        s = act(s, "p3", PassBuyout())
        s = act(s, "p4", PassBuyout())
        assert s.phase == "buyout_answer"
        assert bot(s, "p1") == answer


# ---------------------------------------------------------------- discard (§8.4, §12.3 DISCARD)
def test_atomic_negative_orderer_discards_its_two_highest_cards() -> None:
    """§8.4 DISCARD: in NT the orderer puts away K♠ and A♠ from the talon, the cards most likely
    to take tricks."""
    s = atomic(ATOMIC_NO_LENGTH, ["KS", "AS"])
    s = act(s, "p1", ChooseContract(game="NT"))
    assert s.phase == "discard"
    cmd = bot(s, "p1")
    assert isinstance(cmd, Discard) and set(cmd.cards) == {"KS", "AS"}


def test_atomic_otyigrysh_orderer_discards_its_two_lowest_cards() -> None:
    """§8.4: ordering the otyigrysh (take tricks), the orderer keeps its strength and puts away
    7♥ 8♥, its two weakest cards."""
    deal = [
        ["AS", "KS", "QS", "JS", "10S", "AC", "KC", "QC", "AD", "KD"],
        ["7C", "8C", "9C", "10C", "JC", "7D", "8D", "9D", "10D", "JD"],
        ["QD", "9H", "10H", "JH", "QH", "KH", "AH", "7S", "8S", "9S"],
    ]
    s = atomic(deal, ["7H", "8H"])
    s = act(s, "p1", ChooseContract(game="OT", trump="S"))
    assert s.phase == "discard"
    cmd = bot(s, "p1")
    assert isinstance(cmd, Discard) and set(cmd.cards) == {"7H", "8H"}


# ---------------------------------------------------------------- what a seat knows
def test_voids_show_in_the_trick_in_progress() -> None:
    """§3.5: a seat that does not follow suit in the current trick has shown a void in it."""
    s = scripted(one_deal("NT"), [DEAL4], first_dealer=3)
    s = act(s, "p1", Play(card="8C"))
    s = act(s, "p2", Play(card="9D"))
    v = voids(s)
    assert v[1] == {"C"} and v[0] == v[2] == v[3] == set()


def test_sample_deals_the_unseen_cards_consistently() -> None:
    """The search's determinization: from p1's information state after p2 showed a club void,
    every sample gives each other seat as many cards as it holds, only cards p1 has not seen,
    all of them once, and never a club to p2."""
    moves = [("p1", Play(card="8C")), ("p2", Play(card="9D"))]
    s = seat_state(one_deal("NT"), DEAL4, 3, "p1", moves)
    assert all(x == UNKNOWN for x in s.hands[1])
    unseen = unseen_cards(s, 0)
    assert len(unseen) == 7 + 8 + 8
    for seed in range(20):
        hands = _sample(s, 0, unseen, random.Random(seed))
        assert hands is not None
        assert sorted(hands) == [1, 2, 3]
        assert [len(hands[j]) for j in (1, 2, 3)] == [7, 8, 8]
        dealt = [x for j in (1, 2, 3) for x in hands[j]]
        assert sorted(dealt) == sorted(unseen)
        assert not any(x.endswith("C") for x in hands[1])


def test_early_end_is_when_every_scoring_card_is_taken() -> None:
    """§12.6 / §9.5: NK ends with K♥ taken, NH with all 8 hearts; NT never ends early."""
    r = rules()
    nk, nh, nt = contract("NK", r), contract("NH", r), contract("NT", r)
    assert _early(r, nk, [["7C", "KH"], [], [], []])
    assert not _early(r, nk, [["7C", "AH"], [], [], []])
    hearts = [x + "H" for x in ("7", "8", "9", "10", "J", "Q", "K", "A")]
    assert _early(r, nh, [hearts[:5], [], hearts[5:], []])
    assert not _early(r, nh, [hearts[:5], [], hearts[5:7], []])
    assert not _early(r, nt, [list(hearts), [], [], []])


# ---------------------------------------------------------------- the search's play-out
def others(s: Any, me: int) -> dict[int, list[str]]:
    return {j: list(s.hands[j]) for j in s.active if j != me}


def test_play_out_scores_my_points_against_the_others_mean() -> None:
    """NL (§4: −8 for each of the last two tricks): p1 holds all the clubs and leads; after five
    tricks it wins the last three as well, so it takes both of the last two: −16 for it, 0 for
    the others, the play-out is worth −16 − 0."""
    s = scripted(one_deal("NL"), [SUITED], first_dealer=3)
    for _ in range(5):
        for seat in ("p1", "p2", "p3", "p4"):
            s = act(s, seat, Play(card=s.hands[s.to_act][0]))
    assert len(s.tricks) == 5 and s.to_act == 0
    assert _play_out(s, 0, others(s, 0), "QC", RNG) == -16.0


def test_play_out_counts_the_others_mean() -> None:
    """NT (§4: −2 a trick): p1 leads 7♦ into p2's seven diamonds; p2 takes it with A♦ and leads its
    only club, which p1 takes and then wins every trick with its clubs: p1 −14, p2 −2, p3 and
    p4 0, so the play-out is worth −14 − (−2 + 0 + 0) / 3."""
    deal = [
        ["8C", "9C", "10C", "JC", "QC", "KC", "AC", "7D"],
        ["7C", "8D", "9D", "10D", "JD", "QD", "KD", "AD"],
        SUITED[2],
        SUITED[3],
    ]
    s = scripted(one_deal("NT"), [deal], first_dealer=3)
    assert _play_out(s, 0, others(s, 0), "7D", RNG) == pytest.approx(-14 + 2 / 3)


def test_play_out_stops_when_the_king_is_taken() -> None:
    """NK (§12.6): p3 holds only hearts and must discard K♥ at once (§3.7b); p1 takes it with the
    first trick and the deal ends: −16 for p1."""
    s = scripted(one_deal("NK"), [SUITED], first_dealer=3)
    assert _play_out(s, 0, others(s, 0), "7C", RNG) == -16.0
