"""The match layer composed around every game: creation, resignation, draws, the end."""

from __future__ import annotations

import msgspec
import pytest

from contracts.envelope import Rejected
from contracts.match import (
    AcceptDraw,
    CreateMatch,
    DeclineDraw,
    DrawAccepted,
    DrawDeclined,
    DrawOffered,
    MatchCreated,
    MatchEnded,
    OfferDraw,
    Resign,
    Resigned,
)
from domain.core import match as match_layer
from domain.games import registry

UGOLKI = registry.get("ugolki")


def create(preset: str = "halma-8x8-1234", overrides: dict | None = None) -> CreateMatch:
    ruleset = match_layer.resolve_ruleset(UGOLKI, preset, overrides or {})
    assert not isinstance(ruleset, Rejected), ruleset
    return CreateMatch(
        preset=preset,
        ruleset=msgspec.to_builtins(ruleset),
        seats=("white", "black"),
        players=("ann", "bob"),
        token_hashes=("a" * 64, "b" * 64),
    )


def fold(*events):
    state = None
    for e in events:
        state = match_layer.evolve(UGOLKI, state, e)
    return state


def started():
    events = match_layer.decide(UGOLKI, None, None, create())
    assert isinstance(events[0], MatchCreated)
    return fold(*events)


def test_created_match_records_the_whole_ruleset_and_its_hash() -> None:
    (created,) = match_layer.decide(UGOLKI, None, None, create(overrides={"long_game_moves": 60}))
    assert created.ruleset["long_game_moves"] == 60
    assert created.ruleset_hash == match_layer.ruleset_hash(created.ruleset)
    assert created.rules_version == UGOLKI.rules_version


@pytest.mark.parametrize(
    "preset, overrides, code",
    [
        ("no-such-preset", {}, "unknown_preset"),
        ("halma-8x8-1234", {"colour": "red"}, "invalid_ruleset"),
        ("halma-8x8-1234", {"board": "big"}, "invalid_ruleset"),
    ],
)
def test_bad_rulesets_are_rejected_with_a_code(preset: str, overrides: dict, code: str) -> None:
    result = match_layer.resolve_ruleset(UGOLKI, preset, overrides)
    assert isinstance(result, Rejected) and result.code == code


def test_commands_before_creation_and_double_creation_are_refused() -> None:
    assert match_layer.decide(UGOLKI, None, "white", Resign()).code == "match_not_found"
    assert match_layer.decide(UGOLKI, started(), None, create()).code == "match_exists"


def test_resignation_ends_the_match_with_the_resigner_last() -> None:
    events = match_layer.decide(UGOLKI, started(), "black", Resign())
    assert isinstance(events[0], Resigned) and isinstance(events[-1], MatchEnded)
    assert events[-1].outcome.ranks == (1, 2) and events[-1].outcome.reason == "resignation"
    over = fold(*match_layer.decide(UGOLKI, None, None, create()), *events)
    assert match_layer.decide(UGOLKI, over, "white", Resign()).code == "match_over"


def test_draw_offer_then_accept_is_a_draw() -> None:
    state = started()
    offered = match_layer.decide(UGOLKI, state, "white", OfferDraw())
    assert offered == (DrawOffered(seat="white"),)
    state = match_layer.evolve(UGOLKI, state, offered[0])
    assert match_layer.decide(UGOLKI, state, "white", OfferDraw()).code == "draw_already_offered"
    assert match_layer.decide(UGOLKI, state, "white", AcceptDraw()).code == "no_draw_offer"
    accepted = match_layer.decide(UGOLKI, state, "black", AcceptDraw())
    assert isinstance(accepted[0], DrawAccepted) and accepted[-1].outcome.draw


def test_declined_or_lapsed_draw_offer() -> None:
    state = started()
    state = match_layer.evolve(UGOLKI, state, DrawOffered(seat="white"))
    declined = match_layer.decide(UGOLKI, state, "black", DeclineDraw())
    assert declined == (DrawDeclined(seat="black"),)
    assert match_layer.evolve(UGOLKI, state, declined[0]).draw_offer is None
    # A move by the offerer lets the offer lapse.
    move = UGOLKI.legal_commands(state.game_state, "white")[0]
    events = match_layer.decide(UGOLKI, state, "white", move)
    after = state
    for e in events:
        after = match_layer.evolve(UGOLKI, after, e)
    assert after.draw_offer is None


def test_a_table_helper_refuses_draw_offers_and_their_answers() -> None:
    """A table helper (Kings Cup) judges no result, so there is no draw to agree on: an offer, an
    acceptance and a refusal are each refused with their own code, and nothing is stored."""
    cup = registry.get("kings-cup")
    assert cup.helper
    ruleset = match_layer.resolve_ruleset(cup, cup.default_preset, {})
    assert not isinstance(ruleset, Rejected), ruleset
    seats = cup.seat_names(3)
    created = CreateMatch(
        preset=cup.default_preset,
        ruleset=msgspec.to_builtins(ruleset),
        seats=seats,
        players=("ann", "bob", "cid"),
        token_hashes=tuple(c * 64 for c in "abc"),
        seed_commitment="c" * 64,
    )
    state = None
    for event in match_layer.decide(cup, None, None, created, bytes(32)):
        state = match_layer.evolve(cup, state, event)
    assert state is not None and state.outcome is None
    for command in (OfferDraw(), AcceptDraw(), DeclineDraw()):
        refused = match_layer.decide(cup, state, "p1", command)
        assert refused == Rejected(
            code="no_draws_at_helper", detail="kings-cup is a table helper: it has no draw offers"
        )
    # a game that is judged keeps its draw offers
    assert match_layer.decide(UGOLKI, started(), "white", OfferDraw()) == (DrawOffered(seat="white"),)
    # and a match stored under kings-cup-1, when draw offers were taken, still re-decides as played
    old = registry.get("kings-cup", "kings-cup-1")
    assert old.rules_version == "kings-cup-1" and old.draw_offers and not cup.draw_offers
    assert match_layer.decide(old, state, "p1", OfferDraw()) == (DrawOffered(seat="p1"),)
    from contracts.match import MATCH_REJECTION_CODES

    assert "no_draws_at_helper" in MATCH_REJECTION_CODES


def test_only_seats_may_act() -> None:
    assert match_layer.decide(UGOLKI, started(), "referee", Resign()).code == "not_a_seat"
    assert match_layer.decide(UGOLKI, started(), None, Resign()).code == "not_a_seat"


def test_a_seat_count_the_ruleset_cannot_deal_is_refused_at_creation() -> None:
    """rules/kings-corner.md: one deck cannot deal 7 cards to every seat of a large table."""
    kc = registry.get("kings-corner")
    for n in range(kc.min_seats, kc.max_seats + 1):
        ruleset = kc.presets[kc.default_preset].ruleset
        problem = ruleset.check_seats(n)
        seats = kc.seat_names(n)
        result = match_layer.decide(
            kc,
            None,
            None,
            CreateMatch(
                preset=kc.default_preset,
                ruleset=msgspec.to_builtins(ruleset),
                seats=seats,
                players=seats,
                token_hashes=tuple("0" * 64 for _ in seats),
                seed_commitment="c" * 64,
            ),
        )
        if problem:
            assert isinstance(result, Rejected) and result.code == "invalid_seats", n
        else:
            assert isinstance(result[0], MatchCreated), n


def test_decide_and_evolve_equals_decide_then_fold() -> None:
    """The referee's shortcut gives the same events and the same state as decide + evolve."""
    import random

    rng = random.Random(2)
    state = started()
    for _ in range(120):
        movers = match_layer.to_move(UGOLKI, state)
        if not movers:
            break
        command = UGOLKI.bots["random"](state.game_state, movers[0], rng)
        events = match_layer.decide(UGOLKI, state, movers[0], command)
        folded = state
        for e in events:
            folded = match_layer.evolve(UGOLKI, folded, e)
        both = match_layer.decide_and_evolve(UGOLKI, state, movers[0], command)
        assert both[0] == events
        assert msgspec.json.encode(both[1].created) == msgspec.json.encode(folded.created)
        assert both[1].outcome == folded.outcome and both[1].game_state == folded.game_state
        state = folded
    resign = match_layer.decide_and_evolve(UGOLKI, started(), "white", Resign())
    assert resign[1].outcome is not None and resign[1].outcome.ranks == (2, 1)


def test_guest_seats_are_recorded_and_must_be_seats_of_the_match() -> None:
    """Issue 9: players without a credential are named guests in MatchCreated (never rated)."""
    (created,) = match_layer.decide(UGOLKI, None, None, msgspec.structs.replace(create(), guests=("black",)))
    assert created.guests == ("black",)
    (plain,) = match_layer.decide(UGOLKI, None, None, create())
    assert plain.guests == ()
    for guests in (("red",), ("white", "white")):
        refused = match_layer.decide(UGOLKI, None, None, msgspec.structs.replace(create(), guests=guests))
        assert isinstance(refused, Rejected) and refused.code == "invalid_seats"


HOUR = 3_600_000


def test_idle_match_expires_and_the_seat_to_move_abandoned_it() -> None:
    """docs/audit.md "Abandoned matches": no decision for limit_ms ends the match; the seats to
    move rank last."""
    from contracts.match import ExpireIdle, MatchAbandoned, Outcome

    state = started()
    expire = ExpireIdle(last_decision_at=1_000, at=1_000 + 48 * HOUR, limit_ms=48 * HOUR)
    events = match_layer.decide(UGOLKI, state, None, expire)
    assert not isinstance(events, Rejected), events
    assert events[0] == MatchAbandoned(idle_seats=("white",), idle_ms=48 * HOUR)
    ended = fold(*match_layer.decide(UGOLKI, None, None, create()), *events)
    assert ended.outcome == Outcome(ranks=(2, 1), reason="abandoned")
    assert match_layer.decide(UGOLKI, ended, None, expire) == Rejected(code="match_over", detail="the match is over")


def test_a_match_not_idle_long_enough_or_a_seat_cannot_expire_it() -> None:
    from contracts.match import ExpireIdle

    state = started()
    early = match_layer.decide(UGOLKI, state, None, ExpireIdle(last_decision_at=0, at=HOUR - 1, limit_ms=HOUR))
    assert isinstance(early, Rejected) and early.code == "not_idle"
    zero = match_layer.decide(UGOLKI, state, None, ExpireIdle(last_decision_at=0, at=HOUR, limit_ms=0))
    assert isinstance(zero, Rejected) and zero.code == "not_idle"
    by_seat = match_layer.decide(UGOLKI, state, "black", ExpireIdle(last_decision_at=0, at=HOUR, limit_ms=HOUR))
    assert isinstance(by_seat, Rejected) and by_seat.code == "not_a_seat"


def test_when_every_seat_was_to_move_an_abandoned_match_is_a_draw() -> None:
    from contracts.match import ExpireIdle, MatchAbandoned, Outcome

    kc = registry.get("kings-corner")
    preset = kc.default_preset
    ruleset = match_layer.resolve_ruleset(kc, preset, {})
    assert not isinstance(ruleset, Rejected)
    create_kc = CreateMatch(
        preset=preset,
        ruleset=msgspec.to_builtins(ruleset),
        seats=kc.seat_names(2),
        players=("ann", "bob"),
        token_hashes=("a" * 64, "b" * 64),
        seed_commitment="c" * 64,
    )
    state = None
    for e in match_layer.decide(kc, None, None, create_kc):
        state = match_layer.evolve(kc, state, e)
    assert set(match_layer.to_move(kc, state)) == set(kc.seat_names(2))  # everyone is to say ready
    events = match_layer.decide(kc, state, None, ExpireIdle(last_decision_at=0, at=HOUR, limit_ms=HOUR))
    assert not isinstance(events, Rejected), events
    assert isinstance(events[0], MatchAbandoned)
    assert events[1].outcome == Outcome(ranks=(1, 1), reason="abandoned", draw=True)
