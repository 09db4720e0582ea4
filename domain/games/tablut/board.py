"""The 9×9 board of rules/tablut.md §0: squares ``(rank - 1) * 9 + (file - 1)`` (a1 = 0, i9 = 80),
the throne, corners and edge, and the rays a rook move walks along, computed once."""

from __future__ import annotations

EMPTY, ATTACKER, DEFENDER, KING = 0, 1, 2, 3
ATTACKERS, DEFENDERS = 0, 1  # the sides, and seat 0 / seat 1 (§0)
LETTER = {ATTACKER: "t", DEFENDER: "T", KING: "K"}
PIECE = {v: k for k, v in LETTER.items()}

FILES = "abcdefghi"
NAMES: tuple[str, ...] = tuple(f"{FILES[i % 9]}{i // 9 + 1}" for i in range(81))
INDEX: dict[str, int] = {n: i for i, n in enumerate(NAMES)}

THRONE = INDEX["e5"]
CORNERS: frozenset[int] = frozenset(INDEX[s] for s in ("a1", "i1", "a9", "i9"))
EDGE: frozenset[int] = frozenset(i for i in range(81) if i % 9 in (0, 8) or i // 9 in (0, 8))


def _step(sq: int, d: tuple[int, int]) -> int | None:
    f, r = sq % 9 + d[0], sq // 9 + d[1]
    return r * 9 + f if 0 <= f < 9 and 0 <= r < 9 else None


DIRECTIONS = ((0, 1), (0, -1), (1, 0), (-1, 0))


def _ray(sq: int, d: tuple[int, int]) -> tuple[int, ...]:
    out = []
    nxt = _step(sq, d)
    while nxt is not None:
        out.append(nxt)
        nxt = _step(nxt, d)
    return tuple(out)


# RAYS[s]: for each direction, the squares from s's neighbour to the board's edge.
RAYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(tuple(_ray(s, d) for d in DIRECTIONS) for s in range(81))
# NEIGHBOURS[s]: the squares next to s on the board.
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(tuple(r[0] for r in RAYS[s] if r) for s in range(81))
# PAIRS[s]: for each direction with a neighbour y, (y, z) where z is the square beyond y or -1.
PAIRS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((r[0], r[1] if len(r) > 1 else -1) for r in RAYS[s] if r) for s in range(81)
)
BESIDE_THRONE: frozenset[int] = frozenset(NEIGHBOURS[THRONE])


def side_of(piece: int) -> int | None:
    if piece == ATTACKER:
        return ATTACKERS
    if piece in (DEFENDER, KING):
        return DEFENDERS
    return None
