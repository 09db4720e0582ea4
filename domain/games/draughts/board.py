"""The board of rules/draughts.md §3: the 32 dark squares, numbered 0..31 here (the numeric square
of §3.2 minus one: 0 = b8, 3 = h8, 28 = a1, 31 = g1), their algebraic names, and the rays along the
four diagonals, precomputed once (the move generator walks them instead of computing squares)."""

from __future__ import annotations

FILES = "abcdefgh"
NE, NW, SE, SW = 0, 1, 2, 3  # as White sees the board: north is towards rank 8
STEPS = {NE: (1, 1), NW: (-1, 1), SE: (1, -1), SW: (-1, -1)}
FORWARD = ((NE, NW), (SE, SW))  # White's, Black's
WHITE, BLACK = 0, 1


def coords(sq: int) -> tuple[int, int]:
    """(file 1..8, rank 1..8) of square ``sq`` (§3.2's formula)."""
    row, k = divmod(sq, 4)
    rank = 8 - row
    file = 2 * k + 2 if rank % 2 == 0 else 2 * k + 1
    return file, rank


SQUARE_OF: dict[tuple[int, int], int] = {coords(s): s for s in range(32)}
NAMES: tuple[str, ...] = tuple(f"{FILES[f - 1]}{r}" for f, r in (coords(s) for s in range(32)))
INDEX: dict[str, int] = {name: i for i, name in enumerate(NAMES)}


def _ray(sq: int, d: int) -> tuple[int, ...]:
    f, r = coords(sq)
    df, dr = STEPS[d]
    out = []
    f, r = f + df, r + dr
    while (f, r) in SQUARE_OF:
        out.append(SQUARE_OF[(f, r)])
        f, r = f + df, r + dr
    return tuple(out)


RAYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(tuple(_ray(s, d) for d in range(4)) for s in range(32))
BIT: tuple[int, ...] = tuple(1 << s for s in range(32))
FAR_RANK = (
    sum(BIT[s] for s in range(32) if coords(s)[1] == 8),
    sum(BIT[s] for s in range(32) if coords(s)[1] == 1),
)
MAIN_ROAD = sum(BIT[s] for s in (28, 24, 21, 17, 14, 10, 7, 3))  # a1-h8: 29, 25, 22, 18, 15, 11, 8, 4 (§3.3)


def squares(bits: int) -> list[int]:
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out
