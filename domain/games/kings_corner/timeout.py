"""§5.4 meta action TIMEOUT (Decision D4): what the server does for a seat whose clock ran out.

"The server sends END_TURN, with any mandatory draw.  Where END_TURN would be rejected, the
server first does the compulsory step: under ``enforce``, it plays each obliged king to the first
empty corner in the order NE, SE, SW, NW; under ``until_playable``, it waives the play requirement
and, if the stock is not empty and nothing was played or merged, draws 1 card."

Between rounds the seat is made ready (it is only waited for to deal); a V16 card pending
placement (the only valid action, §5.6) is placed on the first empty slot that takes it, in the
canonical order of legal moves, and the turn then goes on as above.
"""

from __future__ import annotations

from contracts.envelope import Rejected
from contracts.games.kings_corner import (
    CORNER_SLOTS,
    EndTurn,
    KingsCornerCommand,
    KingsCornerEvent,
    PlayCard,
    Ready,
)
from domain.core.cardgame.builder import Builder
from domain.games.kings_corner.decide import _draw, _end_turn
from domain.games.kings_corner.evolve import evolve
from domain.games.kings_corner.legal import end_turn_problem, reject
from domain.games.kings_corner.phases import decide, legal_commands
from domain.games.kings_corner.state import FACTS, KCState

MAX_STEPS = 64  # a turn has fewer compulsory steps than cards in a hand


def timeout(state: KCState, seat: str) -> tuple[KingsCornerEvent, ...] | Rejected:
    """The events of §5.4 TIMEOUT for ``seat``, or Rejected when the seat has nothing to do."""
    if not legal_commands(state, seat):
        return reject("not_your_turn", f"{seat} has nothing to do")
    events: list[KingsCornerEvent] = []
    s = state
    i = s.seats.index(seat)
    for _ in range(MAX_STEPS):
        legal = legal_commands(s, seat)
        if not legal:
            break
        command = _step(s, i, legal)
        if command is None:  # until_playable: the play requirement waived
            b: Builder[KCState, KingsCornerEvent] = Builder(s, evolve)
            if s.stock and s.played + s.merges == 0:
                _draw(b, 1, "until_playable")
            if b.state.in_round and b.state.current == i and b.state.phase == "play":
                _end_turn(b, i, draw=False)
            step = b.result()
        else:
            decided = decide(s, seat, command)
            if isinstance(decided, Rejected):
                return decided
            step = decided
        for event in step:
            s = evolve(s, event)
        events.extend(step)
        if command is None or isinstance(command, (EndTurn, Ready)):
            break
    return tuple(events)


def _step(s: KCState, i: int, legal: tuple[KingsCornerCommand, ...]) -> KingsCornerCommand | None:
    """The next step of the timeout: a command, or None for the waived play requirement."""
    if any(isinstance(c, Ready) for c in legal):
        return Ready()
    if s.phase == "place":
        return legal[0]
    if EndTurn() in legal:
        return EndTurn()
    problem = end_turn_problem(s, i)
    if problem is not None and problem.code == "kings_must_be_played":
        kings = [c for c in legal if isinstance(c, PlayCard) and FACTS[c.card].rank == 13]
        for corner in CORNER_SLOTS:
            for play in kings:
                if isinstance(play, PlayCard) and play.slot == corner:
                    return play
    if problem is not None and problem.code == "must_play_first":
        return None
    return legal[0]
