"""WebSocket fan-out: the gateway follows each watched match once, however many sockets watch it.

A ``Hub`` keeps one ``Feed`` per followed match: one fold of the match and one JetStream ordered
consumer, started by the first socket and stopped when the last one leaves.  For each stored
decision the feed renders the frames once per distinct seat among its watchers (spectators
share theirs; one rendering per language of the views' sentences) and serializes them once per
seat for the wire; a crowd of sockets that join at once share their first frames too.

A socket that keeps up gets those bytes written straight to its transport (``outlet``): one
write for both frames, no task woken, nothing encoded again per socket, and the delivery never
holds the event loop for more than ``BREATHE_S`` at a time (a move's reply, which takes several
turns of the loop, does not wait behind hundreds of writes).  A socket that does not keep up is
held: more than ``LAG_BYTES`` written to it are still unsent (the network is slow, or its
transport is paused), or its peer's receive window has no room for the decision (it does not
read what it was sent: it is held before its kernel queues anything for it; one whose first
frames about fill its window is held from the start).  A held socket
leaves the sockets a decision is delivered to and only remembers the decision it stopped at;
the feed keeps each decision's frames (per seat, the bytes every socket of the seat shares)
from the oldest held socket's on.  A decision costs nothing per held socket, so sockets that
never read cost the match being played almost nothing.  While any socket of the feed is held a
sweep looks at it ``SWEEP_S`` after it began to lag, then about half as often each time it is
still behind (down to about every ``SWEEP_MAX_S``, spread so that sockets held at once are not
all looked at at once), and once it takes bytes again writes what it missed in one go; it then
gets every decision again.  The kernel is asked when a socket joins, then only when what was
written to it since could be more than ``LAG_BYTES`` (and by the sweep): a decision asks
nothing about a socket whose window had too little room when last asked, it holds it.  A socket
more than ``GAMEHALL_WS_SEND_QUEUE`` frames behind is marked slow and closed with 4408
(docs/api.md "Close codes").  A socket without an outlet (another server) gets its frames on a
bounded queue of the same size, which its task sends.  The hub also counts sockets per client
address for the cap (``GAMEHALL_MAX_SOCKETS_PER_ADDRESS``).

This module knows nothing of NATS or of games: the gateway gives it the three functions
(``load``, ``follow``, ``frames``) that do the work."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from itertools import islice
from time import perf_counter
from typing import Any

from domain.core.words import DEFAULT_LANG, Lang
from services.common import logs
from services.common.natsio import Stored
from services.common.reader import FoldedMatch
from services.gateway.outlet import Outlet, wire

log = logs.get("gateway")

BREATHE_S = 0.0001  # the longest a decision's delivery (or a sweep) holds the event loop at a time
SWEEP_S = 0.05  # how often a feed looks again at a socket that just began to lag
SWEEP_MAX_S = 0.4  # ... and at one that has lagged for a while
LAG_BYTES = 4 * 1024  # unsent bytes of a socket beyond which it is held (and the room it needs at most)
SLOW_CONSUMER_CLOSE = 4408  # the close code of a socket that does not read its frames

Load = Callable[[str], Awaitable[FoldedMatch]]
Follow = Callable[[FoldedMatch], AsyncIterator[Stored]]
Frames = Callable[[FoldedMatch, "str | None", int, Lang], list[str]]
Key = tuple["str | None", Lang]  # what a watcher's frames depend on: its seat and its language


class Rendered:
    """The frames of one decision for one seat: their texts (for ``send``), and the same frames
    serialized once for the wire (for outlets), made the first time a watcher needs them."""

    __slots__ = ("_wire", "texts")

    def __init__(self, texts: list[str]) -> None:
        self.texts = texts
        self._wire: bytes | None = None

    @property
    def wire(self) -> bytes:
        if self._wire is None:
            self._wire = wire(self.texts)
        return self._wire


@dataclass(eq=False)
class Watcher:
    """One socket's place on a feed: its seat, the language of its views' sentences, the outlet
    of its connection (None: every frame goes through ``queue``, which its task sends), where
    it stopped while it lags, and whether it fell behind (``slow``) or the feed failed
    (``failed``)."""

    seat: str | None
    queue: asyncio.Queue[str]
    lang: Lang = DEFAULT_LANG
    outlet: Outlet | None = None
    ended: asyncio.Event = field(default_factory=asyncio.Event)
    slow: bool = False
    failed: bool = False
    lagging: bool = False  # held: it gets no frames until a sweep sees it caught up
    stopped: int = 0  # while it lags: the first decision (the feed's count) it has not been written
    stopped_frames: int = 0  # ... and the feed's count of frames before that decision
    owed: int = 0  # at most this many bytes written to it are still unsent
    room: int = (
        0  # about this many more bytes its peer's window took when last asked, less those written since
    )
    probe_every: float = 0.0  # seconds between sweeps that look at it while it lags (doubling)
    probe_at: float = 0.0

    @property
    def key(self) -> Key:
        return (self.seat, self.lang)

    def offer(self, frames: Rendered | list[str]) -> bool:
        """The frames of one decision, all or none: written at once to a socket that keeps up
        (True), else queued (a watcher without an outlet; one with no room for them is slow) or,
        for one that does not keep up, not written at all and the watcher marked ``lagging``:
        its feed holds it."""
        if self.ended.is_set():
            return False
        if isinstance(frames, list):
            frames = Rendered(frames)
        outlet = self.outlet
        if outlet is None:
            texts = frames.texts
            limit = self.queue.maxsize
            if limit and self.queue.qsize() + len(texts) > limit:
                self.mark_slow()
            else:
                for text in texts:
                    self.queue.put_nowait(text)
            return False
        if outlet.ready():
            data = frames.wire
            size = len(data)
            if self.owed + size > LAG_BYTES:
                # It may be behind: ask the kernel (only now and then, not for every write).
                self.owed, self.room = outlet.probe()
            # Too little room in its peer's window when last asked: a socket that does not
            # read, held without asking again (the sweep asks, off the decision's way).
            if self.owed <= LAG_BYTES and self.room >= min(size, LAG_BYTES):
                outlet.write(data)
                self.owed += size
                self.room -= size
                return True
        self.lagging = True
        return False

    def mark_slow(self) -> None:
        self.slow = True
        self.ended.set()

    async def next(self) -> str | None:
        """The next frame to send, or None once the watcher is slow or its feed has failed."""
        if self.ended.is_set():
            return None
        if not self.queue.empty():  # the common case: no futures to make
            return self.queue.get_nowait()
        getter = asyncio.ensure_future(self.queue.get())
        ender = asyncio.ensure_future(self.ended.wait())
        try:
            await asyncio.wait({getter, ender}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            ender.cancel()
            if not getter.done():
                getter.cancel()
        if getter.done() and not getter.cancelled():
            return getter.result()
        return None


class Feed:
    """One followed match: the fold, the consumer task and the watchers (every one; those a
    decision is delivered to; those held), and the frames of the decisions the held ones missed."""

    def __init__(self, hub: Hub, match_id: str) -> None:
        self.hub = hub
        self.match_id = match_id
        self.watchers: dict[Watcher, None] = {}  # every watcher, in the order they came
        self.live: dict[Watcher, None] = {}  # those a decision is delivered to: the first served first
        self.held: dict[Watcher, None] = {}  # those that lag, in the order they stopped
        self.keys: dict[Key, int] = {}  # the seats and languages of the watchers, and how many of each
        self.decisions = 0  # decisions delivered
        self.frames = 0  # frames of those decisions (the most of any seat's)
        self.log: deque[dict[Key, Rendered]] = deque()  # decisions from the oldest held watcher's on
        self.log_start = 0  # the decision (count) of log[0]
        self.delivering = False  # a decision is being delivered: the sweep writes nothing meanwhile
        self.folded: FoldedMatch | None = None
        self.ready: asyncio.Future[FoldedMatch] = asyncio.get_running_loop().create_future()
        self.sweeper: asyncio.Task[None] | None = None
        self._first: dict[tuple[str | None, int, Lang], list[str]] = {}  # at the fold's seq, below
        self._first_seq = -1
        self.task = asyncio.create_task(self._run())

    def first_frames(
        self, seat: str | None, since: int, render: Callable[[], list[str]], lang: Lang = DEFAULT_LANG
    ) -> list[str]:
        """A new socket's first frames, rendered once per seat, ``since`` and language at each
        seq of the fold: a crowd joining a match at once costs one rendering, not one each."""
        assert self.folded is not None
        if self._first_seq != self.folded.seq:
            self._first.clear()
            self._first_seq = self.folded.seq
        key = (seat, since, lang)
        texts = self._first.get(key)
        if texts is None:
            texts = self._first[key] = render()
        return texts

    def add(self, watcher: Watcher, held: bool = False) -> None:
        """A new watcher, which gets every decision from the next on: delivered to it as it
        comes, or (``held``: its peer's window is full already, of its first frames) kept for it
        until a sweep sees it take bytes."""
        self.watchers[watcher] = None
        self.keys[watcher.key] = self.keys.get(watcher.key, 0) + 1
        if held and not self.delivering:  # (during a delivery the next decision holds it)
            self._hold(watcher, self.decisions, self.frames)
        else:
            self.live[watcher] = None

    def _hold(self, watcher: Watcher, decision: int, frames_before: int) -> None:
        self.live.pop(watcher, None)
        watcher.lagging = True
        watcher.stopped, watcher.stopped_frames = decision, frames_before
        watcher.probe_every = watcher.probe_at = 0.0
        self.held[watcher] = None
        self.sweep_soon()

    def remove(self, watcher: Watcher) -> None:
        if watcher not in self.watchers:
            return
        del self.watchers[watcher]
        self.live.pop(watcher, None)
        self.held.pop(watcher, None)
        left = self.keys[watcher.key] - 1
        if left:
            self.keys[watcher.key] = left
        else:
            del self.keys[watcher.key]

    def behind(self, watcher: Watcher) -> int:
        """Frames a held watcher has not been written (0 for one that keeps up)."""
        return self.frames - watcher.stopped_frames if watcher.lagging else 0

    async def _run(self) -> None:
        try:
            folded = await self.hub.load(self.match_id)
        except BaseException as exc:
            self.hub.feeds.pop(self.match_id, None)
            if not self.ready.done():
                self.ready.set_exception(exc)
            self.ready.exception()  # retrieved: the waiting sockets see it themselves
            return
        self.folded = folded
        self.ready.set_result(folded)
        try:
            async for item in self.hub.follow(folded):
                env = folded.apply(item)
                await self._deliver(folded, env.seq - 1)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("websocket_follow_failed", match_id=self.match_id)
            if self.hub.feeds.get(self.match_id) is self:
                del self.hub.feeds[self.match_id]
            for watcher in self.watchers:
                watcher.failed = True
                watcher.ended.set()
        finally:
            if self.sweeper is not None:
                self.sweeper.cancel()

    async def _deliver(self, folded: FoldedMatch, since: int) -> None:
        """One decision to every watcher that keeps up, in the order they came; a watcher that
        stops keeping up is held from this decision on.  The fold does not move meanwhile (the
        next decision waits for this one), so every seat's frames are rendered from it."""
        rendered: dict[Key, Rendered] = {}
        decision = self.decisions
        frames_before = self.frames
        self.decisions += 1
        self.log.append(rendered)  # a watcher held during this delivery stops at it
        self.delivering = True
        try:
            await self._offer_all(folded, since, rendered, decision, frames_before)
        finally:
            self.delivering = False
        for key in self.keys:  # the seats of held watchers only, which a sweep may write later
            if key not in rendered:
                frames = rendered[key] = Rendered(self.hub.frames(folded, key[0], since, key[1]))
                self.frames = max(self.frames, frames_before + len(frames.texts))
        self._drop_behind()

    async def _offer_all(
        self,
        folded: FoldedMatch,
        since: int,
        rendered: dict[Key, Rendered],
        decision: int,
        frames_before: int,
    ) -> None:
        breathe_at = perf_counter() + BREATHE_S
        for watcher in list(self.live):
            frames = rendered.get(watcher.key)
            if frames is None:
                frames = rendered[watcher.key] = Rendered(
                    self.hub.frames(folded, watcher.seat, since, watcher.lang)
                )
                self.frames = max(self.frames, frames_before + len(frames.texts))
            if not watcher.offer(frames) and watcher.lagging and watcher in self.live:
                self._hold(watcher, decision, frames_before)
            if perf_counter() >= breathe_at:
                # The loop polls its sockets and runs what is ready between batches: hundreds
                # of writes for one decision do not hold up a request that arrives meanwhile
                # (a move's reply takes several turns of the loop on its way out).
                await asyncio.sleep(0)
                breathe_at = perf_counter() + BREATHE_S

    def _drop_behind(self) -> None:
        """Held watchers more frames behind than their queue are slow (the furthest behind come
        first in ``held``); the log keeps the decisions from the oldest still held one's on."""
        while self.held:
            watcher = next(iter(self.held))
            limit = watcher.queue.maxsize
            if not watcher.ended.is_set() and (not limit or self.frames - watcher.stopped_frames <= limit):
                break
            del self.held[watcher]
            if not watcher.ended.is_set():
                watcher.mark_slow()
        keep = next(iter(self.held)).stopped if self.held else self.decisions
        while self.log_start < keep:
            self.log.popleft()
            self.log_start += 1

    def sweep_soon(self) -> None:
        if self.sweeper is None:
            self.sweeper = asyncio.create_task(self._sweep())

    async def _sweep(self) -> None:
        """Every ``SWEEP_S`` while some watcher is held: look at those whose time has come."""
        loop = asyncio.get_running_loop()
        try:
            while self.held:
                await asyncio.sleep(SWEEP_S)
                now = loop.time()
                due = [w for w in self.held if w.probe_at <= now]
                breathe_at = perf_counter() + BREATHE_S
                for watcher in due:
                    if self.delivering:  # a decision's frames are not all rendered yet
                        break
                    if watcher in self.held:  # (not gone during the turns between batches)
                        self._probe(watcher, now)
                    if perf_counter() >= breathe_at:
                        await asyncio.sleep(0)
                        breathe_at = perf_counter() + BREATHE_S
        finally:
            self.sweeper = None

    def _probe(self, watcher: Watcher, now: float) -> None:
        """A held watcher looked at again: what it missed is written in one go once its kernel
        has sent what it was given, and it gets every decision again.  One that is still behind
        is looked at about half as often next time (down to about every ``SWEEP_MAX_S``)."""
        outlet = watcher.outlet
        if outlet is None or watcher.ended.is_set():
            del self.held[watcher]
            return
        unsent, room = outlet.probe()
        if unsent <= LAG_BYTES and outlet.ready():
            missed = [
                entry[watcher.key].wire for entry in islice(self.log, watcher.stopped - self.log_start, None)
            ]
            size = sum(map(len, missed))
            # Room for what it missed (or, when it missed nothing yet, the room a socket needs
            # to join: its first frames read); a socket that does not read stays held.
            if room >= (min(size, LAG_BYTES) if size else LAG_BYTES):
                del self.held[watcher]
                watcher.lagging = False
                if missed:
                    outlet.write(b"".join(missed))
                watcher.owed, watcher.room = unsent + size, room - size
                self.live[watcher] = None
                return
        watcher.probe_every = min(SWEEP_MAX_S, max(SWEEP_S, watcher.probe_every * 2))
        # Spread: sockets held in the same decision are not all looked at in the same sweep.
        watcher.probe_at = now + watcher.probe_every * random.uniform(0.75, 1.25)


class Hub:
    """The feeds of one gateway and its sockets per client address."""

    def __init__(self, load: Load, follow: Follow, frames: Frames, queue_size: int, per_address: int) -> None:
        self.load = load
        self.follow = follow
        self.frames = frames
        self.queue_size = queue_size
        self.per_address = per_address  # 0: no cap
        self.feeds: dict[str, Feed] = {}
        self.sockets: dict[str, int] = {}

    # -------------------------------------------------------------- per address
    def admit(self, address: str) -> bool:
        """Count a socket of ``address``; False (and not counted) when the address is at its cap."""
        count = self.sockets.get(address, 0)
        if self.per_address and count >= self.per_address:
            return False
        self.sockets[address] = count + 1
        return True

    def release(self, address: str) -> None:
        count = self.sockets.get(address, 0) - 1
        if count > 0:
            self.sockets[address] = count
        else:
            self.sockets.pop(address, None)

    # -------------------------------------------------------------- watching
    async def fold(self, match_id: str) -> Feed:
        """The match's feed, started if nobody watches it yet, once its fold is loaded."""
        feed = self.feeds.get(match_id)
        if feed is None:
            feed = self.feeds[match_id] = Feed(self, match_id)
        try:
            await asyncio.shield(feed.ready)
        except asyncio.CancelledError:
            await self.leave(feed, None)
            raise
        return feed

    def watch(
        self,
        feed: Feed,
        seat: str | None,
        lang: Lang = DEFAULT_LANG,
        first: Sequence[str] = (),
        outlet: Outlet | None = None,
    ) -> Watcher:
        """A watcher on ``feed`` from its fold as it is now: every later decision reaches it.

        The caller renders its ``first`` frames from ``feed.folded`` before it next awaits;
        they are the watcher's first frames, so nothing is missed, sent twice or overtaken
        between them and the later ones."""
        watcher = Watcher(
            seat=seat, queue=asyncio.Queue(max(self.queue_size, len(first))), lang=lang, outlet=outlet
        )
        if first and (outlet is None or not outlet.ready()):
            watcher.outlet = None  # not open for writes yet: this socket goes through send
            for text in first:
                watcher.queue.put_nowait(text)
        elif outlet is not None:
            data = wire(first) if first else b""
            if data:
                outlet.write(data)
            watcher.owed, watcher.room = outlet.probe()  # and what its peer's window took of them
            if data and (watcher.owed > LAG_BYTES or watcher.room < LAG_BYTES):
                # Its first frames (about) fill its window: held from the start, and no decision
                # spends anything on it until a sweep sees it take bytes.
                feed.add(watcher, held=True)
                return watcher
        feed.add(watcher)
        return watcher

    async def leave(self, feed: Feed, watcher: Watcher | None) -> None:
        """Drop a watcher (None: a socket that got the feed but never watched); the last one
        out stops the feed (and its consumer)."""
        if watcher is not None:
            feed.remove(watcher)
            watcher.ended.set()
        if feed.watchers:
            return
        if self.feeds.get(feed.match_id) is feed:
            del self.feeds[feed.match_id]
        feed.task.cancel()
        with contextlib.suppress(BaseException):
            await asyncio.wait({feed.task}, timeout=0.5)

    async def stop(self) -> None:
        for feed in list(self.feeds.values()):
            feed.task.cancel()
        self.feeds.clear()

    def stats(self) -> dict[str, Any]:
        return {"feeds": len(self.feeds), "watchers": sum(len(f.watchers) for f in self.feeds.values())}
