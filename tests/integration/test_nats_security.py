"""NATS accounts and a user per service (issue 9, finding 6) on allow-lists (issue 22): the
embedded nats-server of ``gamehall up`` refuses anonymous clients, only the referee reaches the
server seeds, and every service identity may do what its row of ``natsauth.TABLE`` says and
nothing else.  Every refusal is logged and counted by ``natsio.connect``'s error callback."""

from __future__ import annotations

import asyncio
import contextlib
import stat
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import nats
import nats.errors
import pytest
import structlog
from nats.aio.client import Client
from nats.aio.msg import Msg
from nats.js.api import ConsumerConfig, DeliverPolicy
from nats.js.errors import NotFoundError
from prometheus_client import REGISTRY

from contracts import subjects
from contracts.envelope import Rejected
from services.common import commands, natsauth, natsio
from services.common.embedded import EmbeddedNats
from services.common.natsauth import Use
from services.common.projection import StreamReader
from services.common.settings import Settings
from services.referee import app as referee_app

pytestmark = pytest.mark.integration

DEADLINE_S = 10.0
SENTINEL = "nobody.may.publish.this"
TICKET = subjects.ticket_key("sec-ann")
# One stored message per stream, and who writes it (each write is itself one of its uses).
STOCK = (
    (natsauth.REFEREE, subjects.MATCH_STREAM, subjects.match_subject("ugolki", "sec-m1")),
    (natsauth.REFEREE, subjects.SEAL_STREAM, subjects.seal_subject("kings-corner", "sec-m1")),
    (natsauth.REFEREE, subjects.CERTIFICATE_STREAM, subjects.certificate_subject("ugolki", "sec-m1")),
    (natsauth.REFEREE, subjects.INTEGRATION_STREAM, subjects.MATCH_CREATED),
    (natsauth.REFEREE, subjects.INTEGRATION_STREAM, subjects.MATCH_FINISHED),
    (natsauth.SCORING, subjects.INTEGRATION_STREAM, subjects.RATING_APPLIED),
    (natsauth.MATCHMAKING, subjects.INTEGRATION_STREAM, subjects.TABLE_FORMED),
    (natsauth.GATEWAY, subjects.DISPUTE_STREAM, subjects.dispute_subject("sec-m1")),
    (natsauth.TOURNAMENTS, subjects.TOURNAMENT_STREAM, subjects.tournament_subject("sec-t1")),
    (natsauth.CLI, subjects.SEASON_STREAM, subjects.season_subject("sec-s1")),
)
STORED = {stream: subject for _, stream, subject in STOCK}
SEEDS = subjects.TOURNAMENT_SEEDS_BUCKET
SEED_KEY = "sec-t1"
STREAMS = (*natsio.APP_STREAMS, subjects.kv_stream(subjects.TICKETS_BUCKET), subjects.kv_stream(SEEDS))


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
async def running_referee(settings: Settings) -> AsyncIterator[None]:
    stop = asyncio.Event()
    task = asyncio.create_task(referee_app.run(settings, stop, metrics_port=None))
    nc = await natsio.connect(settings.nats_url or "", "gamehall-test", settings.nats_credential(natsauth.GATEWAY))
    try:
        await until(lambda: answers(nc, subjects.REFEREE_PING), "a referee answers")
        yield
    finally:
        await nc.close()
        stop.set()
        await task


async def answers(nc: Client, subject: str) -> bool:
    try:
        await nc.request(subject, b"", timeout=0.5)
    except (nats.errors.TimeoutError, nats.errors.NoRespondersError):
        return False
    return True


async def until(check: Callable[[], Awaitable[bool] | bool], what: str) -> None:
    deadline = time.monotonic() + DEADLINE_S
    while True:
        done = check()
        if not isinstance(done, bool):
            done = await done
        if done:
            return
        assert time.monotonic() < deadline, f"not within {DEADLINE_S} s: {what}"
        await asyncio.sleep(0.05)


def denied(user: str) -> float:
    return REGISTRY.get_sample_value("gamehall_nats_permission_denied_total", {"service": user}) or 0.0


async def as_user(server: EmbeddedNats, user: str) -> Client:
    """A connection of ``user`` as every service makes it (its inbox prefix, the error callback)."""
    return await natsio.connect(server.url, f"gamehall-test-{user}", natsauth.credential_for(server.credentials, user))


@pytest.fixture
def secured(tmp_path: Path):
    server = EmbeddedNats(tmp_path / "store", credentials=tmp_path / "credentials").start()
    yield server
    server.stop()


class Peers:
    """One connection per identity, opened when first asked for."""

    def __init__(self, server: EmbeddedNats) -> None:
        self.server = server
        self.open: dict[str, Client] = {}

    async def __call__(self, user: str) -> Client:
        if user not in self.open:
            self.open[user] = await as_user(self.server, user)
        return self.open[user]

    async def close(self) -> None:
        for nc in self.open.values():
            await nc.close()


async def stock(peers: Peers) -> None:
    """The streams and the bucket (made by the referee), a message on each stream written by
    its writer, a queue entry written by the matchmakers."""
    ref = (await peers(natsauth.REFEREE)).jetstream()
    await natsio.ensure_streams(ref, streams=natsio.APP_STREAMS)
    await natsio.ensure_buckets(ref)
    for user, stream, subject in STOCK:
        ack = await (await peers(user)).jetstream().publish(subject, b'{"stocked": true}')
        assert ack.stream == stream, (user, subject)
    mm = (await natsio.ensure_buckets((await peers(natsauth.MATCHMAKING)).jetstream()))[subjects.TICKETS_BUCKET]
    await mm.create(TICKET, b'{"type": "x"}')
    seeds = await natsio.ensure_own_bucket((await peers(natsauth.TOURNAMENTS)).jetstream(), SEEDS)
    await seeds.put(SEED_KEY, b'{"type": "x"}')


def concrete(subject: str) -> str:
    return ".".join("probe" if token in ("*", ">") else token for token in subject.split("."))


def counterpart(kind: str, subject: str) -> str:
    """An identity whose row has ``kind`` ("serve" or "request") on ``subject``."""
    return next(u for u in natsauth.SERVICE_USERS if any(x.kind == kind and subject in x.target for x in natsauth.row(u)))


async def pong(msg: Msg) -> None:
    await msg.respond(b"pong")


async def exercise(user: str, nc: Client, use: Use, peers: Peers) -> None:
    """Do what ``use`` says, for real, and check that it worked."""
    js = nc.jetstream(timeout=5)
    kind, target = use.kind, use.target
    if kind in ("serve", "request"):
        for subject in target:
            other = await peers(counterpart("request" if kind == "serve" else "serve", subject))
            responder, requester = (nc, other) if kind == "serve" else (other, nc)
            sub = await responder.subscribe(concrete(subject), queue="probe", cb=pong)
            # (nats-py's flush may overtake the subscription it follows: ask until it answers)
            await until(lambda r=requester, s=subject: answers(r, concrete(s)), f"{subject} answers")
            reply = await requester.request(concrete(subject), b"ping", timeout=5)
            assert reply.data == b"pong", (user, subject)
            await sub.unsubscribe()
    elif kind == "append":
        stream, subject = target
        ack = await js.publish(concrete(subject), b"{}")
        assert ack.stream == stream
    elif kind in ("create", "kv_create"):
        stream = target[0] if kind == "create" else subjects.kv_stream(target[0])
        info = await js.stream_info(stream)
        assert (await js.update_stream(info.config)).config.name == stream
    elif kind in ("get", "read"):
        stream = target[0]
        subject = STORED[stream]
        last = await js.get_last_msg(stream, subject)
        first = await js.get_msg(stream, seq=1, subject=subject, next=True, direct=True)
        assert first.data == last.data == b'{"stocked": true}'
        loaded = await natsio.EventStore(js).load(subject, stream=stream)
        assert [s.data for s in loaded][-1] == last.data
        info = await js.stream_info(stream, subjects_filter=subject)
        assert subject in (info.state.subjects or {})
        if kind == "read":
            sub = await js.subscribe(subject, stream=stream, ordered_consumer=True, deliver_policy=DeliverPolicy.ALL)
            assert (await sub.next_msg(timeout=5)).data == last.data
            await sub.unsubscribe()
            read = await natsio.EventStore(js)._consumer_read(subject, stream, 5.0, 0, int(last.seq or 0))
            assert read[-1].data == last.data
    elif kind == "pull":
        stream, filter_subject = target
        reader = StreamReader(js, stream, filter_subject, f"{user}-probe")
        await reader.start(0)
        batch = await reader.fetch(10, 5.0, 0.05)
        assert batch and all(m.subject == filter_subject or filter_subject.endswith(">") for m in batch)
        await reader.pending()
        await reader.close()
    elif kind == "durable":
        stream, consumer, filter_subject = target
        sub = await js.subscribe(
            filter_subject,
            durable=consumer,
            queue=consumer,
            stream=stream,
            manual_ack=True,
            config=ConsumerConfig(deliver_policy=DeliverPolicy.ALL),
        )
        msg = await sub.next_msg(timeout=5)
        await msg.ack()

        async def acked() -> bool:
            return (await js.consumer_info(stream, consumer)).ack_floor.stream_seq >= msg.metadata.sequence.stream

        await until(acked, f"{user} acked on {consumer}")
        await sub.unsubscribe()
    elif kind == "kv_read":
        kv = await js.key_value(target[0])
        assert (await kv.get(SEED_KEY if target[0] == SEEDS else TICKET)).value == b'{"type": "x"}'
    elif kind == "kv_write":
        kv = await js.key_value(target[0])
        key = subjects.ticket_key(f"{user}-probe")
        revision = await kv.create(key, b"a")
        revision = await kv.update(key, b"b", last=revision)
        await kv.delete(key, last=revision)
    elif kind == "kv_watch":
        kv = await js.key_value(target[0])
        watch = await kv.watch("player.>")
        entry = await watch.updates(timeout=5)
        assert entry is not None and entry.key == TICKET
        await watch.stop()
    elif kind == "any":  # referee-secrets: its whole account
        ack = await js.publish(subjects.secret_subject("kings-corner", "sec-m1"), b"aa" * 32)
        assert (await js.get_last_msg(subjects.SECRET_STREAM, subjects.secret_subject("kings-corner", "sec-m1"))).seq == ack.seq
    else:
        raise AssertionError(f"no exercise for a use of kind {kind!r}")


@pytest.mark.parametrize("user", natsauth.ALL_USERS)
async def test_each_identity_does_what_its_row_says(secured: EmbeddedNats, user: str) -> None:
    """Every use in the identity's row works against the generated configuration, with no
    refusal on the way (the services are not broken by their allow-lists)."""
    peers = Peers(secured)
    try:
        await stock(peers)
        if user == natsauth.REFEREE_SECRETS:
            await natsio.ensure_streams((await peers(user)).jetstream(), streams=natsio.SECRET_STREAMS)
        nc = await peers(user)
        before = denied(user)
        with structlog.testing.capture_logs() as logged:
            for use in natsauth.row(user):
                await exercise(user, nc, use, peers)
            if user in natsauth.UNRESTRICTED:
                return
            # A refusal reaches the client some time after what it refused: one refusal on
            # purpose last, and when it has come, it is the only one.
            await nc.publish(SENTINEL, b"")
            await until(lambda: denied(user) > before, f"the refusal of {SENTINEL} for {user}")
        refused = [e["subject"] for e in logged if e["event"] == "nats_permission_denied"]
        assert refused == [SENTINEL] and denied(user) == before + 1, (user, refused)
    finally:
        await peers.close()


# What the issue wants held, written apart from the table: (what, subject, who may).
PUBLISH_PROBES: tuple[tuple[str, str, frozenset[str]], ...] = tuple(
    (what, subject, frozenset(who))
    for what, subject, who in (
        ("send a command (a ranked creation)", subjects.command_subject("ugolki", "forged"), {"gateway"}),
        ("append to the match log", subjects.match_subject("ugolki", "forged"), {"referee"}),
        ("write a sealing key", subjects.seal_subject("kings-corner", "forged"), {"referee"}),
        ("write a server seed", subjects.secret_subject("kings-corner", "forged"), ()),
        ("sign a certificate", subjects.certificate_subject("ugolki", "forged"), {"referee"}),
        ("append a dispute event (a ruling)", subjects.dispute_subject("forged"), {"gateway", "cli"}),
        ("announce a started match", subjects.MATCH_CREATED, {"referee"}),
        ("announce a finished match", subjects.MATCH_FINISHED, {"referee"}),
        ("announce a rating", subjects.RATING_APPLIED, {"scoring"}),
        ("announce a formed table", subjects.TABLE_FORMED, {"matchmaking", "tournaments"}),
        ("append to a tournament's log", subjects.tournament_subject("forged"), {"tournaments"}),
        ("send a tournament command", subjects.TOURNAMENT_COMMANDS, {"gateway", "cli"}),
        ("write a tournament's seed", f"$KV.{SEEDS}.forged", {"tournaments"}),
        ("direct get of a tournament's seed", f"$JS.API.DIRECT.GET.KV_{SEEDS}", {"tournaments"}),
        ("look at the seeds bucket", f"$JS.API.STREAM.INFO.KV_{SEEDS}", {"tournaments"}),
        ("write the queue", f"$KV.{subjects.TICKETS_BUCKET}.{subjects.ticket_key('forged')}", {"matchmaking"}),
        ("hand a seat to the bots", subjects.BOTS_ASSIGN, {"referee", "gateway"}),
        ("ask the matchmakers", subjects.MATCHMAKING_JOIN, {"gateway"}),
        ("ping the referees", subjects.REFEREE_PING, {"gateway"}),
        ("create a consumer on GH_SEALS", "$JS.API.CONSUMER.CREATE.GH_SEALS", ()),
        ("create a named consumer on GH_SEALS", "$JS.API.CONSUMER.CREATE.GH_SEALS.probe.seal.>", ()),
        ("create a durable on GH_SEALS", "$JS.API.CONSUMER.DURABLE.CREATE.GH_SEALS.probe", ()),
        ("direct get on GH_SEALS", "$JS.API.DIRECT.GET.GH_SEALS", {"referee", "gateway"}),
        ("direct get of a sealing key", "$JS.API.DIRECT.GET.GH_SEALS.seal.kings-corner.sec-m1", {"referee", "gateway"}),
        ("get a message of GH_SEALS", "$JS.API.STREAM.MSG.GET.GH_SEALS", {"referee", "gateway"}),
        ("look at GH_SEALS", "$JS.API.STREAM.INFO.GH_SEALS", {"referee", "gateway"}),
        ("reach GH_SECRETS", "$JS.API.STREAM.INFO.GH_SECRETS", ()),
        ("direct get on GH_SECRETS", "$JS.API.DIRECT.GET.GH_SECRETS", ()),
        ("create a consumer on GH_MATCHES", "$JS.API.CONSUMER.CREATE.GH_MATCHES", {"referee", "gateway", "scoring", "tournaments", "cli"}),
        ("direct get on GH_MATCHES", "$JS.API.DIRECT.GET.GH_MATCHES", {"referee", "gateway", "scoring", "tournaments", "cli"}),
        ("read integration events in order", "$JS.API.CONSUMER.CREATE.GH_INTEGRATION", {"scoring", "cli"}),
        ("take over the matchmakers' consumer", "$JS.API.CONSUMER.CREATE.GH_INTEGRATION.matchmaking.integration.>", {"matchmaking"}),
        ("take over the matchmakers' durable", "$JS.API.CONSUMER.DURABLE.CREATE.GH_INTEGRATION.matchmaking", {"matchmaking"}),
        ("delete the matchmakers' consumer", "$JS.API.CONSUMER.DELETE.GH_INTEGRATION.matchmaking", ()),
        ("ack for the matchmakers", "$JS.ACK.GH_INTEGRATION.matchmaking.1.1.1.1.0", {"matchmaking"}),
        ("take over the gateways' consumer", "$JS.API.CONSUMER.DURABLE.CREATE.GH_INTEGRATION.gateway-tables", {"gateway"}),
        ("ack for the gateways", "$JS.ACK.GH_INTEGRATION.gateway-tables.1.1.1.1.0", {"gateway"}),
        ("delete the gateways' consumer", "$JS.API.CONSUMER.DELETE.GH_INTEGRATION.gateway-tables", ()),
        ("take over the tournaments' rulings durable", "$JS.API.CONSUMER.DURABLE.CREATE.GH_DISPUTES.tournaments-rulings", {"tournaments"}),
        ("ack for the tournaments' rulings", "$JS.ACK.GH_DISPUTES.tournaments-rulings.1.1.1.1.0", {"tournaments"}),
        ("create a stream (to capture subjects)", "$JS.API.STREAM.CREATE.GH_CAPTURE", ()),
        ("create the match log", "$JS.API.STREAM.CREATE.GH_MATCHES", {"referee"}),
        ("change the queue bucket", "$JS.API.STREAM.UPDATE.KV_GH_TICKETS", {"referee", "matchmaking"}),
        ("list the streams", "$JS.API.STREAM.LIST", ()),
        ("name the streams", "$JS.API.STREAM.NAMES", ()),
        ("account information", "$JS.API.INFO", ()),
        ("delete a message of the match log", "$JS.API.STREAM.MSG.DELETE.GH_MATCHES", ()),
        ("delete a queue entry by sequence", "$JS.API.STREAM.MSG.DELETE.KV_GH_TICKETS", ()),
        *((f"delete {s}", f"$JS.API.STREAM.DELETE.{s}", ()) for s in STREAMS),
        *((f"purge {s}", f"$JS.API.STREAM.PURGE.{s}", ()) for s in STREAMS),
    )
)
SUBSCRIBE_PROBES: tuple[tuple[str, str, frozenset[str]], ...] = tuple(
    (what, subject, frozenset(who))
    for what, subject, who in (
        ("serve commands", "cmd.>", {"referee"}),
        ("read one match's commands (seat tokens)", subjects.command_subject("ugolki", "sec-m1"), {"referee"}),
        ("read sealing keys", subjects.SEAL_SUBJECTS, ()),
        ("read server seeds", subjects.SECRET_SUBJECTS, ()),
        ("read everything", ">", ()),
        ("read the shared reply inbox", "_INBOX.>", ()),
        *((f"read the replies of {other}", f"{natsauth.inbox_prefix(other)}.>", {other}) for other in natsauth.SERVICE_USERS),
        ("take seats for the bots", subjects.BOTS_ASSIGN, {"bots"}),
        ("answer for the matchmakers", subjects.MATCHMAKING_JOIN, {"matchmaking"}),
        ("serve tournament commands", subjects.TOURNAMENT_COMMANDS, {"tournaments"}),
        ("answer the readiness ping", subjects.REFEREE_PING, {"referee"}),
        ("listen to the match log's subjects", subjects.MATCH_SUBJECTS, ()),
        ("listen to integration events", subjects.INTEGRATION_SUBJECTS, ()),
        ("listen to disputes", subjects.DISPUTE_SUBJECTS, ()),
        ("listen to queue writes", f"$KV.{subjects.TICKETS_BUCKET}.>", ()),
        ("listen to the JetStream API", "$JS.API.>", ()),
    )
)


async def stored_counts(js: object) -> dict[str, int]:
    out = {}
    for stream in STREAMS:
        if stream == subjects.kv_stream(SEEDS):
            continue  # the tournaments identity's alone (its entry is checked apart)
        info = await js.stream_info(stream)  # type: ignore[attr-defined]
        out[stream] = int(info.state.messages)
    return out


@pytest.mark.parametrize("user", natsauth.SERVICE_USERS)
async def test_each_identity_is_refused_everything_outside_its_row(secured: EmbeddedNats, user: str) -> None:
    """Publishing, JetStream API calls and subscriptions the identity has no business with are
    refused by the server; each refusal is logged (``nats_permission_denied`` with the service
    and the subject) and counted (``gamehall_nats_permission_denied_total{service}``), and
    nothing is stored, deleted or purged."""
    peers = Peers(secured)
    try:
        await stock(peers)
        referee_js = (await peers(natsauth.REFEREE)).jetstream()
        before_counts = await stored_counts(referee_js)
        nc = await peers(user)
        publishes = [(what, s) for what, s, who in PUBLISH_PROBES if user not in who]
        subscriptions = [(what, s) for what, s, who in SUBSCRIBE_PROBES if user not in who]
        before = denied(user)
        with structlog.testing.capture_logs() as logged:
            for _, subject in publishes:
                await nc.publish(subject, b'{"forged": true}', reply=nc.new_inbox())
            for _, subject in subscriptions:
                await nc.subscribe(subject)
            await nc.flush()
            expected = len(publishes) + len(subscriptions)
            await until(lambda: denied(user) - before >= expected, f"{expected} refusals counted for {user}")
        assert denied(user) - before == expected
        refusals = {
            (e["operation"], e["subject"]) for e in logged if e["event"] == "nats_permission_denied" and e["service"] == user
        }
        for what, subject in publishes:
            assert ("publish", subject.lower()) in refusals, f"{user} may {what}: {subject}"
        for what, subject in subscriptions:
            assert ("subscribe", subject.lower()) in refusals, f"{user} may {what}: {subject}"
        # nothing was written, deleted or purged, and the queue entry is intact
        assert await stored_counts(referee_js) == before_counts
        kv = await (await peers(natsauth.MATCHMAKING)).jetstream().key_value(subjects.TICKETS_BUCKET)
        assert (await kv.get(TICKET)).value == b'{"type": "x"}'
        seeds = await (await peers(natsauth.TOURNAMENTS)).jetstream().key_value(SEEDS)
        assert (await seeds.get(SEED_KEY)).value == b'{"type": "x"}'
        assert (await seeds.status()).values == 1
    finally:
        await peers.close()


async def test_a_command_with_a_leaked_credential_never_reaches_a_referee(tmp_path: Path, secured: EmbeddedNats) -> None:
    """With a running referee: no identity but the gateway can even send a command (a forged
    ranked creation naming any two accounts, say), and nothing reaches the match log."""
    settings = settings_for(tmp_path, secured)
    async with running_referee(settings):
        for user in natsauth.SERVICE_USERS:
            if user == natsauth.GATEWAY:
                continue
            nc = await as_user(secured, user)
            before = denied(user)
            try:
                await nc.publish(subjects.command_subject("ugolki", f"forged-{user}"), b"{}", reply=nc.new_inbox())
                await until(lambda u=user, b=before: denied(u) > b, f"the command of {user} refused")
            finally:
                await nc.close()
        ref = await as_user(secured, natsauth.REFEREE)
        try:
            for user in natsauth.SERVICE_USERS:
                assert await natsio.EventStore(ref.jetstream()).find_match_subject(f"forged-{user}") is None
        finally:
            await ref.close()


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


async def test_only_the_referee_reads_the_server_seeds(tmp_path: Path, secured: EmbeddedNats) -> None:
    settings = settings_for(tmp_path, secured)
    async with running_referee(settings):
        gw = await as_user(secured, natsauth.GATEWAY)
        try:
            created = await commands.create_match(gw, "kings-corner", seats=2)
            assert not isinstance(created, Rejected), created
            secret = subjects.secret_subject("kings-corner", created.match_id)
        finally:
            await gw.close()
        seeds = await as_user(secured, natsauth.REFEREE_SECRETS)
        try:
            msg = await seeds.jetstream().get_last_msg(subjects.SECRET_STREAM, secret)
            assert len(bytes.fromhex(msg.data.decode())) == 32
            with pytest.raises(NotFoundError):  # and it sees nothing of APP
                await seeds.jetstream().stream_info(subjects.MATCH_STREAM)
        finally:
            await seeds.close()


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
        gw = await as_user(server, natsauth.GATEWAY)
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


async def test_a_durable_of_an_older_version_moves_to_its_owners_inbox(tmp_path: Path) -> None:
    """A durable consumer made before the identities had their own inboxes delivers to
    ``_INBOX.…``, which its owner may no longer subscribe to: ``ensure_streams`` moves it to the
    owner's inbox, and what it had not delivered yet still comes."""
    store = tmp_path / "store"
    open_server = EmbeddedNats(store).start()
    try:
        nc = await natsio.connect(open_server.url, "old")
        js = nc.jetstream()
        await natsio.ensure_streams(js)
        await js.add_consumer(
            subjects.INTEGRATION_STREAM,
            ConsumerConfig(
                durable_name=subjects.MATCHMAKING_CONSUMER,
                deliver_subject=nc.new_inbox(),
                deliver_group=subjects.MATCHMAKING_CONSUMER,
                filter_subject=subjects.INTEGRATION_SUBJECTS,
                deliver_policy=DeliverPolicy.NEW,
            ),
        )
        await js.publish(subjects.MATCH_FINISHED, b"while it was away")
        await nc.close()
    finally:
        open_server.stop()
    server = EmbeddedNats(store, credentials=tmp_path / "credentials").start()
    try:
        mm = await as_user(server, natsauth.MATCHMAKING)
        try:
            js = mm.jetstream()
            before = denied(natsauth.MATCHMAKING)
            await natsio.ensure_streams(js, streams=natsio.APP_STREAMS)
            info = await js.consumer_info(subjects.INTEGRATION_STREAM, subjects.MATCHMAKING_CONSUMER)
            assert info.config.deliver_subject.startswith(natsauth.inbox_prefix(natsauth.MATCHMAKING) + ".")
            sub = await js.subscribe(
                subjects.INTEGRATION_SUBJECTS,
                durable=subjects.MATCHMAKING_CONSUMER,
                queue=subjects.MATCHMAKING_CONSUMER,
                stream=subjects.INTEGRATION_STREAM,
                manual_ack=True,
            )
            assert (await sub.next_msg(timeout=5)).data == b"while it was away"
            await mm.flush()
            assert denied(natsauth.MATCHMAKING) == before
        finally:
            await mm.close()
    finally:
        server.stop()


async def test_services_start_in_any_order(secured: EmbeddedNats) -> None:
    """A service that may not create a stream waits for the identity that may (logging once
    that it waits); an operator command says which stream is missing and who creates it."""
    scoring = await as_user(secured, natsauth.SCORING)
    cli = await as_user(secured, natsauth.CLI)
    ref = await as_user(secured, natsauth.REFEREE)
    try:
        with structlog.testing.capture_logs() as logged:
            waiting = asyncio.create_task(natsio.ensure_streams(scoring.jetstream(), streams=natsio.APP_STREAMS))
            await until(lambda: any(e["event"] == "nats_stream_awaited" for e in logged), "scoring waits")
        assert not waiting.done()
        with pytest.raises(natsio.StreamMissing, match="GH_DISPUTES does not exist yet: the referee creates it"):
            await natsio.await_stream(cli.jetstream(), subjects.DISPUTE_STREAM, wait_s=0.5)
        await natsio.ensure_streams(ref.jetstream(), streams=natsio.APP_STREAMS)
        await asyncio.wait_for(waiting, DEADLINE_S)
        # the bucket: made by the matchmakers as well as by the referee
        mm = await as_user(secured, natsauth.MATCHMAKING)
        assert subjects.TICKETS_BUCKET in await natsio.ensure_buckets(mm.jetstream())
        await mm.close()
    finally:
        for nc in (scoring, cli, ref):
            await nc.close()
