"""The WebSocket fan-out hub (services/gateway/fanout.py, issue 16 "WebSocket fan-out"): one
follow per match however many watchers, frames rendered once per seat, bounded queues, a
watcher that does not drain its queue is marked slow, and its socket is closed with 4408 (or
cut when even the close cannot be written)."""

from __future__ import annotations

import asyncio
import json
import time
from types import SimpleNamespace
from typing import Any

import pytest

from services.gateway import fanout, outlet, server, sockets


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


class FakeOutlet:
    """A connection the hub writes to directly: ``unsent_bytes`` is what its kernel has not sent,
    ``room`` what its peer's window takes beyond that."""

    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.unsent_bytes = 0
        self.room = outlet.ROOM_UNKNOWN
        self.asked = 0
        self.open = True

    def ready(self) -> bool:
        return self.open

    def probe(self) -> tuple[int, int]:
        self.asked += 1
        return self.unsent_bytes, self.room

    def write(self, data: bytes) -> None:
        self.writes.append(data)
        if self.room == outlet.ROOM_UNKNOWN:
            self.unsent_bytes += len(data)  # a peer that reads nothing until told to
        else:  # its window takes what it has room for; the kernel keeps the rest
            taken = min(self.room, len(data))
            self.room -= taken
            self.unsent_bytes += len(data) - taken


def texts_of(data: bytes) -> list[str]:
    """The text frames in bytes a server wrote (unmasked, as RFC 6455 lays them out)."""
    out = []
    while data:
        assert data[0] == 0x81  # FIN, text
        size, at = data[1], 2
        if size == 126:
            size, at = int.from_bytes(data[2:4], "big"), 4
        elif size == 127:
            size, at = int.from_bytes(data[2:10], "big"), 10
        out.append(data[at : at + size].decode())
        data = data[at + size :]
    return out


async def test_a_socket_that_keeps_up_gets_each_decision_in_one_write_serialized_once_per_seat() -> None:
    source = Source()
    hub = make_hub(source)
    feed = await hub.fold("m1")
    outlets = [FakeOutlet() for _ in range(3)]
    for o in outlets:
        hub.watch(feed, None, first=["events 0 None", "view 0 None"], outlet=o)  # type: ignore[arg-type]
    for _ in range(2):
        await source.publish()
        for o in outlets:
            o.unsent_bytes = 0  # the peer read it
    for o in outlets:
        assert [texts_of(w) for w in o.writes] == [
            ["events 0 None", "view 0 None"],
            ["events 1 None", "view 1 None"],
            ["events 2 None", "view 2 None"],
        ]
    assert outlets[0].writes[1] is outlets[2].writes[1]  # the same bytes for every spectator
    assert source.rendered == [(1, None), (2, None)]
    assert all(w.queue.empty() for w in feed.watchers)


async def test_a_socket_whose_kernel_holds_unsent_bytes_is_held_in_order_and_caught_up_in_one_write(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(fanout, "SWEEP_S", 0.01)
    monkeypatch.setattr(fanout, "SWEEP_MAX_S", 0.02)
    monkeypatch.setattr(fanout, "LAG_BYTES", 100)  # a decision here is 28 bytes on the wire
    source = Source()
    hub = make_hub(source, queue_size=64)
    feed = await hub.fold("m1")
    stuck, reader = FakeOutlet(), FakeOutlet()
    s = hub.watch(feed, None, outlet=stuck)  # type: ignore[arg-type]
    hub.watch(feed, None, outlet=reader)  # type: ignore[arg-type]
    for _ in range(6):
        await source.publish()
        reader.unsent_bytes = 0  # this one reads; the other never does
    assert len(reader.writes) == 6
    assert len(stuck.writes) == 4 and stuck.unsent_bytes == 112  # more than 100 unsent: held from then on
    assert s.lagging and feed.behind(s) == 4 and s in feed.held and s not in feed.live
    assert len(feed.log) == 2  # the two decisions it missed, kept once for every socket of its seat
    await asyncio.sleep(0.05)
    assert len(stuck.writes) == 4  # still behind: the sweep writes nothing
    stuck.unsent_bytes = 0  # it reads again
    await asyncio.sleep(0.1)
    assert len(stuck.writes) == 5 and not s.lagging and not feed.held and s in feed.live
    assert texts_of(stuck.writes[-1]) == [f"{kind} {n} None" for n in (5, 6) for kind in ("events", "view")]
    await source.publish()
    assert texts_of(stuck.writes[-1]) == ["events 7 None", "view 7 None"]
    assert feed.sweeper is None and not feed.log  # nobody lags: no sweep runs, nothing is kept


async def test_the_kernel_is_asked_only_when_what_was_written_could_exceed_the_lag(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(fanout, "LAG_BYTES", 100)  # a decision here is 28 bytes on the wire
    source = Source()
    hub = make_hub(source)
    feed = await hub.fold("m1")
    o = FakeOutlet()
    w = hub.watch(feed, None, outlet=o)  # type: ignore[arg-type]
    await source.publish(3)
    # Asked when it joined (how much its peer's window takes), not since.
    assert o.asked == 1 and [len(b) for b in o.writes] == [28, 28, 28] and w.owed == 84
    o.unsent_bytes = 0  # it read them
    await source.publish()
    assert o.asked == 2 and len(o.writes) == 4 and w.owed == 28


async def test_a_held_socket_that_falls_further_behind_than_its_queue_is_slow() -> None:
    source = Source()
    hub = make_hub(source, queue_size=4)
    feed = await hub.fold("m1")
    o = FakeOutlet()
    w = hub.watch(feed, None, outlet=o)  # type: ignore[arg-type]
    o.open = False  # its transport is paused
    await source.publish(2)
    assert feed.behind(w) == 4 and not w.slow
    await source.publish()
    assert w.slow and w.ended.is_set() and not o.writes
    assert w not in feed.held and not feed.log  # nothing is kept for it any more
    await source.publish()
    assert not o.writes


class CountingOutlet(FakeOutlet):
    def __init__(self) -> None:
        super().__init__()
        self.looked = 0

    def ready(self) -> bool:
        self.looked += 1
        return super().ready()


async def test_a_decision_costs_nothing_per_held_socket_and_each_seat_catches_up_on_its_own_frames(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(fanout, "SWEEP_S", 0.01)
    monkeypatch.setattr(fanout, "SWEEP_MAX_S", 0.02)
    source = Source()
    hub = make_hub(source, queue_size=64)
    feed = await hub.fold("m1")
    reader = FakeOutlet()
    hub.watch(feed, None, outlet=reader)  # type: ignore[arg-type]
    stuck = {seat: CountingOutlet() for seat in ("white", "black", None)}
    watchers = {seat: hub.watch(feed, seat, outlet=o) for seat, o in stuck.items()}  # type: ignore[arg-type]
    for o in stuck.values():
        o.open = False  # paused: held from the first decision on
    await source.publish()
    looked = {seat: o.looked for seat, o in stuck.items()}
    assert all(w in feed.held for w in watchers.values())
    for _ in range(4):
        await source.publish()
        reader.unsent_bytes = 0
    # Held sockets are not looked at per decision (a sweep looks at them now and then)...
    assert all(o.looked - looked[seat] <= 8 for seat, o in stuck.items())
    # ...but every seat among them is rendered once per decision, for when they catch up.
    assert {seat for seq, seat in source.rendered if seq == 5} == {None, "white", "black"}
    assert len(feed.log) == 5
    stuck["white"].open = True
    await asyncio.sleep(0.1)
    assert texts_of(stuck["white"].writes[-1]) == [
        f"{kind} {n} white" for n in range(1, 6) for kind in ("events", "view")
    ]
    assert watchers["white"] in feed.live and feed.held.keys() == {watchers["black"], watchers[None]}
    stuck["black"].open = stuck[None].open = True
    await asyncio.sleep(0.1)
    assert texts_of(stuck[None].writes[-1]) == [
        f"{kind} {n} None" for n in range(1, 6) for kind in ("events", "view")
    ]
    assert not feed.held
    await source.publish()
    assert not feed.log and all(texts_of(o.writes[-1])[-1].startswith("view 6") for o in stuck.values())


async def test_a_socket_whose_peer_window_has_no_room_for_a_decision_is_held_before_its_kernel_queues_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(fanout, "SWEEP_S", 0.01)
    monkeypatch.setattr(fanout, "SWEEP_MAX_S", 0.02)
    monkeypatch.setattr(fanout, "LAG_BYTES", 40)
    source = Source()
    hub = make_hub(source)
    feed = await hub.fold("m1")
    o = FakeOutlet()
    o.room = 70  # the first frames and a decision here are 28 bytes each: two fit
    w = hub.watch(feed, None, first=["events 0 None", "view 0 None"], outlet=o)  # type: ignore[arg-type]
    o.writes.clear()
    await source.publish(3)
    assert len(o.writes) == 1 and w in feed.held and o.unsent_bytes == 0  # nothing queued in its kernel
    await asyncio.sleep(0.05)
    assert len(o.writes) == 1  # the window is still shut: the sweep writes nothing
    o.unsent_bytes, o.room = 0, 1000  # it read
    await asyncio.sleep(0.1)
    assert texts_of(o.writes[-1]) == [f"{kind} {n} None" for n in (2, 3) for kind in ("events", "view")]
    assert w in feed.live and w.room == 1000 - 56


async def test_a_socket_whose_first_frames_fill_its_window_is_held_from_the_start(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(fanout, "SWEEP_S", 0.01)
    monkeypatch.setattr(fanout, "SWEEP_MAX_S", 0.02)
    source = Source()
    hub = make_hub(source)
    feed = await hub.fold("m1")
    o = FakeOutlet()
    o.room = 20  # less than its first frames (28 bytes)
    w = hub.watch(feed, None, first=["events 0 None", "view 0 None"], outlet=o)  # type: ignore[arg-type]
    assert w in feed.held and w not in feed.live and len(o.writes) == 1
    await source.publish(2)
    assert len(o.writes) == 1 and o.asked == 1 and feed.behind(w) == 4  # no decision looked at it
    o.unsent_bytes, o.room = 0, 1000  # it read
    await asyncio.sleep(0.1)
    assert texts_of(o.writes[-1]) == [f"{kind} {n} None" for n in (1, 2) for kind in ("events", "view")]
    assert w in feed.live and not feed.held


def test_an_outlet_sees_a_never_reading_peer_s_window_fill_and_a_reader_s_stay_open() -> None:
    import socket as sockets_

    if server.TCP_INFO is None:
        pytest.skip("TCP_INFO is Linux's")
    listener = sockets_.create_server(("127.0.0.1", 0))
    pairs = []
    for rcvbuf in (4096, 0):
        peer = sockets_.socket()
        if rcvbuf:
            peer.setsockopt(sockets_.SOL_SOCKET, sockets_.SO_RCVBUF, rcvbuf)
        peer.connect(listener.getsockname())
        conn, _ = listener.accept()
        conn.setblocking(False)
        transport = SimpleNamespace(
            get_extra_info=lambda name, conn=conn: conn, get_write_buffer_size=lambda: 0
        )
        pairs.append((peer, conn, server.SansIOOutlet(SimpleNamespace(transport=transport))))
    try:
        for _ in range(4):
            for _peer, conn, _o in pairs:
                conn.send(b"x" * 2200)
            time.sleep(0.02)
        (_, _, idle), (_, _, reader) = pairs
        unsent, room = idle.probe()
        assert room == 0 and unsent > 0  # its window is full, and the kernel queues the rest
        unsent, room = reader.probe()
        assert unsent == 0 and room > 8800  # a default window takes far more
    finally:
        for peer, conn, _o in pairs:
            peer.close()
            conn.close()
        listener.close()


def test_wire_frames_are_what_websockets_writes_for_a_server() -> None:
    from websockets.frames import Frame, Opcode

    texts = ["x" * 10, "y" * 300, "z" * 70_000, "é"]
    assert outlet.wire(texts) == b"".join(Frame(Opcode.TEXT, t.encode()).serialize(mask=False) for t in texts)
    assert texts_of(outlet.wire(texts)) == texts


async def test_sockets_that_join_at_the_same_seq_share_their_first_frames() -> None:
    source = Source()
    hub = make_hub(source)
    feed = await hub.fold("m1")
    renders: list[tuple[str | None, int]] = []

    def render(seat: str | None, since: int) -> list[str]:
        renders.append((seat, since))
        return [f"first {seat} {since} {feed.folded.seq}"]  # type: ignore[union-attr]

    a = feed.first_frames(None, 0, lambda: render(None, 0))
    assert feed.first_frames(None, 0, lambda: render(None, 0)) is a
    feed.first_frames("white", 0, lambda: render("white", 0))
    feed.first_frames(None, 3, lambda: render(None, 3))
    hub.watch(feed, None)
    await source.publish()
    assert feed.first_frames(None, 0, lambda: render(None, 0)) == ["first None 0 1"]
    assert renders == [(None, 0), ("white", 0), (None, 3), (None, 0)]
