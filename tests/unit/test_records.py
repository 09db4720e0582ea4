"""Game records (rules/records.md): `gamehall rules replay FILE [--json]` and `export --record`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from contracts.games.kings_corner import RoundDealt
from contracts.match import Resign
from domain import records
from services.cli.rules import rules_app
from tests.support.bundles import played_match

# halma-8x8-1234, TRI10-BR: White h3 jumps h4 to h5, Black a6 jumps a5 to a4, ...
OPENING: list[list[Any]] = [["move", 0, "h3-h5"], ["move", 1, "a6-a4"], ["move", 0, "g3-g4"]]


def ugolki(actions: list[list[Any]], **extra: Any) -> dict[str, Any]:
    return {
        "format": "gamehall-record/1",
        "game": "ugolki",
        "preset": "halma-8x8-1234",
        "players": ["ann", "bob"],
        "actions": actions,
        **extra,
    }


def run(tmp_path: Path, record: Any, *args: str) -> tuple[int, str]:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record) if not isinstance(record, str) else record)
    result = CliRunner().invoke(rules_app, ["replay", str(path), *args])
    return result.exit_code, result.output


def test_a_legal_unfinished_record_answers_ok(tmp_path: Path) -> None:
    """records.md: exit 0 and {ok, finished, deals, totals, ranks} (ugolki: no deals)."""
    code, out = run(tmp_path, ugolki(OPENING), "--json")
    assert code == 0, out
    assert json.loads(out) == {
        "ok": True,
        "finished": False,
        "deals": [],
        "totals": [0, 0],
        "ranks": None,
        "reason": None,
    }


def test_an_illegal_action_names_its_index_and_code(tmp_path: Path) -> None:
    """records.md: exit 1, {ok: false, index, code, detail}, the index 0-based in actions."""
    code, out = run(tmp_path, ugolki([*OPENING, ["move", 1, "a5-a4"]]), "--json")
    assert code == 1
    answer = json.loads(out)
    assert (answer["ok"], answer["index"], answer["code"]) == (False, 3, "occupied")
    assert "a4" in answer["detail"]
    code, out = run(tmp_path, ugolki([["move", 1, "a6-a4"]]), "--json")
    assert code == 1 and json.loads(out)["code"] == "not_your_turn"
    code, out = run(tmp_path, ugolki([["jump", 0, "h3-h5"]]))
    assert code == 1 and "bad_action" in out


@pytest.mark.parametrize(
    ("record", "field"),
    [
        ("not json", "not JSON"),
        ([], "JSON object"),
        (ugolki(OPENING, format="pgn"), "format"),
        ({**ugolki(OPENING), "game": "chess"}, "game"),
        ({**ugolki(OPENING), "preset": "nope"}, "preset"),
        ({**ugolki(OPENING), "players": ["solo"]}, "players"),
        ({**ugolki(OPENING), "overrides": {"board": 16}}, "overrides"),
        ({**ugolki(OPENING), "overrides": {"colour": "red"}}, "overrides"),
        (ugolki([["move", 2, "h3-h5"]]), "actions[0]"),
        (ugolki([*OPENING, "h4-h5"]), "actions[3]"),
    ],
)
def test_a_malformed_record_exits_2_naming_the_field(tmp_path: Path, record: Any, field: str) -> None:
    """records.md: a malformed record: exit 2 with a message naming the field."""
    code, out = run(tmp_path, record, "--json")
    assert code == 2
    assert field in out


def test_seed_notation_with_move_numbers_replays(tmp_path: Path) -> None:
    """D6: a record copied from the seed's pages ("1. h3-h5", "1. … a6-a4") parses."""
    code, out = run(tmp_path, ugolki([["move", 0, "1. h3–h5"], ["move", 1, "1. … а6-а4"]]), "--json")
    assert code == 0, out


def test_the_readable_answer_shows_the_result(tmp_path: Path) -> None:
    bundle, decisions = played_match(game="ugolki", seed=2)
    record = records.record_of_bundle(bundle)
    code, out = run(tmp_path, record)
    assert code == 0, out
    assert out.strip().splitlines()[-1].startswith("finished (")


@pytest.mark.parametrize(("game", "seed"), [("ugolki", 1), ("ugolki", 5), ("kings-corner", 1), ("kings-corner", 3)])
def test_an_exported_record_replays_to_the_live_outcome(tmp_path: Path, game: str, seed: int) -> None:
    """`gamehall export MATCH_ID --record`, then `gamehall rules replay`: the live match's outcome."""
    bundle, decisions = played_match(game=game, seed=seed, max_moves=3000)
    outcome = next(e.outcome for *_, events in decisions for e in events if type(e).__name__ == "MatchEnded")
    record = records.record_of_bundle(bundle)
    assert record["format"] == "gamehall-record/1" and record["game"] == game
    code, out = run(tmp_path, record, "--json")
    assert code == 0, out
    answer = json.loads(out)
    assert answer["finished"] and answer["ranks"] == list(outcome.ranks) and answer["reason"] == outcome.reason
    if game == "kings-corner":
        assert len(answer["deals"]) == len(record["deals"]) >= 1
        assert answer["totals"] == answer["deals"][-1]["totals"]
        assert [sum(col) for col in zip(*(d["points"] for d in answer["deals"]), strict=True)] == answer["totals"]


def test_an_unfinished_match_is_not_exported_as_a_record() -> None:
    """A running card match's record would show hands its seats still hide."""
    bundle, _ = played_match(game="kings-corner", seed=2, max_moves=5)
    with pytest.raises(ValueError, match="not finished"):
        records.record_of_bundle(bundle)


@pytest.mark.parametrize("action", [["move", 0], ["move", 0, 5], ["move", 0, "h3-h5", "x"], ["resign", 0, "now"], ["pass", 0]])
def test_an_unreadable_ugolki_action_is_bad_action(action: list[Any]) -> None:
    """records.md: ugolki actions are ["move", seat, "h3-h5-f5"] (and ["resign", seat])."""
    answer = records.replay(ugolki([action]))
    assert isinstance(answer, records.Illegal) and answer.code == "bad_action" and answer.detail
    assert answer.index == 0


def test_a_resignation_in_a_record_ends_the_game() -> None:
    answer = records.replay(ugolki([*OPENING, ["resign", 1]]))
    assert isinstance(answer, records.Replayed) and answer.finished
    assert answer.ranks == (1, 2) and answer.reason == "resignation"


def test_a_seat_that_resigned_before_a_deal_exports_with_explicit_deals() -> None:
    """records.md R2: a seat left while its table waited for the deal (live play deals it out);
    the export lists every deal as ``["deal"]``, after the resignation, and the record replays to
    the live result (R4's ``result`` agrees)."""
    bundle, decisions = played_match(game="kings-corner", seed=4, max_moves=3000, first=[("p1", Resign())], seat_count=3)
    dealt = next(e for *_, events in decisions for e in events if isinstance(e, RoundDealt))
    assert dealt.hand_sizes[0] == 0  # live play dealt p1 out
    record = records.record_of_bundle(bundle)
    assert record["actions"][0] == ["resign", 0] and ["deal"] in record["actions"]
    assert record["actions"].count(["deal"]) == len(record["deals"])
    answer = records.replay(record)
    assert isinstance(answer, records.Replayed) and answer.finished
    assert [list(answer.ranks or ()), answer.reason] == [record["result"]["ranks"], record["result"]["reason"]]


@pytest.mark.parametrize("seed", [1, 2])
def test_k17_the_compensation_is_in_the_first_deals_points(seed: int) -> None:
    """King K17 (Decisions of 2026-12-02): king-atomic's −4 per seat at the start (§11.1, K10) is
    part of the first deal's points in a record's answer, and the rows add up to the totals."""
    bundle, _ = played_match(game="king", preset="king-atomic", seed=seed, max_moves=5000)
    answer = records.replay(records.record_of_bundle(bundle))
    assert isinstance(answer, records.Replayed) and answer.finished
    sheet = answer.state.game_state.sheet
    assert [d["points"] for d in answer.deals[:1]] == [[p - 4 for p in sheet[0].points]]
    for d, row in zip(answer.deals[1:], sheet[1:], strict=True):
        assert d["points"] == list(row.points)
    assert [sum(col) for col in zip(*(d["points"] for d in answer.deals), strict=True)] == list(answer.totals)
    assert list(answer.totals) == [sum(r.points[i] for r in sheet) - 4 for i in range(len(answer.totals))]
