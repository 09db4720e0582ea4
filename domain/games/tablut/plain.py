"""A plain generator written straight from the text of rules/tablut.md §5-§7, on a dict of
(file, rank) -> piece letter, with no precomputed tables: the yardstick the fast generator
(``engine``) is checked against in the tests and measured against in ``make bench``."""

from __future__ import annotations

from contracts.games.tablut import TablutRuleset

Sq = tuple[int, int]  # file 0-8, rank 0-8
THRONE: Sq = (4, 4)
CORNERS = {(0, 0), (8, 0), (0, 8), (8, 8)}
STEPS = ((0, 1), (0, -1), (1, 0), (-1, 0))


def _on(q: Sq) -> bool:
    return 0 <= q[0] < 9 and 0 <= q[1] < 9


def _corner(rules: TablutRuleset, q: Sq) -> bool:
    return rules.corners == "special" and q in CORNERS


def moves(rules: TablutRuleset, board: dict[Sq, str], attackers: bool) -> list[tuple[Sq, Sq]]:
    """M1-M4: every (from, to) of the side to move."""
    mine = {"t"} if attackers else {"T", "K"}
    out = []
    for s, p in sorted(board.items()):
        if p not in mine:
            continue
        for df, dr in STEPS:
            x = (s[0] + df, s[1] + dr)
            while _on(x) and x not in board:
                if x == THRONE:
                    if p == "K" and rules.king_may_return:
                        out.append((s, x))
                    if rules.throne_pass == "none":
                        break
                elif _corner(rules, x):
                    if p == "K":
                        out.append((s, x))
                    break
                else:
                    out.append((s, x))
                x = (x[0] + df, x[1] + dr)
    return out


def _hostile(rules: TablutRuleset, board: dict[Sq, str], z: Sq, capturer: set[str]) -> bool:
    if not _on(z):
        return False
    if board.get(z) in capturer:
        return True
    if _corner(rules, z):
        return True
    return z == THRONE and z not in board and rules.throne_empty_hostile


def captured(rules: TablutRuleset, board: dict[Sq, str], x: Sq) -> set[Sq]:
    """What the piece just put down on x takes (§6, §7); ``board`` shows it there."""
    p = board[x]
    out: set[Sq] = set()
    if p == "K" and not rules.king_armed:
        return out
    if p == "t":
        capturer, prey = {"t"}, "T"
    else:
        capturer, prey = ({"T", "K"} if rules.king_armed else {"T"}), "t"
    for df, dr in STEPS:
        y = (x[0] + df, x[1] + dr)
        z = (y[0] + df, y[1] + dr)
        if board.get(y) == prey:
            if _hostile(rules, board, z, capturer):
                out.add(y)
            elif (
                p == "t"
                and rules.linnaean_capture
                and z == THRONE
                and board.get(z) == "K"
                and all(
                    board.get((THRONE[0] + a, THRONE[1] + b)) == "t"
                    for a, b in STEPS
                    if (THRONE[0] + a, THRONE[1] + b) != y
                )
            ):
                out.add(y)
        elif p == "t" and board.get(y) == "K" and _king_taken(rules, board, y, z):
            out.add(y)
    return out


def _king_taken(rules: TablutRuleset, board: dict[Sq, str], k: Sq, beyond: Sq) -> bool:
    around = [(k[0] + a, k[1] + b) for a, b in STEPS]
    mode = rules.king_capture
    if mode == "linnaeus":
        if k == THRONE:
            return all(board.get(n) == "t" for n in around)
        if THRONE in around:
            return all(board.get(n) == "t" for n in around if n != THRONE)
        mode = "weak"
    if mode == "weak":
        return _hostile(rules, board, beyond, {"t"})
    return all(_hostile(rules, board, n, {"t"}) for n in around if _on(n))
