"""The end of the game (rules/draughts.md §7, D5-D9): win and loss, the reversed aim of the
giveaway preset, and each draw rule with its exact count and the order of evaluation §7.7."""

from __future__ import annotations

from domain.games.draughts.state import DraughtsState

from .helpers import at, play


def _reason(s: DraughtsState) -> str | None:
    return s.result.reason if s.result is not None else None


def test_7_1_a_side_left_without_pieces_loses() -> None:
    """§7.1: White takes Black's last piece: Black to move has no pieces, White wins."""
    s = play(at("W:Wc3:Bd4"), "c3:e5")
    assert s.result is not None and s.result.ranks == (1, 2) and _reason(s) == "no_pieces"


def test_7_1_a_side_left_without_a_move_loses() -> None:
    """§7.1: Black's man on a5 blocked by White on b4 with c3 behind it: no move, Black loses."""
    s = play(at("W:Wb4,c3,h2:Ba5"), "h2-g3")
    assert s.result is not None and s.result.ranks == (1, 2) and _reason(s) == "no_moves"


def test_7_1_giveaway_reverses_the_aim() -> None:
    """§7.1, D9: under russian-giveaway the side left without pieces wins."""
    s = play(at("W:Wc3:Bd4", "russian-giveaway"), "c3:e5")
    assert s.result is not None and s.result.ranks == (2, 1) and _reason(s) == "no_pieces"


def test_d12_a_decided_start_position_ends_before_the_first_move() -> None:
    """D12, Q14: Black to move with no move loses at once (giveaway: wins at once)."""
    assert at("B:Wb4,c3:Ba5").result is not None
    s = at("B:Wb4,c3:Ba5", "russian-giveaway")
    assert s.result is not None and s.result.ranks == (2, 1)


def _shuffle(
    s: DraughtsState, plies: int, a: tuple[str, str], b: tuple[str, str], start: int = 0
) -> DraughtsState:
    """``plies`` plies of the two sides stepping back and forth, from ply ``start`` of the pattern."""
    for i in range(start, start + plies):
        if s.result is not None:
            break
        pair = a if s.side == 0 else b
        s = play(s, pair[(i // 2) % 2])
    return s


# Kings on diagonals that never cross: White shuffles c1-d2, Black f8-g7, no capture ever arises.
FOUR_KINGS = "W:WKc1,Kh2:BKf8,Kb8"
WHITE_STEP, BLACK_STEP = ("c1-d2", "d2-c1"), ("f8-g7", "g7-f8")


def test_7_2_the_third_occurrence_of_a_position_is_a_draw() -> None:
    """§7.2: the start position comes back a second time on ply 4 and a third on ply 8."""
    s = _shuffle(at(FOUR_KINGS), 7, WHITE_STEP, BLACK_STEP)
    assert s.result is None and s.counts.seen.count(s.pos) == 2
    s = _shuffle(s, 1, WHITE_STEP, BLACK_STEP, start=7)
    assert _reason(s) == "repetition" and s.result is not None and s.result.draw


def test_7_2_repetition_is_off_when_its_parameter_is_null() -> None:
    """§7.7: a rule whose parameter is null is skipped."""
    s = _shuffle(at(FOUR_KINGS, draw_repetition=None), 8, WHITE_STEP, BLACK_STEP)
    assert s.result is None


def test_7_6_kings_only_draws_after_15_moves_each() -> None:
    """§7.6: 30 plies of king moves without a capture (men on e1 and a7 stand still)."""
    s = at("W:WKc1,Kh2,e1:BKf8,Kb8,a7", draw_repetition=None, draw_balance=None)
    s = _shuffle(s, 29, WHITE_STEP, BLACK_STEP)
    assert s.result is None and s.counts.kings_only == 29
    assert _reason(_shuffle(s, 1, WHITE_STEP, BLACK_STEP, start=29)) == "kings_only"


def test_7_6_brazilian_counts_20_moves_each() -> None:
    """§8, D10: brazilian draw_kings_only = 20 (40 plies)."""
    s = at("W:WKc1,Kh2,e1:BKf8,Kb8,a7", "brazilian", draw_repetition=None)
    s = _shuffle(s, 39, WHITE_STEP, BLACK_STEP)
    assert s.result is None
    assert _reason(_shuffle(s, 1, WHITE_STEP, BLACK_STEP, start=39)) == "kings_only"


def test_7_6_a_man_move_resets_the_kings_only_count() -> None:
    """§7.6: a man move returns the count to 0."""
    s = play(at("W:WKc1,Kh2,e1:BKf8,Kb8,a7"), "c1-d2", "f8-g7")
    assert s.counts.kings_only == 2
    assert play(s, "e1-f2").counts.kings_only == 0


def test_7_5_balance_two_or_three_pieces_draws_after_5_moves_each() -> None:
    """§7.5, D8: a king each, 3 pieces in all: stable reaches 10 plies -> draw."""
    s = at("W:WKc1,Kh2:BKf8", draw_repetition=None, draw_main_road=None)
    s = _shuffle(s, 9, WHITE_STEP, BLACK_STEP)
    assert s.result is None and s.counts.stable == 9
    assert _reason(_shuffle(s, 1, WHITE_STEP, BLACK_STEP, start=9)) == "balance"


def test_7_5_four_pieces_wait_30_moves_each() -> None:
    """§7.5: with 4 pieces the limit is 30 moves each, so 10 plies end nothing."""
    s = _shuffle(at(FOUR_KINGS, draw_repetition=None), 10, WHITE_STEP, BLACK_STEP)
    assert s.result is None


def test_7_5_balance_needs_a_king_on_both_sides_and_d8_counts_from_a_promotion() -> None:
    """§7.5, D8: no draw without a king on each side; a promotion sets the count back."""
    from domain.games.draughts.fen import parse
    from domain.games.draughts.play import judge
    from domain.games.draughts.state import Counts

    rules = at().rules
    kings = parse("W:WKc1,Kh2:BKf8")
    no_black_king = parse("W:WKc1,Kh2:Bf8")
    assert judge(rules, kings, Counts(seen=(kings,), stable=10)) is not None
    assert judge(rules, no_black_king, Counts(seen=(no_black_king,), stable=10)) is None
    s = play(at("B:WKc1,Kh2:Bb2,Kf8"), "b2-a1")  # black crowns a man: a new balance
    assert s.counts.stable == 0


def test_7_3_three_kings_against_one_draws_at_the_strong_sides_15th_move() -> None:
    """§7.3, D6: the count is the strong side's moves; draw right after its 15th."""
    s = at(
        "W:WKc1,Kh2,Ka5:BKh8",
        draw_repetition=None,
        draw_balance=None,
        draw_kings_only=None,
        draw_main_road=None,
    )
    assert s.counts.three_kings == 0
    for i in range(14):
        s = play(s, WHITE_STEP[i % 2], ("h8-g7", "g7-h8")[i % 2])
    assert s.result is None and s.counts.three_kings == 14
    assert _reason(play(s, WHITE_STEP[0])) == "three_kings"


def test_7_4_main_road_draws_after_5_moves_of_the_strong_side() -> None:
    """§7.4, D7: 3 pieces with a king v a lone king on a1-h8, the strong side off the main road."""
    s = at("W:WKc1,e1,a3:BKh8", draw_repetition=None, draw_balance=None, draw_kings_only=None)
    assert s.counts.main_road == 0
    for i in range(4):
        s = play(s, WHITE_STEP[i % 2], ("h8-g7", "g7-h8")[i % 2])
    assert s.result is None and s.counts.main_road == 4
    assert _reason(play(s, WHITE_STEP[0])) == "main_road"


def test_7_4_the_main_road_count_stops_when_the_lone_king_leaves_it() -> None:
    """§7.4, Q3: MR fails when the lone king leaves a1-h8."""
    s = play(at("W:WKc1,e1,a3:BKg7"), "c1-d2")
    assert s.counts.main_road == 1
    assert play(s, "g7-h6").counts.main_road is None


def test_7_7_repetition_is_said_before_the_later_rules() -> None:
    """§7.7: when repetition, balance and kings_only all apply, the reason is repetition."""
    from domain.games.draughts.fen import parse
    from domain.games.draughts.play import judge
    from domain.games.draughts.state import Counts

    pos = parse("W:WKc1,Kh2:BKf8")
    out = judge(at().rules, pos, Counts(seen=(pos, pos, pos), kings_only=30, stable=30))
    assert out is not None and out.reason == "repetition"
    out = judge(at().rules, pos, Counts(seen=(pos,), kings_only=30, stable=30))
    assert out is not None and out.reason == "balance"
