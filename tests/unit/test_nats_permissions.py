"""The allow-lists of the NATS users (services/common/natsauth.py): what the issue asks of them,
stated apart from the table, and the generated server configuration and docs kept equal to it."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from contracts import subjects
from services.common import natsauth
from services.common.embedded import nats_server_binary

ROOT = Path(__file__).resolve().parents[2]
APP = natsauth.SERVICE_USERS


def matches(pattern: str, subject: str) -> bool:
    """NATS wildcard matching: ``*`` one token, ``>`` one or more at the end."""
    p, s = pattern.split("."), subject.split(".")
    for i, token in enumerate(p):
        if token == ">":
            return len(s) > i
        if i >= len(s) or (token != "*" and token != s[i]):
            return False
    return len(p) == len(s)


def may_publish(user: str, subject: str) -> bool:
    p = natsauth.permissions(user)
    return any(matches(a, subject) for a in p.publish) and not any(matches(d, subject) for d in p.publish_deny)


def may_subscribe(user: str, subject: str) -> bool:
    # a subscription is allowed when an allowed pattern covers it
    return any(matches(a, subject) or a == subject for a in natsauth.permissions(user).subscribe)


def who_publishes(subject: str) -> set[str]:
    return {u for u in APP if may_publish(u, subject)}


def who_subscribes(subject: str) -> set[str]:
    return {u for u in APP if may_subscribe(u, subject)}


def test_the_writers_of_each_log_are_few() -> None:
    assert who_publishes(subjects.command_subject("ugolki", "m1")) == {"gateway"}
    assert who_publishes(subjects.match_subject("ugolki", "m1")) == {"referee"}
    assert who_publishes(subjects.seal_subject("kings-corner", "m1")) == {"referee"}
    assert who_publishes(subjects.certificate_subject("ugolki", "m1")) == {"referee"}
    assert who_publishes(subjects.public_key_subject("k1")) == {"referee"}
    assert who_publishes(subjects.dispute_subject("m1")) == {"gateway", "cli"}
    assert who_publishes(subjects.MATCH_CREATED) == who_publishes(subjects.MATCH_FINISHED) == {"referee"}
    assert who_publishes(subjects.RATING_APPLIED) == {"scoring"}
    assert who_publishes(subjects.TABLE_FORMED) == {"matchmaking", "tournaments"}
    assert who_publishes(subjects.tournament_subject("t1")) == {"tournaments"}
    assert who_publishes(subjects.TOURNAMENT_COMMANDS) == {"gateway", "cli"}
    assert who_publishes(f"$KV.{subjects.TICKETS_BUCKET}.{subjects.ticket_key('ann')}") == {"matchmaking"}
    assert who_publishes(subjects.secret_subject("kings-corner", "m1")) == set()
    assert who_publishes(subjects.BOTS_ASSIGN) == {"referee", "gateway"}


def test_only_the_referee_and_the_gateway_reach_the_sealing_keys() -> None:
    seals = subjects.SEAL_STREAM
    for user in APP:
        api = [s for s in natsauth.permissions(user).publish if seals in s.split(".")]
        if user in ("referee", "gateway"):
            assert f"$JS.API.DIRECT.GET.{seals}" in api and f"$JS.API.STREAM.MSG.GET.{seals}" in api
            assert not [s for s in api if ".CONSUMER." in s], user  # single messages, no consumer
        else:
            assert api == [], user
    assert who_subscribes(subjects.SEAL_SUBJECTS) == set()
    assert who_subscribes(subjects.seal_subject("kings-corner", "m1")) == set()


def test_nobody_deletes_lists_or_captures() -> None:
    for user in APP:
        for subject in natsauth.permissions(user).publish:
            tokens = subject.split(".")
            if subject.startswith("$JS.API."):
                assert tokens[2] != ">" and tokens[3] != ">", (user, subject)
                assert not subject.startswith(("$JS.API.STREAM.DELETE", "$JS.API.STREAM.PURGE", "$JS.API.STREAM.MSG.DELETE")), (user, subject)
                assert subject not in ("$JS.API.STREAM.LIST", "$JS.API.STREAM.NAMES", "$JS.API.INFO"), (user, subject)
                # the stream is named: never a wildcard in its place
                stream_at = 5 if tokens[2:5] in (["STREAM", "MSG", "GET"], ["CONSUMER", "MSG", "NEXT"]) or tokens[2:5] == ["CONSUMER", "DURABLE", "CREATE"] else 4
                assert tokens[stream_at] not in ("*", ">"), (user, subject)
            assert subject not in (">", "*"), (user, subject)
        assert may_publish(user, "$JS.API.STREAM.CREATE.GH_CAPTURE") is False
    creators = {u for u in APP if natsauth.streams_created(u)}
    assert creators == {"referee", "matchmaking", "tournaments"}
    assert natsauth.streams_created("matchmaking") == {subjects.kv_stream(subjects.TICKETS_BUCKET)}
    assert natsauth.streams_created("tournaments") == {
        subjects.TOURNAMENT_STREAM,
        subjects.kv_stream(subjects.TOURNAMENT_SEEDS_BUCKET),
    }


def test_each_identity_reads_its_own_replies_only() -> None:
    for user in APP:
        inboxes = [s for s in natsauth.permissions(user).subscribe if s.startswith("_INBOX")]
        assert inboxes == [f"_INBOX_{user}.>"], user
        for other in APP:
            assert may_subscribe(user, f"_INBOX_{other}.abc.1") is (other == user), (user, other)
        assert not may_subscribe(user, "_INBOX.abc.1")
        assert not may_subscribe(user, ">")


def test_the_subscribers_of_each_service_subject() -> None:
    assert who_subscribes("cmd.>") == {"referee"}
    assert who_subscribes(subjects.BOTS_ASSIGN) == {"bots"}
    assert who_subscribes(subjects.MATCHMAKING_JOIN) == {"matchmaking"}
    assert who_subscribes(subjects.REFEREE_PING) == {"referee"}
    for stored in (subjects.MATCH_SUBJECTS, subjects.INTEGRATION_SUBJECTS, subjects.DISPUTE_SUBJECTS, subjects.CERTIFICATE_SUBJECTS):
        # nobody listens where a stream captures: no push consumer can be aimed at a listener
        assert who_subscribes(stored) == set(), stored
    assert who_subscribes(subjects.TOURNAMENT_COMMANDS) == {"tournaments"}
    assert {u for u in APP if natsauth.permissions(u).responds} == {"referee", "matchmaking", "bots", "tournaments"}


def test_only_the_tournaments_service_reads_the_seeds_of_open_tournaments() -> None:
    seeds = subjects.kv_stream(subjects.TOURNAMENT_SEEDS_BUCKET)
    for api in (f"$JS.API.DIRECT.GET.{seeds}", f"$JS.API.STREAM.MSG.GET.{seeds}", f"$JS.API.CONSUMER.CREATE.{seeds}"):
        assert who_publishes(api) <= {"tournaments"}, api
    assert who_publishes(f"$KV.{subjects.TOURNAMENT_SEEDS_BUCKET}.t1") == {"tournaments"}
    assert may_publish("tournaments", f"$JS.API.DIRECT.GET.{seeds}")
    # and the tournaments service sends no match commands and writes no match log
    assert not may_publish("tournaments", subjects.command_subject("ugolki", "m1"))
    assert not may_publish("tournaments", subjects.match_subject("ugolki", "m1"))


def test_only_the_tournaments_service_follows_rulings_for_its_games() -> None:
    durable = subjects.TOURNAMENT_RULINGS_CONSUMER
    stream = subjects.DISPUTE_STREAM
    for api in (
        f"$JS.API.CONSUMER.DURABLE.CREATE.{stream}.{durable}",
        f"$JS.API.CONSUMER.CREATE.{stream}.{durable}.{subjects.DISPUTE_SUBJECTS}",
        f"$JS.ACK.{stream}.{durable}.1.1.1.1.0",
    ):
        assert who_publishes(api) == {"tournaments"}, api
    # it reads rulings, it never writes a dispute event nor reaches scoring's consumer
    assert not may_publish("tournaments", subjects.dispute_subject("m1"))
    assert not may_publish("tournaments", f"$JS.ACK.{stream}.{subjects.RULINGS_CONSUMER}.1.1.1.1.0")
    assert not may_publish("tournaments", f"$JS.API.CONSUMER.DELETE.{stream}.{durable}")
    assert not may_publish("tournaments", f"$JS.API.CONSUMER.CREATE.{stream}")  # no other consumer there


def test_bots_and_cli_have_only_what_they_need() -> None:
    bots = natsauth.permissions("bots")
    assert bots.publish == () and bots.subscribe == (subjects.BOTS_ASSIGN, "_INBOX_bots.>") and bots.responds
    cli = natsauth.permissions("cli")
    assert not any(s.startswith(("cmd.", "seal.", "secret.", "match.", "integration.", "certificate.")) for s in cli.publish)
    assert may_publish("cli", subjects.dispute_subject("m1"))


def test_other_identities_may_not_touch_a_durable_consumer() -> None:
    for owner in APP:
        for stream, consumer in natsauth.durables_of(owner):
            for user in APP:
                for api in (
                    f"$JS.API.CONSUMER.CREATE.{stream}.{consumer}.{subjects.INTEGRATION_SUBJECTS}",
                    f"$JS.API.CONSUMER.DELETE.{stream}.{consumer}",
                    f"$JS.API.CONSUMER.MSG.NEXT.{stream}.{consumer}",
                    f"$JS.ACK.{stream}.{consumer}.1.2.3.4.0",
                ):
                    if user != owner:
                        assert not may_publish(user, api), (user, api)


def test_deploy_nats_accounts_conf_is_the_generated_one() -> None:
    """deploy/nats/accounts.conf is what `gamehall deploy nats-permissions` prints; every server
    config (single and cluster nodes) includes it; the embedded server runs the same blocks."""
    accounts = (ROOT / "deploy/nats/accounts.conf").read_text()
    assert accounts == natsauth.deployed_accounts_config(), "regenerate: gamehall deploy nats-permissions > deploy/nats/accounts.conf"
    for conf in [ROOT / "deploy/nats/nats.conf", *sorted((ROOT / "deploy/nats/cluster").glob("n*.conf"))]:
        assert "accounts.conf" in conf.read_text(), conf
    creds = {u: natsauth.Credential(u, "pw") for u in natsauth.ALL_USERS}
    embedded = natsauth.server_config("127.0.0.1", 4222, Path("/tmp/x"), creds)
    for user in natsauth.SERVICE_USERS:
        block = re.search(rf"^PERMISSIONS_{user.upper()} = \{{.*?^\}}", accounts, re.S | re.M)
        assert block is not None and block.group(0) in embedded, user
    from services.cli.main import app

    printed = CliRunner().invoke(app, ["deploy", "nats-permissions"])
    assert printed.exit_code == 0 and printed.output == accounts


def test_the_embedded_configuration_parses(tmp_path: Path) -> None:
    creds = natsauth.ensure_credentials(tmp_path / "creds")
    conf = tmp_path / "nats-server.conf"
    conf.write_text(natsauth.server_config("127.0.0.1", 4222, tmp_path / "store", creds))
    done = subprocess.run([nats_server_binary(), "-c", str(conf), "-t"], capture_output=True, text=True, env=dict(os.environ))
    assert done.returncode == 0, done.stdout + done.stderr


def test_docs_show_the_table_of_the_code() -> None:
    text = (ROOT / "docs/operations.md").read_text()
    found = re.search(r"<!-- nats-permissions:[^\n]*-->\n(.*?)<!-- /nats-permissions -->", text, re.S)
    assert found is not None, "docs/operations.md has no generated nats-permissions table"
    assert found.group(1) == natsauth.permissions_markdown(), "regenerate: gamehall deploy nats-permissions --markdown"
    for user in natsauth.ALL_USERS:
        assert f"| `{user}` |" in found.group(1)


@pytest.mark.parametrize("user", natsauth.SERVICE_USERS)
def test_every_stream_an_identity_uses_is_created_by_someone(user: str) -> None:
    for stream in natsauth.streams_used(user):
        assert natsauth.creators_of(stream), (user, stream)
