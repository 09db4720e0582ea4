"""A position string (§9.3) as a state to play on (``Decider.position``: ``rules perft --fen``)."""

from __future__ import annotations

import msgspec

from contracts.envelope import Rejected
from contracts.games.draughts import DraughtsRuleset

from . import fen
from .play import start
from .state import DraughtsState


def position(rules: DraughtsRuleset, seats: tuple[str, ...], text: str) -> DraughtsState | Rejected:
    try:
        fen.parse(text)
    except fen.BadPosition as exc:
        return Rejected(code="bad_position", detail=str(exc))
    return start(msgspec.structs.replace(rules, start_fen=text), (seats[0], seats[1]))
