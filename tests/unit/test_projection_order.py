"""The projection reader's check of every delivery (services/common/projection.py): a message is
handed over only when it is the next delivery of its consumer and above the last stream
sequence; anything else is out of order, named gap or repeat, and the reader's state is left as
it was (so it starts again from the stored position)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from services.common.projection import OutOfOrder, StreamReader


def msg(consumer: int, stream: int) -> SimpleNamespace:
    return SimpleNamespace(metadata=SimpleNamespace(sequence=SimpleNamespace(consumer=consumer, stream=stream)))


def reader(after: int = 0) -> StreamReader:
    r = StreamReader(js=None, stream="S", filter_subject="s.>", name="p")  # type: ignore[arg-type]
    r.last_stream_seq = after
    return r


def test_deliveries_in_order_with_holes_in_the_stream_sequence_pass() -> None:
    r = reader(after=10)
    for consumer, stream in ((1, 11), (2, 14), (3, 15), (4, 40)):
        r.check(msg(consumer, stream))  # type: ignore[arg-type]
    assert (r.next_consumer_seq, r.last_stream_seq) == (5, 40)


@pytest.mark.parametrize(
    ("deliveries", "kind"),
    [
        (((1, 11), (3, 12)), "gap"),  # delivery 2 never came
        (((1, 11), (2, 12), (2, 12)), "repeat"),  # the same delivery again
        (((1, 11), (2, 11)), "repeat"),  # a stream sequence again
        (((1, 11), (2, 9)), "repeat"),  # an older message
        (((1, 10),), "repeat"),  # at the stored position itself
    ],
)
def test_out_of_order_deliveries_are_refused_and_named(deliveries: tuple[tuple[int, int], ...], kind: str) -> None:
    r = reader(after=10)
    *good, bad = deliveries
    for consumer, stream in good:
        r.check(msg(consumer, stream))  # type: ignore[arg-type]
    before = (r.next_consumer_seq, r.last_stream_seq)
    with pytest.raises(OutOfOrder) as refused:
        r.check(msg(*bad))  # type: ignore[arg-type]
    assert refused.value.kind == kind
    assert (r.next_consumer_seq, r.last_stream_seq) == before
