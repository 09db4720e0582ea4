"""evolve: fold one recorded Farkle Flip event into the state (pure, total for recorded events,
including the redacted ones: the draw-pile order is ``??`` there), one small function per event
type."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from contracts.games.farkle_flip import (
    FARKLE,
    Busted,
    CardDrawn,
    CardPlaced,
    CombinationLocked,
    FarkleFlipEvent,
    FinalRoundStarted,
    GameDealt,
    GameEnded,
    PileOrderGiven,
    PileReshuffled,
    SeatReady,
    Stopped,
    TurnEnded,
)
from domain.core.cardgame.fold import by_type
from domain.games.farkle_flip.state import Card, Combo, FFState

_replace = msgspec.structs.replace


def _set(t: tuple[Any, ...], i: int, v: Any) -> tuple[Any, ...]:
    return t[:i] + (v,) + t[i + 1 :]


def _return_to_area(state: FFState, i: int) -> tuple[tuple[tuple[Card, ...], ...], int]:
    """The centre back into seat i's area, one new lost group per combination, in lock order (FF1, FF9)."""
    area = state.areas[i]
    group = state.next_group
    for combo in state.centre:
        area = area + tuple((v, group) for v in combo.cards)
        group += 1
    return _set(state.areas, i, area), group


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


def _seat_ready(state: FFState, event: SeatReady) -> FFState:
    i = state.seats.index(event.seat)
    return _replace(
        state,
        ready=_set(state.ready, i, True),
        client_seeds=_set(state.client_seeds, i, event.client_seed),
    )


def _game_dealt(state: FFState, event: GameDealt) -> FFState:
    seats = state.seats
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


def _card_drawn(state: FFState, event: CardDrawn) -> FFState:
    s = _replace(state, draw_pile=state.draw_pile[1:], draws=state.draws + 1)
    return s if event.card == FARKLE else _replace(s, pending=event.card)


def _card_placed(state: FFState, event: CardPlaced) -> FFState:
    t = state.seats.index(event.target)
    area = state.areas[t] + ((event.card, 0),)
    return _replace(state, areas=_set(state.areas, t, area), pending=None, last_placed=(t, len(area) - 1))


def _combination_locked(state: FFState, event: CombinationLocked) -> FFState:
    o = state.seats.index(event.owner)
    taken = set(event.positions)
    area = tuple(c for k, c in enumerate(state.areas[o]) if k not in taken)
    last = state.last_placed
    if last is not None and last[0] == o:
        last = None if last[1] in taken else (o, last[1] - sum(1 for k in taken if k < last[1]))
    combo = Combo(owner=o, cards=event.cards, pattern=event.pattern, value=event.value)
    return _replace(state, areas=_set(state.areas, o, area), centre=(*state.centre, combo), last_placed=last)


def _busted(state: FFState, event: Busted) -> FFState:
    i = state.seats.index(event.seat)
    areas, group = _return_to_area(state, i)
    return _replace(
        state,
        areas=areas,
        next_group=group,
        centre=(),
        farkle_held=_set(state.farkle_held, i, state.farkle_held[i] + 1),
    )


def _stopped(state: FFState, event: Stopped) -> FFState:
    i = state.seats.index(event.seat)
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
        areas, group = _return_to_area(state, i)
        return _replace(state, areas=areas, next_group=group, centre=())
    return state


def _turn_ended(state: FFState, event: TurnEnded) -> FFState:
    i = state.seats.index(event.seat)
    dry = state.dry_turns + 1 if state.start_dry and not state.turn_banked else 0
    remaining = state.remaining[1:] if state.remaining and state.remaining[0] == i else state.remaining
    s = _replace(
        state,
        dry_turns=dry,
        remaining=remaining,
        turn_rows=(*state.turn_rows, state.banked),
        turn_seats=(*state.turn_seats, i),
    )
    return _new_turn(s, state.seats.index(event.next_seat))


def _pile_reshuffled(state: FFState, event: PileReshuffled) -> FFState:
    return _replace(
        state, draw_pile=event.order, scored_pile=(), reshuffles=event.reshuffle_no, given_order=None
    )


def _pile_order_given(state: FFState, event: PileOrderGiven) -> FFState:
    return _replace(state, given_order=event.order)


def _final_round_started(state: FFState, event: FinalRoundStarted) -> FFState:
    seats = state.seats
    return _replace(
        state, trigger=seats.index(event.trigger), remaining=tuple(seats.index(s) for s in event.remaining)
    )


def _game_ended(state: FFState, event: GameEnded) -> FFState:
    return _replace(state, status="finished", ranks=event.ranks, end_reason=event.reason, current=-1)


_EVOLVE: dict[type[Any], Callable[[FFState, Any], FFState]] = {
    SeatReady: _seat_ready,
    GameDealt: _game_dealt,
    CardDrawn: _card_drawn,
    CardPlaced: _card_placed,
    CombinationLocked: _combination_locked,
    Busted: _busted,
    Stopped: _stopped,
    TurnEnded: _turn_ended,
    PileReshuffled: _pile_reshuffled,
    PileOrderGiven: _pile_order_given,
    FinalRoundStarted: _final_round_started,
    GameEnded: _game_ended,
}


evolve: Callable[[FFState, FarkleFlipEvent], FFState] = by_type(_EVOLVE, "Farkle Flip")
