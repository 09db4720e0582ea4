"""NATS connection, stream set-up and the JetStream event store."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass

import nats
import nats.errors
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
from services.common.natsauth import Credential

WRONG_LAST_SEQUENCE = 10071  # JetStream err_code for Nats-Expected-Last-Subject-Sequence mismatch
DUPLICATE_WINDOW_S = 600.0


async def connect(url: str, name: str, credential: Credential | None = None) -> Client:
    """Connect with endless reconnects.  ``url`` may list several servers of a cluster,
    comma-separated (``nats://a:4222,nats://b:4222``): the client starts from any that answers.
    ``credential``: the service's user on a server with accounts (``services.common.natsauth``)."""
    servers = [part.strip() for part in url.split(",") if part.strip()]
    auth = {"user": credential.user, "password": credential.password} if credential else {}
    return await nats.connect(
        servers,
        name=name,
        max_reconnect_attempts=-1,
        reconnect_time_wait=0.25,
        connect_timeout=5,
        **auth,
    )


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
)
# Streams every service may see (account APP) and the referee's own (account SECRETS).
APP_STREAMS = (
    subjects.MATCH_STREAM,
    subjects.INTEGRATION_STREAM,
    subjects.CERTIFICATE_STREAM,
    subjects.DISPUTE_STREAM,
    subjects.SEAL_STREAM,
)
SECRET_STREAMS = (subjects.SECRET_STREAM,)


async def ensure_streams(
    js: JetStreamContext,
    timeout: float = 30.0,
    replicas: int = 1,
    streams: tuple[str, ...] = APP_STREAMS + SECRET_STREAMS,
) -> None:
    """Create the streams if missing, with ``replicas`` copies (3 on a JetStream cluster), and
    raise the replica count of existing streams to it.  Idempotent, safe when several services
    start at once, and patient with a nats-server that is still recovering its streams after a
    restart or a cluster that is still electing its leaders."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    for name, subject in STREAM_SUBJECTS:
        if name not in streams:
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
            except (BadRequestError, APIError, nats.errors.TimeoutError, nats.errors.NoRespondersError):
                if loop.time() > deadline:
                    raise
                await asyncio.sleep(0.2)


BUCKETS = (subjects.TICKETS_BUCKET,)


async def ensure_buckets(js: JetStreamContext, timeout: float = 30.0, replicas: int = 1) -> dict[str, KeyValue]:
    """The key-value buckets (the matchmaking queue), created if missing with ``replicas``
    copies; existing ones get their replica count raised to it.  Idempotent like
    ``ensure_streams``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    out: dict[str, KeyValue] = {}
    for bucket in BUCKETS:
        while True:
            try:
                try:
                    kv = await js.key_value(bucket)
                except BucketNotFoundError:
                    kv = await js.create_key_value(
                        KeyValueConfig(bucket=bucket, history=1, storage=StorageType.FILE, replicas=replicas, direct=True)
                    )
                else:
                    info = await js.stream_info(subjects.kv_stream(bucket))
                    if (info.config.num_replicas or 1) < replicas:
                        info.config.num_replicas = replicas
                        await js.update_stream(info.config)
                out[bucket] = kv
                break
            except (BadRequestError, APIError, nats.errors.TimeoutError, nats.errors.NoRespondersError):
                if loop.time() > deadline:
                    raise
                await asyncio.sleep(0.2)
    return out


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


class EventStore:
    """One subject per match on the matches stream; append = expected-sequence publish."""

    def __init__(self, js: JetStreamContext) -> None:
        self.js = js

    async def append(self, subject: str, data: bytes, expected_last_seq: int, msg_id: str) -> Appended:
        headers = {subjects.EXPECTED_LAST_SUBJECT_SEQ: str(expected_last_seq), subjects.MSG_ID: msg_id}
        try:
            ack = await self.js.publish(subject, data, headers=headers)
        except APIError as exc:
            if exc.err_code == WRONG_LAST_SEQUENCE:
                raise AppendConflict(str(exc)) from exc
            raise
        return Appended(stream_seq=ack.seq, duplicate=bool(ack.duplicate))

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
