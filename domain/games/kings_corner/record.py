"""Kings in the Corner in portable game records (rules/records.md): the record adapter.

- Deals: ``{"deck": [card ids, top first]}``, the whole deck of one round as shuffled; the round is
  dealt from it exactly as from an rng_v1 shuffle (``deal.deal_from``).  The first round's dealer
  is the record's ``first_dealer`` (a seat index; the replaying framework passes it in the first
  entry as ``"first_dealer"``, 0 when absent); later rounds pass the deal to the left (§5.6).
  Before dealing, every seat still playing is marked ready (a record lists no ``ready``).
- Actions: ``["play_card", s, card, slot]`` (a joker adds its declared card:
  ``["play_card", s, "RJ", "N", "8C"]``), ``["play_run", s, [cards], slot]``,
  ``["move_pile", s, from_slot, to_slot]``, ``["move_king_pile", s, from_slot, to_corner]``,
  ``["draw", s]``, ``["end_turn", s]``, ``["resign", s]`` (the match layer's Resign) and
  ``["ready", s]`` (accepted by records.md and meaningless there: a replay skips it).
- ``scores``: the running totals of every seat after each scored round (penalty points, or the
  chips / pool ledger).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from contracts.envelope import Rejected
from contracts.games.kings_corner import (
    SLOTS,
    DrawCard,
    EndTurn,
    KingsCornerCommand,
    KingsCornerEvent,
    MoveKingPile,
    MovePile,
    PlayCard,
    PlayRun,
    Ready,
    RoundDealt,
    SeatReady,
)
from contracts.match import Resign
from domain.core.cardgame import lifecycle
from domain.core.cardgame.builder import Builder
from domain.core.cardgame.scoring import next_seat
from domain.core.decider import RecordAdapter
from domain.games.kings_corner.deal import deal_from, full_deck
from domain.games.kings_corner.decide import turn_start
from domain.games.kings_corner.evolve import evolve
from domain.games.kings_corner.state import KCState


def _bad(detail: str) -> Rejected:
    return Rejected(code="bad_action", detail=detail)


def _card(x: object, what: str) -> str | Rejected:
    return x if isinstance(x, str) and x else _bad(f"{what} must be a card id")


def _slot(x: object, what: str) -> str | Rejected:
    return x if isinstance(x, str) and x in SLOTS else _bad(f"{what} must be one of {' '.join(SLOTS)}")


def parse_action(state: KCState, seat: str, action: Sequence[Any]) -> KingsCornerCommand | Rejected:
    """One record action (``[name, seat index, args...]``) as a command, or ``bad_action``."""
    if not action or not isinstance(action[0], str):
        return _bad("an action starts with its name")
    name, args = action[0], list(action[2:])
    arity = {"play_card": (2, 3), "play_run": (2, 2), "move_pile": (2, 2), "move_king_pile": (2, 2)}
    lo, hi = arity.get(name, (0, 0))
    if not lo <= len(args) <= hi:
        return _bad(f"{name} takes {lo if lo == hi else f'{lo}-{hi}'} argument(s) after the seat")
    if name == "play_card":
        card, slot = _card(args[0], "card"), _slot(args[1], "slot")
        declared = _card(args[2], "declared card") if len(args) == 3 else None
        for part in (card, slot, declared):
            if isinstance(part, Rejected):
                return part
        return PlayCard(card=str(card), slot=str(slot), as_card=declared)  # type: ignore[arg-type]
    if name == "play_run":
        if not isinstance(args[0], list) or not all(isinstance(c, str) for c in args[0]):
            return _bad("play_run takes a list of card ids")
        slot = _slot(args[1], "slot")
        if isinstance(slot, Rejected):
            return slot
        return PlayRun(cards=tuple(args[0]), slot=slot)  # type: ignore[arg-type]
    if name in ("move_pile", "move_king_pile"):
        src, dst = _slot(args[0], "from_slot"), _slot(args[1], "to_slot")
        for part in (src, dst):
            if isinstance(part, Rejected):
                return part
        kind = MovePile if name == "move_pile" else MoveKingPile
        return kind(from_slot=str(src), to_slot=str(dst))  # type: ignore[arg-type]
    simple: dict[str, Any] = {"draw": DrawCard(), "end_turn": EndTurn(), "ready": Ready(), "resign": Resign()}
    if name in simple:
        return cast(KingsCornerCommand, simple[name])
    return _bad(f"unknown action {name!r}")


def format_action(state: KCState, seat: str, command: KingsCornerCommand) -> list[Any]:
    """A command as a record action (the inverse of ``parse_action``)."""
    s = state.seats.index(seat)
    if isinstance(command, PlayCard):
        return ["play_card", s, command.card, command.slot, *([command.as_card] if command.as_card else [])]
    if isinstance(command, PlayRun):
        return ["play_run", s, list(command.cards), command.slot]
    if isinstance(command, MovePile):
        return ["move_pile", s, command.from_slot, command.to_slot]
    if isinstance(command, MoveKingPile):
        return ["move_king_pile", s, command.from_slot, command.to_slot]
    if isinstance(command, DrawCard):
        return ["draw", s]
    if isinstance(command, EndTurn):
        return ["end_turn", s]
    if isinstance(command, Ready):
        return ["ready", s]
    if isinstance(command, Resign):
        return ["resign", s]
    raise TypeError(f"not a Kings in the Corner command: {type(command).__name__}")


def wants_deal(state: KCState) -> bool:
    """Between rounds (before the first, or after a scored round while the match goes on)."""
    return state.seat_problem is None and state.phase in lifecycle.BETWEEN_ROUNDS


def deal(state: KCState, entry: Mapping[str, Any]) -> tuple[KingsCornerEvent, ...] | Rejected:
    """The events that put a record's deal entry into play: every playing seat ready, the deal,
    and the first turn's automatic draw where the timing has one."""
    deck = entry.get("deck")
    expected = full_deck(state.ruleset)
    if not isinstance(deck, list) or not all(isinstance(c, str) for c in deck):
        return _bad('a kings-corner deal is {"deck": [card ids, top first]}')
    if sorted(deck) != sorted(expected):
        missing = sorted(set(expected) - set(deck))
        extra = sorted(set(deck) - set(expected))
        return _bad(
            f"the deck must hold each of the {len(expected)} cards of this ruleset once"
            f" (missing {missing[:5]}, unknown or repeated {extra[:5] or 'cards'})"
        )
    b: Builder[KCState, KingsCornerEvent] = Builder(state, evolve)
    for j in lifecycle.waiting_for(state.ready, state.out_round):
        b.emit(SeatReady(seat=state.seats[j]))
    round_no = state.round_no + 1
    if round_no == 1:
        first = entry.get("first_dealer", 0)
        if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < len(state.seats):
            return _bad(f"first_dealer must be a seat index 0..{len(state.seats) - 1}")
        dealer = first if b.state.out_round[first] == 0 else next_seat(b.state.out_round, first)
    else:
        dealer = next_seat(b.state.out_round, b.state.dealer)
    b.emit(deal_from(b.state, round_no, dealer, tuple(deck)))
    turn_start(b)
    return b.result()


def deal_entry(event: KingsCornerEvent) -> dict[str, Any] | None:
    """The record's deal entry of a recorded deal."""
    if isinstance(event, RoundDealt):
        entry: dict[str, Any] = {"deck": list(event.order)}
        if event.round_no == 1:  # an export moves it to the record's first_dealer
            entry["first_dealer"] = event.seats.index(event.dealer)
        return entry
    return None


def scores(state: KCState) -> tuple[tuple[int, ...], ...]:
    """Per scored round, every seat's running total after it (seat order)."""
    running = [0] * len(state.seats)
    rows: list[tuple[int, ...]] = []
    for result in state.results:
        for r in result.seats:
            running[state.seats.index(r.seat)] = r.total
        rows.append(tuple(running))
    return tuple(rows)


RECORD: RecordAdapter[KCState, KingsCornerCommand, KingsCornerEvent] = RecordAdapter(
    parse_action=parse_action,
    format_action=format_action,
    wants_deal=wants_deal,
    deal=deal,
    deal_entry=deal_entry,
    scores=scores,
    ignored=lambda command: isinstance(command, Ready),  # records.md: a ready changes nothing
)
