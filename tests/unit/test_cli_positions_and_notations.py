"""The command line reads a game's position strings and notations from its Decider only
(``Decider.position``, ``Decider.notations``): ``rules perft GAME --fen``, ``export ID --NAME``,
``rules replay FILE.<suffix>`` and ``rules list``.  Each is checked here on a registered game given
a position reader or a notation for the test, so the generic code is pinned apart from any game."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from contracts.envelope import Rejected
from domain import records
from domain.core.decider import Notation
from domain.games import registry
from services.cli.main import app
from services.cli.rules import notation_of_file, rules_app
from tests.support.bundles import played_match


def _run(target: Any, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(target, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_rules_list_names_every_game_with_its_default_preset_and_what_it_can_do() -> None:
    code, out, _ = _run(rules_app, "list")
    assert code == 0
    lines = out.splitlines()
    assert [line.split()[0] for line in lines] == list(registry.GAMES)
    for line, game in zip(lines, registry.GAMES.values(), strict=True):
        assert f"default preset {game.default_preset}" in line
        assert ("perft" in line) == (game.perft is not None)
        for notation in game.notations:
            assert f"--{notation.name}" in line


def test_perft_from_a_position_string_counts_from_the_state_the_game_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    read: list[str] = []

    def position(ruleset: Any, seats: tuple[str, ...], text: str) -> Any:
        read.append(text)
        if text == "bad":
            return Rejected(code="bad_position", detail="no such position")
        return ("from", text)

    def perft(state: Any, depth: int) -> int:
        return 7 * depth if state == ("from", "P") else -1

    ugolki = registry.GAMES["ugolki"]
    monkeypatch.setitem(registry.GAMES, "ugolki", dataclasses.replace(ugolki, position=position, perft=perft))
    code, out, _ = _run(rules_app, "perft", "ugolki", "--fen", "P", "--depth", "2")
    assert code == 0 and out.splitlines() == ["depth 1: 7", "depth 2: 14"]
    code, out, err = _run(rules_app, "perft", "ugolki", "--position", "bad", "--depth", "1")
    assert code == 2 and out == "" and err.strip() == "bad_position: no such position"
    assert read == ["P", "bad"]


def test_perft_from_a_position_is_refused_for_a_game_that_reads_none() -> None:
    having = sorted(name for name, game in registry.GAMES.items() if game.position is not None)
    name = next(n for n, g in registry.GAMES.items() if g.perft is not None and g.position is None)
    code, out, err = _run(rules_app, "perft", name, "--fen", "W:W1:B2", "--depth", "1")
    assert code == 2 and out == ""
    assert err.strip() == f"{name} reads no positions; games that do: {', '.join(having) or 'none'}"


def _toy_notation() -> Notation:
    def read(text: str) -> dict[str, Any]:
        if not text.startswith("TOY "):
            raise ValueError("the text does not start with TOY")
        return json.loads(text[4:])

    return Notation(name="toy", suffix=".toy", title="Toy Notation", write=lambda r: "TOY " + json.dumps(r), read=read)


def test_replay_reads_a_file_by_its_ending_through_the_notation(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    record = records.record_of_bundle(played_match("ugolki")[0])
    notation = _toy_notation()
    ugolki = registry.GAMES["ugolki"]
    monkeypatch.setitem(registry.GAMES, "ugolki", dataclasses.replace(ugolki, notations=(notation,)))
    assert notation_of_file("game.TOY") is notation and notation_of_file("game.json") is None
    good = tmp_path / "game.toy"
    good.write_text(notation.write(record), encoding="utf-8")
    code, out, _ = _run(rules_app, "replay", str(good), "--json")
    assert code == 0 and json.loads(out) == records.replay(record).as_json()
    bad = tmp_path / "bad.toy"
    bad.write_text("{}", encoding="utf-8")
    code, out, err = _run(rules_app, "replay", str(bad))
    assert code == 2 and out == ""
    assert err.strip() == f"{bad}: malformed Toy Notation: the text does not start with TOY"


def test_export_refuses_an_unknown_notation_before_it_looks_for_the_match() -> None:
    known = sorted(n.name for g in registry.GAMES.values() for n in g.notations)
    code, out, err = _run(app, "export", "no-such-match", "--bogus")
    assert code == 2 and out == ""
    assert err.strip() == f"export: unknown option --bogus; notations: {', '.join('--' + n for n in known) or 'none'}"
