"""What the rules of Farkle Flip allow (rules/thousand-and-farkle-flip.md §3.9): the ``*_problem``
checks of DRAW, LOCK and STOP, and the legal commands of the seat to move, which are exactly the
commands whose check passes (one lock per distinct choice of cards, Decision FF9)."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import permutations, product

from contracts.envelope import Rejected
from contracts.games.farkle_flip import (
    FACES,
    CombinationLocked,
    Draw,
    FarkleFlipCommand,
    Lock,
    Pattern,
    Place,
    Stop,
    Stopped,
)
from domain.games.farkle_flip.rules import find_pattern, pattern_value
from domain.games.farkle_flip.state import Card, FFState

# A kind of card in an area: (value, lost group, placed last this turn).
Kind = tuple[str, int, bool]


def reject(code: str, detail: str = "") -> Rejected:
    return Rejected(code=code, detail=detail)


def draw_problem(s: FFState) -> Rejected | None:
    if s.pending is not None:
        return reject("card_pending", f"place the {s.pending} first")
    if s.piles_empty():
        return reject("piles_empty", "the draw pile and the scored pile are both empty: lock and stop")
    return None


def needs_draw(s: FFState) -> Rejected | None:
    """F9: at least one draw per turn before a lock or a stop, waived with both piles empty (F10)."""
    if s.pending is not None:
        return reject("card_pending", f"place the {s.pending} first")
    if s.draws == 0 and not s.piles_empty():
        return reject("must_draw_first", "draw at least one card this turn")
    return None


def new_groups(s: FFState) -> tuple[int, ...]:
    """The lost groups the centre's combinations become when they go back to an area (FF1)."""
    return tuple(range(s.next_group, s.next_group + len(s.centre)))


def lock_problem(s: FFState, command: Lock) -> tuple[Rejected, None] | tuple[None, CombinationLocked]:
    """§3.9 LOCK: why the lock is refused, or the event it makes."""
    problem = needs_draw(s)
    if problem is not None:
        return problem, None
    if command.owner not in s.seats:
        return reject("no_such_seat", f"owner must be one of {list(s.seats)}"), None
    o = s.seats.index(command.owner)
    area = s.areas[o]
    pos = command.cards
    if not pos or len(set(pos)) != len(pos) or any(not 0 <= k < len(area) for k in pos):
        return reject(
            "bad_positions", f"cards must be distinct positions 0..{len(area) - 1} of {command.owner}'s area"
        ), None
    pattern = find_pattern(s.rules, command.pattern)
    if pattern is None:
        names = ", ".join(p.name for p in s.rules.patterns)
        return reject("unknown_pattern", f"{command.pattern!r} is not in the scoring table ({names})"), None
    chosen = sorted(pos)
    values = tuple(area[k][0] for k in chosen)
    value = pattern_value(pattern, values)
    if value is None:
        return reject("pattern_mismatch", f"{' '.join(values)} is not {pattern.name}"), None
    if all(area[k][1] != 0 for k in chosen):
        return reject(
            "lost_group_needs_new_card", "a lock needs at least one card from outside the lost groups (FF1)"
        ), None
    if s.rules.lock_requires_last_placed and (
        s.last_placed is None or s.last_placed[0] != o or s.last_placed[1] not in pos
    ):
        return reject(
            "last_placed_required", "the card placed last this turn must be in the lock (FF4)"
        ), None
    event = CombinationLocked(
        seat=s.seats[s.current],
        owner=command.owner,
        positions=pos,
        cards=values,
        pattern=pattern.name,
        value=value,
    )
    return None, event


def _stop_with_nothing(s: FFState) -> Stopped | Rejected:
    """STOP with an empty centre: refused below the entry under MUST_CONTINUE while cards remain;
    otherwise nothing is scored and the Farkle cards stay held (FF6)."""
    i = s.current
    rules = s.rules
    if (
        rules.entry_stop_policy == "MUST_CONTINUE"
        and not s.on_board[i]
        and rules.entry > 0
        and not s.piles_empty()
    ):
        return reject("below_entry", f"not on the board: keep drawing until {rules.entry} (MUST_CONTINUE)")
    return Stopped(
        seat=s.seats[i],
        result="nothing",
        turn_total=0,
        farkle_cards=s.farkle_held[i],
        points=0,
        banked=s.banked[i],
    )


def stop_outcome(s: FFState) -> Stopped | Rejected:
    """STOP resolved by §3.9 Bank, or why it is not valid."""
    problem = needs_draw(s)
    if problem is not None:
        return problem
    if not s.centre:
        return _stop_with_nothing(s)
    i = s.current
    rules = s.rules
    seat = s.seats[i]
    turn_total = sum(c.value for c in s.centre)
    held = s.farkle_held[i]
    # every row of the table scores at least 1 (patterns_problem), so a centre is worth something
    bank_total = turn_total + rules.farkle_value * held
    if s.on_board[i] or bank_total >= rules.entry:
        return Stopped(
            seat=seat,
            result="banked",
            turn_total=turn_total,
            farkle_cards=held,
            points=bank_total,
            banked=s.banked[i] + bank_total,
        )
    if rules.entry_stop_policy == "MUST_CONTINUE" and not s.piles_empty():
        return reject("below_entry", f"{bank_total} is below the entry of {rules.entry} (MUST_CONTINUE)")
    return Stopped(
        seat=seat,
        result="forfeit",
        turn_total=turn_total,
        farkle_cards=held,
        points=0,
        banked=s.banked[i],
        groups=new_groups(s),
    )


# ---------------------------------------------------------------- the lock list
def _face_choices(pattern: Pattern, counts: dict[str, int]) -> Iterator[tuple[str, ...]]:
    """Distinct faces for the pattern's groups (equal-size groups in ascending face order)."""
    g = pattern.groups
    faces = [f for f in FACES if counts.get(f, 0) >= g[-1]]
    if pattern.face_values:
        faces = [f for f in faces if f in pattern.face_values]
    for choice in permutations(faces, len(g)):
        if any(counts.get(f, 0) < size for f, size in zip(choice, g, strict=True)):
            continue
        if any(g[k] == g[k + 1] and choice[k] > choice[k + 1] for k in range(len(g) - 1)):
            continue
        yield choice


def _splits(need: int, sizes: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Every way of taking ``need`` cards from classes of the given sizes."""
    if not sizes:
        if need == 0:
            yield ()
        return
    rest = sum(sizes[1:])
    for take in range(max(0, need - rest), min(need, sizes[0]) + 1):
        for tail in _splits(need - take, sizes[1:]):
            yield (take, *tail)


def _last_of(s: FFState, o: int) -> int:
    """The position of the card placed last this turn in seat o's area, or -1."""
    return s.last_placed[1] if s.last_placed is not None and s.last_placed[0] == o else -1


def _kinds(area: tuple[Card, ...], last: int) -> dict[Kind, list[int]]:
    """The area's positions by kind of card, in order of first appearance."""
    classes: dict[Kind, list[int]] = {}
    for k, (v, grp) in enumerate(area):
        classes.setdefault((v, grp, k == last), []).append(k)
    return classes


Pick = tuple[list[int], bool, bool]  # positions, one of them fresh (no lost group), one placed last


def _picks(kinds: list[tuple[Kind, list[int]]], need: int) -> list[Pick]:
    """Every way of taking ``need`` cards of one face, the earliest of each kind."""
    out: list[Pick] = []
    for split in _splits(need, tuple(len(p) for _, p in kinds)):
        picked: list[int] = []
        fresh = False
        has_last = False
        for (key, positions), take in zip(kinds, split, strict=True):
            if take:
                picked.extend(positions[:take])
                fresh = fresh or key[1] == 0
                has_last = has_last or key[2]
        out.append((picked, fresh, has_last))
    return out


def _area_locks(s: FFState, o: int) -> Iterator[Lock]:
    """The locks of cards of seat o's area, one per distinct choice of kinds of cards."""
    rules = s.rules
    area = s.areas[o]
    by_face: dict[str, list[tuple[Kind, list[int]]]] = {}
    for key, positions in _kinds(area, _last_of(s, o)).items():
        by_face.setdefault(key[0], []).append((key, positions))
    counts = {f: sum(len(p) for _, p in cl) for f, cl in by_face.items()}
    for pattern in rules.patterns:
        if sum(pattern.groups) > len(area):
            continue
        for faces in _face_choices(pattern, counts):
            options = [_picks(by_face[f], need) for f, need in zip(faces, pattern.groups, strict=True)]
            for combo in product(*options):
                if not any(fresh for _, fresh, _ in combo):
                    continue
                if rules.lock_requires_last_placed and not any(h for _, _, h in combo):
                    continue
                pos = tuple(sorted(k for picked, _, _ in combo for k in picked))
                yield Lock(owner=s.seats[o], cards=pos, pattern=pattern.name)


def lock_commands(s: FFState) -> list[Lock]:
    """One lock per distinct choice of cards: cards of the same value and the same lost group
    (and not the card placed last) are interchangeable, so the earliest ones stand for them.
    Any positions naming the same kinds of cards are accepted too."""
    if needs_draw(s) is not None:
        return []
    if s.rules.lock_requires_last_placed and s.last_placed is None:
        return []
    out: list[Lock] = []
    for o in range(len(s.areas)):
        if s.rules.lock_requires_last_placed and s.last_placed is not None and s.last_placed[0] != o:
            continue
        out.extend(_area_locks(s, o))
    return out


def canonical(state: FFState, command: FarkleFlipCommand) -> FarkleFlipCommand:
    """The legal-list representative of a command: a lock's cards replaced by the earliest cards
    of the same kinds (value, lost group, placed last or not), which ``lock_commands`` lists."""
    if not isinstance(command, Lock) or command.owner not in state.seats:
        return command
    o = state.seats.index(command.owner)
    area = state.areas[o]
    if any(not 0 <= k < len(area) for k in command.cards):
        return command
    last = _last_of(state, o)
    classes = _kinds(area, last)
    wanted: dict[Kind, int] = {}
    for k in set(command.cards):
        key = (area[k][0], area[k][1], k == last)
        wanted[key] = wanted.get(key, 0) + 1
    pos = tuple(sorted(k for key, n in wanted.items() for k in classes[key][:n]))
    return Lock(owner=command.owner, cards=pos, pattern=command.pattern)


def play_moves(s: FFState, i: int) -> tuple[FarkleFlipCommand, ...]:
    """The legal commands of seat index i in a turn: its own turn only; a drawn card is placed
    first (to any seat's area), otherwise DRAW, the locks and STOP as far as each is valid."""
    if s.current != i:
        return ()
    if s.pending is not None:
        return tuple(Place(target=t) for t in s.seats)
    out: list[FarkleFlipCommand] = []
    if draw_problem(s) is None:
        out.append(Draw())
    out.extend(lock_commands(s))
    if not isinstance(stop_outcome(s), Rejected):
        out.append(Stop())
    return tuple(out)
