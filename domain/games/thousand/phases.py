"""The phase table of 1000 and the Decider's ``decide``, ``legal_commands`` and ``to_move``, all
read from it (see ``state.py`` for the phases).

Checks run in this order for every command (rules/thousand-and-farkle-flip.md §2.21.2): a seat of
the match, a table the ruleset can deal to (``invalid_seats``), then for every command but Ready a
1000 command (``malformed``), a deal being played (``wrong_phase``) and the seat to act
(``not_your_turn``); a command the phase does not take is refused with its own code; the phase's
step checks the rest.  The server phases (``SERVER_PHASES``) take nothing and move nobody: no
decision ends in one, but a game record's redeal waits in ``redeal`` for the record's next deal.
"""

from __future__ import annotations

from operator import attrgetter
from typing import get_args

from contracts.envelope import Rejected
from contracts.games.thousand import (
    Bid,
    ClaimRedeal,
    DeclareBlind,
    DeclineBlind,
    GiveCards,
    KeepHand,
    Pass,
    Play,
    Ready,
    SeatReady,
    SetContract,
    ThousandCommand,
    ThousandEvent,
    WriteOff,
)
from domain.core.cardgame import lifecycle
from domain.core.cardgame.builder import Builder
from domain.core.cardgame.phases import Phase, Phases, closed, seated
from domain.games.thousand.decide import (
    decide_auction,
    decide_blind,
    decide_contract,
    decide_passing,
    decide_play,
    decide_window,
    start_deal,
)
from domain.games.thousand.evolve import evolve
from domain.games.thousand.legal import (
    auction_moves,
    blind_moves,
    contract_moves,
    movers,
    passing_moves,
    play_moves,
    ready_moves,
    window_moves,
)
from domain.games.thousand.state import Phase as PhaseName
from domain.games.thousand.state import TState

TPhase = Phase[TState, ThousandCommand, ThousandEvent]
B = Builder[TState, ThousandEvent]


def _reject(code: str, detail: str = "") -> Rejected:
    return Rejected(code=code, detail=detail)


ACTIONS: tuple[type, ...] = (
    DeclareBlind,
    DeclineBlind,
    ClaimRedeal,
    KeepHand,
    Bid,
    Pass,
    GiveCards,
    SetContract,
    WriteOff,
    Play,
)

# Ready before the first deal: every seat, each with its client seed (taken only before any card
# is dealt: ``shuffle`` counts the dealings); the last one deals.
READY: lifecycle.ReadyStep[TState, ThousandEvent] = lifecycle.ReadyStep(
    ready_event=lambda s, i, seed: SeatReady(seat=s.seats[i], client_seed=seed),
    deal=start_deal,
    round_of=attrgetter("shuffle"),
)


def _ready(b: B, i: int, command: ThousandCommand) -> Rejected | None:
    """The ready lifecycle, a client seed that is not text refused as too long."""
    assert isinstance(command, Ready)
    if not isinstance(command.client_seed, str) and not b.state.ready[i]:
        return _reject("client_seed_too_long", f"at most {lifecycle.MAX_CLIENT_SEED} characters")
    return READY(b, i, command)


def _next_deal(b: B, i: int, command: ThousandCommand) -> Rejected | None:
    """Between deals only the new dealer sends Ready, and deals (§2.21.3 step 10)."""
    s = b.state
    if i != s.dealer:
        return _reject("not_your_turn", f"{s.seats[s.dealer]} deals the next hand")
    return start_deal(b)


_PLAYED: dict[str, TPhase] = {
    "waiting": Phase("waiting", (Ready,), READY.movers, ready_moves, _ready),
    "next_deal": Phase("next_deal", (Ready,), movers, ready_moves, _next_deal),
    "blind_offer": Phase("blind_offer", (DeclareBlind, DeclineBlind), movers, blind_moves, decide_blind),
    **{
        name: Phase(name, (ClaimRedeal, KeepHand), movers, window_moves, decide_window)
        for name in ("redeal_window", "talon_window", "after_pass_window")
    },
    "auction": Phase("auction", (Bid, Pass), movers, auction_moves, decide_auction),
    "passing": Phase("passing", (GiveCards, WriteOff), movers, passing_moves, decide_passing),
    "contract": Phase("contract", (SetContract, WriteOff), movers, contract_moves, decide_contract),
    "play": Phase("play", (Play,), movers, play_moves, decide_play),
}
# The server phases and the end of the match take no command and move nobody; so does a table
# whose seats the ruleset cannot deal to (``seat_problem``: "invalid").
PHASES: dict[str, TPhase] = {
    name: _PLAYED.get(name) or closed(name) for name in (*get_args(PhaseName), "invalid")
}


def _guard(s: TState, i: int, command: ThousandCommand) -> Rejected | None:
    """What is refused before the phase is consulted (Ready goes straight to its phase)."""
    if s.seat_problem is not None:
        return _reject("invalid_seats", s.seat_problem)
    if isinstance(command, Ready):
        return None
    if not isinstance(command, ACTIONS):
        return _reject("malformed", f"not a 1000 command: {type(command).__name__}")
    if s.phase in ("waiting", "finished"):
        return _reject("wrong_phase", f"no deal is being played ({s.phase})")
    if i not in PHASES[s.phase].movers(s):
        return _reject("not_your_turn", f"{s.seats[i]} is not to act in phase {s.phase}")
    return None


_NOT_NOW: dict[type, str] = {
    ClaimRedeal: "no redeal window is open",
    KeepHand: "no redeal window is open",
    Bid: "the auction is not open",
    Pass: "the auction is not open",
    WriteOff: "a write-off comes after taking the talon, before the contract",
    GiveCards: "cards are given after taking the talon",
    SetContract: "the contract is set after giving the two cards",
    Play: "no trick is being played",
}


def _refuse(s: TState, command: ThousandCommand) -> Rejected:
    """A command its phase does not take, refused with the command's own code."""
    if isinstance(command, Ready):
        return _reject("not_dealing", "Ready is for the start of the match and of each deal")
    if isinstance(command, (DeclareBlind, DeclineBlind)):
        return _reject("blind_not_offered", "no blind offer is open")
    return _reject("wrong_phase", _NOT_NOW[type(command)])


PHASED: Phases[TState, ThousandCommand, ThousandEvent] = Phases(
    table=PHASES, evolve=evolve, phase_of=seated(), guard=_guard, refuse=_refuse
)
decide = PHASED.decide
legal_commands = PHASED.legal_commands
to_move = PHASED.to_move
