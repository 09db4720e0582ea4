"""perft (rules/draughts.md §10.13, D2) and the cross-check of the fast generator against the plain
set-based one written from §5.6, over seeded random games of every preset."""

from __future__ import annotations

import random

import pytest

from domain.games.draughts import GAME, plain
from domain.games.draughts.board import BIT, coords, squares
from domain.games.draughts.movegen import all_paths
from domain.games.draughts.perft import perft, perft_paths
from domain.games.draughts.state import DraughtsState, Position

from .helpers import at, moves, play


@pytest.mark.parametrize(("depth", "nodes"), [(1, 7), (2, 49), (3, 302), (4, 1469), (5, 7482), (6, 37986)])
def test_10_13_perft_from_the_start(depth: int, nodes: int) -> None:
    """§10.13: the published counts (moves = paths up to depth 7)."""
    assert perft(at(), depth) == nodes == perft_paths(at(), depth)


def test_10_13_brazilian_perft() -> None:
    """§10.13: brazilian (S15) 7, 49, 302, 1,469, 7,473."""
    assert [perft_paths(at(preset="brazilian"), d) for d in range(1, 6)] == [7, 49, 302, 1469, 7473]


def test_10_13_duplicate_paths_are_one_move() -> None:
    """§10.13, §5.7: the ring capture position where Black's two paths take the same four men."""
    s = at("B:Wc5,e5,c3,e3,g3,b2,f2,h2,a1,c1,e1,g1:Bb8,d8,f8,h8,a7,e7,g7,b6,d6,f6,h6")
    assert perft_paths(s, 1) == perft(s, 1) + 1


def _board(pos: Position) -> dict[tuple[int, int], str]:
    out: dict[tuple[int, int], str] = {}
    for side, (man, king) in enumerate((("w", "W"), ("b", "B"))):
        out.update({coords(s): man for s in squares(pos.men[side])})
        out.update({coords(s): king for s in squares(pos.kings[side])})
    return out


def _fast(state: DraughtsState) -> set[tuple[tuple[tuple[int, int], ...], frozenset[tuple[int, int]], bool]]:
    return {
        (tuple(coords(s) for s in m.path), frozenset(coords(q) for q in m.captured), m.promoted)
        for m in all_paths(state.rules, state.pos)
    }


def _plain(state: DraughtsState) -> set[tuple[tuple[tuple[int, int], ...], frozenset[tuple[int, int]], bool]]:
    board = _board(state.pos)
    return {(p, frozenset(c), k) for p, c, k in plain.moves(state.rules, board, state.side == 0)}


@pytest.mark.parametrize("preset", sorted(GAME.presets))
def test_5_6_the_fast_generator_agrees_with_the_plain_one_on_random_games(preset: str) -> None:
    rng = random.Random(preset)
    positions = 0
    for game in range(12):
        s = at(preset=preset)
        while s.result is None and len(s.history) < 300:
            assert _fast(s) == _plain(s), (game, len(s.history))
            positions += 1
            s = play(s, rng.choice(moves(s)))
    assert positions > 500


def test_6_invariants_hold_over_random_games() -> None:
    """§6: men never on their far rank, at most 12 pieces a side, material never grows."""
    rng = random.Random(6)
    for _ in range(10):
        s = at()
        count = 24
        while s.result is None:
            pos = s.pos
            assert not pos.men[0] & sum(BIT[q] for q in range(4)) and not pos.men[1] & sum(
                BIT[q] for q in range(28, 32)
            )
            assert pos.pieces(0).bit_count() <= 12 and pos.pieces(1).bit_count() <= 12
            assert pos.occupied().bit_count() <= count
            count = pos.occupied().bit_count()
            s = play(s, rng.choice(moves(s)))
