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


def nobody(state: Any) -> frozenset[int]:
    """``Phase.movers`` of a phase where nobody moves."""
    return frozenset()


def nothing(state: Any, i: int) -> tuple[Any, ...]:
    """``Phase.legal`` of a phase where nothing is legal."""
    return ()


def current_seat(state: Any) -> frozenset[int]:
    """``Phase.movers`` of a phase where one seat moves: the state's ``current`` seat index."""
    return frozenset({state.current})


def seated(field: str = "phase") -> Callable[[Any], str]:
    """``Phases.phase_of`` of a state with a ``seat_problem``: ``"invalid"`` (the ``refusing`` or
    ``closed`` phase of that name) while its ruleset cannot seat the table, else the state's
    ``field``."""

    def phase_of(state: Any) -> str:
        return "invalid" if state.seat_problem is not None else getattr(state, field)

    return phase_of


def invalid_seats(state: Any) -> Rejected:
    """The refusal of a table its ruleset cannot seat (``refusing("invalid", invalid_seats)``):
    ``invalid_seats`` with the state's ``seat_problem``."""
    return Rejected(code="invalid_seats", detail=state.seat_problem or "")


def _takes_nothing(b: Any, i: int, command: Any) -> Rejected | None:  # pragma: no cover - never called
    raise AssertionError("a closed phase takes no command")


def closed(name: str) -> Phase[Any, Any, Any]:
    """A phase that takes no command and where nobody moves (the match is over): every command
    gets the ``Phases.refuse`` answer."""
    return Phase(name, (), nobody, nothing, _takes_nothing)


def refusing(name: str, refusal: Callable[[Any], Rejected]) -> Phase[Any, Any, Any]:
    """A phase where nobody moves and every command gets ``refusal(state)`` (a table its ruleset
    cannot seat: ``invalid_seats``)."""

    def decide(b: Builder[Any, Any], i: int, command: Any) -> Rejected | None:
        return refusal(b.state)

    return Phase(name, (object,), nobody, nothing, decide)


def own_commands(commands: tuple[type[Any], ...], game_title: str) -> Callable[[Any], Rejected | None]:
    """``Phases.screen`` of a game whose commands are ``commands``: any other is ``malformed``
    ("not a <game_title> command: <type>") whoever sends it."""

    def screen(command: Any) -> Rejected | None:
        if isinstance(command, commands):
            return None
        return Rejected(code="malformed", detail=f"not a {game_title} command: {type(command).__name__}")

    return screen


def _phase_field(state: Any) -> str:
    return state.phase  # type: ignore[no-any-return]


def _seats_field(state: Any) -> tuple[str, ...]:
    return state.seats  # type: ignore[no-any-return]


def _no_guard(state: Any, i: int, command: Any) -> Rejected | None:
    return None


@dataclass(frozen=True)
class Phases(Generic[S, C, E]):
    """A card game's phases as a Decider field (``Decider.phases``): the Decider's ``decide``,
    ``legal_commands`` and ``to_move`` are this object's, all read from one table.

    - ``table``: phase name -> ``Phase``; ``phase_of(state)`` names the state's phase (by default
      its ``phase`` field; a game may map a state to a phase of its own, such as a table that
      cannot be played);
    - ``evolve``: the game's evolve, which the decide steps' builder folds with;
    - ``seats_of(state)``: the match's seats in turn order (default: the ``seats`` field);
    - ``screen(command)``: checks of a command before anything else, even before the seat is
      looked up (a command of another game is ``malformed`` whoever sends it), or None;
    - ``guard(state, i, command)``: checks of a command of seat index ``i`` before the phase is
      consulted (a malformed command, say), or None;
    - ``refuse(state, command)``: the rejection of a command its phase does not take (default:
      ``wrong_phase``);
    - ``order``: a sort key that puts legal commands into canonical order, or None to keep the
      phase's own order.

    A seat that is not in the match is refused with ``not_your_turn`` ("'x' is not a seat of this
    <``seat_word``>").
    """

    table: Mapping[str, Phase[S, C, E]]
    evolve: Callable[[S, E], S]
    phase_of: Callable[[S], str] = _phase_field
    seats_of: Callable[[S], Sequence[str]] = _seats_field
    guard: Callable[[S, int, C], Rejected | None] = _no_guard
    refuse: Callable[[S, C], Rejected] | None = None
    order: Callable[[C], Any] | None = None
    screen: Callable[[C], Rejected | None] | None = None
    seat_word: str = "match"

    def phase(self, state: S) -> Phase[S, C, E]:
        return self.table[self.phase_of(state)]

    def decide(self, state: S, seat: str, command: C) -> tuple[E, ...] | Rejected:
        if self.screen is not None:
            screened = self.screen(command)
            if screened is not None:
                return screened
        seats = self.seats_of(state)
        if seat not in seats:
            return Rejected(code="not_your_turn", detail=f"{seat!r} is not a seat of this {self.seat_word}")
        i = seats.index(seat)
        problem = self.guard(state, i, command)
        if problem is not None:
            return problem
        phase = self.phase(state)
        if not phase.accepts(command):
            if self.refuse is not None:
                return self.refuse(state, command)
            return Rejected(
                code="wrong_phase", detail=f"{type(command).__name__} is not taken in phase {phase.name}"
            )
        return run(phase, state, self.evolve, i, command)

    def legal_commands(self, state: S, seat: str) -> tuple[C, ...]:
        seats = self.seats_of(state)
        if seat not in seats:
            return ()
        moves = self.phase(state).legal(state, seats.index(seat))
        return tuple(sorted(moves, key=self.order)) if self.order is not None else tuple(moves)

    def to_move(self, state: S) -> frozenset[str]:
        seats = self.seats_of(state)
        return frozenset(seats[j] for j in self.phase(state).movers(state))
