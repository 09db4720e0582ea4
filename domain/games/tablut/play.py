"""Playing a move and what follows it, in the order of rules/tablut.md §8.6: the captures, escape,
the king's capture, the position recorded, no legal move, repetition and the move cap."""

from __future__ import annotations

from contracts.games.tablut import TablutRuleset
from contracts.match import Outcome

from .board import ATTACKERS, DEFENDERS, KING, NAMES
from .engine import Geometry, apply, geometry, has_move, king_routes, king_square
from .position import START, parse
from .state import Played, TablutState


def win(side: int, reason: str) -> Outcome:
    """``side`` wins (seat 0 attackers, seat 1 defenders, §9.4)."""
    return Outcome(ranks=(1, 2) if side == ATTACKERS else (2, 1), reason=reason)


def draw(reason: str) -> Outcome:
    return Outcome(ranks=(1, 1), reason=reason, draw=True)


def _stuck(rules: TablutRuleset, side: int) -> Outcome:
    """§8.3: ``side`` is to move and has no legal move."""
    return draw("no_moves") if rules.no_moves == "draw" else win(1 - side, "no_moves")


def settled(rules: TablutRuleset, g: Geometry, board: bytes, side: int) -> Outcome | None:
    """How a position that starts a game is already decided (§9.3): no king, the king on an
    escape square, or no legal move for the side to move."""
    k = king_square(board)
    if k is None:
        return win(ATTACKERS, "king_captured")
    if k in g.escape:
        return win(DEFENDERS, "escape")
    if not has_move(g, board, side):
        return _stuck(rules, side)
    return None


def start(rules: TablutRuleset, seats: tuple[str, str], text: str = START) -> TablutState:
    board, side = parse(text, rules)
    g = geometry(rules)
    return TablutState(
        rules=rules,
        seats=seats,
        board=board,
        side=side,
        seen={(board, side): 1},
        result=settled(rules, g, board, side),
    )


def after(state: TablutState, origin: int, to: int) -> TablutState:
    """The state after the side to move plays origin-to (a legal move), §8.6 steps 2-8."""
    rules = state.rules
    g = geometry(rules)
    mover = state.side
    b, taken = apply(g, state.board, (origin, to))
    board = bytes(b)
    nxt = 1 - mover
    defenders_moves = state.defenders_moves + (mover == DEFENDERS)
    result: Outcome | None = None
    if mover == DEFENDERS and to in g.escape and board[to] == KING:
        result = win(DEFENDERS, "escape")  # step 3
    elif mover == ATTACKERS and state.board.find(KING) in taken:
        result = win(ATTACKERS, "king_captured")  # step 4
    seen = dict(state.seen)
    seen[(board, nxt)] = seen.get((board, nxt), 0) + 1  # step 5
    if result is None and not has_move(g, board, nxt):
        result = _stuck(rules, nxt)  # step 6
    if result is None and seen[(board, nxt)] >= 3 and rules.repetition != "off":
        result = draw("repetition") if rules.repetition == "draw3" else win(nxt, "repetition")  # step 7
    if result is None and mover == DEFENDERS and rules.move_cap and defenders_moves >= rules.move_cap:
        result = draw("move_cap")  # step 8
    routes = 0
    if mover == DEFENDERS and result is None:
        routes = len(king_routes(g, board))
    wins = result is not None and result.reason in ("escape", "king_captured")
    played = Played(
        origin=origin,
        to=to,
        captured=tuple(sorted(taken, key=lambda q: NAMES[q])),
        check=routes > 0,
        routes=routes,
        wins=wins,
    )
    return TablutState(
        rules=rules,
        seats=state.seats,
        board=board,
        side=nxt,
        seen=seen,
        defenders_moves=defenders_moves,
        history=(*state.history, played),
        result=result,
    )
