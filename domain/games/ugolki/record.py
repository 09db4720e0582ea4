"""Ugolki in portable game records (rules/records.md): ``["move", seat, "h3-h5-f5"]``.

The move text is read by the referee's own notation (§5 with D6: a leading move number is ignored,
ambiguous text is ``bad_notation``); a forced pass is automatic and never listed.  Ugolki has no
deals.  ``["resign", seat]`` (the match layer's resignation) is read and written too, so a match
that ended by resignation exports and replays to the same result.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from contracts.envelope import Rejected
from contracts.games.ugolki import MovePiece
from contracts.match import Resign
from domain.core.decider import RecordAdapter

from .state import UgolkiState


def parse_action(state: UgolkiState, seat: str, action: Sequence[Any]) -> Any:
    name = action[0] if action else None
    if name == "move":
        if len(action) != 3 or not isinstance(action[2], str):
            return Rejected(code="bad_action", detail='a move is ["move", seat, "h3-h5-f5"]')
        return MovePiece(path=(action[2],))
    if name == "resign" and len(action) == 2:
        return Resign()
    return Rejected(code="bad_action", detail=f'ugolki actions are "move" and "resign", not {name!r}')


def format_action(state: UgolkiState, seat: str, command: Any) -> list[Any]:
    s = state.seats.index(seat)
    if isinstance(command, Resign):
        return ["resign", s]
    assert isinstance(command, MovePiece), command
    return ["move", s, "-".join(command.path)]


RECORD: RecordAdapter[UgolkiState, Any, Any] = RecordAdapter(parse_action=parse_action, format_action=format_action)
