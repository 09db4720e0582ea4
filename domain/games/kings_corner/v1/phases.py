"""The phase table of Kings in the Corner and the Decider's ``decide``, ``legal_commands`` and
``to_move``, all read from it (see ``state.py`` for the phases)."""

from __future__ import annotations

import msgspec

from contracts.envelope import Rejected
from contracts.games.kings_corner import (
    SLOTS,
    KingsCornerCommand,
    KingsCornerEvent,
    PlayCard,
    PlayRun,
    Ready,
)
from domain.core.cardgame import lifecycle
from domain.core.cardgame.phases import Phase, current_seat, run
from domain.games.kings_corner.legal import place_moves, reject
from domain.games.kings_corner.phases import ACTIONS, KCPhase
from domain.games.kings_corner.state import SLOT_INDEX, STATUS, KCState
from domain.games.kings_corner.v1.decide import decide_place, decide_play, decide_ready
from domain.games.kings_corner.v1.evolve import evolve
from domain.games.kings_corner.v1.legal import play_moves


def _ready_movers(s: KCState) -> frozenset[int]:
    return lifecycle.waiting_for(s.ready, s.out_round)


def _ready_legal(s: KCState, i: int) -> tuple[KingsCornerCommand, ...]:
    return (Ready(),) if i in _ready_movers(s) else ()


def _nobody(s: KCState) -> frozenset[int]:
    return frozenset()


def _nothing(s: KCState, i: int) -> tuple[KingsCornerCommand, ...]:
    return ()


def _refuse(b: object, i: int, command: KingsCornerCommand) -> Rejected | None:
    return reject("round_not_active", "the match is over")


PHASES: dict[str, KCPhase] = {
    "waiting": Phase("waiting", (Ready,), _ready_movers, _ready_legal, decide_ready),
    "play": Phase(
        "play", ACTIONS, current_seat, lambda s, i: play_moves(s, i) if s.current == i else (), decide_play
    ),
    "place": Phase(
        "place", ACTIONS, current_seat, lambda s, i: place_moves(s, i) if s.current == i else (), decide_place
    ),
    "scored": Phase("scored", (Ready,), _ready_movers, _ready_legal, decide_ready),
    "over": Phase("over", (), _nobody, _nothing, _refuse),
}


def decide(state: KCState, seat: str, command: KingsCornerCommand) -> tuple[KingsCornerEvent, ...] | Rejected:
    if seat not in state.seats:
        return reject("not_your_turn", f"{seat!r} is not a seat of this match")
    if state.seat_problem is not None:
        return reject("invalid_seats", state.seat_problem)
    i = state.seats.index(seat)
    phase = PHASES[state.phase]
    if isinstance(command, Ready):
        if not phase.accepts(command):
            return reject("not_dealing", "Ready is for the start of a round")
        return run(phase, state, evolve, i, command)
    if not isinstance(command, ACTIONS):
        return reject("malformed", f"not a Kings in the Corner command: {type(command).__name__}")
    for name in ("slot", "from_slot", "to_slot"):
        if getattr(command, name, "N") not in SLOT_INDEX:
            return reject("malformed", f"{name} must be one of {', '.join(SLOTS)}")
    if isinstance(command, (PlayCard, PlayRun)):
        played = (command.card,) if isinstance(command, PlayCard) else command.cards
        if not all(isinstance(c, str) for c in played):
            return reject("malformed", "card ids are strings")
    if not phase.accepts(command):
        return reject("round_not_active", f"no round is being played ({STATUS[state.phase]})")
    return run(phase, state, evolve, i, command)


def legal_commands(state: KCState, seat: str) -> tuple[KingsCornerCommand, ...]:
    if seat not in state.seats or state.seat_problem is not None:
        return ()
    moves = PHASES[state.phase].legal(state, state.seats.index(seat))
    return tuple(sorted(moves, key=msgspec.json.encode))


def to_move(state: KCState) -> frozenset[str]:
    if state.seat_problem is not None:
        return frozenset()
    return frozenset(state.seats[j] for j in PHASES[state.phase].movers(state))
