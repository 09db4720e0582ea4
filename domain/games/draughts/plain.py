"""A plain generator written straight from rules/draughts.md §5.6 with coordinates and sets, for
the cross-check of the fast one (tests, ``make bench``): slow and obvious on purpose.

A position is ``{(file, rank): "w" | "W" | "b" | "B"}``; a move is (path of (file, rank),
captured squares in order, ends as a new king)."""

from __future__ import annotations

from contracts.games.draughts import DraughtsRuleset

DIRS = ((1, 1), (-1, 1), (1, -1), (-1, -1))
Sq = tuple[int, int]
PlainMove = tuple[tuple[Sq, ...], tuple[Sq, ...], bool]


def on_board(s: Sq) -> bool:
    return 1 <= s[0] <= 8 and 1 <= s[1] <= 8


def _mine(piece: str, white: bool) -> bool:
    return piece.lower() == ("w" if white else "b")


def moves(rules: DraughtsRuleset, board: dict[Sq, str], white: bool) -> list[PlainMove]:
    far = 8 if white else 1
    found: list[PlainMove] = []
    for s, piece in board.items():
        if _mine(piece, white):
            rest = {k: v for k, v in board.items() if k != s}
            _jumps(rules, rest, white, far, s, piece.isupper(), piece.isupper(), (s,), (), found)
    if found:
        if rules.capture_choice == "majority":
            most = max(len(m[1]) for m in found)
            found = [m for m in found if len(m[1]) == most]
        return found
    out: list[PlainMove] = []
    for s, piece in board.items():
        if not _mine(piece, white):
            continue
        for df, dr in DIRS:
            if piece.islower():
                t = (s[0] + df, s[1] + dr)
                if dr == (1 if white else -1) and on_board(t) and t not in board:
                    out.append(((s, t), (), t[1] == far))
                continue
            t = (s[0] + df, s[1] + dr)
            while on_board(t) and t not in board:
                out.append(((s, t), (), False))
                t = (t[0] + df, t[1] + dr)
    return out


def _enemy(board: dict[Sq, str], s: Sq, white: bool, dead: tuple[Sq, ...]) -> bool:
    return s in board and not _mine(board[s], white) and s not in dead


def _can_jump(board: dict[Sq, str], white: bool, s: Sq, king: bool, dead: tuple[Sq, ...]) -> bool:
    return bool(_jumps_from(board, white, s, king, dead))


def _jumps_from(
    board: dict[Sq, str], white: bool, s: Sq, king: bool, dead: tuple[Sq, ...]
) -> list[tuple[Sq, list[Sq]]]:
    out = []
    for df, dr in DIRS:
        q = (s[0] + df, s[1] + dr)
        if king:
            while on_board(q) and q not in board:
                q = (q[0] + df, q[1] + dr)
        if not on_board(q) or not _enemy(board, q, white, dead):
            continue
        beyond = []
        t = (q[0] + df, q[1] + dr)
        while on_board(t) and t not in board:
            beyond.append(t)
            if not king:
                break
            t = (t[0] + df, t[1] + dr)
        if beyond:
            out.append((q, beyond))
    return out


def _jumps(
    rules: DraughtsRuleset,
    board: dict[Sq, str],
    white: bool,
    far: int,
    s: Sq,
    king: bool,
    was_king: bool,
    path: tuple[Sq, ...],
    dead: tuple[Sq, ...],
    found: list[PlainMove],
) -> None:
    any_jump = False
    for q, beyond in _jumps_from(board, white, s, king, dead):
        d2 = (*dead, q)
        landing = beyond
        if king:
            cont = [t for t in beyond if _can_jump(board, white, t, True, d2)]
            landing = cont or beyond
        for t in landing:
            any_jump = True
            crowned = king or (rules.promotion_in_capture == "continue_as_king" and t[1] == far)
            _jumps(rules, board, white, far, t, crowned, was_king, (*path, t), d2, found)
    if not any_jump and dead:
        found.append((path, dead, (king or s[1] == far) and not was_king))
