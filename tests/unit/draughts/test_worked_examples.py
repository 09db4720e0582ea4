"""The worked examples of rules/draughts.md §10, each listing all legal moves (canonical text)."""

from __future__ import annotations

import pytest

from .helpers import at, moves, play, refused


def test_e1_the_initial_position() -> None:
    """§10.1 E1: seven moves from the start."""
    assert sorted(moves(at())) == sorted(["a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"])


def test_e2_capture_is_compulsory_with_free_choice() -> None:
    """§10.2 E2 (§5.2, §5.4 b): one piece or two, the player chooses; quiet moves are illegal."""
    s = at("W:Wa3,c1,h2:Bb4,e5,g3")
    assert sorted(moves(s)) == ["a3:c5", "h2:f4:d6"]
    assert refused(s, "c1-b2") == "illegal_move"


def test_e2b_brazilian_takes_the_most() -> None:
    """§10.2 E2b (§8 capture_choice = majority): only h2:f4:d6."""
    assert moves(at("W:Wa3,c1,h2:Bb4,e5,g3", "brazilian")) == ["h2:f4:d6"]


def test_e3_a_man_captures_backwards() -> None:
    """§10.3 E3 (§5.3): e5:c3 is the one move."""
    assert moves(at("W:We5,a1:Bd4,b6,h8")) == ["e5:c3"]


def test_e4_promotion_in_the_middle_of_a_capture() -> None:
    """§10.4 E4 (§5.4 c): the man crowned on d8 goes on as a king."""
    assert sorted(moves(at("W:Wb6,a1:Bc7,f6,h2"))) == ["b6:d8:g5", "b6:d8:h4"]


def test_e4b_brazilian_crowns_only_at_the_end() -> None:
    """§10.4 E4b, Q13: the man stays a man on d8; the move is b6:d8, and it is crowned."""
    s = at("W:Wb6,a1:Bc7,f6,h2", "brazilian")
    assert moves(s) == ["b6:d8"]
    assert play(s, "b6:d8").pos.kings[0].bit_count() == 1


def test_e5_a_flying_king_with_several_landing_squares() -> None:
    """§10.5 E5 (§5.5): no landing square continues, so all four are legal."""
    assert sorted(moves(at("W:WKa1:Bd4,h6"))) == ["a1:e5", "a1:f6", "a1:g7", "a1:h8"]


def test_e6_the_king_must_land_where_its_capture_continues() -> None:
    """§10.6 E6 (§5.5, D3)."""
    s = at("W:WKa1:Bc3,f4,h6")
    assert sorted(moves(s)) == ["a1:e5:g3", "a1:e5:h2"]
    assert refused(s, "a1:d4") == "illegal_move"


def test_e7_the_turkish_strike() -> None:
    """§10.7 E7 (§5.4 d, D4): dead pieces block; h8:c3:a5:e1 is not legal."""
    s = at("W:WKh8:Bg7,b4,d2")
    assert sorted(moves(s)) == ["h8:c3:a5", "h8:c3:e1"]
    assert refused(s, "h8:c3:a5:e1") == "illegal_move"


def test_e8_one_move_several_paths() -> None:
    """§10.8 E8 (§5.7, D1): four paths, two moves; every text of the first plays it."""
    s = at("W:WKa1:Bc3,f6,h4")
    assert sorted(moves(s)) == ["a1:d4:g7", "a1:d4:h8"]
    for text in ("a1:g7", "a1xg7", "29x8", "a1:e5:g7"):
        after = play(s, text)
        assert after.history[-1].path == (28, 17, 7), text  # recorded under the canonical path


def test_e9_a_ring_capture_back_to_the_starting_square() -> None:
    """§10.9 E9 (§5.4 e): c3:a5:c7:e5:c3, one move for both orders."""
    assert moves(at("W:Wc3,h2:Bb4,b6,d6,d4,h8")) == ["c3:a5:c7:e5:c3"]


def test_e10_king_quiet_moves() -> None:
    """§10.10 E10."""
    assert sorted(moves(at("W:WKc1,a3:Bh8"))) == sorted(
        ["a3-b4", "c1-b2", "c1-d2", "c1-e3", "c1-f4", "c1-g5", "c1-h6"]
    )


def test_e11_black_to_move() -> None:
    """§10.11 E11: Black's men move towards rank 1; b2-c1 promotes."""
    s = at("B:Wa1,Kh8:Bb2,e3,h6")
    assert sorted(moves(s)) == ["b2-c1", "e3-d2", "e3-f2", "h6-g5"]
    assert play(s, "b2-c1").pos.kings[1].bit_count() == 1


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("d8:h4", "ambiguous_move"),
        ("d8xh4", "ambiguous_move"),
        ("2x20", "ambiguous_move"),
        ("d8:c3:h4", "illegal_move"),
    ],
)
def test_e12_two_different_captures_between_the_same_squares(text: str, expected: str) -> None:
    """§10.12 E12 (§9.2 short forms)."""
    s = at("W:WKd8:Bc7,c5,b4,g3")
    assert sorted(moves(s)) == ["d8:a5:e1:h4", "d8:b6:f2:h4"]
    assert refused(s, text) == expected


@pytest.mark.parametrize(
    ("text", "captured"), [("d8:b6:h4", 3), ("d8:f2:h4", 3), ("d8:a5:h4", 3), ("2x13x20", 3)]
)
def test_e12_a_short_form_naming_one_move_plays_it(text: str, captured: int) -> None:
    """§10.12 E12: d8:b6:h4 / d8:f2:h4 name the second capture, d8:a5:h4 / 2x13x20 the first."""
    s = at("W:WKd8:Bc7,c5,b4,g3")
    assert len(play(s, text).history[-1].captured) == captured
