"""``Decider.timeout`` of Kings in the Corner: §5.4 meta action TIMEOUT (Decision D4).

During a round the current seat's TIMEOUT is ``decide.timeout`` (END_TURN with its mandatory
draw, after the compulsory step).  Between rounds the clock runs for the seats waited for to
deal; a seat out of time there is made ready (``kc_ready.v1``), the only thing it can do.
"""

from __future__ import annotations

from contracts.envelope import Rejected
from contracts.games.kings_corner import KingsCornerEvent, Ready
from domain.games.kings_corner.decide import timeout as turn_timeout
from domain.games.kings_corner.phases import decide, legal_commands
from domain.games.kings_corner.state import KCState


def timeout(state: KCState, seat: str) -> tuple[KingsCornerEvent, ...] | Rejected:
    """The events of TIMEOUT for ``seat``, or Rejected when the seat has nothing to do."""
    if Ready() in legal_commands(state, seat):
        return decide(state, seat, Ready())
    return turn_timeout(state, seat)
