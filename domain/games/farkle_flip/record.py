"""Farkle Flip in portable game records (rules/records.md): the record adapter.

- Deals: ``{"deck": [...]}``, number cards ``"1"``..``"6"`` and Farkle cards ``"F"``, top first.
  Entry 0 is the deck at the start: the set-up deals from it as from an rng_v1 shuffle, the
  dealer is the record's ``first_dealer`` (the replaying framework passes it in the first entry,
  0 when absent).  Each later entry is the order of the scored pile when it is next shuffled into
  a new draw pile: the replay hands it over as soon as the draw pile is empty
  (``PileOrderGiven``), and the next DRAW uses it (it must be a permutation of the scored pile
  at that moment).
- Actions: ``["draw", s]``, ``["place", s, target_seat]``,
  ``["lock", s, owner_seat, [positions in the owner's area, 0 = oldest], pattern]``,
  ``["stop", s]`` (seats as indexes; patterns named as Decision FF8), and ``["ready", s]``
  (accepted, meaningless in a record).
- ``scores``: one row per turn, every seat's banked score after it (only the active seat's
  changes).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from contracts.envelope import Rejected
from contracts.games.farkle_flip import (
    Draw,
    FarkleFlipCommand,
    FarkleFlipEvent,
    GameDealt,
    Lock,
    PileOrderGiven,
    PileReshuffled,
    Place,
    Ready,
    SeatReady,
    Stop,
)
from domain.core.cardgame.builder import Builder
from domain.core.decider import RecordAdapter
from domain.games.farkle_flip.deal import deal_from
from domain.games.farkle_flip.evolve import evolve
from domain.games.farkle_flip.rules import deck
from domain.games.farkle_flip.state import FFState


def _bad(detail: str) -> Rejected:
    return Rejected(code="bad_action", detail=detail)


def _seat(state: FFState, x: object, what: str) -> str | Rejected:
    if isinstance(x, int) and not isinstance(x, bool) and 0 <= x < len(state.seats):
        return state.seats[x]
    return _bad(f"{what} must be a seat index 0..{len(state.seats) - 1}")


def parse_action(state: FFState, seat: str, action: Sequence[Any]) -> FarkleFlipCommand | Rejected:
    if not action or not isinstance(action[0], str):
        return _bad("an action starts with its name")
    name, args = action[0], list(action[2:])
    arity = {"draw": 0, "stop": 0, "ready": 0, "place": 1, "lock": 3}
    if name not in arity:
        return _bad(f"unknown action {name!r}; farkle-flip actions are draw, place, lock, stop")
    if len(args) != arity[name]:
        return _bad(f"{name} takes {arity[name]} argument(s) after the seat")
    if name == "draw":
        return Draw()
    if name == "stop":
        return Stop()
    if name == "ready":
        return Ready()
    if name == "place":
        target = _seat(state, args[0], "target_seat")
        return target if isinstance(target, Rejected) else Place(target=target)
    owner = _seat(state, args[0], "owner_seat")
    if isinstance(owner, Rejected):
        return owner
    cards, pattern = args[1], args[2]
    if not isinstance(cards, list) or not all(isinstance(k, int) and not isinstance(k, bool) for k in cards):
        return _bad("lock takes a list of positions in the owner's area")
    if not isinstance(pattern, str):
        return _bad("lock takes a pattern name")
    return Lock(owner=owner, cards=tuple(cards), pattern=pattern)


def format_action(state: FFState, seat: str, command: FarkleFlipCommand) -> list[Any]:
    s = state.seats.index(seat)
    if isinstance(command, Draw):
        return ["draw", s]
    if isinstance(command, Place):
        return ["place", s, state.seats.index(command.target)]
    if isinstance(command, Lock):
        return ["lock", s, state.seats.index(command.owner), list(command.cards), command.pattern]
    if isinstance(command, Stop):
        return ["stop", s]
    if isinstance(command, Ready):
        return ["ready", s]
    raise TypeError(f"not a Farkle Flip command: {type(command).__name__}")


def wants_deal(state: FFState) -> bool:
    """Before the set-up, and whenever the draw pile is empty with cards in the scored pile and
    no order for its next shuffle given yet."""
    if state.seat_problem is not None:
        return False
    if state.status == "waiting":
        return True
    return (
        state.status == "playing"
        and not state.draw_pile
        and bool(state.scored_pile)
        and state.given_order is None
    )


def _cards(entry: Mapping[str, Any]) -> tuple[str, ...] | Rejected:
    order = entry.get("deck")
    if not isinstance(order, list) or not all(isinstance(c, str) for c in order):
        return _bad('a farkle-flip deal is {"deck": ["1".."6" or "F", top first]}')
    return tuple(order)


def deal(state: FFState, entry: Mapping[str, Any]) -> tuple[FarkleFlipEvent, ...] | Rejected:
    order = _cards(entry)
    if isinstance(order, Rejected):
        return order
    if state.status != "waiting":
        return (PileOrderGiven(order=order),)
    if sorted(order) != sorted(deck(state.rules)):
        return _bad(f"the deck must hold exactly the {len(deck(state.rules))} cards of deck_composition")
    n = len(state.seats)
    first = entry.get("first_dealer", 0)
    if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < n:
        return _bad(f"first_dealer must be a seat index 0..{n - 1}")
    b: Builder[FFState, FarkleFlipEvent] = Builder(state, evolve)
    for j, ready in enumerate(state.ready):
        if not ready:
            b.emit(SeatReady(seat=state.seats[j]))
    b.emit(deal_from(state, first, order))
    return b.result()


def deal_entry(event: FarkleFlipEvent) -> dict[str, Any] | None:
    if isinstance(event, GameDealt):  # an export moves first_dealer to the top of the record
        return {"deck": list(event.deck), "first_dealer": event.seats.index(event.dealer)}
    if isinstance(event, PileReshuffled):
        return {"deck": list(event.order)}
    return None


def scores(state: FFState) -> tuple[tuple[int, ...], ...]:
    """Per turn, every seat's banked score after it."""
    return state.turn_rows


RECORD: RecordAdapter[FFState, FarkleFlipCommand, FarkleFlipEvent] = RecordAdapter(
    parse_action=parse_action,
    format_action=format_action,
    wants_deal=wants_deal,
    deal=deal,
    deal_entry=deal_entry,
    scores=scores,
    ignored=lambda command: isinstance(command, Ready),  # records.md: meaningless in a record
)
