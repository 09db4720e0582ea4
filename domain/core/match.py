"""The match layer: a decider composed around any game (seating, resignation, draws, the end).

Games never see these commands; the match layer never looks inside a game's state except
through the game's Decider functions.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable
from typing import Any, NamedTuple

import msgspec

from contracts.envelope import Rejected
from contracts.match import (
    AcceptDraw,
    ClaimAbandon,
    ClaimTimeout,
    ClockView,
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
    SeatAbandoned,
    SeatHandedToBot,
    ServerSeedRevealed,
    TimeControl,
    TimedOut,
)
from domain.core.decider import Decider
from domain.core.words import DEFAULT_LANG, Lang, Words, joined

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


def ruleset_hash(ruleset: dict[str, Any]) -> str:
    return hashlib.sha256(msgspec.json.encode(ruleset, order="sorted")).hexdigest()


def check_ruleset(game: Decider[Any, Any, Any, Any, Any], data: Any, seats: int) -> Any:
    """Ruleset parameters (builtins) for ``seats`` seats -> the validated ruleset struct, or Rejected.

    The one validation of a ruleset: the gateway calls it (through ``resolve_ruleset``) to answer a
    bad request at once, and ``decide_create`` calls it again on the command it decides."""
    if not game.min_seats <= seats <= game.max_seats:
        return Rejected(
            code="invalid_seats",
            detail=f"{game.name} takes {game.min_seats}-{game.max_seats} seats, got {seats}",
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
    problem = time_control_problem(cmd.time_control)
    if problem:
        return Rejected(code="invalid_time_control", detail=problem)
    if cmd.ranked and cmd.time_control is not None and cmd.time_control.on_timeout == "bot":
        return Rejected(
            code="invalid_time_control",
            detail='a ranked match always forfeits: on_timeout "bot" is for casual matches',
        )
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
            time_control=cmd.time_control,
            table=cmd.table,  # checked by the referee before (domain.matchmaking.provenance)
        ),
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
        return _expire(game, state, seat, command, server_seed)
    if isinstance(command, ClaimTimeout):
        return _claim(game, state, seat, command, server_seed, _TIMEOUT)
    if isinstance(command, ClaimAbandon):
        return _claim(game, state, seat, command, server_seed, _ABANDON)
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
    late = _out_of_time(state, seat, at)
    if late is not None:
        return late
    decided = _decide_game(game, state, seat, command, server_seed)
    return decided if isinstance(decided, Rejected) else decided[0]


# ---------------------------------------------------------------- clocks
def time_control_problem(tc: TimeControl | None) -> str | None:
    """What is wrong with a time control (a readable sentence), or None."""
    if tc is None:
        return None
    if not all(math.isfinite(v) for v in (tc.base_s, tc.increment_s, tc.move_s, tc.grace_s)):
        return "time control values must be finite numbers"
    if min(tc.base_s, tc.increment_s, tc.move_s) < 0:
        return "time control values must not be negative"
    if (tc.base_s > 0) == (tc.move_s > 0):
        return "a time control has either base_s (Fischer, with increment_s) or move_s (per move)"
    if tc.move_s > 0 and tc.increment_s:
        return "increment_s goes with base_s, not with move_s"
    if max(tc.base_s, tc.move_s, tc.grace_s) > 30 * 86_400 or tc.increment_s > 86_400:
        return "time control values are limited to 30 days (increment: 1 day)"
    if tc.grace_s < 0:
        return "grace_s must not be negative"
    if tc.on_timeout not in ON_TIMEOUT:
        return 'on_timeout is "forfeit" or "bot"'
    return None


def seat_token_hash(state: MatchState, seat: str) -> str:
    """The hash of the token that acts for ``seat`` now (a computer player's after a handover)."""
    for handed, token in reversed(state.bots):
        if handed == seat:
            return token
    return state.created.token_hashes[state.created.seats.index(seat)]


def bot_seats(state: MatchState) -> tuple[str, ...]:
    return tuple(dict.fromkeys(s for s, _ in state.bots))


def hands_to_bot(state: MatchState, seat: str) -> bool:
    """Whether a timeout or abandonment of ``seat`` hands it to a computer player (a casual match
    with ``on_timeout = "bot"``, a seat not handed over already) instead of the game's rule."""
    tc = state.created.time_control
    return (
        tc is not None
        and tc.on_timeout == "bot"
        and not state.created.ranked
        and seat not in bot_seats(state)
    )


def abandon_deadline(state: MatchState, seat: str) -> int | None:
    """When ``seat`` is abandoned if it sends nothing (unix ms), or None: no ``grace_s``, or the
    seat is not to move."""
    clock, tc = state.clock, state.created.time_control
    if (
        clock is None
        or tc is None
        or not tc.grace_s
        or state.outcome is not None
        or seat not in clock.running
    ):
        return None
    i = state.created.seats.index(seat)
    idle = clock.idle_ms[i] if clock.idle_ms else 0
    return clock.since + int(tc.grace_s * 1000) - idle


def abandon_deadlines(state: MatchState) -> dict[str, int]:
    out = {}
    for seat in state.created.seats:
        due = abandon_deadline(state, seat)
        if due is not None:
            out[seat] = due
    return out


def deadline(state: MatchState, seat: str) -> int | None:
    """When ``seat``'s clock runs out (unix ms), or None when it does not run."""
    clock = state.clock
    if clock is None or state.outcome is not None or seat not in clock.running:
        return None
    return clock.since + clock.remaining_ms[state.created.seats.index(seat)]


def deadlines(state: MatchState) -> dict[str, int]:
    """Every running clock's deadline, by seat."""
    out = {}
    for seat in state.created.seats:
        due = deadline(state, seat)
        if due is not None:
            out[seat] = due
    return out


def _out_of_time(state: MatchState, seat: str, at: int | None) -> Rejected | None:
    due = deadline(state, seat)
    if at is None or due is None or at < due:
        return None
    return Rejected(code="out_of_time", detail=f"{seat}'s time ran out at {due}; the move came at {at}")


def clock_after(
    game: Decider[Any, Any, Any, Any, Any],
    before: MatchState | None,
    after: MatchState,
    seat: str | None,
    events: Any,
    at: int,
) -> MatchState:
    """``after`` with its clocks advanced over one decision stamped ``at`` (docs/audit.md "Clocks").

    Every running clock is charged the time since the last decision.  The seat that made a game
    move (or timed out) then gets its increment (Fischer) or a fresh ``move_s`` (per move); a seat
    that starts a turn under ``move_s`` gets a fresh ``move_s``.  The clocks that run next are
    the seats to move.  Every running seat's idle time grows by the same time, and a seat that
    sent the decision's command (any command of its own) is idle no more.  A seat handed to a
    computer player starts afresh: a full ``base_s`` (or ``move_s``), idle 0."""
    tc = after.created.time_control
    if tc is None:
        return after
    seats = after.created.seats
    running = to_move(game, after)
    move_ms = int(tc.move_s * 1000)
    initial = move_ms if tc.move_s else int(tc.base_s * 1000)
    if before is None or before.clock is None:
        return msgspec.structs.replace(
            after,
            clock=Clock(
                remaining_ms=tuple(initial for _ in seats),
                since=at,
                running=running,
                idle_ms=tuple(0 for _ in seats),
            ),
        )
    clock = before.clock
    elapsed = max(0, at - clock.since)
    remaining = list(clock.remaining_ms)
    idle = list(clock.idle_ms) if clock.idle_ms else [0 for _ in seats]
    for s in clock.running:
        remaining[seats.index(s)] -= elapsed
        idle[seats.index(s)] += elapsed
    if seat is not None and seat in seats:
        idle[seats.index(seat)] = 0
    timed_out = next((e.seat for e in events if isinstance(e, TimedOut)), None)
    actor = timed_out or (seat if any(not is_match_event(e) for e in events) else None)
    if actor is not None and actor in clock.running:
        i = seats.index(actor)
        if timed_out is not None:
            remaining[i] = max(0, remaining[i])
        if tc.move_s:
            remaining[i] = move_ms
        else:
            remaining[i] += int(tc.increment_s * 1000)
    if tc.move_s:
        for s in running:
            if s not in clock.running:
                remaining[seats.index(s)] = move_ms
    for e in events:
        if isinstance(e, SeatHandedToBot):
            remaining[seats.index(e.seat)] = initial
            idle[seats.index(e.seat)] = 0
    return msgspec.structs.replace(
        after, clock=Clock(remaining_ms=tuple(remaining), since=at, running=running, idle_ms=tuple(idle))
    )


def _handover(
    game: Decider[Any, Any, Any, Any, Any], seat: str, token_hash: str
) -> tuple[SeatHandedToBot] | Rejected:
    if len(token_hash) != 64:
        return Rejected(code="malformed", detail="a seat handed to a computer player needs bot_token_hash")
    return (SeatHandedToBot(seat=seat, strength=game.default_bot, token_hash=token_hash),)


# A game's rule for one seat: its events, an outcome to end the match with, or a refusal.
_SeatRule = Callable[[Any, str], tuple[Any, ...] | Outcome | Rejected]


class _Claim(NamedTuple):
    """What a platform claim that a seat is past a deadline checks, records and falls back to."""

    name: str  # the command, in refusals
    due_of: Callable[[MatchState, str], int | None]  # the seat's deadline, None when it has none
    due_text: str  # the deadline in words, for a refusal of a claim that is not due
    event_type: type[TimedOut] | type[SeatAbandoned]
    rule_of: Callable[[Decider[Any, Any, Any, Any, Any]], _SeatRule | None]  # the game's rule, if any
    reason: str  # the end reason of the loss when the game has no rule


# A seat's clock ran out: ``TimedOut``, then the game's timeout rule (``Decider.timeout``: the
# game's events, e.g. an auto-act) or, for a game without one, the seat loses on time.
_TIMEOUT = _Claim(
    name="claim_timeout",
    due_of=deadline,
    due_text="{seat}'s clock runs out at {due}",
    event_type=TimedOut,
    rule_of=lambda game: game.timeout,
    reason="timeout",
)
# A seat sent nothing while to move for ``grace_s``: ``SeatAbandoned``, then the game's
# abandonment rule (``Decider.abandon``: the game's events, or the outcome it ends with) or, for
# a game without one, the seat loses.
_ABANDON = _Claim(
    name="claim_abandon",
    due_of=abandon_deadline,
    due_text="{seat} is abandoned at {due}",
    event_type=SeatAbandoned,
    rule_of=lambda game: game.abandon,
    reason="abandoned",
)


def _claim(
    game: Decider[Any, Any, Any, Any, Any],
    state: MatchState,
    seat: str | None,
    command: ClaimTimeout | ClaimAbandon,
    server_seed: bytes | None,
    claim: _Claim,
) -> tuple[Any, ...] | Rejected:
    """A platform command claiming that ``command.seat`` is past its deadline: the claim's event,
    then the handover to a computer player (casual, ``on_timeout = "bot"``), the game's rule (its
    events, or an outcome to end with) or, without one, the seat ranks last and the others share
    first place (the claim's reason)."""
    if seat is not None:
        return Rejected(code="not_a_seat", detail=f"{claim.name} is a platform command, never a seat's")
    if command.seat not in state.created.seats:
        return Rejected(code="not_a_seat", detail=f"seat must be one of {list(state.created.seats)}")
    due = claim.due_of(state, command.seat)
    if due is None or due != command.deadline or command.at < due:
        due_text = claim.due_text.format(seat=command.seat, due=due)
        return Rejected(
            code="not_due", detail=f"{due_text}, not at {command.deadline} (claimed at {command.at})"
        )
    events: tuple[Any, ...] = (claim.event_type(seat=command.seat, deadline=command.deadline, at=command.at),)
    if hands_to_bot(state, command.seat):
        handed = _handover(game, command.seat, command.bot_token_hash)
        return handed if isinstance(handed, Rejected) else (*events, *handed)
    rule = claim.rule_of(game)
    if rule is not None:
        result = rule(state.game_state, command.seat)
        if isinstance(result, Rejected):
            return result
        if isinstance(result, Outcome):
            return (*events, *_ending(game, state, result, server_seed))
        after = state.game_state
        for game_event in result:
            after = game.evolve(after, game_event)
        events += tuple(result)
        outcome = game.outcome(after)
        if outcome is not None:
            events += _ending(game, state, outcome, server_seed)
        return events
    seats = state.created.seats
    ranks = tuple(len(seats) if s == command.seat else 1 for s in seats)
    return (*events, *_ending(game, state, Outcome(ranks=ranks, reason=claim.reason), server_seed))


def _expire(
    game: Decider[Any, Any, Any, Any, Any],
    state: MatchState,
    seat: str | None,
    command: ExpireIdle,
    server_seed: bytes | None,
) -> tuple[Any, ...] | Rejected:
    """The abandonment rule (docs/audit.md): a match with no decision for ``limit_ms`` ends; the
    seats that were to move rank last, the others share first place; when every seat (or none)
    was to move, nobody is to blame and it is a draw.  Reason ``abandoned``.  A game whose
    abandonment rule is an Outcome (``Decider.abandon``, King's K16) gives the outcome itself."""
    if seat is not None:
        return Rejected(code="not_a_seat", detail="expire_idle is a platform command, never a seat's")
    idle_ms = command.at - command.last_decision_at
    if command.limit_ms <= 0 or idle_ms < command.limit_ms:
        return Rejected(code="not_idle", detail=f"idle for {idle_ms} ms, the limit is {command.limit_ms} ms")
    seats = state.created.seats
    idle = tuple(s for s in seats if s in set(to_move(game, state)))
    ruled = (
        game.abandon(state.game_state, idle[0] if idle else seats[0]) if game.abandon is not None else None
    )
    if isinstance(ruled, Outcome):
        # a game whose abandonment rule is an outcome of its own (King's K16: aborted, no ranks)
        # ends an idle match with it as well
        outcome = ruled
    elif idle and len(idle) < len(seats):
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
    at: int | None = None,
) -> tuple[tuple[Any, ...], MatchState] | Rejected:
    """``decide`` and the state after its events, without folding the game's events twice
    (the referee's hot path); with ``at`` (the decision's ``recorded_at``) the clocks advance."""
    decided = _decide_and_evolve(game, state, seat, command, server_seed, at)
    if isinstance(decided, Rejected) or at is None:
        return decided
    events, after = decided
    return events, clock_after(game, state, after, seat, events, at)


def _decide_and_evolve(
    game: Decider[Any, Any, Any, Any, Any],
    state: MatchState | None,
    seat: str | None,
    command: Any,
    server_seed: bytes | None,
    at: int | None,
) -> tuple[tuple[Any, ...], MatchState] | Rejected:
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
        return events, after_state
    late = _out_of_time(state, seat, at)
    if late is not None:
        return late
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
    if isinstance(event, SeatHandedToBot):
        return msgspec.structs.replace(state, bots=(*state.bots, (event.seat, event.token_hash)))
    if isinstance(event, (Resigned, ServerSeedRevealed, MatchAbandoned, TimedOut, SeatAbandoned)):
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
    game: Decider[Any, Any, Any, Any, Any],
    state: MatchState,
    viewer: str | None,
    match_id: str,
    seq: int,
    lang: Lang = DEFAULT_LANG,
) -> MatchView:
    """``viewer``'s view of the match, its sentences (the end reason, a game's warnings) in ``lang``."""
    created = state.created
    movers = to_move(game, state)
    legal: tuple[LegalMove, ...] = ()
    if viewer is not None and viewer in movers:
        legal = tuple(
            LegalMove(label=game.describe(cmd, lang), command=cmd)
            for cmd in game.legal_commands(state.game_state, viewer)
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
        game_view=game.view(state.game_state, viewer)
        if game.view_in is None
        else game.view_in(state.game_state, viewer, lang),
        legal_moves=legal,
        clock=clock_view(state),
        outcome_text=outcome_text(game, state, lang),
    )


def seat_names_in_words(state: MatchState) -> dict[str, str]:
    """Seat -> how a sentence names it: the player's name, with the seat when they differ."""
    created = state.created
    return {
        s: s if not p or p == s else f"{p} ({s})" for s, p in zip(created.seats, created.players, strict=True)
    }


WORDS = Words(
    en={
        "head.helper": "Game over",
        "head.draw": "Draw",
        "head.wins": "{who} wins",
        "head.share": "{who} share first place",
        "resigned.one": "{who} resigned.",
        "resigned.many": "{who} resigned.",
        "timeout.one": "{who} ran out of time.",
        "timeout.many": "{who} ran out of time.",
        "abandoned.one": "{who} stopped playing (no move in time).",
        "abandoned.many": "{who} stopped playing (no move in time).",
        "abandoned.nobody": "nobody moved for too long.",
        "draw_agreed.two": "both sides agreed to a draw.",
        "draw_agreed.all": "every player agreed to a draw.",
        "over": "the match is over.",
        "sentence": "{head}: {why}",
    },
    ru={
        "head.helper": "Игра окончена",
        "head.draw": "Ничья",
        "head.wins": "Побеждает {who}",
        "head.share": "{who} делят первое место",
        "resigned.one": "игрок {who} сдался.",
        "resigned.many": "игроки {who} сдались.",
        "timeout.one": "у игрока {who} кончилось время.",
        "timeout.many": "у игроков {who} кончилось время.",
        "abandoned.one": "игрок {who} перестал играть (не сделал ход вовремя).",
        "abandoned.many": "игроки {who} перестали играть (не сделали ход вовремя).",
        "abandoned.nobody": "слишком долго никто не делал ход.",
        "draw_agreed.two": "обе стороны согласились на ничью.",
        "draw_agreed.all": "все игроки согласились на ничью.",
        "over": "партия окончена.",
        "sentence": "{head}: {why}",
    },
)


def outcome_text(
    game: Decider[Any, Any, Any, Any, Any], state: MatchState, lang: Lang = DEFAULT_LANG
) -> str | None:
    """A finished match's result and why it ended, as one sentence for people in ``lang``; None
    while it runs.

    The match layer words its own endings (resignation, timeout, abandonment, an agreed draw);
    every other reason is the game's ``end_text`` (the reason code as it is without one)."""
    out = state.outcome
    if out is None:
        return None
    seats = state.created.seats
    names = seat_names_in_words(state)
    best = min(out.ranks) if out.ranks else 1
    winners = [names[s] for s, r in zip(seats, out.ranks, strict=False) if r == best]
    worst = [names[s] for s, r in zip(seats, out.ranks, strict=False) if r != best]
    say = WORDS.say
    if game.helper or not out.ranks:  # a table helper judges nobody (Kings Cup), nor does an
        head = say(lang, "head.helper")  # outcome without ranks (King's K16: an aborted match)
    elif out.draw:
        head = say(lang, "head.draw")
    else:
        head = say(lang, "head.wins" if len(winners) == 1 else "head.share", who=joined(lang, winners))
    reason = out.reason
    number = "one" if len(worst) == 1 else "many"
    if reason == "resignation" and game.resign is None and worst:
        why = say(lang, f"resigned.{number}", who=joined(lang, worst))
    elif reason == "timeout" and worst:
        why = say(lang, f"timeout.{number}", who=joined(lang, worst))
    elif reason == "abandoned":
        why = (
            say(lang, f"abandoned.{number}", who=joined(lang, worst))
            if worst
            else say(lang, "abandoned.nobody")
        )
    elif reason == "draw agreed":
        why = say(lang, "draw_agreed.two" if len(seats) == 2 else "draw_agreed.all")
    elif game.end_text is not None:
        why = game.end_text(state.game_state, out, names, lang)
    else:
        why = f"{reason.replace('_', ' ')}." if reason else say(lang, "over")
    return say(lang, "sentence", head=head, why=why)


def clock_view(state: MatchState) -> ClockView | None:
    clock, tc = state.clock, state.created.time_control
    if clock is None or tc is None:
        return None
    running = clock.running if state.outcome is None else ()
    return ClockView(
        time_control=tc,
        since=clock.since,
        running=running,
        remaining_ms=clock.remaining_ms,
        deadlines=tuple(deadline(state, s) or 0 for s in state.created.seats),
        abandon_at=tuple(abandon_deadline(state, s) or 0 for s in state.created.seats) if tc.grace_s else (),
        bots=bot_seats(state),
    )
