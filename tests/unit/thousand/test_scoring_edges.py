"""End-of-deal scoring at its edges (§2.21.4, §2.10-§2.12, §2.15, T6-T9): a sitting-out barrel
player, a golden sit-out, a climb to exactly 880, two climbers at once, самосвал at -555 and the
automatic stick of a W3 write-off."""

from __future__ import annotations

import msgspec

from domain.games.thousand.scoring import score_deal
from tests.unit.thousand.support import CLASSIC, ONLINE, end_state, line, rules, scored, sitout_end

_r = msgspec.structs.replace


def test_a_sitting_out_barrel_player_scores_nothing_and_keeps_his_attempts_2_15() -> None:
    """§2.21.4 sit-out: 0 on the barrel, no bolt, no barrel attempt."""
    ev = score_deal(
        sitout_end(scores=(880, 0, 0, 0), barrel_on=(True, False, False, False), attempts=(1, 0, 0, 0))
    )
    p1 = line(ev, "p1")
    assert (p1.delta, p1.score, p1.barrel, p1.attempts) == (0, 880, True, 1)
    assert "barrel_attempt" not in p1.marks


def test_a_golden_sit_out_doubles_the_talon_2_13_2_15() -> None:
    ev = score_deal(sitout_end(golden=True, golden_left=3))
    assert line(ev, "p1").delta == 2 * 20 and line(ev, "p2").delta == 200


def test_a_climb_to_exactly_880_puts_the_player_on_the_barrel_2_10() -> None:
    ev = scored(end_state(CLASSIC, declarer=0, contract=120, raw=(120, 0, 0), scores=(760, 0, 0)))
    p1 = line(ev, "p1")
    assert (p1.score, p1.barrel, p1.attempts) == (880, True, 0) and "barrel_on" in p1.marks


def test_two_climbers_at_once_both_fall_2_10() -> None:
    """barrel_exclusive: two players reaching the barrel in one deal both pay and nobody sits."""
    assert CLASSIC.barrel_exclusive
    ev = scored(end_state(CLASSIC, declarer=0, contract=100, raw=(100, 25, 0), scores=(800, 860, 0)))
    for seat in ("p1", "p2"):
        x = line(ev, seat)
        assert x.score == 880 - CLASSIC.penalty(CLASSIC.simultaneous_climb_penalty)
        assert not x.barrel and x.falls == 1
        assert "simultaneous_climb" in x.marks and "fall" in x.marks


def test_samosval_resets_minus_555_too_2_12() -> None:
    ev = scored(end_state(CLASSIC, declarer=0, contract=120, raw=(60, 30, 30), scores=(-435, 0, 0)))
    p1 = line(ev, "p1")
    assert p1.score == 0 and "samosval" in p1.marks


def test_a_w3_write_off_is_a_stick_whatever_the_bolt_trigger_2_7() -> None:
    """W3: the declarer's bolt is automatic (§2.21.4 penalties), also under bolt_trigger zero_points
    when a third write-off's penalty leaves his deal score non-zero."""
    r = rules(ONLINE, writeoff_mode="W3", bolt_trigger="zero_points", writeoff_third_penalty=120)
    ev = scored(end_state(r, declarer=1, contract=115, raw=(0, 0, 0), written_off=True, writeoffs=(0, 2, 0)))
    p2 = line(ev, "p2")
    assert "third_write_off" in p2.marks and "bolt" in p2.marks and p2.bolts == 1
