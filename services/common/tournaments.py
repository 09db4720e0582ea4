"""Talking to the tournaments service and reading tournament logs (the gateway's write routes and
``gamehall tournaments``): requests on ``tournaments.cmd``, the records of ``tournament.<id>``, the
hash chain and the audit of a log or of an exported bundle."""

from __future__ import annotations

import asyncio
import hashlib

import msgspec
from nats.aio.client import Client
from nats.errors import NoRespondersError, TimeoutError
from nats.js import JetStreamContext

from contracts import subjects
from contracts.envelope import Rejected
from contracts.tournaments import TournamentAccepted, TournamentRecord, TournamentRequest
from domain.tournaments import audit
from services.common import natsio

RESEND_AFTER_S = 2.0


def table_id(tournament_id: str, rnd: int, table: int) -> str:
    """The table id of a tournament game (``TableFormed.table_id``; its match id is
    ``tickets.table_match_id`` of it, its seat tokens derived from it as a matchmaking table's)."""
    return f"{tournament_id}:{rnd}:{table}"


_reply_decoder = msgspec.json.Decoder(TournamentAccepted | Rejected)
_record_decoder = msgspec.json.Decoder(TournamentRecord)
_encoder = msgspec.json.Encoder()


async def send(
    nc: Client, request: TournamentRequest, timeout: float = 15.0, await_service_s: float = 5.0
) -> TournamentAccepted | Rejected:
    """Send a command and wait for the reply, resending the same bytes when none comes (the
    command id makes a resend harmless); ``unavailable`` when no tournaments service answers."""
    data = _encoder.encode(request)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    give_up = min(deadline, loop.time() + await_service_s)
    while True:
        left = deadline - loop.time()
        try:
            msg = await nc.request(
                subjects.TOURNAMENT_COMMANDS, data, timeout=max(0.05, min(RESEND_AFTER_S, left))
            )
        except NoRespondersError:
            if loop.time() + 0.1 < give_up:
                await asyncio.sleep(0.1)
                continue
            return Rejected(
                code="unavailable", detail="no tournaments service answers (gamehall serve tournaments)"
            )
        except TimeoutError:
            if deadline - loop.time() > 0.05:
                continue
            return Rejected(
                code="timeout",
                detail="the tournaments service did not answer; retry with the same command id",
            )
        return _reply_decoder.decode(msg.data)


async def stored(js: JetStreamContext, tournament_id: str) -> list[bytes]:
    """The stored bytes of every record of a tournament, in order ([] when there is none)."""
    found = await natsio.EventStore(js).load(
        subjects.tournament_subject(tournament_id), stream=subjects.TOURNAMENT_STREAM
    )
    return [s.data for s in found]


async def list_ids(js: JetStreamContext) -> list[str]:
    info = await js.stream_info(subjects.TOURNAMENT_STREAM, subjects_filter=subjects.TOURNAMENT_SUBJECTS)
    return sorted(s.split(".", 1)[1] for s in (info.state.subjects or {}))


def chain_problem(tournament_id: str, records: list[bytes]) -> tuple[list[TournamentRecord], str | None]:
    """The decoded records up to the first that is not the next of the chain, and what is wrong
    with it (None when every record decodes, names the tournament, numbers on and hashes the one
    before)."""
    out: list[TournamentRecord] = []
    prev = hashlib.sha256(tournament_id.encode()).hexdigest()
    for i, data in enumerate(records, start=1):
        try:
            record = _record_decoder.decode(data)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            return out, f"record {i}: not a tournament record ({exc})"
        if record.tournament_id != tournament_id:
            return out, f"record {i}: names tournament {record.tournament_id!r}"
        if record.seq != i:
            return out, f"record {i}: numbered {record.seq}"
        if record.prev_hash != prev:
            return out, f"record {i}: the hash chain breaks (prev_hash is not the sha256 of record {i - 1})"
        out.append(record)
        prev = hashlib.sha256(data).hexdigest()
    return out, None


def audit_records(tournament_id: str, records: list[bytes]) -> str | None:
    """None when the log is intact and every round's pairings and the final standings are what
    the rules derive from it; else the first thing that differs, in words."""
    if not records:
        return f"no records of tournament {tournament_id!r}"
    decoded, problem = chain_problem(tournament_id, records)
    if problem is not None:
        return problem
    for i, record in enumerate(decoded, start=1):
        if not record.events:
            return f"record {i}: no events"
    return audit([e for r in decoded for e in r.events])


class _RawBundle(msgspec.Struct, kw_only=True):
    """A ``TournamentBundle`` with each record kept as the bytes the file holds."""

    tournament_id: str
    records: tuple[msgspec.Raw, ...]


_raw_bundle_decoder = msgspec.json.Decoder(_RawBundle)


def bundle_of(tournament_id: str, records: list[bytes]) -> bytes:
    """The file ``gamehall tournaments export`` writes: a ``contracts.tournaments.TournamentBundle``
    whose records are the stored bytes themselves, written in as they are (never decoded and
    encoded again: a record stored before a field was added would encode differently, and the
    hash chain is over the stored bytes)."""
    head = _encoder.encode({"tournament_id": tournament_id})[:-1]
    return head + b',"records":[' + b",".join(records) + b"]}"


def bundle_records(data: bytes) -> tuple[str, list[bytes]]:
    """A bundle's tournament id and each record's bytes as the file holds them."""
    bundle = _raw_bundle_decoder.decode(data)
    for raw in bundle.records:  # each one must be a record (a clear error, before any audit)
        _record_decoder.decode(raw)
    return bundle.tournament_id, [bytes(r) for r in bundle.records]
