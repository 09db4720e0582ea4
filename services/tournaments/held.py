"""One tournament as an instance of the tournaments service holds it: the fold of its records,
where its log stands on the stream, and the replies to the command ids it has decided."""

from __future__ import annotations

import asyncio
import hashlib
from dataclasses import dataclass, field

from contracts.tournaments import RoundStarted, TournamentAccepted, TournamentRecord
from domain.tournaments import TournamentState, evolve, initial_state


@dataclass
class Held:
    """One tournament as this instance knows it."""

    tournament_id: str
    state: TournamentState = field(default_factory=initial_state)
    last_seq: int = 0  # stream sequence of its last record (0: none)
    records: int = 0  # how many records (the last one's seq)
    last_hash: str = ""
    replies: dict[str, TournamentAccepted] = field(default_factory=dict)
    round_started_at: dict[int, int] = field(default_factory=dict)  # round -> recorded_at
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    said: set[str] = field(default_factory=set)  # scheduling refusals already logged
    broken: str = ""  # why its stored log does not fold (then every command is refused)

    def apply(self, record: TournamentRecord, data: bytes, stream_seq: int) -> None:
        for event in record.events:
            self.state = evolve(self.state, event)
            if isinstance(event, RoundStarted):
                self.round_started_at[event.round] = record.recorded_at
        self.last_seq = stream_seq
        self.records = record.seq
        self.last_hash = hashlib.sha256(data).hexdigest()
        self.replies[record.command_id] = TournamentAccepted(
            tournament_id=record.tournament_id,
            seq=record.seq,
            command_id=record.command_id,
            events=record.events,
        )
