"""The match's state and the match layer's own command and event types."""

from __future__ import annotations

from typing import Any

import msgspec

from contracts.match import (
    AcceptDraw,
    ClaimAbandon,
    ClaimTimeout,
    CreateMatch,
    DeclineDraw,
    DrawAccepted,
    DrawDeclined,
    DrawOffered,
    ExpireIdle,
    MatchAbandoned,
    MatchCreated,
    MatchEnded,
    OfferDraw,
    Outcome,
    Resign,
    Resigned,
    SeatAbandoned,
    SeatHandedToBot,
    ServerSeedRevealed,
    TimedOut,
)
from domain.core.decider import Decider

MATCH_COMMAND_TYPES = (
    CreateMatch,
    Resign,
    OfferDraw,
    AcceptDraw,
    DeclineDraw,
    ExpireIdle,
    ClaimTimeout,
    ClaimAbandon,
)
MATCH_EVENT_TYPES = (
    MatchCreated,
    Resigned,
    DrawOffered,
    DrawAccepted,
    DrawDeclined,
    MatchEnded,
    ServerSeedRevealed,
    MatchAbandoned,
    TimedOut,
    SeatAbandoned,
    SeatHandedToBot,
)
ON_TIMEOUT = ("", "forfeit", "bot")


class Clock(msgspec.Struct, frozen=True, kw_only=True):
    """The clocks after the last decision, derived only from the log's ``recorded_at`` stamps:
    ``remaining_ms`` per seat (in seat order) as of ``since`` (that decision's stamp), and the
    seats whose clock runs from then on (the seats to move).  ``idle_ms`` per seat: how long it
    has been to move, in all, since its last own command (abandonment after ``grace_s``)."""

    remaining_ms: tuple[int, ...]
    since: int
    running: tuple[str, ...]
    idle_ms: tuple[int, ...] = ()
    # The seats the platform acted for (``timed_out.v1``) since their own last command, in seat
    # order: gone by the log's own measure, though not yet past ``grace_s``.
    timed_out: tuple[str, ...] = ()


class MatchState(msgspec.Struct, frozen=True, kw_only=True):
    created: MatchCreated
    ruleset: Any
    game_state: Any
    outcome: Outcome | None = None
    draw_offer: str | None = None
    draw_agreed: tuple[str, ...] = ()
    clock: Clock | None = None  # None: no time control (or folded without the decisions' stamps)
    # Seats handed to a computer player (``SeatHandedToBot``), with the hash of the token that acts
    # for each of them from then on.
    bots: tuple[tuple[str, str], ...] = ()


def is_match_event(event: Any) -> bool:
    return isinstance(event, MATCH_EVENT_TYPES)


def to_move(game: Decider[Any, Any, Any, Any, Any], state: MatchState) -> tuple[str, ...]:
    if state.outcome is not None:
        return ()
    movers = game.to_move(state.game_state)
    return tuple(s for s in state.created.seats if s in movers)


def ending(
    game: Decider[Any, Any, Any, Any, Any], state: MatchState, outcome: Outcome, server_seed: bytes | None
) -> tuple[Any, ...]:
    events: tuple[Any, ...] = (MatchEnded(outcome=outcome),)
    if game.chance and server_seed is not None:
        events += (ServerSeedRevealed(server_seed=server_seed.hex()),)
    return events


def game_events_and_end(
    game: Decider[Any, Any, Any, Any, Any],
    state: MatchState,
    game_events: tuple[Any, ...],
    server_seed: bytes | None,
) -> tuple[tuple[Any, ...], Any]:
    """The game's events decided in ``state``, followed by the match's end (``ending``) when the
    game is over after them, and the game state after them."""
    after = state.game_state
    for event in game_events:
        after = game.evolve(after, event)
    outcome = game.outcome(after)
    if outcome is None:
        return tuple(game_events), after
    return (*game_events, *ending(game, state, outcome, server_seed)), after
