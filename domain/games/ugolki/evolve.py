"""evolve: apply one recorded event, then the end rules in the order of rules/ugolki.md §6.11."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from contracts.games.ugolki import PieceMoved, TurnPassed, UgolkiEvent
from contracts.match import Outcome

from .geometry import Geometry
from .legal import is_copy
from .state import BLACK, WHITE, UgolkiState, position_key

# A turn's effect on the board: (white, black, copies, the path's squares, passes in a row).
_Turn = tuple[int, int, int, tuple[int, ...], int]


def _piece_moved(state: UgolkiState, event: PieceMoved, geo: Geometry, side: int) -> _Turn:
    white, black = state.white, state.black
    copies = state.copies
    path = tuple(geo.index[sq] for sq in event.path)
    f, t = path[0], path[-1]
    if f == t or ((white | black) >> t) & 1:
        raise ValueError(f"recorded move {'-'.join(event.path)} does not end on an empty square")
    move_bits = (1 << f) | (1 << t)
    if side == WHITE:
        if not (white >> f) & 1:
            raise ValueError(f"no white piece on {event.path[0]}")
        white ^= move_bits
    else:
        if not (black >> f) & 1:
            raise ValueError(f"no black piece on {event.path[0]}")
        black ^= move_bits
        rs = state.ruleset
        k = state.moves_made[1] + 1
        if (
            rs.mirror_limit is not None
            and (rs.mirror_window is None or k <= rs.mirror_window)
            and is_copy(state, k, (f, t))
        ):
            copies += 1
    return white, black, copies, path, 0


def _turn_passed(state: UgolkiState, event: TurnPassed, geo: Geometry, side: int) -> _Turn:
    return state.white, state.black, state.copies, (), state.passes_in_row + 1


# The step of each event type: (state, event, geometry, side to move) -> the turn's effect.
_EVOLVE: dict[type[Any], Callable[[UgolkiState, Any, Geometry, int], _Turn]] = {
    PieceMoved: _piece_moved,
    TurnPassed: _turn_passed,
}


def evolve(state: UgolkiState, event: UgolkiEvent) -> UgolkiState:
    if state.result is not None:
        raise ValueError("event after the end of the game")
    side = state.side
    if event.seat != state.seats[side]:
        raise ValueError(f"recorded event for {event.seat!r} but {state.seats[side]!r} is to move")
    step = _EVOLVE.get(type(event))
    if step is None:  # pragma: no cover - the event union is closed
        raise TypeError(f"not an ugolki event: {event!r}")
    geo = state.geo
    white, black, copies, path, passes = step(state, event, geo, side)
    made = (
        (state.moves_made[0] + 1, state.moves_made[1])
        if side == WHITE
        else (
            state.moves_made[0],
            state.moves_made[1] + 1,
        )
    )
    next_side = WHITE if made[0] == made[1] else BLACK
    key = position_key(geo, white, black, next_side)
    bound = state.vrednyugi_bound
    if state.ruleset.vrednyugi:
        # §6.9: as soon as X has vacated X's home, Y is bound (and stays bound).
        bound = (
            bound[0] or not (black & geo.homes[BLACK]),
            bound[1] or not (white & geo.homes[WHITE]),
        )
    after = msgspec.structs.replace(
        state,
        white=white,
        black=black,
        moves_made=made,
        turns=(*state.turns, path),
        positions=(*state.positions, key),
        passes_in_row=passes,
        copies=copies,
        vrednyugi_bound=bound,
    )
    result = end_of_game(after, side, path)
    if result is not None:
        after = msgspec.structs.replace(after, result=result)
    return after


def _win(side: int, reason: str, scores: tuple[float, ...] = ()) -> Outcome:
    return Outcome(ranks=(1, 2) if side == WHITE else (2, 1), reason=reason, scores=scores)


def _draw(reason: str, scores: tuple[float, ...] = ()) -> Outcome:
    return Outcome(ranks=(1, 1), reason=reason, draw=True, scores=scores)


def home_count(geo: Geometry, state: UgolkiState, side: int) -> int:
    own = state.white if side == WHITE else state.black
    return (own & geo.homes[side]).bit_count()


def completed(geo: Geometry, state: UgolkiState, side: int) -> bool:
    own = state.white if side == WHITE else state.black
    target = geo.homes[1 - side]
    return own & target == target


def end_of_game(state: UgolkiState, mover: int, path: tuple[int, ...]) -> Outcome | None:
    """§6.11 steps 2-7 after ``mover``'s turn; the first step that ends the game decides."""
    rs = state.ruleset
    geo = state.geo
    black_moves = state.moves_made[1]
    after_black = mover == BLACK
    # 2. Completion (§6.1).
    if rs.completion == "IMMEDIATE":
        if completed(geo, state, mover):
            return _win(mover, "completion")
    elif after_black:
        w, b = completed(geo, state, WHITE), completed(geo, state, BLACK)
        if w and b:
            return _draw("completion")
        if w or b:
            return _win(WHITE if w else BLACK, "completion")
    # 3. Return-home ban (§6.3): only the final landing square counts.
    n = rs.return_home_loss_after
    if n is not None and path and state.moves_made[mover] > n and (geo.homes[mover] >> path[-1]) & 1:
        return _win(1 - mover, "return_home")
    # 4. Leave-home deadline (§6.2), checked after Black's moves.
    if after_black and rs.leave_home != "none":
        due = (
            black_moves == rs.leave_home_moves
            if rs.leave_home == "STAGE"
            else black_moves > rs.leave_home_moves
            if rs.leave_home == "CONT_GT"
            else black_moves >= rs.leave_home_moves
        )
        if due:
            k = rs.leave_home_threshold
            w_fail = home_count(geo, state, WHITE) >= k
            b_fail = home_count(geo, state, BLACK) >= k
            if w_fail and b_fail:
                return _draw("leave_home")
            if w_fail or b_fail:
                return _win(BLACK if w_fail else WHITE, "leave_home")
    # 5. Long-game adjudication (§6.4) at Black's M-th move.
    if after_black and rs.long_game != "none" and black_moves == rs.long_game_moves:
        if rs.long_game == "TEMPO":
            tw, tb = geo.tempo(WHITE, state.white), geo.tempo(BLACK, state.black)
            scores = (float(tw), float(tb))
            if tw == tb:
                return _draw("long_game_tempo", scores)
            return _win(WHITE if tw < tb else BLACK, "long_game_tempo", scores)
        cw = (state.white & geo.homes[BLACK]).bit_count()
        cb = (state.black & geo.homes[WHITE]).bit_count()
        scores = (float(cw), float(cb))
        if cw == cb:
            return _draw("long_game_count", scores)
        return _win(WHITE if cw > cb else BLACK, "long_game_count", scores)
    # 5a. The safety cap of D3 (Decisions of 2026-12-01): at Black's move_cap-th move, by tempo.
    if after_black and rs.move_cap is not None and black_moves == rs.move_cap:
        tw, tb = geo.tempo(WHITE, state.white), geo.tempo(BLACK, state.black)
        if tw == tb:
            return _draw("move_cap", (float(tw), float(tb)))
        return _win(WHITE if tw < tb else BLACK, "move_cap", (float(tw), float(tb)))
    # 6. Threefold repetition with the home-status condition (§6.5).
    if rs.repetition != "none" and _repeated(state):
        if (home_count(geo, state, WHITE) > 0) == (home_count(geo, state, BLACK) > 0):
            return _draw("repetition")
    # 7. Two forced passes in a row (§6.10).
    if state.passes_in_row >= 2:
        return _draw("two_passes")
    return None


def _repeated(state: UgolkiState) -> bool:
    positions = state.positions
    key = positions[-1]
    if state.ruleset.repetition_consecutive:
        # D4: the third occurrence in a row: two cycles of any length back to this position, with
        # no other position repeated inside either cycle.
        seen = [i for i in range(len(positions) - 1, -1, -1) if positions[i] == key][:3]
        if len(seen) < 3:
            return False
        last, middle, first = seen
        return all(
            len(set(cycle)) == len(cycle)
            for cycle in (positions[first + 1 : middle], positions[middle + 1 : last])
        )
    return positions.count(key) >= 3
