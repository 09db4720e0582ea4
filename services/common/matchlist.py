"""The list of stored matches (table ``match_list``): a projection of the match stream.

Every envelope stored on ``match.<game>.<match_id>`` is folded into its match's state (the one
fold, ``domain/core/matchlog.py``) and the match's row is written from that state in the same
transaction as the projection's position (``services/common/projection.py``): game, preset,
seats and players, ``running``/``finished``, the seats to move, the outcome and its sentence in
every language, the number of decisions, and when it was created, last decided and finished.
That is exactly what a spectator's view shows of it, so ``GET /api/matches`` and
``GET /api/match-summaries`` read one indexed page of rows instead of the stream.

The projection keeps the state of running matches in memory (least recently used first out,
finished matches dropped at once).  A message of a match it does not hold (after a restart, an
eviction) is preceded by a read of that match's earlier messages from the stream (``prepare``,
before the batch's transaction), so every row comes from the whole log of its match.  A match
whose log does not fold (a stored message that is not an envelope of its game, a gap, a rules
version this build lacks) is left out of the list, as the gateway's listings always did.

What it costs per decision on the command path (docs/benchmarks.md): the live projection reads a
batch ``GATHER_S`` after the last one began, writes one row per match per batch (its last
decision in it), and updates listed rows with one ``executemany`` on the driver's cursor; the
fold of each decision and nats-py's delivery of it are what is left.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import msgspec
from nats.js import JetStreamContext
from sqlalchemy import Engine, bindparam, delete, select
from sqlalchemy.orm import Session

from contracts import subjects
from contracts.codecs import codec
from domain.core import match as match_layer
from domain.core.matchlog import Folded, LogGap, fold_envelope
from domain.core.words import LANGS
from domain.games import registry
from services.common import db, logs
from services.common.natsio import EventStore
from services.common.projection import Projection, ProjectionOptions, at_end, queue_insert

RUNNING_KEPT = 4096  # running matches whose state the projection keeps in memory (the gateway keeps 2048)
# The live projection's batches: after a batch, the next is read GATHER_S after its start, so a
# running match's decisions of that time are one row write (the list is that much behind the log).
GATHER_S = 0.1
BATCH_SIZE = 2000

Item = tuple[int, str, bytes]
"""(match-stream sequence, subject, stored bytes)"""


class _Head(msgspec.Struct):
    """The envelope fields every game shares (the rest is skipped undecoded)."""

    seq: int = 0


_head = msgspec.json.Decoder(_Head)


def _seq_of(data: bytes) -> int | None:
    try:
        return _head.decode(data).seq
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None


@dataclass
class Lane:
    """One match as the projection holds it: its state folded up to decision ``seq``."""

    game: str
    rules_version: str | None = None
    folded: Folded = Folded()
    created_at: int = 0
    broken: bool = False


def row_values(match_id: str, lane: Lane, updated_at: int, stream_seq: int) -> dict[str, Any]:
    """The ``match_list`` row of a match folded into ``lane``: what a spectator's view shows."""
    state = lane.folded.state
    assert state is not None and lane.rules_version is not None
    game = registry.get(lane.game, lane.rules_version)
    created = state.created
    finished = state.outcome is not None
    return {
        "match_id": match_id,
        "game": lane.game,
        "rules_version": lane.rules_version,
        "preset": created.preset,
        "status": "finished" if finished else "running",
        "seats": list(created.seats),
        "players": list(created.players),
        "to_move": list(match_layer.to_move(game, state)),
        "outcome": msgspec.to_builtins(state.outcome) if finished else None,
        "outcome_text": {lang: match_layer.outcome_text(game, state, lang) for lang in LANGS} if finished else None,
        "decisions": lane.folded.seq,
        "stream_seq": stream_seq,
        "created_at": lane.created_at,
        "updated_at": updated_at,
    }


BROKEN = "broken"
# one cached statement whatever the batch's size (a plain IN list is compiled again for each)
_LISTED = select(db.StoredMatch.match_id).where(db.StoredMatch.match_id.in_(bindparam("ids", expanding=True)))


class MatchList:
    """The match-list projection: ``prepare`` folds a batch (async, before its transaction: it
    may read a match's earlier log from the stream), then ``prefetch`` and ``apply`` write the
    rows it computed (:func:`services.common.projection.apply_batch`)."""

    def __init__(self, store: EventStore, kept: int = RUNNING_KEPT) -> None:
        self.store = store
        self.kept = kept
        self.lanes: OrderedDict[str, Lane] = OrderedDict()
        # stream sequence -> (match id, the row's values after it | BROKEN | None: nothing to write)
        self.pending: dict[int, tuple[str, dict[str, Any] | str | None]] = {}
        self.reads = 0  # matches whose earlier log was read from the stream
        self.log = logs.get("projection.match-list")

    def projection(
        self,
        js: JetStreamContext,
        engine: Engine,
        consumer: str = subjects.MATCH_LIST_CONSUMER,
        options: ProjectionOptions | None = None,
    ) -> Projection:
        """The projection that keeps ``engine``'s match list up with the match stream through
        this fold; whenever its reader starts again from the stored position, what the fold
        holds is dropped (it may be ahead of the stored rows) and read again from the log."""
        return Projection(
            js,
            engine,
            consumer,
            subjects.MATCH_SUBJECTS,
            self.apply,
            options=options or ProjectionOptions(batch_size=BATCH_SIZE, gather_s=GATHER_S),
            prefetch=self.prefetch,
            stream=subjects.MATCH_STREAM,
            prepare=self.prepare,
            on_restart=self.lanes.clear,
        )

    # ---------------------------------------------------------------- before the transaction
    async def prepare(self, items: Iterable[Item]) -> None:
        """Fold every message of the batch (those at or below the stored position too, so what
        is held follows the log) and keep the row each match is left with: one row per match
        per batch, at the match's last message in it that wrote (the rows of its earlier
        messages would be overwritten in the same transaction)."""
        self.pending = {}
        final: dict[str, tuple[int, Lane, int | None]] = {}  # match id -> (stream seq, lane, recorded_at | None: broken)
        for stream_seq, subject, data in items:
            match_id = subjects.match_id_from_subject(subject)
            lane = self.lanes.get(match_id)
            if lane is None:
                lane = self._hold(match_id, subject)
                seq = _seq_of(data)
                if seq is not None and seq > 1:  # the match began before this message: read it
                    self.reads += 1
                    for stored in await self.store.load(subject, last=stream_seq - 1):
                        self._fold(match_id, lane, stored.data)
            else:
                self.lanes.move_to_end(match_id)
            recorded_at = self._fold(match_id, lane, data)
            if lane.broken:
                final[match_id] = (stream_seq, lane, None)
            elif recorded_at is not None:  # else an earlier decision than the latest folded: nothing to write
                final[match_id] = (stream_seq, lane, recorded_at)
                if lane.folded.finished:
                    self.lanes.pop(match_id, None)  # a finished match takes no more decisions
        for match_id, (stream_seq, lane, recorded_at) in final.items():
            if recorded_at is None:
                self.pending[stream_seq] = (match_id, BROKEN)
                continue
            values = row_values(match_id, lane, recorded_at, stream_seq)
            values["finished_at"] = recorded_at if lane.folded.finished else None
            self.pending[stream_seq] = (match_id, values)

    # ---------------------------------------------------------------- inside the transaction
    def prefetch(self, session: Session, datas: list[bytes], cache: dict[Any, Any]) -> None:
        """Which of the matches the batch writes have a row already, in one query."""
        ids = {match_id for match_id, _ in self.pending.values()}
        cache["listed"] = set(session.scalars(_LISTED, {"ids": list(ids)})) if ids else set()

    def apply(self, session: Session, stream_seq: int, data: bytes, cache: dict[Any, Any]) -> None:
        """The row a match is left with after this message (none for a message that is not the
        last of its match in the batch): a new row is queued for the batch's one insert, a listed
        match's changing columns for its one update (:func:`write_updates`)."""
        pending = self.pending.get(stream_seq)
        if pending is None:
            return
        match_id, values = pending
        listed: set[str] = cache.setdefault("listed", set())
        if values == BROKEN:  # left out of the list
            if match_id in listed:
                session.execute(delete(db.StoredMatch).where(db.StoredMatch.match_id == match_id))
                listed.discard(match_id)
        elif match_id in listed:
            assert isinstance(values, dict)
            updates: list[dict[str, Any]] = cache.setdefault("updates", [])
            updates.append(values)
            at_end(cache, "match-list", lambda s: write_updates(s, updates))
        else:
            assert isinstance(values, dict)
            queue_insert(cache, db.StoredMatch, values)
            listed.add(match_id)

    # ---------------------------------------------------------------- the fold
    def _hold(self, match_id: str, subject: str) -> Lane:
        lane = Lane(game=subjects.game_from_subject(subject))
        self.lanes[match_id] = lane
        while len(self.lanes) > self.kept:
            self.lanes.popitem(last=False)
        return lane

    def _fold(self, match_id: str, lane: Lane, data: bytes) -> int | None:
        """Fold one stored message into ``lane``.  Its ``recorded_at`` when the message is the
        latest decision folded (new, or the last one again after a batch that did not commit);
        None for an earlier one, or when the match does not fold (``lane.broken``)."""
        if lane.broken:
            return None
        try:
            if lane.game not in registry.GAMES:
                raise UnreadableMatch(f"no game {lane.game!r} in this build")
            envelope = codec(lane.game).decode_envelope(data)
            if lane.rules_version is None:
                lane.rules_version = envelope.rules_version
            game = registry.get(lane.game, lane.rules_version)
            if envelope.seq > lane.folded.seq:
                lane.folded = fold_envelope(game, lane.folded, envelope)
                if lane.folded.state is None:
                    raise UnreadableMatch("the first decision does not create the match")
        except (UnreadableMatch, registry.UnknownRulesVersion, msgspec.DecodeError, msgspec.ValidationError, LogGap) as exc:
            lane.broken = True
            self.log.warning("match_left_out", match_id=match_id, reason=str(exc))
            return None
        if envelope.seq == 1:
            lane.created_at = envelope.recorded_at
        return envelope.recorded_at if envelope.seq == lane.folded.seq else None


class UnreadableMatch(ValueError):
    """A match's log does not fold into a match."""


CHANGING = ("status", "to_move", "outcome", "outcome_text", "decisions", "stream_seq", "updated_at", "finished_at")
"""The columns a later decision of a listed match may change (the rest is fixed at creation)."""
_JSON_COLUMNS = frozenset({"to_move", "outcome", "outcome_text"})


def _json_text(value: Any) -> str:
    return _encoder.encode(value).decode()


_encoder = msgspec.json.Encoder()


def write_updates(session: Session, rows: list[dict[str, Any]]) -> None:
    """The changing columns of listed matches, one ``executemany`` on the driver's cursor: the
    ORM's and Core's per-row parameter processing cost several times the database's own work
    here.  JSON columns are encoded by msgspec (None as the JSON ``null`` that SQLAlchemy's
    ``JSON`` type stores too), which SQLAlchemy's ``JSON`` type reads back as it reads its own."""
    if not rows:
        return
    connection = session.connection()
    postgres = connection.dialect.name == "postgresql"
    mark = "?" if connection.dialect.paramstyle == "qmark" else "%s"
    cast = {c: (f"CAST({mark} AS JSON)" if postgres else mark) if c in _JSON_COLUMNS else mark for c in CHANGING}
    table = db.StoredMatch.__tablename__
    sql = f"UPDATE {table} SET " + ", ".join(f"{c} = {cast[c]}" for c in CHANGING) + f" WHERE match_id = {mark}"
    dumps = _json_text
    params = [
        tuple(dumps(row[c]) if c in _JSON_COLUMNS else row[c] for c in CHANGING) + (row["match_id"],) for row in rows
    ]
    connection.exec_driver_sql(sql, params)
