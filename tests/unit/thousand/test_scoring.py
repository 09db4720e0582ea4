"""End-of-deal scoring (thousand-and-farkle-flip.md §2.21.4), the worked checks 1-5 and T6-T9, T12."""

from __future__ import annotations

from contracts.games.thousand import Bid, KeepHand, Pass, SetContract
from domain.games.thousand.legal import bid_problem, writeoff_problem
from domain.games.thousand.rules import half5, round5
from domain.games.thousand.scoring import score_deal
from tests.unit.thousand.support import CLASSIC, ONLINE, SIMPLE, end_state, line, rules, scored, sitout_end


def test_round5_and_half5_as_the_rules_define_them_2_9_and_2_21_4() -> None:
    assert [round5(x) for x in (31, 33, 37, 38, 23, 12, 0, 2, 3)] == [30, 35, 35, 40, 25, 10, 0, 0, 5]
    assert [half5(x) for x in (105, 110, 115, 120, 100)] == [55, 55, 60, 60, 50]


def test_worked_check_1_normal_deal_classic() -> None:
    """§2.21.4 worked check 1: B makes 115 with 185 raw; A 23 -> 25, C 12 -> 10; no bolts."""
    s = end_state(CLASSIC, declarer=1, contract=115, raw=(23, 185, 12))
    ev = scored(s)
    assert ev.result == "made"
    assert [x.delta for x in ev.seats] == [25, 115, 10]
    assert all("bolt" not in x.marks for x in ev.seats)


def test_worked_check_1_strict_bids_105_110_115() -> None:
    """Worked check 1's auction: strict +5 steps (CLASSIC bid_jumps false)."""
    from tests.unit.thousand.support import act, code, deal, keep_all

    s = keep_all(deal(CLASSIC, ("9S JS QS KS 10S AS 9C", "KH QH AH 10H KD QD AD", "9H JH 9D JD 10D JC QC")))
    assert s.phase == "auction" and s.seats[s.to_act] == "p3"  # p2 sits on the hundred
    assert code(s, "p3", Bid(amount=110)) == "bid_not_next_step"
    s = act(s, "p3", Bid(amount=105))
    s = act(s, "p1", Bid(amount=110))
    assert code(s, "p2", Bid(amount=120)) == "bid_not_next_step"
    s = act(s, "p2", Bid(amount=115))
    s = act(s, "p3", Pass())
    assert s.phase == "auction"
    s = act(s, "p1", Pass())
    assert s.seats[s.declarer] == "p2" and s.bid == 115 and s.voluntary


def test_worked_check_2_barrel_entry_attempts_and_exhaustion() -> None:
    """§2.21.4 worked check 2 (CLASSIC): climb capped at 880; attempts 1-3; -120 and off; B climbs."""
    # A at 860 makes 130 -> 990 -> capped to 880, sits with 0 attempts.
    ev = scored(end_state(CLASSIC, declarer=0, contract=130, raw=(140, 0, 0), scores=(860, 0, 0)))
    a = line(ev, "p1")
    assert (a.score, a.barrel, a.attempts) == (880, True, 0)
    on = dict(barrel_on=(True, False, False), scores=(880, 300, 750))
    # Sitting deal 1: A keeps 120, raw 110 -> fails at the required contract: 0, attempt 1.
    ev = scored(end_state(CLASSIC, declarer=0, contract=120, raw=(110, 5, 5), **on))
    a = line(ev, "p1")
    assert (a.delta, a.attempts, a.barrel) == (0, 1, True)
    assert [x.delta for x in ev.seats[1:]] == [5, 5]
    # Sitting deal 2: C declares; A frozen (0, no bolt), attempts 2.
    ev = scored(end_state(CLASSIC, declarer=2, contract=100, raw=(0, 10, 110), attempts=(1, 0, 0), **on))
    a = line(ev, "p1")
    assert (a.delta, a.attempts, a.bolts) == (0, 2, 0) and "bolt" not in a.marks
    # Sitting deal 3: B declares 150 from 750 and makes it -> 900; A frozen, attempts 3 -> -120 -> 760,
    # off, one fall; B climbs to 880 and sits.
    ev = scored(
        end_state(
            CLASSIC,
            declarer=1,
            contract=150,
            raw=(20, 160, 0),
            attempts=(2, 0, 0),
            barrel_on=(True, False, False),
            scores=(880, 750, 100),
        )
    )
    a, b = line(ev, "p1"), line(ev, "p2")
    assert (a.score, a.barrel, a.falls) == (760, False, 1)
    assert (b.score, b.barrel, b.attempts) == (880, True, 0)
    # Had A raised to 150 and failed: -150 -> 730, one fall, no extra -120.
    ev = scored(end_state(CLASSIC, declarer=0, contract=150, raw=(100, 10, 10), attempts=(1, 0, 0), **on))
    a = line(ev, "p1")
    assert (a.score, a.barrel, a.falls) == (730, False, 1)


def test_worked_check_2_sitter_may_jump_to_120_in_strict_bidding() -> None:
    """Worked check 2: "A bids straight to 120 (strict exception)" (§2.5 bid_jumps false)."""
    s = end_state(CLASSIC, declarer=-1, contract=0, raw=(0, 0, 0))
    s = s.__class__(
        **{
            **{f: getattr(s, f) for f in s.__struct_fields__},
            "phase": "auction",
            "high_bid": 100,
            "high_seat": 1,
            "barrel_on": (True, False, False),
            "passed": (False,) * 3,
            "barred": (False,) * 3,
            "hands": (("KH", "QH"), (), ()),
        }
    )
    assert bid_problem(s, 0, 120) is None
    assert bid_problem(s, 0, 105) == ("barrel_bid_too_low", "on the barrel a bid must be at least 120")
    assert bid_problem(s, 1, 120) is not None  # not on the barrel: +5 only


def test_worked_check_3_samosval_and_w1_w2() -> None:
    """§2.21.4 worked check 3: 675 - 120 = 555 -> 0; W1 -115 / +60 / +60; ONLINE W2 half5(115) = 60."""
    ev = scored(end_state(CLASSIC, declarer=0, contract=120, raw=(50, 40, 30), scores=(675, 0, 0)))
    a = line(ev, "p1")
    assert a.score == 0 and "samosval" in a.marks
    ev = scored(end_state(CLASSIC, declarer=1, contract=115, raw=(0, 0, 0), written_off=True))
    assert [x.delta for x in ev.seats] == [60, -115, 60]
    assert all("bolt" not in x.marks for x in ev.seats)
    ev = scored(end_state(ONLINE, declarer=1, contract=115, raw=(0, 0, 0), written_off=True))
    assert [x.delta for x in ev.seats] == [60, -115, 60]


def test_worked_check_4_online_barrel_121() -> None:
    """§2.21.4 worked check 4: automatic 121, kept; raw 115 -> 0, attempt, B and C frozen; raw 121 wins."""
    from tests.unit.thousand.support import act, deal

    s = deal(
        ONLINE,
        ("9S JS QS KS 10S AS 9C", "KH QH AH 10H KD QD AD", "9H JH 9D JD 10D JC QC"),
        scores=(300, 880, 200),
        barrel_on=(False, True, False),
    )
    assert s.phase == "auction" and s.high_bid == 121 and s.seats[s.high_seat] == "p2"
    assert s.bids[0] == (1, "barrel_auto:121")
    s = act(s, "p3", Pass())
    s = act(s, "p1", Pass())
    assert s.seats[s.declarer] == "p2" and s.bid == 121
    on = dict(barrel_on=(False, True, False), scores=(300, 880, 200))
    ev = scored(end_state(ONLINE, declarer=1, contract=121, raw=(0, 115, 5), **on))
    assert [x.delta for x in ev.seats] == [0, 0, 0]
    assert line(ev, "p2").attempts == 1
    assert all("bolt" not in line(ev, p).marks for p in ("p1", "p3"))  # frozen: no sticks
    ev = scored(end_state(ONLINE, declarer=1, contract=121, raw=(0, 121, 0), **on))
    assert ev.match_over and ev.winner == "p2" and line(ev, "p2").score == 1001


def test_worked_check_5_simple_barrel_at_forced_100() -> None:
    """§2.21.4 worked check 5: SIMPLE, A keeps 100 on the barrel, makes raw 130 -> +120 -> 1000, wins."""
    ev = scored(
        end_state(
            SIMPLE,
            declarer=0,
            contract=100,
            raw=(130, 0, 0),
            scores=(880, 0, 0),
            barrel_on=(True, False, False),
        )
    )
    a = line(ev, "p1")
    assert a.delta == 120 and a.score == 1000 and ev.winner == "p1"


def test_failed_contract_and_defender_rounding_2_9() -> None:
    ev = scored(end_state(CLASSIC, declarer=0, contract=120, raw=(119, 1, 0)))
    assert ev.result == "failed" and [x.delta for x in ev.seats][:2] == [-120, 0]


def test_declarer_round_before_compare_option_2_9() -> None:
    """`declarer_round_before_compare`: raw 118 rounds to 120 and makes 120."""
    s = end_state(CLASSIC, declarer=0, contract=120, raw=(118, 2, 0))
    assert scored(s).result == "failed"
    s = end_state(rules(declarer_round_before_compare=True), declarer=0, contract=120, raw=(118, 2, 0))
    assert scored(s).result == "made"


def test_bolts_consecutive_classic_t6() -> None:
    """CLASSIC bolts: a zero deal is a bolt, three in a row -120; a scoring deal resets (T6)."""
    s = end_state(CLASSIC, declarer=0, contract=120, raw=(120, 0, 0), bolts=(0, 2, 1))
    ev = scored(s)
    b, c = line(ev, "p2"), line(ev, "p3")
    assert "bolt_penalty" in b.marks and b.delta == -120 and b.bolts == 0
    assert c.bolts == 2
    ev = scored(end_state(CLASSIC, declarer=0, contract=100, raw=(100, 20, 0), bolts=(2, 2, 1)))
    assert [x.bolts for x in ev.seats] == [0, 0, 2]  # declarer and scorer reset (T6)


def test_bolts_online_no_tricks_cumulative_and_simple_immediate_2_11() -> None:
    s = end_state(ONLINE, declarer=0, contract=100, raw=(100, 20, 0), bolts=(0, 0, 1), tricks_count=(6, 2, 0))
    ev = scored(s)
    assert [x.bolts for x in ev.seats] == [0, 0, 2]  # cumulative: B keeps 0, no reset for C
    s = end_state(ONLINE, declarer=0, contract=100, raw=(100, 0, 20), bolts=(0, 2, 0), tricks_count=(6, 1, 1))
    ev = scored(s)
    assert line(ev, "p2").bolts == 2  # a trick with 0 points is no stick under no_tricks
    ev = scored(end_state(SIMPLE, declarer=0, contract=100, raw=(100, 0, 20)))
    assert line(ev, "p2").delta == -120 and "bolt_penalty" in line(ev, "p2").marks


def test_w3_write_off_gives_the_declarer_a_stick_2_7() -> None:
    r = rules(ONLINE, writeoff_mode="W3")
    ev = scored(end_state(r, declarer=1, contract=115, raw=(0, 0, 0), written_off=True, bolts=(0, 2, 0)))
    b = line(ev, "p2")
    assert [x.delta for x in ev.seats] == [60, -120, 60] and "bolt_penalty" in b.marks


def test_writeoff_third_penalty_and_limit_2_7() -> None:
    r = rules(writeoff_third_penalty=120, writeoff_limit=3)
    ev = scored(end_state(r, declarer=1, contract=100, raw=(0, 0, 0), written_off=True, writeoffs=(0, 2, 0)))
    assert line(ev, "p2").delta == -220 and line(ev, "p2").writeoffs == 3
    s = end_state(r, declarer=1, contract=100, raw=(0, 0, 0), phase="contract", writeoffs=(0, 3, 0))
    assert writeoff_problem(s, 1) is not None


def test_golden_doubles_but_not_the_barrel_result_t8() -> None:
    r = rules(golden_kon=True)
    ev = scored(end_state(r, declarer=0, contract=120, raw=(120, 0, 0), golden=True, golden_left=3))
    assert [x.delta for x in ev.seats] == [240, 0, 0]
    assert all(x.bolts == 1 for x in ev.seats[1:])
    ev = scored(
        end_state(
            r,
            declarer=0,
            contract=120,
            raw=(0, 60, 60),
            golden=True,
            golden_left=3,
            barrel_on=(True, False, False),
            scores=(880, 0, 0),
        )
    )
    assert line(ev, "p1").delta == 0  # the barrel result replaces the doubled delta (T8)


def test_blind_declarer_doubles_2_14() -> None:
    ev = scored(
        end_state(rules(blind_on=True), declarer=1, contract=120, raw=(0, 120, 0), blind_declarer=True)
    )
    assert line(ev, "p2").delta == 240 and ev.blind


def test_golden_restart_after_three_unmade_deals_2_13() -> None:
    r = rules(golden_kon=True)
    ev = scored(
        end_state(
            r,
            declarer=0,
            contract=120,
            raw=(50, 40, 30),
            golden=True,
            golden_left=1,
            scores=(200, 100, 50),
            deal_no=2,
        )
    )
    assert ev.golden_restart and [x.score for x in ev.seats] == [0, 0, 0]
    ev = scored(
        end_state(
            r,
            declarer=0,
            contract=120,
            raw=(50, 40, 30),
            golden=True,
            golden_left=1,
            golden_made=True,
            deal_no=2,
        )
    )
    assert not ev.golden_restart


def test_writeoff_on_barrel_allowed_uses_an_attempt_t9() -> None:
    r = rules(writeoff_on_barrel="allowed")
    ev = scored(
        end_state(
            r,
            declarer=0,
            contract=120,
            raw=(0, 0, 0),
            written_off=True,
            barrel_on=(True, False, False),
            scores=(880, 0, 0),
        )
    )
    a = line(ev, "p1")
    # T9 literally: scored normally and one attempt used, no fall (he stays on the barrel)
    assert a.delta == -120 and a.attempts == 1 and a.barrel is True and a.falls == 0


def test_knock_off_and_simultaneous_climb_2_10() -> None:
    on = dict(barrel_on=(True, False, False))
    ev = scored(end_state(CLASSIC, declarer=1, contract=150, raw=(0, 150, 0), scores=(880, 800, 0), **on))
    a, b = line(ev, "p1"), line(ev, "p2")
    assert (a.score, a.barrel, a.falls) == (880 - 120, False, 1) and "knocked_off" in a.marks
    assert (b.score, b.barrel) == (880, True)
    ev = scored(end_state(CLASSIC, declarer=1, contract=120, raw=(0, 120, 0), scores=(0, 800, 870)))
    assert line(ev, "p2").barrel  # one climber
    ev = scored(
        end_state(
            CLASSIC, declarer=1, contract=120, raw=(0, 110, 10), scores=(0, 800, 870), contract_override=None
        )
        if False
        else end_state(CLASSIC, declarer=1, contract=100, raw=(0, 100, 20), scores=(0, 800, 870))
    )
    b, c = line(ev, "p2"), line(ev, "p3")
    assert (b.score, c.score) == (760, 760) and not b.barrel and not c.barrel  # simultaneous
    ev = scored(end_state(SIMPLE, declarer=1, contract=100, raw=(0, 100, 20), scores=(0, 800, 870)))
    assert line(ev, "p2").barrel and line(ev, "p3").barrel  # SIMPLE: not exclusive


def test_three_falls_reset_the_score_2_10() -> None:
    ev = scored(
        end_state(
            CLASSIC,
            declarer=0,
            contract=150,
            raw=(100, 10, 10),
            barrel_on=(True, False, False),
            scores=(880, 0, 0),
            falls=(2, 0, 0),
        )
    )
    a = line(ev, "p1")
    assert a.score == 0 and a.falls == 0 and "falls_reset" in a.marks
    r = rules(barrel_falls_result="five", barrel_disabled_after_falls=True)
    ev = scored(
        end_state(
            r,
            declarer=0,
            contract=150,
            raw=(100, 10, 10),
            barrel_on=(True, False, False),
            scores=(880, 0, 0),
            falls=(2, 0, 0),
        )
    )
    a = line(ev, "p1")
    assert a.score == 5 and a.disabled


def test_disabled_player_wins_by_reaching_the_target_2_16() -> None:
    r = rules(barrel_disabled_after_falls=True)
    ev = scored(
        end_state(
            r, declarer=0, contract=150, raw=(150, 0, 0), scores=(900, 0, 0), disabled=(True, False, False)
        )
    )
    assert ev.winner == "p1" and line(ev, "p1").score == 1050


def test_barrel_jump_simple_wins_outright_c21() -> None:
    ev = scored(end_state(SIMPLE, declarer=0, contract=150, raw=(150, 0, 0), scores=(860, 0, 0)))
    assert ev.winner == "p1" and line(ev, "p1").score == 1010
    ev = scored(end_state(CLASSIC, declarer=0, contract=150, raw=(150, 0, 0), scores=(860, 0, 0)))
    assert ev.winner is None and line(ev, "p1").score == 880


def test_ranks_winner_first_equal_scores_share_t12() -> None:
    ev = scored(
        end_state(
            CLASSIC,
            declarer=0,
            contract=120,
            raw=(120, 0, 0),
            scores=(880, 400, 400),
            barrel_on=(True, False, False),
        )
    )
    assert ev.ranks == (1, 2, 2)


def test_no_barrel_at_all_when_barrel_off_2_10() -> None:
    r = rules(barrel_on=False)
    ev = scored(end_state(r, declarer=0, contract=150, raw=(150, 0, 0), scores=(900, 0, 0)))
    assert line(ev, "p1").score == 1050 and ev.winner == "p1"


def test_sitout_scores_the_talon_2_15() -> None:
    s = sitout_end(bolts=(2, 0, 0, 0))
    ev = score_deal(s)
    assert line(ev, "p1").delta == 20 and line(ev, "p1").bolts == 2 and line(ev, "p1").role == "sitout"


def test_freeze_opponents_only_online_c25() -> None:
    on = dict(barrel_on=(True, False, False), scores=(880, 0, 0))
    ev = scored(end_state(CLASSIC, declarer=0, contract=120, raw=(100, 10, 10), **on))
    assert [x.delta for x in ev.seats][1:] == [10, 10]
    ev = scored(
        end_state(rules(barrel_freeze_opponents=True), declarer=0, contract=120, raw=(100, 10, 10), **on)
    )
    assert [x.delta for x in ev.seats][1:] == [0, 0]


def test_penalty_unit_moves_every_penalty_and_target_moves_required_t13() -> None:
    r = rules(penalty_unit=100)
    ev = scored(end_state(r, declarer=0, contract=120, raw=(120, 0, 0), bolts=(0, 2, 2)))
    assert line(ev, "p2").delta == -100
    assert rules(target=1001).required() == 121 and rules(target=1001, barrel_required=130).required() == 130


def test_last_trick_bonus_goes_to_the_winner_of_trick_8_2_9() -> None:
    r = rules(last_trick_bonus=10)
    ev = scored(end_state(r, declarer=0, contract=120, raw=(112, 8, 0), last_winner=0))
    assert ev.result == "made" and line(ev, "p1").raw == 122


def test_keep_hand_helper_is_answered_by_every_seat_t1() -> None:
    from tests.unit.thousand.support import act, deal

    s = deal(CLASSIC, ("9S JS QS KS 10S AS 9C", "KH QH AH 10H KD QD AD", "9H JH 9D JD 10D JC QC"))
    assert s.phase == "redeal_window" and sorted(s.window) == [0, 1, 2]
    s = act(s, "p3", KeepHand())
    s = act(s, "p1", KeepHand())
    assert s.phase == "redeal_window"
    s = act(s, "p2", KeepHand())
    assert s.phase == "auction"
    s = act(s, "p3", Pass())
    s = act(s, "p1", Pass())
    # p2 took the talon at the plain forced 100: the talon-low window is his (T1)
    assert s.phase == "talon_window" and s.window == (1,)
    s = act(s, "p2", KeepHand())
    assert s.phase == "passing" and s.seats[s.declarer] == "p2" and len(s.hands[1]) == 10
    assert SetContract  # imported for the reader: the contract follows the passing
