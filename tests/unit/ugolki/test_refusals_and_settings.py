"""What a refusal says, which settings a ruleset may have, and two filters at their edges
(rules/ugolki.md §4.2, §6.2-§6.4, §6.7-§6.10, D3, D5)."""

from __future__ import annotations

import pytest

from contracts.games.ugolki import MovePiece, PieceMoved
from domain.games.ugolki import GAME
from domain.games.ugolki.state import initial_state
from tests.unit.ugolki.helpers import at, moved, mv, passed, pos, rules, start


def test_a_path_that_is_not_all_square_names_is_malformed() -> None:
    start().when("white", MovePiece(path=("h3", 5))).then_rejected("malformed")  # type: ignore[arg-type]


def test_a_single_square_is_no_move() -> None:
    refused = start().when("white", mv("h3")).then_rejected("malformed")
    assert "at least two squares" in refused.detail


def test_a_hop_that_is_no_jump_is_named() -> None:
    """§4.2 item 2: each hop of a full path is a jump; the refusal names the hop and the directions."""
    refused = start().when("white", mv("h3", "h4", "h6")).then_rejected("illegal_jump")
    assert "h3-h4" in refused.detail and "ORTH" in refused.detail


def test_the_anti_lock_refusal_says_why() -> None:
    """§6.7: e7-d7 would cage Black's d5 two deep on all four sides."""
    state = pos(rules(), "d6 d4 d3 c5 b5 e5 f5 e7 h1", "d5 a8")
    refused = at(state).when("white", mv("e7", "d7")).then_rejected("anti_lock")
    assert "cage" in refused.detail and "§6.7" in refused.detail


def test_a_recorded_move_from_a_square_without_the_movers_piece_is_refused_by_name() -> None:
    state = start().state
    with pytest.raises(ValueError, match="no white piece on d4"):
        GAME.evolve(state, PieceMoved(seat="white", path=("d4", "d5")))


def test_after_the_stage_check_a_piece_may_go_home_again() -> None:
    """§6.2 STAGE(40) is checked once, at Black's 40th move; afterwards White may step back into
    its home (Q25) and nothing is checked after White's move."""
    state = pos(rules(), "e2 d4", "d2 f6", (40, 40))
    after = at(state).when("white", mv("e2", "e1")).then_accepted()
    assert GAME.outcome(after) is None


def test_a_mirror_copy_that_is_blacks_only_move_is_a_forced_pass() -> None:
    """§6.8 with a limit of 0 and §6.10: after 1. h1-h2 Black's only move a8-a7 (b8 and c8 are
    taken) would copy it, so Black has no legal move and passes."""
    state = pos(rules(mirror_limit=0), "h1 b8 c8", "a8")
    at(state).when("white", mv("h1", "h2")).then(moved("white", "h1", "h2"), passed("black"))


def test_an_unbound_side_moves_freely_when_vrednyugi_is_on() -> None:
    """§6.9: the rule binds only the side whose opponent has emptied its home; while both homes
    still hold pieces, White's d4 may move."""
    state = pos(rules("kostrov", vrednyugi=True), "h3 d4", "a6 e5")
    assert state.vrednyugi_bound == (False, False)
    legal = {(c.path[0], c.path[-1]) for c in GAME.legal_commands(state, "white")}
    assert ("d4", "d5") in legal and ("h3", "h4") in legal


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"leave_home_moves": 0}, "leave_home_moves must be at least 1"),
        ({"leave_home_threshold": 0}, "leave_home_threshold must be at least 1"),
        ({"long_game_moves": 0}, "long_game_moves must be at least 1"),
        ({"return_home_loss_after": -1}, "return_home_loss_after must be >= 0"),
        ({"mirror_limit": -1}, "mirror_limit must be >= 0"),
        ({"mirror_window": 0}, "mirror_window must be at least 1"),
        ({"move_cap": 0}, "move_cap must be at least 1"),
    ],
)
def test_a_ruleset_with_an_impossible_count_is_refused_with_its_name(overrides: dict[str, int], message: str) -> None:
    assert GAME.validate(rules(**overrides), 2) == message
    with pytest.raises(ValueError, match=message):
        initial_state(rules(**overrides), ("white", "black"))


@pytest.mark.parametrize(
    "overrides",
    [
        {"leave_home": "none", "leave_home_moves": 0, "leave_home_threshold": 0},
        {"long_game": "none", "long_game_moves": 0},
        {"long_game_moves": 1, "leave_home_moves": 1, "move_cap": 1, "mirror_window": 1},
        {"return_home_loss_after": 0, "mirror_limit": 0},
    ],
)
def test_counts_of_rules_that_are_off_or_at_their_least_are_accepted(overrides: dict[str, object]) -> None:
    """A count only matters when its rule is on; the least meaningful value (1, or 0 for the
    return ban and the copies) is valid."""
    assert GAME.validate(rules(**overrides), 2) is None
