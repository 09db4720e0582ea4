"""Integration events: the only thing other services read from referees.

They never decode a game's own events.  Stored on the ``INTEGRATION`` stream
(``contracts.subjects``), published with ``Nats-Msg-Id`` so that a republish is harmless.
"""

from __future__ import annotations

from typing import Any

import msgspec

from contracts.match import Outcome


class MatchStarted(msgspec.Struct, frozen=True, kw_only=True, tag="integration.match_created.v1"):
    match_id: str
    game: str
    preset: str
    rules_version: str
    ruleset_hash: str
    seats: tuple[str, ...]
    players: tuple[str, ...]
    created_at: int  # unix ms
    ranked: bool = False
    season: str = ""


class MatchFinished(msgspec.Struct, frozen=True, kw_only=True, tag="integration.match_finished.v1"):
    match_id: str
    game: str
    preset: str
    rules_version: str
    seats: tuple[str, ...]
    players: tuple[str, ...]
    outcome: Outcome
    moves: int  # decisions after creation
    finished_at: int  # unix ms
    last_seq: int  # stream sequence of the final envelope (for auditors)
    ranked: bool = False


class RatingApplied(msgspec.Struct, frozen=True, kw_only=True, tag="integration.rating_applied.v1"):
    match_id: str
    game: str
    preset: str
    season: str
    model: str  # "glicko2" | "openskill-pl"
    parameters: dict[str, Any]
    players: tuple[str, ...]
    before: tuple[tuple[float, ...], ...]  # model state per player before
    after: tuple[tuple[float, ...], ...]
    scores: tuple[float, ...]
    applied_at: int


IntegrationEvent = MatchStarted | MatchFinished | RatingApplied
