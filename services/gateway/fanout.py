"""WebSocket fan-out: the gateway follows each watched match once, however many sockets watch it.

A ``Hub`` keeps one ``Feed`` per followed match: one fold of the match and one JetStream ordered
consumer, started by the first socket and stopped when the last one leaves.  For each stored
decision the feed renders the frames once per distinct seat among its watchers (spectators
share theirs; one rendering per language of the views' sentences) and serializes them once per seat for the wire; a crowd of sockets that join
at once share their first frames too.

A socket that keeps up gets those bytes written straight to its transport (``outlet``): one
write for both frames, no task woken, nothing encoded again per socket.  A socket that does not
keep up (more than ``LAG_BYTES`` written to it are still unsent: its peer's window is shut, or
its transport is paused) is held: its frames wait in the gateway, in order, and while any
socket of the feed lags a sweep writes them in one go to those that have caught up (it looks
at a socket ``SWEEP_S`` after it began to lag, then half as often each time it is still
behind, down to every ``SWEEP_MAX_S``).  The kernel is asked how much is unsent only when the bytes written since it was
last asked could be more than ``LAG_BYTES``.  Holding costs a list append per decision, so
sockets that never read cost the match being played almost nothing.  A socket with more than
``GAMEHALL_WS_SEND_QUEUE`` frames held is marked slow and closed with 4408 (docs/api.md "Close
codes").  A socket without an outlet (another server) gets its frames on a bounded queue of
the same size, which its task sends.  The hub also counts sockets per client address for the
cap (``GAMEHALL_MAX_SOCKETS_PER_ADDRESS``).

This module knows nothing of NATS or of games: the gateway gives it the three functions
(``load``, ``follow``, ``frames``) that do the work."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from domain.core.words import DEFAULT_LANG, Lang
from services.common import logs
from services.common.natsio import Stored
from services.common.reader import FoldedMatch
from services.gateway.outlet import Outlet, wire

log = logs.get("gateway")

OFFER_BATCH = 16  # sockets written per turn of the event loop
HELD_BATCH = 128  # sockets served per turn of the event loop, however they are served
SWEEP_S = 0.05  # how often a feed looks again at a socket that just began to lag
SWEEP_MAX_S = 0.4  # ... and at one that has lagged for a while
LAG_BYTES = 4 * 1024  # unsent bytes of a socket beyond which its frames are held
SLOW_CONSUMER_CLOSE = 4408  # the close code of a socket that does not read its frames

Load = Callable[[str], Awaitable[FoldedMatch]]
Follow = Callable[[FoldedMatch], AsyncIterator[Stored]]
Frames = Callable[[FoldedMatch, "str | None", int, Lang], list[str]]


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
    of its connection (None: every frame goes through ``queue``, which its task sends), the
    frames held for it while it lags, and whether it fell behind (``slow``) or the feed failed
    (``failed``)."""

    seat: str | None
    queue: asyncio.Queue[str]
    lang: Lang = DEFAULT_LANG
    outlet: Outlet | None = None
    ended: asyncio.Event = field(default_factory=asyncio.Event)
    slow: bool = False
    failed: bool = False
    lagging: bool = False  # its frames are held until a sweep sees it caught up
    held: list[bytes] = field(default_factory=list)
    held_frames: int = 0
    owed: int = 0  # at most this many bytes written to it are still unsent
    probe_every: float = 0.0  # seconds between sweeps that look at it while it lags (doubling)
    probe_at: float = 0.0

    def offer(self, frames: Rendered | list[str]) -> bool:
        """The frames of one decision, all or none: written at once to a socket that keeps up,
        else held (or queued); a watcher that has no room for them is slow.  True when they
        were written (the costly case: the caller lets the loop breathe between batches)."""
        if self.ended.is_set():
            return False
        if isinstance(frames, list):
            frames = Rendered(frames)
        outlet = self.outlet
        if outlet is None:
            texts = frames.texts
            if not self._full(len(texts), self.queue.qsize()):
                for text in texts:
                    self.queue.put_nowait(text)
            return False
        if not self.lagging and outlet.ready():
            data = frames.wire
            if self.owed + len(data) > LAG_BYTES:
                # It may be behind: ask the kernel (only now and then, not for every write).
                self.owed = outlet.unsent()
            if self.owed <= LAG_BYTES:
                outlet.write(data)
                self.owed += len(data)
                return True
        if not self._full(len(frames.texts), self.held_frames):
            self.lagging = True
            self.held.append(frames.wire)
            self.held_frames += len(frames.texts)
        return False

    def _full(self, adding: int, waiting: int) -> bool:
        limit = self.queue.maxsize
        if limit and waiting + adding > limit:
            self.slow = True
            self.ended.set()
            return True
        return False

    def sweep(self, now: float) -> None:
        """A lagging socket looked at again: what was held for it is written in one go once
        its kernel has sent what it was given.  One that is still behind is looked at half as
        often next time (down to every ``SWEEP_MAX_S``)."""
        outlet = self.outlet
        if outlet is None or self.ended.is_set() or not self.lagging or now < self.probe_at:
            return
        unsent = outlet.unsent()
        if unsent <= LAG_BYTES and outlet.ready():
            data = b"".join(self.held)
            self.held.clear()
            self.held_frames = 0
            self.lagging = False
            self.probe_every = 0.0
            if data:
                outlet.write(data)
            self.owed = unsent + len(data)
            return
        self.probe_every = min(SWEEP_MAX_S, max(SWEEP_S, self.probe_every * 2))
        self.probe_at = now + self.probe_every

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
    """One followed match: the fold, the consumer task and the watchers."""

    def __init__(self, hub: Hub, match_id: str) -> None:
        self.hub = hub
        self.match_id = match_id
        self.watchers: dict[Watcher, None] = {}  # in the order they came: the first served first
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
        """One decision to every watcher, in the order they came."""
        rendered: dict[tuple[str | None, Lang], Rendered] = {}
        writes = 0
        for i, watcher in enumerate(list(self.watchers)):
            key = (watcher.seat, watcher.lang)
            frames = rendered.get(key)
            if frames is None:
                frames = rendered[key] = Rendered(self.hub.frames(folded, watcher.seat, since, watcher.lang))
            if watcher.offer(frames):
                writes += 1
                if writes % OFFER_BATCH == 0:
                    # The loop polls its sockets between batches: hundreds of writes for one
                    # decision do not hold up the requests that arrive meanwhile.
                    await asyncio.sleep(0)
                    continue
            elif watcher.lagging:
                self.sweep_soon()
            if i % HELD_BATCH == HELD_BATCH - 1:
                await asyncio.sleep(0)  # nor do hundreds of held ones, cheap as each is

    def sweep_soon(self) -> None:
        if self.sweeper is None:
            self.sweeper = asyncio.create_task(self._sweep())

    async def _sweep(self) -> None:
        """Every ``SWEEP_S`` while some watcher lags: write to those that caught up."""
        loop = asyncio.get_running_loop()
        try:
            while True:
                await asyncio.sleep(SWEEP_S)
                lagging = [w for w in self.watchers if w.lagging and not w.ended.is_set()]
                if not lagging:
                    return
                now = loop.time()
                for i, watcher in enumerate(lagging):
                    watcher.sweep(now)
                    if i % (OFFER_BATCH * 4) == OFFER_BATCH * 4 - 1:
                        await asyncio.sleep(0)
        finally:
            self.sweeper = None


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
        watcher = Watcher(seat=seat, queue=asyncio.Queue(max(self.queue_size, len(first))), lang=lang, outlet=outlet)
        if first:
            if outlet is not None and not outlet.ready():
                watcher.outlet = None  # not open for writes yet: this socket goes through send
            watcher.offer(list(first))
        feed.watchers[watcher] = None
        return watcher

    async def leave(self, feed: Feed, watcher: Watcher | None) -> None:
        """Drop a watcher (None: a socket that got the feed but never watched); the last one
        out stops the feed (and its consumer)."""
        if watcher is not None:
            feed.watchers.pop(watcher, None)
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
