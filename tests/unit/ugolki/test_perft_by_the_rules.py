"""perft against the referee itself: near a deadline, a filter or an end rule, the counts are the
move sequences decide accepts (rules/ugolki.md §4.2, §6.2, §6.3, §6.6-§6.8, §6.10, §6.11)."""

from __future__ import annotations

import random

import pytest

from contracts.envelope import Rejected
from contracts.games.ugolki import MovePiece, PieceMoved, TurnPassed
from domain.games.ugolki import GAME
from domain.games.ugolki.legal import target_of
from domain.games.ugolki.movegen import count_moves
from domain.games.ugolki.perft import perft
from domain.games.ugolki.state import UgolkiState
from tests.unit.ugolki.helpers import pos, rules


def accepted_moves(state: UgolkiState) -> list[PieceMoved]:
    """Every (from, to) pair decide accepts for the side to move, as the move it records."""
    seat = state.seats[state.side]
    geo = state.geo
    own, _ = state.boards(state.side)
    out = []
    for a in geo.squares(own):
        for b in sorted(geo.names):
            decided = GAME.decide(state, seat, MovePiece(path=(geo.names[a], geo.names[b])))
            if not isinstance(decided, Rejected):
                first = decided[0]
                assert isinstance(first, PieceMoved)
                out.append(first)
    return out


def reference_perft(state: UgolkiState, depth: int) -> int:
    """§4.2 and §6.10 by the referee: one node per accepted (from, to) move, or one forced pass;
    a finished game has no children."""
    if depth == 0:
        return 1
    if GAME.outcome(state) is not None:
        return 0
    moves = accepted_moves(state)
    if not moves:
        return reference_perft(GAME.evolve(state, TurnPassed(seat=state.seats[state.side])), depth - 1)
    return sum(reference_perft(GAME.evolve(state, move), depth - 1) for move in moves)


def test_after_the_return_home_deadline_a_move_home_has_no_children() -> None:
    """§6.3 (ugolki-50, its leave-home check left out): White's 51st move onto a square of its
    home loses at once, so that line ends there.  White b4 may step to b3 (home, loses), a4, c4
    or b5; Black h5 has h4, g5 and h6."""
    state = pos(rules("ugolki-50", leave_home="none"), "b4", "h5", (50, 50))
    assert perft(state, 1) == 4
    assert perft(state, 2) == 3 * 3  # the three lines that did not end have Black's three replies
    assert perft(state, 3) == reference_perft(state, 3)


def test_when_both_fail_the_continuous_leave_home_check_every_line_ends() -> None:
    """§6.2 CONT(>50, 1) without the return ban: after Black's 51st move both sides still have a
    piece at home (a1 and h8 can only step inside their homes), a draw, so depth 3 has no nodes."""
    state = pos(rules("ugolki-50", return_home_loss_after=None), "a1", "h8", (50, 50))
    assert perft(state, 1) == 2  # a1-a2, a1-b1
    assert perft(state, 2) == 2 * 2  # h8-h7, h8-g8
    assert perft(state, 3) == 0


@pytest.mark.parametrize("preset", ["halma-8x8-1234", "shashki-online-12"])
def test_with_no_copies_allowed_black_never_mirrors_the_first_move(preset: str) -> None:
    """§6.8 with a limit of 0 (windowed and whole-game): the start is σ-symmetric, so each of
    White's 14 first moves has exactly one mirror reply among Black's 14, and it is refused."""
    state = GAME.initial_state(rules(preset, mirror_limit=0), ("white", "black"), None)
    assert perft(state, 1) == 14
    assert perft(state, 2) == 14 * 13


def test_a_caging_move_is_not_counted() -> None:
    """§6.7 LITERAL_ORTH: the step e7-d7 would cage Black's d5 on all four sides, so perft(1) is
    the number of moves decide accepts, one fewer than the geometry allows."""
    state = pos(rules(), "d6 d4 d3 c5 b5 e5 f5 e7 h1", "d5 a8")
    moves = accepted_moves(state)
    assert ("e7", "d7") not in {(m.path[0], m.path[-1]) for m in moves}
    assert perft(state, 1) == len(moves)
    assert perft(state, 2) == reference_perft(state, 2)


@pytest.mark.parametrize("final_only", [False, True])
def test_the_bulk_count_under_the_target_home_lock_is_what_decide_accepts(final_only: bool) -> None:
    """§6.6: the leaf count of perft (``count_moves``) counts each piece already in its target home
    only with the moves that keep it inside (every landing, or the final square with the flag)."""
    rs = rules("kosynka-universal", target_home_lock_final_only=final_only)
    r = random.Random(11)
    names = sorted(GAME.initial_state(rs, ("white", "black"), None).geo.index)
    checked_locked = 0
    for _ in range(30):
        chosen = r.sample(names, 24)
        state = pos(rs, " ".join(chosen[:12]), " ".join(chosen[12:]))
        geo = state.geo
        own, opp = state.boards(state.side)
        target = target_of(geo, state.side)
        checked_locked += (own & target).bit_count()
        lock = 2 if final_only else 1
        assert count_moves(geo, own, opp, target, lock) == len(accepted_moves(state))
    assert checked_locked >= 10
