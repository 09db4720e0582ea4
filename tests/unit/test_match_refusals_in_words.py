"""The match layer's refusals of rulesets, creations and platform commands, each with the words
a client or an operator reads (domain/core/match.py)."""

from __future__ import annotations

import msgspec

from contracts.envelope import Rejected
from contracts.match import ClaimAbandon, ClaimTimeout, ExpireIdle, TimeControl
from domain.core import match as match_layer
from domain.games import registry
from tests.unit.test_clocks import T0, Match
from tests.unit.test_match_creation import create, refused

UGOLKI = registry.get("ugolki")
KING = registry.get("king")


def test_an_unknown_preset_is_refused_with_the_presets_there_are() -> None:
    result = match_layer.resolve_ruleset(UGOLKI, "nope", {})
    known = ", ".join(sorted(UGOLKI.presets))
    assert result == Rejected(code="unknown_preset", detail=f"ugolki has no preset 'nope'; known: {known}")


def test_a_four_player_preset_with_three_seats_is_refused_for_its_seats() -> None:
    """king.md §11.2: the four-player presets are for four players; three seats is the wrong
    seat count for a playable ruleset, not a bad ruleset."""
    ruleset = msgspec.to_builtins(KING.presets["king-4p-classic"].ruleset)
    result = match_layer.check_ruleset(KING, ruleset, 3)
    assert isinstance(result, Rejected) and result.code == "invalid_seats"
    assert not isinstance(match_layer.check_ruleset(KING, ruleset, 4), Rejected)


def test_an_unknown_preset_has_the_fewest_seats_by_default() -> None:
    assert match_layer.default_seats_of(KING, "no-such-preset") == KING.min_seats
    assert match_layer.default_seats_of(KING, "king-4p-classic") == 4


def test_guests_that_are_not_seats_are_refused_in_words() -> None:
    result = refused(create(guests=("green",)))
    assert result == Rejected(code="invalid_seats", detail="guests must be distinct seats of the match")


def test_a_time_control_over_thirty_days_is_refused_in_words() -> None:
    assert match_layer.time_control_problem(TimeControl(base_s=30 * 86_400 + 1)) == (
        "time control values are limited to 30 days (increment: 1 day)"
    )
    assert match_layer.time_control_problem(TimeControl(base_s=30 * 86_400)) is None


def test_a_claim_for_a_seat_the_match_does_not_have_names_its_seats() -> None:
    m = Match(tc=TimeControl(base_s=2, grace_s=5))
    for claim in (
        ClaimTimeout(seat="green", deadline=T0 + 2_000, at=T0 + 2_000),
        ClaimAbandon(seat="green", deadline=T0 + 5_000, at=T0 + 5_000),
    ):
        result = m.decide(None, claim, claim.at)
        assert result == Rejected(code="not_a_seat", detail="seat must be one of ['white', 'black']")


def test_an_early_expiry_is_refused_with_the_idle_time_and_the_limit() -> None:
    m = Match(tc=None)
    result = m.decide(None, ExpireIdle(last_decision_at=T0, at=T0 + 999, limit_ms=1_000), T0 + 999)
    assert result == Rejected(code="not_idle", detail="idle for 999 ms, the limit is 1000 ms")
