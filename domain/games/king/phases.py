"""King's phase table (see ``state.py`` for the phases) and the Decider's ``decide``,
``legal_commands`` and ``to_move``, all read from it (rules/king.md §12.2-§12.3).

The Ready pause before the first deal (``waiting``) and after each scored deal (``scored``) is
the kernel's ready lifecycle; every other phase but ``finished`` has one seat to act
(``to_act``) and takes its own commands, each with its decide step in ``decide.py`` and its
legal commands in ``legal.py``.  Checks, in order: a command that is not King's (``malformed``),
a seat not in the match (``not_your_turn``), a command the phase does not take
(``wrong_phase``), a seat that is not the one to act (``not_your_turn``), then the step's own.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import Any

import msgspec

from contracts.envelope import Rejected
from contracts.games.king import (
    AcceptBuyout,
    Bid,
    ChooseContract,
    ChooseTrump,
    Declare,
    Discard,
    KingCommand,
    KingEvent,
    OfferBuyout,
    PassBid,
    PassBuyout,
    PassOrder,
    Play,
    Ready,
    RefuseBuyout,
    SeatReady,
)
from domain.core.cardgame import lifecycle
from domain.core.cardgame.builder import Builder
from domain.core.cardgame.phases import Phase, Phases, closed
from domain.games.king import decide as steps
from domain.games.king import legal
from domain.games.king.evolve import evolve
from domain.games.king.state import KingState

B = Builder[KingState, KingEvent]
KingPhase = Phase[KingState, KingCommand, KingEvent]
Step = Callable[[B, int, Any], Rejected | None]

COMMANDS: tuple[type, ...] = (
    Ready,
    ChooseContract,
    PassOrder,
    OfferBuyout,
    PassBuyout,
    AcceptBuyout,
    RefuseBuyout,
    Declare,
    ChooseTrump,
    Bid,
    PassBid,
    Discard,
    Play,
)

READY: lifecycle.ReadyStep[KingState, KingEvent] = lifecycle.ReadyStep(
    ready_event=lambda s, i, seed: SeatReady(seat=s.seats[i], client_seed=seed),
    deal=steps.deal_step,
    round_of=attrgetter("deal_no"),
)


def _to_act(s: KingState) -> frozenset[int]:
    return frozenset({s.to_act}) if s.to_act >= 0 else frozenset()


@dataclass(frozen=True)
class Turn:
    """A phase of one seat to act (``to_act``): ``steps`` maps each command it takes to its decide
    step, ``moves`` lists the seat's legal commands."""

    moves: Callable[[KingState, int], Sequence[KingCommand]]
    steps: Mapping[type, Step]

    def legal(self, s: KingState, i: int) -> Sequence[KingCommand]:
        return self.moves(s, i) if i == s.to_act else ()

    def decide(self, b: B, i: int, command: KingCommand) -> Rejected | None:
        s = b.state
        if i != s.to_act:
            return Rejected(code="not_your_turn", detail=f"{s.seats[s.to_act]} is to act")
        return self.steps[type(command)](b, i, command)


TURNS: dict[str, Turn] = {
    "ordering": Turn(legal.order_moves, {ChooseContract: steps.choose_contract, PassOrder: steps.pass_order}),
    "buyout": Turn(legal.buyout_moves, {OfferBuyout: steps.offer_buyout, PassBuyout: steps.pass_buyout}),
    "buyout_answer": Turn(
        legal.answer_moves, {AcceptBuyout: steps.answer_buyout, RefuseBuyout: steps.answer_buyout}
    ),
    "declaring": Turn(legal.declare_moves, {Declare: steps.declare, ChooseTrump: steps.choose_trump}),
    "auction": Turn(legal.auction_moves, {Bid: steps.bid, PassBid: steps.pass_bid}),
    "naming": Turn(legal.naming_moves, {ChooseTrump: steps.name_trump}),
    "discard": Turn(legal.discard_moves, {Discard: steps.discard}),
    "playing": Turn(legal.play_moves, {Play: steps.play}),
}
PHASES: dict[str, KingPhase] = {
    "waiting": READY.phase("waiting", Ready),
    **{name: Phase(name, tuple(t.steps), _to_act, t.legal, t.decide) for name, t in TURNS.items()},
    "scored": READY.phase("scored", Ready),
    "finished": closed("finished"),
}


def _screen(command: KingCommand) -> Rejected | None:
    """A command that is not King's is ``malformed`` whoever sends it."""
    return None if isinstance(command, COMMANDS) else Rejected(code="malformed", detail="not a King command")


PHASED: Phases[KingState, KingCommand, KingEvent] = Phases(
    table=PHASES, evolve=evolve, order=msgspec.json.encode, screen=_screen
)
decide = PHASED.decide
legal_commands = PHASED.legal_commands
to_move = PHASED.to_move
