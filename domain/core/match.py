"""The match layer: a decider composed around any game (seating, resignation, draws, the end).

Games never see these commands; the match layer never looks inside a game's state except
through the game's Decider functions.
"""

from __future__ import annotations

import hashlib
from typing import Any

import msgspec

from contracts.envelope import Rejected
from contracts.match import (
    AcceptDraw,
    CreateMatch,
    DeclineDraw,
    DrawAccepted,
    DrawDeclined,
    DrawOffered,
    ExpireIdle,
    LegalMove,
    MatchAbandoned,
    MatchCreated,
    MatchEnded,
    MatchView,
    OfferDraw,
    Outcome,
    Resign,
    Resigned,
    ServerSeedRevealed,
)
from domain.core.decider import Decider

MATCH_COMMAND_TYPES = (CreateMatch, Resign, OfferDraw, AcceptDraw, DeclineDraw, ExpireIdle)
MATCH_EVENT_TYPES = (
    MatchCreated,
    Resigned,
    DrawOffered,
    DrawAccepted,
    DrawDeclined,
    MatchEnded,
    ServerSeedRevealed,
    MatchAbandoned,
)


class MatchState(msgspec.Struct, frozen=True, kw_only=True):
    created: MatchCreated
    ruleset: Any
    game_state: Any
    outcome: Outcome | None = None
    draw_offer: str | None = None
    draw_agreed: tuple[str, ...] = ()


def ruleset_hash(ruleset: dict[str, Any]) -> str:
    return hashlib.sha256(msgspec.json.encode(ruleset, order="sorted")).hexdigest()


def check_ruleset(game: Decider[Any, Any, Any, Any, Any], data: Any, seats: int) -> Any:
    """Ruleset parameters (builtins) for ``seats`` seats -> the validated ruleset struct, or Rejected.

    The one validation of a ruleset: the gateway calls it (through ``resolve_ruleset``) to answer a
    bad request at once, and ``decide_create`` calls it again on the command it decides."""
    if not game.min_seats <= seats <= game.max_seats:
        return Rejected(
            code="invalid_seats", detail=f"{game.name} takes {game.min_seats}-{game.max_seats} seats, got {seats}"
        )
    try:
        ruleset = msgspec.convert(data, game.ruleset_type)
    except (msgspec.ValidationError, ValueError) as exc:
        return Rejected(code="invalid_ruleset", detail=str(exc))
    problem = game.validate(ruleset, seats)
    if problem:
        # A ruleset that some other seat count can play is refused for its seats.
        playable = any(
            game.validate(ruleset, n) is None for n in range(game.min_seats, game.max_seats + 1) if n != seats
        )
        return Rejected(code="invalid_seats" if playable else "invalid_ruleset", detail=problem)
    return ruleset


def default_seats(game: Decider[Any, Any, Any, Any, Any], ruleset: Any | None = None) -> int:
    """The fewest seats ``ruleset`` (the default preset's when None) can be played with: the seat
    count used when a caller names none (a 4-player King preset needs 4 of King's 3-4 seats)."""
    if ruleset is None:
        ruleset = game.presets[game.default_preset].ruleset
    for n in range(game.min_seats, game.max_seats + 1):
        if game.validate(ruleset, n) is None:
            return n
    return game.min_seats


def default_seats_of(game: Decider[Any, Any, Any, Any, Any], preset: str | None) -> int:
    """``default_seats`` of a preset by name (the fewest seats when the preset is unknown)."""
    base = game.presets.get(preset or game.default_preset)
    return game.min_seats if base is None else default_seats(game, base.ruleset)


def resolve_ruleset(
    game: Decider[Any, Any, Any, Any, Any], preset: str, overrides: dict[str, Any], seats: int | None = None
) -> Any:
    """Preset + overrides for ``seats`` seats (by default the fewest the preset plays with) -> a
    validated ruleset struct, or Rejected."""
    base = game.presets.get(preset)
    if base is None:
        return Rejected(
            code="unknown_preset",
            detail=f"{game.name} has no preset {preset!r}; known: {', '.join(sorted(game.presets))}",
        )
    data = msgspec.to_builtins(base.ruleset)
    unknown = sorted(set(overrides) - set(data))
    if unknown:
        return Rejected(code="invalid_ruleset", detail=f"unknown ruleset parameter(s): {', '.join(unknown)}")
    data.update(overrides)
    return check_ruleset(game, data, default_seats(game, base.ruleset) if seats is None else seats)


def decide_create(game: Decider[Any, Any, Any, Any, Any], cmd: CreateMatch) -> tuple[MatchCreated] | Rejected:
    meta = game
    if cmd.preset not in meta.presets:
        return Rejected(code="unknown_preset", detail=f"{meta.name} has no preset {cmd.preset!r}")
    n = len(cmd.seats)
    ruleset = check_ruleset(game, cmd.ruleset, n)
    if isinstance(ruleset, Rejected):
        return ruleset
    if len(set(cmd.seats)) != n or len(cmd.players) != n or len(cmd.token_hashes) != n:
        return Rejected(
            code="invalid_seats", detail="seats must be distinct, with one player and one token each"
        )
    if tuple(cmd.seats) != meta.seat_names(n):
        return Rejected(code="invalid_seats", detail=f"seats must be {list(meta.seat_names(n))}")
    if not set(cmd.guests) <= set(cmd.seats) or len(set(cmd.guests)) != len(cmd.guests):
        return Rejected(code="invalid_seats", detail="guests must be distinct seats of the match")
    if meta.chance and not cmd.seed_commitment:
        return Rejected(code="invalid_seed", detail="a game with chance needs a seed commitment")
    canonical = msgspec.json.decode(msgspec.json.encode(ruleset))  # JSON-shaped: lists, not tuples
    return (
        MatchCreated(
            game=meta.name,
            rules_version=meta.rules_version,
            preset=cmd.preset,
            ruleset=canonical,
            ruleset_hash=ruleset_hash(canonical),
            seats=tuple(cmd.seats),
            players=tuple(cmd.players),
            token_hashes=tuple(cmd.token_hashes),
            seed_commitment=cmd.seed_commitment,
            ranked=cmd.ranked and not game.helper,  # a table helper is never rated
            guests=tuple(cmd.guests),
        ),
    )


def decide(
    game: Decider[Any, Any, Any, Any, Any],
    state: MatchState | None,
    seat: str | None,
    command: Any,
    server_seed: bytes | None = None,
) -> tuple[Any, ...] | Rejected:
    """Decide any command for a match: match-layer commands here, game commands by the game."""
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
        return _expire(game, state, seat, command, server_seed)
    if seat is None or seat not in seats:
        return Rejected(code="not_a_seat", detail=f"seat must be one of {list(seats)}")
    if isinstance(command, Resign):
        if game.resign is not None:
            return _resign_in_game(game, state, seat, server_seed)
        # The resigning seat is last; the others share first place.
        ranks = tuple(len(seats) if s == seat else 1 for s in seats)
        return (
            Resigned(seat=seat),
            *_ending(game, state, Outcome(ranks=ranks, reason="resignation"), server_seed),
        )
    if isinstance(command, OfferDraw):
        if state.draw_offer is not None:
            return Rejected(
                code="draw_already_offered", detail=f"{state.draw_offer} has offered a draw already"
            )
        events: tuple[Any, ...] = (DrawOffered(seat=seat),)
        if len(seats) == 1:
            events += _ending(game, state, _draw(seats), server_seed)
        return events
    if isinstance(command, AcceptDraw):
        if state.draw_offer is None or state.draw_offer == seat or seat in state.draw_agreed:
            return Rejected(code="no_draw_offer", detail="there is no draw offer for you to accept")
        agreed = {state.draw_offer, *state.draw_agreed, seat}
        accepted: tuple[Any, ...] = (DrawAccepted(seat=seat),)
        if agreed >= set(seats):
            accepted += _ending(game, state, _draw(seats), server_seed)
        return accepted
    if isinstance(command, DeclineDraw):
        if state.draw_offer is None or state.draw_offer == seat:
            return Rejected(code="no_draw_offer", detail="there is no draw offer for you to decline")
        return (DrawDeclined(seat=seat),)
    decided = _decide_game(game, state, seat, command, server_seed)
    return decided if isinstance(decided, Rejected) else decided[0]


def _expire(
    game: Decider[Any, Any, Any, Any, Any],
    state: MatchState,
    seat: str | None,
    command: ExpireIdle,
    server_seed: bytes | None,
) -> tuple[Any, ...] | Rejected:
    """The abandonment rule (docs/audit.md): a match with no decision for ``limit_ms`` ends; the
    seats that were to move rank last, the others share first place; when every seat (or none)
    was to move, nobody is to blame and it is a draw.  Reason ``abandoned``."""
    if seat is not None:
        return Rejected(code="not_a_seat", detail="expire_idle is a platform command, never a seat's")
    idle_ms = command.at - command.last_decision_at
    if command.limit_ms <= 0 or idle_ms < command.limit_ms:
        return Rejected(code="not_idle", detail=f"idle for {idle_ms} ms, the limit is {command.limit_ms} ms")
    seats = state.created.seats
    idle = tuple(s for s in seats if s in set(to_move(game, state)))
    if idle and len(idle) < len(seats):
        outcome = Outcome(ranks=tuple(2 if s in idle else 1 for s in seats), reason="abandoned")
    else:
        outcome = Outcome(ranks=tuple(1 for _ in seats), reason="abandoned", draw=True)
    return (MatchAbandoned(idle_seats=idle, idle_ms=idle_ms), *_ending(game, state, outcome, server_seed))


def _resign_in_game(
    game: Decider[Any, Any, Any, Any, Any], state: MatchState, seat: str, server_seed: bytes | None
) -> tuple[Any, ...] | Rejected:
    """RESIGN decided by the game (``Decider.resign``): ``Resigned``, the game's events, and the
    match's end if the game is then over."""
    assert game.resign is not None
    result = game.resign(state.game_state, seat)
    if isinstance(result, Rejected):
        return result
    after = state.game_state
    for event in result:
        after = game.evolve(after, event)
    events: tuple[Any, ...] = (Resigned(seat=seat), *result)
    outcome = game.outcome(after)
    if outcome is not None:
        events += _ending(game, state, outcome, server_seed)
    return events


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
    after = state.game_state
    for event in result:
        after = game.evolve(after, event)
    outcome = game.outcome(after)
    if outcome is None:
        return tuple(result), after
    return (*result, *_ending(game, state, outcome, server_seed)), after


def decide_and_evolve(
    game: Decider[Any, Any, Any, Any, Any],
    state: MatchState | None,
    seat: str | None,
    command: Any,
    server_seed: bytes | None = None,
) -> tuple[tuple[Any, ...], MatchState] | Rejected:
    """``decide`` and the state after its events, without folding the game's events twice
    (the referee's hot path)."""
    if (
        state is None
        or state.outcome is not None
        or isinstance(command, MATCH_COMMAND_TYPES)
        or (seat is None or seat not in state.created.seats)
    ):
        events = decide(game, state, seat, command, server_seed)
        if isinstance(events, Rejected):
            return events
        after_state = state
        for event in events:
            after_state = evolve(game, after_state, event, server_seed)
        assert after_state is not None
        return events, after_state
    decided = _decide_game(game, state, seat, command, server_seed)
    if isinstance(decided, Rejected):
        return decided
    events, game_after = decided
    new_state = msgspec.structs.replace(state, game_state=game_after, draw_offer=None, draw_agreed=())
    for event in events:
        if is_match_event(event):
            new_state = evolve(game, new_state, event, server_seed)
    return events, new_state


def _draw(seats: tuple[str, ...]) -> Outcome:
    return Outcome(ranks=tuple(1 for _ in seats), reason="draw agreed", draw=True)


def _ending(
    game: Decider[Any, Any, Any, Any, Any], state: MatchState, outcome: Outcome, server_seed: bytes | None
) -> tuple[Any, ...]:
    events: tuple[Any, ...] = (MatchEnded(outcome=outcome),)
    if game.chance and server_seed is not None:
        events += (ServerSeedRevealed(server_seed=server_seed.hex()),)
    return events


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
    if isinstance(event, (Resigned, ServerSeedRevealed, MatchAbandoned)):
        return state
    # A game event: a move lets any pending draw offer lapse.
    return msgspec.structs.replace(
        state, game_state=game.evolve(state.game_state, event), draw_offer=None, draw_agreed=()
    )


def is_match_event(event: Any) -> bool:
    return isinstance(event, MATCH_EVENT_TYPES)


def redact(game: Decider[Any, Any, Any, Any, Any], event: Any, viewer: str | None) -> Any | None:
    if is_match_event(event):
        return event
    return game.redact(event, viewer)


def to_move(game: Decider[Any, Any, Any, Any, Any], state: MatchState) -> tuple[str, ...]:
    if state.outcome is not None:
        return ()
    movers = game.to_move(state.game_state)
    return tuple(s for s in state.created.seats if s in movers)


def view(
    game: Decider[Any, Any, Any, Any, Any], state: MatchState, viewer: str | None, match_id: str, seq: int
) -> MatchView:
    created = state.created
    movers = to_move(game, state)
    legal: tuple[LegalMove, ...] = ()
    if viewer is not None and viewer in movers:
        legal = tuple(
            LegalMove(label=game.describe(cmd), command=cmd) for cmd in game.legal_commands(state.game_state, viewer)
        )
    return MatchView(
        match_id=match_id,
        game=created.game,
        preset=created.preset,
        rules_version=created.rules_version,
        seats=created.seats,
        players=created.players,
        viewer=viewer,
        seq=seq,
        ruleset=created.ruleset,
        to_move=movers,
        status="finished" if state.outcome is not None else "running",
        outcome=state.outcome,
        draw_offer=state.draw_offer,
        game_view=game.view(state.game_state, viewer),
        legal_moves=legal,
    )
