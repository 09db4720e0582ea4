"""NATS connection, stream set-up and the JetStream event store."""

from __future__ import annotations

import asyncio
import json
import logging
import re
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import msgspec
import nats
import nats.errors
import nats.js.errors
from nats.aio.client import Client
from nats.js import JetStreamContext
from nats.js.api import (
    ConsumerConfig,
    DeliverPolicy,
    DiscardPolicy,
    KeyValueConfig,
    RetentionPolicy,
    StorageType,
    StreamConfig,
)
from nats.js.errors import APIError, BadRequestError, BucketNotFoundError, NotFoundError
from nats.js.kv import KeyValue

from contracts import subjects
from services.common import logs, metrics, natsauth
from services.common.natsauth import Credential

WRONG_LAST_SEQUENCE = 10071  # JetStream err_code for Nats-Expected-Last-Subject-Sequence mismatch
DUPLICATE_WINDOW_S = 600.0


# The identity (a user of services.common.natsauth) each connection made by ``connect`` with a
# credential runs as: ``ensure_streams`` and the readiness checks touch only what its row names.
_IDENTITIES: weakref.WeakKeyDictionary[Client, str] = weakref.WeakKeyDictionary()
# What nats-py hands the error callback for a refusal: the server's -ERR, lower-cased
# ("nats: permissions violation for publish to \"cmd.ugolki.0.m1\"").
_DENIED = re.compile(r'permissions violation for (publish|subscription) to "([^"]*)"')
log = logs.get("nats")


def identity_of(conn: Client | JetStreamContext) -> str | None:
    """The identity a connection (or its JetStream context) runs as; None on an open server."""
    nc = conn._nc if isinstance(conn, JetStreamContext) else conn
    return _IDENTITIES.get(nc)


def error_callback(service: str) -> Callable[[Exception], Awaitable[None]]:
    """nats-py's error callback for ``service``: a permission violation is logged
    (``nats_permission_denied``, with the subject) and counted
    (``gamehall_nats_permission_denied_total{service}``); any other error is logged as nats-py
    logs it by default."""
    metrics.NATS_PERMISSION_DENIED.labels(service)

    async def on_error(exc: Exception) -> None:
        found = _DENIED.search(str(exc))
        if found is None:
            logging.getLogger("nats.aio.client").error("nats: encountered error", exc_info=exc)
            return
        metrics.NATS_PERMISSION_DENIED.labels(service).inc()
        operation = "publish" if found.group(1) == "publish" else "subscribe"
        log.warning("nats_permission_denied", service=service, operation=operation, subject=found.group(2))

    return on_error


def connect_options(name: str, credential: Credential | None = None) -> dict[str, Any]:
    """The options every gamehall connection is made with (``connect``; FastStream's broker in
    matchmaking takes the same): the user, its own reply inbox prefix (``_INBOX_<identity>``, the
    only inbox its permissions let it subscribe to) and the error callback."""
    service = credential.user if credential else name.removeprefix("gamehall-")
    options: dict[str, Any] = {"error_cb": error_callback(service)}
    if credential is not None:
        options.update(
            user=credential.user,
            password=credential.password,
            inbox_prefix=natsauth.inbox_prefix(credential.user),
        )
    return options


async def connect(url: str, name: str, credential: Credential | None = None) -> Client:
    """Connect with endless reconnects.  ``url`` may list several servers of a cluster,
    comma-separated (``nats://a:4222,nats://b:4222``): the client starts from any that answers.
    ``credential``: the service's user on a server with accounts (``services.common.natsauth``);
    the connection then uses that identity's inbox prefix, and ``ensure_streams`` creates or
    waits for what that identity's row says.  Every refusal of the server is logged and counted
    (``error_callback``)."""
    servers = [part.strip() for part in url.split(",") if part.strip()]
    nc = await nats.connect(
        servers,
        name=name,
        max_reconnect_attempts=-1,
        reconnect_time_wait=0.25,
        connect_timeout=5,
        **connect_options(name, credential),
    )
    if credential is not None:
        _IDENTITIES[nc] = credential.user
    return nc


def used_streams(conn: Client | JetStreamContext, names: tuple[str, ...]) -> tuple[str, ...]:
    """Those of ``names`` the connection's identity uses (all of them on an open server)."""
    identity = identity_of(conn)
    if identity is None:
        return names
    used = natsauth.streams_used(identity)
    return tuple(n for n in names if n in used)


def _stream(name: str, subject: str, replicas: int = 1) -> StreamConfig:
    return StreamConfig(
        name=name,
        subjects=[subject],
        storage=StorageType.FILE,
        retention=RetentionPolicy.LIMITS,
        discard=DiscardPolicy.NEW,
        deny_delete=True,
        deny_purge=True,
        duplicate_window=DUPLICATE_WINDOW_S,
        allow_direct=True,
        num_replicas=replicas,
    )


STREAM_SUBJECTS = (
    (subjects.MATCH_STREAM, subjects.MATCH_SUBJECTS),
    (subjects.SECRET_STREAM, subjects.SECRET_SUBJECTS),
    (subjects.INTEGRATION_STREAM, subjects.INTEGRATION_SUBJECTS),
    (subjects.CERTIFICATE_STREAM, subjects.CERTIFICATE_SUBJECTS),
    (subjects.DISPUTE_STREAM, subjects.DISPUTE_SUBJECTS),
    (subjects.SEAL_STREAM, subjects.SEAL_SUBJECTS),
    (subjects.TOURNAMENT_STREAM, subjects.TOURNAMENT_SUBJECTS),
    (subjects.SEASON_STREAM, subjects.SEASON_SUBJECTS),
)
# Streams every service may see (account APP) and the referee's own (account SECRETS).
APP_STREAMS = (
    subjects.MATCH_STREAM,
    subjects.INTEGRATION_STREAM,
    subjects.CERTIFICATE_STREAM,
    subjects.DISPUTE_STREAM,
    subjects.SEAL_STREAM,
    subjects.TOURNAMENT_STREAM,
    subjects.SEASON_STREAM,
)
SECRET_STREAMS = (subjects.SECRET_STREAM,)


ONE_SHOT_WAIT_S = 15.0  # how long an operator command waits for a stream the referee creates
TRANSIENT = (BadRequestError, APIError, nats.errors.TimeoutError, nats.errors.NoRespondersError)


class StreamMissing(SystemExit):
    """A stream this identity may not create does not exist (an operator command, after a wait)."""

    def __init__(self, stream: str) -> None:
        creators = natsauth.creators_of(stream)
        who = " or ".join(creators) or "nobody"
        super().__init__(
            f"NATS stream {stream} does not exist yet: the {who} creates it when it starts "
            f"(gamehall up, or gamehall serve {creators[0] if creators else 'referee'})"
        )
        self.stream = stream


async def await_stream(js: JetStreamContext, name: str, timeout: float = 30.0, wait_s: float | None = None) -> None:
    """Wait until stream ``name`` exists (another identity creates it): as long as it takes, or
    ``wait_s`` seconds, then :class:`StreamMissing` (operator commands: ``ONE_SHOT_WAIT_S``).
    Errors other than "no such stream" are retried for ``timeout`` seconds as in
    ``ensure_streams``."""
    identity = identity_of(js)
    if wait_s is None and identity in natsauth.ONE_SHOT:
        wait_s = ONE_SHOT_WAIT_S
    loop = asyncio.get_running_loop()
    missing_until = None if wait_s is None else loop.time() + wait_s
    failing_since: float | None = None
    said = False
    while True:
        try:
            await js.stream_info(name)
            return
        except NotFoundError:
            failing_since = None
            if missing_until is not None and loop.time() > missing_until:
                raise StreamMissing(name) from None
            if not said:
                log.info("nats_stream_awaited", stream=name, created_by=list(natsauth.creators_of(name)))
                said = True
        except TRANSIENT:
            failing_since = failing_since or loop.time()
            if loop.time() - failing_since > timeout:
                raise
        await asyncio.sleep(0.25)


async def ensure_streams(
    js: JetStreamContext,
    timeout: float = 30.0,
    replicas: int = 1,
    streams: tuple[str, ...] = APP_STREAMS + SECRET_STREAMS,
) -> None:
    """Create the streams if missing, with ``replicas`` copies (3 on a JetStream cluster), and
    raise the replica count of existing streams to it.  Idempotent, safe when several services
    start at once, and patient with a nats-server that is still recovering its streams after a
    restart or a cluster that is still electing its leaders.

    On a connection of an identity (``connect`` with a credential) only the streams of
    ``streams`` that its row uses are touched: those it creates as above, the others waited for
    (``await_stream``), so services start in any order; then its durable consumers are moved to
    its own inbox if an older version left them delivering elsewhere (``adopt_durables``)."""
    identity = identity_of(js)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    for name, subject in STREAM_SUBJECTS:
        if name not in streams:
            continue
        if identity is not None:
            if name not in natsauth.streams_used(identity):
                continue
            if name not in natsauth.streams_created(identity):
                await await_stream(js, name, timeout)
                continue
        config = _stream(name, subject, replicas)
        while True:
            try:
                try:
                    info = await js.stream_info(name)
                except NotFoundError:
                    await js.add_stream(config)
                else:
                    if (info.config.num_replicas or 1) < replicas:
                        await js.update_stream(config)
                break
            except TRANSIENT:
                if loop.time() > deadline:
                    raise
                await asyncio.sleep(0.2)
    if identity is not None:
        await adopt_durables(js, identity, streams)


async def adopt_durables(js: JetStreamContext, identity: str, streams: tuple[str, ...]) -> None:
    """The durable push consumers of ``identity`` on ``streams`` deliver to its own inbox prefix:
    one created before the identities had their own inboxes (``_INBOX.…``, which it may no
    longer subscribe to) gets a new deliver subject, and keeps its position and pending acks."""
    prefix = natsauth.inbox_prefix(identity) + "."
    for stream, consumer in natsauth.durables_of(identity):
        if stream not in streams:
            continue
        try:
            info = await js.consumer_info(stream, consumer)
        except NotFoundError:
            continue
        config = info.config
        old = config.deliver_subject
        if not old or old.startswith(prefix):
            continue
        config.deliver_subject = js._nc.new_inbox()
        await js.add_consumer(stream, config=config)
        log.info("nats_consumer_moved", stream=stream, consumer=consumer, deliver_subject=config.deliver_subject)


BUCKETS = (subjects.TICKETS_BUCKET,)


async def ensure_buckets(js: JetStreamContext, timeout: float = 30.0, replicas: int = 1) -> dict[str, KeyValue]:
    """The key-value buckets (the matchmaking queue), created if missing with ``replicas``
    copies; existing ones get their replica count raised to it.  Idempotent like
    ``ensure_streams``, and like it, on a connection of an identity, only the buckets its row
    uses: created if it creates them, else waited for."""
    identity = identity_of(js)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    out: dict[str, KeyValue] = {}
    for bucket in BUCKETS:
        stream = subjects.kv_stream(bucket)
        if identity is not None:
            if stream not in natsauth.streams_used(identity):
                continue
            if stream not in natsauth.streams_created(identity):
                await await_stream(js, stream, timeout)
                out[bucket] = await js.key_value(bucket)
                continue
        while True:
            try:
                try:
                    kv = await js.key_value(bucket)
                except BucketNotFoundError:
                    kv = await js.create_key_value(
                        KeyValueConfig(bucket=bucket, history=1, storage=StorageType.FILE, replicas=replicas, direct=True)
                    )
                else:
                    info = await js.stream_info(stream)
                    if (info.config.num_replicas or 1) < replicas:
                        info.config.num_replicas = replicas
                        await js.update_stream(info.config)
                out[bucket] = kv
                break
            except TRANSIENT:
                if loop.time() > deadline:
                    raise
                await asyncio.sleep(0.2)
    return out


async def ensure_own_bucket(js: JetStreamContext, bucket: str, timeout: float = 30.0, replicas: int = 1) -> KeyValue:
    """A key-value bucket one identity alone uses (and creates): the seeds of tournaments in
    registration (``subjects.TOURNAMENT_SEEDS_BUCKET``, the ``tournaments`` identity's)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        try:
            try:
                return await js.key_value(bucket)
            except BucketNotFoundError:
                return await js.create_key_value(
                    KeyValueConfig(bucket=bucket, history=1, storage=StorageType.FILE, replicas=replicas, direct=True)
                )
        except TRANSIENT:
            if loop.time() > deadline:
                raise
            await asyncio.sleep(0.2)


DIRECT_BATCH = 256  # messages per batched direct get


class DirectGetUnsupported(Exception):
    """The server does not answer batched direct gets (nats-server before 2.11)."""


class AppendConflict(Exception):
    """Another decision was stored first: reload and decide again."""


@dataclass(frozen=True)
class Stored:
    stream_seq: int
    data: bytes


@dataclass(frozen=True)
class Appended:
    stream_seq: int
    duplicate: bool


class _PubAck(msgspec.Struct):
    """JetStream's answer to a publish: the stored sequence, or an error."""

    seq: int = 0
    duplicate: bool = False
    error: dict[str, Any] | None = None


_pub_ack = msgspec.json.Decoder(_PubAck)


class EventStore:
    """One subject per match on the matches stream; append = expected-sequence publish."""

    def __init__(self, js: JetStreamContext) -> None:
        self.js = js

    async def append(self, subject: str, data: bytes, expected_last_seq: int, msg_id: str) -> Appended:
        """``js.publish`` as nats-py does it (one request, the same errors), with the ack decoded
        by msgspec: nats-py's ``json.loads`` and ``PubAck.from_response`` cost more than the rest
        of the ack's handling on the referee's per-decision path."""
        headers = {subjects.EXPECTED_LAST_SUBJECT_SEQ: str(expected_last_seq), subjects.MSG_ID: msg_id}
        js: Any = self.js
        try:
            reply = await js._nc.request(subject, data, timeout=js._timeout, headers=headers)
        except nats.errors.NoRespondersError as exc:
            raise nats.js.errors.NoStreamResponseError from exc
        ack = _pub_ack.decode(reply.data)
        if ack.error is not None:
            try:
                APIError.from_error(ack.error)  # raises the error's own class, as js.publish does
            except APIError as exc:
                if exc.err_code == WRONG_LAST_SEQUENCE:
                    raise AppendConflict(str(exc)) from exc
                raise
        return Appended(stream_seq=ack.seq, duplicate=ack.duplicate)

    async def last_seq(self, stream: str, subject: str) -> int:
        try:
            msg = await self.js.get_last_msg(stream, subject)
        except NotFoundError:
            return 0
        return int(msg.seq or 0)

    async def load(
        self,
        subject: str,
        stream: str = subjects.MATCH_STREAM,
        timeout: float = 5.0,
        after: int = 0,
        last: int | None = None,
    ) -> list[Stored]:
        """The messages stored on ``subject`` after stream sequence ``after`` (all by default), in
        order, up to ``last`` (the subject's last sequence, looked up when not given).

        Read with JetStream's batched direct get, which creates no consumer: a gateway that
        polls thousands of times a minute must not leave consumers behind for the server to
        expire (they pile up to the server's consumer limit).  A server without batched direct
        gets is read with an ordered consumer, deleted afterwards."""
        if last is None:
            last = await self.last_seq(stream, subject)
        if last <= after:
            return []
        try:
            return await self._direct_batches(subject, stream, timeout, after, last)
        except DirectGetUnsupported:
            return await self._consumer_read(subject, stream, timeout, after, last)

    async def _direct_batches(
        self, subject: str, stream: str, timeout: float, after: int, last: int
    ) -> list[Stored]:
        nc = self.js._nc
        out: list[Stored] = []
        inbox = nc.new_inbox()
        sub = await nc.subscribe(inbox)
        try:
            start = after + 1
            while start <= last:
                request = {"seq": start, "next_by_subj": subject, "batch": DIRECT_BATCH}
                await nc.publish(f"$JS.API.DIRECT.GET.{stream}", json.dumps(request).encode(), reply=inbox)
                while True:
                    msg = await sub.next_msg(timeout=timeout)
                    headers = msg.headers or {}
                    status = headers.get("Status")
                    if status is None:
                        seq = int(headers["Nats-Sequence"])
                        if seq <= last:
                            out.append(Stored(stream_seq=seq, data=msg.data))
                        start = seq + 1
                        continue
                    if status == "204":  # end of this batch
                        if headers.get("Nats-Num-Pending", "0") == "0":
                            start = last + 1
                        break
                    if status == "404":  # nothing more on the subject
                        start = last + 1
                        break
                    raise DirectGetUnsupported(f"direct get answered {status} {headers}")
        finally:
            await sub.unsubscribe()
        return out

    async def _consumer_read(
        self, subject: str, stream: str, timeout: float, after: int, last: int
    ) -> list[Stored]:
        config = ConsumerConfig(
            deliver_policy=DeliverPolicy.BY_START_SEQUENCE, opt_start_seq=after + 1, inactive_threshold=5.0
        )
        sub = await self.js.subscribe(subject, stream=stream, ordered_consumer=True, config=config)
        out: list[Stored] = []
        try:
            while True:
                msg = await sub.next_msg(timeout=timeout)
                seq = msg.metadata.sequence.stream
                out.append(Stored(stream_seq=seq, data=msg.data))
                if seq >= last:
                    break
        finally:
            await sub.unsubscribe()
        return out

    async def find_match_subject(self, match_id: str) -> str | None:
        """The subject of a match id, whatever its game (one stream lookup)."""
        info = await self.js.stream_info(subjects.MATCH_STREAM, subjects_filter=f"match.*.{match_id}")
        found = sorted((info.state.subjects or {}).keys())
        return found[0] if found else None

    async def list_match_subjects(self) -> dict[str, int]:
        info = await self.js.stream_info(subjects.MATCH_STREAM, subjects_filter=subjects.MATCH_SUBJECTS)
        return dict(info.state.subjects or {})
