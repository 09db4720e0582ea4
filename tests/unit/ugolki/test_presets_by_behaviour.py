"""Every Ugolki preset's own numbers, tested by what they change in play (rules/ugolki.md §6, §10, D3).

For each preset, with its own ruleset (no overrides): the leave-home deadline fires at exactly its
move and threshold (§6.2), the return-home ban at exactly its move (§6.3), the long-game
adjudication and D3's move cap at exactly their move (§6.4, D3), and not one move earlier.
"""

from __future__ import annotations

from typing import Any

import pytest

from contracts.games.ugolki import UgolkiRuleset
from domain.games.ugolki import GAME
from domain.games.ugolki.rules import PRESETS
from domain.games.ugolki.state import BLACK, WHITE, UgolkiState, position
from tests.unit.ugolki.helpers import mv

NAMES = sorted(PRESETS)


def _homes(rs: UgolkiRuleset) -> tuple[list[str], list[str], list[str]]:
    """White's home, Black's home and the squares in neither, by name."""
    geo = position(rs, [], []).geo
    white = [geo.names[i] for i in geo.squares(geo.homes[WHITE])]
    black = [geo.names[i] for i in geo.squares(geo.homes[BLACK])]
    free = [geo.names[i] for i in sorted(geo.names) if geo.names[i] not in white and geo.names[i] not in black]
    return white, black, free


def _black_move(state: UgolkiState, avoid: set[str]) -> Any:
    """A legal move of Black's that ends outside ``avoid``."""
    for cmd in GAME.legal_commands(state, "black"):
        if cmd.path[-1] not in avoid:
            return mv(cmd.path[0], cmd.path[-1])
    raise AssertionError("no such black move")


def _after_black(rs: UgolkiRuleset, white: list[str], black: list[str], black_moves: int, avoid: set[str]) -> Any:
    state = position(rs, white, black, (black_moves, black_moves - 1))
    events = GAME.decide(state, "black", _black_move(state, avoid))
    assert isinstance(events, tuple), events
    for event in events:
        state = GAME.evolve(state, event)
    return GAME.outcome(state)


def _centre(free: list[str], rs: UgolkiRuleset, k: int) -> list[str]:
    """k squares in neither home, well apart from each other (no jumps between them)."""
    geo = position(rs, [], []).geo
    picked: list[str] = []
    for name in free:
        f, r = geo.file_rank(geo.index[name])
        if all(max(abs(f - a), abs(r - b)) >= 3 for a, b in (geo.file_rank(geo.index[p]) for p in picked)):
            picked.append(name)
        if len(picked) == k:
            return picked
    raise AssertionError("board too small")


@pytest.mark.parametrize("name", NAMES)
def test_the_leave_home_deadline_fires_at_the_presets_own_move_and_threshold(name: str) -> None:
    """§6.2: STAGE(N) at Black's N-th move, CONT(>N) from the (N+1)-th, CONT(>=N) from the N-th;
    a side with at least k pieces at home then fails (k - 1 is fine)."""
    rs = PRESETS[name]
    if rs.leave_home == "none":
        pytest.skip("no leave-home rule in this preset")
    _, black_home, free = _homes(rs)
    n, k = rs.leave_home_moves, rs.leave_home_threshold
    due = n + 1 if rs.leave_home == "CONT_GT" else n
    white_sq, black_sq = _centre(free, rs, 2)
    stay = black_home[:k]
    out = _after_black(rs, [white_sq], [*stay, black_sq], due, set(black_home))
    assert out is not None and out.reason == "leave_home" and out.ranks == (1, 2), (name, out)
    assert _after_black(rs, [white_sq], [*stay, black_sq], due - 1, set(black_home)) is None
    if k > 1:
        assert _after_black(rs, [white_sq], [*stay[:-1], black_sq], due, set(black_home)) is None
    if rs.leave_home == "STAGE":  # checked once only
        assert _after_black(rs, [white_sq], [*stay, black_sq], due + 1, set(black_home)) is None


@pytest.mark.parametrize("name", NAMES)
def test_the_return_home_ban_starts_after_the_presets_own_move(name: str) -> None:
    """§6.3: after N moves, a move ending in the mover's own home loses at once."""
    rs = PRESETS[name]
    if rs.return_home_loss_after is None:
        pytest.skip("no return-home ban in this preset")
    n = rs.return_home_loss_after
    _, black_home, free = _homes(rs)
    # A black piece next to its own home, stepping in.
    white_sq = free[-1] if free[-1] not in black_home else free[0]
    for sq in free:
        if sq == white_sq:
            continue
        state = position(rs, [white_sq], [sq], (n + 1, n))
        home_moves = [c for c in GAME.legal_commands(state, "black") if c.path[-1] in black_home]
        if home_moves:
            break
    else:  # pragma: no cover
        raise AssertionError("no square next to Black's home")
    move = mv(home_moves[0].path[0], home_moves[0].path[-1])

    def outcome(black_moves: int) -> Any:
        s = position(rs, [white_sq], [sq], (black_moves + 1, black_moves))
        events = GAME.decide(s, "black", move)
        assert isinstance(events, tuple), events
        for event in events:
            s = GAME.evolve(s, event)
        return GAME.outcome(s)

    lost = outcome(n)  # Black's (n+1)-th move
    assert lost is not None and lost.reason == "return_home" and lost.ranks == (1, 2), (name, lost)
    assert outcome(n - 1) is None or outcome(n - 1).reason != "return_home"


@pytest.mark.parametrize("name", NAMES)
def test_the_game_is_judged_at_the_presets_own_long_game_move_or_cap(name: str) -> None:
    """§6.4 at Black's M-th move (tempo or piece count), or D3's move cap; not a move earlier."""
    rs = PRESETS[name]
    if rs.long_game != "none":
        m, reason = rs.long_game_moves, f"long_game_{rs.long_game.lower()}"
    else:
        assert rs.move_cap is not None, f"{name}: D3 gives every preset without an end rule a cap"
        m, reason = rs.move_cap, "move_cap"
    white_home, black_home, free = _homes(rs)
    # White has two pieces in Black's home (more pieces there, and a lower tempo), Black none in White's.
    white = black_home[:2]
    black = _centre(free, rs, 2)
    out = _after_black(rs, white, black, m, set(black_home) | set(white_home))
    assert out is not None and out.reason == reason and out.ranks == (1, 2), (name, out)
    assert _after_black(rs, white, black, m - 1, set(black_home) | set(white_home)) is None
