"""perft (rules/tablut.md §12, T4) and the fast generator checked against the plain one written
straight from §5-§7, over random games of every preset."""

from __future__ import annotations

import random

import pytest

from domain.games.tablut import GAME, plain
from domain.games.tablut.board import ATTACKERS, LETTER, NAMES

from .helpers import ALL, SEATS, at, play

M1 = "3ttt3/4T1t2/T1T3T2/3t2T1t/1t1K5/4t1Ttt/1t2t4/t4T3/3ttt3 d"
TABLE = {
    "tablut-seed": ((72, 3944, 285728), (61, 5004, 291653)),
    "tablut-edge": ((80, 4400, 353200), (62, 5425, 323379)),
    "tablut-armed": ((72, 3944, 285728), (61, 4994, 291936)),
    "tablut-weak-king": ((72, 3944, 285728), (61, 5004, 282627)),
    "tablut-linnaeus": ((80, 4400, 353200), (61, 5323, 312778)),
}


@pytest.mark.parametrize("preset", ALL)
def test_12_perft_from_the_start_and_from_m1(preset: str) -> None:
    start, m1 = TABLE[preset]
    assert GAME.perft is not None
    assert [GAME.perft(at(preset=preset), d) for d in (1, 2, 3)] == list(start)
    assert [GAME.perft(at(M1, preset), d) for d in (1, 2, 3)] == list(m1)


@pytest.mark.parametrize(("preset", "nodes"), [("tablut-seed", 15_951_824), ("tablut-edge", 19_913_864)])
def test_12_perft_4_from_the_start(preset: str, nodes: int) -> None:
    """§12: depth 4, with the corners on and off (the two distinct rows of the start)."""
    assert GAME.perft is not None
    assert GAME.perft(at(preset=preset), 4) == nodes


def test_12_a_move_that_ends_the_game_is_a_leaf() -> None:
    """The king escapes at depth 1: counted there, no children below."""
    s = at("9/1T5t1/9/9/9/9/K8/9/9 d")
    assert GAME.perft is not None
    one = GAME.perft(s, 1)
    two = GAME.perft(s, 2)
    escapes = 1  # a3-a1
    after = sum(GAME.perft(play(s, c.move), 1) for c in GAME.legal_commands(s, SEATS[1]) if c.move != "a3-a1")
    assert two == after and one == len(GAME.legal_commands(s, SEATS[1])) and escapes == 1


def _plain_board(state: object) -> dict[tuple[int, int], str]:
    board = state.board  # type: ignore[attr-defined]
    return {(i % 9, i // 9): LETTER[p] for i, p in enumerate(board) if p}


@pytest.mark.parametrize("preset", ALL)
def test_the_fast_generator_agrees_with_the_plain_one_over_random_games(preset: str) -> None:
    rng = random.Random(preset)
    for _ in range(6):
        s = at(preset=preset)
        while GAME.outcome(s) is None:
            board = _plain_board(s)
            want = sorted(f"{NAMES[a[1] * 9 + a[0]]}-{NAMES[b[1] * 9 + b[0]]}" for a, b in plain.moves(s.rules, board, s.side == ATTACKERS))
            cmds = GAME.legal_commands(s, SEATS[s.side])
            assert sorted(c.move.split("x")[0] for c in cmds) == want
            for c in cmds:
                frm, to = c.move.split("x")[0].split("-")
                b = dict(board)
                fq = (ord(frm[0]) - 97, int(frm[1]) - 1)
                tq = (ord(to[0]) - 97, int(to[1]) - 1)
                b[tq] = b.pop(fq)
                taken = sorted(NAMES[q[1] * 9 + q[0]] for q in plain.captured(s.rules, b, tq))
                assert sorted(c.move.split("x")[1:]) == taken, (c.move, taken)
            s = play(s, rng.choice(cmds).move)
