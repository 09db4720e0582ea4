"""Board geometry as int bitboards with two guard files (rules/ugolki.md §0, §3).

Square (file f, rank r), both 1-based, has bit index ``(r - 1) * W + (f - 1)`` with
``W = N + 2``.  The two guard files to the right of file N absorb every horizontal or
diagonal shift of one or two squares, so a shift followed by ``& BOARD`` never wraps.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from contracts.games.ugolki import UgolkiRuleset, layout_offsets

ORTH_VECTORS: tuple[tuple[int, int], ...] = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAG_VECTORS: tuple[tuple[int, int], ...] = ((1, 1), (-1, 1), (1, -1), (-1, -1))
VECTORS = {"ORTH": ORTH_VECTORS, "DIAG": DIAG_VECTORS, "ALL8": ORTH_VECTORS + DIAG_VECTORS}
FILES = "abcdefghij"


def shift(bits: int, by: int) -> int:
    return bits << by if by > 0 else bits >> -by


def iter_bits(bits: int) -> list[int]:
    """Set bits as single-bit ints, lowest first."""
    out = []
    while bits:
        low = bits & -bits
        out.append(low)
        bits ^= low
    return out


@dataclass(frozen=True, eq=False)  # one cached instance per key: identity is equality
class Geometry:
    """Everything about one board + layout + corner + direction sets that never changes."""

    n: int
    width: int
    board: int  # mask of real squares
    step_shifts: tuple[int, ...]
    jump_shifts: tuple[int, ...]
    step_up: tuple[int, ...]  # positive step shifts
    step_down: tuple[int, ...]  # magnitudes of the negative step shifts
    jump_up: tuple[int, ...]  # positive jump direction shifts (one square)
    jump_down: tuple[int, ...]
    homes: tuple[int, int]  # own-home mask of white, black
    corners: tuple[int, int]  # index of each side's own corner square
    names: dict[int, str]  # bit index -> "e4"
    index: dict[str, int]  # "e4" -> bit index
    dist: tuple[tuple[int, ...], tuple[int, ...]]  # taxicab distance to each side's target corner
    sigma: tuple[int, ...]  # 180-degree rotation of each index (-1 for guards)
    diagonal_mirror: tuple[int, ...]  # reflection in the board diagonal that avoids the homes
    orth_only: bool

    def file_rank(self, idx: int) -> tuple[int, int]:
        return idx % self.width + 1, idx // self.width + 1

    def idx(self, file: int, rank: int) -> int:
        return (rank - 1) * self.width + (file - 1)

    def on_board(self, file: int, rank: int) -> bool:
        return 1 <= file <= self.n and 1 <= rank <= self.n

    def name(self, idx: int) -> str:
        return self.names[idx]

    def squares(self, bits: int) -> tuple[int, ...]:
        return tuple(b.bit_length() - 1 for b in iter_bits(bits))

    def tempo(self, side: int, bits: int) -> int:
        table = self.dist[side]
        return sum(table[b.bit_length() - 1] for b in iter_bits(bits))


def _dirs_shifts(width: int, dirs: str) -> tuple[int, ...]:
    return tuple(dr * width + df for df, dr in VECTORS[dirs])


@cache
def geometry(n: int, layout: str, white_corner: str, step_dirs: str, jump_dirs: str) -> Geometry:
    width = n + 2
    size = width * n

    def ix(f: int, r: int) -> int:
        return (r - 1) * width + (f - 1)

    board = 0
    names: dict[int, str] = {}
    for r in range(1, n + 1):
        for f in range(1, n + 1):
            board |= 1 << ix(f, r)
            names[ix(f, r)] = f"{FILES[f - 1]}{r}"
    offsets = layout_offsets(layout)
    if white_corner == "BR":
        white_sq = [(n - dx, 1 + dy) for dx, dy in offsets]
        white_corner_sq = (n, 1)
    else:
        white_sq = [(1 + dx, 1 + dy) for dx, dy in offsets]
        white_corner_sq = (1, 1)
    black_sq = [(n + 1 - f, n + 1 - r) for f, r in white_sq]
    black_corner_sq = (n + 1 - white_corner_sq[0], n + 1 - white_corner_sq[1])
    white_home = sum(1 << ix(f, r) for f, r in white_sq)
    black_home = sum(1 << ix(f, r) for f, r in black_sq)
    # Tempo (§7): taxicab distance to the corner inside the target home (= the opponent's corner).
    dist_w = [0] * size
    dist_b = [0] * size
    sigma = [-1] * size
    mirror = [-1] * size
    for r in range(1, n + 1):
        for f in range(1, n + 1):
            i = ix(f, r)
            dist_w[i] = abs(f - black_corner_sq[0]) + abs(r - black_corner_sq[1])
            dist_b[i] = abs(f - white_corner_sq[0]) + abs(r - white_corner_sq[1])
            sigma[i] = ix(n + 1 - f, n + 1 - r)
            # §6.8: BR homes -> (f, r) -> (r, f); BL homes -> (f, r) -> (N+1-r, N+1-f).
            mirror[i] = ix(r, f) if white_corner == "BR" else ix(n + 1 - r, n + 1 - f)
    steps = _dirs_shifts(width, step_dirs)
    jumps = _dirs_shifts(width, jump_dirs)
    return Geometry(
        n=n,
        width=width,
        board=board,
        step_shifts=steps,
        jump_shifts=jumps,
        step_up=tuple(x for x in steps if x > 0),
        step_down=tuple(-x for x in steps if x < 0),
        jump_up=tuple(x for x in jumps if x > 0),
        jump_down=tuple(-x for x in jumps if x < 0),
        homes=(white_home, black_home),
        corners=(ix(*white_corner_sq), ix(*black_corner_sq)),
        names=names,
        index={v: k for k, v in names.items()},
        dist=(tuple(dist_w), tuple(dist_b)),
        sigma=tuple(sigma),
        diagonal_mirror=tuple(mirror),
        orth_only=step_dirs == "ORTH" and jump_dirs == "ORTH",
    )


def geometry_for(ruleset: UgolkiRuleset) -> Geometry:
    return geometry(ruleset.board, ruleset.layout, ruleset.white_corner, ruleset.step_dirs, ruleset.jump_dirs)
