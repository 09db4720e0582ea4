"""The gateway's fold of GH_TOURNAMENTS, record by record: what folds, what leaves a tournament
unreadable (never half folded), and what a watcher of one tournament is told."""

from __future__ import annotations

import asyncio
import hashlib

import msgspec
import pytest

from contracts.tournaments import FinishTournament, ResultRecorded, TournamentRecord
from services.gateway.tournament_book import TournamentBook
from tests.support.tournament_records import Recorder


def fed(recorder: Recorder, book: TournamentBook | None = None, first_stream_seq: int = 1) -> TournamentBook:
    book = book or TournamentBook(lambda: None)
    for i, data in enumerate(recorder.records):
        book.apply(f"tournament.{recorder.tournament_id}", data, first_stream_seq + i)
    return book


def test_records_fold_in_order_and_keep_their_bytes() -> None:
    t = Recorder("t1").open(["ann", "bob", "cy"]).close()
    t.play_round()
    book = fed(t)
    folded = book.held("t1")
    assert folded is not None and not folded.broken
    assert folded.seq == len(t.records) and folded.raw == t.records
    assert folded.state == t.state
    assert [f.tournament_id for f in book.all()] == ["t1"]


@pytest.mark.parametrize(
    "spoil, problem",
    [
        (lambda r: r.replace(b'"seq":2', b'"seq":3', 1), "record seq 3 after 1"),
        (lambda r: r.replace(b'"prev_hash":"', b'"prev_hash":"0', 1), "prev_hash does not chain"),
        (lambda r: r.replace(b'"tournament_id":"t2"', b'"tournament_id":"t9"', 1), "a record of 't9'"),
        (lambda r: b"not json", "is not a tournament record"),
    ],
)
def test_a_record_that_is_not_the_next_leaves_the_tournament_unreadable(spoil: object, problem: str) -> None:
    t = Recorder("t2").open(["ann", "bob"])
    good = list(t.records)
    t.records[1] = spoil(t.records[1])  # type: ignore[operator]
    book = fed(t)
    folded = book.held("t2")
    assert folded is not None and problem in folded.broken
    assert folded.seq == 1 and folded.raw == good[:1]  # nothing after the first is folded
    assert folded.stream_seq == len(t.records)  # the consumer moved on all the same


def test_a_record_the_rules_cannot_fold_is_refused_whole() -> None:
    t = Recorder("t3").open(["ann", "bob"])
    before = t.state
    # a result of a round that never started, recorded during registration: evolve cannot place it
    t.records.append(_record(t, FinishTournament(), (ResultRecorded(round=4, table=1, ranks=(0, 1)),)))
    book = fed(t)
    folded = book.held("t3")
    assert folded is not None and "does not fold" in folded.broken
    assert folded.state == before


def _record(t: Recorder, command: object, events: tuple[object, ...]) -> bytes:
    return msgspec.json.encode(
        TournamentRecord(
            tournament_id=t.tournament_id,
            seq=len(t.records) + 1,
            command_id="bad",
            recorded_at=0,
            prev_hash=hashlib.sha256(t.records[-1]).hexdigest(),
            actor="operator",
            command=command,  # type: ignore[arg-type]
            events=events,  # type: ignore[arg-type]
        )
    )


async def test_a_watcher_gets_the_latest_record_count_of_its_tournament_only() -> None:
    book = TournamentBook(lambda: None)
    watched = book.watch("w1")
    t, other = Recorder("w1").open(["ann", "bob"]), Recorder("w2").open(["cy", "dan"])
    fed(other, book, 100)
    assert watched.empty()
    fed(t, book, 200)
    assert watched.qsize() == 1 and await asyncio.wait_for(watched.get(), 1) == len(t.records)
    book.unwatch("w1", watched)
    t.close()
    book.apply("tournament.w1", t.records[-1], 300)
    assert watched.empty()
