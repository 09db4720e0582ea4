"""Disputes over NATS: read a match's dispute events, check a request with ``domain.disputes``,
append the event to ``dispute.<match_id>`` on ``GH_DISPUTES`` with the expected last subject
sequence (two operators ruling at once: the second finds the dispute closed).  The gateway and
the operator command (``gamehall disputes``) both use it; the match log is only read.

A dispute is read by folding its match's subject; listing every dispute reads every subject of
the stream (one direct get per dispute subject), which suits the few disputes a league has.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from typing import Any

import msgspec
from nats.js import JetStreamContext
from nats.js.errors import NotFoundError

from contracts import subjects
from contracts.codecs import dispute_decoder, encode
from contracts.disputes import DisputeEvent, NoteAdded
from contracts.envelope import Rejected
from domain import disputes as rules
from services.common.natsio import AppendConflict, EventStore
from services.common.reader import load_match

ATTEMPTS = 3
MATCH_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")  # what a match id may be (a subject token)


def valid_match_id(match_id: str) -> bool:
    return MATCH_ID.fullmatch(match_id) is not None


def match_of(dispute_id: str) -> str:
    """The match a dispute id names, "" when it is not one."""
    match_id = subjects.match_id_of_dispute(dispute_id)
    return match_id if valid_match_id(match_id) and len(dispute_id) <= 80 else ""


def now_ms() -> int:
    return time.time_ns() // 1_000_000


async def load(js: JetStreamContext, match_id: str) -> tuple[dict[str, rules.DisputeState], int]:
    """The disputes of a match and the last sequence of its subject (0: none)."""
    store = EventStore(js)
    subject = subjects.dispute_subject(match_id)
    last = await store.last_seq(subjects.DISPUTE_STREAM, subject)
    stored = await store.load(subject, stream=subjects.DISPUTE_STREAM, last=last) if last else []
    return rules.fold(dispute_decoder.decode(s.data) for s in stored), last


async def match_facts(js: JetStreamContext, match_id: str) -> rules.MatchFacts | None:
    folded = await load_match(EventStore(js), match_id)
    if folded is None or folded.state is None:
        return None
    created, outcome = folded.state.created, folded.state.outcome
    return rules.MatchFacts(
        match_id=match_id,
        game=folded.game,
        finished=outcome is not None,
        seats=tuple(created.seats),
        players=tuple(created.players),
        guests=tuple(created.guests),
        ranks=tuple(outcome.ranks) if outcome else (),
        scores=tuple(outcome.scores) if outcome else (),
    )


async def _append(js: JetStreamContext, match_id: str, event: DisputeEvent, last: int, msg_id: str) -> None:
    await EventStore(js).append(subjects.dispute_subject(match_id), encode(event), last, msg_id)


def _conflict() -> Rejected:
    return Rejected(code="conflict", detail="the dispute changed while this request was checked; retry")


async def open_dispute(
    js: JetStreamContext, match_id: str, actor: rules.Actor, reason: str
) -> rules.DisputeState | Rejected:
    facts = await match_facts(js, match_id) if valid_match_id(match_id) else None
    for _ in range(ATTEMPTS):
        disputes, last = await load(js, match_id) if facts is not None else ({}, 0)
        problem = rules.open_problem(facts, disputes, actor, reason)
        if problem is not None:
            return problem
        assert facts is not None
        event = rules.opened(facts, disputes, actor, reason, now_ms())
        try:
            await _append(js, match_id, event, last, f"open:{event.dispute_id}")
        except AppendConflict:
            continue
        return rules.fold([*_events(disputes), event])[event.dispute_id]
    return _conflict()


def _events(disputes: dict[str, rules.DisputeState]) -> list[DisputeEvent]:
    """The events of a match's disputes in an order that folds to the same states."""
    out: list[DisputeEvent] = []
    for state in disputes.values():
        out.append(state.opened)
        out.extend(state.notes)
        if state.ruling is not None:
            out.append(state.ruling)
    return out


async def get(js: JetStreamContext, dispute_id: str) -> rules.DisputeState | None:
    match_id = match_of(dispute_id)
    if not match_id:
        return None
    disputes, _ = await load(js, match_id)
    return disputes.get(dispute_id)


async def add_note(
    js: JetStreamContext, dispute_id: str, actor: rules.Actor, text: str
) -> rules.DisputeState | Rejected:
    match_id = match_of(dispute_id)
    for _ in range(ATTEMPTS):
        disputes, last = await load(js, match_id) if match_id else ({}, 0)
        state = disputes.get(dispute_id)
        problem = rules.note_problem(state, actor, text)
        if problem is not None:
            return problem
        assert state is not None
        event = NoteAdded(
            dispute_id=dispute_id, match_id=match_id, author=actor.name, text=text.strip(), at=now_ms()
        )
        try:
            await _append(js, match_id, event, last, f"note:{dispute_id}:{len(state.notes) + 1}")
        except AppendConflict:
            continue
        return msgspec.structs.replace(state, notes=(*state.notes, event))
    return _conflict()


async def rule(
    js: JetStreamContext,
    dispute_id: str,
    actor: rules.Actor,
    ruling: str,
    ranks: Sequence[int],
    scores: Sequence[float],
    reason: str,
) -> rules.DisputeState | Rejected:
    match_id = match_of(dispute_id)
    if not actor.operator:  # refused before anything is read
        refused = rules.ruling_problem(None, actor, ruling, ranks, scores, reason)
        assert refused is not None
        return refused
    for _ in range(ATTEMPTS):
        disputes, last = await load(js, match_id) if match_id else ({}, 0)
        state = disputes.get(dispute_id)
        problem = rules.ruling_problem(state, actor, ruling, ranks, scores, reason)
        if problem is not None:
            return problem
        assert state is not None
        event = rules.ruled(state, actor, ruling, ranks, scores, reason, now_ms())
        try:
            await _append(js, match_id, event, last, f"ruling:{dispute_id}")
        except AppendConflict:
            continue
        return msgspec.structs.replace(state, ruling=event)
    return _conflict()


async def list_all(js: JetStreamContext, status: str | None = None) -> list[rules.DisputeState]:
    """Every dispute, newest first (``status``: only ``open`` or only ``ruled`` ones)."""
    try:
        info = await js.stream_info(subjects.DISPUTE_STREAM, subjects_filter=subjects.DISPUTE_SUBJECTS)
    except NotFoundError:
        return []
    out: list[rules.DisputeState] = []
    for subject in sorted((info.state.subjects or {}).keys()):
        disputes, _ = await load(js, subjects.match_id_from_subject(subject))
        out.extend(s for s in disputes.values() if status is None or s.status == status)
    return sorted(out, key=lambda s: (-s.opened.opened_at, s.dispute_id))


async def may_read(js: JetStreamContext, state: rules.DisputeState, actor: rules.Actor) -> bool:
    """Whether ``actor`` may read the dispute (``domain.disputes.may_read``): the match's seats and
    guests are read from its log, so a guest seat named like an account grants that account
    nothing, whatever the dispute event recorded."""
    if actor.operator:
        return True
    return rules.may_read(await match_facts(js, state.opened.match_id), actor)


def as_dict(state: rules.DisputeState) -> dict[str, Any]:
    """A dispute as the API and the CLI show it."""
    opened, ruling = state.opened, state.ruling
    return {
        "dispute_id": state.dispute_id,
        "match_id": opened.match_id,
        "game": opened.game,
        "status": state.status,
        "opened_by": opened.opened_by,
        "by_operator": opened.by_operator,
        "reason": opened.reason,
        "opened_at": opened.opened_at,
        "seats": list(opened.seats),
        "players": list(opened.players),
        "recorded": {"ranks": list(opened.ranks), "scores": list(opened.scores)},
        "notes": [{"author": n.author, "text": n.text, "at": n.at} for n in state.notes],
        "ruling": None
        if ruling is None
        else {
            "ruling": ruling.ruling,
            "ranks": list(ruling.ranks),
            "scores": list(ruling.scores),
            "reason": ruling.reason,
            "ruled_by": ruling.ruled_by,
            "ruled_at": ruling.ruled_at,
        },
    }
