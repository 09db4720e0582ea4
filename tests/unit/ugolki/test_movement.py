"""Movement rules (rules/ugolki.md §2, §4) and the seed's example moves (§8)."""

from __future__ import annotations

from contracts.envelope import Rejected
from domain.games.ugolki import GAME
from tests.unit.ugolki.helpers import at, moved, mv, pos, rules, start

KOSTROV = rules("kostrov")
KOSTROV_DIAG = rules("kostrov-diagonal")


def test_step_to_an_adjacent_empty_square() -> None:
    """C5: a step goes to an adjacent empty square (000:L15, L418)."""
    start().when("white", mv("h4", "h5")).then(moved("white", "h4", "h5"))


def test_step_onto_a_piece_is_refused() -> None:
    """C5: the step target must be empty (000:L15)."""
    start().when("white", mv("h3", "h4")).then_rejected("occupied")


def test_diagonal_step_refused_in_orthogonal_play() -> None:
    """§4.1: classic ugolki has no diagonal move (000:L25, L115)."""
    start().when("white", mv("g3", "f4")).then_rejected("illegal_step")


def test_single_jump_over_own_piece() -> None:
    """C6: a jump passes over one adjacent piece, own or enemy (000:L17, L113)."""
    start().when("white", mv("h3", "h5")).then(moved("white", "h3", "h5"))


def test_single_jump_over_enemy_piece_which_stays() -> None:
    """C2, C6: enemy pieces are jumped, never captured (000:L209, L461)."""
    state = pos(KOSTROV, "d4 h1", "d5 a8")
    after = at(state).when("white", mv("d4", "d6")).then(moved("white", "d4", "d6"))
    assert GAME.view(after, None).black == ("a8", "d5")


def test_no_long_jump_over_a_gap() -> None:
    """C6: only the adjacent piece can be jumped; no long jumps over gaps (000:L211)."""
    state = pos(KOSTROV, "d2 h1", "d4 a8")
    at(state).when("white", mv("d2", "d5")).then_rejected("no_such_move")  # D5
    at(state).when("white", mv("d2", "d4", "d6")).then_rejected("illegal_jump")


def test_jump_over_two_adjacent_pieces_is_refused() -> None:
    """§8.3, C6: jumping two adjacent pieces at once is forbidden (000:L77)."""
    state = start().state
    # h2 over g2+f2 to e2 and h3 over g3+f3 to e3, the two readings of 000:L77.
    at(state).when("white", mv("h2", "e2")).then_rejected("no_such_move")  # D5
    at(state).when("white", mv("h3", "e3")).then_rejected("no_such_move")
    # The literal "h3 over g2 and f2": not a line at all.
    at(state).when("white", mv("h3", "g2", "f2")).then_rejected("illegal_jump")


def test_multi_jump_may_change_direction() -> None:
    """C7: the same piece keeps jumping and may change direction (000:L17, L72, L166-L169)."""
    blocked = pos(KOSTROV, "b2 h1", "b3 c4 d4 a8")
    at(blocked).when("white", mv("b2", "b4", "d4")).then_rejected("occupied")
    state = pos(KOSTROV, "b2 h1", "b3 c4 a8")
    at(state).when("white", mv("b2", "b4", "d4")).then(moved("white", "b2", "b4", "d4"))


def test_multi_jump_may_stop_early() -> None:
    """C7: continuing is optional; the player may stop after any jump (000:L375)."""
    state = pos(KOSTROV, "b2 h1", "b3 c4 a8")
    at(state).when("white", mv("b2", "b4")).then(moved("white", "b2", "b4"))


def test_from_to_is_resolved_to_the_full_path() -> None:
    """§4.2 item 4: a (from, to) pair is legal if some chain reaches it; the referee records the path."""
    state = pos(KOSTROV, "b2 h1", "b3 c4 a8")
    at(state).when("white", mv("b2", "d4")).then(moved("white", "b2", "b4", "d4"))


def test_origin_counts_as_empty_and_a_loop_is_refused() -> None:
    """§4.2 items 2-3, Q15: the origin is empty during the chain; ending on it is a disguised pass."""
    # A square of four pieces around an empty centre lets b2 jump round back to b2.
    state = pos(KOSTROV, "b2 h1", "c2 d3 c4 b3 a8")
    at(state).when("white", mv("b2", "d2", "d4", "b4", "b2")).then_rejected("returns_to_origin")
    at(state).when("white", mv("b2", "d2", "d4", "b4")).then(moved("white", "b2", "d2", "d4", "b4"))


def test_the_origin_cannot_be_jumped() -> None:
    """§4.2 item 2: the moving piece has left its square, so the chain cannot jump it."""
    # b2 -> d2 (over c2); then d2 over c2 back is fine, but b2 itself is not there to be jumped.
    state = pos(KOSTROV, "c2 h1", "b2 a8")
    at(state).when("white", mv("c2", "a2")).then(moved("white", "c2", "a2"))
    state = pos(KOSTROV, "a2 h1", "b2 d2 a8")
    # a2 over b2 to c2, then c2 over d2 to e2: fine; c2 back over b2? b2 is still there (enemy).
    at(state).when("white", mv("a2", "c2", "e2")).then(moved("white", "a2", "c2", "e2"))


def test_step_and_jump_cannot_be_combined() -> None:
    """C9, Q17: a turn is a step or jumps, never both (000:L15/L17, L418)."""
    state = pos(KOSTROV, "b2 h1", "b4 a8")
    at(state).when("white", mv("b2", "b3", "b5")).then_rejected("illegal_jump")


def test_no_own_piece_and_bad_square_and_turn() -> None:
    """§6.11 step 1: commands that name no own piece, no square, or the wrong seat are refused."""
    start().when("white", mv("a5", "a4")).then_rejected("no_own_piece")
    start().when("white", mv("e4", "e5")).then_rejected("no_own_piece")
    start().when("white", mv("z9", "e5")).then_rejected("bad_square")
    start().when("white", mv("e1")).then_rejected("malformed")
    start().when("white", mv()).then_rejected("malformed")
    start().when("black", mv("a5", "a4")).then_rejected("not_your_turn")
    start().when("nobody", mv("h4", "h5")).then_rejected("not_your_turn")
    bad = GAME.decide(start().state, "white", "h4-h5")  # type: ignore[arg-type]
    assert isinstance(bad, Rejected) and bad.code == "malformed"


def test_kostrov_example_g2_to_a8_in_constructed_position() -> None:
    """§8.1: White g2-e2-е4-с4-с6-а6-а8 (Cyrillic letters as in 000:L74) is legal in its position."""
    # The diagonal ladder f2-e3-d4-c5-b6-a7 (either colour), e2 e4 c4 c6 a6 a8 empty (000:L73-L74).
    state = pos(KOSTROV, "g2 f2 e3 d4 h1", "c5 b6 a7 b8")
    path = ("g2", "e2", "е4", "с4", "с6", "а6", "а8")  # Cyrillic е, с, а
    expected = moved("white", "g2", "e2", "e4", "c4", "c6", "a6", "a8")
    at(state).when("white", mv(*path)).then(expected)
    at(state).when("white", mv("g2", "a8")).then(expected)
    at(state).when("white", mv("g2–e2–е4–с4–с6–а6–а8")).then(expected)  # one string with en dashes


def test_kostrov_black_example_literal_is_refused() -> None:
    """§8.2: b7-b5-b3-d3-f3-h4-h2 (000:L75-L76) is rejected: f3-h4 is no jump, b7->h2 breaks parity."""
    # The first four jumps need b6 b4 c3 e3 occupied and b5 b3 d3 f3 empty.
    state = pos(KOSTROV, "b6 c3 e3 h1 g3", "b7 b4 a8", moves_made=(1, 0))
    at(state).when("black", mv("b7", "b5", "b3", "d3", "f3", "h4", "h2")).then_rejected("illegal_jump")
    at(state).when("black", mv("b7", "h2")).then_rejected("no_such_move")  # D5
    at(state).when("black", mv("b7", "b5", "b3", "d3", "f3")).then(
        moved("black", "b7", "b5", "b3", "d3", "f3")
    )
    # The corrected reading ...-f3-h3 needs g3 occupied.
    at(state).when("black", mv("b7", "b5", "b3", "d3", "f3", "h3")).then(
        moved("black", "b7", "b5", "b3", "d3", "f3", "h3")
    )
    after = pos(KOSTROV, "b6 c3 e3 h1 g3", "f3 b4 a8")
    at(after).when("white", mv("h1", "h2")).then_accepted()
    state = pos(KOSTROV, "g3 h1", "f3 b4 a8", moves_made=(1, 0))
    at(state).when("black", mv("f3", "h4")).then_rejected("no_such_move")  # D5


def test_kostrov_diagonal_examples() -> None:
    """§8.4: White g3-e5-c7 and Black с8-e6-g4 (000:L81) are legal diagonal jumps in ALL8 presets."""
    state = pos(KOSTROV_DIAG, "g3 f4 d6 h1", "c8 d7 f5 a8")
    after = at(state).when("white", mv("g3", "e5", "c7")).then(moved("white", "g3", "e5", "c7"))
    at(after).when("black", mv("с8", "e6", "g4")).then(moved("black", "c8", "e6", "g4"))


def test_orthogonal_presets_refuse_the_diagonal_examples() -> None:
    """§8.4: ORTH presets must reject both diagonal example moves."""
    state = pos(KOSTROV, "g3 f4 d6 h1", "c8 d7 f5 a8")
    at(state).when("white", mv("g3", "e5", "c7")).then_rejected("illegal_jump")
    at(state).when("white", mv("g3", "c7")).then_rejected("no_such_move")  # D5
    black_to_move = pos(KOSTROV, "c7 f4 d6 h1", "c8 d7 f5 a8", moves_made=(1, 0))
    at(black_to_move).when("black", mv("c8", "e6", "g4")).then_rejected("illegal_jump")


def test_diagonal_only_preset_refuses_orthogonal_moves() -> None:
    """§4.1 «косые»: steps and jumps diagonal only (000:L223)."""
    state = start("kosye").state
    at(state).when("white", mv("a4", "a5")).then_rejected("illegal_step")
    at(state).when("white", mv("a4", "b5")).then(moved("white", "a4", "b5"))


def test_all8_steps_with_orthogonal_jumps_flag() -> None:
    """§4.1, Q6: "ALL8 steps + ORTH jumps" is available as a flag."""
    rs = rules("kostrov", step_dirs="ALL8", jump_dirs="ORTH")
    state = pos(rs, "d4 h1", "e5 a8")
    at(state).when("white", mv("d4", "c5")).then(moved("white", "d4", "c5"))
    at(state).when("white", mv("d4", "f6")).then_rejected("no_such_move")  # D5


def test_legal_commands_are_sorted_distinct_and_accepted() -> None:
    """§4.2 items 3-4: one command per distinct (from, to), each accepted by decide."""
    state = start().state
    cmds = GAME.legal_commands(state, "white")
    pairs = [(c.path[0], c.path[-1]) for c in cmds]
    assert len(pairs) == len(set(pairs)) == 14
    for cmd in cmds:
        assert not isinstance(GAME.decide(state, "white", cmd), Rejected)
    assert GAME.legal_commands(state, "black") == ()
