"""Draughts in portable game records (rules/records.md R5, rules/draughts.md §9.4):
``["move", seat, "c3-d4"]`` / ``["move", seat, "c3:e5:g3"]`` in any accepted form of §9.2; no
deals; a set position in ``overrides.start_fen``.  The match-level actions are read by
domain/records.py."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from contracts.envelope import Rejected
from contracts.games.draughts import DraughtsMove
from domain.core.decider import RecordAdapter

from .state import DraughtsState


def parse_action(state: DraughtsState, seat: str, action: Sequence[Any]) -> Any:
    if action and action[0] == "move" and len(action) == 3 and isinstance(action[2], str):
        return DraughtsMove(move=action[2])
    return Rejected(code="bad_action", detail='a draughts action is ["move", seat, "c3-d4"]')


def format_action(state: DraughtsState, seat: str, command: Any) -> list[Any]:
    assert isinstance(command, DraughtsMove), command
    return ["move", state.seats.index(seat), command.move]


RECORD: RecordAdapter[DraughtsState, Any, Any] = RecordAdapter(
    parse_action=parse_action, format_action=format_action
)
