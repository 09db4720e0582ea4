"""The one fold of stored decisions (domain/core/matchlog.py)."""

from __future__ import annotations

import pytest

from contracts.envelope import EventEnvelope
from domain.core import match as match_layer
from domain.core.matchlog import Folded, LogGap, fold_decision, fold_envelopes
from domain.games import registry
from tests.support.bundles import played_match

UGOLKI = registry.get("ugolki")


def _envelopes(decisions: list) -> list[EventEnvelope]:
    return [
        EventEnvelope(
            match_id="m",
            game="ugolki",
            rules_version=UGOLKI.rules_version,
            seq=i,
            command_id=str(i),
            correlation_id=str(i),
            recorded_at=0,
            prev_hash="0" * 64,
            events=events,
        )
        for i, (_seat, _cmd, events) in enumerate(decisions, start=1)
    ]


def test_folding_the_log_equals_evolving_every_event_in_order() -> None:
    _, decisions = played_match(game="ugolki", seed=3, max_moves=40)
    state = None
    for _seat, _cmd, events in decisions:
        for event in events:
            state = match_layer.evolve(UGOLKI, state, event)
    folded = fold_envelopes(UGOLKI, _envelopes(decisions))
    assert folded.state == state and folded.seq == len(decisions)


def test_a_decision_folded_already_is_skipped_and_a_gap_is_refused() -> None:
    _, decisions = played_match(game="ugolki", seed=4, max_moves=10)
    envs = _envelopes(decisions)
    folded = fold_envelopes(UGOLKI, envs[:3])
    assert fold_envelopes(UGOLKI, envs[:3], folded=folded) == folded  # a redelivery changes nothing
    with pytest.raises(LogGap):
        fold_decision(UGOLKI, folded, 5, envs[4].events)
    assert fold_envelopes(UGOLKI, envs[3:], folded=folded) == fold_envelopes(UGOLKI, envs)


def test_before_event_sees_the_state_before_each_event() -> None:
    _, decisions = played_match(game="ugolki", seed=5, max_moves=6)
    seen: list[tuple[object, object]] = []
    folded = Folded()
    for i, (_seat, _cmd, events) in enumerate(decisions, start=1):
        before = folded.state
        folded = fold_decision(UGOLKI, folded, i, events, before_event=lambda s, e: seen.append((s, e)))
        assert seen[-len(events)][0] == before
    assert [e for _, e in seen] == [e for *_, events in decisions for e in events]


def test_the_referee_folds_with_the_server_seed_and_a_gap_names_both_decisions() -> None:
    """The referee's reload passes the seed on (a card game keeps it for the next deal)."""
    kc = registry.get("kings-corner")
    seed = b"\x07" * 32
    _, decisions = played_match(game="kings-corner", seed=2, max_moves=30, server_seed=seed)
    envs = [
        EventEnvelope(
            match_id="m",
            game="kings-corner",
            rules_version=kc.rules_version,
            seq=i,
            command_id=str(i),
            correlation_id=str(i),
            recorded_at=0,
            prev_hash="0" * 64,
            events=events,
        )
        for i, (_seat, _cmd, events) in enumerate(decisions, start=1)
    ]
    state = None
    for _seat, _cmd, events in decisions:
        for event in events:
            state = match_layer.evolve(kc, state, event, seed)
    with_seed = fold_envelopes(kc, envs, seed)
    assert with_seed.state == state and with_seed.state.game_state.seed == seed
    assert fold_envelopes(kc, envs).state.game_state.seed is None
    with pytest.raises(LogGap, match="decision 3 follows decision 1"):
        fold_decision(kc, fold_envelopes(kc, envs[:1], seed), 3, envs[2].events)
