"""The matchmaking queue in the JetStream key-value bucket ``GH_TICKETS`` (one entry per player).

Every write is revision-checked (``create`` only when absent, ``update``/``delete`` only at the
revision read), so several matchmakers and gateways share one queue: two writers never both win,
and the loser reads again.  The matchmakers write; the gateways only read (NATS permissions,
``services.common.natsauth``).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import nats.errors
from nats.js.errors import APIError, KeyNotFoundError, KeyWrongLastSequenceError
from nats.js.kv import KV_DEL, KV_PURGE, KeyValue

from contracts import subjects
from contracts.codecs import encode
from contracts.matchmaking import FormingLease, QueueEntry, entry_decoder, lease_decoder
from domain.matchmaking.provenance import table_match_id as table_match_id

WRONG_LAST_SEQUENCE = 10071
# A table whose match was not created within this time is given up (its players are free again).
FORMING_TIMEOUT_MS = 60_000
# A gateway does not create the match of a table older than this (its players may have been
# freed by then): well under ``FORMING_TIMEOUT_MS``.
TABLE_TOO_OLD_MS = 30_000

Revision = int


class QueueStore:
    """Reads and revision-checked writes of queue entries, and (``watch``) a local mirror of
    the whole bucket that the matchmaker pairs from."""

    def __init__(self, kv: KeyValue) -> None:
        self.kv = kv
        # key -> (entry or None when deleted, revision); a write updates it at once, the watcher
        # brings other writers' changes and never moves a key back to an older revision.
        self.mirror: dict[str, tuple[QueueEntry | None, Revision]] = {}
        self.synced = asyncio.Event()
        self._watcher: Any = None

    # ------------------------------------------------------------------ reads
    async def get(self, player: str) -> tuple[QueueEntry | None, Revision]:
        """The player's entry and its revision (None, 0 when there is none)."""
        key = subjects.ticket_key(player)
        try:
            found = await self.kv.get(key)
        except KeyNotFoundError as exc:  # also a deleted key (KeyDeletedError)
            entry = getattr(exc, "entry", None)
            return None, int(getattr(entry, "revision", 0) or 0)
        if found.value is None:
            return None, int(found.revision or 0)
        return entry_decoder.decode(found.value), int(found.revision or 0)

    def entries(self) -> list[tuple[str, QueueEntry, Revision]]:
        return [(key, entry, rev) for key, (entry, rev) in self.mirror.items() if entry is not None]

    def _note(self, key: str, entry: QueueEntry | None, revision: Revision) -> None:
        current = self.mirror.get(key)
        if current is None or revision >= current[1]:
            self.mirror[key] = (entry, revision)

    # ------------------------------------------------------------------ writes
    async def create(self, player: str, entry: QueueEntry) -> Revision | None:
        """Store a new entry; None when the player already has one."""
        key = subjects.ticket_key(player)
        try:
            revision = await self.kv.create(key, encode(entry))
        except KeyWrongLastSequenceError:
            return None
        self._note(key, entry, revision)
        return revision

    async def update(self, player: str, entry: QueueEntry, last: Revision) -> Revision | None:
        """Replace the entry read at revision ``last``; None when it changed since."""
        key = subjects.ticket_key(player)
        try:
            revision = await self.kv.update(key, encode(entry), last=last)
        except KeyWrongLastSequenceError:
            return None
        self._note(key, entry, revision)
        return revision

    async def delete(self, player: str, last: Revision) -> bool:
        """Remove the entry read at revision ``last``; False when it changed since."""
        key = subjects.ticket_key(player)
        try:
            await self.kv.delete(key, last=last)
        except APIError as exc:
            if exc.err_code == WRONG_LAST_SEQUENCE:
                return False
            raise
        self._note(key, None, last + 1)
        return True

    # ------------------------------------------------------------------ the lease
    async def hold_lease(self, owner: str, now: int, lease_ms: int) -> bool:
        """True when ``owner`` holds the forming lease (taking or renewing it): at most one
        matchmaker forms tables at a time, the others take over when a lease runs out."""
        key = subjects.FORMING_LEASE_KEY
        fresh = encode(FormingLease(owner=owner, until=now + lease_ms))
        try:
            found = await self.kv.get(key)
        except KeyNotFoundError:
            try:
                await self.kv.create(key, fresh)
            except KeyWrongLastSequenceError:
                return False
            return True
        lease = lease_decoder.decode(found.value) if found.value else None
        if lease is not None and lease.owner != owner and lease.until >= now:
            return False
        try:
            await self.kv.update(key, fresh, last=found.revision)
        except KeyWrongLastSequenceError:
            return False
        return True

    async def release_lease(self, owner: str) -> None:
        key = subjects.FORMING_LEASE_KEY
        with contextlib.suppress(Exception):
            found = await self.kv.get(key)
            if found.value and lease_decoder.decode(found.value).owner == owner:
                await self.kv.delete(key, last=found.revision)

    # ------------------------------------------------------------------ the mirror
    async def watch(self) -> None:
        """Follow the bucket into ``mirror`` until cancelled; ``synced`` is set once the stored
        entries are in."""
        self._watcher = await self.kv.watch("player.>")
        try:
            while True:
                try:
                    update = await self._watcher.updates(timeout=5.0)
                except nats.errors.TimeoutError:
                    continue
                if update is None:  # every stored entry has been delivered
                    self.synced.set()
                    continue
                if update.operation in (KV_DEL, KV_PURGE) or update.value is None:
                    self._note(update.key, None, int(update.revision or 0))
                    continue
                try:
                    entry = entry_decoder.decode(update.value)
                except Exception:  # an entry version this build does not know: not ours to pair
                    continue
                self._note(update.key, entry, int(update.revision or 0))
        finally:
            with contextlib.suppress(Exception):
                await self._watcher.stop()
