"""End-of-game rules (rules/ugolki.md §6.1-§6.5, §6.10-§6.11)."""

from __future__ import annotations

from contracts.match import Outcome
from domain.games.ugolki import GAME
from tests.unit.ugolki.helpers import at, moved, mv, passed, play, pos, rules, start

HALMA = rules()
WHITE_WINS = (1, 2)
BLACK_WINS = (2, 1)

# Halma 8x8 TRI10-BR: White home e1 f1 g1 h1 f2 g2 h2 g3 h3 h4, Black home a5 a6 b6 a7 b7 c7 a8 b8 c8 d8.
NEARLY_WHITE = "a5 a6 b6 a7 b7 c7 a8 b8 c8 e8"  # e8-d8 completes
NEARLY_BLACK = "f1 g1 h1 f2 g2 h2 g3 h3 e1 h5"  # h5-h4 completes


def _outcome(state: object) -> Outcome | None:
    return GAME.outcome(state)


def test_equalize_white_completion_waits_for_black() -> None:
    """§6.1 EQUALIZE: Black still plays move n after White completes on move n (000:L47-L49, L107)."""
    state = pos(HALMA, NEARLY_WHITE, NEARLY_BLACK, moves_made=(45, 45))
    after = at(state).when("white", mv("e8", "d8")).then(moved("white", "e8", "d8"))
    assert _outcome(after) is None
    assert GAME.to_move(after) == frozenset({"black"})


def test_equalize_black_completes_too_is_a_draw() -> None:
    """§6.1: if Black's equalising move completes Black's home, the game is drawn (000:L49, L127, L215)."""
    state = play(pos(HALMA, NEARLY_WHITE, NEARLY_BLACK, moves_made=(45, 45)), "e8-d8", "h5-h4")
    out = _outcome(state)
    assert out is not None and out.draw and out.reason == "completion" and out.ranks == (1, 1)
    assert GAME.to_move(state) == frozenset()


def test_equalize_black_fails_to_equalise_white_wins() -> None:
    """§6.1: otherwise White wins once Black has replied (000:L47-L49)."""
    state = play(pos(HALMA, NEARLY_WHITE, NEARLY_BLACK, moves_made=(45, 45)), "e8-d8", "h5-g5")
    out = _outcome(state)
    assert out is not None and out.ranks == WHITE_WINS and out.reason == "completion"


def test_equalize_black_completes_first_wins() -> None:
    """§6.1: Black completes while White is still incomplete after Black's move n: Black wins."""
    state = pos(HALMA, "a5 a6 b6 a7 b7 c7 a8 b8 c8 e6", NEARLY_BLACK, moves_made=(46, 45))
    out = _outcome(at(state).when("black", mv("h5", "h4")).then_accepted())
    assert out is not None and out.ranks == BLACK_WINS and out.reason == "completion"


def test_immediate_completion_wins_at_once() -> None:
    """§6.1 IMMEDIATE: the first to occupy the opponent's home wins, no reply (000:L70, L105, L459)."""
    state = pos(rules("kostrov"), "a6 b6 c6 a7 b7 c7 a8 b8 d8", "f1 g1 h1 f2 g2 h2 f3 g3 h4")
    after = at(state).when("white", mv("d8", "c8")).then(moved("white", "d8", "c8"))
    out = _outcome(after)
    assert out is not None and out.ranks == WHITE_WINS and out.reason == "completion"


def test_stage_leave_home_one_fails_loses() -> None:
    """§6.2 STAGE(40): checked once after Black's 40th move; the player with a piece at home loses (000:L131, L134)."""
    state = pos(HALMA, "h1 d4", "d2 f6", moves_made=(40, 39))
    out = _outcome(at(state).when("black", mv("f6", "f7")).then_accepted())
    assert out is not None and out.ranks == BLACK_WINS and out.reason == "leave_home"


def test_stage_leave_home_both_fail_is_a_draw() -> None:
    """§6.2 STAGE: both fail -> draw (000:L134)."""
    state = pos(HALMA, "h1 d4", "a8 d2", moves_made=(40, 39))
    out = _outcome(at(state).when("black", mv("d2", "c2")).then_accepted())
    assert out is not None and out.draw and out.reason == "leave_home"


def test_stage_leave_home_is_checked_only_once() -> None:
    """§6.2 STAGE: one check at Black's N-th move; later moves are not checked (Q25)."""
    assert (
        _outcome(at(pos(HALMA, "h1 d4", "d2 f6", (41, 40))).when("black", mv("f6", "f7")).then_accepted())
        is None
    )
    assert (
        _outcome(at(pos(HALMA, "h1 d4", "d2 f6", (39, 38))).when("black", mv("f6", "f7")).then_accepted())
        is None
    )
    assert (
        _outcome(at(pos(HALMA, "c4 d4", "d2 f6", (40, 39))).when("black", mv("f6", "f7")).then_accepted())
        is None
    )


def test_stage_thirty_in_diagonal_presets() -> None:
    """§6.2: with diagonal moves the stage-1 deadline is 10 fewer: STAGE(30) (000:L25, L131)."""
    rs = rules("halma-8x8-1234-diag")
    out = _outcome(at(pos(rs, "h1 d4", "d2 f6", (30, 29))).when("black", mv("f6", "f7")).then_accepted())
    assert out is not None and out.ranks == BLACK_WINS and out.reason == "leave_home"


def test_cont_gt_starts_after_black_move_n_plus_one() -> None:
    """§6.2 CONT(>50, 1): "has made more than 50 moves and still has pieces at home" (000:L178-L180)."""
    rs = rules("ugolki-50")  # SQ3-BL: White home a1-c3, Black home f6-h8
    at50 = at(pos(rs, "a1 d4", "e4 d6", (50, 49))).when("black", mv("d6", "d7")).then_accepted()
    assert _outcome(at50) is None
    at51 = at(pos(rs, "a1 d4", "e4 d6", (51, 50))).when("black", mv("d6", "d7")).then_accepted()
    out = _outcome(at51)
    assert out is not None and out.ranks == BLACK_WINS and out.reason == "leave_home"


def test_cont_ge_starts_at_black_move_n() -> None:
    """§6.2 CONT(>=40, 1): "when 40 moves have expired" (000:L442)."""
    rs = rules("club-any-direction-40")  # BLK12-BL
    out = _outcome(at(pos(rs, "d4 e4", "f4 h8", (40, 39))).when("black", mv("f4", "f5")).then_accepted())
    assert out is not None and out.ranks == WHITE_WINS and out.reason == "leave_home"


def test_kids_literal_threshold_two_flag() -> None:
    """§6.2 kids (000:L288): literally "two or more pieces"; k = 2 only as a flag (Q3, erratum §12.9)."""
    one_left = pos(rules("kids-3x3-40"), "a1 d4", "e4 d6", (41, 40))
    out = _outcome(at(one_left).when("black", mv("d6", "d7")).then_accepted())
    assert out is not None and out.ranks == BLACK_WINS
    literal = pos(rules("kids-3x3-40", leave_home_threshold=2), "a1 d4", "e4 d6", (41, 40))
    assert _outcome(at(literal).when("black", mv("d6", "d7")).then_accepted()) is None


def test_return_home_after_n_loses() -> None:
    """§6.3: putting a piece back into your own home after move 50 loses (000:L182-L183)."""
    rs = rules("ugolki-50")
    out = _outcome(at(pos(rs, "c4 d4", "e4 d6", (50, 50))).when("white", mv("c4", "c3")).then_accepted())
    assert out is not None and out.ranks == BLACK_WINS and out.reason == "return_home"
    fine = at(pos(rs, "c4 d4", "e4 d6", (49, 49))).when("white", mv("c4", "c3")).then_accepted()
    assert _outcome(fine) is None


def test_return_home_looks_only_at_the_final_square() -> None:
    """§6.3, Q5: passing through your own home during a jump chain does not count."""
    rs = rules("ugolki-50")
    state = pos(rs, "d2 e5", "c2 b3 e4", (50, 50))
    after = at(state).when("white", mv("d2", "b2", "b4")).then(moved("white", "d2", "b2", "b4"))
    assert _outcome(after) is None


def test_long_game_tempo_lower_wins() -> None:
    """§6.4: at Black's 80th move the lower tempo number wins (000:L132, L136)."""
    out = _outcome(at(pos(HALMA, "a8 b8", "a1 b1", (80, 79))).when("black", mv("a1", "a2")).then_accepted())
    assert out is not None and out.ranks == WHITE_WINS and out.reason == "long_game_tempo"
    assert out.scores == (1.0, 14.0)


def test_long_game_tempo_equal_is_a_draw() -> None:
    """§6.4: equal tempo -> draw (000:L136)."""
    out = _outcome(at(pos(HALMA, "a8 b8", "h1 g2", (80, 79))).when("black", mv("g2", "g1")).then_accepted())
    assert out is not None and out.draw and out.reason == "long_game_tempo"


def test_long_game_ten_by_ten_at_120() -> None:
    """§6.4: on 10x10 the cutoff is Black's 120th move (000:L132)."""
    rs = rules("halma-10x10-12345")
    assert (
        _outcome(at(pos(rs, "a10 b10", "a1 b1", (80, 79))).when("black", mv("a1", "a2")).then_accepted())
        is None
    )
    out = _outcome(at(pos(rs, "a10 b10", "a1 b1", (120, 119))).when("black", mv("a1", "a2")).then_accepted())
    assert out is not None and out.ranks == WHITE_WINS


def test_long_game_piece_count() -> None:
    """§6.4 Gambiter FAQ: at Black's 80th move, more pieces in the opponent's home wins (000:L29)."""
    rs = rules("gambiter-classic")
    out = _outcome(
        at(pos(rs, "a8 b8 e4", "h1 d4 d5", (80, 79))).when("black", mv("d5", "d6")).then_accepted()
    )
    assert out is not None and out.ranks == WHITE_WINS and out.reason == "long_game_count"
    assert out.scores == (2.0, 1.0)


CYCLE = ("e1-d1", "d8-e8", "d1-e1", "e8-d8")


def test_threefold_repetition_is_a_draw() -> None:
    """§6.5: the same placement with the same side to move for the 3rd time, hW == hB -> draw (000:L41)."""
    state = play(start().state, *CYCLE)
    assert _outcome(state) is None
    state = play(state, *CYCLE)
    out = _outcome(state)
    assert out is not None and out.draw and out.reason == "repetition"


def test_repetition_needs_symmetric_home_status() -> None:
    """§6.5: if only one player still has home pieces, a repetition is not a draw (000:L41)."""
    state = pos(HALMA, "h1 d4", "c4 e5")
    state = play(state, "d4-d3", "e5-e6", "d3-d4", "e6-e5", "d4-d3", "e5-e6", "d3-d4", "e6-e5")
    assert _outcome(state) is None


def test_repetition_consecutive_flag() -> None:
    """§6.5, Q11: "three times in a row" read literally as two consecutive cycles (flag)."""
    long_cycle = ("h4-h5", "a5-a4", "h5-g5", "a4-b4", "g5-h5", "b4-a4", "h5-h4", "a4-a5")
    loose = play(start(mirror_limit=None).state, *CYCLE, *long_cycle)
    out = _outcome(loose)
    assert out is not None and out.reason == "repetition"
    strict = play(start(repetition_consecutive=True, mirror_limit=None).state, *CYCLE, *long_cycle)
    assert _outcome(strict) is None
    strict = play(strict, *CYCLE)  # occurrences at turns 12, 16: only two in a row
    assert _outcome(strict) is None
    strict = play(strict, *CYCLE)
    out = _outcome(strict)
    assert out is not None and out.reason == "repetition"


def test_no_legal_move_is_a_forced_pass() -> None:
    """§6.10, Q14: a player with no legal move passes; the pass counts as a move."""
    state = pos(rules("kostrov"), "a7 b8 a6 c8 h1", "a8")
    after = at(state).when("white", mv("h1", "g1")).then(moved("white", "h1", "g1"), passed("black"))
    assert after.moves_made == (1, 1)
    assert GAME.to_move(after) == frozenset({"white"})
    assert GAME.view(after, None).history == ("h1-g1", "--")


def test_two_forced_passes_in_a_row_draw() -> None:
    """§6.10, §6.11 step 7: two forced passes in a row -> draw."""
    state = pos(rules("kostrov"), "a7 b8 a6 c8 h1", "a8")
    after = at(state).when("white", mv("h1", "g1")).then_accepted()
    out = GAME.outcome(GAME.evolve(after, passed("white")))
    assert out is not None and out.draw and out.reason == "two_passes"


def test_return_home_is_checked_before_leave_home() -> None:
    """§6.11: steps run in order and the first that ends the game decides (return ban before leave-home)."""
    rs = rules("ugolki-50")  # SQ3-BL: Black's home is f6-h8
    state = pos(rs, "a1 d4", "e4 f5", (51, 50))
    out = _outcome(at(state).when("black", mv("f5", "f6")).then_accepted())
    # Both sides now have a piece at home (a leave-home draw), but Black's return loses first.
    assert out is not None and out.ranks == WHITE_WINS and out.reason == "return_home"


def test_equalize_black_without_a_move_after_white_completes() -> None:
    """Q14, §6.10: under EQUALIZE, if Black cannot move after White completes, Black passes and White wins."""
    # Black's only piece on h1 is boxed in by white pieces (no step, no jump).
    state = pos(HALMA, NEARLY_WHITE + " g1 h2 f1 h3", "h1", moves_made=(45, 45))
    after = at(state).when("white", mv("e8", "d8")).then(moved("white", "e8", "d8"), passed("black"))
    out = _outcome(after)
    assert out is not None and out.ranks == WHITE_WINS and out.reason == "completion"
