"""Integration events: the only thing other services read from referees.

They never decode a game's own events.  Stored on the ``INTEGRATION`` stream
(``contracts.subjects``), published with ``Nats-Msg-Id`` so that a republish is harmless.
"""

from __future__ import annotations

from typing import Any

import msgspec

from contracts.match import Outcome, TimeControl


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
    table_id: str = ""  # the matchmaking table this match was created for, if any
    guests: tuple[str, ...] = ()  # seats played by guests (no credential)


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
    guests: tuple[str, ...] = ()  # seats played by guests (no credential): never rated


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
    family: str = ""  # preset family (standings are per game, family, season)
    ranks: tuple[int, ...] = ()  # outcome ranks per player, 1 best
    # ratings actually fed to the model (after idle-period growth and season carry-over)
    effective_before: tuple[tuple[float, ...], ...] = ()


class TableFormed(msgspec.Struct, frozen=True, kw_only=True, tag="integration.table_formed.v1"):
    """Matchmaking seated these players together; the gateway creates the match."""

    table_id: str
    game: str
    preset: str
    ranked: bool
    players: tuple[str, ...]  # one per seat; computer players are named in ``bots``
    bots: tuple[int, ...] = ()  # seat indexes filled by computer players
    tickets: tuple[str, ...] = ()  # queue tickets of the human players, in seat order of humans
    invite: str = ""  # private table code, "" for the public queue
    formed_at: int = 0  # unix ms
    waited_ms: tuple[int, ...] = ()  # queue time of each human player
    gap: float = 0.0  # rating spread of the table
    # A ranked table is signed by matchmaking (``contracts.match.SignedTable``,
    # ``domain.matchmaking.provenance``): the signing key's id and the hex Ed25519 signature.
    key_id: str = ""
    signature: str = ""
    # A tournament game (``tournament_id`` not ""): announced by the tournaments service, its
    # table id ``<tournament_id>:<round>:<table>``; the match has the tournament's clock and its
    # computer seats play at ``strengths`` (beside ``bots``; "": the game's default strength).
    tournament_id: str = ""
    time_control: TimeControl | None = None
    strengths: tuple[str, ...] = ()


class RatingsRevised(msgspec.Struct, frozen=True, kw_only=True, tag="integration.ratings_revised.v1"):
    """A ruling changed the result of a rated match: scoring recomputed every rating of its
    (game, preset family, model) over the amended history, and these are that group's rating
    updates, in the order scoring applies matches (voided matches left out).

    Published by scoring on the rating subject, in order with ``RatingApplied``, so the
    leaderboard replaces the group's standings with them: the first part (``part == 0``) resets
    the group, every part applies its ``applied`` as ``RatingApplied`` events.  A long history
    comes in several parts (``parts``)."""

    dispute_id: str
    match_id: str
    game: str
    family: str
    model: str
    part: int
    parts: int
    applied: tuple[RatingApplied, ...]
    revised_at: int


IntegrationEvent = MatchStarted | MatchFinished | RatingApplied | TableFormed | RatingsRevised
