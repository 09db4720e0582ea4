"""decide: validate one MovePiece (§4.2, §6.11 step 1) and record it, with any forced passes (§6.10)."""

from __future__ import annotations

from typing import Any

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
from .movegen import jump_reach
from .notation import parse_square, split_path
from .state import UgolkiState


def _reject(code: str, detail: str) -> Rejected:
    return Rejected(code=code, detail=detail)


def _parse(state: UgolkiState, raw: Any) -> tuple[int, ...] | Rejected:
    if not isinstance(raw, tuple | list) or not all(isinstance(s, str) for s in raw):
        return _reject("malformed", "path must be a list of square names")
    items: list[str] = list(raw)
    if len(items) == 1:  # a whole path in one string, e.g. "g2-e2-e4"
        tokens = split_path(items[0])
        if tokens is None:
            return _reject("bad_square", f"cannot read {items[0]!r} as a path")
        items = tokens
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
    full = _check_geometry(state, side, parsed)
    if isinstance(full, Rejected):
        return full
    move = (full[0], full[-1])
    geo = state.geo
    # §6.11 step 1 order: anti-lock, mirror limit, «вреднюги» (geometry and §6.6 came first).
    if anti_lock_active(state) and creates_lock(state, side, move):
        return _reject("anti_lock", "the move would cage an enemy piece on all four sides (§6.7)")
    if mirror_copy_refused(state, side, move):
        limit = state.ruleset.mirror_limit
        return _reject("mirror_limit", f"Black may copy at most {limit} of White's moves (§6.8)")
    if state.ruleset.vrednyugi and state.vrednyugi_bound[side]:
        allowed = vrednyugi_filter(state, side, filtered_moves(state, side))
        if move not in allowed:
            return _reject("vrednyugi", "the opponent has left home: move a piece out of your own home")
    names = tuple(geo.names[i] for i in full)
    events: list[UgolkiEvent] = [PieceMoved(seat=seat, path=names)]
    after = evolve(state, events[0])
    while after.result is None and not has_legal_move(after):
        passed = TurnPassed(seat=after.seats[after.side])
        events.append(passed)
        after = evolve(after, passed)
    return tuple(events)


def _check_geometry(state: UgolkiState, side: int, path: tuple[int, ...]) -> tuple[int, ...] | Rejected:
    """The full path of a legal geometric move (after §6.6), or the reason it is not one."""
    geo = state.geo
    own, opp = state.boards(side)
    occ = own | opp
    f, t = path[0], path[-1]
    if not (own >> f) & 1:
        return _reject("no_own_piece", f"no piece of yours on {geo.names[f]}")
    if t == f:
        return _reject("returns_to_origin", "a move must end on a different square (§4.2 item 3)")
    rs = state.ruleset
    target = target_of(geo, side)
    locked = lock_mode(state) if (target >> f) & 1 else 0
    ff, fr = geo.file_rank(f)
    tf, tr = geo.file_rank(t)
    if len(path) == 2 and max(abs(ff - tf), abs(fr - tr)) == 1:
        if (occ >> t) & 1:
            return _reject("occupied", f"{geo.names[t]} is occupied")
        if (tf - ff, tr - fr) not in VECTORS[rs.step_dirs]:
            return _reject("illegal_step", f"{geo.names[f]}-{geo.names[t]}: steps go {rs.step_dirs} only")
        if locked and not (target >> t) & 1:
            return _reject("target_home_lock", "a piece in the target home must stay inside it (§6.6)")
        return path
    if len(path) == 2:
        if (occ >> t) & 1:
            return _reject("occupied", f"{geo.names[t]} is occupied")
        if t not in jump_reach(geo, own, opp, f):
            return _reject("illegal_jump", f"no jump chain from {geo.names[f]} to {geo.names[t]}")
        if (
            locked == 2
            and not (target >> t) & 1
            or (locked == 1 and t not in jump_reach(geo, own, opp, f, target))
        ):
            return _reject("target_home_lock", "a piece in the target home must stay inside it (§6.6)")
        return representative_path(state, side, (f, t))
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
        if locked == 1 and not (target >> b) & 1:
            return _reject("target_home_lock", "every landing square must stay in the target home (§6.6)")
    if locked == 2 and not (target >> t) & 1:
        return _reject("target_home_lock", "a piece in the target home must stay inside it (§6.6)")
    return path
