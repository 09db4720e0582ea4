"""WebSocket fan-out: the gateway follows each watched match once, however many sockets watch it.

A ``Hub`` keeps one ``Feed`` per followed match: one fold of the match and one JetStream ordered
consumer, started by the first socket and stopped when the last one leaves.  For each stored
decision the feed renders the frames once per distinct seat among its watchers (spectators
share theirs) and puts the texts on each watcher's bounded queue without waiting.  A watcher
whose queue is full (a socket that does not read: its sends are blocked by TCP backpressure)
is marked slow and its socket is closed with 4408 (docs/api.md "Close codes").  The hub also
counts sockets per client address for the cap (``GAMEHALL_MAX_SOCKETS_PER_ADDRESS``).

This module knows nothing of NATS or of games: the gateway gives it the three functions
(``load``, ``follow``, ``frames``) that do the work."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from domain.core.words import DEFAULT_LANG, Lang
from services.common import logs
from services.common.natsio import Stored
from services.common.reader import FoldedMatch

log = logs.get("gateway")

OFFER_BATCH = 32  # watchers woken per turn of the event loop
SLOW_CONSUMER_CLOSE = 4408  # the close code of a socket that does not read its frames

Load = Callable[[str], Awaitable[FoldedMatch]]
Follow = Callable[[FoldedMatch], AsyncIterator[Stored]]
Frames = Callable[[FoldedMatch, "str | None", int, Lang], list[str]]


@dataclass(eq=False)
class Watcher:
    """One socket's place on a feed: its seat, the language of its views' sentences, its bounded
    queue of frame texts, and whether it fell behind (``slow``) or the feed failed (``failed``)."""

    seat: str | None
    queue: asyncio.Queue[str]
    lang: Lang = DEFAULT_LANG
    ended: asyncio.Event = field(default_factory=asyncio.Event)
    slow: bool = False
    failed: bool = False

    def offer(self, frames: list[str]) -> None:
        """The frames of one decision, all or none: a watcher that has no room for them is slow."""
        if self.ended.is_set():
            return
        if self.queue.maxsize and self.queue.qsize() + len(frames) > self.queue.maxsize:
            self.slow = True
            self.ended.set()
            return
        for text in frames:
            self.queue.put_nowait(text)

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
        self.task = asyncio.create_task(self._run())

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
                rendered: dict[tuple[str | None, Lang], list[str]] = {}
                for i, watcher in enumerate(list(self.watchers)):
                    key = (watcher.seat, watcher.lang)
                    texts = rendered.get(key)
                    if texts is None:
                        texts = rendered[key] = self.hub.frames(folded, watcher.seat, env.seq - 1, watcher.lang)
                    watcher.offer(texts)
                    if i % OFFER_BATCH == OFFER_BATCH - 1:
                        # The loop polls its sockets between batches: hundreds of sends for one
                        # decision do not hold up the requests that arrive meanwhile.
                        await asyncio.sleep(0)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("websocket_follow_failed", match_id=self.match_id)
            if self.hub.feeds.get(self.match_id) is self:
                del self.hub.feeds[self.match_id]
            for watcher in self.watchers:
                watcher.failed = True
                watcher.ended.set()


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

    def watch(self, feed: Feed, seat: str | None, lang: Lang = DEFAULT_LANG) -> Watcher:
        """A watcher on ``feed`` from its fold as it is now: every later decision reaches it.

        The caller renders its first frames from ``feed.folded`` before it next awaits, so
        nothing is missed or sent twice between those frames and the queued ones."""
        watcher = Watcher(seat=seat, queue=asyncio.Queue(self.queue_size), lang=lang)
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
