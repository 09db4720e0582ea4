"""Preset parameters of §2.20 not covered elsewhere, each by what it changes in play."""

from __future__ import annotations

import msgspec

from contracts.games.thousand import Bid, Play
from domain.games.thousand import GAME
from domain.games.thousand.evolve import evolve
from domain.games.thousand.legal import legal_bids
from domain.games.thousand.state import initial_state
from domain.games.thousand.view import view
from tests.unit.thousand.support import (
    CLASSIC,
    HANDS,
    ONLINE,
    SIMPLE,
    act,
    code,
    deal,
    end_state,
    line,
    rules,
    scored,
)

_r = msgspec.structs.replace
QUIET = dict(
    redeal_weak_before_bid=None,
    redeal_four_nines_before_bid=False,
    redeal_four_nines_after_passing=False,
    redeal_talon_low=None,
)


def _lead(r, hand, trick_no=1):  # type: ignore[no-untyped-def]
    base = initial_state(r, ("p1", "p2", "p3"), None)
    return _r(
        base,
        phase="play",
        hands=(tuple(hand.split()), ("9D",), ("9H",)),
        trick=(),
        leader=0,
        trick_no=trick_no,
        sitout=-1,
        declarer=0,
        marriage_pts=(0, 0, 0),
        played=(),
    )


def test_marriage_values_tables_c17() -> None:
    s = _lead(rules(**QUIET), "KS QS 9C")
    ev = GAME.decide(s, "p1", Play(card="KS", announce="marriage"))
    assert ev[0].value == 40
    s = _lead(rules(marriage_values="S100_H80_C60_D40", **QUIET), "KS QS 9C")
    assert GAME.decide(s, "p1", Play(card="KS", announce="marriage"))[0].value == 100
    s = _lead(rules(marriage_values="S100_C80_H60_D40", **QUIET), "KH QH 9C")
    assert GAME.decide(s, "p1", Play(card="KH", announce="marriage"))[0].value == 60


def test_ace_marriage_value_and_sets_trump_c16() -> None:
    s = _lead(rules(ace_marriage_value=150, **QUIET), "AS AC AD AH")
    ev = GAME.decide(s, "p1", Play(card="AH", announce="aces"))[0]
    assert ev.value == 150 and ev.trump is None
    s = _lead(rules(ace_marriage_sets_trump=True, **QUIET), "AS AC AD AH")
    assert GAME.decide(s, "p1", Play(card="AH", announce="aces"))[0].trump == "H"


def test_forced_bid_parameter_c6() -> None:
    s = deal(rules(forced_bid=50, bid_jumps=True, **QUIET), HANDS)
    assert s.high_bid == 50 and legal_bids(s, 2)[0] == 55


def test_talon_shown_false_hides_it_from_the_defenders_c11() -> None:
    from contracts.games.thousand import Pass

    s = deal(rules(talon_shown=False, **QUIET), HANDS)
    s = act(act(s, "p3", Pass()), "p1", Pass())
    assert not s.talon_public and view(s, "p1").talon == ()
    assert all(c not in view(s, "p1").hand for c in ("10C", "KC", "AC"))


def test_settlement_report_shortfall_2_16() -> None:
    ev = scored(
        end_state(
            CLASSIC,
            declarer=0,
            contract=120,
            raw=(120, 0, 0),
            scores=(880, 400, 700),
            barrel_on=(True, False, False),
        )
    )
    assert ev.match_over
    s = evolve(
        end_state(
            CLASSIC,
            declarer=0,
            contract=120,
            raw=(120, 0, 0),
            scores=(880, 400, 700),
            barrel_on=(True, False, False),
        ),
        ev,
    )
    assert view(s, None).shortfall == {"p2": 600, "p3": 300}
    s2 = evolve(
        end_state(
            SIMPLE,
            declarer=0,
            contract=120,
            raw=(120, 0, 0),
            scores=(880, 400, 700),
            barrel_on=(True, False, False),
        ),
        scored(
            end_state(
                SIMPLE,
                declarer=0,
                contract=120,
                raw=(120, 0, 0),
                scores=(880, 400, 700),
                barrel_on=(True, False, False),
            )
        ),
    )
    assert view(s2, None).shortfall == {}


def test_barrel_attempts_and_penalties_parameters_2_10() -> None:
    r = rules(barrel_attempts=2, barrel_attempts_fail_penalty=200)
    ev = scored(
        end_state(
            r,
            declarer=1,
            contract=100,
            raw=(0, 100, 20),
            barrel_on=(True, False, False),
            attempts=(1, 0, 0),
            scores=(880, 0, 0),
        )
    )
    a = line(ev, "p1")
    assert a.score == 680 and not a.barrel
    r = rules(barrel_knockoff_penalty=50)
    ev = scored(
        end_state(
            r, declarer=1, contract=150, raw=(0, 150, 0), scores=(880, 800, 0), barrel_on=(True, False, False)
        )
    )
    assert line(ev, "p1").score == 830
    r = rules(simultaneous_climb_penalty=30)
    ev = scored(end_state(r, declarer=1, contract=100, raw=(0, 100, 20), scores=(0, 800, 870)))
    assert (line(ev, "p2").score, line(ev, "p3").score) == (850, 850)


def test_barrel_falls_limit_parameter_2_10() -> None:
    r = rules(barrel_falls_limit=1)
    ev = scored(
        end_state(
            r, declarer=0, contract=150, raw=(100, 10, 10), barrel_on=(True, False, False), scores=(880, 0, 0)
        )
    )
    assert line(ev, "p1").score == 0


def test_bolt_limit_and_penalty_parameters_2_11() -> None:
    r = rules(bolt_limit=2, bolt_penalty=50)
    ev = scored(end_state(r, declarer=0, contract=120, raw=(120, 0, 0), bolts=(0, 1, 0)))
    assert line(ev, "p2").delta == -50 and line(ev, "p3").bolts == 1


def test_samosval_off_in_simple_c12() -> None:
    ev = scored(end_state(SIMPLE, declarer=0, contract=120, raw=(50, 40, 30), scores=(675, 0, 0)))
    assert line(ev, "p1").score == 555


def test_barrel_success_modes_c22() -> None:
    on = dict(barrel_on=(True, False, False), scores=(880, 0, 0))
    ev = scored(end_state(CLASSIC, declarer=0, contract=100, raw=(130, 0, 0), **on))
    assert not ev.match_over and line(ev, "p1").attempts == 1  # CLASSIC: the contract must reach 120
    ev = scored(end_state(SIMPLE, declarer=0, contract=100, raw=(110, 10, 0), **on))
    assert not ev.match_over and line(ev, "p1").delta == 0  # made, raw below 120: an attempt


def test_barrel_fail_mode_minus_contract_c32() -> None:
    on = dict(barrel_on=(True, False, False), scores=(880, 0, 0))
    ev = scored(end_state(SIMPLE, declarer=0, contract=120, raw=(100, 10, 10), **on))
    assert line(ev, "p1").score == 760 and line(ev, "p1").falls == 1
    ev = scored(end_state(CLASSIC, declarer=0, contract=120, raw=(100, 10, 10), **on))
    assert line(ev, "p1").score == 880 and line(ev, "p1").falls == 0


def test_online_bid_above_max_contract_c10() -> None:
    hands = ("KH QH KD QD KC QC AS", "9S JS QS KS 10S AD 9C", "9H JH 9D JD 10D JC 10H")
    s = deal(rules(ONLINE, **QUIET), hands)
    s = act(s, "p3", GAME.legal_commands(s, "p3")[-1])  # p3 passes (no marriage, cap 120 -> bids exist)
    assert code(s, "p1", Bid(amount=305)) == "bid_above_max"
