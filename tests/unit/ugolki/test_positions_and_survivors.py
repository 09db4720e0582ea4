"""Constructed positions and the corners mutation testing found untested (docs/testing.md)."""

from __future__ import annotations

import re

import pytest

from domain.games.ugolki import GAME
from domain.games.ugolki.state import BLACK, WHITE, initial_state, position, position_key
from tests.unit.ugolki.helpers import at, mv, pos, rules


def test_a_constructed_start_position_is_the_initial_state() -> None:
    """``position`` builds the same state as the game's start (no «вреднюги» binding, White to move)."""
    rs = rules()
    start = initial_state(rs, ("white", "black"))
    geo = start.geo
    white = [geo.names[i] for i in geo.squares(start.white)]
    black = [geo.names[i] for i in geo.squares(start.black)]
    assert position(rs, white, black) == start


def test_a_constructed_position_records_the_side_to_move_in_its_key() -> None:
    """§6.5: the repetition key holds the side to move; Black is to move when White is one ahead."""
    rs = rules()
    state = position(rs, ["d4"], ["e5"], (1, 0))
    assert state.positions == (position_key(state.geo, state.white, state.black, BLACK),)
    assert GAME.to_move(state) == frozenset({"black"})
    assert position(rs, ["d4"], ["e5"]).positions[0] == position_key(state.geo, state.white, state.black, WHITE)


@pytest.mark.parametrize(
    ("white", "black", "moves"),
    [(["d4", "d4"], ["e5"], (0, 0)), (["d4"], ["d4"], (0, 0)), (["d4"], ["e5", "e5"], (0, 0))],
)
def test_a_constructed_position_refuses_repeated_squares(white: list[str], black: list[str], moves: tuple[int, int]) -> None:
    with pytest.raises(ValueError, match=re.escape("squares must be distinct")):
        position(rules(), white, black, moves)


@pytest.mark.parametrize("moves", [(2, 0), (0, 1)])
def test_a_constructed_position_refuses_impossible_counters(moves: tuple[int, int]) -> None:
    """§0: White's counter is Black's or one more."""
    with pytest.raises(ValueError, match=re.escape("White's counter is Black's or one more (§0)")):
        position(rules(), ["d4"], ["e5"], moves)


def test_vrednyugi_binds_exactly_the_side_whose_opponent_has_left() -> None:
    """§6.9 in a constructed position: only the side whose opponent's home is empty is bound."""
    rs = rules("kostrov", vrednyugi=True)  # SQ3-BR: White home f1-h3, Black home a6-c8
    assert position(rs, ["h3", "d4"], ["a6", "e5"]).vrednyugi_bound == (False, False)
    assert position(rs, ["d4"], ["a6", "e5"]).vrednyugi_bound == (False, True)
    assert position(rs, ["h3", "d4"], ["e5"]).vrednyugi_bound == (True, False)


def test_d2_the_rejection_says_the_bound_and_the_length() -> None:
    state = pos(rules("kostrov"), "h3 h4", "a8 b8")
    refused = at(state).when("white", mv("h3", *(["h5", "h3"] * 40))).then_rejected("path_too_long")
    assert "64" in refused.detail and "80" in refused.detail


def test_d5_a_lock_breaking_move_when_no_home_piece_can_move_is_the_target_home_lock() -> None:
    """D5 with §6.9's fallback: when none of the bound side's home pieces can move, «вреднюги» allows
    every move, so a move leaving the target home is refused by the target-home lock."""
    rs = rules("kosynka-universal", vrednyugi=True)  # Black's home h8...; its target is White's home a1...
    walls = "g8 g7 h7 f8 f6 h6"  # h8 can neither step nor jump
    state = pos(rs, walls, "h8 b2", (1, 0))
    assert state.vrednyugi_bound[BLACK]
    at(state).when("black", mv("b2", "c3")).then_rejected("target_home_lock")
    at(state).when("black", mv("b2", "b3")).then_accepted()


CAGE = ["d6", "d7", "d4", "d3", "c5", "b5", "e5", "f5"]  # two-deep on all four sides of d5
STEP_IN = {"d7": "e7", "d6": "e6", "d4": "e4", "d3": "e3", "c5": "c6", "b5": "b6", "e5": "e6", "f5": "f6"}


@pytest.mark.parametrize("missing", CAGE)
def test_anti_lock_refuses_the_move_that_completes_any_side_of_the_cage(missing: str) -> None:
    """§6.7 LITERAL_ORTH: the move completing a two-deep cage on all four sides is refused,
    whichever square it fills."""
    white = [sq for sq in CAGE if sq != missing] + [STEP_IN[missing], "h1"]
    state = pos(rules(), " ".join(white), "d5 a8")
    at(state).when("white", mv(STEP_IN[missing], missing)).then_rejected("anti_lock")


@pytest.mark.parametrize("gap", ["d4", "d3", "d6", "c5", "f5"])
def test_anti_lock_allows_a_move_that_leaves_one_square_of_the_cage_open(gap: str) -> None:
    """§6.7: a cage with any square open (above, below, near or far) is no lock."""
    missing = "d7" if gap != "d7" else "d6"
    white = [sq for sq in CAGE if sq not in (missing, gap)] + [STEP_IN[missing], "h1"]
    state = pos(rules(), " ".join(white), "d5 a8")
    at(state).when("white", mv(STEP_IN[missing], missing)).then_accepted()


def test_anti_lock_edges_count_only_the_sides_off_the_board() -> None:
    """§6.7 anti_lock_edges: the board edge closes its own side, not the others."""
    rs = rules(anti_lock_edges=True)
    # Black on a5: right side b5 c5 closed by the move, the left is the edge, above and below open.
    state = pos(rs, "b5 c6 a3 h1", "a5 h8")
    at(state).when("white", mv("c6", "c5")).then_accepted()
    closed = pos(rs, "b5 c6 a6 a7 a4 a3 h1", "a5 h8")
    at(closed).when("white", mv("c6", "c5")).then_rejected("anti_lock")


def test_a_constructed_position_has_no_white_move_to_copy() -> None:
    """§6.8 in a constructed position (no recorded turns): Black's move copies nothing."""
    state = pos(rules(mirror_limit=0), "d4 h1", "e5 a8", (1, 0))
    at(state).when("black", mv("e5", "e6")).then_accepted()
    at(pos(rules(), "d4 h1", "e5 a8", (1, 0))).when("black", mv("e5", "e6")).then_accepted()


def test_a_tempo_draw_reports_both_tempo_numbers() -> None:
    """§6.4 / D3: a draw by tempo still records the scores it was judged by."""
    state = pos(rules("kostrov"), "a8 b8", "h1 g2", (200, 199))
    out = GAME.outcome(at(state).when("black", mv("g2", "g1")).then_accepted())
    assert out is not None and out.draw and out.scores and out.scores[0] == out.scores[1]
