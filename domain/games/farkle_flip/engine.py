"""Farkle Flip referee: set-up, decide, evolve and legal commands (rules/thousand-and-farkle-flip.md §3.9).

``decide`` works on a scratch copy of the state: each event it emits is folded at once, so the
follow-ups of an action (a reshuffle before a draw, a bust, the end of the turn, the final round,
the end of the game) are decided on the state they really apply to.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import permutations, product
from typing import Any

import msgspec

from contracts.envelope import Rejected
from contracts.games.farkle_flip import (
    FACES,
    FARKLE,
    Busted,
    CardDrawn,
    CardPlaced,
    CombinationLocked,
    Draw,
    FarkleFlipCommand,
    FarkleFlipEvent,
    FarkleFlipRuleset,
    FinalRoundStarted,
    GameDealt,
    GameEnded,
    Lock,
    Pattern,
    PileOrderGiven,
    PileReshuffled,
    Place,
    Ready,
    SeatReady,
    Stop,
    Stopped,
    TurnEnded,
)
from contracts.match import Outcome
from domain.core import rng
from domain.games.farkle_flip.rules import deck, find_pattern, pattern_value
from domain.games.farkle_flip.state import Card, Combo, FFState

MAX_CLIENT_SEED = 256
UNKNOWN = "??"

_replace = msgspec.structs.replace


def _reject(code: str, detail: str = "") -> Rejected:
    return Rejected(code=code, detail=detail)


def _set(t: tuple[Any, ...], i: int, v: Any) -> tuple[Any, ...]:
    return t[:i] + (v,) + t[i + 1 :]


# ---------------------------------------------------------------- set-up
def initial_state(rules: FarkleFlipRuleset, seats: tuple[str, ...], seed: bytes | None) -> FFState:
    n = len(seats)
    return FFState(
        rules=rules,
        seats=tuple(seats),
        seed=seed,
        seat_problem=rules.check_seats(n),
        client_seeds=("",) * n,
        ready=(False,) * n,
    )


def deal(state: FFState) -> GameDealt | str:
    """The set-up from rng_v1 (§3.3, FF2): a random dealer, the shuffled deck, one card to each
    seat from the dealer's left; the first player sits left of the dealer (004:L1158)."""
    if state.seed is None:
        return "the server seed is not available"
    key = rng.derive_key(state.seed, state.client_seeds)
    n = len(state.seats)
    dealer = rng.Stream(key, b"dealer").randbelow(n)
    order = rng.shuffle(key, b"deck", deck(state.rules))
    dealt = [""] * n
    for k in range(n):
        dealt[(dealer + 1 + k) % n] = order[k]
    return GameDealt(
        dealer=state.seats[dealer],
        first_seat=state.seats[(dealer + 1) % n],
        seats=state.seats,
        deck=order,
        dealt=tuple(dealt),
        draw_size=len(order) - n,
    )


def reshuffle(state: FFState, seat: str) -> PileReshuffled | str:
    """The scored pile shuffled into a new draw pile (004:L1186): rng_v1 label ``reshuffle:<n>``
    over the pile's cards sorted, so the order depends on the seed and the pile's contents only."""
    no = state.reshuffles + 1
    if state.given_order is not None:  # a game record gives the order (rules/records.md)
        return PileReshuffled(
            seat=seat, reshuffle_no=no, order=state.given_order, size=len(state.given_order)
        )
    if state.seed is None:
        return "the server seed is not available"
    key = rng.derive_key(state.seed, state.client_seeds)
    order = rng.shuffle(key, b"reshuffle:%d" % no, sorted(state.scored_pile))
    return PileReshuffled(seat=seat, reshuffle_no=no, order=order, size=len(order))


# ---------------------------------------------------------------- evolve
def _return_to_area(state: FFState, i: int) -> tuple[tuple[tuple[Card, ...], ...], int, tuple[int, ...]]:
    """The centre back into seat i's area, one new lost group per combination, in lock order (FF1, FF9)."""
    area = state.areas[i]
    group = state.next_group
    groups: list[int] = []
    for combo in state.centre:
        area = area + tuple((v, group) for v in combo.cards)
        groups.append(group)
        group += 1
    return _set(state.areas, i, area), group, tuple(groups)


def _new_turn(state: FFState, seat: int) -> FFState:
    return _replace(
        state,
        current=seat,
        pending=None,
        centre=(),
        draws=0,
        last_placed=None,
        start_dry=state.piles_empty(),
        turn_banked=False,
    )


def evolve(state: FFState, event: FarkleFlipEvent) -> FFState:
    seats = state.seats
    if isinstance(event, CardDrawn):
        s = _replace(state, draw_pile=state.draw_pile[1:], draws=state.draws + 1)
        return s if event.card == FARKLE else _replace(s, pending=event.card)
    if isinstance(event, CardPlaced):
        t = seats.index(event.target)
        area = state.areas[t] + ((event.card, 0),)
        return _replace(state, areas=_set(state.areas, t, area), pending=None, last_placed=(t, len(area) - 1))
    if isinstance(event, CombinationLocked):
        o = seats.index(event.owner)
        taken = set(event.positions)
        area = tuple(c for k, c in enumerate(state.areas[o]) if k not in taken)
        last = state.last_placed
        if last is not None and last[0] == o:
            last = None if last[1] in taken else (o, last[1] - sum(1 for k in taken if k < last[1]))
        combo = Combo(owner=o, cards=event.cards, pattern=event.pattern, value=event.value)
        return _replace(
            state, areas=_set(state.areas, o, area), centre=(*state.centre, combo), last_placed=last
        )
    if isinstance(event, Busted):
        i = seats.index(event.seat)
        areas, group, _ = _return_to_area(state, i)
        return _replace(
            state,
            areas=areas,
            next_group=group,
            centre=(),
            farkle_held=_set(state.farkle_held, i, state.farkle_held[i] + 1),
        )
    if isinstance(event, Stopped):
        i = seats.index(event.seat)
        if event.result == "banked":
            scored = tuple(v for c in state.centre for v in c.cards) + (FARKLE,) * event.farkle_cards
            return _replace(
                state,
                banked=_set(state.banked, i, event.banked),
                on_board=_set(state.on_board, i, True),
                farkle_held=_set(state.farkle_held, i, 0),
                scored_pile=state.scored_pile + scored,
                centre=(),
                turn_banked=True,
            )
        if event.result == "forfeit":
            areas, group, _ = _return_to_area(state, i)
            return _replace(state, areas=areas, next_group=group, centre=())
        return state
    if isinstance(event, TurnEnded):
        i = seats.index(event.seat)
        dry = state.dry_turns + 1 if state.start_dry and not state.turn_banked else 0
        remaining = state.remaining[1:] if state.remaining and state.remaining[0] == i else state.remaining
        s = _replace(
            state,
            dry_turns=dry,
            remaining=remaining,
            turn_rows=(*state.turn_rows, state.banked),
            turn_seats=(*state.turn_seats, i),
        )
        return _new_turn(s, seats.index(event.next_seat))
    if isinstance(event, PileReshuffled):
        return _replace(
            state, draw_pile=event.order, scored_pile=(), reshuffles=event.reshuffle_no, given_order=None
        )
    if isinstance(event, PileOrderGiven):
        return _replace(state, given_order=event.order)
    if isinstance(event, FinalRoundStarted):
        return _replace(
            state,
            trigger=seats.index(event.trigger),
            remaining=tuple(seats.index(s) for s in event.remaining),
        )
    if isinstance(event, SeatReady):
        i = seats.index(event.seat)
        return _replace(
            state,
            ready=_set(state.ready, i, True),
            client_seeds=_set(state.client_seeds, i, event.client_seed),
        )
    if isinstance(event, GameDealt):
        n = len(seats)
        dealer = seats.index(event.dealer)
        laid: list[tuple[Card, ...]] = [()] * n
        aside: list[str] = []
        for k in range(n):
            j = (dealer + 1 + k) % n
            card = event.dealt[j]
            if card == FARKLE:
                aside.append(card)  # F7 / FF2: set aside for the whole game
            else:
                laid[j] = ((card, 0),)
        s = _replace(
            state,
            status="playing",
            dealer=dealer,
            draw_pile=event.deck[n:],
            set_aside=tuple(aside),
            banked=(0,) * n,
            on_board=(False,) * n,
            farkle_held=(0,) * n,
            areas=tuple(laid),
        )
        return _new_turn(s, seats.index(event.first_seat))
    if isinstance(event, GameEnded):
        return _replace(state, status="finished", ranks=event.ranks, end_reason=event.reason, current=-1)
    raise TypeError(f"not a Farkle Flip event: {type(event).__name__}")


# ---------------------------------------------------------------- decide
class _Builder:
    __slots__ = ("state", "events")

    def __init__(self, state: FFState) -> None:
        self.state = state
        self.events: list[FarkleFlipEvent] = []

    def emit(self, event: FarkleFlipEvent) -> None:
        self.events.append(event)
        self.state = evolve(self.state, event)


_COMMANDS = (Ready, Draw, Place, Lock, Stop)


def decide(state: FFState, seat: str, command: FarkleFlipCommand) -> tuple[FarkleFlipEvent, ...] | Rejected:
    if not isinstance(command, _COMMANDS):
        return _reject("malformed", f"not a Farkle Flip command: {type(command).__name__}")
    if seat not in state.seats:
        return _reject("not_your_turn", f"{seat!r} is not a seat of this match")
    if state.seat_problem is not None:
        return _reject("invalid_seats", state.seat_problem)
    i = state.seats.index(seat)
    if isinstance(command, Ready):
        return _decide_ready(state, i, command)
    if state.status != "playing":
        return _reject("game_not_active", f"the game is {state.status}")
    if i != state.current:
        return _reject("not_your_turn", f"it is {state.seats[state.current]}'s turn")
    b = _Builder(state)
    problem: Rejected | None
    if isinstance(command, Draw):
        problem = _draw(b)
    elif isinstance(command, Place):
        problem = _place(b, command)
    elif isinstance(command, Lock):
        problem = _lock(b, command)
    else:
        problem = _stop(b)
    return problem if problem is not None else tuple(b.events)


def _decide_ready(state: FFState, i: int, command: Ready) -> tuple[FarkleFlipEvent, ...] | Rejected:
    if state.status != "waiting":
        return _reject("not_dealing", "the game has been dealt")
    if state.ready[i]:
        return _reject("already_ready", "this seat is ready already")
    if len(command.client_seed) > MAX_CLIENT_SEED:
        return _reject("client_seed_too_long", f"client_seed is longer than {MAX_CLIENT_SEED} characters")
    b = _Builder(state)
    b.emit(SeatReady(seat=state.seats[i], client_seed=command.client_seed))
    if all(b.state.ready):
        dealt = deal(b.state)
        if isinstance(dealt, str):
            return _reject("seed_unavailable", dealt)
        b.emit(dealt)
    return tuple(b.events)


def draw_problem(s: FFState) -> Rejected | None:
    if s.pending is not None:
        return _reject("card_pending", f"place the {s.pending} first")
    if s.piles_empty():
        return _reject("piles_empty", "the draw pile and the scored pile are both empty: lock and stop")
    return None


def _draw(b: _Builder) -> Rejected | None:
    problem = draw_problem(b.state)
    if problem is not None:
        return problem
    seat = b.state.seats[b.state.current]
    if not b.state.draw_pile:
        shuffled = reshuffle(b.state, seat)
        if isinstance(shuffled, str):
            return _reject("seed_unavailable", shuffled)
        if sorted(shuffled.order) != sorted(b.state.scored_pile):
            return _reject("bad_deal", "the reshuffle order is not a permutation of the scored pile")
        b.emit(shuffled)
    card = b.state.draw_pile[0]
    b.emit(CardDrawn(seat=seat, card=card))
    if card == FARKLE:
        s = b.state
        b.emit(Busted(seat=seat, lost=tuple(c.cards for c in s.centre), groups=_new_groups(s)))
        _end_turn(b)
    return None


def _new_groups(s: FFState) -> tuple[int, ...]:
    return tuple(range(s.next_group, s.next_group + len(s.centre)))


def _place(b: _Builder, command: Place) -> Rejected | None:
    s = b.state
    if s.pending is None:
        return _reject("no_card_pending", "draw a card first")
    if command.target not in s.seats:
        return _reject("no_such_seat", f"target must be one of {list(s.seats)}")
    t = s.seats.index(command.target)
    b.emit(
        CardPlaced(seat=s.seats[s.current], target=command.target, card=s.pending, position=len(s.areas[t]))
    )
    return None


def _needs_draw(s: FFState) -> Rejected | None:
    """F9: at least one draw per turn before a lock or a stop, waived with both piles empty (F10)."""
    if s.pending is not None:
        return _reject("card_pending", f"place the {s.pending} first")
    if s.draws == 0 and not s.piles_empty():
        return _reject("must_draw_first", "draw at least one card this turn")
    return None


def lock_problem(s: FFState, command: Lock) -> tuple[Rejected, None] | tuple[None, CombinationLocked]:
    problem = _needs_draw(s)
    if problem is not None:
        return problem, None
    if command.owner not in s.seats:
        return _reject("no_such_seat", f"owner must be one of {list(s.seats)}"), None
    o = s.seats.index(command.owner)
    area = s.areas[o]
    pos = command.cards
    if not pos or len(set(pos)) != len(pos) or any(not 0 <= k < len(area) for k in pos):
        return _reject(
            "bad_positions", f"cards must be distinct positions 0..{len(area) - 1} of {command.owner}'s area"
        ), None
    pattern = find_pattern(s.rules, command.pattern)
    if pattern is None:
        names = ", ".join(p.name for p in s.rules.patterns)
        return _reject("unknown_pattern", f"{command.pattern!r} is not in the scoring table ({names})"), None
    chosen = sorted(pos)
    values = tuple(area[k][0] for k in chosen)
    value = pattern_value(pattern, values)
    if value is None:
        return _reject("pattern_mismatch", f"{' '.join(values)} is not {pattern.name}"), None
    if all(area[k][1] != 0 for k in chosen):
        return _reject(
            "lost_group_needs_new_card", "a lock needs at least one card from outside the lost groups (FF1)"
        ), None
    if s.rules.lock_requires_last_placed and (
        s.last_placed is None or s.last_placed[0] != o or s.last_placed[1] not in pos
    ):
        return _reject(
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


def _lock(b: _Builder, command: Lock) -> Rejected | None:
    problem, event = lock_problem(b.state, command)
    if problem is not None:
        return problem
    assert event is not None
    b.emit(event)
    return None


def stop_outcome(s: FFState) -> Stopped | Rejected:
    """STOP resolved by §3.9 Bank, or why it is not valid."""
    problem = _needs_draw(s)
    if problem is not None:
        return problem
    i = s.current
    rules = s.rules
    seat = s.seats[i]
    turn_total = sum(c.value for c in s.centre)
    held = s.farkle_held[i]
    if not s.centre:
        if (
            rules.entry_stop_policy == "MUST_CONTINUE"
            and not s.on_board[i]
            and rules.entry > 0
            and not s.piles_empty()
        ):
            return _reject(
                "below_entry", f"not on the board: keep drawing until {rules.entry} (MUST_CONTINUE)"
            )
        # FF6: nothing to score; Farkle cards stay held
        return Stopped(
            seat=seat, result="nothing", turn_total=0, farkle_cards=held, points=0, banked=s.banked[i]
        )
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
        return _reject("below_entry", f"{bank_total} is below the entry of {rules.entry} (MUST_CONTINUE)")
    return Stopped(
        seat=seat,
        result="forfeit",
        turn_total=turn_total,
        farkle_cards=held,
        points=0,
        banked=s.banked[i],
        groups=_new_groups(s),
    )


def _stop(b: _Builder) -> Rejected | None:
    stopped = stop_outcome(b.state)
    if isinstance(stopped, Rejected):
        return stopped
    b.emit(stopped)
    s = b.state
    if stopped.result == "banked" and s.trigger < 0 and stopped.banked >= s.rules.target:
        n = len(s.seats)
        others = tuple(s.seats[(s.current + k) % n] for k in range(1, n))
        b.emit(FinalRoundStarted(trigger=s.seats[s.current], remaining=others))
    _end_turn(b)
    return None


def _end_turn(b: _Builder) -> None:
    s = b.state
    n = len(s.seats)
    b.emit(TurnEnded(seat=s.seats[s.current], next_seat=s.seats[(s.current + 1) % n]))
    s = b.state
    if s.trigger >= 0 and not s.remaining:
        b.emit(GameEnded(reason="final_round", banked=s.banked, ranks=ranks(s.banked)))
    elif s.dry_turns >= n:
        b.emit(GameEnded(reason="piles_empty", banked=s.banked, ranks=ranks(s.banked)))


def ranks(banked: tuple[int, ...]) -> tuple[int, ...]:
    """FF7: competition ranking by banked points, highest first (ties share: 1, 1, 3)."""
    return tuple(1 + sum(1 for other in banked if other > b) for b in banked)


# ---------------------------------------------------------------- legal commands
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


def lock_commands(s: FFState) -> list[Lock]:
    """One lock per distinct choice of cards: cards of the same value and the same lost group
    (and not the card placed last) are interchangeable, so the earliest ones stand for them.
    Any positions naming the same kinds of cards are accepted too."""
    if _needs_draw(s) is not None:
        return []
    rules = s.rules
    if rules.lock_requires_last_placed and s.last_placed is None:
        return []
    out: list[Lock] = []
    for o, area in enumerate(s.areas):
        if rules.lock_requires_last_placed and s.last_placed is not None and s.last_placed[0] != o:
            continue
        last = s.last_placed[1] if s.last_placed is not None and s.last_placed[0] == o else -1
        # classes: (value, group, is_last) -> positions
        classes: dict[tuple[str, int, bool], list[int]] = {}
        for k, (v, grp) in enumerate(area):
            classes.setdefault((v, grp, k == last), []).append(k)
        by_face: dict[str, list[tuple[tuple[str, int, bool], list[int]]]] = {}
        for key, positions in classes.items():
            by_face.setdefault(key[0], []).append((key, positions))
        counts = {f: sum(len(p) for _, p in cl) for f, cl in by_face.items()}
        for pattern in rules.patterns:
            if sum(pattern.groups) > len(area):
                continue
            for faces in _face_choices(pattern, counts):
                options: list[list[tuple[list[int], bool, bool]]] = []
                for f, need in zip(faces, pattern.groups, strict=True):
                    cl = by_face[f]
                    per: list[tuple[list[int], bool, bool]] = []
                    for split in _splits(need, tuple(len(p) for _, p in cl)):
                        picked: list[int] = []
                        fresh = False
                        has_last = False
                        for (key, positions), take in zip(cl, split, strict=True):
                            if take:
                                picked.extend(positions[:take])
                                fresh = fresh or key[1] == 0
                                has_last = has_last or key[2]
                        per.append((picked, fresh, has_last))
                    options.append(per)
                for combo in product(*options):
                    if not any(fresh for _, fresh, _ in combo):
                        continue
                    if rules.lock_requires_last_placed and not any(h for _, _, h in combo):
                        continue
                    pos = tuple(sorted(k for picked, _, _ in combo for k in picked))
                    out.append(Lock(owner=s.seats[o], cards=pos, pattern=pattern.name))
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
    last = state.last_placed[1] if state.last_placed is not None and state.last_placed[0] == o else -1
    classes: dict[tuple[str, int, bool], list[int]] = {}
    for k, (v, grp) in enumerate(area):
        classes.setdefault((v, grp, k == last), []).append(k)
    wanted: dict[tuple[str, int, bool], int] = {}
    for k in set(command.cards):
        key = (area[k][0], area[k][1], k == last)
        wanted[key] = wanted.get(key, 0) + 1
    pos = tuple(sorted(k for key, n in wanted.items() for k in classes[key][:n]))
    return Lock(owner=command.owner, cards=pos, pattern=command.pattern)


def legal_commands(state: FFState, seat: str) -> tuple[FarkleFlipCommand, ...]:
    if seat not in state.seats or state.seat_problem is not None:
        return ()
    i = state.seats.index(seat)
    if state.status == "waiting":
        return () if state.ready[i] else (Ready(),)
    if state.status != "playing" or state.current != i:
        return ()
    if state.pending is not None:
        return tuple(Place(target=t) for t in state.seats)
    out: list[FarkleFlipCommand] = []
    if draw_problem(state) is None:
        out.append(Draw())
    out.extend(lock_commands(state))
    if not isinstance(stop_outcome(state), Rejected):
        out.append(Stop())
    return tuple(out)


def to_move(state: FFState) -> frozenset[str]:
    if state.seat_problem is not None:
        return frozenset()
    if state.status == "waiting":
        return frozenset(s for s, r in zip(state.seats, state.ready, strict=True) if not r)
    if state.status == "playing":
        return frozenset({state.seats[state.current]})
    return frozenset()


def outcome(state: FFState) -> Outcome | None:
    if state.status != "finished":
        return None
    reason = {
        "final_round": "final round played",
        "piles_empty": "both piles empty for a full cycle of turns (FF3)",
    }.get(state.end_reason, state.end_reason)
    return Outcome(
        ranks=state.ranks,
        scores=tuple(float(b) for b in state.banked),
        reason=reason,
        draw=len(set(state.ranks)) == 1,
    )


def hidden(state: FFState, seat: str) -> frozenset[str]:
    """No card is one seat's secret: everything is public except the draw-pile order (§3.9
    Visibility), which no seat sees; redaction blanks it for everyone."""
    return frozenset()


def verify_chance(state: FFState, event: FarkleFlipEvent) -> str | None:
    """Re-derive a chance event from rng_v1 (state folded with the revealed server seed)."""
    if isinstance(event, CardDrawn):
        if not state.draw_pile:
            return f"draw by {event.seat}: the draw pile is empty"
        if event.card != state.draw_pile[0]:
            return f"draw by {event.seat}: drew {event.card}, the draw pile gives {state.draw_pile[0]}"
        return None
    if isinstance(event, PileReshuffled):
        expected = reshuffle(state, event.seat)
        if isinstance(expected, str):
            return f"reshuffle {event.reshuffle_no}: {expected}"
        if event != expected:
            return f"reshuffle {event.reshuffle_no}: the order does not follow from rng_v1"
        return None
    if isinstance(event, GameDealt):
        dealt = deal(state)
        if isinstance(dealt, str):
            return f"set-up: {dealt}"
        if event.dealer != dealt.dealer:
            return f"set-up: dealer is {event.dealer}, rng_v1 gives {dealt.dealer}"
        for k, (got, want) in enumerate(zip(event.deck, dealt.deck, strict=False), start=1):
            if got != want:
                return f"set-up: card {k} is {got}, rng_v1 gives {want}"
        if event != dealt:
            return "set-up: the deal does not follow from the deck order"
        return None
    return None
