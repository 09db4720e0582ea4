"""Disputes over a finished match's result: a player of the match (or an operator) opens one,
operators add notes and rule (upheld, amended or void); operators list them all, and a
dispute is read by operators and the match's players (``services.common.disputes``)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, Depends, Query

from contracts.api import Dispute, DisputeBody, NoteBody, RulingBody
from contracts.envelope import Rejected
from domain.disputes import Actor, DisputeState
from services.common import disputes as disputes_io
from services.common import logs
from services.gateway.api.deps import PLAIN, Caller, caller
from services.gateway.errors import DISPUTE_REFUSALS, Forbidden, Malformed, NotFound, refusal
from services.gateway.lobby import Lobby

router = APIRouter(tags=["disputes"])
log = logs.get("gateway")


def stream(at: Lobby) -> Any:
    """The JetStream context the disputes are read from and appended to (503 while NATS is down)."""
    at.gw.check_bus()
    assert at.gw.nc is not None
    return at.gw.nc.jetstream()


def checked_match(match_id: str) -> str:
    if not disputes_io.valid_match_id(match_id):
        raise Malformed("malformed", "a match id is 1-64 letters, digits, '-' and '_'")
    return match_id


def checked_dispute(dispute_id: str) -> str:
    if not disputes_io.match_of(dispute_id):
        raise Malformed("malformed", "a dispute id is <match id>-<n>")
    return dispute_id


async def decided(
    who: Caller, act: Callable[[Actor], Awaitable[DisputeState | Rejected]]
) -> tuple[Actor, DisputeState]:
    """Who acts (from the credential), what their ``act`` on the disputes stream made of the
    dispute; a refusal is raised with its code."""
    actor = await who.actor()
    made = await act(actor)
    if isinstance(made, Rejected):
        raise refusal(made, DISPUTE_REFUSALS)
    return actor, made


@router.post(
    "/api/matches/{match_id}/disputes",
    status_code=201,
    summary="Dispute a finished match (a player of the match or an operator)",
    response_model=Dispute,
    response_class=PLAIN,
)
async def open_dispute(match_id: str, body: DisputeBody, who: Caller = Depends(caller)) -> dict[str, Any]:
    actor, made = await decided(
        who, lambda by: disputes_io.open_dispute(stream(who.lobby), checked_match(match_id), by, body.reason)
    )
    log.info("dispute_opened", dispute_id=made.dispute_id, by=actor.name)
    return disputes_io.as_dict(made)


@router.get(
    "/api/disputes",
    summary="Every dispute, newest first (operators)",
    response_model=list[Dispute],
    response_class=PLAIN,
)
async def list_disputes(
    status: str | None = Query(None, pattern="^(open|ruled)$", description="Only 'open' or 'ruled' ones."),
    who: Caller = Depends(caller),
) -> list[dict[str, Any]]:
    actor = await who.actor()
    if not actor.operator:
        raise Forbidden("not_an_operator", "only an operator lists every dispute")
    return [disputes_io.as_dict(s) for s in await disputes_io.list_all(stream(who.lobby), status)]


@router.get(
    "/api/disputes/{dispute_id}",
    summary="A dispute with its notes and ruling (operators, and the match's players)",
    response_model=Dispute,
    response_class=PLAIN,
)
async def show_dispute(dispute_id: str, who: Caller = Depends(caller)) -> dict[str, Any]:
    actor = await who.actor()
    js = stream(who.lobby)
    state = await disputes_io.get(js, checked_dispute(dispute_id))
    if state is None and actor.operator:
        raise NotFound("dispute_not_found", "no such dispute")
    # Whether a dispute exists is for its readers only.
    if state is None or not await disputes_io.may_read(js, state, actor):
        raise Forbidden("not_allowed", "only an operator or a player of the match reads a dispute")
    return disputes_io.as_dict(state)


@router.post(
    "/api/disputes/{dispute_id}/notes",
    summary="Add an operator's note",
    response_model=Dispute,
    response_class=PLAIN,
)
async def add_note(dispute_id: str, body: NoteBody, who: Caller = Depends(caller)) -> dict[str, Any]:
    _, made = await decided(
        who, lambda by: disputes_io.add_note(stream(who.lobby), checked_dispute(dispute_id), by, body.text)
    )
    return disputes_io.as_dict(made)


@router.post(
    "/api/disputes/{dispute_id}/ruling",
    summary="Rule on a dispute: upheld, amended or void (operators); closes it",
    response_model=Dispute,
    response_class=PLAIN,
)
async def rule(dispute_id: str, body: RulingBody, who: Caller = Depends(caller)) -> dict[str, Any]:
    actor, made = await decided(
        who,
        lambda by: disputes_io.rule(
            stream(who.lobby),
            checked_dispute(dispute_id),
            by,
            body.ruling,
            body.ranks,
            body.scores,
            body.reason,
        ),
    )
    log.info("dispute_ruled", dispute_id=dispute_id, ruling=body.ruling, by=actor.name)
    return disputes_io.as_dict(made)
