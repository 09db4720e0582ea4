"""Explicit phases: a table from a state's phase value to what that phase accepts.

A card game's state has a ``phase`` field (a ``Literal`` of the game's phase names).  A
``PhaseTable`` maps each phase to a ``Phase``: the command types it accepts, the legal commands
of a seat in it, the seats to move, and its decide step on a ``Builder``.  ``decide`` looks up the
phase and refuses a command the phase does not take with the game's own code; ``legal_commands``
and ``to_move`` are the table's, so the three never disagree about what a phase allows.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from contracts.envelope import Rejected
from domain.core.cardgame.builder import Builder

S = TypeVar("S")
C = TypeVar("C")
E = TypeVar("E")


@dataclass(frozen=True)
class Phase(Generic[S, C, E]):
    """One phase of a card game.

    - ``commands``: the command types accepted in this phase (others are refused by the game);
    - ``movers(state)``: seat indexes expected to act;
    - ``legal(state, i)``: every legal command of seat index ``i`` (empty for a seat not to move);
    - ``decide(builder, i, command)``: emit the events of an accepted command, or return the
      rejection (the builder's events are then discarded).
    """

    name: str
    commands: tuple[type[Any], ...]
    movers: Callable[[S], frozenset[int]]
    legal: Callable[[S, int], Sequence[C]]
    decide: Callable[[Builder[S, E], int, C], Rejected | None]

    def accepts(self, command: object) -> bool:
        return isinstance(command, self.commands)


PhaseTable = Mapping[str, Phase[S, C, E]]


def run(
    phase: Phase[S, C, E], state: S, evolve: Callable[[S, E], S], i: int, command: C
) -> tuple[E, ...] | Rejected:
    """Decide ``command`` of seat index ``i`` in ``phase``: the events, or the rejection."""
    b: Builder[S, E] = Builder(state, evolve)
    problem = phase.decide(b, i, command)
    if problem is not None:
        return problem
    return b.result()
