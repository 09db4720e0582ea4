"""The audit never says OK about what it did not check (docs/audit.md "What an audit checks").

Before the server seed is revealed, every decision that draws no chance is still re-decided, every
game move's seat is checked against the rules' turn, and the report names what it could not check;
``gamehall audit`` exits 3 for such a bundle unless ``--allow-unfinished`` is given."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from contracts.codecs import encode
from domain.audit import audit
from services.cli.main import app
from tests.support.bundles import chain, played_match

CARD_GAMES = ("king", "thousand", "kings-corner", "farkle-flip", "kings-cup")


def _running(game: str, seed: int = 1) -> list[tuple[str | None, object, tuple[object, ...]]]:
    """The decisions of a played match without its last one (the end and the seed's reveal)."""
    _, decisions = played_match(game, seed=seed)
    return list(decisions[:-1])


@pytest.mark.parametrize("game", CARD_GAMES)
def test_a_running_card_match_is_re_decided_except_the_draws(game: str) -> None:
    decisions = _running(game)
    report = audit(chain("m-running", game, decisions))
    assert report.ok, report.problems
    assert report.need_seed > 0 and report.unknown_state == 0
    assert report.redecided + report.need_seed == len(decisions)
    assert not report.finished
    assert any("draw chance" in u for u in report.unchecked)
    assert any("a certificate" in u for u in report.unchecked)


def test_two_swapped_moves_of_a_running_match_are_caught() -> None:
    """A King bundle cut before its end: two consecutive moves of different seats swapped and the
    chain rebuilt is a seat moving out of turn, not an OK."""
    game = "king"
    decisions = _running(game)
    k = next(
        i
        for i in range(len(decisions) // 2, len(decisions) - 1)
        if decisions[i][0] != decisions[i + 1][0] and None not in (decisions[i][0], decisions[i + 1][0])
    )
    decisions[k], decisions[k + 1] = decisions[k + 1], decisions[k]
    report = audit(chain("m-swapped", game, decisions))
    assert not report.ok
    assert any(f"envelope #{k + 1}" in p and "out of turn" in p for p in report.problems), report.problems


def test_after_a_sealed_decision_that_cannot_be_opened_only_turns_are_checked() -> None:
    _, decisions = played_match("king", sealed=True)
    cut = chain("m-sealed", "king", list(decisions[:-1]), seal_key=b"k" * 32)
    report = audit(cut)
    assert report.ok, report.problems
    assert report.unknown_state > 0 and report.turns_checked > 0
    assert any("sealed decision" in u for u in report.unchecked)


def test_a_finished_uncertified_match_names_the_missing_certificate_only() -> None:
    bundle, _ = played_match("kings-corner")
    report = audit(bundle)
    assert report.ok and report.finished
    assert report.unchecked == ("a certificate (the bundle carries none)",)
    assert any("every draw" in c for c in report.checked)


def _audit_cli(path: Path, *flags: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["audit", "--file", str(path), *flags])
    return result.exit_code, result.stdout


def test_the_command_exits_3_for_what_it_could_not_check_unless_allowed(tmp_path: Path) -> None:
    path = tmp_path / "running.json"
    path.write_bytes(encode(chain("m-running", "king", _running("king"))))
    code, out = _audit_cli(path, "--quiet")
    assert code == 3
    assert "NOT CHECKED: " in out and "draw chance" in out
    code, _ = _audit_cli(path, "--quiet", "--allow-unfinished")
    assert code == 0
    code, out = _audit_cli(path, "--json")
    assert code == 3
    report = json.loads(out)
    assert report["ok"] and report["unchecked"] and report["checked"]
