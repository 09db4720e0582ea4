"""Every refereeable preset of rules/ugolki.md §10 as an UgolkiRuleset value.

Cells marked * in §10 are recommendations ([rec]) where the source is silent; "inh" values
(repetition, anti-lock, mirror limit) are inherited from the Gambiter FAQ of the same club.
``halma-16x16`` is not refereeable (§11, Q22) and is deliberately absent.
"""

from __future__ import annotations

from contracts.games.ugolki import UgolkiRuleset, layout_offsets

DEFAULT_PRESET = "halma-8x8-1234"

# D3 (Decisions of 2026-12-01): every game terminates.  Presets with neither a long-game nor a
# repetition rule are judged by tempo at Black's 200th move (reason ``move_cap``).
MOVE_CAP = 200

PRESETS: dict[str, UgolkiRuleset] = {
    # 000:L1-L49 Gambiter FAQ: ORTH (L25), EQUALIZE (L47-L49), STAGE(40) (L25, timing L127/L134),
    # long game by piece count at Black's 80th move (L29), threefold repetition (L41),
    # anti-lock (L45), Black copies at most 10 of White's first 12 moves (L33). TRI10* BR*.
    "gambiter-classic": UgolkiRuleset(
        board=8,
        layout="TRI10",
        white_corner="BR",
        step_dirs="ORTH",
        jump_dirs="ORTH",
        completion="EQUALIZE",
        leave_home="STAGE",
        leave_home_moves=40,
        long_game="COUNT",
        long_game_moves=80,
        repetition="THREEFOLD_HOME_SYMMETRIC",
        anti_lock="LITERAL_ORTH",
        mirror_limit=10,
        mirror_window=12,
    ),
    # 000:L25, L37: diagonal chosen before the game; STAGE(30); anti-lock off with diagonals (L45).
    "gambiter-diagonal": UgolkiRuleset(
        board=8,
        layout="TRI10",
        white_corner="BR",
        step_dirs="ALL8",
        jump_dirs="ALL8",
        completion="EQUALIZE",
        leave_home="STAGE",
        leave_home_moves=30,
        long_game="COUNT",
        long_game_moves=80,
        repetition="THREEFOLD_HOME_SYMMETRIC",
        anti_lock="none",
        mirror_limit=10,
        mirror_window=12,
    ),
    # 000:L91-L140 Halma page, GAMBITER club endings: TRI10 (L101 corrected, L119), BR (L101),
    # ORTH (L115), EQUALIZE (L107, L127), stage 1 STAGE(40) (L131, L134), stage 2 tempo at 80 (L132, L136);
    # repetition, anti-lock, mirror inherited from the FAQ.  The product default.
    "halma-8x8-1234": UgolkiRuleset(
        board=8,
        layout="TRI10",
        white_corner="BR",
        step_dirs="ORTH",
        jump_dirs="ORTH",
        completion="EQUALIZE",
        leave_home="STAGE",
        leave_home_moves=40,
        long_game="TEMPO",
        long_game_moves=80,
        repetition="THREEFOLD_HOME_SYMMETRIC",
        anti_lock="LITERAL_ORTH",
        mirror_limit=10,
        mirror_window=12,
    ),
    # 000:L115 diagonal variant; stage 1 ten moves fewer: STAGE(30) (L131); stage 2 unchanged (L132).
    "halma-8x8-1234-diag": UgolkiRuleset(
        board=8,
        layout="TRI10",
        white_corner="BR",
        step_dirs="ALL8",
        jump_dirs="ALL8",
        completion="EQUALIZE",
        leave_home="STAGE",
        leave_home_moves=30,
        long_game="TEMPO",
        long_game_moves=80,
        repetition="THREEFOLD_HOME_SYMMETRIC",
        anti_lock="none",
        mirror_limit=10,
        mirror_window=12,
    ),
    # 000:L97, L119: 10x10 with the 1-2-3-4-5 triangle; STAGE(60) (L131), tempo at 120 (L132, L136).
    "halma-10x10-12345": UgolkiRuleset(
        board=10,
        layout="TRI15",
        white_corner="BR",
        step_dirs="ORTH",
        jump_dirs="ORTH",
        completion="EQUALIZE",
        leave_home="STAGE",
        leave_home_moves=60,
        long_game="TEMPO",
        long_game_moves=120,
        repetition="THREEFOLD_HOME_SYMMETRIC",
        anti_lock="LITERAL_ORTH",
        mirror_limit=10,
        mirror_window=12,
    ),
    # Same source, diagonal: STAGE(50) (L131); stage 2 stays 120 (L132).
    "halma-10x10-12345-diag": UgolkiRuleset(
        board=10,
        layout="TRI15",
        white_corner="BR",
        step_dirs="ALL8",
        jump_dirs="ALL8",
        completion="EQUALIZE",
        leave_home="STAGE",
        leave_home_moves=50,
        long_game="TEMPO",
        long_game_moves=120,
        repetition="THREEFOLD_HOME_SYMMETRIC",
        anti_lock="none",
        mirror_limit=10,
        mirror_window=12,
    ),
    # 000:L101, L119, L127-L136: mini-ugolki, 3x3 square (f1-h3 vs a6-c8), board 8*.
    "mini-3x3": UgolkiRuleset(
        board=8,
        layout="SQ3",
        white_corner="BR",
        step_dirs="ORTH",
        jump_dirs="ORTH",
        completion="EQUALIZE",
        leave_home="STAGE",
        leave_home_moves=40,
        long_game="TEMPO",
        long_game_moves=80,
        repetition="THREEFOLD_HOME_SYMMETRIC",
        anti_lock="LITERAL_ORTH",
        mirror_limit=10,
        mirror_window=12,
    ),
    # Diagonal twin: STAGE(30) (L131).
    "mini-3x3-diag": UgolkiRuleset(
        board=8,
        layout="SQ3",
        white_corner="BR",
        step_dirs="ALL8",
        jump_dirs="ALL8",
        completion="EQUALIZE",
        leave_home="STAGE",
        leave_home_moves=30,
        long_game="TEMPO",
        long_game_moves=80,
        repetition="THREEFOLD_HOME_SYMMETRIC",
        anti_lock="none",
        mirror_limit=10,
        mirror_window=12,
    ),
    # 000:L51-L89 Kostrov: SQ3 default (BLK12, SQ4, TRI10, TRI15 selectable, L64), BR inferred
    # (L73-L76), ORTH (L71-L72, L77), first to occupy wins (L70); «вреднюги» optional (L78-L79).
    "kostrov": UgolkiRuleset(
        board=8,
        layout="SQ3",
        white_corner="BR",
        step_dirs="ORTH",
        jump_dirs="ORTH",
        completion="IMMEDIATE",
        vrednyugi=False,
        leave_home="none",
        long_game="none",
        repetition="none",
        anti_lock="none",
        mirror_limit=None,
        mirror_window=None,
        move_cap=MOVE_CAP,  # D3
    ),
    # 000:L80-L81: add diagonal moves and jumps in all directions.
    "kostrov-diagonal": UgolkiRuleset(
        board=8,
        layout="SQ3",
        white_corner="BR",
        step_dirs="ALL8",
        jump_dirs="ALL8",
        completion="IMMEDIATE",
        vrednyugi=False,
        leave_home="none",
        long_game="none",
        repetition="none",
        anti_lock="none",
        mirror_limit=None,
        mirror_window=None,
        move_cap=MOVE_CAP,  # D3
    ),
    # 000:L142-L189: SQ3 (SQ3, BLK12, TRI10 listed, L156-L158), BL*, "any direction" read as ORTH
    # (L163-L166, Q6), first to occupy wins (L150, L175), CONT(>50, 1) (L178-L180),
    # returning home after move 50 loses (L182-L183).
    "ugolki-50": UgolkiRuleset(
        board=8,
        layout="SQ3",
        white_corner="BL",
        step_dirs="ORTH",
        jump_dirs="ORTH",
        completion="IMMEDIATE",
        leave_home="CONT_GT",
        leave_home_moves=50,
        leave_home_threshold=1,
        return_home_loss_after=50,
        long_game="none",
        repetition="none",
        anti_lock="none",
        mirror_limit=None,
        mirror_window=None,
        move_cap=MOVE_CAP,  # D3
    ),
    # 000:L201-L225 school document: «косынка» TRI10 (L220-L221), corners a1/h8 (L209) -> BL*,
    # ALL8 (L209, L211), equal moves -> draw (L215), no move counting (L217), anti-lock none* (L45),
    # a piece that entered the home cannot leave it (L221).
    "kosynka-universal": UgolkiRuleset(
        board=8,
        layout="TRI10",
        white_corner="BL",
        step_dirs="ALL8",
        jump_dirs="ALL8",
        completion="EQUALIZE",
        target_home_lock=True,
        leave_home="none",
        long_game="none",
        repetition="none",
        anti_lock="none",
        mirror_limit=None,
        mirror_window=None,
        move_cap=MOVE_CAP,  # D3
    ),
    # 000:L223 «прямые»: orthogonal only; anti-lock LITERAL_ORTH* (L217).
    "pryamye": UgolkiRuleset(
        board=8,
        layout="TRI10",
        white_corner="BL",
        step_dirs="ORTH",
        jump_dirs="ORTH",
        completion="EQUALIZE",
        target_home_lock=True,
        leave_home="none",
        long_game="none",
        repetition="none",
        anti_lock="LITERAL_ORTH",
        mirror_limit=None,
        mirror_window=None,
        move_cap=MOVE_CAP,  # D3
    ),
    # 000:L223 «косые»: diagonal only; start layout unspecified -> as kosynka* (Q20).
    "kosye": UgolkiRuleset(
        board=8,
        layout="TRI10",
        white_corner="BL",
        step_dirs="DIAG",
        jump_dirs="DIAG",
        completion="EQUALIZE",
        target_home_lock=True,
        leave_home="none",
        long_game="none",
        repetition="none",
        anti_lock="none",
        mirror_limit=None,
        mirror_window=None,
        move_cap=MOVE_CAP,  # D3
    ),
    # 000:L271-L298 children's page: SQ3 a1:c3 / f6:h8 (L281-L282), ORTH (L295), first wins (L287),
    # CONT(>40, 1)* (L288 literally says two or more: set leave_home_threshold=2 for the literal
    # reading, erratum §12.9, Q3), returning to the corner after 40 moves loses (L289).
    "kids-3x3-40": UgolkiRuleset(
        board=8,
        layout="SQ3",
        white_corner="BL",
        step_dirs="ORTH",
        jump_dirs="ORTH",
        completion="IMMEDIATE",
        leave_home="CONT_GT",
        leave_home_moves=40,
        leave_home_threshold=1,
        return_home_loss_after=40,
        long_game="none",
        repetition="none",
        anti_lock="none",
        mirror_limit=None,
        mirror_window=None,
        move_cap=MOVE_CAP,  # D3
    ),
    # 000:L365-L387 online «Уголки Шашки»: BLK12 (L371), ORTH «классика» (L373), EQUALIZE* (L383),
    # leaving pieces at home "not allowed" (L385) -> CONT(>40, 1)* and return ban 40*,
    # Black copies at most 10 moves in total (L383).
    "shashki-online-12": UgolkiRuleset(
        board=8,
        layout="BLK12",
        white_corner="BL",
        step_dirs="ORTH",
        jump_dirs="ORTH",
        completion="EQUALIZE",
        leave_home="CONT_GT",
        leave_home_moves=40,
        leave_home_threshold=1,
        return_home_loss_after=40,
        long_game="none",
        repetition="none",
        anti_lock="none",
        mirror_limit=10,
        mirror_window=None,
        move_cap=MOVE_CAP,  # D3
    ),
    # 000:L409-L434 LuckForFree: BLK12, BL (L414-L416), ORTH* (L418), EQUALIZE (L416, L426),
    # CONT(>40, 1) (L428), returning home after 40 moves loses (L430), mirror play allowed (L416).
    "luckforfree-3x4": UgolkiRuleset(
        board=8,
        layout="BLK12",
        white_corner="BL",
        step_dirs="ORTH",
        jump_dirs="ORTH",
        completion="EQUALIZE",
        leave_home="CONT_GT",
        leave_home_moves=40,
        leave_home_threshold=1,
        return_home_loss_after=40,
        long_game="none",
        repetition="none",
        anti_lock="none",
        mirror_limit=None,
        mirror_window=None,
        move_cap=MOVE_CAP,  # D3
    ),
    # 000:L436-L447 club page: BLK12*, BL*, ALL8 steps (L440) and ALL8* jumps, EQUALIZE (L443),
    # CONT(>=40, 1) "when 40 moves have expired" (L442), return after 40 loses (L442).
    "club-any-direction-40": UgolkiRuleset(
        board=8,
        layout="BLK12",
        white_corner="BL",
        step_dirs="ALL8",
        jump_dirs="ALL8",
        completion="EQUALIZE",
        leave_home="CONT_GE",
        leave_home_moves=40,
        leave_home_threshold=1,
        return_home_loss_after=40,
        long_game="none",
        repetition="none",
        anti_lock="none",
        mirror_limit=None,
        mirror_window=None,
        move_cap=MOVE_CAP,  # D3
    ),
    # 000:L449-L473 Min2Win: BLK12 a1-d3 / e6-h8 (L459, "d6" typo), BL*, ORTH (L459),
    # first to occupy wins (L459), no other rules.
    "min2win-3x4": UgolkiRuleset(
        board=8,
        layout="BLK12",
        white_corner="BL",
        step_dirs="ORTH",
        jump_dirs="ORTH",
        completion="IMMEDIATE",
        leave_home="none",
        long_game="none",
        repetition="none",
        anti_lock="none",
        mirror_limit=None,
        mirror_window=None,
        move_cap=MOVE_CAP,  # D3
    ),
}

DESCRIPTIONS: dict[str, str] = {
    "gambiter-classic": "Gambiter FAQ: 1-2-3-4 triangle, orthogonal, 40-move home exit, piece count at move 80",
    "gambiter-diagonal": "Gambiter FAQ with diagonal moves: 30-move home exit, piece count at move 80",
    "halma-8x8-1234": "Halma 8x8 triangle, orthogonal, equalising move, 40-move exit, tempo at 80 (default)",
    "halma-8x8-1234-diag": "Halma 8x8 triangle with diagonal moves: 30-move exit, tempo at move 80",
    "halma-10x10-12345": "Halma 10x10 with the 15-piece triangle, orthogonal: 60-move exit, tempo at 120",
    "halma-10x10-12345-diag": "Halma 10x10 15-piece triangle with diagonal moves: 50-move exit, tempo at 120",
    "mini-3x3": "Mini-ugolki 3x3 square, orthogonal, Gambiter endings (40-move exit, tempo at 80)",
    "mini-3x3-diag": "Mini-ugolki 3x3 square with diagonal moves (30-move exit, tempo at 80)",
    "kostrov": "Kostrov's chessboard ugolki: 3x3, orthogonal, first home wins, tempo at move 200",
    "kostrov-diagonal": "Kostrov with diagonal steps and jumps: 3x3, first home wins, tempo at move 200",
    "ugolki-50": "The 50-move rules: 3x3 from a1, orthogonal, first home wins, leave home by move 50",
    "kosynka-universal": "«Косынка» universal: triangle from a1, all directions, no leaving the built home",
    "pryamye": "«Прямые»: triangle from a1, orthogonal only, no caging, no leaving the built home",
    "kosye": "«Косые»: triangle from a1, diagonal steps and jumps only, no leaving the built home",
    "kids-3x3-40": "Children's rules: 3x3 from a1, orthogonal, first home wins, leave home by move 40",
    "shashki-online-12": "Online «Уголки Шашки»: 12 pieces from a1, orthogonal, at most 10 copied moves",
    "luckforfree-3x4": "LuckForFree 3x4: 12 pieces a1-d3 vs e6-h8, orthogonal, leave home by move 40",
    "club-any-direction-40": "Club rules: 12 pieces, all directions, leave home when 40 moves expire",
    "min2win-3x4": "Min2Win 3x4: 12 pieces a1-d3 vs e6-h8, orthogonal, first home wins, tempo at move 200",
}

DESCRIPTIONS_RU: dict[str, str] = {
    "gambiter-classic": "ЧаВо Gambiter: треугольник 1-2-3-4, по прямой, выход из дома за 40 ходов, подсчёт шашек "
    "после 80-го хода",
    "gambiter-diagonal": "ЧаВо Gambiter с ходами по диагонали: выход из дома за 30 ходов, подсчёт шашек после "
    "80-го хода",
    "halma-8x8-1234": "Гальма 8×8, треугольник, по прямой, уравнивающий ход, выход за 40 ходов, темповое число "
    "после 80-го (по умолчанию)",
    "halma-8x8-1234-diag": "Гальма 8×8, треугольник, ходы по диагонали: выход за 30 ходов, темповое число после "
    "80-го хода",
    "halma-10x10-12345": "Гальма 10×10, треугольник из 15 шашек, по прямой: выход за 60 ходов, темповое число "
    "после 120-го",
    "halma-10x10-12345-diag": "Гальма 10×10, треугольник из 15 шашек, по диагонали: выход за 50 ходов, темповое "
    "число после 120-го",
    "mini-3x3": "Мини-уголки, квадрат 3×3, по прямой, окончания Gambiter (выход за 40 ходов, темповое число "
    "после 80-го)",
    "mini-3x3-diag": "Мини-уголки, квадрат 3×3, ходы по диагонали (выход за 30 ходов, темповое число после 80-го)",
    "kostrov": "Уголки Кострова на шахматной доске: 3×3, по прямой, побеждает первый пришедший домой, темповое "
    "число после 200-го хода",
    "kostrov-diagonal": "Костров с шагами и прыжками по диагонали: 3×3, побеждает первый пришедший домой, "
    "темповое число после 200-го хода",
    "ugolki-50": "Правила 50 ходов: 3×3 от a1, по прямой, побеждает первый пришедший домой, выйти из дома к "
    "50-му ходу",
    "kosynka-universal": "«Косынка» универсальная: треугольник от a1, во все стороны, из построенного дома не "
    "выходить",
    "pryamye": "«Прямые»: треугольник от a1, только по прямой, не запирать, из построенного дома не выходить",
    "kosye": "«Косые»: треугольник от a1, только шаги и прыжки по диагонали, из построенного дома не выходить",
    "kids-3x3-40": "Детские правила: 3×3 от a1, по прямой, побеждает первый пришедший домой, выйти из дома к "
    "40-му ходу",
    "shashki-online-12": "Онлайн «Уголки Шашки»: 12 шашек от a1, по прямой, не больше 10 повторённых ходов",
    "luckforfree-3x4": "LuckForFree 3×4: 12 шашек, a1-d3 против e6-h8, по прямой, выйти из дома к 40-му ходу",
    "club-any-direction-40": "Клубные правила: 12 шашек, во все стороны, выйти из дома, когда пройдут 40 ходов",
    "min2win-3x4": "Min2Win 3×4: 12 шашек, a1-d3 против e6-h8, по прямой, побеждает первый пришедший домой, "
    "темповое число после 200-го хода",
}


def validate(ruleset: UgolkiRuleset, seats: int) -> str | None:
    """A message for an inconsistent or unrefereeable ruleset for ``seats`` seats, else None."""
    if seats != 2:
        return f"ugolki is a two-player game, got {seats} seats"
    if ruleset.board == 16:
        return (
            "board 16 (halma-16x16) is not specified well enough to referee (rules/ugolki.md §3.1, Q22)"
        )
    if ruleset.board not in (8, 10):
        return f"board must be 8 or 10, got {ruleset.board}"
    white = set(layout_offsets(ruleset.layout))
    black = {(ruleset.board - 1 - dx, ruleset.board - 1 - dy) for dx, dy in white}
    if white & black or any(max(sq) >= ruleset.board for sq in white):
        return f"layout {ruleset.layout} does not fit twice on a {ruleset.board}x{ruleset.board} board"
    if ruleset.leave_home != "none":
        if ruleset.leave_home_moves < 1:
            return "leave_home_moves must be at least 1"
        if ruleset.leave_home_threshold < 1:
            return "leave_home_threshold must be at least 1"
    if ruleset.long_game != "none" and ruleset.long_game_moves < 1:
        return "long_game_moves must be at least 1"
    if ruleset.return_home_loss_after is not None and ruleset.return_home_loss_after < 0:
        return "return_home_loss_after must be >= 0"
    if ruleset.mirror_limit is not None and ruleset.mirror_limit < 0:
        return "mirror_limit must be >= 0"
    if ruleset.mirror_window is not None and ruleset.mirror_window < 1:
        return "mirror_window must be at least 1"
    if ruleset.move_cap is not None and ruleset.move_cap < 1:
        return "move_cap must be at least 1"
    return None
