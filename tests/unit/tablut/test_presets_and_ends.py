"""Every parameter of rules/tablut.md §10.1 by what it changes in play, the presets of §10.2, the
order of §8.6, and the checks of a ruleset (T1, T5)."""

from __future__ import annotations

import msgspec
import pytest

from contracts.envelope import Rejected
from contracts.games.tablut import TablutRuleset
from domain import records
from domain.core.match import live_problem, resolve_ruleset
from domain.games.tablut import GAME, PRESETS

from .helpers import SEATS, at, moves, play, refused

REPEAT = ("d1-c1", "c5-c4", "c1-d1", "c4-c5") * 2


def test_10_2_the_presets_set_the_table_values() -> None:
    got = {name: msgspec.to_builtins(rs) for name, rs in PRESETS.items()}
    row = ["escape", "corners", "king_armed", "king_capture", "throne_pass", "king_may_return",
           "throne_empty_hostile", "linnaean_capture", "no_moves", "repetition", "move_cap"]  # fmt: skip
    table = {
        "tablut-seed": ["corner", "special", False, "strong", "all", True, True, False, "loss", "draw3", 200],
        "tablut-edge": ["edge", "none", False, "strong", "all", True, True, False, "loss", "draw3", 200],
        "tablut-armed": ["corner", "special", True, "strong", "all", True, True, False, "loss", "draw3", 200],
        "tablut-weak-king": ["corner", "special", False, "weak", "all", True, True, False, "loss", "draw3", 200],
        "tablut-linnaeus": ["edge", "none", True, "linnaeus", "all", False, True, True, "draw", "draw3", 200],
    }
    assert GAME.default_preset == "tablut-seed"
    for name, values in table.items():
        assert [got[name][k] for k in row] == values
        assert got[name]["first"] == "attackers"


def test_escape_corner_or_edge() -> None:
    s = "9/1T5t1/9/9/9/9/2K6/9/9 d"
    assert GAME.outcome(play(at(s, "tablut-seed"), "c3-c1")) is None
    assert GAME.outcome(play(at(s, "tablut-seed", escape="edge"), "c3-c1")).reason == "escape"  # type: ignore[union-attr]


def test_corners_special_or_none() -> None:
    """With corners=special only the king enters a corner and it is hostile (11.3)."""
    assert refused(at(), "d1-a1") == "restricted_square"
    assert "d1-a1" in moves(at(preset="tablut-seed", escape="edge", corners="none"))
    s = play(at("9/9/9/9/4K3t/2T6/9/9/1t7 d", escape="edge", corners="special"), "c4-c1")
    assert s.board[9 * 0 + 1] == 0  # b1 taken against the corner


def test_king_armed() -> None:
    s = "9/9/2K6/9/2t6/2T6/9/7t1/9 d"
    assert play(at(s), "c7-c6").history[-1].captured == ()
    assert play(at(s, king_armed=True), "c7-c6").history[-1].captured != ()


@pytest.mark.parametrize(("rule", "taken"), [("strong", False), ("weak", True), ("linnaeus", True)])
def test_king_capture_by_two_in_the_open(rule: str, taken: bool) -> None:
    s = play(at("9/9/9/9/9/2tK3t1/9/9/4T4 a", king_capture=rule), "h4-e4")
    assert (GAME.outcome(s) is not None) == taken


def test_king_capture_linnaeus_beside_the_throne_needs_three() -> None:
    """§7.3: beside the throne three attackers, whatever throne_empty_hostile says; weak takes him by two."""
    two = "9/9/9/3tK3t/9/9/9/2T6/9 a"
    assert GAME.outcome(play(at(two, king_capture="linnaeus"), "i6-f6")) is None
    assert GAME.outcome(play(at(two, king_capture="weak"), "i6-f6")) is not None
    three = "9/9/7t1/3tKt3/9/9/9/2T6/9 a"
    assert GAME.outcome(play(at(three, king_capture="linnaeus", throne_empty_hostile=False), "h7-e7")) is not None
    assert GAME.outcome(play(at(three, king_capture="strong", throne_empty_hostile=False), "h7-e7")) is None


def test_throne_pass() -> None:
    s = "9/2t6/4T4/9/2K4t1/9/9/4t4/9 d"
    assert "c5-f5" in moves(at(s))
    assert refused(at(s, throne_pass="none"), "c5-f5") == "restricted_square"


def test_king_may_return() -> None:
    s = "9/2t6/4T4/9/2K4t1/9/9/4t4/9 d"
    assert "c5-e5" in moves(at(s))
    assert refused(at(s, king_may_return=False), "c5-e5") == "restricted_square"


def test_throne_empty_hostile() -> None:
    s = "9/9/2T3K2/9/3t5/9/9/7t1/9 d"
    assert play(at(s), "c7-c5").history[-1].captured != ()
    assert play(at(s, throne_empty_hostile=False), "c7-c5").history[-1].captured == ()


def test_linnaean_capture() -> None:
    s = "4t4/9/9/4T4/3tKt3/4t4/9/9/9 a"
    assert play(at(s), "e9-e7").history[-1].captured == ()
    assert play(at(s, linnaean_capture=True), "e9-e7").history[-1].captured != ()


@pytest.mark.parametrize(("value", "ranks"), [("loss", (1, 2)), ("draw", (1, 1))])
def test_no_moves(value: str, ranks: tuple[int, int]) -> None:
    out = GAME.outcome(play(at("9/9/9/9/9/4t4/9/1ttt5/1TKT5 a", no_moves=value), "e4-e1"))
    assert out is not None and out.ranks == ranks and out.reason == "no_moves"


@pytest.mark.parametrize(("value", "ranks"), [("draw3", (1, 1)), ("loss3", (1, 2)), ("off", None)])
def test_repetition(value: str, ranks: tuple[int, int] | None) -> None:
    s = play(at(repetition=value), *REPEAT)
    out = GAME.outcome(s)
    assert (out.ranks if out else None) == ranks
    if value == "off":
        assert GAME.outcome(play(s, *REPEAT)) is None


def test_repetition_counts_positions_anywhere_in_the_game() -> None:
    """§8.4: the third occurrence anywhere, not necessarily in a row, with the same side to move."""
    s = play(at(), "d1-c1", "c5-c4", "c1-d1", "c4-c5")
    assert GAME.view(s, None).repetition == 2
    s = play(s, "f1-g1", "g5-g4", "g1-f1", "g4-g5")
    assert GAME.outcome(s) is not None and GAME.outcome(s).reason == "repetition"  # type: ignore[union-attr]


@pytest.mark.parametrize("cap", [1, 2, 5])
def test_move_cap_counts_the_defenders_moves(cap: int) -> None:
    s = at(move_cap=cap)
    shuttle = [("d1-c1", "c5-c4"), ("c1-b1", "c4-c3"), ("b1-c1", "c3-c2"), ("c1-b1", "c2-c3"), ("b1-c1", "c3-c4")]
    for i in range(cap):
        assert GAME.outcome(s) is None
        s = play(s, shuttle[i][0])
        assert GAME.outcome(s) is None  # never after an attackers' move
        s = play(s, shuttle[i][1])
    out = GAME.outcome(s)
    assert out is not None and out.reason == "move_cap" and out.draw


def test_8_6_escape_comes_before_the_move_cap() -> None:
    s = play(at("9/1T5t1/9/9/9/9/K8/9/9 d", move_cap=1), "a3-a1")
    assert GAME.outcome(s).reason == "escape"  # type: ignore[union-attr]


def test_8_6_no_moves_comes_before_repetition_and_the_cap() -> None:
    s = play(at("9/9/9/9/9/4t4/9/1ttt5/1TKT5 a", move_cap=1), "e4-e1")
    assert GAME.outcome(s).reason == "no_moves"  # type: ignore[union-attr]


def test_t1_escape_corner_needs_special_corners() -> None:
    assert GAME.validate(TablutRuleset(corners="none"), 2) is not None
    assert all(GAME.validate(rs, 2) is None for rs in PRESETS.values())
    r = resolve_ruleset(GAME, "tablut-seed", {"corners": "none"})
    assert isinstance(r, Rejected) and r.code == "invalid_ruleset"
    assert isinstance(resolve_ruleset(GAME, "tablut-seed", {"king_capture": "soft"}), Rejected)
    assert isinstance(resolve_ruleset(GAME, "tablut-seed", {"move_cap": -1}), Rejected)
    assert isinstance(resolve_ruleset(GAME, "tablut-seed", {"first": "defenders"}), Rejected)


def test_t5_a_live_match_needs_a_move_cap_but_a_replay_may_do_without() -> None:
    rs = resolve_ruleset(GAME, "tablut-seed", {"move_cap": 0})
    assert not isinstance(rs, Rejected)
    r = live_problem(GAME, rs)
    assert r is not None and r.code == "invalid_ruleset"
    assert live_problem(GAME, PRESETS["tablut-seed"]) is None
    record = {
        "format": "gamehall-record/1",
        "game": "tablut",
        "preset": "tablut-seed",
        "players": ["ann", "bob"],
        "overrides": {"move_cap": 0},
        "actions": [["move", 0, "d1-c1"], ["move", 1, "c5-c4"]],
    }
    answer = records.replay(record)
    assert isinstance(answer, records.Replayed) and not answer.finished


def test_9_4_records_give_ranks_and_reason() -> None:
    base = {"format": "gamehall-record/1", "game": "tablut", "preset": "tablut-seed", "players": ["ann", "bob"]}
    moves8 = [["move", i % 2, m] for i, m in enumerate(REPEAT)]
    drawn = records.replay({**base, "actions": moves8})
    assert isinstance(drawn, records.Replayed)
    assert (drawn.finished, drawn.ranks, drawn.reason, drawn.deals) == (True, (1, 1), "repetition", ())
    resigned = records.replay({**base, "actions": [["move", 0, "d1-c1"], ["resign", 1]]})
    assert isinstance(resigned, records.Replayed) and resigned.ranks == (1, 2) and resigned.reason == "resign"
    bad = records.replay({**base, "actions": [["move", 0, "d1-d6"]]})
    assert not isinstance(bad, records.Replayed)


def test_seats_are_attackers_then_defenders() -> None:
    assert GAME.seat_names(2) == SEATS
    assert GAME.to_move(at()) == frozenset({"attackers"})
