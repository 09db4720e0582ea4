"""The heuristic's card sense (issue 11), on hand-built values: what a card is worth in a deal's
game, what a trick costs, which card wins, and the card it plays in positions where one of its
rules decides (rules/king.md §3.2 ranks, §3.5-§3.6 play, §4 values, §12.4 legal cards)."""

from __future__ import annotations

from domain.games.king.bots import (
    _danger,
    _safe,
    beats,
    best_in_trick,
    choose_card,
    penalty,
    power,
    trick_value,
)
from tests.unit.king.helpers import contract, rules

NOTHING_UNSEEN: frozenset[str] = frozenset()


# ---------------------------------------------------------------- power (§3.2)
def test_power_follows_the_rank_order_and_misere_reverses_it() -> None:
    """§3.2: A K Q J 10 9 8 7, strongest first; misère (001:L73, L141) makes 7 high and A low."""
    normal = contract("HV", trump="S")
    misere = contract("HV", misere=True)
    ranks = ["A", "K", "Q", "J", "10", "9", "8", "7"]
    assert [power(normal, r + "C") for r in ranks] == [8, 7, 6, 5, 4, 3, 2, 1]
    assert [power(misere, r + "C") for r in ranks] == [1, 2, 3, 4, 5, 6, 7, 8]


# ---------------------------------------------------------------- penalty (§4 unit values)
def test_penalty_is_what_the_card_itself_scores_in_the_game() -> None:
    """§4: −2 per heart (NH), −4 per boy = jack (NB), −4 per queen (NG), −16 for K♥ (NK); the
    Eralash counts every category, so K♥ is the King and a heart (18) and Q♥ a queen and a heart
    (6).  The size is given unsigned: the contract's sign says whether it is a loss or a gain."""
    r = rules()
    nh, nb, ng, nk, ne = (contract(g, r) for g in ("NH", "NB", "NG", "NK", "NE"))
    assert (penalty(r, nh, "7H"), penalty(r, nh, "QS")) == (2, 0)
    assert (penalty(r, nb, "JC"), penalty(r, nb, "KC"), penalty(r, nb, "QC")) == (4, 0, 0)
    assert (penalty(r, ng, "QD"), penalty(r, ng, "JD")) == (4, 0)
    assert (penalty(r, nk, "KH"), penalty(r, nk, "AH"), penalty(r, nk, "KS")) == (16, 0, 0)
    assert [penalty(r, ne, x) for x in ("KH", "QH", "JH", "JS", "7H", "7C")] == [18, 6, 6, 4, 2, 0]
    assert penalty(r, contract("PH", r), "9H") == 2  # the positive mirror takes the same card value


def test_penalty_follows_what_the_boys_are() -> None:
    """§4 NB variants (K5/Q1): with boys = K the kings are the boys, with JK both at the ruleset's value."""
    rk = rules(boys="K")
    assert (penalty(rk, contract("NB", rk), "KC"), penalty(rk, contract("NB", rk), "JC")) == (4, 0)


def test_no_card_carries_points_in_trick_only_games() -> None:
    """§4: NT, NL and the trump deals score tricks, not cards; K♥ is worth nothing by itself there."""
    r = rules()
    for g in ("NT", "NL", "PT", "PL"):
        assert penalty(r, contract(g, r), "KH") == 0, g
    for g in ("HV", "TR", "AU", "OT"):
        assert penalty(r, contract(g, r, trump="H"), "KH") == 0, g


# ---------------------------------------------------------------- trick_value (§4, §12.7)
def test_trick_value_is_what_taking_the_trick_scores() -> None:
    """§4: a trick costs 2 in NT, its hearts 2 each in NH, the King 16 in NK; in NL only the last
    two tricks cost (8 each); the Eralash adds everything; a positive mirror gains the same."""
    r = rules()
    plain = ["7C", "8C", "9C", "10C"]
    assert trick_value(r, contract("NT", r), plain, 1) == -2
    assert trick_value(r, contract("PT", r), plain, 1) == 2
    assert trick_value(r, contract("NH", r), ["7C", "8H", "QH", "9C"], 3) == -4
    assert trick_value(r, contract("NH", r), plain, 3) == 0
    assert trick_value(r, contract("NK", r), ["7H", "KH", "9H", "AH"], 2) == -16
    nl = contract("NL", r)
    assert [trick_value(r, nl, plain, k) for k in (1, 6, 7, 8)] == [0, 0, -8, -8]
    ne = contract("NE", r)
    # trick 1: the trick (2), K♥ as the King and a heart (18), Q♠ a queen (4)
    assert trick_value(r, ne, ["KH", "7C", "QS", "8C"], 1) == -24
    assert trick_value(r, ne, ["KH", "7C", "QS", "8C"], 8) == -32  # and one of the last two (8)


def test_trick_value_in_trump_deals_is_the_trick_price() -> None:
    """§6.2 / §12.7: a hvalenka trick is worth hvTrick (3 classic), a TR or AU trick F's 6, an
    otyigrysh trick the atomic hvTrick (4, Q10), whatever cards it holds."""
    r = rules()
    assert trick_value(r, contract("HV", r, trump="S"), ["KH", "QH", "JH", "AH"], 1) == 3
    for game, preset in (("TR", "king-4p-trump"), ("AU", "king-4p-trading")):
        f = rules(preset)
        assert trick_value(f, contract(game, f, trump="H"), ["KH", "QH", "JH", "AH"], 8) == 6, game
    atomic = rules("king-atomic")
    assert trick_value(atomic, contract("OT", atomic, trump="S"), ["KH", "QH", "JH"], 1) == 4


# ---------------------------------------------------------------- best_in_trick, beats (§3.6)
def test_best_card_in_a_trick() -> None:
    """§3.6: the highest trump wins if any was played, otherwise the highest card of the led suit."""
    hv = contract("HV", trump="S")
    assert best_in_trick(hv, ["AC", "10S"]) == "10S"  # a lone trump ten beats the led ace
    assert best_in_trick(hv, ["9C", "KC", "7C"]) == "KC"
    assert best_in_trick(hv, ["9C", "7S", "JS", "AC"]) == "JS"
    nt = contract("NT")
    assert best_in_trick(nt, ["9C", "AD", "10C"]) == "10C"  # an off-suit ace wins nothing
    assert best_in_trick(nt, []) is None
    misere = contract("HV", misere=True)
    assert best_in_trick(misere, ["AC", "7C", "9C"]) == "7C"
    assert beats(hv, "7S", "AC", "C") and not beats(hv, "7D", "AC", "C") and beats(hv, "QC", "JC", "C")


# ---------------------------------------------------------------- _safe
def test_a_sure_winner_needs_no_higher_card_and_no_trump_out() -> None:
    """A card is a sure winner when no unseen card of its suit beats it and, off trumps in a
    trump deal, no trump is left unseen (§3.5: a void seat must trump)."""
    hv = contract("HV", trump="S")
    assert _safe(hv, "AC", {"7C", "KD"})
    assert not _safe(hv, "AC", {"7C", "7S"})  # a void seat could trump it
    assert not _safe(hv, "KC", {"AC"})
    assert _safe(hv, "KS", {"QS", "AC"})  # the best trump left
    assert _safe(contract("PT"), "KC", {"QC", "AD"})


# ---------------------------------------------------------------- _danger (ordering a negative game)
def test_danger_estimates_what_a_negative_game_costs_with_the_hand() -> None:
    """The cost the heuristic expects of a negative game (§4: each at −16), higher is worse:
    - NT: 2 (one trick) for every high card (Q, K, A), the cards that take tricks;
    - NL: 3 for every ace, which may well win one of the last two tricks;
    - NH: half the power of the hearts held (high hearts get captured);
    - NK: the full 16 when K♥ is held with at most one more heart to hide behind, 2 when it is
      better covered, 0 without it;
    - NB / NG: 4 for every boy / queen held, plus 1 per high card;
    - NE: a base of 10 plus 3 for every high card."""
    r = rules()
    hand = ("AS", "KS", "7S", "QH", "9H", "JC", "7D", "AD")
    assert _danger(r, "NT", hand) == 2.0 * 4  # A♠ K♠ Q♥ A♦ are high; J♣ is not
    assert _danger(r, "NL", hand) == 6.0
    assert _danger(r, "NH", hand) == (6 + 3) / 2
    assert _danger(r, "NB", hand) == 4 + 4
    assert _danger(r, "NG", ("QS", "QD", "7C", "8C")) == 8 + 2
    assert _danger(r, "NG", hand) == 4 + 4
    assert _danger(r, "NE", hand) == 10.0 + 3 * 4
    assert _danger(r, "NK", ("KH", "7H", "AS")) == 16.0
    assert _danger(r, "NK", ("KH", "7H", "8H", "AS")) == 2.0
    assert _danger(r, "NK", ("7H", "AS", "8D")) == 0.0
    assert _danger(r, "NH", ("AS", "KD")) == 0.0


# ---------------------------------------------------------------- choose_card: negative deals
def test_negative_void_discards_the_dearest_card_not_the_highest() -> None:
    """NH, void in the led suit (§3.5, any card may be played): throw the highest heart, even when
    a higher card of another suit is held (it costs nothing by itself)."""
    r = rules()
    nh = contract("NH", r)
    hand = ("8H", "JH", "AD", "KS")
    assert choose_card(r, nh, 1, hand, hand, ("9C",), 2, 4, NOTHING_UNSEEN) == "JH"


def test_negative_follow_ducks_with_the_highest_card_that_loses() -> None:
    """NH, hearts led (must follow, §3.5): under the winning Q♥ play J♥, keep 7♥ for later."""
    r = rules()
    nh = contract("NH", r)
    hand = ("7H", "JH", "AH", "9C")
    options = ("7H", "JH", "AH")
    assert choose_card(r, nh, 1, hand, options, ("QH",), 2, 4, NOTHING_UNSEEN) == "JH"


def test_negative_free_trick_sheds_a_high_card() -> None:
    """NH: a trick with no heart in it costs nothing; when every card would take it anyway, take it
    with the highest card, which would be dangerous later."""
    r = rules()
    nh = contract("NH", r)
    hand = ("9C", "AC")
    assert choose_card(r, nh, 1, hand, hand, ("7C",), 2, 4, NOTHING_UNSEEN) == "AC"


def test_negative_costly_trick_taken_without_a_penalty_card() -> None:
    """NE: a trick always costs there (−2); when every card takes it, take it with A♣ rather than
    Q♣, which would add a queen (−4) to the trick."""
    r = rules()
    ne = contract("NE", r)
    assert choose_card(r, ne, 1, ("QC", "AC", "8D"), ("QC", "AC"), ("7C",), 2, 4, NOTHING_UNSEEN) == "AC"


def test_negative_lead_is_low_and_never_a_penalty_card() -> None:
    """NG: lead the lowest card that does not score; the queen stays in the hand."""
    r = rules()
    ng = contract("NG", r)
    hand = ("QS", "7S", "9D")
    assert choose_card(r, ng, 0, hand, hand, (), 1, 4, {"AS", "KS", "AD", "KD"}) == "7S"


def test_negative_lead_prefers_a_suit_where_higher_cards_are_still_out() -> None:
    """NT: 7♣ is lower than 8♦, but every higher club is gone, so 7♣ would take the trick; lead the
    8♦, under which A♦ and 9♦ are still out."""
    r = rules()
    nt = contract("NT", r)
    hand = ("7C", "8D")
    assert choose_card(r, nt, 0, hand, hand, (), 3, 4, {"9D", "AD", "7S"}) == "8D"
    assert choose_card(r, nt, 0, hand, hand, (), 3, 4, {"9D", "AD", "9C"}) == "7C"


# ---------------------------------------------------------------- choose_card: positive and trump deals
def test_positive_follow_takes_with_a_sure_winner() -> None:
    """PT, second to play: A♣ cannot be beaten, so it takes the trick; with A♣ still out, nothing
    is sure and the heuristic takes as cheaply as it can."""
    r = rules()
    pt = contract("PT", r)
    assert choose_card(r, pt, 1, ("AC", "10C", "7D"), ("AC", "10C"), ("9C",), 1, 4, {"KC", "QD"}) == "AC"
    assert choose_card(r, pt, 1, ("KC", "10C", "7D"), ("KC", "10C"), ("9C",), 1, 4, {"AC", "QD"}) == "10C"


def test_positive_follow_that_cannot_win_plays_low_and_keeps_point_cards() -> None:
    """PT: under A♣ the 7♣ goes, not the K♣.  PH, void: give away a card that scores nothing (the
    lowest of those), never a heart, which would score for the winner."""
    r = rules()
    pt = contract("PT", r)
    assert choose_card(r, pt, 1, ("7C", "KC", "9D"), ("7C", "KC"), ("AC",), 1, 4, NOTHING_UNSEEN) == "7C"
    ph = contract("PH", r)
    hand = ("QH", "10D", "8H", "KS")
    assert choose_card(r, ph, 1, hand, hand, ("AC",), 1, 4, NOTHING_UNSEEN) == "10D"


def test_positive_lead_without_a_sure_winner_is_low_from_the_longest_suit() -> None:
    """PT: A♣ and A♦ K♦ are out, so no card is sure; lead the lowest club, the longest suit."""
    r = rules()
    pt = contract("PT", r)
    hand = ("KC", "9C", "8C", "QD")
    assert choose_card(r, pt, 0, hand, hand, (), 1, 4, {"AC", "AD", "KD", "7S"}) == "8C"


def test_trump_lead_draws_trumps_with_the_best_trump() -> None:
    """HV, trumps ♠, A♠ gone: K♠ is the best trump left, so it is led to draw the rest (counts trumps)."""
    r = rules()
    hv = contract("HV", r, trump="S", declarer=0)
    hand = ("QS", "KS", "7C")
    assert choose_card(r, hv, 0, hand, hand, (), 2, 4, {"JS", "9S", "AC", "8D"}) == "KS"


def test_trump_deal_side_ace_is_no_sure_winner_while_trumps_are_out() -> None:
    """HV, trumps ♠ still out and no trump held: A♣ could be trumped, so the heuristic leads low
    from its longest suit; once no trump is out, the ace is a sure winner and is led."""
    r = rules()
    hv = contract("HV", r, trump="S", declarer=0)
    hand = ("AC", "8D", "9D")
    assert choose_card(r, hv, 0, hand, hand, (), 2, 4, {"KS", "7C", "10D"}) == "8D"
    assert choose_card(r, hv, 0, hand, hand, (), 2, 4, {"7C", "10D"}) == "AC"
