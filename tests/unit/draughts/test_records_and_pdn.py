"""Records (rules/records.md R5, rules/draughts.md §9.4) and PDN (§9): finished games export and
replay to their result; PDN written by other programs is read."""

from __future__ import annotations

import pytest

from domain import records
from domain.games.draughts.pdn import read, write
from tests.support.bundles import played_match


@pytest.mark.parametrize("seed", range(1, 5))
def test_a_finished_game_round_trips_through_pdn(seed: int) -> None:
    record = records.record_of_bundle(played_match("draughts", seed=seed, max_moves=3000)[0])
    text = write(record)
    assert '[GameType "25"]' in text
    back = read(text)
    answer = records.replay(back)
    assert isinstance(answer, records.Replayed) and answer.finished
    assert answer == records.replay(record)


def test_pdn_from_another_program_is_read() -> None:
    """§9.2: move numbers, x and -, numeric squares, comments, variations, glyphs skipped."""
    text = """[Event "club"]
[White "ann"]
[Black "bob"]
[Result "*"]
[GameType "25"]

1. 22-18 {a comment} 11-15! 2. 18x11 (2. 23-19 8-11) 8x15 3. e3-d4 *
"""
    record = read(text)
    assert record["actions"][:4] == [
        ["move", 0, "22-18"],
        ["move", 1, "11-15"],
        ["move", 0, "18x11"],
        ["move", 1, "8x15"],
    ]
    answer = records.replay(record)
    assert isinstance(answer, records.Replayed) and not answer.finished


def test_a_set_position_goes_in_the_fen_tag() -> None:
    """§9.4, D12: start_fen is the FEN tag; Black to move starts with 1... ."""
    record = {
        "format": "gamehall-record/1",
        "game": "draughts",
        "preset": "russian",
        "players": ["ann", "bob"],
        "overrides": {"start_fen": "B:Wa1,Kh8:Bb2,e3,h6"},
        "actions": [["move", 1, "b2-c1"]],
    }
    text = write(record)
    assert '[FEN "B:Wa1,Kh8:Bb2,e3,h6"]' in text and "1... 25-30" in text
    back = read(text)
    assert back["overrides"]["start_fen"] == "B:Wa1,Kh8:Bb2,e3,h6"
    assert isinstance(records.replay(back), records.Replayed)


def test_9_4_result_reasons_of_the_match_layer_under_the_names_of_the_rules() -> None:
    """§9.4: a resignation replays to reason ``resign``, a draw by agreement to ``agreement``."""
    base = {"format": "gamehall-record/1", "game": "draughts", "preset": "russian", "players": ["ann", "bob"]}
    resigned = records.replay({**base, "actions": [["move", 0, "c3-d4"], ["resign", 1]]})
    assert isinstance(resigned, records.Replayed) and (resigned.ranks, resigned.reason) == ((1, 2), "resign")
    agreed = records.replay({**base, "actions": [["offer_draw", 0], ["accept_draw", 1]]})
    assert isinstance(agreed, records.Replayed) and (agreed.ranks, agreed.reason) == ((1, 1), "agreement")
    no_offer = records.replay({**base, "actions": [["accept_draw", 1]]})
    assert not isinstance(no_offer, records.Replayed)
