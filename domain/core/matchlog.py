"""The one fold of a match's stored decisions (envelopes) into its state.

The referee (reloading a match), the gateway (views), computer players (their seat's redacted
events) and the audit all fold a match's log through ``fold_decision``: decisions in seq order,
each decision's events in order, a decision already folded skipped (a redelivery), a gap refused.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import msgspec

from contracts.envelope import EventEnvelope
from domain.core import match as match_layer
from domain.core.decider import Decider

Game = Decider[Any, Any, Any, Any, Any]


class Folded(msgspec.Struct, frozen=True, kw_only=True):
    """A match folded up to decision ``seq`` (0 = nothing folded yet)."""

    state: match_layer.MatchState | None = None
    seq: int = 0

    @property
    def finished(self) -> bool:
        return self.state is not None and self.state.outcome is not None


class LogGap(ValueError):
    """A decision that does not follow the last one folded: the log is incomplete or out of order."""


def fold_decision(
    game: Game,
    folded: Folded,
    seq: int,
    events: Sequence[Any],
    server_seed: bytes | None = None,
    before_event: Callable[[match_layer.MatchState | None, Any], None] | None = None,
    at: int | None = None,
    seat: str | None = None,
) -> Folded:
    """Decision ``seq`` with its ``events`` folded into ``folded``.

    ``server_seed`` is needed only to decide further chance events (the referee); views and audits
    of recorded events fold without it.  ``before_event(state, event)`` sees the state before each
    event (the audit re-derives chance events there).  ``at`` (the decision's ``recorded_at``) and
    ``seat`` (who decided it) advance the match's clocks; without ``at`` they stay as they were."""
    if seq <= folded.seq:
        return folded
    if seq != folded.seq + 1:
        raise LogGap(f"decision {seq} follows decision {folded.seq}")
    before = state = folded.state
    for event in events:
        if before_event is not None:
            before_event(state, event)
        state = match_layer.evolve(game, state, event, server_seed)
    if at is not None and state is not None:
        state = match_layer.clock_after(game, before, state, seat, events, at)
    return Folded(state=state, seq=seq)


def fold_envelope(
    game: Game, folded: Folded, envelope: EventEnvelope[Any], server_seed: bytes | None = None
) -> Folded:
    return fold_decision(
        game, folded, envelope.seq, envelope.events, server_seed, at=envelope.recorded_at, seat=envelope.seat
    )


def fold_envelopes(
    game: Game,
    envelopes: Iterable[EventEnvelope[Any]],
    server_seed: bytes | None = None,
    folded: Folded | None = None,
) -> Folded:
    """A whole log (or the decisions after ``folded``) folded."""
    out = folded if folded is not None else Folded()
    for envelope in envelopes:
        out = fold_envelope(game, out, envelope, server_seed)
    return out
