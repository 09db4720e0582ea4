"""Reading a match from the log leaves nothing behind on the server (issue 16): a gateway that
polls a long match thousands of times must not pile up JetStream consumers until the server's
consumer limit refuses other clients."""

from __future__ import annotations

import pytest

from contracts import subjects
from services.common.natsio import EventStore, connect, ensure_streams

pytestmark = pytest.mark.integration


async def test_reads_are_in_order_across_batches_and_create_no_consumer(nats_url: str) -> None:
    nc = await connect(nats_url, "test")
    try:
        js = nc.jetstream()
        await ensure_streams(js)
        store = EventStore(js)
        mine, other = "match.ugolki.reads-mine", "match.ugolki.reads-other"
        seqs = []
        for i in range(600):  # more than two direct-get batches, interleaved with another match
            seqs.append((await js.publish(mine, f"m{i}".encode())).seq)
            if i % 7 == 0:
                await js.publish(other, b"not mine")
        everything = await store.load(mine)
        assert [s.data for s in everything] == [f"m{i}".encode() for i in range(600)]
        assert [s.stream_seq for s in everything] == seqs
        tail = await store.load(mine, after=seqs[589])
        assert [s.data for s in tail] == [f"m{i}".encode() for i in range(590, 600)]
        assert await store.load(mine, after=seqs[-1]) == []
        upto = await store.load(mine, after=seqs[9], last=seqs[19])
        assert [s.data for s in upto] == [f"m{i}".encode() for i in range(10, 20)]
        for _ in range(300):
            await store.load(mine, after=seqs[-2])
        # The server is shared with other tests, whose consumers come and go: count only the
        # consumers that read this match.
        following = [
            c.name
            for c in await js.consumers_info(subjects.MATCH_STREAM)
            if c.config.filter_subject == mine or mine in (c.config.filter_subjects or [])
        ]
        assert following == []
    finally:
        await nc.close()
