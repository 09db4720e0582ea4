"""The phase table of Farkle Flip and the Decider's ``decide``, ``legal_commands`` and
``to_move``, all read from it (rules/thousand-and-farkle-flip.md §3.9; see ``state.py`` for the
phases).

Checks, in order: a command that is not Farkle Flip's (``malformed``), a seat not in the match
(``not_your_turn``), a table that cannot be played (``invalid_seats``), Ready after the deal
(``not_dealing``) or a turn's command outside the game (``game_not_active``), then the phase's
own: the kernel's ready lifecycle before the deal, the turn of one seat after it.
"""

from __future__ import annotations

from operator import attrgetter

from contracts.envelope import Rejected
from contracts.games.farkle_flip import (
    Draw,
    FarkleFlipCommand,
    FarkleFlipEvent,
    Lock,
    Place,
    Ready,
    SeatReady,
    Stop,
)
from domain.core.cardgame import deal as dealing
from domain.core.cardgame import lifecycle
from domain.core.cardgame.builder import Builder
from domain.core.cardgame.phases import (
    Phase,
    Phases,
    closed,
    current_seat,
    invalid_seats,
    own_commands,
    refusing,
    seated,
)
from domain.games.farkle_flip.deal import deal
from domain.games.farkle_flip.decide import decide_turn
from domain.games.farkle_flip.evolve import evolve
from domain.games.farkle_flip.legal import play_moves, reject
from domain.games.farkle_flip.state import FFState

B = Builder[FFState, FarkleFlipEvent]
FFPhase = Phase[FFState, FarkleFlipCommand, FarkleFlipEvent]
COMMANDS: tuple[type, ...] = (Ready, Draw, Place, Lock, Stop)

READY: lifecycle.ReadyStep[FFState, FarkleFlipEvent] = lifecycle.ReadyStep(
    ready_event=lambda s, i, seed: SeatReady(seat=s.seats[i], client_seed=seed),
    # §3.3: the last Ready deals the game (one deal: every seat's client seed is taken).
    deal=lambda b: dealing.step(b, deal),
    phase_of=attrgetter("status"),
    seed_too_long=f"client_seed is longer than {lifecycle.MAX_CLIENT_SEED} characters",
)


PHASES: dict[str, FFPhase] = {
    "waiting": READY.phase("waiting", Ready),
    "playing": Phase("playing", (Draw, Place, Lock, Stop), current_seat, play_moves, decide_turn),
    "finished": closed("finished"),
    # A table whose seats the ruleset cannot deal to (``seat_problem``): nobody moves, all is refused.
    "invalid": refusing("invalid", invalid_seats),
}


def _refuse(s: FFState, command: FarkleFlipCommand) -> Rejected:
    if isinstance(command, Ready):
        return reject("not_dealing", "the game has been dealt")
    return reject("game_not_active", f"the game is {s.status}")


PHASED: Phases[FFState, FarkleFlipCommand, FarkleFlipEvent] = Phases(
    table=PHASES,
    evolve=evolve,
    phase_of=seated("status"),
    refuse=_refuse,
    screen=own_commands(COMMANDS, "Farkle Flip"),
)
decide = PHASED.decide
legal_commands = PHASED.legal_commands
to_move = PHASED.to_move
