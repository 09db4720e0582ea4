"""decide: validate one MovePiece (§4.2, §6.11 step 1) and record it, with any forced passes (§6.10)."""

from __future__ import annotations

from typing import Any

import msgspec

from contracts.envelope import Rejected
from contracts.games.ugolki import MovePiece, PieceMoved, TurnPassed, UgolkiEvent

from .evolve import evolve
from .geometry import VECTORS
from .legal import (
    anti_lock_active,
    creates_lock,
    filtered_moves,
    has_legal_move,
    lock_mode,
    mirror_copy_refused,
    representative_path,
    target_of,
    vrednyugi_filter,
)
from .movegen import jump_reach, path_to
from .notation import BadNotation, parse_square, split_path
from .state import UgolkiState

# D2: a turn's path has at most 64 landing squares (beyond any useful move on a 10x10 board).
MAX_LANDINGS = 64
LOCK_TEXT = "a piece in the target home must stay inside it (§6.6)"


def _reject(code: str, detail: str) -> Rejected:
    return Rejected(code=code, detail=detail)


def _too_long(n: int) -> Rejected:
    return _reject("path_too_long", f"a path has at most {MAX_LANDINGS} landing squares, got {n} (D2)")


def _parse(state: UgolkiState, raw: Any) -> tuple[int, ...] | Rejected:
    if not isinstance(raw, tuple | list) or not all(isinstance(s, str) for s in raw):
        return _reject("malformed", "path must be a list of square names")
    if len(raw) > MAX_LANDINGS + 1:
        return _too_long(len(raw) - 1)
    items: list[str] = list(raw)
    if len(items) == 1:  # a whole path in one string, e.g. "g2-e2-e4"
        try:
            items = split_path(items[0])
        except BadNotation as exc:
            return _reject("bad_notation", str(exc))
        if len(items) > MAX_LANDINGS + 1:
            return _too_long(len(items) - 1)
    if len(items) < 2:
        return _reject("malformed", "a move needs at least two squares (from and to)")
    geo = state.geo
    out = []
    for item in items:
        idx = parse_square(geo, item)
        if idx is None:
            return _reject("bad_square", f"{item!r} is not a square of the {geo.n}x{geo.n} board")
        out.append(idx)
    return tuple(out)


def _mirror_text(state: UgolkiState) -> str:
    rs = state.ruleset
    if rs.mirror_window is None:
        return f"Black may copy at most {rs.mirror_limit} of White's moves in the whole game (§6.8)"
    return f"Black may copy at most {rs.mirror_limit} of White's first {rs.mirror_window} moves (§6.8)"


def decide(state: UgolkiState, seat: str, command: MovePiece) -> tuple[UgolkiEvent, ...] | Rejected:
    if not isinstance(command, MovePiece):
        return _reject("malformed", f"expected MovePiece, got {type(command).__name__}")
    if state.result is not None:
        return _reject("game_over", "the game is over")
    side = state.side
    if seat != state.seats[side]:
        return _reject("not_your_turn", f"{state.seats[side]} is to move")
    parsed = _parse(state, command.path)
    if isinstance(parsed, Rejected):
        return parsed
    # D5, §6.11 step 1: geometry, loop rule, anti-lock, mirror limit, «вреднюги», target-home lock;
    # the first rule a move breaks names the rejection.
    full = _check_geometry(state, side, parsed)
    if isinstance(full, Rejected):
        return full
    geo = state.geo
    if full[-1] == full[0]:
        return _reject("returns_to_origin", "a move must end on a different square (§4.2 item 3)")
    move = (full[0], full[-1])
    if anti_lock_active(state) and creates_lock(state, side, move):
        return _reject("anti_lock", "the move would cage an enemy piece on all four sides (§6.7)")
    if mirror_copy_refused(state, side, move):
        return _reject("mirror_limit", _mirror_text(state))
    if state.ruleset.vrednyugi and state.vrednyugi_bound[side]:
        allowed = vrednyugi_filter(state, side, _unlocked_moves(state, side))
        if move not in allowed:
            return _reject("vrednyugi", "the opponent has left home: move a piece out of your own home (§6.9)")
    locked = _check_lock(state, side, parsed, full)
    if isinstance(locked, Rejected):
        return locked
    names = tuple(geo.names[i] for i in locked)
    events: list[UgolkiEvent] = [PieceMoved(seat=seat, path=names)]
    after = evolve(state, events[0])
    while after.result is None and not has_legal_move(after):
        passed = TurnPassed(seat=after.seats[after.side])
        events.append(passed)
        after = evolve(after, passed)
    return tuple(events)


def _unlocked_moves(state: UgolkiState, side: int) -> list[tuple[int, int]]:
    """The moves «вреднюги» chooses among, before the target-home lock (which comes after it, D5)."""
    if not state.ruleset.target_home_lock:
        return filtered_moves(state, side)
    unlocked = msgspec.structs.replace(state, ruleset=msgspec.structs.replace(state.ruleset, target_home_lock=False))
    return filtered_moves(unlocked, side)


def _check_geometry(state: UgolkiState, side: int, path: tuple[int, ...]) -> tuple[int, ...] | Rejected:
    """The full path of a geometric move (§4.2; the target-home lock comes later), or why not."""
    geo = state.geo
    own, opp = state.boards(side)
    occ = own | opp
    f, t = path[0], path[-1]
    if not (own >> f) & 1:
        return _reject("no_own_piece", f"no piece of yours on {geo.names[f]}")
    rs = state.ruleset
    ff, fr = geo.file_rank(f)
    tf, tr = geo.file_rank(t)
    if len(path) == 2:
        if t == f:
            return path  # the loop rule names it
        if (occ >> t) & 1:
            return _reject("occupied", f"{geo.names[t]} is occupied")
        if max(abs(ff - tf), abs(fr - tr)) == 1:
            if (tf - ff, tr - fr) not in VECTORS[rs.step_dirs]:
                return _reject("illegal_step", f"{geo.names[f]}-{geo.names[t]}: steps go {rs.step_dirs} only")
            return path
        parent = jump_reach(geo, own, opp, f)
        if t not in parent:
            return _reject(
                "no_such_move", f"{geo.names[f]}-{geo.names[t]}: no step and no jump chain joins them (§4.2)"
            )
        return path_to(parent, t)
    # A full jump path: every hop jumps one adjacent piece onto an empty square (§4.2 item 2).
    occ_chain = occ ^ (1 << f)  # the origin counts as empty while the chain is under way
    jumps = VECTORS[rs.jump_dirs]
    for a, b in zip(path, path[1:], strict=False):
        af, ar = geo.file_rank(a)
        bf, br = geo.file_rank(b)
        df, dr = bf - af, br - ar
        if df % 2 or dr % 2 or (df // 2, dr // 2) not in jumps:
            return _reject("illegal_jump", f"{geo.names[a]}-{geo.names[b]} is not a {rs.jump_dirs} jump")
        over = geo.idx(af + df // 2, ar + dr // 2)
        if not (occ_chain >> over) & 1:
            return _reject("illegal_jump", f"{geo.names[a]}-{geo.names[b]}: no piece on {geo.names[over]}")
        if (occ_chain >> b) & 1:
            return _reject("occupied", f"{geo.names[b]} is occupied")
    return path


def _check_lock(
    state: UgolkiState, side: int, given: tuple[int, ...], full: tuple[int, ...]
) -> tuple[int, ...] | Rejected:
    """§6.6 target-home lock, last of §6.11 step 1 (D5): the path to record, or the rejection."""
    geo = state.geo
    target = target_of(geo, side)
    f, t = full[0], full[-1]
    locked = lock_mode(state) if (target >> f) & 1 else 0
    if not locked:
        return full
    if locked == 2 or len(full) == 2 and max(map(abs, _delta(state, f, t))) == 1:
        return full if (target >> t) & 1 else _reject("target_home_lock", LOCK_TEXT)
    if len(given) == 2:
        own, opp = state.boards(side)
        if t not in jump_reach(geo, own, opp, f, target):
            return _reject("target_home_lock", LOCK_TEXT)
        return representative_path(state, side, (f, t))
    if any(not (target >> b) & 1 for b in full[1:]):
        return _reject("target_home_lock", "every landing square must stay in the target home (§6.6)")
    return full


def _delta(state: UgolkiState, f: int, t: int) -> tuple[int, int]:
    ff, fr = state.geo.file_rank(f)
    tf, tr = state.geo.file_rank(t)
    return (tf - ff, tr - fr)
