"""evolve: fold one recorded Kings in the Corner event into the state (pure, total for recorded
events, including the events redacted for one seat: another seat's cards are ``??``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from contracts.games.kings_corner import (
    CardPlayed,
    CardsDrawn,
    KingPenaltyCharged,
    KingsCornerEvent,
    PileMoved,
    RoundDealt,
    RoundEnded,
    RunPlayed,
    SeatReady,
    SeatResigned,
    TurnEnded,
)
from domain.core.cardgame import lifecycle
from domain.core.cardgame.fold import by_type
from domain.core.cardgame.redact import UNKNOWN, is_known, remove_cards
from domain.core.cardgame.scoring import next_seat
from domain.games.kings_corner.legal import any_empty_slot_takes, eff
from domain.games.kings_corner.state import CORNERS, FACTS, N_CROSS, SLOT_INDEX, KCState

_replace = msgspec.structs.replace


def _observe_kings(state: KCState) -> KCState:
    """penalty3: remember the kings the current seat holds while a corner is empty."""
    if state.ruleset.mandatory_kings != "penalty3" or state.current < 0:
        return state
    if not any(not state.layout[c] for c in CORNERS):
        return state
    # In another seat's information state this hand is placeholders: nothing to observe there
    # (the charge is decided on the full state and only its owner receives it, D1).
    kings = frozenset(c for c in state.hands[state.current] if is_known(c) and FACTS[c].rank == 13)
    if kings <= state.kings_seen:
        return state
    return _replace(state, kings_seen=state.kings_seen | kings)


def _set(t: tuple[Any, ...], i: int, v: Any) -> tuple[Any, ...]:
    return t[:i] + (v,) + t[i + 1 :]


def _ace_done(state: KCState, slot: int, pile: tuple[str, ...]) -> bool:
    if slot < N_CROSS or state.ruleset.corner_ace_bonus == 0 or len(pile) != 13:
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
            phase="play",
        )
    )


def _seat_ready(state: KCState, event: SeatReady) -> KCState:
    seats = state.seats
    i = seats.index(event.seat)
    ready, client_seeds = lifecycle.mark_ready(
        state.ready, state.client_seeds, i, event.client_seed, state.round_no
    )
    return _replace(state, ready=ready, client_seeds=client_seeds)


def _round_dealt(state: KCState, event: RoundDealt) -> KCState:
    seats = state.seats
    n = len(seats)
    active = state.active()
    totals, pot = state.totals, state.pot
    if state.ruleset.settlement != "penalty" and state.ruleset.ante:  # §5.3 step 8: chips and pool
        totals = tuple(t - state.ruleset.ante if i in active else t for i, t in enumerate(totals))
        pot += state.ruleset.ante * len(active)
    s = _replace(
        state,
        phase="play",
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
        king_charges=(0,) * n,
    )
    return _new_turn(s, seats.index(event.first_seat))


def _cards_drawn(state: KCState, event: CardsDrawn) -> KCState:
    seats = state.seats
    i = seats.index(event.seat)
    s = _replace(
        state,
        hands=_set(state.hands, i, state.hands[i] + event.cards),
        stock=state.stock[event.count :],
        drawn=state.drawn + event.count,
    )
    # V16: a drawn card that fits an empty slot must be placed (phase "place").  For another
    # seat the card is "??": its fold stays in "play" (its view and legal commands are the same;
    # the placement that follows is public).
    drawn = event.cards[0] if event.cards else UNKNOWN
    if (
        event.reason == "going_out"
        and event.count == 1
        and is_known(drawn)
        and any_empty_slot_takes(s, drawn)
    ):
        s = _replace(s, pending=event.cards[0], phase="place")
    if event.reason != "turn_end":
        s = _observe_kings(s)
    return s


def _played(state: KCState, event: CardPlayed | RunPlayed) -> KCState:
    seats = state.seats
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
        hands=_set(s.hands, i, remove_cards(s.hands[i], played)),
        layout=_set(s.layout, slot, pile),
        played=s.played + len(played),
        actions=s.actions + 1,
        pending=None,
        phase="play",
    )
    if _ace_done(s, slot, pile):
        s = _replace(s, ace_completions=_set(s.ace_completions, i, s.ace_completions[i] + 1))
    return s


def _pile_moved(state: KCState, event: PileMoved) -> KCState:
    seats = state.seats
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
    if not s.decisions_1202 and _ace_done(s, dst, pile):  # D8: no bonus for a moved pile since kings-corner-3
        s = _replace(s, ace_completions=_set(s.ace_completions, i, s.ace_completions[i] + 1))
    return s


def _turn_ended(state: KCState, event: TurnEnded) -> KCState:
    seats = state.seats
    i = seats.index(event.seat)
    totals, pot = state.totals, state.pot
    if event.king_penalty:
        if state.ruleset.settlement == "penalty":
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


def _king_penalty_charged(state: KCState, event: KingPenaltyCharged) -> KCState:
    seats = state.seats
    i = seats.index(event.seat)
    return _replace(state, king_charges=_set(state.king_charges, i, state.king_charges[i] + event.points))


def _seat_resigned(state: KCState, event: SeatResigned) -> KCState:
    seats = state.seats
    i = seats.index(event.seat)
    s = _replace(state, resigned=_set(state.resigned, i, 1 + max(state.resigned)))
    if event.match_over:
        return _replace(
            s, phase=lifecycle.OVER, ranks=event.ranks, end_reason="resignation", current=-1, pending=None
        )
    if not state.in_round:
        # between rounds the seat leaves at once: no more deals, no Ready expected
        return _replace(s, out_round=_set(s.out_round, i, max(state.round_no, 1)))
    if state.current == i:
        return _new_turn(s, next_seat(s.out_of_turns(), i))
    return s


def _round_ended(state: KCState, event: RoundEnded) -> KCState:
    seats = state.seats
    new_totals = list(state.totals)
    out = list(state.out_round)
    for r in event.seats:
        j = seats.index(r.seat)
        new_totals[j] = r.total
        if r.eliminated or r.resigned:
            out[j] = event.round_no
    return _replace(
        state,
        phase=lifecycle.after_scoring(event.match_over),
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


_EVOLVE: dict[type[Any], Callable[[KCState, Any], KCState]] = {
    SeatReady: _seat_ready,
    RoundDealt: _round_dealt,
    CardsDrawn: _cards_drawn,
    CardPlayed: _played,
    RunPlayed: _played,
    PileMoved: _pile_moved,
    TurnEnded: _turn_ended,
    KingPenaltyCharged: _king_penalty_charged,
    SeatResigned: _seat_resigned,
    RoundEnded: _round_ended,
}


evolve: Callable[[KCState, KingsCornerEvent], KCState] = by_type(_EVOLVE, "Kings in the Corner")
