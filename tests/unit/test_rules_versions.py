"""The one fold of stored envelopes picks the decider by the recorded rules version
(docs/audit.md "Older rules versions"), with a real kings-corner-1 log
(tests/fixtures/kings-corner-1-match.json, recorded by the code of that version)."""

from __future__ import annotations

from pathlib import Path

import pytest

from contracts.audit import AuditBundle
from contracts.codecs import codec
from domain.audit import decode_bundle
from domain.games import registry
from domain.games.kings_corner.v1.state import KCState as KCStateV1
from services.common.natsio import Stored
from services.common.reader import FoldedMatch

FIXTURE = Path(__file__).parents[1] / "fixtures" / "kings-corner-1-match.json"


@pytest.fixture(scope="module")
def bundle() -> AuditBundle:
    return decode_bundle(FIXTURE.read_bytes())


def test_stored_matches_fold_with_their_recorded_rules_version(bundle: AuditBundle) -> None:
    """The one fold of stored envelopes (gateway views, exports) picks the decider by the
    recorded rules version: the resignation ended the match under kings-corner-1."""
    folded = FoldedMatch(match_id=bundle.match_id, game=bundle.game)
    for s in bundle.envelopes:
        folded.apply(Stored(stream_seq=s.stream_seq, data=s.data.encode()))
    assert folded.rules_version == "kings-corner-1"
    assert folded.decider is registry.get("kings-corner", "kings-corner-1")
    assert folded.finished
    assert isinstance(folded.state.game_state, KCStateV1)  # folded by kings-corner-1's evolve
    assert folded.state is not None and folded.state.outcome is not None
    # the resigning seat last, the others sharing first place (the match layer's resignation)
    quitter = codec("kings-corner").decode_envelope(bundle.envelopes[-1].data.encode()).seat
    ranks = dict(zip(folded.state.created.seats, folded.state.outcome.ranks, strict=True))
    assert ranks[quitter] == 3 and sorted(ranks.values()) == [1, 1, 3]


def test_a_log_of_a_rules_version_this_build_lacks_is_refused_not_folded_by_other_rules(
    bundle: AuditBundle,
) -> None:
    data = bundle.envelopes[0].data.replace('"kings-corner-1"', '"kings-corner-0"')
    folded = FoldedMatch(match_id=bundle.match_id, game=bundle.game)
    with pytest.raises(registry.UnknownRulesVersion) as err:
        folded.apply(Stored(stream_seq=1, data=data.encode()))
    assert err.value.code == "unknown_rules_version" and "kings-corner-0" in err.value.detail
    assert folded.state is None
