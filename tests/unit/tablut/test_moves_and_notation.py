"""Rejections in the order of §9.5 (T6), move text (§9.1-§9.2, T3) and position strings (§9.3)."""

from __future__ import annotations

import pytest

from contracts.envelope import Rejected
from contracts.games.tablut import TablutMove
from domain.games.tablut import GAME, PRESETS
from domain.games.tablut.position import START

from .helpers import ALL, CORNER, EDGE, SEATS, at, placed, play, refused


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("e5-e4", "no_piece"),
        ("d1-e2", "not_a_line"),
        ("d1-d1", "not_a_line"),
        ("e2-e3", "occupied"),
        ("d1-d6", "blocked"),
        ("e1-e3", "occupied"),  # the destination is checked before the path
        ("c5-c4", "no_piece"),  # a defender, and the attackers are to move
    ],
)
def test_9_5_the_examples_from_the_start(text: str, code: str) -> None:
    assert refused(at(), text) == code


@pytest.mark.parametrize("preset", ALL)
def test_9_5_a_corner_is_restricted_only_where_the_corners_are_special(preset: str) -> None:
    s = at(preset=preset)
    if preset in CORNER:
        assert refused(s, "d1-a1") == "restricted_square"
    else:
        assert placed(play(s, "d1-a1")).startswith("3ttt3/")


def test_9_5_game_over_comes_first_then_the_turn_then_the_text() -> None:
    s = at()
    assert refused(s, "e2-", seat=SEATS[1]) == "not_your_turn"
    assert refused(s, "e2-") == "bad_notation"
    done = play(at("9/9/7t1/3tKt3/9/9/9/2T6/9 a"), "h7-e7")
    assert refused(done, "c2-c3", seat=SEATS[1]) == "game_over"
    assert refused(done, "zz", seat=SEATS[0]) == "game_over"


@pytest.mark.parametrize("text", ["e2-", "e2e4", "z1-e3", "e2-c2xx", "e2-c2xc", "e2--c2", "e2-c2+++", "", "e10-e2"])
def test_9_2_strict_text_is_bad_notation(text: str) -> None:
    assert refused(at(), text) == "bad_notation"


@pytest.mark.parametrize("text", ["e2-c2", "E2-C2", "e2–c2", " e2-c2 ", "e2-c2+", "e2-c2++"])
def test_9_2_accepted_forms_of_a_move(text: str) -> None:
    """§9.1-§9.2: case-insensitive, the en dash, the + and ++ suffixes ignored."""
    assert placed(play(at(), text)) == placed(play(at(), "e2-c2"))


def test_9_2_a_capture_list_given_must_be_exact() -> None:
    """§9.2, T3: the list is optional; given, it must name exactly what the move takes."""
    s = at("9/9/6K2/9/9/2tT1Tt2/9/9/4t4 a")
    for good in ("e1-e4", "e1-e4xd4xf4", "e1-e4xf4xd4"):
        assert isinstance(GAME.decide(s, SEATS[0], TablutMove(move=good)), tuple)
    for bad in ("e1-e4xd4", "e1-e4xd4xf4xe5", "e1-e4xc4xd4xf4"):
        assert refused(s, bad) == "capture_mismatch"
    assert refused(at(), "d1-c1xd4") == "capture_mismatch"


def test_9_2_the_king_square_is_in_the_capture_list() -> None:
    s = at("9/9/7t1/3tKt3/9/9/9/2T6/9 a")
    assert isinstance(GAME.decide(s, SEATS[0], TablutMove(move="h7-e7xe6")), tuple)
    assert refused(s, "h7-e7xd6") == "capture_mismatch"


def test_t7_the_check_is_on_the_event_of_a_defenders_move() -> None:
    events = GAME.decide(at("9/7t1/9/9/9/9/1tK6/2T6/9 d", "tablut-edge"), SEATS[1], TablutMove(move="c2-d2"))
    assert isinstance(events, tuple)
    assert (events[0].check, events[0].routes) == (True, 3)
    assert GAME.view(play(at("9/7t1/9/9/9/9/1tK6/2T6/9 d", "tablut-edge"), "c2-d2"), None).history == ("c2-d2+",)


def test_9_3_the_start_position_string() -> None:
    assert placed(at()) == START == "3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3 a"
    assert GAME.view(at(), None).position == START


@pytest.mark.parametrize(
    "text",
    [
        "3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3",  # no side
        "3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3 x",
        "3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4 a",  # 8 ranks
        "3ttt4/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3 a",  # 10 squares
        "3ttt2/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3 a",  # 8 squares
        "9/9/9/9/4K4/9/9/9/K8 a",  # two kings
        "9/9/9/9/4T4/9/9/9/4K4 a",  # a defender on the throne
        "9/9/9/9/4t4/9/9/9/4K4 a",
        "t8/9/9/9/9/9/9/9/4K4 a",  # an attacker on a special corner
        "9/9/9/9/9/9/9/9/4Q4 a",
        "1ttttttt1/ttttttttt/t8/9/9/9/9/9/4K4 a",  # 17 attackers
        "9/9/9/9/4K4/9/TTTTTTTTT/9/9 a",  # 9 defenders
    ],
)
def test_9_3_invalid_position_strings_are_refused(text: str) -> None:
    r = GAME.position(PRESETS["tablut-seed"], SEATS, text)
    assert isinstance(r, Rejected) and r.code == "bad_position"


def test_9_3_a_piece_on_a_corner_is_valid_where_corners_are_ordinary() -> None:
    assert not isinstance(GAME.position(PRESETS["tablut-edge"], SEATS, "t8/9/9/9/4K4/9/9/9/9 a"), Rejected)


@pytest.mark.parametrize(
    ("text", "preset", "ranks", "reason"),
    [
        ("9/9/9/9/9/9/9/1t7/9 d", "tablut-seed", (1, 2), "king_captured"),  # no king
        ("K8/9/9/9/9/9/9/1t7/9 a", "tablut-seed", (2, 1), "escape"),
        ("9/9/9/9/9/9/9/1t7/2K6 a", "tablut-edge", (2, 1), "escape"),
        ("9/9/9/9/4K4/9/9/9/9 a", "tablut-seed", (2, 1), "no_moves"),  # the attackers have no piece
        ("9/9/9/9/4K4/9/9/9/9 a", "tablut-linnaeus", (1, 1), "no_moves"),
    ],
)
def test_9_3_a_finished_position_is_decided_at_once(text: str, preset: str, ranks: tuple[int, int], reason: str) -> None:
    out = GAME.outcome(at(text, preset))
    assert out is not None and (out.ranks, out.reason) == (ranks, reason)


@pytest.mark.parametrize("preset", EDGE)
def test_9_3_the_king_on_the_edge_is_an_escape_in_the_edge_presets(preset: str) -> None:
    out = GAME.outcome(at("9/9/9/9/9/9/K8/9/9 d", preset))
    assert out is not None and out.reason == "escape"
