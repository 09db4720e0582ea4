"""decide and evolve: a move text is read (§9.2), matched to the legal paths, recorded under its
move's canonical path (D1), and folded with the draw counts and the end of §7."""

from __future__ import annotations

from contracts.envelope import Rejected
from contracts.games.draughts import DraughtsMove, PiecesMoved

from .board import INDEX, NAMES
from .movegen import all_paths, legal_moves
from .notation import choose
from .play import after
from .state import DraughtsState, Move


def decide(state: DraughtsState, seat: str, cmd: DraughtsMove) -> tuple[PiecesMoved, ...] | Rejected:
    if not isinstance(cmd, DraughtsMove):
        return Rejected(code="malformed", detail="a draughts command is a draughts_move.v1")
    if state.result is not None:
        return Rejected(code="game_over", detail="the game is over")
    if seat != state.seats[state.side]:
        return Rejected(code="not_your_turn", detail=f"{state.seats[state.side]} is to move")
    if len(cmd.move) > 200:
        return Rejected(code="bad_notation", detail="a move text is at most 200 characters")
    picked = choose(cmd.move, all_paths(state.rules, state.pos))
    if isinstance(picked, Rejected):
        return picked
    move = canonical(state, picked)
    return (
        PiecesMoved(
            seat=seat,
            path=tuple(NAMES[s] for s in move.path),
            captured=tuple(NAMES[s] for s in move.captured),
            promoted=move.promoted,
        ),
    )


def canonical(state: DraughtsState, move: Move) -> Move:
    """The legal move with ``move``'s effect, under its canonical path (§5.7)."""
    key = move.effect()
    return next(m for m in legal_moves(state.rules, state.pos) if m.effect() == key)


def evolve(state: DraughtsState, event: PiecesMoved) -> DraughtsState:
    move = Move(
        path=tuple(INDEX[s] for s in event.path),
        captured=tuple(INDEX[s] for s in event.captured),
        promoted=event.promoted,
    )
    return after(state, move)
