"""Positions and moves for the Tablut tests (rules/tablut.md)."""

from __future__ import annotations

import msgspec

from contracts.envelope import Rejected
from contracts.games.tablut import TablutMove
from domain.games.tablut import GAME, PRESETS, TablutState
from domain.games.tablut.position import START, write

SEATS = ("attackers", "defenders")
ALL = tuple(PRESETS)
CORNER = ("tablut-seed", "tablut-armed", "tablut-weak-king")
EDGE = ("tablut-edge", "tablut-linnaeus")


def at(position: str = START, preset: str = "tablut-seed", **overrides: object) -> TablutState:
    rules = msgspec.structs.replace(PRESETS[preset], **overrides)
    state = GAME.position(rules, SEATS, position)
    assert not isinstance(state, Rejected), state
    return state


def moves(state: TablutState) -> list[str]:
    """The legal moves of the side to move, from-to only."""
    seat = SEATS[state.side]
    return sorted(c.move.split("x")[0] for c in GAME.legal_commands(state, seat))


def play(state: TablutState, *texts: str) -> TablutState:
    for text in texts:
        seat = SEATS[state.side]
        events = GAME.decide(state, seat, TablutMove(move=text))
        assert not isinstance(events, Rejected), (text, events)
        for e in events:
            state = GAME.evolve(state, e)
    return state


def refused(state: TablutState, text: str, seat: str | None = None) -> str:
    r = GAME.decide(state, seat or SEATS[state.side], TablutMove(move=text))
    assert isinstance(r, Rejected), r
    assert r.code in GAME.rejection_codes
    return r.code


def placed(state: TablutState) -> str:
    return write(state.board, state.side)
