"""Decision D10 (rules/kings-corner.md §4.1): ruleset parameters keep the names and values of
§4.1 wherever a person or another program writes a ruleset: ``--set``, a record's ``overrides``,
the API's ruleset; ``match_end = "fixed_rounds:5"``, ``"target:100"``, ``"single_round"``."""

from __future__ import annotations

import pytest

from contracts.envelope import Rejected
from domain import records
from domain.core.match import resolve_ruleset, written_ruleset
from domain.games import registry

GAME = registry.get("kings-corner")


@pytest.mark.parametrize(
    ("written", "kind", "value"),
    [
        ("fixed_rounds:5", "fixed_rounds", 5),
        ("fixed_rounds:1", "fixed_rounds", 1),
        ("target:100", "target", 100),
        ("elimination:25", "elimination", 25),
    ],
)
def test_d10_the_4_1_form_is_read(written: str, kind: str, value: int) -> None:
    preset = "pagat-classic" if kind != "fixed_rounds" else "pagat-fixed-hands"
    rs = resolve_ruleset(GAME, preset, {"match_end": written})
    if kind == "elimination":
        rs = resolve_ruleset(GAME, "cz-elimination-25", {"match_end": written})
    assert not isinstance(rs, Rejected), rs
    assert (rs.match_end, rs.match_end_value) == (kind, value)
    assert written_ruleset(GAME, rs)["match_end"] == written
    assert "match_end_value" not in written_ruleset(GAME, rs)


def test_d10_single_round_is_written_alone() -> None:
    rs = resolve_ruleset(GAME, "family-draw-first", {})
    assert not isinstance(rs, Rejected)
    if rs.match_end == "single_round":
        assert written_ruleset(GAME, rs)["match_end"] == "single_round"
    rs = resolve_ruleset(GAME, "pagat-classic", {"match_end": "single_round"})
    assert not isinstance(rs, Rejected) and rs.match_end == "single_round"
    assert written_ruleset(GAME, rs)["match_end"] == "single_round"


@pytest.mark.parametrize("bad", ["fixed_rounds:", "fixed_rounds:x", "rounds:5", "single_round:1", "target:-5"])
def test_d10_a_malformed_form_is_a_typed_rejection_naming_the_parameter(bad: str) -> None:
    r = resolve_ruleset(GAME, "pagat-classic", {"match_end": bad})
    assert isinstance(r, Rejected) and r.code == "invalid_ruleset" and "match_end" in r.detail


def test_d10_the_form_and_a_disagreeing_value_are_refused() -> None:
    r = resolve_ruleset(GAME, "pagat-classic", {"match_end": "target:100", "match_end_value": 50})
    assert isinstance(r, Rejected) and r.code == "invalid_ruleset"


def test_d10_cardgames_zone_rounds_stay_checked_in_the_4_1_form() -> None:
    """D6 through D10: fixed_rounds:N with N in {1, 3, 5} for cardgames-zone."""
    assert not isinstance(resolve_ruleset(GAME, "cardgames-zone", {"match_end": "fixed_rounds:5"}), Rejected)
    r = resolve_ruleset(GAME, "cardgames-zone", {"match_end": "fixed_rounds:4"})
    assert isinstance(r, Rejected) and r.code == "invalid_ruleset"


def test_d10_a_record_gives_and_gets_its_overrides_in_the_4_1_form() -> None:
    from tests.support.bundles import played_match

    bundle = played_match("kings-corner", seed=3, max_moves=5000, overrides={"match_end": "fixed_rounds:1"})[0]
    record = records.record_of_bundle(bundle)
    assert record["overrides"]["match_end"] == "fixed_rounds:1"
    assert "match_end_value" not in record["overrides"]
    answer = records.replay(record)
    assert isinstance(answer, records.Replayed) and answer.finished
