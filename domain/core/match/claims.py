"""The platform's claims against a seat or a match: a clock run out (``claim_timeout``), a seat
abandoned past ``grace_s`` (``claim_abandon``) and a match idle for too long (``expire_idle``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from contracts.envelope import Rejected
from contracts.match import (
    ClaimAbandon,
    ClaimTimeout,
    ExpireIdle,
    MatchAbandoned,
    Outcome,
    SeatAbandoned,
    TimedOut,
)
from domain.core.decider import Decider
from domain.core.match.clocks import abandon_deadline, deadline
from domain.core.match.handover import handover, hands_to_bot
from domain.core.match.state import MatchState, ending, game_events_and_end, to_move

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
TIMEOUT = _Claim(
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
ABANDON = _Claim(
    name="claim_abandon",
    due_of=abandon_deadline,
    due_text="{seat} is abandoned at {due}",
    event_type=SeatAbandoned,
    rule_of=lambda game: game.abandon,
    reason="abandoned",
)


def decide_claim(
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
    return claimed(game, state, command.seat, claim, server_seed, command.deadline, command.at, command.bot_token_hash)


def claimed(
    game: Decider[Any, Any, Any, Any, Any],
    state: MatchState,
    seat: str,
    claim: _Claim,
    server_seed: bytes | None,
    due: int = 0,
    at: int = 0,
    bot_token_hash: str = "",
) -> tuple[Any, ...] | Rejected:
    """What a claim against ``seat`` that is due does: its event (with the deadline ``due`` and
    the time ``at``), then the handover, the game's rule or the loss (``decide_claim``).  A game
    record's ``["timeout", s]`` and ``["abandon", s]`` (records.md R1) are this, with no clock."""
    events: tuple[Any, ...] = (claim.event_type(seat=seat, deadline=due, at=at),)
    if hands_to_bot(state, seat):
        handed = handover(game, seat, bot_token_hash)
        return handed if isinstance(handed, Rejected) else (*events, *handed)
    rule = claim.rule_of(game)
    if rule is not None:
        result = rule(state.game_state, seat)
        if isinstance(result, Rejected):
            return result
        if isinstance(result, Outcome):
            return (*events, *ending(game, state, result, server_seed))
        more, _ = game_events_and_end(game, state, tuple(result), server_seed)
        return (*events, *more)
    seats = state.created.seats
    if claim is ABANDON and game.absent_share_last:
        return (*events, *ending(game, state, absent_last(state, seat, at), server_seed))
    ranks = tuple(len(seats) if s == seat else 1 for s in seats)
    return (*events, *ending(game, state, Outcome(ranks=ranks, reason=claim.reason), server_seed))


def gone_seats(state: MatchState, seat: str, at: int) -> tuple[str, ...]:
    """The seats that have gone when ``seat`` is abandoned at ``at``, in seat order: ``seat``,
    every seat the platform acted for (timed out) since its own last command, and every seat
    itself past its abandonment deadline at ``at``.  Only the log's stamps count (docs/
    architecture.md "Abandonment"): a seat that sent a command of its own since it was last
    passed over is present."""
    clock = state.clock
    gone = {seat}
    if clock is not None:
        gone.update(clock.timed_out)
        for s in clock.running:
            due = abandon_deadline(state, s)
            if due is not None and due <= at:
                gone.add(s)
    return tuple(s for s in state.created.seats if s in gone)


def absent_last(state: MatchState, seat: str, at: int) -> Outcome:
    """The outcome of an abandonment the game has no rule for: every seat that has gone
    (``gone_seats``) shares the last place below every seat still present, who share first
    (competition ranks: three seats, two gone: 1, 2, 2); when every seat has gone nobody is
    placed above anyone: a draw."""
    seats = state.created.seats
    gone = gone_seats(state, seat, at)
    present = len(seats) - len(gone)
    if present == 0:
        return Outcome(ranks=tuple(1 for _ in seats), reason="abandoned", draw=True)
    return Outcome(ranks=tuple(present + 1 if s in gone else 1 for s in seats), reason="abandoned")


def decide_expire(
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
    return (MatchAbandoned(idle_seats=idle, idle_ms=idle_ms), *ending(game, state, outcome, server_seed))
