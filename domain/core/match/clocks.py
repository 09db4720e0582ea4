"""Clocks (docs/audit.md "Clocks"): the time control's checks, the deadlines of the seats' clocks
and of their abandonment (``grace_s``), and the clocks folded from the decisions' stamps."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import msgspec

from contracts.envelope import Rejected
from contracts.match import SeatHandedToBot, TimeControl, TimedOut
from domain.core.decider import Decider
from domain.core.match.state import ON_TIMEOUT, Clock, MatchState, is_match_event, to_move


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
    """Every abandonment deadline, by seat."""
    return _by_seat(state, abandon_deadline)


def deadline(state: MatchState, seat: str) -> int | None:
    """When ``seat``'s clock runs out (unix ms), or None when it does not run."""
    clock = state.clock
    if clock is None or state.outcome is not None or seat not in clock.running:
        return None
    return clock.since + clock.remaining_ms[state.created.seats.index(seat)]


def deadlines(state: MatchState) -> dict[str, int]:
    """Every running clock's deadline, by seat."""
    return _by_seat(state, deadline)


def _by_seat(state: MatchState, due_of: Callable[[MatchState, str], int | None]) -> dict[str, int]:
    """``due_of`` of every seat that has a deadline, in seat order."""
    out = {}
    for seat in state.created.seats:
        due = due_of(state, seat)
        if due is not None:
            out[seat] = due
    return out


def out_of_time(state: MatchState, seat: str, at: int | None) -> Rejected | None:
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
    return msgspec.structs.replace(after, clock=_advanced(tc, seats, before.clock, running, seat, events, at))


def _advanced(
    tc: TimeControl,
    seats: tuple[str, ...],
    clock: Clock,
    running: tuple[str, ...],
    seat: str | None,
    events: Any,
    at: int,
) -> Clock:
    """``clock`` charged up to ``at`` over one decision (``clock_after``)."""
    move_ms = int(tc.move_s * 1000)
    initial = move_ms if tc.move_s else int(tc.base_s * 1000)
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
    gone = set(clock.timed_out)
    if seat is not None:
        gone.discard(seat)
    if timed_out is not None:
        gone.add(timed_out)
    for e in events:
        if isinstance(e, SeatHandedToBot):
            remaining[seats.index(e.seat)] = initial
            idle[seats.index(e.seat)] = 0
            gone.discard(e.seat)
    return Clock(
        remaining_ms=tuple(remaining),
        since=at,
        running=running,
        idle_ms=tuple(idle),
        timed_out=tuple(s for s in seats if s in gone),
    )
