"""Draughts positions for the unit tests: a state from a position string (rules/draughts.md §9.3)
under a preset, moves played by their text, and the legal moves as canonical texts."""

from __future__ import annotations

import msgspec

from contracts.envelope import Rejected
from contracts.games.draughts import DraughtsMove
from domain.games.draughts import GAME
from domain.games.draughts.rules import PRESETS
from domain.games.draughts.state import DraughtsState

SEATS = ("white", "black")


def at(fen: str | None = None, preset: str = "russian", **changes: object) -> DraughtsState:
    rules = msgspec.structs.replace(PRESETS[preset], start_fen=fen, **changes)
    return GAME.initial_state(rules, SEATS, None)


def moves(state: DraughtsState) -> list[str]:
    seat = SEATS[state.side]
    return [c.move for c in GAME.legal_commands(state, seat)]


def play(state: DraughtsState, *texts: str) -> DraughtsState:
    for text in texts:
        seat = SEATS[state.side]
        events = GAME.decide(state, seat, DraughtsMove(move=text))
        assert not isinstance(events, Rejected), (text, events)
        for e in events:
            state = GAME.evolve(state, e)
    return state


def refused(state: DraughtsState, text: str, seat: str | None = None) -> str:
    r = GAME.decide(state, seat or SEATS[state.side], DraughtsMove(move=text))
    assert isinstance(r, Rejected), r
    assert r.code in GAME.rejection_codes
    return r.code
