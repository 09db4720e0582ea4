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


def test_a_ruleset_no_seat_count_of_the_game_can_play_is_a_bad_ruleset() -> None:
    """Kings Cup takes 2-12 seats: a ruleset for 13-20 players is refused as a ruleset, whatever
    seat count is asked, not sent to another seat count."""
    kc = registry.get("kings-cup")
    data = msgspec.to_builtins(kc.presets[kc.default_preset].ruleset)
    data.update(min_players=13, max_players=20)
    result = match_layer.check_ruleset(kc, data, kc.max_seats)
    assert isinstance(result, Rejected) and result.code == "invalid_ruleset"


def test_each_bad_time_control_is_refused_in_its_own_words() -> None:
    problem = match_layer.time_control_problem
    assert problem(TimeControl(base_s=float("inf"))) == "time control values must be finite numbers"
    assert (
        problem(TimeControl(base_s=60, grace_s=float("nan"))) == "time control values must be finite numbers"
    )
    assert problem(TimeControl(base_s=60, increment_s=-1)) == "time control values must not be negative"
    assert problem(TimeControl(move_s=-5)) == "time control values must not be negative"
    either = "a time control has either base_s (Fischer, with increment_s) or move_s (per move)"
    assert problem(TimeControl()) == either
    assert problem(TimeControl(base_s=60, move_s=5)) == either
    assert problem(TimeControl(move_s=5, increment_s=1)) == "increment_s goes with base_s, not with move_s"
    month = "time control values are limited to 30 days (increment: 1 day)"
    assert problem(TimeControl(base_s=60, grace_s=30 * 86_400 + 1)) == month
    assert problem(TimeControl(move_s=30 * 86_400 + 1)) == month
    assert problem(TimeControl(base_s=60, increment_s=86_400 + 1)) == month
    assert problem(TimeControl(base_s=60, grace_s=-1)) == "grace_s must not be negative"
    assert problem(TimeControl(base_s=60, on_timeout="wait")) == 'on_timeout is "forfeit" or "bot"'


def test_a_ranked_match_handed_to_a_computer_player_is_refused_in_words() -> None:
    result = refused(create(ranked=True, time_control=TimeControl(base_s=60, on_timeout="bot")))
    assert result == Rejected(
        code="invalid_time_control",
        detail='a ranked match always forfeits: on_timeout "bot" is for casual matches',
    )


def test_a_claim_that_is_not_due_names_the_deadline() -> None:
    m = Match(tc=TimeControl(base_s=2, grace_s=5))
    early = m.decide(None, ClaimTimeout(seat="white", deadline=T0 + 2_000, at=T0 + 1_999), T0 + 1_999)
    assert early == Rejected(
        code="not_due",
        detail=f"white's clock runs out at {T0 + 2_000}, not at {T0 + 2_000} (claimed at {T0 + 1_999})",
    )
    wrong = m.decide(None, ClaimAbandon(seat="white", deadline=T0 + 4_000, at=T0 + 6_000), T0 + 6_000)
    assert wrong == Rejected(
        code="not_due",
        detail=f"white is abandoned at {T0 + 5_000}, not at {T0 + 4_000} (claimed at {T0 + 6_000})",
    )


def test_a_handover_without_the_computer_players_token_is_refused_in_words() -> None:
    """docs/audit.md "Computer players": the claim carries the hash of the new seat token."""
    m = Match(tc=TimeControl(base_s=2, on_timeout="bot"))
    result = m.decide(None, ClaimTimeout(seat="white", deadline=T0 + 2_000, at=T0 + 2_000), T0 + 2_000)
    assert result == Rejected(
        code="malformed", detail="a seat handed to a computer player needs bot_token_hash"
    )


def test_unknown_ruleset_parameters_are_refused_by_name() -> None:
    result = match_layer.resolve_ruleset(UGOLKI, UGOLKI.default_preset, {"zeta": 1, "alpha": 2})
    assert result == Rejected(code="invalid_ruleset", detail="unknown ruleset parameter(s): alpha, zeta")
