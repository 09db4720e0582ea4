"""The match layer's decide and evolve: match-level commands here, game commands by the game."""

from __future__ import annotations

from typing import Any

import msgspec

from contracts.envelope import Rejected
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
from domain.core.match.claims import ABANDON, TIMEOUT, decide_claim, decide_expire
from domain.core.match.clocks import clock_after, out_of_time
from domain.core.match.create import decide_create
from domain.core.match.state import (
    MATCH_COMMAND_TYPES,
    MatchState,
    ending,
    game_events_and_end,
    is_match_event,
)


def decide(
    game: Decider[Any, Any, Any, Any, Any],
    state: MatchState | None,
    seat: str | None,
    command: Any,
    server_seed: bytes | None = None,
    at: int | None = None,
) -> tuple[Any, ...] | Rejected:
    """Decide any command for a match: match-layer commands here, game commands by the game.

    ``at`` is the time of the decision (the envelope's ``recorded_at``): with a clock, a game
    move of a seat whose deadline has passed is refused (``out_of_time``)."""
    if isinstance(command, CreateMatch):
        if state is not None:
            return Rejected(code="match_exists", detail="the match already exists")
        return decide_create(game, command)
    if state is None:
        return Rejected(code="match_not_found", detail="no such match")
    if state.outcome is not None:
        return Rejected(code="match_over", detail="the match is over")
    seats = state.created.seats
    if isinstance(command, ExpireIdle):
        return decide_expire(game, state, seat, command, server_seed)
    if isinstance(command, ClaimTimeout):
        return decide_claim(game, state, seat, command, server_seed, TIMEOUT)
    if isinstance(command, ClaimAbandon):
        return decide_claim(game, state, seat, command, server_seed, ABANDON)
    if seat is None or seat not in seats:
        return Rejected(code="not_a_seat", detail=f"seat must be one of {list(seats)}")
    if isinstance(command, Resign):
        if game.resign is not None:
            return _resign_in_game(game, state, seat, server_seed)
        # The resigning seat is last; the others share first place.
        ranks = tuple(len(seats) if s == seat else 1 for s in seats)
        return (
            Resigned(seat=seat),
            *ending(game, state, Outcome(ranks=ranks, reason="resignation"), server_seed),
        )
    if isinstance(command, (OfferDraw, AcceptDraw, DeclineDraw)):
        return _decide_draw(game, state, seat, command, server_seed)
    late = out_of_time(state, seat, at)
    if late is not None:
        return late
    decided = _decide_game(game, state, seat, command, server_seed)
    return decided if isinstance(decided, Rejected) else decided[0]


def _decide_draw(
    game: Decider[Any, Any, Any, Any, Any],
    state: MatchState,
    seat: str,
    command: OfferDraw | AcceptDraw | DeclineDraw,
    server_seed: bytes | None,
) -> tuple[Any, ...] | Rejected:
    """A draw offer, its acceptance (the match ends when every seat agrees) or its refusal."""
    seats = state.created.seats
    if not game.draw_offers:  # a table helper judges no result (Kings Cup): nothing to agree a draw on
        return Rejected(
            code="no_draws_at_helper", detail=f"{game.name} is a table helper: it has no draw offers"
        )
    if isinstance(command, OfferDraw):
        if state.draw_offer is not None:
            return Rejected(
                code="draw_already_offered", detail=f"{state.draw_offer} has offered a draw already"
            )
        events: tuple[Any, ...] = (DrawOffered(seat=seat),)
        if len(seats) == 1:
            events += ending(game, state, _draw(seats), server_seed)
        return events
    if isinstance(command, AcceptDraw):
        if state.draw_offer is None or state.draw_offer == seat or seat in state.draw_agreed:
            return Rejected(code="no_draw_offer", detail="there is no draw offer for you to accept")
        agreed = {state.draw_offer, *state.draw_agreed, seat}
        accepted: tuple[Any, ...] = (DrawAccepted(seat=seat),)
        if agreed >= set(seats):
            accepted += ending(game, state, _draw(seats), server_seed)
        return accepted
    if state.draw_offer is None or state.draw_offer == seat:
        return Rejected(code="no_draw_offer", detail="there is no draw offer for you to decline")
    return (DrawDeclined(seat=seat),)


def _resign_in_game(
    game: Decider[Any, Any, Any, Any, Any], state: MatchState, seat: str, server_seed: bytes | None
) -> tuple[Any, ...] | Rejected:
    """RESIGN decided by the game (``Decider.resign``): ``Resigned``, the game's events, and the
    match's end if the game is then over."""
    assert game.resign is not None
    result = game.resign(state.game_state, seat)
    if isinstance(result, Rejected):
        return result
    events, _ = game_events_and_end(game, state, tuple(result), server_seed)
    return (Resigned(seat=seat), *events)


def _decide_game(
    game: Decider[Any, Any, Any, Any, Any],
    state: MatchState,
    seat: str,
    command: Any,
    server_seed: bytes | None,
) -> tuple[tuple[Any, ...], Any] | Rejected:
    """A game command: its events (plus the match's end when the game ends) and the game state after."""
    result = game.decide(state.game_state, seat, command)
    if isinstance(result, Rejected):
        return result
    return game_events_and_end(game, state, tuple(result), server_seed)


def decide_and_evolve(
    game: Decider[Any, Any, Any, Any, Any],
    state: MatchState | None,
    seat: str | None,
    command: Any,
    server_seed: bytes | None = None,
    at: int | None = None,
) -> tuple[tuple[Any, ...], MatchState] | Rejected:
    """``decide`` and the state after its events, without folding the game's events twice
    (the referee's hot path); with ``at`` (the decision's ``recorded_at``) the clocks advance."""
    if (
        state is None
        or state.outcome is not None
        or isinstance(command, MATCH_COMMAND_TYPES)
        or (seat is None or seat not in state.created.seats)
    ):
        events = decide(game, state, seat, command, server_seed, at)
        if isinstance(events, Rejected):
            return events
        after_state = state
        for event in events:
            after_state = evolve(game, after_state, event, server_seed)
        assert after_state is not None
    else:
        late = out_of_time(state, seat, at)
        if late is not None:
            return late
        decided = _decide_game(game, state, seat, command, server_seed)
        if isinstance(decided, Rejected):
            return decided
        events, game_after = decided
        after_state = msgspec.structs.replace(state, game_state=game_after, draw_offer=None, draw_agreed=())
        for event in events:
            if is_match_event(event):
                after_state = evolve(game, after_state, event, server_seed)
    if at is None:
        return events, after_state
    return events, clock_after(game, state, after_state, seat, events, at)


def _draw(seats: tuple[str, ...]) -> Outcome:
    return Outcome(ranks=tuple(1 for _ in seats), reason="draw agreed", draw=True)


def evolve(
    game: Decider[Any, Any, Any, Any, Any],
    state: MatchState | None,
    event: Any,
    server_seed: bytes | None = None,
) -> MatchState:
    if isinstance(event, MatchCreated):
        ruleset = msgspec.convert(event.ruleset, game.ruleset_type)
        return MatchState(
            created=event,
            ruleset=ruleset,
            game_state=game.initial_state(ruleset, event.seats, server_seed),
        )
    if state is None:
        raise ValueError(f"event {type(event).__name__} before MatchCreated")
    if isinstance(event, MatchEnded):
        return msgspec.structs.replace(state, outcome=event.outcome, draw_offer=None, draw_agreed=())
    if isinstance(event, DrawOffered):
        return msgspec.structs.replace(state, draw_offer=event.seat, draw_agreed=())
    if isinstance(event, DrawAccepted):
        return msgspec.structs.replace(state, draw_agreed=(*state.draw_agreed, event.seat))
    if isinstance(event, DrawDeclined):
        return msgspec.structs.replace(state, draw_offer=None, draw_agreed=())
    if isinstance(event, SeatHandedToBot):
        return msgspec.structs.replace(state, bots=(*state.bots, (event.seat, event.token_hash)))
    if isinstance(event, (Resigned, ServerSeedRevealed, MatchAbandoned, TimedOut, SeatAbandoned)):
        return state
    # A game event: a move lets any pending draw offer lapse.
    return msgspec.structs.replace(
        state, game_state=game.evolve(state.game_state, event), draw_offer=None, draw_agreed=()
    )


def redact(game: Decider[Any, Any, Any, Any, Any], event: Any, viewer: str | None) -> Any | None:
    if is_match_event(event):
        return event
    return game.redact(event, viewer)
