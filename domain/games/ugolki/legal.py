"""Legal moves: geometry (§4.2) plus the preset filters (§6.6-§6.9) in the order of §6.11."""

from __future__ import annotations

from contracts.games.ugolki import MovePiece

from .geometry import Geometry
from .movegen import gen_moves, jump_reach, path_to
from .state import BLACK, UgolkiState

Move = tuple[int, int]  # (from index, to index)


def lock_mode(state: UgolkiState) -> int:
    """Target-home lock mode for ``movegen`` (§6.6)."""
    rs = state.ruleset
    if not rs.target_home_lock:
        return 0
    return 2 if rs.target_home_lock_final_only else 1


def target_of(geo: Geometry, side: int) -> int:
    """The target home of ``side`` is the other side's own home."""
    return geo.homes[1 - side]


def geometric_moves(state: UgolkiState, side: int) -> list[Move]:
    """Steps and jump chains, with the path-dependent target-home lock applied."""
    geo = state.geo
    own, opp = state.boards(side)
    moves = gen_moves(geo, own, opp, target_of(geo, side), lock_mode(state))
    return [(f.bit_length() - 1, t.bit_length() - 1) for f, t in moves]


def anti_lock_active(state: UgolkiState) -> bool:
    # 000:L45: "if diagonal moves are allowed, this restriction does not apply".
    return state.ruleset.anti_lock == "LITERAL_ORTH" and state.geo.orth_only


def creates_lock(state: UgolkiState, side: int, move: Move) -> bool:
    """§6.7 LITERAL_ORTH: after the move some enemy piece is caged and the destination is in the cage."""
    geo = state.geo
    own, opp = state.boards(side)
    f, t = move
    own = own ^ (1 << f) ^ (1 << t)
    edges = state.ruleset.anti_lock_edges
    tf, tr = geo.file_rank(t)
    for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        for k in (1, 2):
            sf, sr = tf + k * df, tr + k * dr
            if not geo.on_board(sf, sr):
                break
            s = geo.idx(sf, sr)
            if (opp >> s) & 1 and _caged(geo, own, sf, sr, edges):
                return True
    return False


def _caged(geo: Geometry, own: int, sf: int, sr: int, edges: bool) -> bool:
    for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        f1, r1, f2, r2 = sf + df, sr + dr, sf + 2 * df, sr + 2 * dr
        if not geo.on_board(f1, r1):
            if edges:
                continue
            return False
        if not (own >> geo.idx(f1, r1)) & 1:
            return False
        if not geo.on_board(f2, r2):
            if edges:
                continue
            return False
        if not (own >> geo.idx(f2, r2)) & 1:
            return False
    return True


def mirror_copy_refused(state: UgolkiState, side: int, move: Move) -> bool:
    """§6.8: Black's move k is a copy of White's move k; the (limit+1)-th copy in the window is illegal."""
    rs = state.ruleset
    if side != BLACK or rs.mirror_limit is None:
        return False
    k = state.moves_made[1] + 1
    if rs.mirror_window is not None and k > rs.mirror_window:
        return False
    if not is_copy(state, k, move):
        return False
    return state.copies + 1 > rs.mirror_limit


def is_copy(state: UgolkiState, k: int, move: Move) -> bool:
    white_path = state.turns[2 * (k - 1)] if 2 * (k - 1) < len(state.turns) else ()
    if not white_path:
        return False
    geo = state.geo
    wf, wt = white_path[0], white_path[-1]
    if move == (geo.sigma[wf], geo.sigma[wt]):
        return True
    m = geo.diagonal_mirror
    return state.ruleset.mirror_diagonal and move == (m[wf], m[wt])


def filtered_moves(state: UgolkiState, side: int) -> list[Move]:
    """Geometric moves minus mirror and anti-lock refusals (before «вреднюги»)."""
    moves = geometric_moves(state, side)
    if anti_lock_active(state):
        moves = [m for m in moves if not creates_lock(state, side, m)]
    rs = state.ruleset
    if side == BLACK and rs.mirror_limit is not None:
        moves = [m for m in moves if not mirror_copy_refused(state, side, m)]
    return moves


def vrednyugi_filter(state: UgolkiState, side: int, moves: list[Move]) -> list[Move]:
    """§6.9: once bound, move a piece out of the own home (fallbacks as in the [rec])."""
    if not state.ruleset.vrednyugi or not state.vrednyugi_bound[side]:
        return moves
    home = state.geo.homes[side]
    own, _ = state.boards(side)
    if not own & home:
        return moves
    from_home = [m for m in moves if (home >> m[0]) & 1]
    if not from_home:
        return moves
    if state.ruleset.vrednyugi_must_leave:
        leaving = [m for m in from_home if not (home >> m[1]) & 1]
        if leaving:
            return leaving
    return from_home


def legal_moves(state: UgolkiState, side: int | None = None) -> list[Move]:
    """Distinct legal (from, to) moves, sorted; empty when the game is over."""
    if state.result is not None:
        return []
    if side is None:
        side = state.side
    return sorted(vrednyugi_filter(state, side, filtered_moves(state, side)))


def has_legal_move(state: UgolkiState) -> bool:
    """Whether the side to move has any legal move (a forced pass otherwise, §6.10).

    Stops at the first move that passes the filters: the referee asks this after every move,
    and listing every move with its anti-lock check costs ten times more.  «Вреднюги» only
    narrows a non-empty set (its fallbacks never empty it), so it cannot change the answer."""
    if state.result is not None:
        return False
    side = state.side
    anti_lock = anti_lock_active(state)
    mirror = side == BLACK and state.ruleset.mirror_limit is not None

    def passes(move: Move) -> bool:
        if anti_lock and creates_lock(state, side, move):
            return False
        return not (mirror and mirror_copy_refused(state, side, move))

    if not state.ruleset.target_home_lock:
        # Plain steps first: almost always one of them is legal, and finding it is cheap.
        geo = state.geo
        own, opp = state.boards(side)
        empty = geo.board ^ (own | opp)
        for k in geo.step_up:
            dests = (own << k) & empty
            while dests:
                t = dests & -dests
                dests ^= t
                if passes(((t >> k).bit_length() - 1, t.bit_length() - 1)):
                    return True
        for k in geo.step_down:
            dests = (own >> k) & empty
            while dests:
                t = dests & -dests
                dests ^= t
                if passes(((t << k).bit_length() - 1, t.bit_length() - 1)):
                    return True
    return any(passes(move) for move in geometric_moves(state, side))


def representative_path(state: UgolkiState, side: int, move: Move) -> tuple[int, ...]:
    """A full path for (from, to): the step itself, or a shortest jump chain meeting §6.6."""
    geo = state.geo
    f, t = move
    ff, fr = geo.file_rank(f)
    tf, tr = geo.file_rank(t)
    if max(abs(ff - tf), abs(fr - tr)) == 1:
        return (f, t)
    own, opp = state.boards(side)
    target = target_of(geo, side)
    inside = target if lock_mode(state) == 1 and (target >> f) & 1 else None
    parent = jump_reach(geo, own, opp, f, inside)
    return path_to(parent, t)


# The side to move's legal moves in the last state asked about, with its legal commands once
# they are asked for: (state, moves, commands or None), replaced whole.  A decision's views ask
# for them more than once (the mover's game view lists the moves as labels, the match layer's
# view the commands, once per language its sockets read), and listing them with the anti-lock
# checks is most of what a view costs.  Kept by identity: states are frozen, and the state held
# here cannot be freed and its id reused.
_last: list[tuple[UgolkiState | None, tuple[Move, ...], tuple[MovePiece, ...] | None]] = [(None, (), None)]


def mover_moves(state: UgolkiState) -> tuple[Move, ...]:
    """``legal_moves(state)`` (the side to move's), computed once for the same state object."""
    held, moves, _ = _last[0]
    if held is state:
        return moves
    moves = tuple(legal_moves(state))
    _last[0] = (state, moves, None)
    return moves


def legal_commands(state: UgolkiState, seat: str) -> tuple[MovePiece, ...]:
    """One MovePiece per legal (from, to), sorted by (from, to), each with a full path."""
    if state.result is not None or seat != state.seats[state.side]:
        return ()
    moves = mover_moves(state)
    held, _, commands = _last[0]
    if held is state and commands is not None:
        return commands
    geo = state.geo
    side = state.side
    commands = tuple(
        MovePiece(path=tuple(geo.names[i] for i in representative_path(state, side, move))) for move in moves
    )
    _last[0] = (state, moves, commands)
    return commands


# A bound on the continuation tree of one view (D1); beyond it a client plays by end square.
MAX_CONTINUATIONS = 2000


def continuations(state: UgolkiState) -> dict[str, tuple[str, ...]]:
    """D1 (auto-finish): every jump chain of the side to move, hop by hop.

    Keys are chains so far (``"h3"``, ``"h3-h5"``; the origin alone for a piece that can jump), values
    the squares the next jump may land on that the piece has not stood on this turn.  With auto-finish
    on, a client ends the turn when the value is empty: jumping back to a visited square stays legal
    (Q16) but never holds a turn open.  Whether the turn may end at a chain is the rules' answer to
    the full path (the view's legal moves list one path per end square)."""
    if state.result is not None:
        return {}
    geo = state.geo
    side = state.side
    own, opp = state.boards(side)
    target = target_of(geo, side)
    out: dict[str, tuple[str, ...]] = {}
    for origin in geo.squares(own):
        ob = 1 << origin
        occ = (own | opp) ^ ob
        empty = geo.board ^ occ
        if lock_mode(state) == 1 and (target >> origin) & 1:
            empty &= target

        stack: list[tuple[int, ...]] = [(origin,)]
        while stack and len(out) < MAX_CONTINUATIONS:
            chain = stack.pop()
            if len(chain) > 64:
                continue
            fresh = sorted(set(_hops(geo, occ, empty, chain[-1])) - set(chain), key=geo.file_rank)
            if len(chain) == 1 and not fresh:
                break
            out["-".join(geo.names[i] for i in chain)] = tuple(geo.names[i] for i in fresh)
            stack.extend((*chain, nxt) for nxt in fresh)
    return dict(sorted(out.items()))


def _hops(geo: Geometry, occ: int, empty: int, sq: int) -> list[int]:
    """Single jumps from ``sq``: over an occupied square onto an empty one."""
    lands = []
    for s in geo.jump_shifts:
        over, land = sq + s, sq + 2 * s
        if over >= 0 and land >= 0 and (occ >> over) & 1 and (empty >> land) & 1:
            lands.append(land)
    return lands
