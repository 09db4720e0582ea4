"""Kings in the Corner rules: initial state, decide, evolve, legal commands (rules/kings-corner.md §5).

``decide`` works on a scratch copy of the state: every event it emits is folded at once, so the
follow-ups of an action (going out, the end of the turn, the automatic draw of the next turn, a
blocked round, scoring) are computed on the state they really apply to.
"""

from __future__ import annotations

from typing import Any

import msgspec

from contracts.envelope import Rejected
from contracts.games.kings_corner import (
    SLOTS,
    CardPlayed,
    CardsDrawn,
    DrawCard,
    EndTurn,
    KingsCornerCommand,
    KingsCornerEvent,
    KingsCornerRuleset,
    MoveKingPile,
    MovePile,
    PileMoved,
    PlayCard,
    PlayRun,
    Ready,
    RoundDealt,
    RoundEnded,
    RunPlayed,
    SeatReady,
    SeatResult,
    SetupStep,
    TurnEnded,
)
from contracts.match import Outcome
from domain.core import cards, rng, rounds
from domain.games.kings_corner.rules import POINTS
from domain.games.kings_corner.state import FACES, FACTS, KING_FACES, N_CROSS, CardFacts, KCState

SLOT_INDEX = {s: i for i, s in enumerate(SLOTS)}
CORNERS = (4, 5, 6, 7)
CROSS = (0, 1, 2, 3)
MAX_CLIENT_SEED = 256

_replace = msgspec.structs.replace


def _reject(code: str, detail: str = "") -> Rejected:
    return Rejected(code=code, detail=detail)


# ---------------------------------------------------------------- set-up
def initial_state(rules: KingsCornerRuleset, seats: tuple[str, ...], seed: bytes | None) -> KCState:
    n = len(seats)
    return KCState(
        rules=rules,
        seats=tuple(seats),
        seed=seed,
        seat_problem=rules.check_seats(n),
        client_seeds=("",) * n,
        ready=(False,) * n,
        totals=(0,) * n,
        out_round=(0,) * n,
        first_turn=(False,) * n,
        ace_completions=(0,) * n,
    )


def full_deck(rules: KingsCornerRuleset) -> tuple[str, ...]:
    """One or two 52-card packs; the game's jokers (0 or 2) come with the first pack."""
    first = cards.deck("52", copies=1, jokers=rules.jokers)
    if rules.decks == 1:
        return first
    return first + tuple(c for c in cards.deck("52", copies=2) if FACTS[c].face != c)


def next_active(state: KCState, i: int) -> int:
    return rounds.next_seat(state.out_round, i)


def deal(state: KCState) -> RoundDealt | str:
    """The next round's deal from rng_v1 (§5.3), or why it cannot be dealt."""
    if state.seed is None:
        return "the server seed is not available"
    rules = state.rules
    round_no = state.round_no + 1
    key = rng.derive_key(state.seed, state.client_seeds)
    active = state.active()
    if round_no == 1:
        dealer = active[rng.Stream(key, b"dealer").randbelow(len(active))]
    else:
        dealer = next_active(state, state.dealer)
    order = rng.shuffle(key, b"deal:%d" % round_no, full_deck(rules))
    seq = rounds.seats_from(state.out_round, dealer)
    first = seq[0]
    hands: list[list[str]] = [[] for _ in state.seats]
    pos = 0
    for _ in range(rules.hand_size):
        for i in seq:
            hands[i].append(order[pos])
            pos += 1
    cross = order[pos : pos + 4]
    layout, stock, steps = lay_out_cross(rules, cross, order[pos + 4 :])
    return RoundDealt(
        round_no=round_no,
        dealer=state.seats[dealer],
        seats=state.seats,
        order=order,
        hands=tuple(tuple(h) for h in hands),
        hand_sizes=tuple(len(h) for h in hands),
        cross=tuple(cross),
        setup=tuple(steps),
        layout=layout,
        stock=stock,
        stock_size=len(stock),
        first_seat=state.seats[first],
    )


def lay_out_cross(
    rules: KingsCornerRuleset, cross: tuple[str, ...], rest: tuple[str, ...]
) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...], tuple[SetupStep, ...]]:
    """§5.3 steps 4-5: the cross N E S W, then the clean-up loop in slot order N, E, S, W.

    A king leaves under auto set-up for the first empty corner (NE, SE, SW, NW), or the bottom of
    the stock when every corner is taken (E3); a joker always goes to the bottom of the stock.
    Each emptied slot is refilled from the top of the stock and checked again.
    """
    stock = list(rest)
    layout: list[list[str]] = [[c] for c in cross] + [[] for _ in CORNERS]
    steps: list[SetupStep] = []
    auto = rules.setup_cross_kings == "auto_corner_refill_from_stock"
    guard = 0
    while True:
        slot = next(
            (s for s in CROSS if FACTS[layout[s][0]].joker or (auto and FACTS[layout[s][0]].rank == 13)),
            None,
        )
        if slot is None:
            break
        guard += 1
        if guard > 10 * (len(rest) + 4) or not stock:
            raise AssertionError("cross set-up does not terminate: the deck check is broken")
        card = layout[slot][0]
        corner = next((c for c in CORNERS if not layout[c]), None)
        if FACTS[card].joker or corner is None:
            stock.append(card)
            to = "stock_bottom"
        else:
            layout[corner] = [card]
            to = SLOTS[corner]
        refill = stock.pop(0)
        layout[slot] = [refill]
        steps.append(SetupStep(card=card, slot=SLOTS[slot], to=to, refill=refill))
    return tuple(tuple(p) for p in layout), tuple(stock), tuple(steps)


# ---------------------------------------------------------------- card helpers
def eff(state: KCState, cid: str) -> CardFacts:
    """A card's facts, a played joker's as its declared card."""
    f = FACTS[cid]
    if f.joker:
        for joker, face in state.declared:
            if joker == cid:
                return FACTS[face]
    return f


def fits(c: CardFacts, t: CardFacts, build: str) -> bool:
    if build == "down_alt_colour":
        return c.rank == t.rank - 1 and c.red != t.red
    if build == "down_in_suit":
        return c.rank == t.rank - 1 and c.suit == t.suit
    return c.rank == t.rank + 1 and c.suit == t.suit  # up_in_suit (provisional, robinson)


def build_of(rules: KingsCornerRuleset, slot: int) -> str:
    return rules.cross_build if slot < N_CROSS else rules.corner_build


def _closed(t: CardFacts, build: str) -> bool:
    return (t.rank == 1 and build != "up_in_suit") or (t.rank == 13 and build == "up_in_suit")


def place_problem(state: KCState, card: CardFacts, slot: int) -> str | None:
    """Why ``card`` (already resolved to its identity) may not go onto ``slot``, or None (A2)."""
    rules = state.rules
    pile = state.layout[slot]
    if slot >= N_CROSS and card.face in state.barred:
        return "card_barred"
    if pile:
        top = eff(state, pile[-1])
        build = build_of(rules, slot)
        if fits(card, top, build):
            return None
        return "pile_closed" if _closed(top, build) else "does_not_fit"
    if slot >= N_CROSS:
        return None if card.rank == 13 else "corner_needs_king"
    if rules.empty_cross_accepts == "any_except_king" and card.rank == 13:
        return "no_king_on_empty_cross"
    return None


Target = tuple[int, CardFacts | None, str, bool]  # slot, exposed card, build, is a corner


def _targets(state: KCState) -> list[Target]:
    rules = state.rules
    return [
        (slot, eff(state, pile[-1]) if pile else None, build_of(rules, slot), slot >= N_CROSS)
        for slot, pile in enumerate(state.layout)
    ]


def _takes(state: KCState, target: Target, f: CardFacts) -> bool:
    """place_problem(...) is None, for enumeration (same rules, no reason)."""
    _, top, build, corner = target
    if corner and f.face in state.barred:
        return False
    if top is not None:
        return fits(f, top, build)
    if corner:
        return f.rank == 13
    return not (f.rank == 13 and state.rules.empty_cross_accepts == "any_except_king")


def hand_plays(state: KCState, seat: int, first_only: bool = False) -> list[PlayCard]:
    """Every legal PLAY_CARD of ``seat`` on the current layout (jokers with each declaration)."""
    out: list[PlayCard] = []
    targets = _targets(state)
    if state.pending is not None:
        targets = [t for t in targets if not state.layout[t[0]]]
    for cid in dict.fromkeys(state.hands[seat]):
        if state.pending is not None and cid != state.pending:
            continue
        f = FACTS[cid]
        for t in targets:
            if f.joker:
                for face in _declarations(state, t):
                    out.append(PlayCard(card=cid, slot=SLOTS[t[0]], as_card=face))  # type: ignore[arg-type]
                    if first_only:
                        return out
            elif _takes(state, t, f):
                out.append(PlayCard(card=cid, slot=SLOTS[t[0]]))  # type: ignore[arg-type]
                if first_only:
                    return out
    return out


def _declarations(state: KCState, target: Target) -> list[str]:
    candidates = KING_FACES if target[1] is None and target[3] else FACES
    return [c for c in candidates if _takes(state, target, FACTS[c])]


def pile_problem(state: KCState, src: int, dst: int) -> str | None:
    """Why the whole pile at ``src`` may not move onto ``dst`` (A4), or None."""
    if src == dst:
        return "same_slot"
    if src >= N_CROSS:
        return "corner_pile_immovable"
    if not state.layout[src] or not state.layout[dst]:
        return "empty_slot"
    rules = state.rules
    if build_of(rules, src) != build_of(rules, dst):
        return "mixed_build"
    build = build_of(rules, dst)
    top = eff(state, state.layout[dst][-1])
    if not fits(eff(state, state.layout[src][0]), top, build):
        return "pile_closed" if _closed(top, build) else "does_not_fit"
    if dst >= N_CROSS and any(eff(state, c).face in state.barred for c in state.layout[src]):
        return "card_barred"
    return None


def king_pile_problem(state: KCState, src: int, dst: int) -> str | None:
    """Why the cross pile at ``src`` may not move into the empty corner ``dst`` (A5), or None."""
    rules = state.rules
    if not rules.king_pile_to_corner:
        return "king_pile_move_disabled"
    if src >= N_CROSS:
        return "not_a_cross_slot"
    if dst < N_CROSS:
        return "not_a_corner"
    pile = state.layout[src]
    if not pile:
        return "empty_slot"
    if eff(state, pile[0]).rank != 13:
        return "not_a_king_pile"
    if state.layout[dst]:
        return "corner_occupied"
    if rules.corner_build != rules.cross_build:
        for below, above in zip(pile, pile[1:], strict=False):
            if not fits(eff(state, above), eff(state, below), rules.corner_build):
                return "mixed_build"
    if any(eff(state, c).face in state.barred for c in pile):
        return "card_barred"
    return None


def pile_moves(state: KCState) -> list[MovePile | MoveKingPile]:
    out: list[MovePile | MoveKingPile] = []
    rules = state.rules
    tops = [eff(state, p[-1]) if p else None for p in state.layout]
    for src in CROSS:
        if not state.layout[src]:
            continue
        base = eff(state, state.layout[src][0])
        for dst in range(8):
            top = tops[dst]
            if top is not None:
                if (
                    dst != src
                    and fits(base, top, build_of(rules, dst))
                    and pile_problem(state, src, dst) is None
                ):
                    out.append(MovePile(from_slot=SLOTS[src], to_slot=SLOTS[dst]))  # type: ignore[arg-type]
            elif dst >= N_CROSS and base.rank == 13 and king_pile_problem(state, src, dst) is None:
                out.append(MoveKingPile(from_slot=SLOTS[src], to_slot=SLOTS[dst]))  # type: ignore[arg-type]
    return out


def has_legal_action(state: KCState, seat: int) -> bool:
    """§5.2 legal_actions(seat) is non-empty (as if it were that seat's turn; no DRAW/END_TURN)."""
    if state.pending is not None and state.current == seat:
        return True
    scratch = state if state.pending is None else _replace(state, pending=None)
    return bool(hand_plays(scratch, seat, first_only=True)) or bool(pile_moves(scratch))


def runs(state: KCState, seat: int, singles: list[PlayCard] | None = None) -> list[PlayRun]:
    """Every legal PLAY_RUN (two cards or more, no jokers) of ``seat``; ``singles`` = its hand plays."""
    if not state.rules.run_play_action or state.pending is not None:
        return []
    if singles is None:
        singles = hand_plays(state, seat)
    hand = [c for c in dict.fromkeys(state.hands[seat]) if not FACTS[c].joker]
    barred = state.barred
    out: list[PlayRun] = []

    def extend(chain: list[str], slot: str, build: str, corner: bool) -> None:
        last = FACTS[chain[-1]]
        for cid in hand:
            f = FACTS[cid]
            if fits(f, last, build) and cid not in chain and not (corner and f.face in barred):
                chain.append(cid)
                out.append(PlayRun(cards=tuple(chain), slot=slot))  # type: ignore[arg-type]
                extend(chain, slot, build, corner)
                chain.pop()

    for play in singles:
        if play.as_card is None:
            index = SLOT_INDEX[play.slot]
            extend([play.card], play.slot, build_of(state.rules, index), index >= N_CROSS)
    return sorted(out, key=lambda r: (SLOT_INDEX[r.slot], r.cards))


def king_obliged(state: KCState, seat: int) -> bool:
    """mandatory_kings: the seat holds a king that could start an empty corner."""
    if not any(not state.layout[c] for c in CORNERS):
        return False
    return any(FACTS[c].rank == 13 and FACTS[c].face not in state.barred for c in state.hands[seat])


def any_empty_slot_takes(state: KCState, cid: str) -> bool:
    f = FACTS[cid]
    for target in _targets(state):
        if target[1] is not None:
            continue
        if f.joker:
            if _declarations(state, target):
                return True
        elif _takes(state, target, f):
            return True
    return False


# ---------------------------------------------------------------- evolve
def _observe_kings(state: KCState) -> KCState:
    """penalty3: remember the kings the current seat holds while a corner is empty."""
    if state.rules.mandatory_kings != "penalty3" or state.current < 0:
        return state
    if not any(not state.layout[c] for c in CORNERS):
        return state
    kings = frozenset(c for c in state.hands[state.current] if FACTS[c].rank == 13)
    if kings <= state.kings_seen:
        return state
    return _replace(state, kings_seen=state.kings_seen | kings)


def _set(t: tuple[Any, ...], i: int, v: Any) -> tuple[Any, ...]:
    return t[:i] + (v,) + t[i + 1 :]


def _remove(hand: tuple[str, ...], played: tuple[str, ...]) -> tuple[str, ...]:
    """The hand without the played cards.  In a seat's information state (events redacted for
    it) another seat's hand is ``UNKNOWN`` placeholders: a played card takes one of those."""
    left = list(hand)
    for c in played:
        left.remove(c if c in left else cards.UNKNOWN)
    return tuple(left)


def _ace_done(state: KCState, slot: int, pile: tuple[str, ...]) -> bool:
    if slot < N_CROSS or state.rules.corner_ace_bonus == 0 or len(pile) != 13:
        return False
    return eff(state, pile[-1]).rank == 1


def _new_turn(state: KCState, seat: int) -> KCState:
    return _observe_kings(
        _replace(
            state,
            current=seat,
            drawn=0,
            played=0,
            merges=0,
            actions=0,
            stock_empty_at_start=not state.stock,
            kings_seen=frozenset(),
            pending=None,
        )
    )


def evolve(state: KCState, event: KingsCornerEvent) -> KCState:
    seats = state.seats
    if isinstance(event, SeatReady):
        i = seats.index(event.seat)
        s = _replace(state, ready=_set(state.ready, i, True))
        if state.round_no == 0:
            s = _replace(s, client_seeds=_set(s.client_seeds, i, event.client_seed))
        return s
    if isinstance(event, RoundDealt):
        n = len(seats)
        active = state.active()
        totals, pot = state.totals, state.pot
        if state.rules.settlement == "chips" and state.rules.ante:
            totals = tuple(t - state.rules.ante if i in active else t for i, t in enumerate(totals))
            pot += state.rules.ante * len(active)
        s = _replace(
            state,
            status="playing",
            round_no=event.round_no,
            dealer=seats.index(event.dealer),
            ready=(False,) * n,
            totals=totals,
            pot=pot,
            hands=event.hands,
            stock=event.stock,
            layout=event.layout,
            declared=(),
            barred=frozenset(),
            first_turn=tuple(i in active for i in range(n)),
            idle=0,
            ace_completions=(0,) * n,
        )
        return _new_turn(s, seats.index(event.first_seat))
    if isinstance(event, CardsDrawn):
        i = seats.index(event.seat)
        s = _replace(
            state,
            hands=_set(state.hands, i, state.hands[i] + event.cards),
            stock=state.stock[event.count :],
            drawn=state.drawn + event.count,
        )
        if event.reason == "going_out" and event.count == 1 and any_empty_slot_takes(s, event.cards[0]):
            s = _replace(s, pending=event.cards[0])
        if event.reason != "turn_end":
            s = _observe_kings(s)
        return s
    if isinstance(event, (CardPlayed, RunPlayed)):
        i = seats.index(event.seat)
        slot = SLOT_INDEX[event.slot]
        played = (event.card,) if isinstance(event, CardPlayed) else event.cards
        s = state
        if isinstance(event, CardPlayed) and event.as_card is not None and FACTS[event.card].joker:
            s = _replace(s, declared=(*s.declared, (event.card, event.as_card)))
            if slot >= N_CROSS:
                s = _replace(s, barred=s.barred | {event.as_card})
        pile = s.layout[slot] + played
        s = _replace(
            s,
            hands=_set(s.hands, i, _remove(s.hands[i], played)),
            layout=_set(s.layout, slot, pile),
            played=s.played + len(played),
            actions=s.actions + 1,
            pending=None,
        )
        if _ace_done(s, slot, pile):
            s = _replace(s, ace_completions=_set(s.ace_completions, i, s.ace_completions[i] + 1))
        return s
    if isinstance(event, PileMoved):
        i = seats.index(event.seat)
        src, dst = SLOT_INDEX[event.from_slot], SLOT_INDEX[event.to_slot]
        pile = state.layout[dst] + state.layout[src]
        barred = state.barred
        if dst >= N_CROSS and state.declared:
            barred = barred | {eff(state, c).face for c in state.layout[src] if FACTS[c].joker}
        s = _replace(
            state,
            barred=barred,
            layout=_set(_set(state.layout, dst, pile), src, ()),
            merges=state.merges + 1,
            actions=state.actions + 1,
        )
        if _ace_done(s, dst, pile):
            s = _replace(s, ace_completions=_set(s.ace_completions, i, s.ace_completions[i] + 1))
        return s
    if isinstance(event, TurnEnded):
        i = seats.index(event.seat)
        totals, pot = state.totals, state.pot
        if event.king_penalty:
            if state.rules.settlement == "penalty":
                totals = _set(totals, i, totals[i] + event.king_penalty)
            else:
                totals = _set(totals, i, totals[i] - event.king_penalty)
                pot += event.king_penalty
        if event.idle_fee:
            totals = _set(totals, i, totals[i] - event.idle_fee)
            pot += event.idle_fee
        idle = state.idle + 1 if state.stock_empty_at_start and state.actions == 0 else 0
        s = _replace(state, totals=totals, pot=pot, idle=idle, first_turn=_set(state.first_turn, i, False))
        return _new_turn(s, seats.index(event.next_seat))
    if isinstance(event, RoundEnded):
        new_totals = list(state.totals)
        out = list(state.out_round)
        for r in event.seats:
            j = seats.index(r.seat)
            new_totals[j] = r.total
            if r.eliminated:
                out[j] = event.round_no
        return _replace(
            state,
            status="finished" if event.match_over else "round_over",
            totals=tuple(new_totals),
            out_round=tuple(out),
            pot=event.pot_carried,
            results=(*state.results, event),
            ranks=event.ranks,
            end_reason=event.reason,
            current=-1,
            pending=None,
            ready=(False,) * len(seats),
        )
    raise TypeError(f"not a Kings in the Corner event: {type(event).__name__}")


# ---------------------------------------------------------------- decide
class _Builder:
    __slots__ = ("state", "events")

    def __init__(self, state: KCState) -> None:
        self.state = state
        self.events: list[KingsCornerEvent] = []

    def emit(self, event: KingsCornerEvent) -> None:
        self.events.append(event)
        self.state = evolve(self.state, event)


def decide(state: KCState, seat: str, command: KingsCornerCommand) -> tuple[KingsCornerEvent, ...] | Rejected:
    if seat not in state.seats:
        return _reject("not_your_turn", f"{seat!r} is not a seat of this match")
    if state.seat_problem is not None:
        return _reject("invalid_seats", state.seat_problem)
    i = state.seats.index(seat)
    if isinstance(command, Ready):
        return _decide_ready(state, i, command)
    if not isinstance(command, (DrawCard, PlayCard, PlayRun, MovePile, MoveKingPile, EndTurn)):
        return _reject("malformed", f"not a Kings in the Corner command: {type(command).__name__}")
    for name in ("slot", "from_slot", "to_slot"):
        if getattr(command, name, "N") not in SLOT_INDEX:
            return _reject("malformed", f"{name} must be one of {', '.join(SLOTS)}")
    if isinstance(command, (PlayCard, PlayRun)):
        played = (command.card,) if isinstance(command, PlayCard) else command.cards
        if not all(isinstance(c, str) for c in played):
            return _reject("malformed", "card ids are strings")
    if state.status != "playing":
        return _reject("round_not_active", f"no round is being played ({state.status})")
    if state.current != i:
        return _reject("not_your_turn", f"it is {state.seats[state.current]}'s turn")
    b = _Builder(state)
    problem = _decide_action(b, i, command)
    if problem is not None:
        return problem
    return tuple(b.events)


def _decide_ready(state: KCState, i: int, command: Ready) -> tuple[KingsCornerEvent, ...] | Rejected:
    if state.status not in ("waiting", "round_over"):
        return _reject("not_dealing", "Ready is for the start of a round")
    if state.out_round[i] != 0:
        return _reject("not_dealing", "an eliminated seat takes no part in later rounds")
    if state.ready[i]:
        return _reject("already_ready", "this seat is ready already")
    if len(command.client_seed) > MAX_CLIENT_SEED:
        return _reject("client_seed_too_long", f"at most {MAX_CLIENT_SEED} characters")
    b = _Builder(state)
    b.emit(SeatReady(seat=state.seats[i], client_seed=command.client_seed if state.round_no == 0 else ""))
    if all(b.state.ready[j] for j in b.state.active()):
        dealt = deal(b.state)
        if isinstance(dealt, str):
            return _reject("seed_unavailable", dealt)
        b.emit(dealt)
        _turn_start(b)
    return tuple(b.events)


def _draw(b: _Builder, count: int, reason: Any) -> None:
    s = b.state
    got = s.stock[: min(count, len(s.stock))]
    if got:
        b.emit(CardsDrawn(seat=s.seats[s.current], cards=got, count=len(got), reason=reason))


def _turn_start(b: _Builder) -> None:
    """§5.3 Turn start: the automatic draws of `start` and `start_if_stuck` timing."""
    s = b.state
    rules = s.rules
    if not s.stock:
        return
    if rules.draw_timing == "start" or (
        rules.draw_timing == "start_if_stuck" and not hand_plays(s, s.current, first_only=True)
    ):
        _draw(b, rules.draw_count, "turn_start")
        if not b.state.stock:
            _check_blocked(b)


def _decide_action(b: _Builder, i: int, command: Any) -> Rejected | None:
    s = b.state
    rules = s.rules
    if s.pending is not None and not isinstance(command, PlayCard):
        return _reject("pending_placement", f"{s.pending} must first go to an empty slot")
    if isinstance(command, PlayCard):
        return _play_card(b, i, command)
    if isinstance(command, PlayRun):
        return _play_run(b, i, command)
    if isinstance(command, MovePile):
        src, dst = SLOT_INDEX[command.from_slot], SLOT_INDEX[command.to_slot]
        why = pile_problem(s, src, dst)
        if why is not None:
            return _reject(why, f"pile {command.from_slot} cannot move onto {command.to_slot}")
        b.emit(PileMoved(seat=s.seats[i], from_slot=command.from_slot, to_slot=command.to_slot))
        return None
    if isinstance(command, MoveKingPile):
        src, dst = SLOT_INDEX[command.from_slot], SLOT_INDEX[command.to_slot]
        why = king_pile_problem(s, src, dst)
        if why is not None:
            return _reject(why, f"pile {command.from_slot} cannot move to corner {command.to_slot}")
        b.emit(
            PileMoved(seat=s.seats[i], from_slot=command.from_slot, to_slot=command.to_slot, king_pile=True)
        )
        return None
    if isinstance(command, DrawCard):
        problem = draw_problem(s, i)
        if problem is not None:
            return problem
        if rules.draw_timing == "end":
            _end_turn(b, i, draw=True)
            return None
        _draw(b, 1, "until_playable")
        if not b.state.stock:
            _check_blocked(b)
        return None
    problem = end_turn_problem(s, i)
    if problem is not None:
        return problem
    draw = bool(s.stock) and (
        rules.draw_timing == "end"
        or (rules.draw_timing == "start_if_stuck" and s.drawn == 0 and s.played == 0)
    )
    _end_turn(b, i, draw=draw)
    return None


def draw_problem(s: KCState, i: int) -> Rejected | None:
    """A1 DRAW: why the current seat may not draw now, or None."""
    rules = s.rules
    if s.pending is not None:
        return _reject("pending_placement", f"{s.pending} must first go to an empty slot")
    timing = rules.draw_timing
    if timing in ("start", "start_if_stuck"):
        return _reject("draw_not_allowed", f"under {timing} timing the server draws for you")
    if not s.stock:
        return _reject("stock_empty", "the stock is empty: end the turn instead")
    if timing == "end":
        if rules.mandatory_kings == "enforce" and king_obliged(s, i):
            return _reject("kings_must_be_played", "a king must go to the empty corner first")
        return None
    if has_legal_action(s, i):
        return _reject("play_available", "you can play: draw only when nothing can be laid out")
    return None


def end_turn_problem(s: KCState, i: int) -> Rejected | None:
    """A6 END_TURN: why the current seat may not end its turn now, or None."""
    rules = s.rules
    if s.pending is not None:
        return _reject("pending_placement", f"{s.pending} must first go to an empty slot")
    if rules.mandatory_kings == "enforce" and king_obliged(s, i):
        return _reject("kings_must_be_played", "a king must go to the empty corner first")
    if rules.draw_timing == "until_playable" and not rules.optional_play:
        if s.stock and s.played + s.merges == 0:
            return _reject("must_play_first", "play or merge at least once (draw until you can)")
    return None


def _resolve(cid: str, as_card: str | None) -> CardFacts | Rejected:
    f = FACTS[cid]
    if f.joker:
        if as_card is None:
            return _reject("joker_needs_declaration", "say which card the joker stands for (as_card)")
        if (
            not isinstance(as_card, str)
            or as_card not in FACTS
            or FACTS[as_card].joker
            or FACTS[as_card].face != as_card
        ):
            return _reject("bad_declaration", f"{as_card!r} is not a card a joker can stand for")
        return FACTS[as_card]
    if as_card is not None and as_card != cid:
        return _reject("bad_declaration", "only a joker is declared as another card")
    return f


def _play_card(b: _Builder, i: int, command: PlayCard) -> Rejected | None:
    s = b.state
    cid = command.card
    if cid not in s.hands[i]:
        return _reject("card_not_in_hand", f"{cid!r} is not in your hand")
    slot = SLOT_INDEX[command.slot]
    if s.pending is not None and (cid != s.pending or s.layout[slot]):
        return _reject("pending_placement", f"{s.pending} must go to an empty slot")
    f = _resolve(cid, command.as_card)
    if isinstance(f, Rejected):
        return f
    problem = place_problem(s, f, slot)
    if problem is not None:
        return _reject(problem, f"{cid} cannot go to {command.slot}")
    b.emit(
        CardPlayed(
            seat=s.seats[i],
            card=cid,
            slot=command.slot,
            as_card=command.as_card if f is not FACTS[cid] else None,
        )
    )
    _after_play(b, i)
    return None


def _play_run(b: _Builder, i: int, command: PlayRun) -> Rejected | None:
    s = b.state
    if not s.rules.run_play_action:
        return _reject("runs_disabled", "this ruleset plays cards one at a time")
    run = command.cards
    if len(run) < 2 or len(set(run)) != len(run):
        return _reject("bad_run", "a run is two or more different cards")
    for cid in run:
        if cid not in s.hands[i]:
            return _reject("card_not_in_hand", f"{cid!r} is not in your hand")
        if FACTS[cid].joker:
            return _reject("bad_run", "jokers are played one at a time")
    slot = SLOT_INDEX[command.slot]
    problem = place_problem(s, FACTS[run[0]], slot)
    if problem is not None:
        return _reject(problem, f"{run[0]} cannot go to {command.slot}")
    build = build_of(s.rules, slot)
    for below, above in zip(run, run[1:], strict=False):
        if not fits(FACTS[above], FACTS[below], build):
            return _reject("bad_run", f"{above} does not follow {below}")
        if slot >= N_CROSS and FACTS[above].face in s.barred:
            return _reject("card_barred", f"{above} may not enter a corner")
    b.emit(RunPlayed(seat=s.seats[i], cards=run, slot=command.slot))
    _after_play(b, i)
    return None


def _after_play(b: _Builder, i: int) -> None:
    """§5.6 going out, checked after every A2 and A3."""
    s = b.state
    if s.hands[i]:
        return
    rule = s.rules.going_out
    if rule == "after_stock_exhausted" and s.stock:
        _draw(b, 1, "going_out")
        if b.state.pending is None:
            _end_turn(b, i, draw=False)  # this draw replaces the end-of-turn draw
        return
    if rule == "draw3_if_open_cross" and s.stock and any(not s.layout[c] for c in CROSS):
        _draw(b, 3, "open_cross")
        if not b.state.stock:
            _check_blocked(b)
        return
    _end_round(b, winner=i)


def _end_turn(b: _Builder, i: int, draw: bool) -> None:
    s = b.state
    rules = s.rules
    king_penalty = 0
    if rules.mandatory_kings == "penalty3":
        king_penalty = 3 * sum(1 for c in s.hands[i] if c in s.kings_seen)
    fee = rules.idle_fee if rules.settlement != "penalty" and s.played == 0 else 0
    if draw:
        _draw(b, rules.draw_count, "turn_end")
    nxt = next_active(s, i)
    b.emit(TurnEnded(seat=s.seats[i], next_seat=s.seats[nxt], king_penalty=king_penalty, idle_fee=fee))
    if _check_blocked(b):
        return
    _turn_start(b)


def _check_blocked(b: _Builder) -> bool:
    """§5.6 Blocked: stock empty and (nobody can act, or a full cycle of idle turns)."""
    s = b.state
    if s.stock or s.status != "playing":
        return False
    active = s.active()
    if s.idle >= len(active) or not any(has_legal_action(s, j) for j in active):
        _end_round(b, winner=None)
        return True
    return False


def _end_round(b: _Builder, winner: int | None) -> None:
    s = b.state
    rules = s.rules
    active = s.active()
    table = POINTS[rules.scoring_table]
    totals = list(s.totals)
    pot = s.pot
    points: dict[int, int] = {}
    change: dict[int, int] = {j: 0 for j in active}
    for j in active:
        hand = s.hands[j]
        p = sum(rules.joker_penalty if FACTS[c].joker else table[cards.parse(c).rank] for c in hand)
        if j == winner and s.first_turn[j]:
            p += rules.first_turn_out_adjust
        if s.ace_completions[j]:
            # [decision] the bonus never takes a round below 0, so totals never fall and a
            # target match always ends (with -5 per corner, random play drifted below zero forever)
            p = max(0, p - rules.corner_ace_bonus * s.ace_completions[j]) if p > 0 else p
        points[j] = p
    if rules.settlement == "penalty":
        for j in active:
            totals[j] += points[j]
    else:
        dues = {
            j: sum(rules.per_king if FACTS[c].rank == 13 else rules.per_card for c in s.hands[j])
            for j in active
        }
        if rules.settlement == "chips":
            if winner is not None:
                take = pot + sum(dues[j] for j in active if j != winner)
                for j in active:
                    change[j] = take if j == winner else -dues[j]
                pot = 0
        else:  # pool: everyone pays in; the winner takes the pool
            for j in active:
                change[j] = -dues[j]
                pot += dues[j]
            if winner is not None:
                change[winner] += pot
                pot = 0
        for j in active:
            totals[j] += change[j]
    # match end (§5.7)
    round_no = s.round_no
    over, eliminated = rounds.match_over(
        rules.match_end,
        rules.match_end_value,
        round_no,
        totals,
        active,
        strict=rules.target_compare == "strictly_exceed",
    )
    reason = {
        "single_round": "single round",
        "fixed_rounds": f"{rules.match_end_value} rounds played",
        "target": f"a total reached {rules.match_end_value}",
        "elimination": "one player left",
    }[rules.match_end]
    ranks: tuple[int, ...] = ()
    if over:
        out_round = tuple(r or (round_no if j in eliminated else 0) for j, r in enumerate(s.out_round))
        ranks = rounds.standings(totals, out_round, lower_is_better=rules.winner == "lowest_total")
        if rules.tie_policy == "extra_round" and rules.match_end != "elimination" and ranks.count(1) > 1:
            over, ranks = False, ()
    if not over:
        reason = ""
    results = tuple(
        SeatResult(
            seat=s.seats[j],
            hand=cards.sorted_cards(s.hands[j]),
            points=points[j],
            balance_change=change[j],
            total=totals[j],
            eliminated=j in eliminated,
        )
        for j in active
    )
    b.emit(
        RoundEnded(
            round_no=round_no,
            result="won" if winner is not None else "blocked",
            winner=s.seats[winner] if winner is not None else None,
            seats=results,
            pot_carried=pot,
            match_over=over,
            ranks=ranks,
            reason=reason,
        )
    )


# ---------------------------------------------------------------- queries
def legal_commands(state: KCState, seat: str) -> tuple[KingsCornerCommand, ...]:
    if seat not in state.seats or state.seat_problem is not None:
        return ()
    i = state.seats.index(seat)
    out: list[KingsCornerCommand] = []
    if state.status in ("waiting", "round_over"):
        if state.out_round[i] == 0 and not state.ready[i]:
            out.append(Ready())
        return tuple(out)
    if state.status != "playing" or state.current != i:
        return ()
    singles = hand_plays(state, i)
    out.extend(singles)
    if state.pending is None:
        out.extend(runs(state, i, singles))
        out.extend(pile_moves(state))
        if draw_problem(state, i) is None:
            out.append(DrawCard())
        if end_turn_problem(state, i) is None:
            out.append(EndTurn())
    return tuple(sorted(out, key=msgspec.json.encode))


def to_move(state: KCState) -> frozenset[str]:
    if state.seat_problem is not None:
        return frozenset()
    if state.status in ("waiting", "round_over"):
        return frozenset(state.seats[j] for j in state.active() if not state.ready[j])
    if state.status == "playing":
        return frozenset({state.seats[state.current]})
    return frozenset()


def outcome(state: KCState) -> Outcome | None:
    if state.status != "finished":
        return None
    return Outcome(
        ranks=state.ranks,
        scores=tuple(float(t) for t in state.totals),
        reason=state.end_reason,
        draw=len(set(state.ranks)) == 1,
    )


def hidden(state: KCState, seat: str) -> frozenset[str]:
    """Card ids hidden from everybody but ``seat``: its hand while a round is being played."""
    if state.status != "playing" or seat not in state.seats:
        return frozenset()
    return frozenset(state.hands[state.seats.index(seat)])


def verify_chance(state: KCState, event: KingsCornerEvent) -> str | None:
    """Re-derive a chance event from rng_v1 (state folded with the revealed server seed)."""
    if isinstance(event, CardsDrawn):
        top = state.stock[: event.count]
        if event.cards != top or event.count != len(event.cards):
            return f"draw in round {state.round_no} by {event.seat}: drew {list(event.cards)}, the stock gives {list(top)}"
        return None
    if not isinstance(event, RoundDealt):
        return None
    expected = deal(state)
    if isinstance(expected, str):
        return f"deal of round {event.round_no}: {expected}"
    where = f"deal of round {expected.round_no}"
    if event.round_no != expected.round_no:
        return f"{where}: recorded as round {event.round_no}"
    if event.dealer != expected.dealer:
        return f"{where}: dealer is {event.dealer}, rng_v1 gives {expected.dealer}"
    if len(event.order) != len(expected.order):
        return f"{where}: {len(event.order)} cards recorded, the deck has {len(expected.order)}"
    for k, (got, want) in enumerate(zip(event.order, expected.order, strict=True), start=1):
        if got != want:
            return f"{where}: card {k} is {got}, rng_v1 gives {want}"
    for name in (
        "hands",
        "hand_sizes",
        "cross",
        "setup",
        "layout",
        "stock",
        "stock_size",
        "first_seat",
        "seats",
    ):
        if getattr(event, name) != getattr(expected, name):
            return f"{where}: {name} do not follow from the deck order"
    return None
