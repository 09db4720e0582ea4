"""Every worked example of rules/tablut.md §11, for every preset where its position is valid: the
captures of the last move, the result, the check flag and the position after."""

from __future__ import annotations

from typing import Any

import pytest

from contracts.games.tablut import TablutMove
from domain.games.tablut import GAME

from .helpers import ALL, CORNER, EDGE, SEATS, at, moves, placed, play, refused

ATT = ((1, 2), "king_captured")
ESC = ((2, 1), "escape")
Row = tuple[tuple[str, ...], tuple[str, ...], Any, int | None, str]  # presets, captured, end, routes, after

# (example, position, overrides, moves played, rows)
EXAMPLES: list[tuple[str, str, dict[str, Any], tuple[str, ...], list[Row]]] = [
    ("11.3a corner captures", "9/9/9/9/4K3t/2T6/9/9/1t7 d", {}, ("c4-c1",), [
        (CORNER, ("b1",), None, 0, "9/9/9/9/4K3t/9/9/9/2T6 a"),
        (EDGE, (), None, 3, "9/9/9/9/4K3t/9/9/9/1tT6 a"),
    ]),
    ("11.3b corner hostile to defenders", "9/9/9/t8/4K3t/9/9/T8/9 a", {}, ("a6-a3",), [
        (CORNER, ("a2",), None, None, "9/9/9/9/4K3t/9/t8/9/9 d"),
        (EDGE, (), None, None, "9/9/9/9/4K3t/9/t8/T8/9 d"),
    ]),
    ("11.4a empty throne", "9/9/2T3K2/9/3t5/9/9/7t1/9 d", {}, ("c7-c5",), [
        (CORNER, ("d5",), None, 0, "9/9/6K2/9/2T6/9/9/7t1/9 a"),
        (EDGE, ("d5",), None, 4, "9/9/6K2/9/2T6/9/9/7t1/9 a"),
    ]),
    ("11.4b empty throne against a defender", "9/4t4/6K2/9/9/4T4/7t1/9/9 a", {}, ("h3-e3",), [
        (ALL, ("e4",), None, None, "9/4t4/6K2/9/9/9/4t4/9/9 d"),
    ]),
    ("11.4c occupied throne", "9/4t4/9/9/4K4/4T4/7t1/9/9 a", {}, ("h3-e3",), [
        (ALL, (), None, None, "9/4t4/9/9/4K4/4T4/4t4/9/9 d"),
    ]),
    ("11.5a king beside the throne, three", "9/9/7t1/3tKt3/9/9/9/2T6/9 a", {}, ("h7-e7",), [
        (ALL, ("e6",), ATT, None, "9/9/4t4/3t1t3/9/9/9/2T6/9 d"),
    ]),
    ("11.5b king beside the throne, two", "9/9/9/3tK3t/9/9/9/2T6/9 a", {}, ("i6-f6",), [
        (("tablut-seed", "tablut-edge", "tablut-armed", "tablut-linnaeus"), (), None, None, "9/9/9/3tKt3/9/9/9/2T6/9 d"),
        (("tablut-weak-king",), ("e6",), ATT, None, "9/9/9/3t1t3/9/9/9/2T6/9 d"),
    ]),
    ("11.6a king on the throne, four", "9/4t4/9/9/3tKt3/4t4/9/2T6/9 a", {}, ("e8-e6",), [
        (ALL, ("e5",), ATT, None, "9/9/9/4t4/3t1t3/4t4/9/2T6/9 d"),
    ]),
    ("11.6b king on the throne, two", "9/9/9/9/3tK3t/9/9/2T6/9 a", {}, ("i5-f5",), [
        (("tablut-seed", "tablut-edge", "tablut-armed", "tablut-linnaeus"), (), None, None, "9/9/9/9/3tKt3/9/9/2T6/9 d"),
        (("tablut-weak-king",), ("e5",), ATT, None, "9/9/9/9/3t1t3/9/9/2T6/9 d"),
    ]),
    ("11.7a king on the edge, three", "9/9/6T2/9/9/2t6/9/9/1tKt5 a", {}, ("c4-c2",), [
        (("tablut-seed", "tablut-armed"), ("c1",), ATT, None, "9/9/6T2/9/9/9/9/2t6/1t1t5 d"),
        (("tablut-weak-king",), (), None, None, "9/9/6T2/9/9/9/9/2t6/1tKt5 d"),
    ]),
    ("11.7b king beside a corner, two", "9/9/6T2/9/9/1t7/9/9/1Kt6 a", {}, ("b4-b2",), [
        (("tablut-seed", "tablut-armed"), ("b1",), ATT, None, "9/9/6T2/9/9/9/9/1t7/2t6 d"),
        (("tablut-weak-king",), (), None, None, "9/9/6T2/9/9/9/9/1t7/1Kt6 d"),
    ]),
    ("11.7c weak king against a corner", "9/9/6T2/9/2t6/9/9/9/1K7 a", {}, ("c5-c1",), [
        (("tablut-seed", "tablut-armed"), (), None, None, "9/9/6T2/9/9/9/9/9/1Kt6 d"),
        (("tablut-weak-king",), ("b1",), ATT, None, "9/9/6T2/9/9/9/9/9/2t6 d"),
    ]),
    ("11.8a two at once", "9/9/6K2/9/9/2tT1Tt2/9/9/4t4 a", {}, ("e1-e4",), [
        (ALL, ("d4", "f4"), None, None, "9/9/6K2/9/9/2t1t1t2/9/9/9 d"),
    ]),
    ("11.8b three at once", "2t6/2T6/tT1Tt4/9/6K2/9/9/2t6/9 a", {}, ("c2-c7",), [
        (ALL, ("b7", "c8", "d7"), None, None, "2t6/9/t1t1t4/9/6K2/9/9/9/9 d"),
    ]),
    ("11.9a into a sandwich", "9/3T5/9/6K2/9/2t1t4/9/7t1/9 d", {}, ("d8-d4", "h2-h3"), [
        (ALL, (), None, None, "9/9/9/6K2/9/2tTt4/7t1/9/9 d"),
    ]),
    ("11.9b the king into a surround", "9/1T7/4t4/3t1t3/4K4/9/9/7t1/9 d", {}, ("e5-e6", "h2-h3"), [
        (ALL, (), None, None, "9/1T7/4t4/3tKt3/9/9/7t1/9/9 d"),
    ]),
    ("11.10a armed king as hammer", "9/9/2K6/9/2t6/2T6/9/7t1/9 d", {}, ("c7-c6",), [
        (("tablut-seed", "tablut-weak-king"), (), None, 0, "9/9/9/2K6/2t6/2T6/9/7t1/9 a"),
        (("tablut-edge",), (), None, 3, "9/9/9/2K6/2t6/2T6/9/7t1/9 a"),
        (("tablut-armed",), ("c5",), None, 0, "9/9/9/2K6/9/2T6/9/7t1/9 a"),
        (("tablut-linnaeus",), ("c5",), None, 3, "9/9/9/2K6/9/2T6/9/7t1/9 a"),
    ]),
    ("11.10b armed king as anvil", "9/9/9/2K6/2t6/5T3/9/7t1/9 d", {}, ("f4-c4",), [
        (("tablut-seed", "tablut-weak-king"), (), None, 0, "9/9/9/2K6/2t6/2T6/9/7t1/9 a"),
        (("tablut-edge",), (), None, 3, "9/9/9/2K6/2t6/2T6/9/7t1/9 a"),
        (("tablut-armed",), ("c5",), None, 0, "9/9/9/2K6/9/2T6/9/7t1/9 a"),
        (("tablut-linnaeus",), ("c5",), None, 3, "9/9/9/2K6/9/2T6/9/7t1/9 a"),
    ]),
    ("11.11a Linnaean capture", "4t4/9/9/4T4/3tKt3/4t4/9/9/9 a", {}, ("e9-e7",), [
        (CORNER + ("tablut-edge",), (), None, None, "9/9/4t4/4T4/3tKt3/4t4/9/9/9 d"),
        (("tablut-linnaeus",), ("e6",), None, None, "9/9/4t4/9/3tKt3/4t4/9/9/9 d"),
    ]),
    ("11.11b no Linnaean capture with two", "4t4/9/9/4T4/3tK4/4t4/9/9/9 a", {}, ("e9-e7",), [
        (ALL, (), None, None, "9/9/4t4/4T4/3tK4/4t4/9/9/9 d"),
    ]),
    ("11.12a escape to the edge", "9/1T5t1/9/9/9/9/2K6/9/9 d", {}, ("c3-c1",), [
        (CORNER, (), None, 2, "9/1T5t1/9/9/9/9/9/9/2K6 a"),
        (EDGE, (), ESC, 0, "9/1T5t1/9/9/9/9/9/9/2K6 a"),
    ]),
    ("11.12b escape to a corner", "9/1T5t1/9/9/9/9/K8/9/9 d", {}, ("a3-a1",), [
        (CORNER, (), ESC, 0, "9/1T5t1/9/9/9/9/9/9/K8 a"),
    ]),
    ("11.13a check at the edge", "9/7t1/9/9/9/9/1tK6/2T6/9 d", {}, ("c2-d2",), [
        (CORNER, (), None, 0, "9/7t1/9/9/9/9/1tK6/3T5/9 a"),
        (EDGE, (), None, 3, "9/7t1/9/9/9/9/1tK6/3T5/9 a"),
    ]),
    ("11.13b check at a corner", "9/7t1/9/t8/9/9/K8/T8/9 d", {}, ("a2-b2",), [
        (CORNER, (), None, 1, "9/7t1/9/t8/9/9/K8/1T7/9 a"),
    ]),
    ("11.14a no legal move", "9/9/9/9/9/4t4/9/1ttt5/1TKT5 a", {}, ("e4-e1",), [
        (CORNER, (), ((1, 2), "no_moves"), None, "9/9/9/9/9/9/9/1ttt5/1TKTt4 d"),
    ]),
    ("11.14b no legal move, no_moves=draw", "9/9/9/9/9/4t4/9/1ttt5/1TKT5 a", {"no_moves": "draw"}, ("e4-e1",), [
        (("tablut-seed",), (), ((1, 1), "no_moves"), None, "9/9/9/9/9/9/9/1ttt5/1TKTt4 d"),
    ]),
    ("11.15a threefold repetition", "3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3 a", {},
     ("d1-c1", "c5-c4", "c1-d1", "c4-c5", "d1-c1", "c5-c4", "c1-d1", "c4-c5"), [
        (ALL, (), ((1, 1), "repetition"), 0, "3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3 a"),
    ]),
    ("11.15b repetition=loss3", "3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3 a", {"repetition": "loss3"},
     ("d1-c1", "c5-c4", "c1-d1", "c4-c5", "d1-c1", "c5-c4", "c1-d1", "c4-c5"), [
        (("tablut-seed",), (), ((1, 2), "repetition"), 0, "3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3 a"),
    ]),
    ("11.16 the move cap", "3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3 a", {"move_cap": 1},
     ("d1-c1", "c5-c4"), [
        (("tablut-seed",), (), ((1, 1), "move_cap"), 0, "3ttt3/4t4/4T4/t3T3t/tt1TKTTtt/t1T1T3t/4T4/4t4/2t1tt3 a"),
    ]),
]  # fmt: skip

CASES = [
    pytest.param(position, overrides, played, preset, row, id=f"{name}-{preset}")
    for name, position, overrides, played, rows in EXAMPLES
    for row in rows
    for preset in row[0]
]


@pytest.mark.parametrize(("position", "overrides", "played", "preset", "row"), CASES)
def test_11_worked_example(position: str, overrides: dict[str, Any], played: tuple[str, ...], preset: str, row: Row) -> None:
    _, captured, end, routes, after = row
    state = play(at(position, preset, **overrides), *played)
    last = state.history[-1]
    from domain.games.tablut.board import NAMES

    assert tuple(NAMES[q] for q in last.captured) == captured
    out = GAME.outcome(state)
    if end is None:
        assert out is None
    else:
        assert out is not None and (out.ranks, out.reason) == end
        assert out.draw == (end[0] == (1, 1))
    if routes is not None:
        assert (last.check, last.routes) == (routes > 0, routes)
    else:
        assert not last.check
    assert placed(state) == after


START_72 = (
    "a4-a2 a4-a3 a4-b4 a4-c4 a4-d4 a6-a7 a6-a8 a6-b6 a6-c6 a6-d6 b5-b1 b5-b2 b5-b3 b5-b4 b5-b6 b5-b7 b5-b8 "
    "b5-b9 d1-b1 d1-c1 d1-d2 d1-d3 d1-d4 d9-b9 d9-c9 d9-d6 d9-d7 d9-d8 e2-a2 e2-b2 e2-c2 e2-d2 e2-f2 e2-g2 "
    "e2-h2 e2-i2 e8-a8 e8-b8 e8-c8 e8-d8 e8-f8 e8-g8 e8-h8 e8-i8 f1-f2 f1-f3 f1-f4 f1-g1 f1-h1 f9-f6 f9-f7 "
    "f9-f8 f9-g9 f9-h9 h5-h1 h5-h2 h5-h3 h5-h4 h5-h6 h5-h7 h5-h8 h5-h9 i4-f4 i4-g4 i4-h4 i4-i2 i4-i3 i6-f6 "
    "i6-g6 i6-h6 i6-i7 i6-i8"
).split()
CORNER_MOVES = "a4-a1 a6-a9 d1-a1 d9-a9 f1-i1 f9-i9 i4-i1 i6-i9".split()


@pytest.mark.parametrize("preset", ALL)
def test_11_1_every_legal_first_move(preset: str) -> None:
    want = sorted(START_72 + (CORNER_MOVES if preset in EDGE else []))
    assert moves(at(preset=preset)) == want
    assert len(want) == (80 if preset in EDGE else 72)


THRONE_25 = (
    "c5-a5 c5-b5 c5-c1 c5-c2 c5-c3 c5-c4 c5-c6 c5-c7 c5-d5 c5-e5 c5-f5 c5-g5 e7-a7 e7-b7 e7-c7 e7-d7 e7-e3 "
    "e7-e4 e7-e6 e7-e8 e7-e9 e7-f7 e7-g7 e7-h7 e7-i7"
).split()
THRONE_21 = (
    "c5-a5 c5-b5 c5-c1 c5-c2 c5-c3 c5-c4 c5-c6 c5-c7 c5-d5 c5-e5 e7-a7 e7-b7 e7-c7 e7-d7 e7-e6 e7-e8 e7-e9 "
    "e7-f7 e7-g7 e7-h7 e7-i7"
).split()
THRONE = "9/2t6/4T4/9/2K4t1/9/9/4t4/9 d"


@pytest.mark.parametrize("preset", ALL)
def test_11_2_the_throne_king_may_return_and_everybody_crosses_it(preset: str) -> None:
    """M3, M4: the king steps back onto e5 and crosses it; e7 crosses it but may not stop on it;
    tablut-linnaeus (king_may_return=false): nobody stops on it."""
    want = [m for m in THRONE_25 if not (preset == "tablut-linnaeus" and m == "c5-e5")]
    assert moves(at(THRONE, preset)) == sorted(want)
    assert refused(at(THRONE, preset), "e7-e5") == "restricted_square"
    if preset == "tablut-linnaeus":
        assert refused(at(THRONE, preset), "c5-e5") == "restricted_square"


def test_11_2_throne_pass_none_nobody_crosses() -> None:
    """M4 with throne_pass=none: 21 moves; crossing e5 is restricted_square."""
    s = at(THRONE, "tablut-seed", throne_pass="none")
    assert moves(s) == sorted(THRONE_21)
    assert refused(s, "c5-f5") == "restricted_square"
    assert refused(s, "e7-e3") == "restricted_square"


@pytest.mark.parametrize("preset", ALL)
def test_11_17_an_attacker_may_not_stop_on_the_throne(preset: str) -> None:
    assert refused(at("9/4t4/2T3K2/9/9/9/9/7t1/9 a", preset), "e8-e5") == "restricted_square"


def test_11_3_the_capture_list_is_written_on_the_move() -> None:
    """§9.2, T3: the referee writes the captured squares in name order, the king's too; the
    legal commands carry them."""
    s = at("9/9/6K2/9/9/2tT1Tt2/9/9/4t4 a")
    assert "e1-e4xd4xf4" in [c.move for c in GAME.legal_commands(s, SEATS[0])]
    after = play(at("9/9/7t1/3tKt3/9/9/9/2T6/9 a"), "h7-e7")
    assert GAME.view(after, None).history == ("h7-e7xe6++",)
    assert isinstance(GAME.decide(s, SEATS[0], TablutMove(move="e1-e4xf4xd4")), tuple)
