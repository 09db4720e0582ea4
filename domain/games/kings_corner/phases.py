"""The phase table of Kings in the Corner and the Decider's ``decide``, ``legal_commands`` and
``to_move``, all read from it (see ``state.py`` for the phases)."""

from __future__ import annotations

import msgspec

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
    SeatReady,
)
from domain.core.cardgame import deal as dealing
from domain.core.cardgame import lifecycle
from domain.core.cardgame.builder import Builder
from domain.core.cardgame.phases import Phase, Phases, closed, current_seat, invalid_seats, refusing, seated
from domain.games.kings_corner.deal import deal
from domain.games.kings_corner.decide import decide_place, decide_play, turn_start
from domain.games.kings_corner.evolve import evolve
from domain.games.kings_corner.legal import place_moves, play_moves, reject
from domain.games.kings_corner.state import SLOT_INDEX, STATUS, KCState

KCPhase = Phase[KCState, KingsCornerCommand, KingsCornerEvent]
ACTIONS: tuple[type, ...] = (DrawCard, PlayCard, PlayRun, MovePile, MoveKingPile, EndTurn)


def _deal(b: Builder[KCState, KingsCornerEvent]) -> Rejected | None:
    """The last Ready deals the round (§5.2) and starts the first turn (§5.3)."""
    return dealing.step(b, deal, after=lambda b: turn_start(b))


READY: lifecycle.ReadyStep[KCState, KingsCornerEvent] = lifecycle.ReadyStep(
    ready_event=lambda s, i, seed: SeatReady(seat=s.seats[i], client_seed=seed),
    deal=_deal,
    out_of=lambda s: s.out_round,
)


PHASES: dict[str, KCPhase] = {
    "waiting": READY.phase("waiting", Ready),
    "play": Phase(
        "play", ACTIONS, current_seat, lambda s, i: play_moves(s, i) if s.current == i else (), decide_play
    ),
    "place": Phase(
        "place", ACTIONS, current_seat, lambda s, i: place_moves(s, i) if s.current == i else (), decide_place
    ),
    "scored": READY.phase("scored", Ready),
    "over": closed("over"),
    # A table whose seats the ruleset cannot deal to (``seat_problem``): nobody moves, all is refused.
    "invalid": refusing("invalid", invalid_seats),
}


def _guard(s: KCState, i: int, command: KingsCornerCommand) -> Rejected | None:
    """What is refused whatever the phase: a command of another game, a slot that does not exist,
    cards that are not card ids (a table that cannot be played refuses everything first)."""
    if s.seat_problem is not None or isinstance(command, Ready):
        return None
    if not isinstance(command, ACTIONS):
        return reject("malformed", f"not a Kings in the Corner command: {type(command).__name__}")
    for name in ("slot", "from_slot", "to_slot"):
        if getattr(command, name, "N") not in SLOT_INDEX:
            return reject("malformed", f"{name} must be one of {', '.join(SLOTS)}")
    if isinstance(command, (PlayCard, PlayRun)):
        played = (command.card,) if isinstance(command, PlayCard) else command.cards
        if not all(isinstance(c, str) for c in played):
            return reject("malformed", "card ids are strings")
    return None


def _refuse(s: KCState, command: KingsCornerCommand) -> Rejected:
    if isinstance(command, Ready):
        return reject("not_dealing", "Ready is for the start of a round")
    return reject("round_not_active", f"no round is being played ({STATUS[s.phase]})")


PHASED: Phases[KCState, KingsCornerCommand, KingsCornerEvent] = Phases(
    table=PHASES, evolve=evolve, phase_of=seated(), guard=_guard, refuse=_refuse, order=msgspec.json.encode
)
decide = PHASED.decide
legal_commands = PHASED.legal_commands
to_move = PHASED.to_move
