"""Tablut in portable game records (rules/records.md, rules/tablut.md §9.4): ``["move", seat,
"e2-c2"]`` with seat 0 the attackers; the capture list and the ``+`` suffix optional; no deals.
The match-level actions (``["resign", seat]`` ...) are read by domain/records.py."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from contracts.envelope import Rejected
from contracts.games.tablut import TablutMove
from domain.core.decider import RecordAdapter

from .state import TablutState


def parse_action(state: TablutState, seat: str, action: Sequence[Any]) -> Any:
    if action and action[0] == "move" and len(action) == 3 and isinstance(action[2], str):
        return TablutMove(move=action[2])
    return Rejected(code="bad_action", detail='a tablut action is ["move", seat, "e2-c2"]')


def format_action(state: TablutState, seat: str, command: Any) -> list[Any]:
    assert isinstance(command, TablutMove), command
    return ["move", state.seats.index(seat), command.move]


RECORD: RecordAdapter[TablutState, Any, Any] = RecordAdapter(parse_action=parse_action, format_action=format_action)
