"""Dispute rulings on tournament games (``contracts.disputes.RulingIssued`` on ``GH_DISPUTES``).

The durable consumer ``tournaments-rulings`` of ``dispute.>`` (acked one by one, so the server
keeps the position) hands every ruling to :func:`command_for`, which maps a ruling on a tournament
game's match to a command decided by the actor ``system`` under the command id
``ruling:<dispute_id>`` (a ruling delivered again is answered as a duplicate and changes nothing):

- ``void``: ``VoidResult(final=True)``: the game counts for nobody and its round may close;
- ``amended``: ``AmendResult`` with the ruling's ranks (1 best, as a match outcome's) as places
  and its scores, else the scores the game was recorded with;
- ``upheld``: the result the match recorded (the game's ``system:result`` decision) again, when an
  earlier ruling changed it (the latest ruling decides, as scoring's ``domain.disputes``);
  otherwise nothing.

A ruling on a match that is no tournament game, and every other dispute event, is ignored.  A
ruling on a game the tournament has not recorded yet (the match's result is still on its way)
is delivered again a second later.
"""

from __future__ import annotations

import contextlib
from typing import Any

from contracts.codecs import dispute_decoder
from contracts.disputes import RulingIssued
from contracts.envelope import Rejected
from contracts.tournaments import (
    AmendResult,
    ResultRecorded,
    TournamentAccepted,
    TournamentCommand,
    TournamentRequest,
    VoidResult,
)
from services.common import logs
from services.tournaments.core import SYSTEM, Tournaments, dense_ranks

log = logs.get("tournaments")

RETRY_S = 1.0


def command_id(ruling: RulingIssued) -> str:
    return f"ruling:{ruling.dispute_id}"


def _scores(scores: tuple[float, ...], seats: int) -> tuple[int, ...]:
    return tuple(int(round(x)) for x in scores) if len(scores) == seats else ()


def command_for(service: Tournaments, ruling: RulingIssued) -> tuple[str, TournamentCommand] | None:
    """The tournament and the command a ruling makes of a game (None: none to send)."""
    found = service.games.get(ruling.match_id)
    if found is None:
        return None
    tid, rnd, table = found
    held = service.held[tid]
    game = held.state.rounds[rnd - 1].games[table - 1]
    reason = f"dispute {ruling.dispute_id}: {ruling.reason}"[:2000]
    recorded = held.replies.get(f"system:result:{rnd}:{table}")
    original = next((e for e in recorded.events if isinstance(e, ResultRecorded)), None) if recorded else None
    if ruling.ruling == "void":
        return tid, VoidResult(round=rnd, table=table, reason=reason, final=True)
    if ruling.ruling == "amended":
        scores = _scores(ruling.scores, len(game.seats))
        if not scores and original is not None:
            scores = original.scores
        return tid, AmendResult(round=rnd, table=table, ranks=dense_ranks(ruling.ranks), scores=scores, reason=reason)
    # upheld: the match's own result, if an earlier ruling changed it
    if original is None or (game.ranks == original.ranks and game.scores == original.scores):
        return None
    return tid, AmendResult(round=rnd, table=table, ranks=original.ranks, scores=original.scores, reason=reason)


async def apply(service: Tournaments, ruling: RulingIssued) -> TournamentAccepted | Rejected | None:
    """Decide what the ruling makes of a tournament game; None when it is none's."""
    if ruling.match_id not in service.games:
        await service.discover()  # a tournament another instance created since
    made = command_for(service, ruling)
    if made is None:
        return None
    tid, command = made
    reply = await service.handle(
        TournamentRequest(tournament_id=tid, command_id=command_id(ruling), actor=SYSTEM, command=command)
    )
    if isinstance(reply, Rejected):
        log.warning(
            "tournament_ruling_refused",
            tournament_id=tid,
            dispute_id=ruling.dispute_id,
            ruling=ruling.ruling,
            code=reply.code,
            detail=reply.detail,
        )
    else:
        log.info(
            "tournament_ruling_applied",
            tournament_id=tid,
            dispute_id=ruling.dispute_id,
            ruling=ruling.ruling,
            duplicate=reply.duplicate,
        )
    return reply


def _waiting(service: Tournaments, ruling: RulingIssued) -> bool:
    """The ruling's game has no result yet and was never voided: its result is on its way."""
    found = service.games.get(ruling.match_id)
    if found is None:
        return False
    tid, rnd, table = found
    state = service.held[tid].state
    game = state.rounds[rnd - 1].games[table - 1]
    return state.phase == "running" and game.ranks is None and not game.voided


async def on_message(service: Tournaments, msg: Any) -> None:
    """The consumer's callback: ack what is done or never will be, redeliver what waits."""
    try:
        event = dispute_decoder.decode(msg.data)
    except Exception:  # a version this build does not know
        await msg.ack()
        return
    if isinstance(event, RulingIssued):
        try:
            reply = await apply(service, event)
        except Exception:
            log.exception("tournament_ruling_failed", dispute_id=event.dispute_id)
            with contextlib.suppress(Exception):
                await msg.nak(delay=RETRY_S)
            return
        if isinstance(reply, Rejected) and (reply.code == "unavailable" or _waiting(service, event)):
            # the game's result is not recorded yet (or the log was busy): again shortly
            with contextlib.suppress(Exception):
                await msg.nak(delay=RETRY_S)
            return
    await msg.ack()
