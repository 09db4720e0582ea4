"""Preset aliases (1000's Decision T16 in rules/thousand-and-farkle-flip.md, records.md R3): the
names of §2.20, ``CLASSIC``, ``ONLINE``, ``SIMPLE``, stand for ``classic``, ``online``,
``simple`` wherever a preset is named, and what is stored and exported is the lower-case name."""

from __future__ import annotations

import msgspec
import pytest
from typer.testing import CliRunner

from contracts.match import CreateMatch, MatchCreated
from domain import records
from domain.core import match as match_layer
from domain.core.rng import commitment
from domain.games import registry
from services.cli.rules import rules_app
from tests.support.bundles import played_match

THOUSAND = registry.GAMES["thousand"]
T16 = {"CLASSIC": "classic", "ONLINE": "online", "SIMPLE": "simple"}


@pytest.mark.parametrize(("alias", "name"), sorted(T16.items()))
def test_t16_an_alias_resolves_to_its_preset(alias: str, name: str) -> None:
    assert THOUSAND.canonical_preset(alias) == name
    assert match_layer.resolve_ruleset(THOUSAND, alias, {}, 3) == match_layer.resolve_ruleset(THOUSAND, name, {}, 3)


def test_t16_a_match_created_under_an_alias_records_the_preset_name() -> None:
    seats = THOUSAND.seat_names(3)
    ruleset = match_layer.resolve_ruleset(THOUSAND, "ONLINE", {}, 3)
    created = match_layer.decide(
        THOUSAND,
        None,
        None,
        CreateMatch(
            preset="ONLINE",
            ruleset=msgspec.to_builtins(ruleset),
            seats=seats,
            players=seats,
            token_hashes=tuple("0" * 64 for _ in seats),
            seed_commitment=commitment(bytes(32)),
        ),
    )
    assert isinstance(created[0], MatchCreated) and created[0].preset == "online"


def test_t16_a_record_naming_an_alias_replays_like_the_preset() -> None:
    _, decisions = played_match("thousand", seed=2, max_moves=300)
    record = records.to_record(decisions)
    assert record["preset"] == "classic"
    aliased = records.replay(dict(record, preset="CLASSIC"))
    assert isinstance(aliased, records.Replayed) and aliased == records.replay(record)


def test_t16_the_command_line_takes_an_alias_and_refuses_a_name_that_is_none() -> None:
    shown = CliRunner().invoke(rules_app, ["show", "thousand", "--preset", "SIMPLE"])
    assert shown.exit_code == 0, shown.output
    plain = CliRunner().invoke(rules_app, ["show", "thousand", "--preset", "simple"])
    assert shown.stdout == plain.stdout
    refused = CliRunner().invoke(rules_app, ["show", "thousand", "--preset", "Classic"])
    assert refused.exit_code == 2 and "no preset 'Classic'" in refused.stderr
