"""Move restrictions (rules/ugolki.md §6.6-§6.9)."""

from __future__ import annotations

from domain.games.ugolki import GAME
from tests.unit.ugolki.helpers import at, moved, mv, play, pos, rules, start

# A black piece on d4 caged by white pieces two deep on three sides; f3-f4 would close the fourth.
CAGE_WHITE = "d2 d3 d5 d6 b4 c4 e4 f3 h1"


def test_anti_lock_refuses_the_caging_move() -> None:
    """§6.7 LITERAL_ORTH: a move that cages an enemy piece with 2 pieces on each side is illegal (000:L45)."""
    state = pos(rules(), CAGE_WHITE, "d4 a8")
    at(state).when("white", mv("f3", "f4")).then_rejected("anti_lock")
    at(state).when("white", mv("h1", "g1")).then(moved("white", "h1", "g1"))


def test_anti_lock_only_the_creating_move() -> None:
    """§6.7: if the enemy walks into a cage, other moves stay legal (only the creating move is refused)."""
    caged = pos(rules(), "d2 d3 d5 d6 b4 c4 e4 f4 h1", "d4 a8")  # the cage exists already
    assert GAME.legal_commands(caged, "white")
    at(caged).when("white", mv("h1", "g1")).then_accepted()
    at(caged).when("white", mv("f4", "g4")).then_accepted()


def test_anti_lock_is_off_with_diagonal_moves() -> None:
    """§6.7: "if diagonal moves are allowed, this restriction does not apply" (000:L45)."""
    rs = rules("halma-8x8-1234-diag", anti_lock="LITERAL_ORTH")
    at(pos(rs, CAGE_WHITE, "d4 a8")).when("white", mv("f3", "f4")).then(moved("white", "f3", "f4"))


def test_anti_lock_edges_flag() -> None:
    """§6.7 optional stricter flag: board edges count as closed sides."""
    white = "a2 a3 a5 a6 b4 d4 h1"  # around a black piece on a4; c4 closes the right side
    literal = pos(rules(), white + " c3", "a4 a8")
    at(literal).when("white", mv("c3", "c4")).then(moved("white", "c3", "c4"))
    strict = pos(rules(anti_lock_edges=True), white + " c3", "a4 a8")
    at(strict).when("white", mv("c3", "c4")).then_rejected("anti_lock")


def test_mirror_limit_eleventh_copy_refused() -> None:
    """§6.8: Black may repeat at most 10 of White's first 12 moves (000:L33)."""
    state = start(repetition="none").state
    for k in range(10):
        state = play(state, "e1-d1" if k % 2 == 0 else "d1-e1", "d8-e8" if k % 2 == 0 else "e8-d8")
    assert state.copies == 10
    state = play(state, "e1-d1")
    at(state).when("black", mv("d8", "e8")).then_rejected("mirror_limit")
    at(state).when("black", mv("c7", "c6")).then(moved("black", "c7", "c6"))


def test_mirror_window() -> None:
    """§6.8: copies are counted only in Black's first W moves; the worked example h3-h5 / a6-a4 is a copy."""
    state = start(mirror_limit=1, mirror_window=2).state
    state = play(state, "h3-h5", "a6-a4", "e1-d1")
    at(state).when("black", mv("d8", "e8")).then_rejected("mirror_limit")
    state = play(state, "c7-c6", "h4-g4")
    at(state).when("black", mv("a5", "b5")).then(moved("black", "a5", "b5"))


def test_mirror_diagonal_reflection_flag() -> None:
    """§6.8 option: also count the reflection in the board diagonal that avoids the homes."""
    after_white = play(start(mirror_limit=0).state, "e1-d1")
    at(after_white).when("black", mv("a5", "a4")).then(moved("black", "a5", "a4"))
    after_white = play(start(mirror_limit=0, mirror_diagonal=True).state, "e1-d1")
    at(after_white).when("black", mv("a5", "a4")).then_rejected("mirror_limit")


def test_shashki_online_counts_copies_over_the_whole_game() -> None:
    """§6.8: shashki-online: at most 10 copies in total, no window (000:L383)."""
    rs = rules("shashki-online-12")
    assert rs.mirror_limit == 10 and rs.mirror_window is None


KOSTROV_V = rules("kostrov", vrednyugi=True)  # SQ3-BR: White home f1-h3, Black home a6-c8


def test_vrednyugi_bound_player_must_move_out_of_home() -> None:
    """§6.9: once the opponent has vacated his city, you may move only pieces still in yours (000:L78-L79)."""
    state = pos(KOSTROV_V, "h3 d4", "e5 d6")
    at(state).when("white", mv("d4", "d5")).then_rejected("vrednyugi")
    at(state).when("white", mv("h3", "g3")).then_rejected("vrednyugi")  # stays inside; a leaving move exists
    at(state).when("white", mv("h3", "h4")).then(moved("white", "h3", "h4"))


def test_vrednyugi_fallbacks() -> None:
    """§6.9 [rec]: if no move leaves the home, any move from the home; if none, any legal move."""
    boxed = pos(KOSTROV_V, "h1 d4", "g1 h2 f1 h3 e5", (0, 0))
    # h1 can only jump inside the home (over g1 to f1? occupied; over h2 to h3? occupied): no home move.
    at(boxed).when("white", mv("d4", "d5")).then(moved("white", "d4", "d5"))
    inside_only = pos(KOSTROV_V, "h1 d4", "g1 h2 e5")
    at(inside_only).when("white", mv("h1", "f1")).then(moved("white", "h1", "f1"))
    at(inside_only).when("white", mv("d4", "d5")).then_rejected("vrednyugi")


def test_vrednyugi_is_off_by_default() -> None:
    """§10, Q18: «вреднюги» is an optional switch, off unless selected."""
    at(pos(rules("kostrov"), "h3 d4", "e5 d6")).when("white", mv("d4", "d5")).then_accepted()


def test_vrednyugi_triggers_during_play_and_persists() -> None:
    """§6.9: triggered when a home becomes empty; stays in force even if the piece goes back."""
    state = pos(KOSTROV_V, "h3 d4", "a6 e5")  # Black has one piece at home
    assert not state.vrednyugi_bound[0]
    state = play(state, "d4-d3", "a6-a5")  # Black vacates its home: White is bound
    assert state.vrednyugi_bound == (True, False)
    state = play(state, "h3-h4", "a5-a6")  # back home again, still bound
    assert state.vrednyugi_bound[0]


KOSYNKA = rules("kosynka-universal")  # TRI10-BL, ALL8; White's target: h5 g6 h6 f7 g7 h7 e8 f8 g8 h8


def test_target_home_lock_piece_cannot_leave() -> None:
    """§6.6: a piece that has entered the home cannot leave it, though it moves freely inside (000:L221)."""
    state = pos(KOSYNKA, "g7 a1", "c4 d5")
    at(state).when("white", mv("g7", "f6")).then_rejected("target_home_lock")
    at(state).when("white", mv("g7", "g8")).then(moved("white", "g7", "g8"))


def test_target_home_lock_checks_every_landing_square() -> None:
    """§6.6, Q19: every intermediate landing square must stay inside; a flag relaxes it to the final one."""
    white, black = "f7 a1", "f6 g5 c4"
    at(pos(KOSYNKA, white, black)).when("white", mv("f7", "h5")).then_rejected("target_home_lock")
    at(pos(KOSYNKA, white, black)).when("white", mv("f7", "f5", "h5")).then_rejected("target_home_lock")
    relaxed = rules("kosynka-universal", target_home_lock_final_only=True)
    at(pos(relaxed, white, black)).when("white", mv("f7", "h5")).then(moved("white", "f7", "f5", "h5"))
    at(pos(relaxed, white, black)).when("white", mv("f7", "f5")).then_rejected("target_home_lock")
