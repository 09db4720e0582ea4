"""1000: who wins when several seats qualify in one deal (§2.16, T12) and what a golden-kon restart
starts again (§2.13, §2.21.1, §2.21.3 step 10, T14)."""

from __future__ import annotations

from domain.games.thousand.evolve import evolve
from tests.unit.thousand.support import end_state, rules, scored

# The barrel off: every seat at the target is a candidate (§2.16).
NO_BARREL = rules(barrel_on=False, bolt_mode="off")


def test_of_two_seats_past_the_target_the_higher_score_wins_2_16() -> None:
    """§2.16: "if several players qualify in one deal ... the highest score wins"."""
    # p1 declares 100 and makes it (900 -> 1000); p2 takes 20 (985 -> 1005).
    ev = scored(end_state(NO_BARREL, declarer=0, contract=100, raw=(100, 20, 0), scores=(900, 985, 0)))
    assert ev.match_over and ev.winner == "p2" and ev.reason == "target"
    assert ev.ranks == (2, 1, 3)


def test_on_equal_scores_the_declarer_wins_2_16() -> None:
    """§2.16: "on equality the declarer wins" (before the seat nearest the dealer's left); T12:
    the others are ranked by score."""
    # p1 (the dealer) declares 100 and makes it (900 -> 1000); p2, left of the dealer, takes 20.
    ev = scored(end_state(NO_BARREL, declarer=0, contract=100, raw=(100, 20, 0), scores=(900, 980, 0)))
    assert ev.winner == "p1"
    assert ev.ranks == (1, 2, 3)


def test_on_equal_scores_without_the_declarer_the_seat_nearest_the_dealers_left_wins_2_16() -> None:
    """§2.16: "then the seat nearest the dealer's left"; with p2 dealing that is p3, then p1."""
    # p1 declares 100 and fails; p2 and p3 take 40 each (960 -> 1000).
    ev = scored(
        end_state(NO_BARREL, declarer=0, contract=100, raw=(40, 40, 40), scores=(0, 960, 960), dealer=1)
    )
    assert ev.winner == "p3"
    # T12: the winner is rank 1 even when another seat has the same score.
    assert ev.ranks == (3, 2, 1)
    ev = scored(
        end_state(NO_BARREL, declarer=1, contract=100, raw=(40, 40, 40), scores=(960, 0, 960), dealer=2)
    )
    assert ev.winner == "p1"


def test_equal_losers_share_a_rank_t12() -> None:
    """T12: equal scores share a rank."""
    ev = scored(end_state(NO_BARREL, declarer=0, contract=100, raw=(120, 0, 0), scores=(900, 50, 50)))
    assert ev.winner == "p1" and ev.ranks == (1, 2, 2)


def test_a_golden_restart_starts_three_golden_deals_again_2_13_t14() -> None:
    """§2.13: "all scores are reset and the game restarts (including golden kon)": three golden
    deals again (§2.21.1 ``golden_deals_left`` 3 when golden_kon), none of them made yet; T14: the
    dealer keeps rotating and the deal number restarts."""
    r = rules(golden_kon=True)
    s = end_state(r, declarer=0, contract=120, raw=(50, 40, 30), golden=True, golden_left=1, deal_no=2)
    ev = scored(s)
    assert ev.golden_restart
    after = evolve(s, ev)
    assert after.golden_left == 3 and not after.golden_made
    assert after.deal_no == 0 and after.dealer == 1
    assert after.scores == (0, 0, 0) and after.phase == "next_deal"
