"""decide and evolve: a move text is read (§9.2), checked in the order of §9.5 (T6), and recorded
with its captures and check (T3, T7); evolve plays it and decides the end (§8.6)."""

from __future__ import annotations

from contracts.envelope import Rejected
from contracts.games.tablut import PieceMoved, TablutMove

from .board import ATTACKER, ATTACKERS, CORNERS, DEFENDER, INDEX, KING, NAMES, THRONE
from .engine import geometry, targets
from .notation import read
from .play import after
from .state import TablutState


def _between(origin: int, to: int) -> list[int]:
    step = (1 if to > origin else -1) * (1 if origin // 9 == to // 9 else 9)
    return list(range(origin + step, to, step))


def check_move(state: TablutState, origin: int, to: int) -> Rejected | None:
    """§9.5's codes for (from, to), from ``no_piece`` on, in their order; None for a legal move."""
    board = state.board
    p = board[origin]
    own = p == ATTACKER if state.side == ATTACKERS else p in (DEFENDER, KING)
    if not own:
        return Rejected(code="no_piece", detail=f"no piece of the side to move on {NAMES[origin]}")
    if to == origin or (origin // 9 != to // 9 and origin % 9 != to % 9):
        return Rejected(code="not_a_line", detail=f"{NAMES[origin]}-{NAMES[to]} is not along a rank or a file")
    if board[to]:
        return Rejected(code="occupied", detail=f"{NAMES[to]} holds a piece")
    path = _between(origin, to)
    if any(board[q] for q in path):
        return Rejected(code="blocked", detail=f"a piece stands between {NAMES[origin]} and {NAMES[to]}")
    if to not in targets(geometry(state.rules), board, origin):
        where = "the throne" if to == THRONE else "a corner" if to in CORNERS else "across the throne"
        return Rejected(code="restricted_square", detail=f"this piece may not move to {NAMES[to]} ({where})")
    return None


def decide(state: TablutState, seat: str, cmd: TablutMove) -> tuple[PieceMoved, ...] | Rejected:
    if not isinstance(cmd, TablutMove):
        return Rejected(code="malformed", detail="a tablut command is a tablut_move.v1")
    if state.result is not None:
        return Rejected(code="game_over", detail="the game is over")
    if seat != state.seats[state.side]:
        return Rejected(code="not_your_turn", detail=f"{state.seats[state.side]} is to move")
    if len(cmd.move) > 100:
        return Rejected(code="bad_notation", detail="a move text is at most 100 characters")
    w = read(cmd.move)
    if isinstance(w, Rejected):
        return w
    problem = check_move(state, w.origin, w.to)
    if problem is not None:
        return problem
    nxt = after(state, w.origin, w.to)
    played = nxt.history[-1]
    if w.captured is not None and sorted(w.captured) != sorted(played.captured):
        got = ", ".join(NAMES[q] for q in played.captured) or "nothing"
        return Rejected(code="capture_mismatch", detail=f"{cmd.move} takes {got}")
    return (
        PieceMoved(
            seat=seat,
            origin=NAMES[w.origin],
            to=NAMES[w.to],
            captured=tuple(NAMES[q] for q in played.captured),
            check=played.check,
            routes=played.routes,
        ),
    )


def evolve(state: TablutState, event: PieceMoved) -> TablutState:
    return after(state, INDEX[event.origin], INDEX[event.to])
