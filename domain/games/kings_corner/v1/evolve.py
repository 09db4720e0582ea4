"""evolve: fold one recorded Kings in the Corner event into the state (pure, total for recorded
events, including the events redacted for one seat: another seat's cards are ``??``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from contracts.games.kings_corner import (
    CardPlayed,
    CardsDrawn,
    KingsCornerEvent,
    PileMoved,
    RoundDealt,
    RoundEnded,
    RunPlayed,
    SeatReady,
    TurnEnded,
)
from domain.core.cardgame.fold import by_type
from domain.games.kings_corner.evolve import _pile_moved, _played, _replace, _round_ended, _seat_ready, _set
from domain.games.kings_corner.legal import any_empty_slot_takes
from domain.games.kings_corner.state import CORNERS, FACTS, KCState


def _observe_kings(state: KCState) -> KCState:
    """penalty3: remember the kings the current seat holds while a corner is empty."""
    if state.ruleset.mandatory_kings != "penalty3" or state.current < 0:
        return state
    if not any(not state.layout[c] for c in CORNERS):
        return state
    kings = frozenset(c for c in state.hands[state.current] if FACTS[c].rank == 13)
    if kings <= state.kings_seen:
        return state
    return _replace(state, kings_seen=state.kings_seen | kings)


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


def _round_dealt(state: KCState, event: RoundDealt) -> KCState:
    seats = state.seats
    n = len(seats)
    active = state.active()
    totals, pot = state.totals, state.pot
    if state.ruleset.settlement == "chips" and state.ruleset.ante:
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
    )
    return _new_turn(s, seats.index(event.first_seat))


def _cards_drawn(state: KCState, event: CardsDrawn) -> KCState:
    i = state.seats.index(event.seat)
    s = _replace(
        state,
        hands=_set(state.hands, i, state.hands[i] + event.cards),
        stock=state.stock[event.count :],
        drawn=state.drawn + event.count,
    )
    if event.reason == "going_out" and event.count == 1 and any_empty_slot_takes(s, event.cards[0]):
        s = _replace(s, pending=event.cards[0], phase="place")
    if event.reason != "turn_end":
        s = _observe_kings(s)
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


# SeatReady, the plays, the pile moves and the round's end fold as in the current version (its
# steps; kings-corner-1 has no resignation, so no seat result is ``resigned``); the deal, the draws
# (no placeholders) and the turn's end (a king penalty in TurnEnded) differ.
_EVOLVE: dict[type[Any], Callable[[KCState, Any], KCState]] = {
    SeatReady: _seat_ready,
    RoundDealt: _round_dealt,
    CardsDrawn: _cards_drawn,
    CardPlayed: _played,
    RunPlayed: _played,
    PileMoved: _pile_moved,
    TurnEnded: _turn_ended,
    RoundEnded: _round_ended,
}


evolve: Callable[[KCState, KingsCornerEvent], KCState] = by_type(_EVOLVE, "Kings in the Corner")
