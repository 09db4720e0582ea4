"""Kings Cup states for the unit tests: a cup spread in a given order, a command decided and
folded, a refusal's code."""

from __future__ import annotations

import msgspec

from contracts.envelope import Rejected
from contracts.games.kings_cup import CupDealt
from domain.games.kings_cup import GAME
from domain.games.kings_cup.rules import PRESETS
from domain.games.kings_cup.state import CupState

SEED = bytes(range(32))


def started(cup: str, n: int = 3, preset: str = "kings-cup-neutral", **changes: object) -> CupState:
    """The cards spread in the order ``cup`` names them, p1 to draw first."""
    s = GAME.initial_state(PRESETS[preset], GAME.seat_names(n), SEED)
    order = tuple(cup.split())
    s = GAME.evolve(s, CupDealt(order=order, size=len(order), first_seat="p1"))
    return msgspec.structs.replace(s, **changes) if changes else s


def act(s: CupState, seat: str, cmd: object) -> tuple[CupState, tuple[object, ...]]:
    events = GAME.decide(s, seat, cmd)  # type: ignore[arg-type]
    assert not isinstance(events, Rejected), events
    for e in events:
        s = GAME.evolve(s, e)
    return s, tuple(events)


def code(s: CupState, seat: str, cmd: object) -> str:
    r = GAME.decide(s, seat, cmd)  # type: ignore[arg-type]
    assert isinstance(r, Rejected), r
    assert r.code in GAME.rejection_codes
    return r.code
