"""The phase table of a Kings Cup table and the Decider's ``decide``, ``legal_commands`` and
``to_move``, all read from it (rules/king.md §15.1; see ``state.py`` for the phases).

Checks, in order: a command that is not Kings Cup's (``malformed``), a seat not at the table
(``not_your_turn``), a table that cannot be played (``invalid_seats``), Ready once the cards are
out (``not_dealing``) or a turn's command outside the game (``game_not_active``), then the phase's
own: the kernel's ready lifecycle before the spread, the drawer's turn after it.
"""

from __future__ import annotations

from operator import attrgetter

from contracts.envelope import Rejected
from contracts.games.kings_cup import (
    ChooseSeat,
    DrawCard,
    KingsCupCommand,
    KingsCupEvent,
    MakeRule,
    Ready,
    SeatReady,
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
from domain.games.kings_cup.deal import deal
from domain.games.kings_cup.decide import decide_turn
from domain.games.kings_cup.evolve import evolve
from domain.games.kings_cup.legal import play_moves, reject
from domain.games.kings_cup.state import CupState

B = Builder[CupState, KingsCupEvent]
CupPhase = Phase[CupState, KingsCupCommand, KingsCupEvent]
COMMANDS: tuple[type, ...] = (Ready, DrawCard, ChooseSeat, MakeRule)

READY: lifecycle.ReadyStep[CupState, KingsCupEvent] = lifecycle.ReadyStep(
    ready_event=lambda s, i, seed: SeatReady(seat=s.seats[i], client_seed=seed),
    # The last Ready spreads the cards (one spread: every seat's client seed is taken).
    deal=lambda b: dealing.step(b, deal),
    phase_of=attrgetter("status"),
    seed_too_long=f"client_seed is longer than {lifecycle.MAX_CLIENT_SEED} characters",
)


PHASES: dict[str, CupPhase] = {
    "waiting": READY.phase("waiting", Ready),
    "playing": Phase("playing", (DrawCard, ChooseSeat, MakeRule), current_seat, play_moves, decide_turn),
    "finished": closed("finished"),
    # A table whose seats the ruleset does not take (``seat_problem``): nobody moves, all is refused.
    "invalid": refusing("invalid", invalid_seats),
}


def _refuse(s: CupState, command: KingsCupCommand) -> Rejected:
    if isinstance(command, Ready):
        return reject("not_dealing", "the cards are out already")
    return reject("game_not_active", f"the table is {s.status}")


PHASED: Phases[CupState, KingsCupCommand, KingsCupEvent] = Phases(
    table=PHASES,
    evolve=evolve,
    phase_of=seated("status"),
    refuse=_refuse,
    screen=own_commands(COMMANDS, "Kings Cup"),
    seat_word="table",
)
decide = PHASED.decide
legal_commands = PHASED.legal_commands
to_move = PHASED.to_move
