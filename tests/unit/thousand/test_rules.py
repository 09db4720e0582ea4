"""1000 rule by rule (thousand-and-farkle-flip.md §2.4-§2.8, §2.13-§2.15, §2.21.2-§2.21.5, T1-T5,
T10, T11, T15), each preset parameter by what it changes in play."""

from __future__ import annotations

import re
from pathlib import Path

import msgspec
import pytest

from contracts.games.thousand import (
    THOUSAND_REJECTION_CODES,
    Bid,
    ClaimRedeal,
    DealDealt,
    DeclareBlind,
    DeclineBlind,
    GiveCards,
    HandShown,
    KeepHand,
    Pass,
    Play,
    RedealClaimed,
    SetContract,
    WriteOff,
)
from domain.games.thousand import GAME
from domain.games.thousand.legal import announce_ok, cap, cs_hand, legal_bids, next_step, playable
from domain.games.thousand.state import initial_state
from domain.games.thousand.timeout import lowest_legal
from domain.games.thousand.view import redact, view
from tests.unit.thousand.support import (
    CLASSIC,
    HANDS,
    NO_WINDOWS,
    ONLINE,
    SIMPLE,
    act,
    code,
    deal,
    events_of,
    keep_all,
    rules,
)

_r = msgspec.structs.replace


def r0(base=CLASSIC, **kw):  # type: ignore[no-untyped-def]
    return rules(base, **{**NO_WINDOWS, **kw})


def to_play(r, hands=HANDS, declarer_bids=True, gifts=None, contract=None):  # type: ignore[no-untyped-def]
    """Auction won by p2 at 100 (both pass), cards given, contract kept: the first lead."""
    s = keep_all(deal(r, hands))
    s = act(s, "p3", Pass())
    s = act(s, "p1", Pass())
    s = keep_all(s)
    hand = s.hands[1]
    if gifts is None:
        rest = [c for c in hand if c not in ("KH", "QH", "KD", "QD", "AH", "AD", "10H")]
        gifts = {"p3": rest[0], "p1": rest[1]}
    s = act(s, "p2", GiveCards(gifts=gifts))
    s = keep_all(s)
    return act(s, "p2", SetContract(amount=contract or s.bid))


# ---------------------------------------------------------------- rejection codes
def test_every_code_decide_can_answer_is_declared() -> None:
    src = "".join(p.read_text() for p in Path("domain/games/thousand").glob("*.py"))
    used = set(re.findall(r'_reject\(\s*"([a-z_]+)"', src)) | set(re.findall(r'return \("([a-z_]+)",', src))
    used |= set(re.findall(r'code = "([a-z_]+)" if', src)) | set(re.findall(r'else "(must_[a-z_]+)"', src))
    assert len(used) >= 25
    assert used <= set(THOUSAND_REJECTION_CODES), sorted(used - set(THOUSAND_REJECTION_CODES))


# ---------------------------------------------------------------- auction §2.5
def test_forced_bid_left_of_dealer_and_first_speaker_c6_c7() -> None:
    s = deal(r0(), HANDS)
    assert s.phase == "auction" and s.high_bid == 100 and s.seats[s.high_seat] == "p2"
    assert s.seats[s.to_act] == "p3"
    assert code(s, "p3", Bid(amount=100)) == "bid_too_low"


def test_simple_dealer_holds_the_hundred_c6() -> None:
    s = deal(r0(SIMPLE), HANDS)
    assert s.seats[s.high_seat] == "p1" and s.seats[s.to_act] == "p2"


def test_strict_steps_and_jumps_c8() -> None:
    s = deal(r0(), HANDS)
    assert code(s, "p3", Bid(amount=110)) == "bid_not_next_step"
    s = deal(r0(bid_jumps=True), HANDS)
    assert legal_bids(s, 2) == [105, 110, 115, 120]
    assert code(s, "p3", Bid(amount=103)) == "bid_not_multiple"


def test_bid_step_parameter_c8() -> None:
    s = deal(r0(bid_step=10, bid_jumps=True), HANDS)
    assert legal_bids(s, 2) == [110, 120]


def test_cap_120_plus_held_marriages_c9() -> None:
    s = deal(r0(bid_jumps=True), HANDS)
    assert cap(s.rules, s.hands[1]) == 120 + 100 + 80
    assert cap(s.rules, s.hands[0]) == 160
    assert code(s, "p3", Bid(amount=125)) == "bid_above_cap"  # p3 holds no marriage


def test_any_marriage_uncapped_c9() -> None:
    r = r0(SIMPLE)
    assert cap(r, cs_hand("9S JS QS KS 10S AS 9C")) > 300
    assert cap(r, cs_hand("9H JH 9D JD 10D JC QC")) == 120


def test_ace_marriage_counts_in_the_cap_2_2() -> None:
    hand = cs_hand("AS AC AD AH 9S 9C 9D")
    assert cap(CLASSIC, hand) == 320
    assert cap(rules(ace_marriage=False), hand) == 120


def test_max_contract_300_online_c10() -> None:
    hand = cs_hand("KH QH KD QD KC QC AS")
    assert cap(ONLINE, hand) == 300
    assert cap(CLASSIC, hand) == 360


def test_minus_bidding_threshold_only_pass_2_5() -> None:
    s = deal(r0(bid_jumps=True, minus_bidding_threshold=-100), HANDS, scores=(0, 0, -150))
    assert code(s, "p3", Bid(amount=105)) == "must_pass"
    assert GAME.legal_commands(s, "p3") == (Pass(),)
    s = deal(r0(bid_jumps=True, minus_bidding_threshold=-100), HANDS, scores=(0, 0, -100))
    assert Bid(amount=105) in GAME.legal_commands(s, "p3")


def test_t15_121_is_not_biddable_with_normal_bidding() -> None:
    r = r0(ONLINE, barrel_bidding="normal", bid_jumps=False)
    s = deal(r, HANDS, scores=(0, 880, 0), barrel_on=(False, True, False))
    # p2 is forced and on the barrel: his standing bid becomes barrel_required (121)
    assert s.high_bid == 121
    s = act(s, "p3", Pass())
    assert code(s, "p1", Bid(amount=121)) == "bid_not_multiple"
    assert next_step(r, 121) == 125


def test_t5_first_sitter_clockwise_from_the_forced_seat_holds_the_auto_bid() -> None:
    r = r0(ONLINE, barrel_exclusive=False)
    s = deal(r, HANDS, scores=(880, 0, 880), barrel_on=(True, False, True))
    assert s.seats[s.high_seat] == "p3" and s.high_bid == 121  # p2 forced, then p3


def test_no_auction_barrel_online_variant_2_10() -> None:
    r = r0(ONLINE, barrel_bidding="no_auction")
    s = deal(r, HANDS, scores=(880, 0, 0), barrel_on=(True, False, False))
    assert s.seats[s.declarer] == "p1" and s.bid == 121 and s.how == "barrel_no_auction"


def test_auction_ends_when_two_have_passed_2_5() -> None:
    s = deal(r0(), HANDS)
    s = act(s, "p3", Bid(amount=105))
    s = act(s, "p1", Pass())
    assert s.seats[s.to_act] == "p2"
    s = act(s, "p2", Pass())
    assert s.seats[s.declarer] == "p3" and s.bid == 105


# ---------------------------------------------------------------- redeals §2.4, T1, T2
def test_before_bid_window_weak_hand_claim_t1() -> None:
    weak = ("9S 9C 9D JS JC QS JH", "KH QH AH 10H KD QD AD", "9H JD 10D 10S AS KS QC")
    s = deal(CLASSIC, weak)
    assert s.phase == "redeal_window"
    assert ClaimRedeal(reason="weak") in GAME.legal_commands(s, "p1")
    assert code(s, "p2", ClaimRedeal(reason="weak")) == "redeal_not_allowed"
    ev = events_of(s, "p1", ClaimRedeal(reason="weak"))
    assert isinstance(ev[0], RedealClaimed) and isinstance(ev[1], DealDealt)
    assert ev[1].dealer == "p1" and ev[1].deal_no == 0 and ev[1].shuffle == s.shuffle + 1
    assert GAME.legal_commands(deal(rules(redeal_weak_before_bid=None), weak), "p1") == (KeepHand(),)


def test_four_nines_before_bid_t1() -> None:
    nines = ("9S 9C 9D 9H JC QS AS", "KH QH AH 10H KD QD AD", "JH JD 10D 10S JS KS QC")
    s = deal(CLASSIC, nines)
    assert ClaimRedeal(reason="four_nines") in GAME.legal_commands(s, "p1")
    s = deal(rules(redeal_four_nines_before_bid=False, redeal_weak_before_bid=None), nines)
    assert s.phase == "auction"  # no trigger enabled: no window at all


def test_talon_low_window_only_at_the_plain_forced_bid_t1() -> None:
    r = rules(redeal_weak_before_bid=None, redeal_four_nines_before_bid=False)
    hands = ("9S QS KS 10S AS 10C AC", "KH QH AH 10H KD QD AD", "JH 9D JD 10D JC QC KC")
    s = deal(r, hands, talon="9H 9C JS")
    s = act(s, "p3", Pass())
    s = act(s, "p1", Pass())
    assert s.phase == "talon_window" and ClaimRedeal(reason="talon_low") in GAME.legal_commands(s, "p2")
    ev = events_of(s, "p2", ClaimRedeal(reason="talon_low"))
    assert isinstance(ev[0], RedealClaimed) and ev[0].reason == "talon_low"
    s = deal(r, hands, talon="9H 9C JS")
    s = act(s, "p3", Bid(amount=105))
    s = act(s, "p1", Pass())
    s = act(s, "p2", Pass())
    assert s.phase == "passing"  # a voluntary bid: no window


def test_after_passing_window_defenders_only_t1() -> None:
    r = rules(ONLINE, redeal_weak_after_passing=14)
    s = deal(r, HANDS)
    s = act(s, "p3", Pass())
    s = act(s, "p1", Pass())
    s = act(s, "p2", GiveCards(gifts={"p3": "KH", "p1": "AD"}))
    assert s.phase == "after_pass_window" and sorted(s.window) == [0, 2]
    assert code(s, "p2", KeepHand()) == "not_your_turn"


def test_talon_nines_mandatory_redeal_t2() -> None:
    r = rules(redeal_talon_nines=True, **NO_WINDOWS)
    hands = ("10S QS KS JS AS 10C AC", "KH QH AH 10H KD QD AD", "JH JD 10D 9H JC QC KC")
    s = deal(r, hands, talon="9S 9C 9D")
    s = act(s, "p3", Pass())
    ev = events_of(s, "p1", Pass())
    kinds = [type(e).__name__ for e in ev]
    assert "RedealClaimed" in kinds and kinds[-1] != "TalonRevealed"
    red = next(e for e in ev if isinstance(e, RedealClaimed))
    assert red.seat is None and red.reason == "talon_nines"


# ---------------------------------------------------------------- talon and passing §2.6
def test_talon_shown_to_all_or_hidden_at_forced_100_c11() -> None:
    s = to_play(r0())
    assert s.talon_public
    r = r0(talon_hidden_at_forced_100=True)
    s = keep_all(deal(r, HANDS))
    s = act(s, "p3", Pass())
    ev = events_of(s, "p1", Pass())
    shown = next(e for e in ev if type(e).__name__ == "TalonRevealed")
    assert not shown.public
    assert redact(shown, "p1").cards == ("??", "??", "??") and redact(shown, "p2").cards == shown.cards


def test_passed_cards_seen_by_the_recipient_unless_face_up_c12() -> None:
    s = keep_all(deal(r0(), HANDS))
    s = act(s, "p3", Pass())
    s = act(s, "p1", Pass())
    ev = events_of(s, "p2", GiveCards(gifts={"p3": "KD", "p1": "AD"}))
    given = ev[0]
    assert redact(given, "p1").cards == ("AD", "??")
    assert redact(given, "p3").cards == ("??", "KD")
    assert redact(given, "p2").cards == ("AD", "KD")
    assert redact(given, None).cards == ("??", "??")
    up = events_of(s, "p2", GiveCards(gifts={"p3": "KD", "p1": "AD"}, face_up=True))[0]
    assert redact(up, None).cards == ("AD", "KD")


def test_face_up_not_in_simple_nor_for_a_blind_declarer_2_14() -> None:
    s = keep_all(deal(r0(SIMPLE), HANDS))
    s = act(s, "p2", Pass())
    s = act(s, "p3", Pass())
    assert code(s, "p1", GiveCards(gifts={"p2": "9S", "p3": "JS"}, face_up=True)) == "face_up_not_allowed"


def test_gifts_must_go_one_to_each_defender_2_6() -> None:
    s = keep_all(deal(r0(), HANDS))
    s = act(s, "p3", Pass())
    s = act(s, "p1", Pass())
    assert code(s, "p2", GiveCards(gifts={"p3": "KD"})) == "bad_gifts"
    assert code(s, "p2", GiveCards(gifts={"p3": "9S", "p1": "KD"})) == "card_not_in_hand"
    assert code(s, "p2", GiveCards(gifts={"p3": "KD", "p1": "KD"})) == "bad_gifts"


def test_contract_raise_rules_t10() -> None:
    s = keep_all(deal(r0(), HANDS))
    s = act(s, "p3", Pass())
    s = act(s, "p1", Pass())
    s = act(s, "p2", GiveCards(gifts={"p3": "10C", "p1": "AC"}))
    assert code(s, "p2", SetContract(amount=95)) == "contract_too_low"
    assert code(s, "p2", SetContract(amount=103)) == "contract_not_multiple"
    assert code(s, "p2", SetContract(amount=305)) == "contract_above_cap"
    assert SetContract(amount=300) in GAME.legal_commands(s, "p2")
    s2 = keep_all(deal(r0(raise_after_talon=False), HANDS))
    s2 = act(act(s2, "p3", Pass()), "p1", Pass())
    s2 = act(s2, "p2", GiveCards(gifts={"p3": "10C", "p1": "AC"}))
    assert code(s2, "p2", SetContract(amount=120)) == "raise_not_allowed"


def test_write_off_rules_2_7() -> None:
    s = keep_all(deal(r0(), HANDS))
    s = act(act(s, "p3", Pass()), "p1", Pass())
    assert WriteOff() in GAME.legal_commands(s, "p2")
    ev = events_of(s, "p2", WriteOff())
    scored = next(e for e in ev if type(e).__name__ == "DealScored")
    assert scored.result == "written_off" and [x.delta for x in scored.seats] == [60, -100, 60]
    s = keep_all(deal(r0(SIMPLE), HANDS))
    s = act(act(s, "p2", Pass()), "p3", Pass())
    assert code(s, "p1", WriteOff()) == "writeoff_not_allowed"


def test_no_write_off_on_the_barrel_2_7() -> None:
    s = deal(r0(), HANDS, scores=(0, 880, 0), barrel_on=(False, True, False))
    s = act(act(s, "p3", Pass()), "p1", Pass())
    assert code(s, "p2", WriteOff()) == "writeoff_not_allowed"
    s = deal(r0(writeoff_on_barrel="allowed"), HANDS, scores=(0, 880, 0), barrel_on=(False, True, False))
    s = act(act(s, "p3", Pass()), "p1", Pass())
    assert WriteOff() in GAME.legal_commands(s, "p2")


# ---------------------------------------------------------------- play §2.8, T11
def test_marriage_not_on_the_first_lead_q5() -> None:
    s = to_play(r0())
    assert code(s, "p2", Play(card="QH", announce="marriage")) == "bad_announcement"
    s = to_play(r0(marriage_on_first_lead=True))
    s = act(s, "p2", Play(card="QH", announce="marriage"))
    assert s.trump == "H" and s.marriage_pts[1] == 100 and s.announced == ((1, "H", 100),)


def _lead_again(s):  # type: ignore[no-untyped-def]
    """Let p2 win trick 1 with AH (p1 and p3 follow or not) so it leads again."""
    s = act(s, "p2", Play(card="AH"))
    for seat in ("p3", "p1"):
        s = act(s, seat, GAME.legal_commands(s, seat)[0])
    assert s.seats[s.leader] == "p2" and s.trick_no == 1
    return s


def test_marriage_sets_trump_and_scores_the_announcer_2_8() -> None:
    s = _lead_again(to_play(r0()))
    s = act(s, "p2", Play(card="KD", announce="marriage"))
    assert s.trump == "D" and s.marriage_pts[1] == 80
    assert code(s, "p3", Play(card="JH")) == "must_follow_suit"


def test_marriage_points_to_declarer_only_2_8() -> None:
    """`marriage_points_to = declarer`: a defender's marriage changes the trump and scores nobody."""
    r = r0(marriage_points_to="declarer", marriage_on_first_lead=True)
    base = initial_state(r, ("p1", "p2", "p3"), None)
    s = _r(
        base,
        phase="play",
        hands=(("KS", "QS", "9S"), ("AH",), ("9H",)),
        trick=(),
        leader=0,
        trick_no=1,
        sitout=-1,
        declarer=1,
        marriage_pts=(0, 0, 0),
        played=(),
    )
    ev = events_of(s, "p1", Play(card="KS", announce="marriage"))
    assert ev[0].value == 0 and ev[0].trump == "S"
    s2 = _r(s, rules=r0(marriage_on_first_lead=True))
    assert events_of(s2, "p1", Play(card="KS", announce="marriage"))[0].value == 40


def test_must_trump_when_void_c13() -> None:
    s = _lead_again(to_play(r0()))
    s = act(s, "p2", Play(card="KD", announce="marriage"))  # trump diamonds, diamonds led
    s = act(s, "p3", GAME.legal_commands(s, "p3")[0])
    # p1 holds no diamonds (9S JS QS KS 10S AS 9C + 10C/AC given): any card
    legal = {c.card for c in GAME.legal_commands(s, "p1") if isinstance(c, Play)}
    assert legal == {c for c in s.hands[0]}


def test_must_trump_vs_simple_any_card_c13() -> None:
    r = r0(marriage_on_first_lead=True)
    hands = ("9S JS QS KS 10S AS 9H", "KH QH AH 10H KD QD AD", "JH 9D JD 10D 9C JC QC")
    s = keep_all(deal(r, hands))
    s = act(act(s, "p3", Pass()), "p1", Pass())
    s = act(s, "p2", GiveCards(gifts={"p3": "10C", "p1": "AC"}))
    s = act(s, "p2", SetContract(amount=100))
    s = act(s, "p2", Play(card="QD", announce="marriage"))  # trump D; p3 must follow D
    s = act(s, "p3", Play(card="9D"))
    s = act(s, "p1", Play(card="9S"))  # p1 void in D, no trump: any card
    s = act(s, "p2", Play(card="AH"))  # AH led, p3 holds JH
    s = act(s, "p3", Play(card="JH"))
    s = act(s, "p1", Play(card="9H"))
    s = act(s, "p2", Play(card="AD"))
    s = act(s, "p3", Play(card="10D"))
    s = act(s, "p1", Play(card="JS"))
    s = act(s, "p2", Play(card="10H"))  # hearts led: p3 void in hearts, holds JD (trump) -> must trump
    assert code(s, "p3", Play(card="9C")) == "must_trump"
    rs = r0(SIMPLE, marriage_on_first_lead=True)
    t = keep_all(deal(rs, hands))
    assert t.rules.must_trump_when_void is False


def test_t11_overtake_and_overtrump() -> None:
    base = initial_state(r0(must_overtake=True), ("p1", "p2", "p3"), None)
    s = _r(
        base,
        phase="play",
        hands=(("9H", "AH", "9S"), (), ()),
        trick=((1, "KH"),),
        leader=1,
        sitout=-1,
        declarer=1,
        seen=(True,) * 3,
    )
    basic, narrowed = playable(s, 0)
    assert set(basic) == {"9H", "AH"} and narrowed == ("AH",)
    assert code(_r(s, trick=((1, "KH"), (2, "9D")), leader=1), "p1", Play(card="9H")) == "must_overtake"
    s2 = _r(
        s,
        rules=r0(must_overtrump=True),
        trump="S",
        hands=(("9S", "AS", "JC"), (), ()),
        trick=((1, "KH"), (2, "KS")),
    )
    basic, narrowed = playable(s2, 0)
    assert set(basic) == {"9S", "AS"} and narrowed == ("AS",)


def test_must_follow_suit_off_any_card_t11() -> None:
    base = initial_state(
        r0(must_follow_suit=False, must_trump_when_void=False), ("p1", "p2", "p3"), None
    )
    s = _r(base, phase="play", hands=(("9H", "AH", "9S"), (), ()), trick=((1, "KD"),), leader=1, sitout=-1)
    assert set(playable(s, 0)[1]) == {"9H", "AH", "9S"}


def test_ace_marriage_once_no_trump_change_unless_the_option_2_8() -> None:
    base = initial_state(r0(), ("p1", "p2", "p3"), None)
    s = _r(
        base,
        phase="play",
        hands=(("AS", "AC", "AD", "AH"), (), ()),
        trick=(),
        leader=0,
        trick_no=1,
        sitout=-1,
        declarer=0,
    )
    assert announce_ok(s, 0, "AS", "aces")
    assert not announce_ok(_r(s, aces_announced=True), 0, "AS", "aces")
    assert not announce_ok(_r(s, rules=r0(SIMPLE)), 0, "AS", "aces")
    assert not announce_ok(_r(s, hands=(("AS", "AC", "AD"), (), ())), 0, "AS", "aces")


def test_trick_winner_highest_trump_else_led_suit_2_8() -> None:
    from domain.core.cardgame import tricks
    from domain.games.thousand.rules import STRENGTH

    assert tricks.trick_winner(("KH", "10H", "AS"), None, STRENGTH) == 1  # ten beats king
    assert tricks.trick_winner(("KH", "10H", "9S"), "S", STRENGTH) == 2


def test_eight_tricks_then_scoring_and_the_next_dealer_2_21_3() -> None:
    import random

    s = to_play(r0())
    rnd = random.Random(1)
    while s.phase == "play":
        seat = sorted(GAME.to_move(s))[0]
        s = act(s, seat, rnd.choice(GAME.legal_commands(s, seat)))
    assert s.phase == "next_deal" and s.seats[s.dealer] == "p2" and s.deal_no == 1
    assert sum(s.scores) != 0 and GAME.to_move(s) == frozenset({"p2"})


# ---------------------------------------------------------------- blind §2.14, T3, T4
def test_blind_offer_before_the_hand_is_seen_t3() -> None:
    r = r0(blind_on=True)
    s = deal(r, HANDS)
    assert s.phase == "blind_offer" and GAME.to_move(s) == frozenset({"p2"})
    assert view(s, "p2").hand == ()
    dealt = DealDealt(
        deal_no=0,
        shuffle=1,
        dealer="p1",
        seats=s.seats,
        sitout=None,
        order=(),
        hands=tuple(tuple(h) for h in s.hands),
        talon=s.talon,
        forced_seat="p2",
        golden=False,
        blind_seat="p2",
    )
    assert redact(dealt, "p2").hands[1] == ("??",) * 7
    declined = act(s, "p2", DeclineBlind())
    assert view(declined, "p2").hand != () and declined.phase == "auction"
    s = act(s, "p2", DeclareBlind())
    assert s.high_bid == 120 and s.blind and s.phase == "auction"
    s = act(s, "p3", Pass())
    evs = events_of(s, "p1", Bid(amount=125))  # outbid: the blind seat now sees his hand
    assert any(isinstance(e, HandShown) and e.seat == "p2" for e in evs)
    assert not act(s, "p1", Bid(amount=125)).blind


def test_blind_declarer_result_doubled_and_face_down_2_14() -> None:
    r = r0(blind_on=True)
    s = act(deal(r, HANDS), "p2", DeclareBlind())
    s = act(act(s, "p3", Pass()), "p1", Pass())
    assert s.blind_declarer and s.seen[1]
    assert code(s, "p2", GiveCards(gifts={"p3": "10C", "p1": "AC"}, face_up=True)) == "face_up_not_allowed"


def test_blind_min_score_and_t4_barrel_exclusions() -> None:
    assert deal(r0(blind_on=True, blind_min_score=100), HANDS).phase == "auction"
    assert deal(r0(blind_on=True, blind_min_score=100), HANDS, scores=(0, 100, 0)).phase == "blind_offer"
    on = dict(scores=(880, 0, 0), barrel_on=(True, False, False))
    assert deal(r0(ONLINE, blind_on=True), HANDS, **on).phase == "auction"  # auto_bid sitter: no blind
    assert deal(r0(blind_on=True), HANDS, **on).phase == "blind_offer"  # CLASSIC normal bidding


# ---------------------------------------------------------------- golden kon §2.13, sit-out §2.15
def test_golden_kon_forced_120_left_of_dealer_raise_allowed_2_13() -> None:
    r = r0(golden_kon=True, blind_on=True)
    s = deal(r, HANDS, golden_left=3)
    assert s.golden and s.phase == "passing" and s.seats[s.declarer] == "p2" and s.bid == 120
    s = act(s, "p2", GiveCards(gifts={"p3": "10C", "p1": "AC"}))
    assert SetContract(amount=125) in GAME.legal_commands(s, "p2")


def test_sitout_4p_dealer_sits_out_2_15() -> None:
    r = r0(sitout_4p=True)
    hands = ("", "9S JS QS KS 10S AS 9C", "KH QH AH 10H KD QD AD", "9H JH 9D JD 10D JC QC")
    s = deal(r, hands)
    assert s.sitout == 0 and s.seats[s.high_seat] == "p2" and s.seats[s.to_act] == "p3"
    assert "p1" not in GAME.to_move(s)
    assert GAME.validate(r, 4) is None and GAME.validate(r, 3) is not None
    assert GAME.validate(CLASSIC, 4) is not None


# ---------------------------------------------------------------- timeouts §2.21.2
def test_timeouts_pick_the_mildest_action_2_21_2() -> None:
    s = keep_all(deal(r0(), HANDS))
    assert lowest_legal(s, "p3") == Pass()
    s = act(act(s, "p3", Pass()), "p1", Pass())
    # p2's ten cards: KH QH AH 10H KD QD AD + talon 10C KC AC; the two lowest are QD < QH (Q, by suit)
    assert lowest_legal(s, "p2") == GiveCards(gifts={"p3": "QD", "p1": "QH"})
    s = act(s, "p2", GiveCards(gifts={"p3": "QD", "p1": "QH"}))
    assert lowest_legal(s, "p2") == SetContract(amount=100)
    s = act(s, "p2", SetContract(amount=100))
    assert lowest_legal(s, "p2") == Play(card="KC")  # the kings are lowest; clubs before D, H


# ---------------------------------------------------------------- ruleset validation §2.20
@pytest.mark.parametrize(
    ("override", "needle"),
    [
        ({"bed_marriage": True}, "reserved"),
        ({"bottom_card_ritual": True}, "not supported"),
        ({"bid_step": 0}, "bid_step"),
        ({"max_contract": 90}, "max_contract"),
        ({"sitout_4p": True, "forced_bidder": "dealer"}, "sitout_4p"),
        ({"barrel_required": 50}, "barrel_at + barrel_required"),
        ({"bolt_mode": "immediate"}, "bolt_limit 1"),
        ({"must_follow_suit": False}, "T11"),
        ({"penalty_unit": 7}, "penalty_unit"),
    ],
)
def test_invalid_rulesets_are_refused_with_a_reason(override: dict, needle: str) -> None:  # type: ignore[type-arg]
    problem = _r(CLASSIC, **override).validate()
    assert problem is not None and needle in problem
