"""Tournament records written straight to ``GH_TOURNAMENTS``, as the tournaments service stores
them (``contracts.tournaments.TournamentRecord``: one per decision, hash-chained), for the tests
of the read side (the gateway's routes, its socket, the pages)."""

from __future__ import annotations

import asyncio
import hashlib
import threading
from pathlib import Path

import msgspec
from nats.js import JetStreamContext
from nats.js.errors import NotFoundError

from contracts import subjects
from contracts.envelope import Rejected
from contracts.tournaments import (
    CloseRegistration,
    CreateTournament,
    JoinTournament,
    RecordResult,
    StartRound,
    TournamentCommand,
    TournamentRecord,
    TournamentSettings,
)
from domain.tournaments import TournamentState, decide, evolve, initial_state
from services.common import natsauth, natsio, stack

SEED = bytes(range(32))
SEED_HEX = SEED.hex()
COMMITMENT = hashlib.sha256(SEED).hexdigest()


def settings(
    fmt: str = "round_robin", game: str = "ugolki", preset: str = "gambiter-classic", **kw: object
) -> TournamentSettings:
    return TournamentSettings(
        format=fmt,  # type: ignore[arg-type]
        game=game,
        preset=preset,
        seed_commitment=COMMITMENT,
        **kw,  # type: ignore[arg-type]
    )


class Recorder:
    """Decides commands with the rules and keeps each decision as the record the service stores."""

    def __init__(self, tournament_id: str) -> None:
        self.tournament_id = tournament_id
        self.state: TournamentState = initial_state()
        self.records: list[bytes] = []
        self.published = 0

    def do(self, command: TournamentCommand, actor: str = "operator") -> TournamentRecord:
        events = decide(self.state, command)
        assert not isinstance(events, Rejected), events
        prev = (
            hashlib.sha256(self.records[-1]).hexdigest()
            if self.records
            else hashlib.sha256(self.tournament_id.encode()).hexdigest()
        )
        record = TournamentRecord(
            tournament_id=self.tournament_id,
            seq=len(self.records) + 1,
            command_id=f"c{len(self.records) + 1}",
            recorded_at=1_700_000_000_000 + len(self.records),
            prev_hash=prev,
            actor=actor,
            command=command,
            events=events,
        )
        for event in events:
            self.state = evolve(self.state, event)
        self.records.append(msgspec.json.encode(record))
        return record

    def open(self, players: list[str], fmt: str = "round_robin", **kw: object) -> Recorder:
        self.do(CreateTournament(tournament_id=self.tournament_id, settings=settings(fmt, **kw)))
        for i, p in enumerate(players):
            self.do(JoinTournament(player=p, rating=float(1000 - i)), actor=p)
        return self

    def close(self) -> Recorder:
        self.do(CloseRegistration(server_seed=SEED_HEX))
        return self

    def play_round(self, games: int | None = None) -> None:
        """Start the next round and record its games (the first ``games``, default all): the
        first seat wins."""
        self.do(StartRound(), actor="system")
        last = self.state.rounds[-1]
        for g in last.games[:games]:
            if g.ranks is None:
                ranks = tuple(0 if i == 0 else 1 for i in range(len(g.seats)))
                self.do(RecordResult(round=last.round, table=g.table, ranks=ranks), actor="system")

    async def publish(self, js: JetStreamContext) -> None:
        """Append the records not yet stored, each with the expected last subject sequence."""
        subject = subjects.tournament_subject(self.tournament_id)
        for data in self.records[self.published :]:
            last = await _last_seq(js, subject)
            await js.publish(
                subject,
                data,
                stream=subjects.TOURNAMENT_STREAM,
                headers={"Nats-Expected-Last-Subject-Sequence": str(last)},
            )
            self.published += 1


async def _last_seq(js: JetStreamContext, subject: str) -> int:
    try:
        msg = await js.get_last_msg(subjects.TOURNAMENT_STREAM, subject)
    except NotFoundError:
        return 0
    return int(msg.seq or 0)


async def publish_to_stack(data_dir: Path, *recorders: Recorder) -> None:
    """Store the recorders' new records on the stack of ``data_dir`` (``gamehall up``), as the
    tournaments service's identity."""
    info = stack.read(data_dir)
    assert info is not None, f"no stack.json in {data_dir}"
    credential = (
        natsauth.credential_for(natsauth.credentials_dir(data_dir), natsauth.TOURNAMENTS)
        if info.embedded_nats
        else None
    )
    nc = await natsio.connect(info.nats_url, "gamehall-test-tournaments", credential)
    try:
        js = nc.jetstream()
        for recorder in recorders:
            await recorder.publish(js)
    finally:
        await nc.close()


def store_on_stack(data_dir: Path, *recorders: Recorder) -> None:
    """:func:`publish_to_stack` from synchronous code (a thread of its own, so it runs beside an
    event loop the caller's thread may hold, such as Playwright's)."""
    failed: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(publish_to_stack(data_dir, *recorders))
        except BaseException as exc:  # handed to the caller
            failed.append(exc)

    worker = threading.Thread(target=run)
    worker.start()
    worker.join(60)
    assert not worker.is_alive(), "storing the records took over 60 s"
    if failed:
        raise failed[0]
