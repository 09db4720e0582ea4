"""Every worked example of rules/king.md §13, one test (or more) each."""

from __future__ import annotations

from contracts.games.king import ChooseContract, Discard, Play, UnitValues, match_balance
from domain.games.king import legal, scoring
from domain.games.king.queries import legal_commands
from domain.games.king.rules import PRESETS
from tests.unit.king.helpers import DEAL4, act, contract, one_deal, rejected, rules, scripted

NO_LAST: tuple[int, ...] = ()


def pts(game: str, won=(0, 0, 0, 0), taken=((), (), (), ()), last=NO_LAST, r=None, **kw):
    r = r or rules()
    c = contract(game, r, **kw)
    points = scoring.points_for(r, c, range(len(won)), won, taken, last)
    assert sum(points) == scoring.expected_sum(r, c, won)
    return points


def test_13_1_nt_tricks_2_0_4_2() -> None:
    """king.md §13.1: NT, -2 per trick (the seed's sheet, row 1)."""
    assert pts("NT", won=(2, 0, 4, 2)) == (-4, 0, -8, -4)


def test_13_2_nh_scores_hearts() -> None:
    """king.md §13.2: hearts captured 3, 0, 4, 1."""
    taken = (("AH", "KH", "QH"), (), ("JH", "10H", "9H", "8H"), ("7H",))
    assert pts("NH", taken=taken) == (-6, 0, -8, -2)


def test_13_2_nh_lead_ban() -> None:
    """king.md §13.2, §3.7a: holding ♥A ♥7 ♣8 the only lead is ♣8; holding only hearts, either."""
    r = rules()
    c = contract("NH", r)
    assert legal.legal_for(("AH", "7H", "8C"), (), c, r, 1) == ("8C",)
    assert legal.legal_for(("AH", "7H"), (), c, r, 1) == ("AH", "7H")


def test_13_2_nh_ends_after_the_trick_taking_the_last_heart() -> None:
    """king.md §13.2, §12.6: the deal stops after the trick that captures the 8th heart."""
    hands = [
        ["7C", "8C", "9C", "10C", "JC", "QC", "KC", "AC"],
        ["7H", "8H", "7D", "8D", "9D", "10D", "JD", "QD"],
        ["9H", "10H", "JH", "QH", "KD", "AD", "7S", "8S"],
        ["KH", "AH", "9S", "10S", "JS", "QS", "KS", "AS"],
    ]
    s = scripted(one_deal("NH"), [hands], first_dealer=3)
    # p1 leads clubs; the others are void and throw hearts: two tricks take all 8 hearts
    for lead, throws in (("AC", ("7H", "9H", "KH")), ("KC", ("8H", "10H", "AH")), ("QC", ("7D", "JH", "9S"))):
        s = act(s, "p1", Play(card=lead))
        for seat, card in zip(("p2", "p3", "p4"), throws, strict=True):
            s = act(s, seat, Play(card=card))
    assert s.phase == "playing"
    s = act(s, "p1", Play(card="JC"))
    s = act(s, "p2", Play(card="8D"))
    s = act(s, "p3", Play(card="QH"))
    s = act(s, "p4", Play(card="10S"))
    assert s.phase == "finished"
    row = s.sheet[0]
    assert row.ended_early and row.points == (-16, 0, 0, 0) and row.tricks == (4, 0, 0, 0)


def test_13_3_nb_jacks_jacks_and_kings_kings() -> None:
    """king.md §13.3: boys as jacks (-4), jacks and kings (-2 each, 8 boys), kings (-4, F)."""
    assert pts("NB", taken=(("JC",), (), ("JD", "JH"), ("JS",))) == (-4, 0, -8, -4)
    jk = rules(boys="JK", v=UnitValues(boy=2))
    taken_jk = (("JC", "JD", "KC"), ("JH", "KD"), ("JS", "KH"), ("KS",))
    assert pts("NB", taken=taken_jk, r=jk) == (-6, -4, -4, -2)
    k = rules(boys="K")
    assert pts("NB", taken=((), ("KC", "KD", "KH"), ("JC",), ("KS",)), r=k) == (0, -12, 0, -4)


def test_13_4_ng_queens() -> None:
    """king.md §13.4: queens 0, 2, 1, 1 (the seed's sheet, row 3)."""
    assert pts("NG", taken=((), ("QC", "QD"), ("QH",), ("QS",))) == (0, -8, -4, -4)


def test_13_5_nk_forced_king_discard_and_early_end() -> None:
    """king.md §13.5: p2 void in clubs must play K♥; p3 wins with ♣A; the deal ends at once."""
    s = scripted(one_deal("NK"), [DEAL4], first_dealer=3)
    s = act(s, "p1", Play(card="10C"))
    assert legal.legal_cards(s, 1) == ("KH",)
    assert rejected(s, "p2", Play(card="9D")) == "must_discard_king"
    s = act(s, "p2", Play(card="KH"))
    s = act(s, "p3", Play(card="AC"))
    s = act(s, "p4", Play(card="7C"))
    assert s.sheet[0].points == (0, 0, -16, 0) and s.sheet[0].ended_early
    assert s.phase == "finished"


def test_13_6_nl_last_two_tricks() -> None:
    """king.md §13.6: (a) p2 wins tricks 7 and 8; (b) p1 wins trick 7 and p4 trick 8."""
    assert pts("NL", won=(2, 4, 1, 1), last=(1, 1)) == (0, -16, 0, 0)
    assert pts("NL", won=(3, 2, 1, 2), last=(0, 3)) == (-8, 0, 0, -8)


NE_TAKEN = (
    ("KH", "JH", "7C", "8C", "9C", "10C", "7D", "8D", "9D", "10D", "7S", "8S"),
    ("7H", "8H", "9H", "JC", "QC", "QD", "KC", "AC"),
    ("QH", "JD", "JS", "9S", "10S", "KS", "AS", "KD"),
    ("10H", "AH", "QS", "AD"),
)


def test_13_7_ne_table() -> None:
    """king.md §13.7: the negative Eralash table, -38 -30 -18 -10 = -96."""
    assert pts("NE", won=(3, 2, 2, 1), taken=NE_TAKEN, last=(1, 0)) == (-38, -30, -18, -10)


def test_13_7_the_king_of_hearts_in_every_category() -> None:
    """king.md §13.7: K♥ alone costs -18; as a boy too, -22 (boys K) or -20 (boys JK at 2)."""
    only = (("KH",), (), (), ())
    assert scoring.points_for(rules(), contract("NE"), range(4), (0,) * 4, only, ())[0] == -18
    assert scoring.points_for(rules(boys="K"), contract("NE"), range(4), (0,) * 4, only, ())[0] == -22
    jk = rules(boys="JK", v=UnitValues(boy=2))
    assert scoring.points_for(jk, contract("NE", jk), range(4), (0,) * 4, only, ())[0] == -20


def test_13_8_positive_mirrors() -> None:
    """king.md §13.8: PT +6 +2 +4 +4; PE mirrors the §13.7 captures (+96)."""
    assert pts("PT", won=(3, 1, 2, 2)) == (6, 2, 4, 4)
    assert pts("PE", won=(3, 2, 2, 1), taken=NE_TAKEN, last=(1, 0)) == (38, 30, 18, 10)


def test_13_8_pk_forces_the_king_away() -> None:
    """king.md §13.8, Q3: in PK the void holder of K♥ must play it and the trick's winner scores
    +16 (the example leads ♠9; in this deal p2 is void in clubs, so p1 leads ♣9)."""
    s = scripted(one_deal("PK", "king-4p-symmetric"), [DEAL4], first_dealer=3)
    s = act(s, "p1", Play(card="9C"))
    assert legal.legal_cards(s, 1) == ("KH",)
    s = act(s, "p2", Play(card="KH"))
    s = act(s, "p3", Play(card="AC"))
    s = act(s, "p4", Play(card="7C"))
    assert s.sheet[0].points == (0, 0, 16, 0)


def test_13_9_hv_scores_and_trump_trick() -> None:
    """king.md §13.9: +3 per trick; a void seat must trump and need not over-trump."""
    assert pts("HV", won=(4, 2, 1, 1)) == (12, 6, 3, 3)
    r = rules()
    c = contract("HV", r, trump="D", declarer=0)
    assert legal.legal_for(("7D", "QD", "9C"), ("KS", "AS"), c, r, 2) == ("7D", "QD")
    assert legal.legal_for(("9C", "8H"), ("KS", "AS", "7D"), c, r, 3) == ("9C", "8H")
    assert legal.trick_winner(c, ((0, "KS"), (1, "AS"), (2, "7D"), (3, "9C"))) == 2


def test_13_9_misere_reverses_ranks() -> None:
    """king.md §13.9: in misère ♠7 is highest, so p2 wins ♠9 ♠7 ♠A ♠8."""
    c = contract("HV", misere=True)
    assert legal.trick_winner(c, ((0, "9S"), (1, "7S"), (2, "AS"), (3, "8S"))) == 1


def test_13_9_raspis_and_buyout_scores() -> None:
    """king.md §13.9: raspis +6 each; buy-outs for 2 (9 9 3 3) and for 4 (-3 15 6 6)."""
    assert pts("HV", raspis=True) == (6, 6, 6, 6)
    assert pts("HV", won=(1, 1, 5, 1), buyout=(2, 0, 2), declarer=2) == (9, 3, 9, 3)
    assert pts("HV", won=(1, 2, 3, 2), buyout=(2, 0, 4), declarer=2) == (15, 6, -3, 6)


def test_13_10_tr_six_per_trick() -> None:
    """king.md §13.10: TR tricks 3 2 2 1 give 18 12 12 6 = 48."""
    r = PRESETS["king-4p-trump"]
    assert pts("TR", won=(3, 2, 2, 1), r=r) == (18, 12, 12, 6)


def test_13_11_au_declarer_scores_above_his_bid() -> None:
    """king.md §13.11: p2 bids 3, takes 5: 12 and 6 each (30); takes 2: 0 and 36 in all."""
    r = PRESETS["king-4p-trading"]
    assert pts("AU", won=(1, 5, 1, 1), r=r, declarer=1, bid=3) == (6, 12, 6, 6)
    assert pts("AU", won=(2, 2, 2, 2), r=r, declarer=1, bid=3) == (12, 0, 12, 12)
    assert scoring.expected_sum(r, contract("AU", r, declarer=1, bid=3), (2, 2, 2, 2)) == 36


def test_13_12_three_player_forty_point_scale() -> None:
    """king.md §13.12: king-3p NT, NH and HV, and the match balance 480 = 6 x 80."""
    r = PRESETS["king-3p"]
    assert pts("NT", won=(5, 3, 2), taken=((), (), ()), r=r) == (-20, -12, -8)
    hearts = (("AH", "KH", "QH", "JH"), ("10H", "9H", "8H"), ("7H",))
    assert pts("NH", won=(0, 0, 0), taken=hearts, r=r) == (-20, -15, -5)
    assert pts("HV", won=(5, 3, 2), taken=((), (), ()), r=r) == (40, 24, 16)
    assert match_balance(r) == 0


def test_13_13_three_player_symmetric_values() -> None:
    """king.md §13.13: C's values, NH -8 -6 -2 and NB -10 -5 -5."""
    r = PRESETS["king-3p-symmetric"]
    hearts = (("AH", "KH", "QH", "JH"), ("10H", "9H", "8H"), ("7H",))
    assert pts("NH", won=(0, 0, 0), taken=hearts, r=r) == (-8, -6, -2)
    assert pts("NB", won=(0, 0, 0), taken=(("JC", "JD"), ("JH",), ("JS",)), r=r) == (-10, -5, -5)
    assert match_balance(r) == 0


def test_13_14_rozaliev_three_players_king_at_24() -> None:
    """king.md §13.14: NK -24, NE -120, the stages 240 / 240; at 3 per trick -60 (not zero-sum)."""
    r = PRESETS["king-3p-rozaliev"]
    assert pts("NK", won=(0, 0, 0), taken=((), ("KH",), ()), r=r) == (0, -24, 0)
    assert scoring.expected_sum(r, contract("NE", r)) == -120
    assert match_balance(r) == 0
    three = rules("king-3p-rozaliev", hv_trick=3)
    assert match_balance(three) == -60
    assert "not zero-sum" in (three.validate() or "")
    assert rules("king-3p-rozaliev", hv_trick=3, zero_sum=False).validate() is None


def test_13_15_atomic_talon_discard_and_balance() -> None:
    """king.md §13.15: p3 deals, p1 orders NH, takes ♦8 ♥10; DISCARD(♣A, ♠K) yes, (♥7, ♠K) no."""
    r = PRESETS["king-atomic"]
    hands = [
        ["AC", "KS", "7H", "7C", "8C", "9C", "10C", "JC", "QC", "KC"],
        ["8H", "9H", "JH", "QH", "KH", "AH", "7D", "9D", "10D", "JD"],
        ["QD", "KD", "AD", "7S", "8S", "9S", "10S", "JS", "QS", "AS"],
    ]
    s = scripted(r, [hands], first_dealer=2, talons=[["8D", "10H"]])
    assert s.to_act == 0 and s.phase == "ordering"
    s = act(s, "p1", ChooseContract(game="NH"))
    assert s.talon_shown and s.talon == ("8D", "10H") and len(s.hands[0]) == 12
    assert rejected(s, "p1", Discard(cards=("7H", "KS"))) == "scoring_discard"
    assert Discard(cards=("AC", "KS")) in legal_commands(s, "p1")
    s = act(s, "p1", Discard(cards=("AC", "KS")))
    assert s.phase == "playing" and s.to_act == 0 and len(s.hands[0]) == 10
    hearts = (("7H", "8H", "9H", "10H", "JH"), ("QH", "KH"), ("AH",))
    assert pts("NH", won=(0, 0, 0), taken=hearts, r=r) == (-10, -4, -2)
    assert match_balance(r) == 0


def test_13_16_whole_classic_match() -> None:
    """king.md §13.16: negative -30 -70 -52 -40, hvalenki 54 36 51 51, totals 24 -34 -1 11."""
    negative = (-30, -70, -52, -40)
    # over the 8 hvalenki (64 tricks), scoring is linear in the tricks won
    hv = scoring.points_for(rules(), contract("HV"), range(4), (18, 12, 17, 17), ((),) * 4, ())
    assert hv == (54, 36, 51, 51) and sum(negative) == -192 and sum(hv) == 192
    totals = tuple(a + b for a, b in zip(negative, hv, strict=True))
    assert totals == (24, -34, -1, 11)
    assert scoring.competition_ranks(totals) == (1, 4, 3, 2)
