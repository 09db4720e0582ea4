"""Matches stored under kings-corner-1 stay auditable (docs/audit.md "Older rules versions").

The fixture is a real log recorded by the code of kings-corner-1 (commit 96b6e49, before the
Decisions of 2026-12-01 of rules/kings-corner.md; tests/fixtures/record_kings_corner_1.py says how):
three seats, pagat-kings-penalty, a king penalty published in ``TurnEnded`` (before D1) and a
resignation that ends the match for everyone (before D3).
"""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from contracts.audit import AuditBundle, StoredEnvelope
from contracts.codecs import codec
from contracts.envelope import Rejected
from contracts.games.kings_corner import KingPenaltyCharged, TurnEnded
from contracts.match import MatchCreated, MatchEnded, Resigned
from domain.audit import audit, decode_bundle
from domain.core import match as match_layer
from domain.games import registry

FIXTURE = Path(__file__).parents[2] / "fixtures" / "kings-corner-1-match.json"


@pytest.fixture(scope="module")
def bundle() -> AuditBundle:
    return decode_bundle(FIXTURE.read_bytes())


def test_the_fixture_is_a_kings_corner_1_log_with_a_public_king_penalty_and_a_resignation(
    bundle: AuditBundle,
) -> None:
    envs = [codec("kings-corner").decode_envelope(s.data.encode()) for s in bundle.envelopes]
    assert {e.rules_version for e in envs} == {"kings-corner-1"}
    events = [ev for e in envs for ev in e.events]
    assert isinstance(events[0], MatchCreated) and events[0].rules_version == "kings-corner-1"
    assert any(isinstance(ev, TurnEnded) and ev.king_penalty == 3 for ev in events)
    last = envs[-1]
    assert last.seat == "p2" and [type(ev) for ev in last.events][:2] == [Resigned, MatchEnded]


def test_a_kings_corner_1_match_audits_with_the_rules_it_was_played_under(bundle: AuditBundle) -> None:
    report = audit(bundle)
    assert report.ok, report.problems
    assert report.rules_version == "kings-corner-1"
    assert report.finished
    assert report.redecided == len(bundle.envelopes)  # every decision re-decided by kings-corner-1


def test_the_current_rules_would_decide_the_same_log_differently(bundle: AuditBundle) -> None:
    """Why the version is pinned: kings-corner-2 (D1) keeps the king penalty private, so folding
    or re-deciding this log with the later rules would not give what was recorded."""
    current = registry.get("kings-corner", "kings-corner-2")
    assert current.rules_version == "kings-corner-2"
    envs = [codec("kings-corner").decode_envelope(s.data.encode()) for s in bundle.envelopes]
    seed = bytes(range(32))  # the fixture's server seed (revealed in its last decision)
    state = None
    for env in envs:
        if state is not None and env.command is not None:
            command = codec("kings-corner").decode_inner_command(env.command)
            decided = match_layer.decide(current, state, env.seat, command, seed, env.recorded_at)
            assert not isinstance(decided, Rejected)
            if tuple(decided) != tuple(env.events):
                assert any(isinstance(e, KingPenaltyCharged) for e in decided)
                assert any(isinstance(e, TurnEnded) and e.king_penalty for e in env.events)
                return
        for event in env.events:
            state = match_layer.evolve(current, state, event, seed)
    pytest.fail("kings-corner-2 re-decided every decision of the kings-corner-1 log identically")


def test_old_rules_are_never_offered_for_new_matches() -> None:
    v1 = registry.get("kings-corner", "kings-corner-1")
    assert v1.rules_version == "kings-corner-1"
    v2 = registry.get("kings-corner", "kings-corner-2")
    assert registry.GAMES["kings-corner"].rules_version == "kings-corner-3"
    for old in (v1, v2):
        assert old not in registry.GAMES.values()
        assert old in registry.OLD_VERSIONS


def test_an_unknown_rules_version_is_a_typed_error_naming_it(bundle: AuditBundle) -> None:
    with pytest.raises(registry.UnknownRulesVersion) as err:
        registry.get("kings-corner", "kings-corner-0")
    assert err.value.code == "unknown_rules_version"
    assert "kings-corner-0" in err.value.detail and "kings-corner-1" in err.value.detail
    # and the audit says which version it lacks
    renamed = msgspec.structs.replace(
        bundle,
        rules_version="kings-corner-0",
        envelopes=tuple(StoredEnvelope(stream_seq=s.stream_seq, data=s.data) for s in bundle.envelopes),
    )
    report = audit(renamed)
    assert not report.ok
    assert any("kings-corner-0" in p and "not available" in p for p in report.problems)
