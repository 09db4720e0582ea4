"""Playing a move and what follows it (rules/draughts.md §7): the new position, the draw rules'
counts, and the end of the game evaluated in the order of §7.7 (D5)."""

from __future__ import annotations

from contracts.games.draughts import DraughtsRuleset
from contracts.match import Outcome

from . import fen
from .board import BIT, MAIN_ROAD
from .movegen import legal_moves
from .rules import balance_limit
from .state import Counts, DraughtsState, Move, Position


def moved(pos: Position, m: Move) -> Position:
    """The position after ``m`` (the taken pieces lifted only now: the Turkish strike)."""
    side = pos.side
    men, kings = list(pos.men), list(pos.kings)
    king = bool(kings[side] & BIT[m.origin])
    men[side] &= ~BIT[m.origin]
    kings[side] &= ~BIT[m.origin]
    for q in m.captured:
        men[1 - side] &= ~BIT[q]
        kings[1 - side] &= ~BIT[q]
    if king or m.promoted:
        kings[side] |= BIT[m.final]
    else:
        men[side] |= BIT[m.final]
    return Position(men=(men[0], men[1]), kings=(kings[0], kings[1]), side=1 - side)


def _lone_king(pos: Position, weak: int) -> bool:
    return pos.men[weak] == 0 and pos.kings[weak].bit_count() == 1


def three_kings_side(pos: Position) -> int | None:
    """S when TK(S) holds: S has three kings or more, the other side one piece, a king (§7.3)."""
    for s in (0, 1):
        if pos.kings[s].bit_count() >= 3 and _lone_king(pos, 1 - s):
            return s
    return None


def main_road_side(pos: Position) -> int | None:
    """S when MR(S) holds (§7.4, D7)."""
    for s in (0, 1):
        own = pos.pieces(s)
        if (
            own.bit_count() == 3
            and pos.kings[s]
            and _lone_king(pos, 1 - s)
            and pos.kings[1 - s] & MAIN_ROAD
            and not own & MAIN_ROAD
        ):
            return s
    return None


def _strong_count(
    before: int | None, held: int | None, now: int | None, mover: int, reset: bool
) -> int | None:
    """A strong side's move count (§7.3, §7.4): 0 where the balance arises or after a capture or a
    promotion while it holds, +1 for each other move of the strong side, None when it does not hold."""
    if now is None:
        return None
    if held != now or before is None or reset:
        return 0
    return before + 1 if mover == now else before


def counts_after(state: DraughtsState, m: Move, pos: Position) -> Counts:
    c, before = state.counts, state.pos
    mover = before.side
    was_king = bool(before.kings[mover] & BIT[m.origin])
    irreversible = bool(m.captured) or not was_king
    reset = bool(m.captured) or m.promoted
    tk_before, mr_before = three_kings_side(before), main_road_side(before)
    tk_now, mr_now = three_kings_side(pos), main_road_side(pos)
    return Counts(
        seen=(pos,) if irreversible else (*c.seen, pos),
        kings_only=0 if irreversible else c.kings_only + 1,
        stable=0 if reset else c.stable + 1,
        three_kings=_strong_count(c.three_kings, tk_before, tk_now, mover, reset),
        main_road=_strong_count(c.main_road, mr_before, mr_now, mover, reset),
        strong=tk_now if tk_now is not None else mr_now,
    )


def judge(rules: DraughtsRuleset, pos: Position, counts: Counts) -> Outcome | None:
    """The end of the game in the position just reached, or None (§7.7)."""
    p = pos.side
    if not pos.pieces(p) or not legal_moves(rules, pos):
        reason = "no_pieces" if not pos.pieces(p) else "no_moves"
        p_wins = rules.win_condition == "giveaway"
        winner = p if p_wins else 1 - p
        return Outcome(ranks=(1, 2) if winner == 0 else (2, 1), reason=reason)
    draw = _draw_reason(rules, pos, counts)
    return None if draw is None else Outcome(ranks=(1, 1), reason=draw, draw=True)


def _draw_reason(rules: DraughtsRuleset, pos: Position, counts: Counts) -> str | None:
    if rules.draw_repetition is not None and counts.seen.count(pos) >= rules.draw_repetition:
        return "repetition"
    if (
        rules.draw_three_kings is not None
        and counts.three_kings is not None
        and counts.three_kings >= rules.draw_three_kings
    ):
        return "three_kings"
    if (
        rules.draw_main_road is not None
        and counts.main_road is not None
        and counts.main_road >= rules.draw_main_road
    ):
        return "main_road"
    if pos.kings[0] and pos.kings[1]:
        limit = balance_limit(rules, pos.occupied().bit_count())
        if limit is not None and counts.stable >= 2 * limit:
            return "balance"
    if rules.draw_kings_only is not None and counts.kings_only >= 2 * rules.draw_kings_only:
        return "kings_only"
    return None


def start(rules: DraughtsRuleset, seats: tuple[str, str]) -> DraughtsState:
    """The start position (or ``start_fen``), decided at once when it already is (D12)."""
    pos = fen.parse(rules.start_fen or fen.START)
    tk, mr = three_kings_side(pos), main_road_side(pos)
    counts = Counts(
        seen=(pos,),
        three_kings=0 if tk is not None else None,
        main_road=0 if mr is not None else None,
        strong=tk if tk is not None else mr,
    )
    result = judge(rules, pos, counts)
    if result is not None and result.draw:
        result = None  # only §7.1 decides a start position
    return DraughtsState(rules=rules, seats=seats, pos=pos, counts=counts, result=result)


def after(state: DraughtsState, m: Move) -> DraughtsState:
    pos = moved(state.pos, m)
    counts = counts_after(state, m, pos)
    return DraughtsState(
        rules=state.rules,
        seats=state.seats,
        pos=pos,
        counts=counts,
        history=(*state.history, m),
        result=judge(state.rules, pos, counts),
    )
