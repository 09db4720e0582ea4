"""rules/ugolki.md, "Decisions of 2026-12-01" (D1-D6): each decision by what it changes in play."""

from __future__ import annotations

import pytest

from contracts.games.ugolki import MovePiece
from domain.games.ugolki import GAME
from domain.games.ugolki.rules import PRESETS
from tests.unit.ugolki.helpers import at, moved, mv, play, pos, rules, start

WHITE_WINS = (1, 2)
# D3: the presets with neither a long-game nor a repetition rule.
UNBOUNDED = sorted(n for n, r in PRESETS.items() if r.long_game == "none" and r.repetition == "none")


# ---------------------------------------------------------------- D2 path length
def _shuttle(landings: int) -> MovePiece:
    """h3 jumping h4 back and forth: h3-h5-h3-h5-... with ``landings`` landing squares."""
    return MovePiece(path=("h3", *(("h5", "h3") * landings)[:landings]))


def test_d2_a_path_of_more_than_64_landing_squares_is_path_too_long() -> None:
    """D2: at most 64 landing squares; a longer path is the typed rejection path_too_long."""
    state = pos(rules("kostrov"), "h3 h4", "a8 b8")
    at(state).when("white", _shuttle(65)).then_rejected("path_too_long")
    at(state).when("white", MovePiece(path=("-".join(_shuttle(65).path),))).then_rejected("path_too_long")
    at(state).when("white", MovePiece(path=("h3",) + ("h5",) * 20_000)).then_rejected("path_too_long")


def test_d2_a_path_of_64_landing_squares_is_judged_by_the_rules() -> None:
    """D2: 64 landing squares is within the bound (63 ends on h5 and is legal; 64 returns to h3)."""
    state = pos(rules("kostrov"), "h3 h4", "a8 b8")
    after = at(state).when("white", _shuttle(63)).then_accepted()
    assert after.white & (1 << after.geo.index["h5"])
    at(state).when("white", _shuttle(64)).then_rejected("returns_to_origin")


# ---------------------------------------------------------------- D3 move_cap
def test_d3_presets_without_an_end_rule_get_a_move_cap_of_200() -> None:
    """D3: `move_cap` 200 for presets with no long-game or repetition rule, off for the rest."""
    assert UNBOUNDED, "some presets have neither rule"
    for name, ruleset in PRESETS.items():
        assert ruleset.move_cap == (200 if name in UNBOUNDED else None), name


@pytest.mark.parametrize("preset", UNBOUNDED)
def test_d3_at_blacks_200th_move_the_lower_tempo_wins(preset: str) -> None:
    """D3: at Black's 200th move the game is judged by the TEMPO rule of §6.4, reason move_cap."""
    rs = rules(preset)
    white, black = ("a8 b8", "h1 g1") if rs.white_corner == "BR" else ("h8 g8", "a1 b1")
    state = pos(rs, white, black, (200, 199))
    mover = black.split()[0]
    diagonal_only = rs.step_dirs == "DIAG"
    to = {"h1": "g2" if diagonal_only else "h2", "a1": "b2" if diagonal_only else "a2"}[mover]
    out = GAME.outcome(at(state).when("black", mv(mover, to)).then_accepted())
    assert out is not None and out.reason == "move_cap" and out.ranks == WHITE_WINS
    assert out.scores[0] < out.scores[1]


def test_d3_equal_tempo_at_the_cap_is_a_draw_and_the_cap_is_a_parameter() -> None:
    """D3: ties are a draw; the cap is a ruleset parameter (an old ruleset without it never caps)."""
    state = pos(rules("kostrov"), "a8 b8", "h1 g2", (200, 199))
    out = GAME.outcome(at(state).when("black", mv("g2", "g1")).then_accepted())
    assert out is not None and out.draw and out.reason == "move_cap"
    early = pos(rules("kostrov"), "a8 b8", "h1 g2", (199, 198))
    assert GAME.outcome(at(early).when("black", mv("g2", "g1")).then_accepted()) is None
    uncapped = pos(rules("kostrov", move_cap=None), "a8 b8", "h1 g2", (200, 199))
    assert GAME.outcome(at(uncapped).when("black", mv("g2", "g1")).then_accepted()) is None
    short = pos(rules("kostrov", move_cap=5), "a8 b8", "h1 g2", (5, 4))
    assert GAME.outcome(at(short).when("black", mv("g2", "g1")).then_accepted()) is not None
    assert GAME.validate(rules("kostrov", move_cap=0), 2)


# ---------------------------------------------------------------- D4 repetition_consecutive
SQUARE_LOOP = ("d4-d3", "e5-e6", "d3-c3", "e6-f6", "c3-c4", "f6-f5", "c4-d4", "f5-e5")


def test_d4_consecutive_repetition_counts_cycles_of_any_length() -> None:
    """D4: the third occurrence with no other position repeated in between is a draw, whatever the
    cycle's length (here two cycles of eight turns, which a fixed 4-turn period never sees)."""
    rs = rules(repetition_consecutive=True, mirror_limit=None)
    state = play(pos(rs, "d4 h1", "e5 a8"), *SQUARE_LOOP)
    assert GAME.outcome(state) is None
    state = play(state, *SQUARE_LOOP)
    out = GAME.outcome(state)
    assert out is not None and out.draw and out.reason == "repetition"


# ---------------------------------------------------------------- D5 rejection order and texts
def test_d5_geometry_comes_before_the_loop_rule() -> None:
    """D5, §6.11 step 1: a looping path with a broken hop is refused for its geometry."""
    state = pos(rules("kostrov"), "b2 h1", "b3 a8")
    at(state).when("white", mv("b2", "b4", "b3", "b2")).then_rejected("illegal_jump")


def test_d5_vrednyugi_comes_before_the_target_home_lock() -> None:
    """D5: a move that breaks «вреднюги» and the target-home lock is named by «вреднюги»."""
    rs = rules("kosynka-universal", vrednyugi=True)  # TRI10-BL: Black's target is a1 b1 c1 d1 a2 b2 c2 a3 b3 a4
    state = pos(rs, "e4 f5", "h8 b2", (1, 0))  # White has left home: Black must move out of h8
    assert state.vrednyugi_bound[1]
    at(state).when("black", mv("b2", "c3")).then_rejected("vrednyugi")  # also leaves the target home
    at(state).when("black", mv("b2", "b3")).then_rejected("vrednyugi")
    at(pos(rules("kosynka-universal"), "e4 f5", "h8 b2", (1, 0))).when("black", mv("b2", "c3")).then_rejected(
        "target_home_lock"
    )


def test_d5_mirror_messages_state_the_rule_of_the_preset() -> None:
    """D5: "10 of White's first 12 moves" in windowed presets, the whole game otherwise."""
    state = play(start(repetition="none", mirror_limit=0).state, "e1-d1")
    refused = at(state).when("black", mv("d8", "e8")).then_rejected("mirror_limit")
    assert "0 of White's first 12 moves" in refused.detail
    whole = play(start(repetition="none", mirror_limit=0, mirror_window=None).state, "e1-d1")
    refused = at(whole).when("black", mv("d8", "e8")).then_rejected("mirror_limit")
    assert "in the whole game" in refused.detail


def test_d5_a_from_to_pair_no_chain_reaches_is_no_such_move() -> None:
    """D5: no_such_move is produced: (from, to) with no step and no jump chain between them."""
    state = pos(rules("kostrov"), "d2 h1", "d4 a8")
    refused = at(state).when("white", mv("d2", "d5")).then_rejected("no_such_move")
    assert "d2" in refused.detail and "d5" in refused.detail
    at(state).when("white", mv("d2", "d4", "d6")).then_rejected("illegal_jump")  # a full path: its hop


# ---------------------------------------------------------------- D6 strict notation
@pytest.mark.parametrize("text", ["h3--h5", "h3-h5-", "-h3-h5", "h3:h5", "h3 : h5", "h3-h5:"])
def test_d6_empty_segments_and_colons_are_bad_notation(text: str) -> None:
    """D6: empty segments and ':' are rejected as bad_notation."""
    start().when("white", MovePiece(path=(text,))).then_rejected("bad_notation")


@pytest.mark.parametrize("text", ["1. h3-h5", "1.h3-h5", "12. h3-h5", "1. … h3-h5", "1... h3-h5", "12...h3-h5"])
def test_d6_a_leading_move_number_is_ignored(text: str) -> None:
    """D6: "1.", "1. …", "12..." before a move are accepted and ignored (records from the seed)."""
    start().when("white", MovePiece(path=(text,))).then(moved("white", "h3", "h5"))


def test_d6_the_seeds_notation_still_reads() -> None:
    """§5 with D6: en dashes, Cyrillic look-alikes and rank-FILE squares still parse."""
    start().when("white", MovePiece(path=("h3–h5",))).then(moved("white", "h3", "h5"))
    start().when("white", MovePiece(path=("3-H-5-H",))).then(moved("white", "h3", "h5"))
    start().when("white", MovePiece(path=("Н3 - Н5",))).then(moved("white", "h3", "h5"))


# ---------------------------------------------------------------- D1 auto-finish in the server
def test_d1_a_jump_whose_only_further_jump_goes_back_ends_the_turn() -> None:
    """D1: auto-finish ends the turn after a jump from which no jump reaches an unvisited square;
    jumping back stays legal (Q16) but never holds the turn open."""
    state = pos(rules("kostrov"), "h3 h4", "a8 b8")
    chains = GAME.view(state, "white").continuations
    assert chains["h3"] == ("h5",)
    assert chains["h3-h5"] == ()  # the jump back to h3 is to a visited square: the turn ends
    at(state).when("white", mv("h3", "h5", "h3", "h5")).then(moved("white", "h3", "h5", "h3", "h5"))


def test_d1_a_jump_to_an_unvisited_square_holds_the_turn_open() -> None:
    """D1: after h3-h5 a jump over h6 to h7 is still open; after h3-h5-h7 the turn ends."""
    state = pos(rules("kostrov"), "h3 h4 d1", "h6 a8")
    chains = GAME.view(state, "white").continuations
    assert chains["h3-h5"] == ("h7",) and chains["h3-h5-h7"] == ()
    assert GAME.view(state, "black").continuations == {} and GAME.view(state, None).continuations == {}
    assert "d1" not in chains  # a piece with no jump has no chain


def test_d7_the_cap_covers_the_eleven_presets_without_an_end_rule() -> None:
    """D7 (Decisions of 2026-12-02): D3's cap covers eleven presets, listed by name."""
    eleven = {
        "kostrov", "kostrov-diagonal", "min2win-3x4", "kosynka-universal", "pryamye", "kosye",
        "ugolki-50", "kids-3x3-40", "shashki-online-12", "luckforfree-3x4", "club-any-direction-40",
    }  # fmt: skip
    assert set(UNBOUNDED) == eleven
    assert {n for n, r in PRESETS.items() if r.move_cap is not None} == eleven
