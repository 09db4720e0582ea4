"""Computer players: pure functions (state, seat, rng) -> DraughtsMove, weakest first.

* ``random``: any legal move.
* ``greedy``: the move with the best material after the opponent's best reply (two plies).
* ``search``: alpha-beta, four plies, material (a king is worth three men) and the men's
  advance; in ``russian-giveaway`` the aim is reversed, so is the material count.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from contracts.games.draughts import DraughtsMove

from .board import coords, squares
from .movegen import legal_moves, text
from .play import moved
from .state import DraughtsState, Move, Position

Bot = Callable[[DraughtsState, str, random.Random], DraughtsMove]
_WIN = 10_000.0


def _moves(state: DraughtsState, seat: str) -> list[Move]:
    if state.result is not None or seat != state.seats[state.pos.side]:
        raise ValueError(f"{seat} is not to move")
    return legal_moves(state.rules, state.pos)


def _material(pos: Position, side: int, giveaway: bool) -> float:
    def worth(s: int) -> float:
        men = pos.men[s]
        advance = sum((coords(q)[1] - 1) if s == 0 else (8 - coords(q)[1]) for q in squares(men))
        return men.bit_count() + 3 * pos.kings[s].bit_count() + 0.05 * advance

    score = worth(side) - worth(1 - side)
    return -score if giveaway else score


def _search(state: DraughtsState, pos: Position, depth: int, alpha: float, beta: float) -> float:
    """The value of ``pos`` for its side to move (negamax)."""
    rules = state.rules
    moves = legal_moves(rules, pos)
    if not moves:
        lost = -_WIN if rules.win_condition == "standard" else _WIN
        return lost - depth if lost < 0 else lost + depth
    if depth == 0:
        return _material(pos, pos.side, rules.win_condition == "giveaway")
    best = -2 * _WIN
    for m in sorted(moves, key=lambda m: -len(m.captured)):
        value = -_search(state, moved(pos, m), depth - 1, -beta, -alpha)
        best = max(best, value)
        alpha = max(alpha, value)
        if alpha >= beta:
            break
    return best


def _best(state: DraughtsState, seat: str, rng: random.Random, depth: int) -> DraughtsMove:
    moves = _moves(state, seat)
    scored = [(-_search(state, moved(state.pos, m), depth - 1, -2 * _WIN, 2 * _WIN), m) for m in moves]
    top = max(v for v, _ in scored)
    return DraughtsMove(move=text(rng.choice([m for v, m in scored if v >= top - 1e-9])))


def random_bot(state: DraughtsState, seat: str, rng: random.Random) -> DraughtsMove:
    return DraughtsMove(move=text(rng.choice(_moves(state, seat))))


def greedy_bot(state: DraughtsState, seat: str, rng: random.Random) -> DraughtsMove:
    return _best(state, seat, rng, 2)


def search_bot(state: DraughtsState, seat: str, rng: random.Random) -> DraughtsMove:
    return _best(state, seat, rng, 4)


BOTS: dict[str, Bot] = {"random": random_bot, "greedy": greedy_bot, "search": search_bot}


def draw_answer(state: DraughtsState, seat: str) -> bool:
    """A computer player's answer to a draw offer: it accepts when it is behind in material."""
    side = state.seats.index(seat)
    return _material(state.pos, side, state.rules.win_condition == "giveaway") < 0
