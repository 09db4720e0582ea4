"""Tournament records written straight to ``GH_TOURNAMENTS``, as the tournaments service stores
them (``contracts.tournaments.TournamentRecord``: one per decision, hash-chained), for the tests
of the read side (the gateway's routes, its socket, the pages)."""

from __future__ import annotations

import hashlib

import msgspec
from nats.js import JetStreamContext
from nats.js.api import StreamConfig
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

SEED = bytes(range(32))
SEED_HEX = SEED.hex()
COMMITMENT = hashlib.sha256(SEED).hexdigest()


def settings(fmt: str = "round_robin", **kw: object) -> TournamentSettings:
    return TournamentSettings(
        format=fmt,  # type: ignore[arg-type]
        game="ugolki",
        preset="gambiter-classic",
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

    def play_round(self) -> None:
        """Start the next round and record every game: the first seat wins."""
        self.do(StartRound(), actor="system")
        last = self.state.rounds[-1]
        for g in last.games:
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


async def ensure_tournament_stream(js: JetStreamContext) -> None:
    """``GH_TOURNAMENTS``, made here when nothing has made it yet."""
    try:
        await js.stream_info(subjects.TOURNAMENT_STREAM)
    except NotFoundError:
        await js.add_stream(
            StreamConfig(
                name=subjects.TOURNAMENT_STREAM, subjects=[subjects.TOURNAMENT_SUBJECTS], allow_direct=True
            )
        )
