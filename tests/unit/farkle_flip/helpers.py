"""Constructed Farkle Flip positions for rule tests (rules/thousand-and-farkle-flip.md §3)."""

from __future__ import annotations

from typing import Any

import msgspec

from contracts.envelope import Rejected
from contracts.games.farkle_flip import FarkleFlipRuleset, GameDealt
from domain.games.farkle_flip import GAME
from domain.games.farkle_flip.rules import PRESETS
from domain.games.farkle_flip.state import FFState

SEED = bytes(range(32))
BASE = PRESETS["farkle-flip-placeholder"]


def rules(**changes: Any) -> FarkleFlipRuleset:
    return msgspec.structs.replace(BASE, **changes)


def area(text: str, group: int = 0) -> tuple[tuple[str, int], ...]:
    """ "4 4 4" -> three untagged 4s; "4 4 4" with group=2 -> lost group 2."""
    return tuple((v, group) for v in text.split())


def table(
    n: int = 2,
    draw: str = "",
    areas: tuple[tuple[tuple[str, int], ...], ...] = (),
    ruleset: FarkleFlipRuleset = BASE,
    current: int = 0,
    **state: Any,
) -> FFState:
    """A game in play: seat ``current`` to act at the start of a turn, the draw pile top first."""
    seats = GAME.seat_names(n)
    s = GAME.initial_state(ruleset, seats, SEED)
    dealer = (current - 1) % n
    deal = GameDealt(
        dealer=seats[dealer],
        first_seat=seats[current],
        seats=seats,
        deck=("1",) * n + tuple(draw.split()),
        dealt=("1",) * n,
        draw_size=len(draw.split()),
    )
    s = GAME.evolve(s, deal)
    laid = tuple(areas) + ((),) * (n - len(areas))
    s = msgspec.structs.replace(s, areas=laid, **state)
    return msgspec.structs.replace(s, start_dry=s.piles_empty())


def act(state: FFState, seat: str, command: Any) -> tuple[FFState, tuple[Any, ...]]:
    """Decide and fold; fails the test on a rejection."""
    events = GAME.decide(state, seat, command)
    assert not isinstance(events, Rejected), events
    for e in events:
        state = GAME.evolve(state, e)
    return state, tuple(events)


def rejected(state: FFState, seat: str, command: Any) -> str:
    result = GAME.decide(state, seat, command)
    assert isinstance(result, Rejected), f"accepted: {result}"
    assert result.code in GAME.rejection_codes
    return result.code
