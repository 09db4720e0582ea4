"""Given / when / then for any Decider (ARCHITECTURE §9: one test per rule).

    spec(GAME, ruleset).given(*events).when(seat, command).then(*events)
    spec(GAME, ruleset).given(*events).when(seat, command).then_rejected("occupied")

``given`` events are folded with ``evolve``; ``when`` runs ``decide``.  A start state other
than ``initial_state`` (a constructed position) can be passed as ``state``.
"""

from __future__ import annotations

from typing import Any

from contracts.envelope import Rejected
from domain.core import match as match_layer
from domain.core.decider import Decider

AnyDecider = Decider[Any, Any, Any, Any, Any]


class Spec:
    def __init__(self, game: AnyDecider, state: Any) -> None:
        self.game = game
        self.state = state
        self.result: tuple[Any, ...] | Rejected | None = None

    def given(self, *events: Any) -> Spec:
        for event in events:
            self.state = self.game.evolve(self.state, event)
        return self

    def when(self, seat: str, command: Any) -> Spec:
        self.result = self.game.decide(self.state, seat, command)
        return self

    def then(self, *events: Any) -> Any:
        """Assert the decision's events; returns the state after them (for further checks)."""
        assert not isinstance(self.result, Rejected), f"expected {events}, got {self.result}"
        assert self.result is not None, "call when() first"
        assert tuple(self.result) == tuple(events), f"expected {events}, got {self.result}"
        state = self.state
        for event in self.result:
            state = self.game.evolve(state, event)
        return state

    def then_accepted(self) -> Any:
        """Assert acceptance without fixing the events; returns the state after them."""
        assert not isinstance(self.result, Rejected), f"rejected: {self.result}"
        assert self.result is not None, "call when() first"
        return self.then(*self.result)

    def then_rejected(self, code: str) -> Rejected:
        assert isinstance(self.result, Rejected), f"expected rejection {code!r}, got {self.result}"
        assert self.result.code == code, f"expected {code!r}, got {self.result.code!r}: {self.result.detail}"
        assert code in self.game.rejection_codes, f"{code!r} is not a declared rejection code"
        return self.result


def spec(
    game: AnyDecider,
    ruleset: Any = None,
    seats: tuple[str, ...] | None = None,
    seed: bytes | None = None,
    state: Any = None,
) -> Spec:
    meta = game
    if state is None:
        if ruleset is None:
            ruleset = meta.presets[meta.default_preset].ruleset
        if seats is None:
            seats = meta.seat_names(match_layer.default_seats(game, ruleset))
        state = game.initial_state(ruleset, seats, seed)
    return Spec(game, state)
