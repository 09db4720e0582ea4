"""The move generator and the captures (rules/tablut.md §5-§7) on a board of 81 bytes, walking the
precomputed rays of ``board``: the fast generator the referee, perft and the computer players use.

A move is a pair (from, to).  ``moves`` lists the legal moves of a side (§5); ``captures`` the
squares a move takes (§6, §7), the king's included; ``apply`` the board after a move."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from contracts.games.tablut import TablutRuleset

from .board import (
    ATTACKER,
    ATTACKERS,
    BESIDE_THRONE,
    CORNERS,
    DEFENDER,
    EDGE,
    EMPTY,
    KING,
    NEIGHBOURS,
    PAIRS,
    RAYS,
    THRONE,
)

Move = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Geometry:
    """A ruleset's parameters as the generator reads them."""

    corners: frozenset[int]  # the special corners (empty with corners = none)
    escape: frozenset[int]
    king_return: bool
    throne_pass: bool
    throne_hostile: bool
    king_armed: bool
    king_capture: str
    linnaean: bool


@lru_cache(maxsize=64)
def geometry(rules: TablutRuleset) -> Geometry:
    corners = CORNERS if rules.corners == "special" else frozenset()
    return Geometry(
        corners=corners,
        escape=CORNERS if rules.escape == "corner" else EDGE,
        king_return=rules.king_may_return,
        throne_pass=rules.throne_pass == "all",
        throne_hostile=rules.throne_empty_hostile,
        king_armed=rules.king_armed,
        king_capture=rules.king_capture,
        linnaean=rules.linnaean_capture,
    )


def targets(g: Geometry, board: bytes | bytearray, s: int) -> list[int]:
    """Where the piece on ``s`` may move (§5 M1-M4, the walk of §5's last paragraph)."""
    king = board[s] == KING
    out: list[int] = []
    corners = g.corners
    for ray in RAYS[s]:
        for x in ray:
            if board[x]:
                break
            if x == THRONE:
                if king and g.king_return:
                    out.append(x)
                if g.throne_pass:
                    continue
                break
            if x in corners:
                if king:
                    out.append(x)
                break
            out.append(x)
    return out


def moves(g: Geometry, board: bytes | bytearray, side: int) -> list[Move]:
    """Every legal move of ``side``, by origin square and then by ray."""
    own = (ATTACKER,) if side == ATTACKERS else (DEFENDER, KING)
    out: list[Move] = []
    for s in range(81):
        if board[s] in own:
            out.extend((s, x) for x in targets(g, board, s))
    return out


def count_moves(g: Geometry, board: bytes | bytearray, side: int) -> int:
    """``len(moves(g, board, side))`` without building the list (perft's last ply)."""
    own = (ATTACKER,) if side == ATTACKERS else (DEFENDER, KING)
    corners, throne_pass, king_return = g.corners, g.throne_pass, g.king_return
    n = 0
    for s, p in enumerate(board):
        if p not in own:
            continue
        king = p == KING
        for ray in RAYS[s]:
            for x in ray:
                if board[x]:
                    break
                if x == THRONE:
                    if king and king_return:
                        n += 1
                    if throne_pass:
                        continue
                    break
                if x in corners:
                    if king:
                        n += 1
                    break
                n += 1
    return n


def has_move(g: Geometry, board: bytes | bytearray, side: int) -> bool:
    own = (ATTACKER,) if side == ATTACKERS else (DEFENDER, KING)
    return any(board[s] in own and targets(g, board, s) for s in range(81))


def _hostile_to_king(g: Geometry, board: bytes | bytearray, z: int) -> bool:
    """§7: an attacker, a special corner, or the empty throne when it is hostile."""
    p = board[z]
    if p == ATTACKER:
        return True
    if z in g.corners:
        return True
    return z == THRONE and p == EMPTY and g.throne_hostile


def _king_taken(g: Geometry, board: bytes | bytearray, x: int, k: int, z: int) -> bool:
    """Is the king on ``k`` captured by the attacker just landed on its neighbour ``x``?  ``z`` is
    the square beyond the king seen from ``x`` (-1 off the board)."""
    rule = g.king_capture
    if rule == "linnaeus":
        if k == THRONE:
            return all(board[n] == ATTACKER for n in NEIGHBOURS[k])
        if k in BESIDE_THRONE:
            return all(board[n] == ATTACKER for n in NEIGHBOURS[k] if n != THRONE)
        rule = "weak"
    if rule == "weak":
        return z >= 0 and _hostile_to_king(g, board, z)
    return all(_hostile_to_king(g, board, n) for n in NEIGHBOURS[k])


def captures(g: Geometry, board: bytes | bytearray, x: int) -> list[int]:
    """The squares the piece just put down on ``x`` takes (``board`` already shows it there),
    the king's square included, in no particular order (§6.2, §6.3, §7, K1-K3)."""
    p = board[x]
    out: list[int] = []
    if p == ATTACKER:
        for y, z in PAIRS[x]:
            q = board[y]
            if q == DEFENDER:
                if z >= 0:
                    r = board[z]
                    if (
                        r == ATTACKER
                        or z in g.corners
                        or (z == THRONE and r == EMPTY and g.throne_hostile)
                        or (
                            g.linnaean
                            and z == THRONE
                            and r == KING
                            and all(board[n] == ATTACKER for n in NEIGHBOURS[THRONE] if n != y)
                        )
                    ):
                        out.append(y)
            elif q == KING and _king_taken(g, board, x, y, z):
                out.append(y)
        return out
    if p == KING and not g.king_armed:
        return out
    armed = g.king_armed
    for y, z in PAIRS[x]:
        if board[y] == ATTACKER and z >= 0:
            r = board[z]
            if (
                r == DEFENDER
                or (r == KING and armed)
                or z in g.corners
                or (z == THRONE and r == EMPTY and g.throne_hostile)
            ):
                out.append(y)
    return out


def apply(g: Geometry, board: bytes | bytearray, move: Move) -> tuple[bytearray, list[int]]:
    """The board after ``move`` and the squares it took (removed together, K2)."""
    s, x = move
    b = bytearray(board)
    b[x] = b[s]
    b[s] = EMPTY
    taken = captures(g, b, x)
    for y in taken:
        b[y] = EMPTY
    return b, taken


def king_square(board: bytes | bytearray) -> int | None:
    k = board.find(KING)
    return None if k < 0 else k


def king_routes(g: Geometry, board: bytes | bytearray) -> list[int]:
    """The escape squares the king could reach with one legal move (§8.7)."""
    k = king_square(board)
    if k is None:
        return []
    return sorted(x for x in targets(g, board, k) if x in g.escape)
