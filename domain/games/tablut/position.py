"""Position strings (rules/tablut.md §9.3): nine ranks, rank 9 first, ``t`` ``T`` ``K`` and digits
for empty squares, then ``a`` or ``d`` for the side to move."""

from __future__ import annotations

from contracts.games.tablut import TablutRuleset

from .board import ATTACKER, ATTACKERS, CORNERS, DEFENDER, DEFENDERS, KING, LETTER, PIECE, THRONE

START = "3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3 a"


class BadPosition(ValueError):
    pass


def parse(text: str, rules: TablutRuleset | None = None) -> tuple[bytes, int]:
    """A position string -> (board, side to move); raises ``BadPosition`` naming the fault.  With
    ``rules``, the corners must be empty of attackers and defenders when they are special."""
    parts = text.strip().split()
    if len(parts) != 2 or parts[1] not in ("a", "d"):
        raise BadPosition(f"{text!r}: nine ranks, a space and the side to move (a or d)")
    ranks = parts[0].split("/")
    if len(ranks) != 9:
        raise BadPosition(f"{text!r}: {len(ranks)} ranks, not 9")
    board = bytearray(81)
    for i, row in enumerate(ranks):
        rank = 8 - i
        f = 0
        for ch in row:
            if ch.isdigit() and ch != "0":
                f += int(ch)
            elif ch in PIECE:
                if f >= 9:
                    raise BadPosition(f"{text!r}: rank {rank + 1} has more than 9 squares")
                board[rank * 9 + f] = PIECE[ch]
                f += 1
            else:
                raise BadPosition(f"{text!r}: {ch!r} is not t, T, K or a digit 1-9")
        if f != 9:
            raise BadPosition(f"{text!r}: rank {rank + 1} has not 9 squares")
    if board.count(KING) > 1:
        raise BadPosition(f"{text!r}: more than one king")
    if board.count(ATTACKER) > 16 or board.count(DEFENDER) > 8:
        raise BadPosition(f"{text!r}: at most 16 attackers and 8 defenders")
    if board[THRONE] in (ATTACKER, DEFENDER):
        raise BadPosition(f"{text!r}: only the king stands on the throne e5")
    if (rules is None or rules.corners == "special") and any(board[c] in (ATTACKER, DEFENDER) for c in CORNERS):
        raise BadPosition(f"{text!r}: only the king stands on a corner")
    return bytes(board), ATTACKERS if parts[1] == "a" else DEFENDERS


def write(board: bytes | bytearray, side: int) -> str:
    rows = []
    for rank in range(8, -1, -1):
        row, gap = "", 0
        for f in range(9):
            p = board[rank * 9 + f]
            if p:
                row += (str(gap) if gap else "") + LETTER[p]
                gap = 0
            else:
                gap += 1
        rows.append(row + (str(gap) if gap else ""))
    return "/".join(rows) + (" a" if side == ATTACKERS else " d")
