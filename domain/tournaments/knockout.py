"""Knockout with seeding: seed 1 meets the last seed, brackets in the standard order (1, 8, 4, 5,
2, 7, 3, 6 for eight), and the missing seeds of a field short of a power of two are byes, so
byes fall to the top seeds."""

from __future__ import annotations


def bracket_order(size: int) -> tuple[int, ...]:
    """Seed numbers in bracket order for a power-of-two ``size``: adjacent pairs meet first."""
    if size < 1 or size & (size - 1):
        raise ValueError("bracket size must be a power of two")
    seeds = [1]
    while len(seeds) < size:
        total = 2 * len(seeds) + 1
        seeds = [x for s in seeds for x in (s, total - s)]
    return tuple(seeds)


def bracket_size(count: int) -> int:
    size = 1
    while size < count:
        size *= 2
    return size


def rounds_for(count: int) -> int:
    return max(1, (bracket_size(count) - 1).bit_length())


def first_round(count: int) -> tuple[tuple[int, int | None], ...]:
    """The first round's games as seed pairs in bracket order; ``None`` is a bye for the seed."""
    order = bracket_order(bracket_size(count))
    games: list[tuple[int, int | None]] = []
    for i in range(0, len(order), 2):
        a, b = sorted((order[i], order[i + 1]))
        games.append((a, b if b <= count else None))
    return tuple(games)
