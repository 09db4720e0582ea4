"""Jump chains in the view (D1), the notation's edges (§5, D6) and the record's move action."""

from __future__ import annotations

from contracts.envelope import Rejected
from domain.games.ugolki import GAME
from domain.games.ugolki.geometry import shift
from domain.games.ugolki.legal import MAX_CONTINUATIONS, continuations
from domain.games.ugolki.notation import split_path
from domain.games.ugolki.record import parse_action
from tests.unit.ugolki.helpers import at, mv, pos, rules


def test_a_chain_may_land_on_a1() -> None:
    """§4.2 item 2: a3 jumps over a2 onto the empty corner a1 (the square of bit 0)."""
    state = pos(rules(), "a3 h1", "a2 a8")
    chains = continuations(state)
    assert chains["a3"] == ("a1",)
    assert chains["a3-a1"] == ()  # the only jump from a1 goes back to a3, already visited (D1)


def test_the_next_landings_are_listed_in_board_order() -> None:
    """D1: the squares a chain may jump to next are listed by file, then rank, like the view's
    square lists (c5 before e3, although e3 is on the lower rank)."""
    state = pos(rules(), "c3 h1", "c4 d3 a8")
    assert continuations(state)["c3"] == ("c5", "e3")


def test_the_continuation_tree_of_one_view_is_bounded() -> None:
    """D1: a view lists at most MAX_CONTINUATIONS chains; beyond that a client plays by end square.
    With every square but the odd-odd ones filled, a1 jumps in all eight directions through a
    4x4 lattice of empty squares: far more chains than the bound."""
    geo = GAME.initial_state(rules("kostrov-diagonal"), ("white", "black"), None).geo
    odd_odd = {sq for sq, i in geo.index.items() if geo.file_rank(i)[0] % 2 == 1 == geo.file_rank(i)[1] % 2}
    filled = [sq for sq in sorted(geo.index) if sq not in odd_odd]
    state = pos(rules("kostrov-diagonal"), "a1", " ".join(filled), (0, 0))
    chains = continuations(state)
    assert len(chains) == MAX_CONTINUATIONS
    assert all(key.startswith("a1") for key in chains)


def test_rank_file_pairs_are_joined_only_when_every_pair_is_one() -> None:
    """§5 (000:L281-L282, "1-A" = a1): '3-H-5-H' is h3-h5; in '3-H-5-5' the second pair is no
    rank-FILE square, so the tokens stay as they are and the referee names '3' as no square."""
    assert split_path("3-H-5-H") == ["h3", "h5"]
    assert split_path("3-H-5-5") == ["3", "h", "5", "5"]
    refused = at(GAME.initial_state(rules(), ("white", "black"), None)).when("white", mv("3-H-5-5"))
    detail = refused.then_rejected("bad_square").detail
    assert "'3'" in detail


def test_a_stray_character_is_bad_notation_naming_the_segment() -> None:
    """D6: ':' is not notation; the detail names the segment that is not a square."""
    start = GAME.initial_state(rules(), ("white", "black"), None)
    refused = at(start).when("white", mv("h3:h5")).then_rejected("bad_notation")
    assert "'h3:h5' is not a square" in refused.detail


def test_a_move_action_of_the_wrong_shape_says_what_a_move_is() -> None:
    """records.md: an ugolki move is ["move", seat, "h3-h5-f5"]; the refusal says so."""
    start = GAME.initial_state(rules(), ("white", "black"), None)
    refused = parse_action(start, "white", ["move", 0])
    assert isinstance(refused, Rejected) and refused.code == "bad_action"
    assert refused.detail == 'a move is ["move", seat, "h3-h5-f5"]'


def test_shift_moves_bits_up_for_positive_and_down_for_negative_offsets() -> None:
    """The bitboard helper: a positive offset moves a square to higher indices, a negative one
    to lower indices (one rank is one board width)."""
    geo = GAME.initial_state(rules(), ("white", "black"), None).geo
    e4 = 1 << geo.index["e4"]
    assert shift(e4, geo.width) == 1 << geo.index["e5"]
    assert shift(e4, -geo.width) == 1 << geo.index["e3"]
    assert shift(e4, -1) == 1 << geo.index["d4"]
