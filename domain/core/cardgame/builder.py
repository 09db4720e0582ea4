"""The event builder of a card game's ``decide``: emit an event and fold it at once.

``decide`` of a card game often produces a chain of events (a card played, the hand empty so the
round ends, the round scored, the next turn's automatic draw).  Each follow-up must be computed on
the state after the events before it; ``Builder.emit`` appends the event and folds it with the
game's ``evolve``, so ``builder.state`` is always the state after ``builder.events``.

    b = Builder(state, evolve)
    b.emit(CardPlayed(...))
    if not b.state.hands[i]:
        b.emit(RoundEnded(...))
    return b.result()
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

S = TypeVar("S")
E = TypeVar("E")


class Builder(Generic[S, E]):
    __slots__ = ("state", "events", "_evolve")

    def __init__(self, state: S, evolve: Callable[[S, E], S]) -> None:
        self.state = state
        self.events: list[E] = []
        self._evolve = evolve

    def emit(self, event: E) -> None:
        self.events.append(event)
        self.state = self._evolve(self.state, event)

    def result(self) -> tuple[E, ...]:
        return tuple(self.events)
