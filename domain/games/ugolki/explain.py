"""Ugolki in words for players: a ruleset's help, why a game ended, and the warnings before a
rule-based loss (rules/ugolki.md §6).  Every sentence is derived from the ruleset and the state, so
clients show them and know no rules."""

from __future__ import annotations

from collections.abc import Mapping

from contracts.games.ugolki import UgolkiRuleset, UgolkiWarning
from contracts.match import Outcome, RulesHelp

from .geometry import geometry_for
from .state import BLACK, WHITE, UgolkiState

SIDE = ("White", "Black")
DIRS = {
    "ORTH": "straight (along files and ranks)",
    "DIAG": "diagonally only",
    "ALL8": "in all eight directions",
}


def _pieces(n: int) -> str:
    return f"{n} piece{'' if n == 1 else 's'}"


def _moves(n: int) -> str:
    return f"{n} move{'' if n == 1 else 's'}"


def leave_home_check(rs: UgolkiRuleset) -> int | None:
    """Black's move number after which the leave-home rule (§6.2) is first checked; None: no rule.
    STAGE(N) and CONT(>=N) check after Black's N-th move, CONT(>N) after Black's (N+1)-th."""
    if rs.leave_home == "none":
        return None
    return rs.leave_home_moves + (1 if rs.leave_home == "CONT_GT" else 0)


def _leave_home_rule(rs: UgolkiRuleset) -> str:
    k = rs.leave_home_threshold
    at = leave_home_check(rs)
    still = "a piece" if k == 1 else f"{k} or more pieces"
    once = "checked once" if rs.leave_home == "STAGE" else "checked after every Black move from then on"
    return (
        f"Leave home in time (§6.2): a side that still has {still} in its own corner after Black's move "
        f"{at} loses ({once}); if both sides do, it is a draw."
    )


def _judgement(rs: UgolkiRuleset) -> list[str]:
    out = []
    if rs.long_game == "TEMPO":
        out.append(
            f"Long game (§6.4): after Black's move {rs.long_game_moves} the side with the lower tempo "
            "number (the pieces' total distance to the far corner, §7) wins; equal tempo is a draw."
        )
    elif rs.long_game == "COUNT":
        out.append(
            f"Long game (§6.4): after Black's move {rs.long_game_moves} the side with more pieces in "
            "the opponent's corner wins; equal counts are a draw."
        )
    if rs.move_cap is not None and (rs.long_game == "none" or rs.move_cap < rs.long_game_moves):
        out.append(
            f"Move cap: after Black's move {rs.move_cap} the game is judged by tempo (the lower tempo "
            "number wins, equal is a draw)."
        )
    return out


def rules_help(rs: UgolkiRuleset) -> RulesHelp:
    geo = geometry_for(rs)
    pieces = geo.homes[WHITE].bit_count()
    goal = (
        f"Move all {pieces} of your pieces from your corner into the opposite corner of the "
        f"{rs.board}x{rs.board} board. White moves first."
    )
    win = [
        "The first side to fill the opposite corner wins."
        if rs.completion == "IMMEDIATE"
        else "Fill the opposite corner first. When White fills it, Black still plays one more move: "
        "if Black fills its corner with that move, the game is a draw (§6.1).",
    ]
    lose: list[str] = []
    if rs.leave_home != "none":
        lose.append(_leave_home_rule(rs))
    if rs.return_home_loss_after is not None:
        lose.append(
            f"No going back (§6.3): after your move {rs.return_home_loss_after}, ending a move in your own "
            "corner loses at once."
        )
    lose += _judgement(rs)
    if rs.repetition != "none":
        lose.append(
            "Repetition (§6.5): the same position for the third time is a draw when both sides, or "
            "neither, still have pieces at home."
        )
    lose.append("A side with no legal move passes; two passes in a row are a draw (§6.10).")
    special = [
        f"A turn moves one piece: a step to a neighbouring empty square {DIRS[rs.step_dirs]}, or a jump "
        f"{DIRS[rs.jump_dirs]} over one adjacent piece, your own or the opponent's, to the empty square "
        "behind it; jumps may go on in the same turn. Nothing is captured.",
    ]
    if rs.anti_lock != "none" and rs.step_dirs == rs.jump_dirs == "ORTH":  # §6.7: off with diagonal moves
        special.append(
            "You may not cage an enemy piece with two of your pieces on each of its four sides (§6.7)."
        )
    if rs.mirror_limit is not None:
        window = f"of White's first {rs.mirror_window} moves" if rs.mirror_window else "of White's moves"
        special.append(f"Black may copy (mirror) at most {rs.mirror_limit} {window} (§6.8).")
    if rs.vrednyugi:
        special.append(
            "Вреднюги (§6.9): once one side has left its corner completely, the other must move its "
            "pieces out of its own corner first."
        )
    if rs.target_home_lock:
        special.append("A piece that has entered the target corner may not leave it again (§6.6).")
    return RulesHelp(
        game="ugolki",
        title="Ugolki (corners)",
        goal=goal,
        win=tuple(win),
        lose=tuple(lose),
        special=tuple(special),
    )


def _at_home(state: UgolkiState, side: int) -> int:
    own = state.white if side == WHITE else state.black
    return (own & state.geo.homes[side]).bit_count()


def end_text(state: UgolkiState, out: Outcome, names: Mapping[str, str]) -> str:
    """Why the game ended, e.g. "Black still had a piece in its own corner after Black's move 40"."""
    rs = state.ruleset
    loser = None if out.draw else (BLACK if out.ranks[0] == 1 else WHITE)
    winner = None if loser is None else 1 - loser
    black_moves = state.moves_made[1]
    reason = out.reason
    if reason == "completion":
        if out.draw:
            return "both sides filled the opposite corner in the same number of moves."
        return f"{SIDE[winner or 0]} filled the opposite corner first."
    if reason == "leave_home":
        k = rs.leave_home_threshold
        what = "a piece" if k == 1 else f"{k} or more pieces"
        if out.draw:
            return f"both sides still had {what} in their own corners after Black's move {black_moves}."
        n = _at_home(state, loser or 0)
        return (
            f"{SIDE[loser or 0]} still had {_pieces(n)} in its own corner after Black's move {black_moves}."
        )
    if reason == "return_home":
        side = loser or 0
        return (
            f"{SIDE[side]} ended move {state.moves_made[side]} in its own corner, which loses after "
            f"move {rs.return_home_loss_after}."
        )
    if reason in ("long_game_tempo", "move_cap"):
        tw, tb = (int(x) for x in out.scores) if len(out.scores) == 2 else (0, 0)
        rule = "the long-game rule" if reason == "long_game_tempo" else "the move cap"
        judged = f"after Black's move {black_moves} {rule} judged the game by tempo (White {tw}, Black {tb})"
        return f"{judged}: equal, a draw." if out.draw else f"{judged}: the lower tempo wins."
    if reason == "long_game_count":
        cw, cb = (int(x) for x in out.scores) if len(out.scores) == 2 else (0, 0)
        judged = f"after Black's move {black_moves} the pieces in the opponent's corner were counted (White {cw}, Black {cb})"
        return f"{judged}: equal, a draw." if out.draw else f"{judged}: more pieces win."
    if reason == "repetition":
        return "the same position arose for the third time."
    if reason == "two_passes":
        return "neither side had a legal move (two passes in a row)."
    if reason == "resignation" and loser is not None:
        return f"{names.get(state.seats[loser], SIDE[loser])} resigned."
    return reason.replace("_", " ") + "."


def warnings(state: UgolkiState) -> tuple[UgolkiWarning, ...]:
    """What will end the game by rule soon: the leave-home countdown per side with pieces still at
    home, the return-home ban once in force, and the long-game judgement or move cap."""
    if state.result is not None:
        return ()
    rs = state.ruleset
    made = state.moves_made
    out: list[UgolkiWarning] = []
    check = leave_home_check(rs)
    if check is not None and (rs.leave_home != "STAGE" or made[BLACK] < check):
        for side in (WHITE, BLACK):
            home = _at_home(state, side)
            must_leave = home - rs.leave_home_threshold + 1
            if must_leave <= 0:
                continue
            left = max(check - made[side], 0)
            still = _pieces(home) + " still at home"
            if rs.leave_home_threshold > 1:
                still += f" (at most {rs.leave_home_threshold - 1} may stay)"
            out.append(
                UgolkiWarning(
                    seat=state.seats[side],
                    rule="leave_home",
                    moves_left=left,
                    urgent=left <= max(must_leave + 4, 10),
                    text=f"{SIDE[side]}: {still}, {_moves(left)} left to bring "
                    f"{'it' if must_leave == 1 else str(must_leave)} out (checked after Black's move {check}).",
                )
            )
    n = rs.return_home_loss_after
    if n is not None:
        for side in (WHITE, BLACK):
            if made[side] >= n:
                out.append(
                    UgolkiWarning(
                        seat=state.seats[side],
                        rule="return_home",
                        moves_left=0,
                        urgent=False,
                        text=f"{SIDE[side]}: ending a move in your own corner now loses (after move {n}).",
                    )
                )
    judged: list[tuple[int, str, str]] = []
    if rs.long_game != "none":
        crit = "tempo" if rs.long_game == "TEMPO" else "the count of pieces in the opponent's corner"
        judged.append((rs.long_game_moves, "long_game", f"the game is judged by {crit}"))
    if rs.move_cap is not None:
        judged.append((rs.move_cap, "move_cap", "the move cap ends the game, judged by tempo"))
    if judged:
        at, rule, what = min(judged)
        left = at - made[BLACK]
        if left > 0:
            out.append(
                UgolkiWarning(
                    seat=None,
                    rule=rule,
                    moves_left=left,
                    urgent=left <= 10,
                    text=f"After Black's move {at} {what}: {_moves(left)} left.",
                )
            )
    return tuple(out)
