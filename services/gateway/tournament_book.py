"""The gateway's read side of tournaments: every tournament of ``GH_TOURNAMENTS`` folded in
memory, kept up to date by one ordered consumer on ``tournament.>`` (docs/architecture.md
"Tournaments: the read side").

Each stored ``TournamentRecord`` is checked as it arrives (its tournament id is its subject's,
its ``seq`` follows the last, its ``prev_hash`` is the sha256 of the previous record's stored
bytes, the first one's of the tournament id) and its events are folded
(``domain.tournaments.evolve``); a record that fails a check leaves the tournament unreadable
(409 ``unreadable_tournament``), never half folded.  Reads cost no fold: a view is rendered from
the state held.  A read of one tournament first looks up its subject's last sequence and waits
(briefly) for the consumer to get there, so a client that has just had a command accepted reads
its own write; while NATS does not answer that look-up, reads answer from what is held.  Watchers (the tournament WebSocket) get the tournament's new sequence after every
record.  Until the stream exists (the tournaments service creates it) the book waits for it and
holds nothing."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field

import msgspec
import nats.errors
import structlog
from nats.aio.client import Client
from nats.js.api import ConsumerConfig, DeliverPolicy
from nats.js.errors import NotFoundError

from contracts import subjects
from contracts.tournaments import TournamentRecord
from domain.tournaments import TournamentState, evolve, initial_state

log = structlog.get_logger("gamehall.gateway.tournaments")

RETRY_S = 1.0  # how long the book waits before following the stream again (missing, or lost)
CATCH_UP_S = 3.0  # how long a read waits for the consumer to reach the subject's last record

_DECODER = msgspec.json.Decoder(TournamentRecord)


class Unreadable(Exception):
    """A stored record that is not the tournament's next."""


def genesis_hash(tournament_id: str) -> str:
    return hashlib.sha256(tournament_id.encode()).hexdigest()


@dataclass
class Folded:
    """One tournament as the book holds it."""

    tournament_id: str
    state: TournamentState = field(default_factory=initial_state)
    seq: int = 0  # records folded
    stream_seq: int = 0  # the stream sequence of the last record folded
    next_prev_hash: str = ""
    raw: list[bytes] = field(default_factory=list)  # every record's stored bytes, in order
    broken: str = ""  # why the log does not fold, once a record failed

    def apply(self, data: bytes, stream_seq: int) -> None:
        self.stream_seq = stream_seq
        if self.broken:
            return
        try:
            record = _DECODER.decode(data)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            self.broken = f"record after seq {self.seq} is not a tournament record: {exc}"
            return
        expected = self.next_prev_hash or genesis_hash(self.tournament_id)
        problem = ""
        if record.tournament_id != self.tournament_id:
            problem = f"a record of {record.tournament_id!r} on tournament.{self.tournament_id}"
        elif record.seq != self.seq + 1:
            problem = f"record seq {record.seq} after {self.seq}"
        elif record.prev_hash != expected:
            problem = f"record {record.seq}: prev_hash does not chain to record {self.seq}"
        if problem:
            self.broken = problem
            return
        state = self.state
        try:
            for event in record.events:
                state = evolve(state, event)
        except Exception as exc:  # a record the rules cannot fold: refuse it whole
            self.broken = f"record {record.seq} does not fold: {exc!r}"
            return
        self.state = state
        self.seq = record.seq
        self.raw.append(data)
        self.next_prev_hash = hashlib.sha256(data).hexdigest()


class TournamentBook:
    """Every tournament folded (module docstring)."""

    def __init__(self, connection: Callable[[], Client | None]) -> None:
        self._connection = connection
        self._held: dict[str, Folded] = {}
        self._stream_seq = 0  # the last stream sequence applied
        self._task: asyncio.Task[None] | None = None
        self._changed = asyncio.Condition()
        self._watchers: dict[str, set[asyncio.Queue[int]]] = {}
        self.following = False  # the consumer is on the stream

    async def start(self) -> None:
        self._task = asyncio.create_task(self._follow_forever())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None

    # -------------------------------------------------------------- reads
    def all(self) -> list[Folded]:
        """Every tournament created, readable or not, in the order first stored."""
        return [f for f in self._held.values() if f.broken or f.state.phase != "new"]

    def held(self, tournament_id: str) -> Folded | None:
        return self._held.get(tournament_id)

    async def current(self, tournament_id: str) -> Folded | None:
        """The tournament as stored now: the subject's last sequence looked up, and the consumer
        waited for until it has folded that far (``CATCH_UP_S`` at most; then what it has)."""
        nc = self._connection()
        if nc is None:
            return self._held.get(tournament_id)
        try:
            msg = await nc.jetstream().get_last_msg(
                subjects.TOURNAMENT_STREAM, subjects.tournament_subject(tournament_id)
            )
            last = int(msg.seq or 0)
        except NotFoundError:  # no such subject, or no stream yet
            return self._held.get(tournament_id)
        except (nats.errors.Error, TimeoutError) as exc:  # NATS slow or away: what is held now
            log.warning("tournament_last_seq_failed", tournament_id=tournament_id, error=repr(exc))
            return self._held.get(tournament_id)
        deadline = asyncio.get_running_loop().time() + CATCH_UP_S
        async with self._changed:
            while self._stream_seq < last:
                left = deadline - asyncio.get_running_loop().time()
                if left <= 0:
                    break
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._changed.wait(), left)
        return self._held.get(tournament_id)

    def watch(self, tournament_id: str) -> asyncio.Queue[int]:
        """A queue that gets the tournament's record count after every record stored for it (only
        the latest is kept for a watcher that has not read the one before)."""
        queue: asyncio.Queue[int] = asyncio.Queue(maxsize=1)
        self._watchers.setdefault(tournament_id, set()).add(queue)
        return queue

    def unwatch(self, tournament_id: str, queue: asyncio.Queue[int]) -> None:
        watchers = self._watchers.get(tournament_id)
        if watchers is not None:
            watchers.discard(queue)
            if not watchers:
                del self._watchers[tournament_id]

    # -------------------------------------------------------------- the consumer
    def apply(self, subject: str, data: bytes, stream_seq: int) -> None:
        """One stored message of the stream (in stream order)."""
        self._stream_seq = stream_seq
        prefix = subjects.tournament_subject("")
        if not subject.startswith(prefix):
            return
        tournament_id = subject[len(prefix) :]
        folded = self._held.get(tournament_id)
        if folded is None:
            folded = self._held[tournament_id] = Folded(tournament_id=tournament_id)
        folded.apply(data, stream_seq)
        if folded.broken:
            log.warning("tournament_unreadable", tournament_id=tournament_id, problem=folded.broken)
        for queue in self._watchers.get(tournament_id, ()):
            if queue.full():
                with contextlib.suppress(asyncio.QueueEmpty):
                    queue.get_nowait()
            queue.put_nowait(folded.seq)

    async def _follow_forever(self) -> None:
        while True:
            try:
                await self._follow()
            except asyncio.CancelledError:
                raise
            except NotFoundError:  # the stream is not there yet
                pass
            except Exception:
                log.exception("tournament_follow_failed", after=self._stream_seq)
            self.following = False
            await asyncio.sleep(RETRY_S)

    async def _follow(self) -> None:
        nc = self._connection()
        if nc is None or not nc.is_connected:
            return
        js = nc.jetstream()
        await js.stream_info(subjects.TOURNAMENT_STREAM)  # NotFoundError while it does not exist
        config = ConsumerConfig(deliver_policy=DeliverPolicy.BY_START_SEQUENCE, opt_start_seq=self._stream_seq + 1)
        sub = await js.subscribe(
            subjects.TOURNAMENT_SUBJECTS, stream=subjects.TOURNAMENT_STREAM, ordered_consumer=True, config=config
        )
        self.following = True
        try:
            async for msg in sub.messages:
                self.apply(msg.subject, msg.data, msg.metadata.sequence.stream)
                async with self._changed:
                    self._changed.notify_all()
        finally:
            with contextlib.suppress(Exception):
                await sub.unsubscribe()
