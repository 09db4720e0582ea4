"""evolve: fold one recorded Kings Cup event into the state (pure, total for recorded events,
including the redacted spread: the cards around the cup are ``??`` there), one small function
per event type."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from contracts.games.kings_cup import (
    CardDrawn,
    CupDealt,
    CupEnded,
    KingsCupEvent,
    RuleMade,
    SeatChosen,
    SeatReady,
    TurnPassed,
)
from domain.core.cardgame.fold import by_type
from domain.games.kings_cup.state import CupState

_replace = msgspec.structs.replace

# The effects a drawn card leaves for the drawer to answer (ChooseSeat or MakeRule).
ANSWERED = ("choose_seat", "mate", "new_rule")


def _set(t: tuple[Any, ...], i: int, v: Any) -> tuple[Any, ...]:
    return t[:i] + (v,) + t[i + 1 :]


def _seat_ready(state: CupState, event: SeatReady) -> CupState:
    i = state.seats.index(event.seat)
    return _replace(
        state,
        ready=_set(state.ready, i, True),
        client_seeds=_set(state.client_seeds, i, event.client_seed),
    )


def _cup_dealt(state: CupState, event: CupDealt) -> CupState:
    return _replace(state, status="playing", cup=event.order, current=state.seats.index(event.first_seat))


def _card_drawn(state: CupState, event: CardDrawn) -> CupState:
    i = state.seats.index(event.seat)
    effect = event.effect
    s = _replace(
        state,
        cup=state.cup[1:],
        kings=event.kings,
        drawn=(*state.drawn, (i, event.card)),
        awaiting=effect if effect in ANSWERED else None,
    )
    if effect == "question_master":
        s = _replace(s, question_master=i)
    return s


def _seat_chosen(state: CupState, event: SeatChosen) -> CupState:
    s = _replace(state, awaiting=None)
    if event.effect == "mate":
        pair = (state.seats.index(event.seat), state.seats.index(event.target))
        if pair not in s.mates:
            s = _replace(s, mates=(*s.mates, pair))
    return s


def _rule_made(state: CupState, event: RuleMade) -> CupState:
    made = state.made
    if event.cancelled is not None:
        if state.rules.king_rules != "accumulate":
            made = ()
        elif event.cancelled_index is not None:
            made = made[: event.cancelled_index] + made[event.cancelled_index + 1 :]
        else:
            made = tuple(m for m in made if m[1] != event.cancelled)
    if state.rules.king_rules == "replace":
        made = ()
    if event.text:
        made = (*made, (state.seats.index(event.seat), event.text))[-state.rules.max_rules :]
    return _replace(state, made=made, awaiting=None)


def _turn_passed(state: CupState, event: TurnPassed) -> CupState:
    return _replace(state, current=state.seats.index(event.next_seat), awaiting=None)


def _cup_ended(state: CupState, event: CupEnded) -> CupState:
    return _replace(
        state,
        status="finished",
        end_reason=event.reason,
        ended_by=state.seats.index(event.seat),
        awaiting=None,
    )


_EVOLVE: dict[type[Any], Callable[[CupState, Any], CupState]] = {
    SeatReady: _seat_ready,
    CupDealt: _cup_dealt,
    CardDrawn: _card_drawn,
    SeatChosen: _seat_chosen,
    RuleMade: _rule_made,
    TurnPassed: _turn_passed,
    CupEnded: _cup_ended,
}


evolve: Callable[[CupState, KingsCupEvent], CupState] = by_type(_EVOLVE, "Kings Cup")
