"""The WebSocket fan-out hub (services/gateway/fanout.py, issue 16 "WebSocket fan-out"): one
follow per match however many watchers, frames rendered once per seat, bounded queues, a
watcher that does not drain its queue is marked slow, and its socket is closed with 4408 (or
cut when even the close cannot be written)."""

from __future__ import annotations

import asyncio
import json
from types import SimpleNamespace
from typing import Any

import pytest

from services.gateway import fanout, sockets


class FakeFold:
    def __init__(self, match_id: str) -> None:
        self.match_id = match_id
        self.seq = 0

    def apply(self, item: Any) -> Any:
        self.seq += 1
        return SimpleNamespace(seq=self.seq)


class Source:
    """A stand-in for the match log: ``publish`` stores a decision; every open follow sees it."""

    def __init__(self) -> None:
        self.follows_opened = 0
        self.follows_open = 0
        self.queues: list[asyncio.Queue[int]] = []
        self.rendered: list[tuple[int, str | None]] = []

    async def load(self, match_id: str) -> Any:
        if match_id == "missing":
            raise LookupError(match_id)
        return FakeFold(match_id)

    async def follow(self, folded: Any) -> Any:
        self.follows_opened += 1
        self.follows_open += 1
        queue: asyncio.Queue[int] = asyncio.Queue()
        self.queues.append(queue)
        try:
            while True:
                yield await queue.get()
        finally:
            self.follows_open -= 1

    def frames(self, folded: Any, seat: str | None, since: int, lang: str = "en") -> list[str]:
        self.rendered.append((folded.seq, seat))
        return [f"events {folded.seq} {seat}", f"view {folded.seq} {seat}"]

    async def publish(self, n: int = 1) -> None:
        for _ in range(n):
            for queue in self.queues:
                queue.put_nowait(0)
            for _ in range(20):
                await asyncio.sleep(0)


def make_hub(source: Source, queue_size: int = 64, per_address: int = 0) -> fanout.Hub:
    return fanout.Hub(source.load, source.follow, source.frames, queue_size, per_address)  # type: ignore[arg-type]


def drain(watcher: fanout.Watcher) -> list[str]:
    out = []
    while not watcher.queue.empty():
        out.append(watcher.queue.get_nowait())
    return out


async def test_many_watchers_of_one_match_share_one_follow_and_one_render_per_seat() -> None:
    source = Source()
    hub = make_hub(source)
    feed = await hub.fold("m1")
    watchers = [hub.watch(feed, None) for _ in range(50)] + [hub.watch(feed, "white")]
    again = await hub.fold("m1")
    assert again is feed
    await source.publish()
    assert source.follows_opened == 1
    assert sorted(source.rendered, key=str) == [(1, "white"), (1, None)]
    assert drain(watchers[0]) == ["events 1 None", "view 1 None"]
    assert drain(watchers[-1]) == ["events 1 white", "view 1 white"]
    other = await hub.fold("m2")
    assert other is not feed and source.follows_opened == 2


async def test_the_last_watcher_out_stops_the_follow_and_the_next_starts_a_new_one() -> None:
    source = Source()
    hub = make_hub(source)
    feed = await hub.fold("m1")
    a, b = hub.watch(feed, None), hub.watch(feed, None)
    await source.publish()
    await hub.leave(feed, a)
    assert source.follows_open == 1 and hub.feeds
    await hub.leave(feed, b)
    assert source.follows_open == 0 and not hub.feeds
    feed2 = await hub.fold("m1")
    hub.watch(feed2, None)
    await source.publish()
    assert feed2 is not feed and source.follows_opened == 2


async def test_a_feed_that_cannot_load_raises_for_its_socket_and_is_forgotten() -> None:
    source = Source()
    hub = make_hub(source)
    with pytest.raises(LookupError):
        await hub.fold("missing")
    assert not hub.feeds and source.follows_opened == 0


async def test_a_watcher_that_does_not_drain_is_bounded_and_marked_slow_while_others_go_on() -> None:
    source = Source()
    hub = make_hub(source, queue_size=4)  # two decisions of two frames
    feed = await hub.fold("m1")
    stuck, reader = hub.watch(feed, None), hub.watch(feed, None)
    got: list[str] = []
    for _ in range(2):
        await source.publish()
        got += drain(reader)
    assert stuck.queue.qsize() == 4 and not stuck.slow
    await source.publish()
    got += drain(reader)
    assert stuck.slow and stuck.ended.is_set() and stuck.queue.qsize() == 4
    assert await stuck.next() is None  # the pump stops; the socket is closed
    for _ in range(5):
        await source.publish()
        got += drain(reader)
    assert stuck.queue.qsize() == 4  # nothing more is queued for it
    assert len(got) == 16 and got[-1] == "view 8 None" and not reader.slow


async def test_next_waits_for_a_frame_and_ends_when_the_feed_fails() -> None:
    watcher = fanout.Watcher(seat=None, queue=asyncio.Queue(4))
    waiting = asyncio.create_task(watcher.next())
    await asyncio.sleep(0)
    watcher.offer(["a", "b"])
    assert await waiting == "a"
    assert await watcher.next() == "b"
    waiting = asyncio.create_task(watcher.next())
    await asyncio.sleep(0)
    watcher.failed = True
    watcher.ended.set()
    assert await waiting is None


def test_sockets_per_address_are_capped_and_released() -> None:
    hub = make_hub(Source(), per_address=2)
    assert hub.admit("10.0.0.1") and hub.admit("10.0.0.1")
    assert not hub.admit("10.0.0.1")
    assert hub.admit("10.0.0.2")
    hub.release("10.0.0.1")
    assert hub.admit("10.0.0.1")
    assert hub.sockets == {"10.0.0.1": 2, "10.0.0.2": 1}
    assert make_hub(Source(), per_address=0).admit("x")


class FakeSocket:
    def __init__(self, blocked: bool) -> None:
        self.blocked = blocked
        self.sent: list[str] = []
        self.closed: int | None = None
        self.aborted = False
        self.scope = {"extensions": {"gamehall.abort": self.abort}}

    def abort(self) -> None:
        self.aborted = True

    async def send_text(self, text: str) -> None:
        if self.blocked:
            await asyncio.Event().wait()  # TCP backpressure that never clears
        self.sent.append(text)

    async def close(self, code: int, reason: str = "") -> None:
        if self.blocked:
            await asyncio.Event().wait()
        self.closed = code


async def test_a_slow_socket_gets_a_slow_consumer_frame_and_4408() -> None:
    ws = FakeSocket(blocked=False)
    await sockets.close_slow(ws)  # type: ignore[arg-type]
    frame = json.loads(ws.sent[0])
    assert frame["type"] == "error" and frame["code"] == "slow_consumer"
    assert ws.closed == fanout.SLOW_CONSUMER_CLOSE == 4408 and not ws.aborted


async def test_a_slow_socket_that_cannot_even_take_the_close_is_cut(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sockets, "SLOW_CLOSE_WAIT_S", 0.05)
    ws = FakeSocket(blocked=True)
    await sockets.close_slow(ws)  # type: ignore[arg-type]
    assert ws.aborted and ws.closed is None
