"""A game is a Decider: a frozen record of pure functions (ARCHITECTURE §3)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from contracts.envelope import Rejected
from contracts.match import Outcome

S = TypeVar("S")  # state
C = TypeVar("C")  # command
E = TypeVar("E")  # event
V = TypeVar("V")  # view
R = TypeVar("R")  # ruleset

Seat = str


@dataclass(frozen=True)
class GameMeta(Generic[R]):
    name: str
    rules_version: str
    min_seats: int
    max_seats: int
    chance: bool
    hidden_info: bool
    ruleset_type: type[R]
    presets: Mapping[str, R]
    default_preset: str
    command_type: Any  # union of the game's command structs
    event_type: Any  # union of the game's event structs
    view_type: Any
    rejection_codes: tuple[str, ...]
    # Optional: default seat names for n seats (e.g. ("white", "black")).
    seat_names: Callable[[int], tuple[str, ...]]
    # A bound on decisions in one match, used by random-playout tests.
    max_decisions: int = 10_000
    description: Mapping[str, str] | None = None  # preset -> one-line description


@dataclass(frozen=True)
class Decider(Generic[S, C, E, V, R]):
    meta: GameMeta[R]
    initial_state: Callable[[R, tuple[Seat, ...], bytes | None], S]
    decide: Callable[[S, Seat, C], tuple[E, ...] | Rejected]
    evolve: Callable[[S, E], S]
    legal_commands: Callable[[S, Seat], tuple[C, ...]]
    to_move: Callable[[S], frozenset[Seat]]
    outcome: Callable[[S], Outcome | None]
    view: Callable[[S, Seat | None], V]
    redact: Callable[[E, Seat | None], E | None]
    # Games with chance: given the state before a recorded chance event (folded with the revealed
    # server seed), re-derive the event and return a precise problem, or None when it matches.
    verify_chance: Callable[[S, E], str | None] | None = None
    # Computer players by strength name (e.g. "random", "greedy", "search"), each a pure function
    # (state, seat, rng) -> command.  rng is a random.Random owned by the caller.
    bots: Mapping[str, Callable[[S, Seat, Any], C]] | None = None


def fold(game: Decider[S, C, E, V, R], state: S, events: tuple[E, ...] | list[E]) -> S:
    for event in events:
        state = game.evolve(state, event)
    return state
