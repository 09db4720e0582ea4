"""Round robin by Berger tables (FIDE Handbook C.05, Annex 1).

Players are numbered 1..n by lot; an odd count adds the number n+1, and whoever meets it has the
bye.  With m = n - 1 (n even), in round r the player x with 2x = r + 1 (mod m) meets n, x
with White in odd rounds and n with White in even rounds; every other pair {a, b} of the round
has a + b = r + 1 (mod m), the one for which (b - a) mod m is odd has White, and the tables are
listed from White x + 1, x + 2, ... (residues written 1..m).  A double round robin plays the same
cycle again with the colours reversed.
"""

from __future__ import annotations

Pairs = tuple[tuple[int, int], ...]


def _residue(value: int, m: int) -> int:
    r = value % m
    return m if r == 0 else r


def berger_round(n: int, rnd: int) -> Pairs:
    """Round ``rnd`` (1-based, 1..n-1) for an even ``n``: (white, black) numbers, table order."""
    if n < 2 or n % 2:
        raise ValueError("berger_round needs an even n >= 2")
    m = n - 1
    if not 1 <= rnd <= m:
        raise ValueError(f"round {rnd} outside 1..{m}")
    if n == 2:
        return ((1, 2),)
    target = _residue(rnd + 1, m)
    fixed = next(x for x in range(1, m + 1) if _residue(2 * x, m) == target)
    first = (fixed, n) if rnd % 2 else (n, fixed)
    pairs = [first]
    for k in range(1, n // 2):
        white = _residue(fixed + k, m)
        black = _residue(target - white, m)
        if (black - white) % m % 2 == 0:
            white, black = black, white
        pairs.append((white, black))
    return tuple(pairs)


def schedule(count: int, cycles: int = 1) -> tuple[Pairs, ...]:
    """Every round of a round robin of ``count`` players (``cycles`` 1 or 2).  With an odd count
    the number count + 1 stands for the bye."""
    n = count + count % 2
    single = tuple(berger_round(n, r) for r in range(1, n))
    if cycles == 1:
        return single
    return single + tuple(tuple((b, w) for w, b in rnd) for rnd in single)
