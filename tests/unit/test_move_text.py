"""PGN-family move text (domain/core/movetext.py) through Ugolki's PGN notation: every record
round-trips, the syntax other programs write is read (move numbers, comments, variations, glyphs,
annotation symbols), and a malformed text is refused naming what is wrong."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from contracts.match import Resign
from domain import records
from domain.games.ugolki.pgn import read, write
from services.cli.rules import rules_app
from tests.support.bundles import played_match


@pytest.mark.parametrize("seed", range(1, 6))
def test_a_finished_record_round_trips_and_replays_to_its_result(seed: int) -> None:
    record = records.record_of_bundle(played_match("ugolki", seed=seed)[0])
    text = write(record)
    assert read(text) == record
    answer = records.replay(read(text))
    assert isinstance(answer, records.Replayed) and answer.finished


def test_a_resignation_is_a_gamehall_comment_and_the_result_a_tag() -> None:
    bundle, _ = played_match("ugolki", seed=2, first=[("white", _opening()), ("black", Resign())])
    record = records.record_of_bundle(bundle)
    text = write(record)
    assert (
        "{gamehall: resign black}" in text
        and '[Result "1-0"]' in text
        and '[Termination "resignation"]' in text
    )
    assert read(text) == record


def _opening() -> object:
    from contracts.games.ugolki import MovePiece

    return MovePiece(path=("f1", "f3"))


def test_what_other_programs_write_is_read() -> None:
    text = """[Event "club"]
[White "ann"]
[Black "bob"]
[Result "*"]
[Preset "halma-8x8-1234"]

{opening comment} 1. f1-f3! $1 c7-d7?! (1... c8-d8 2. g1-g2) ; a line comment
2. h3-h5 2... b6-b5 *
"""
    record = read(text)
    assert record["players"] == ["ann", "bob"]
    assert record["actions"] == [
        ["move", 0, "f1-f3"],
        ["move", 1, "c7-d7"],
        ["move", 0, "h3-h5"],
        ["move", 1, "b6-b5"],
    ]
    assert "result" not in record
    answer = records.replay(record)
    assert isinstance(answer, records.Replayed) and not answer.finished


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ('[Result "*"]\n1. f1-f2 {open', "comment { is not closed"),
        ('[Result "*"]\n1. f1-f2 (1. g1-g2', "variation ( is not closed"),
        ('[Result "*"]\n1. f1-f2 )', "closes none"),
        ('[Result "3-0"]\n1. f1-f2 3-0', "unknown result"),
        ('[Result "1-0"]\n1. f1-f2 0-1', "differs from the Result tag"),
        ('[Result "*"]\n1. f1-f2 * c7-d7', "moves after the result"),
        ('[Result "*"]\n1. f1-f2 {gamehall: fly white}', "unknown gamehall comment"),
    ],
)
def test_a_malformed_text_is_refused_naming_what_is_wrong(text: str, says: str) -> None:
    with pytest.raises(ValueError, match=re.escape(says)):
        read(text)


def test_rules_replay_reads_a_pgn_file_by_its_ending(tmp_path: Path) -> None:
    record = records.record_of_bundle(played_match("ugolki", seed=4)[0])
    path = tmp_path / "game.pgn"
    path.write_text(write(record), encoding="utf-8")
    result = CliRunner().invoke(rules_app, ["replay", str(path), "--json"])
    assert result.exit_code == 0, result.output
    bad = tmp_path / "bad.pgn"
    bad.write_text('[Result "*"]\n1. f1-f2 {x', encoding="utf-8")
    refused = CliRunner().invoke(rules_app, ["replay", str(bad)])
    assert refused.exit_code == 2 and "malformed PGN move text: a comment { is not closed" in refused.stderr
