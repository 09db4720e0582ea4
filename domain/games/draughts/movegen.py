"""The move generator of rules/draughts.md §5.6 on bitboards and precomputed rays: compulsory
capture with free choice (or the majority rule of ``brazilian``), men capturing backwards,
promotion in mid-capture continuing as a king (or only at the end), the Turkish strike (jumped
pieces stay on the board as dead pieces until the move ends), flying kings landing where the
capture goes on (§5.5), and paths with the same effect kept as one move (§5.7)."""

from __future__ import annotations

from contracts.games.draughts import DraughtsRuleset

from .board import BIT, FAR_RANK, FORWARD, NAMES, RAYS
from .state import Move, Position


def _king_jumps(x: int, own: int, enemy: int, dead: int, occ: int) -> list[tuple[int, tuple[int, ...]]]:
    """Every (captured square, landing run) a king on ``x`` may jump: along each ray over empty
    squares to the first occupied one, an enemy not dead, then the empty squares beyond it."""
    out = []
    for ray in RAYS[x]:
        i, n = 0, len(ray)
        while i < n and not occ & BIT[ray[i]]:
            i += 1
        if i >= n - 1:
            continue
        q = ray[i]
        if not enemy & BIT[q] or dead & BIT[q]:
            continue
        run = []
        for s in ray[i + 1 :]:
            if occ & BIT[s]:
                break
            run.append(s)
        if run:
            out.append((q, tuple(run)))
    return out


def _man_jumps(x: int, enemy: int, dead: int, occ: int) -> list[tuple[int, int]]:
    out = []
    for ray in RAYS[x]:
        if len(ray) >= 2:
            q, land = ray[0], ray[1]
            if enemy & BIT[q] and not dead & BIT[q] and not occ & BIT[land]:
                out.append((q, land))
    return out


class _Search:
    def __init__(self, rules: DraughtsRuleset, pos: Position, side: int) -> None:
        self.far = FAR_RANK[side]
        self.enemy = pos.pieces(1 - side)
        self.in_capture = rules.promotion_in_capture == "continue_as_king"
        self.found: list[Move] = []
        self.occ0 = pos.occupied()

    def can_jump(self, x: int, king: bool, dead: int, occ: int) -> bool:
        if king:
            return bool(_king_jumps(x, 0, self.enemy, dead, occ))
        return bool(_man_jumps(x, self.enemy, dead, occ))

    def run(
        self,
        x: int,
        king: bool,
        was_king: bool,
        path: tuple[int, ...],
        caps: tuple[int, ...],
        dead: int,
        occ: int,
    ) -> None:
        jumped = False
        if king:
            for q, landing in _king_jumps(x, 0, self.enemy, dead, occ):
                d2 = dead | BIT[q]
                cont = [land for land in landing if self.can_jump(land, True, d2, occ)]
                for land in cont or landing:
                    jumped = True
                    self.run(land, True, was_king, path + (land,), caps + (q,), d2, occ)
        else:
            for q, land in _man_jumps(x, self.enemy, dead, occ):
                jumped = True
                promote = self.in_capture and bool(self.far & BIT[land])
                self.run(land, promote, was_king, path + (land,), caps + (q,), dead | BIT[q], occ)
        if not jumped and caps:
            ends_king = king or bool(self.far & BIT[x])
            self.found.append(Move(path, caps, ends_king and not was_king))


def capture_paths(rules: DraughtsRuleset, pos: Position) -> list[Move]:
    """Every capture path of the side to move (duplicates of §5.7 included)."""
    side = pos.side
    search = _Search(rules, pos, side)
    kings = pos.kings[side]
    for piece_bits, king in ((pos.men[side], False), (kings, True)):
        bits = piece_bits
        while bits:
            low = bits & -bits
            s = low.bit_length() - 1
            bits ^= low
            search.run(s, king, king, (s,), (), 0, search.occ0 & ~BIT[s])
    found = search.found
    if found and rules.capture_choice == "majority":
        most = max(len(m.captured) for m in found)
        found = [m for m in found if len(m.captured) == most]
    return found


def quiet_moves(pos: Position) -> list[Move]:
    side = pos.side
    occ = pos.occupied()
    far = FAR_RANK[side]
    out = []
    bits = pos.men[side]
    while bits:
        low = bits & -bits
        s = low.bit_length() - 1
        bits ^= low
        for d in FORWARD[side]:
            ray = RAYS[s][d]
            if ray and not occ & BIT[ray[0]]:
                out.append(Move((s, ray[0]), (), bool(far & BIT[ray[0]])))
    bits = pos.kings[side]
    while bits:
        low = bits & -bits
        s = low.bit_length() - 1
        bits ^= low
        for ray in RAYS[s]:
            for t in ray:
                if occ & BIT[t]:
                    break
                out.append(Move((s, t)))
    return out


def all_paths(rules: DraughtsRuleset, pos: Position) -> list[Move]:
    """The legal paths (captures when any, else quiet moves), duplicates counted (perft --paths)."""
    return capture_paths(rules, pos) or quiet_moves(pos)


def text(move: Move) -> str:
    """The canonical text of a path (§9.2): algebraic, ``-`` for a quiet move, ``:`` for a capture."""
    return (":" if move.captured else "-").join(NAMES[s] for s in move.path)


def legal_moves(rules: DraughtsRuleset, pos: Position) -> list[Move]:
    """The legal moves, each once under its canonical path (the smallest text, §5.7, D1)."""
    paths = all_paths(rules, pos)
    if not paths or not paths[0].captured:
        return sorted(paths, key=text)
    best: dict[tuple[int, int, frozenset[int], bool], Move] = {}
    for m in paths:
        key = m.effect()
        if key not in best or text(m) < text(best[key]):
            best[key] = m
    return sorted(best.values(), key=text)
