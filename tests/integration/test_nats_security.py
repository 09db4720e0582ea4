"""NATS accounts and users per service (issue 9, finding 6): the embedded nats-server of
``gamehall up`` refuses anonymous clients, and only the referee reaches the server seeds."""

from __future__ import annotations

import asyncio
import contextlib
import stat
from pathlib import Path

import nats
import nats.errors
import pytest

from contracts import subjects
from contracts.envelope import Rejected
from services.common import commands, natsauth, natsio
from services.common.embedded import EmbeddedNats
from services.common.settings import Settings
from services.referee import app as referee_app

pytestmark = pytest.mark.integration


def settings_for(tmp_path: Path, server: EmbeddedNats) -> Settings:
    return Settings(
        data_dir=tmp_path,
        nats_url=server.url,
        db_url=None,
        http_host="127.0.0.1",
        http_port=0,
        partitions=subjects.DEFAULT_PARTITIONS,
        log_format="console",
        nats_credentials=server.credentials,
    )


@contextlib.asynccontextmanager
async def running_referee(settings: Settings):
    stop = asyncio.Event()
    task = asyncio.create_task(referee_app.run(settings, stop, metrics_port=None))
    await asyncio.sleep(0.5)
    try:
        yield
    finally:
        stop.set()
        await task


async def as_user(server: EmbeddedNats, user: str, errors: list[Exception] | None = None):
    credential = natsauth.credential_for(server.credentials, user)
    assert credential is not None

    async def on_error(exc: Exception) -> None:
        if errors is not None:
            errors.append(exc)

    return await nats.connect(
        server.url, user=credential.user, password=credential.password, error_cb=on_error
    )


@pytest.fixture
def secured(tmp_path: Path):
    server = EmbeddedNats(tmp_path / "store", credentials=tmp_path / "credentials").start()
    yield server
    server.stop()


def test_credentials_are_private_files(secured: EmbeddedNats) -> None:
    folder = secured.credentials
    assert folder is not None
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    files = sorted(p.name for p in folder.iterdir())
    assert files == sorted([f"{u}.json" for u in natsauth.ALL_USERS] + ["nats-server.conf"])
    for path in folder.iterdir():
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
    # A restart keeps the same credentials (services started before still connect).
    before = natsauth.credential_for(folder, "gateway")
    assert natsauth.ensure_credentials(folder)["gateway"] == before


async def test_anonymous_and_wrong_password_clients_are_refused(secured: EmbeddedNats) -> None:
    for url in (secured.url, secured.url.replace("nats://", "nats://gateway:wrong@")):
        with pytest.raises(nats.errors.Error, match="Authorization Violation"):
            await nats.connect(url, allow_reconnect=False, max_reconnect_attempts=0, connect_timeout=2)


async def test_gateway_cannot_read_the_server_seeds(tmp_path: Path, secured: EmbeddedNats) -> None:
    settings = settings_for(tmp_path, secured)
    async with running_referee(settings):
        errors: list[Exception] = []
        gw = await as_user(secured, "gateway", errors)
        try:
            await natsio.ensure_streams(gw.jetstream(), streams=natsio.APP_STREAMS)
            created = await commands.create_match(gw, "kings-corner", seats=2)
            assert not isinstance(created, Rejected), created
            secret = subjects.secret_subject("kings-corner", created.match_id)

            # Core NATS: subscribing to secret.> is refused.
            sub = await gw.subscribe(subjects.SECRET_SUBJECTS)
            await gw.flush()
            await asyncio.sleep(0.3)
            assert any("permissions violation for subscription" in str(e) for e in errors), errors
            with pytest.raises(nats.errors.TimeoutError):
                await sub.next_msg(timeout=0.3)

            # JetStream API: GH_SECRETS cannot be read, looked up or mirrored.
            for api in (
                f"$JS.API.STREAM.MSG.GET.{subjects.SECRET_STREAM}",
                f"$JS.API.DIRECT.GET.{subjects.SECRET_STREAM}.{secret}",
                f"$JS.API.STREAM.INFO.{subjects.SECRET_STREAM}",
                f"$JS.API.CONSUMER.CREATE.{subjects.SECRET_STREAM}.x.{secret}",
            ):
                errors.clear()
                with pytest.raises(nats.errors.TimeoutError):
                    await gw.request(api, b"{}", timeout=0.5)
                assert any("permissions violation for publish" in str(e) for e in errors), (api, errors)
            # The gateway's account holds no secrets stream at all (it lives in account SECRETS).
            names = [s.config.name for s in await gw.jetstream().streams_info()]
            assert subjects.SECRET_STREAM not in names

            # Nor may it append to the match log or pose as a referee.
            errors.clear()
            await gw.publish(subjects.match_subject("kings-corner", created.match_id), b"forged")
            await gw.subscribe("cmd.>")
            await gw.flush()
            await asyncio.sleep(0.3)
            text = " ".join(str(e) for e in errors)
            assert 'publish to "match.' in text and 'subscription to "cmd.>"' in text, errors
        finally:
            await gw.close()

        # Only the referee's secrets user reads the seed.
        ref = await as_user(secured, natsauth.REFEREE_SECRETS)
        try:
            msg = await ref.jetstream().get_last_msg(subjects.SECRET_STREAM, secret)
            assert len(bytes.fromhex(msg.data.decode())) == 32
        finally:
            await ref.close()


async def test_streams_of_an_open_server_move_into_the_accounts(tmp_path: Path) -> None:
    """A data folder written by an open nats-server keeps its matches and seeds when the
    server restarts with accounts."""
    store = tmp_path / "store"
    open_server = EmbeddedNats(store).start()
    try:
        nc = await natsio.connect(open_server.url, "old")
        js = nc.jetstream()
        await natsio.ensure_streams(js)
        await js.publish("match.ugolki.m1", b"decision")
        await js.publish("secret.kings-corner.m2", b"aa" * 32)
        await nc.close()
    finally:
        open_server.stop()
    server = EmbeddedNats(store, credentials=tmp_path / "credentials").start()
    try:
        gw = await as_user(server, "gateway")
        ref = await as_user(server, natsauth.REFEREE_SECRETS)
        try:
            got = await gw.jetstream().get_last_msg(subjects.MATCH_STREAM, "match.ugolki.m1")
            assert got.data == b"decision"
            seed = await ref.jetstream().get_last_msg(subjects.SECRET_STREAM, "secret.kings-corner.m2")
            assert seed.data == b"aa" * 32
        finally:
            await gw.close()
            await ref.close()
    finally:
        server.stop()


async def test_only_the_gateway_and_the_operator_command_append_disputes(secured: EmbeddedNats) -> None:
    """dispute.> is written by ``gateway`` and ``cli`` only (natsauth.DISPUTE_WRITERS); scoring
    reads the stream but cannot append a ruling of its own."""
    gw = await as_user(secured, "gateway")
    try:
        await natsio.ensure_streams(gw.jetstream(), streams=natsio.APP_STREAMS)
        ack = await gw.jetstream().publish(subjects.dispute_subject("sec-m1"), b"{}")
        assert ack.stream == subjects.DISPUTE_STREAM
    finally:
        await gw.close()
    for user in ("scoring", "leaderboard", "bots", "matchmaking"):
        errors: list[Exception] = []
        nc = await as_user(secured, user, errors)
        try:
            await nc.publish(subjects.dispute_subject("sec-m1"), b"forged")
            await nc.flush()
            await asyncio.sleep(0.3)
            assert any('publish to "dispute.' in str(e) for e in errors), (user, errors)
            info = await nc.jetstream().stream_info(subjects.DISPUTE_STREAM)
            assert info.state.messages == 1, user  # it may read the stream, not write it
        finally:
            await nc.close()
    cli = await as_user(secured, "cli")
    try:
        ack = await cli.jetstream().publish(subjects.dispute_subject("sec-m1"), b"{}")
        assert ack.seq == 2
    finally:
        await cli.close()


async def forge(kind: str, nc: nats.NATS, kv: object, key: str, revision: int) -> object:
    stream = subjects.kv_stream(subjects.TICKETS_BUCKET)
    if kind == "update":
        return await kv.update(key, b"forged", last=revision)  # type: ignore[attr-defined]
    if kind == "delete":
        return await kv.delete(key)  # type: ignore[attr-defined]
    if kind == "purge":
        return await nc.jetstream().purge_stream(stream)
    return await nc.jetstream().delete_stream(stream)


async def test_only_the_matchmakers_write_the_queue(secured: EmbeddedNats) -> None:
    """The queue bucket GH_TICKETS: matchmaking writes it, the gateway (and every other
    restricted user) may read it but neither write nor purge nor delete it."""
    mm = await as_user(secured, "matchmaking")
    try:
        buckets = await natsio.ensure_buckets(mm.jetstream())
        kv = buckets[subjects.TICKETS_BUCKET]
        key = subjects.ticket_key("sec-ann")
        revision = await kv.create(key, b'{"type": "x"}')
        assert revision > 0
    finally:
        await mm.close()
    for user in ("gateway", "bots", "scoring", "leaderboard", "cli"):
        errors: list[Exception] = []
        nc = await as_user(secured, user, errors)
        try:
            kv = (await natsio.ensure_buckets(nc.jetstream()))[subjects.TICKETS_BUCKET]
            assert (await kv.get(key)).revision == revision  # reading is allowed
            for forged in ("update", "delete", "purge", "delete_stream"):
                with pytest.raises((TimeoutError, nats.errors.TimeoutError, nats.errors.NoRespondersError)):
                    await asyncio.wait_for(forge(forged, nc, kv, key, revision), 1.5)
            assert (await kv.get(key)).revision == revision, user
            assert any("permissions violation for publish" in str(e) for e in errors), (user, errors)
        finally:
            await nc.close()
