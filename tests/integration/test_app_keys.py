"""App keys against a real nats-server, referee and gateway (issue 22): apps that register public
keys (EdDSA, ES256) and sign with their own private keys, audiences, the rules of a JWT ``sub``
(on SQLite and PostgreSQL), and nothing secret stored in clear: sealed app secrets, keyed API
token hashes, and what an older version stored taken over without locking anyone out."""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import json
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519
from jwt.algorithms import ECAlgorithm, OKPAlgorithm
from sqlalchemy import Engine, text

from contracts.envelope import Rejected
from services.cli.stackrun import in_process_stack
from services.common import accounts, db, serverkey
from services.common.settings import Settings
from tests.integration.ranked_support import throwaway_database
from tests.support.gateway import open_settings

pytestmark = pytest.mark.integration


@pytest.fixture(params=["sqlite", pytest.param("pg", marks=pytest.mark.pg)])
def database(request: pytest.FixtureRequest, tmp_path: Path, pg_url: str | None) -> Iterator[str]:
    yield from throwaway_database("postgresql" if request.param == "pg" else "sqlite", tmp_path, pg_url)


@pytest.fixture
def settings(nats_url: str, tmp_path: Path) -> Settings:
    return open_settings(nats_url, tmp_path / "data")  # no rate limits: many refusals in a row


@contextlib.asynccontextmanager
async def running(settings: Settings) -> AsyncIterator[httpx.AsyncClient]:
    async with in_process_stack(settings, ("referee", "gateway")) as url:
        async with httpx.AsyncClient(base_url=url, timeout=30) as client:
            yield client


@pytest.fixture
async def client(settings: Settings) -> AsyncIterator[httpx.AsyncClient]:
    async with running(settings) as c:
        yield c


@pytest.fixture
def engine(settings: Settings) -> Iterator[Engine]:
    e = db.open_database(settings.database_url)
    yield e
    e.dispose()


def keys_of(settings: Settings) -> serverkey.ServerKey:
    return serverkey.load(settings.server_key_file)


def claims(iss: str, sub: str = "u-1", **changes: Any) -> dict[str, Any]:
    now = int(time.time())
    found = {"iss": iss, "sub": sub, "iat": now, "exp": now + 300, **changes}
    return {k: v for k, v in found.items() if v is not None}


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def hs256_by_hand(header: dict[str, Any], body: dict[str, Any], key: bytes) -> str:
    """An HS256 JWT signed with any bytes (PyJWT refuses to HMAC with a public key's PEM)."""
    signing = f"{b64(json.dumps(header).encode())}.{b64(json.dumps(body).encode())}"
    return f"{signing}.{b64(hmac.new(key, signing.encode(), hashlib.sha256).digest())}"


async def me(client: httpx.AsyncClient, token: str) -> httpx.Response:
    return await client.get("/api/accounts/me", headers={"Authorization": f"Bearer {token}"})


async def assert_refused(client: httpx.AsyncClient, cases: dict[str, str]) -> None:
    for why, token in cases.items():
        r = await me(client, token)
        assert r.status_code == 401 and r.json()["code"] == "bad_credentials", (why, r.text)


async def test_an_eddsa_app_signs_with_its_own_key_and_the_server_holds_no_secret(client, engine, settings) -> None:
    old, new, stranger = (ed25519.Ed25519PrivateKey.generate() for _ in range(3))
    jwks = [
        {**OKPAlgorithm.to_jwk(old.public_key(), as_dict=True), "kid": "2026-01"},
        {**OKPAlgorithm.to_jwk(new.public_key(), as_dict=True), "kid": "2026-06"},
    ]
    made = accounts.add_app(engine, "ed-club", keys_of(settings), jwks)
    assert not isinstance(made, Rejected)
    app_id, secret = made
    assert secret is None
    row = accounts.list_apps(engine)[0]
    assert row["algorithm"] == "EdDSA" and row["kids"] == ["2026-01", "2026-06"]
    with engine.connect() as conn:
        assert conn.execute(text("SELECT secret FROM app_keys")).scalar() is None

    ok = await me(client, jwt.encode(claims(app_id), new, algorithm="EdDSA", headers={"kid": "2026-06"}))
    assert ok.status_code == 200 and ok.json() == {"player": "ed-club:u-1", "app_id": app_id}
    assert (await me(client, jwt.encode(claims(app_id), old, algorithm="EdDSA", headers={"kid": "2026-01"}))).status_code == 200
    public_pem = new.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    now = int(time.time())
    await assert_refused(
        client,
        {
            "unknown kid": jwt.encode(claims(app_id), new, algorithm="EdDSA", headers={"kid": "nope"}),
            "no kid, several keys": jwt.encode(claims(app_id), new, algorithm="EdDSA"),
            "a stranger's key under a known kid": jwt.encode(
                claims(app_id), stranger, algorithm="EdDSA", headers={"kid": "2026-06"}
            ),
            "kid of the other key": jwt.encode(claims(app_id), new, algorithm="EdDSA", headers={"kid": "2026-01"}),
            "HS256 keyed with the public PEM": hs256_by_hand(
                {"alg": "HS256", "typ": "JWT", "kid": "2026-06"}, claims(app_id), public_pem
            ),
            "HS256 keyed with the JWK x": hs256_by_hand(
                {"alg": "HS256", "typ": "JWT", "kid": "2026-06"}, claims(app_id), jwks[1]["x"].encode()
            ),
            "alg none": jwt.encode(claims(app_id), None, algorithm="none"),
            "expired": jwt.encode(
                claims(app_id, iat=now - 900, exp=now - 600), new, algorithm="EdDSA", headers={"kid": "2026-06"}
            ),
            "an aud the app never registered": jwt.encode(
                claims(app_id, aud="ed-club"), new, algorithm="EdDSA", headers={"kid": "2026-06"}
            ),
        },
    )

    # A rotation: the new key alone, and the old one's JWTs are refused.
    assert accounts.set_app_keys(engine, app_id, [jwks[1]]) == ["2026-06"]
    await assert_refused(
        client, {"retired key": jwt.encode(claims(app_id), old, algorithm="EdDSA", headers={"kid": "2026-01"})}
    )
    only = await me(client, jwt.encode(claims(app_id), new, algorithm="EdDSA"))  # the only key: no kid needed
    assert only.status_code == 200 and only.json()["player"] == "ed-club:u-1"


async def test_an_es256_app_from_a_pem_key_with_an_audience(client, engine, settings) -> None:
    private = ec.generate_private_key(ec.SECP256R1())
    pem = private.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    from services.common import appkeys

    jwk = appkeys.pem_to_jwk(pem)
    assert jwk == ECAlgorithm.to_jwk(private.public_key(), as_dict=True)
    made = accounts.add_app(engine, "ec-club", keys_of(settings), [jwk], "ES256", audience="https://games.example")
    assert not isinstance(made, Rejected)
    app_id, _ = made
    kid = accounts.list_apps(engine)[0]["kids"][0]  # type: ignore[index]
    assert kid == appkeys.thumbprint(jwk)

    def signed(**changes: Any) -> str:
        return jwt.encode(claims(app_id, **changes), private, algorithm="ES256", headers={"kid": kid})

    ok = await me(client, signed(aud="https://games.example"))
    assert ok.status_code == 200 and ok.json()["player"] == "ec-club:u-1"
    listed = await me(client, signed(aud=["https://other.example", "https://games.example"]))
    assert listed.status_code == 200  # RFC 7519: aud may be a list that holds ours
    other = ec.generate_private_key(ec.SECP256R1())
    refused = {
        "no aud": signed(),
        "a foreign aud": signed(aud="https://evil.example"),
        "another P-256 key": jwt.encode(
            claims(app_id, aud="https://games.example"), other, algorithm="ES256", headers={"kid": kid}
        ),
        "EdDSA for an ES256 app": jwt.encode(
            claims(app_id, aud="https://games.example"), ed25519.Ed25519PrivateKey.generate(), algorithm="EdDSA",
            headers={"kid": kid},
        ),
    }
    for why, token in refused.items():
        r = await me(client, token)
        assert r.status_code == 401 and r.json()["code"] == "bad_credentials", (why, r.text)
    assert "audience" in (await me(client, signed(aud="https://evil.example"))).json()["detail"]


def test_public_keys_an_operator_may_not_register(engine, settings) -> None:
    keys = keys_of(settings)
    ed = OKPAlgorithm.to_jwk(ed25519.Ed25519PrivateKey.generate().public_key(), as_dict=True)
    ecj = ECAlgorithm.to_jwk(ec.generate_private_key(ec.SECP256R1()).public_key(), as_dict=True)
    private = OKPAlgorithm.to_jwk(ed25519.Ed25519PrivateKey.generate(), as_dict=True)
    cases: dict[str, tuple[list[dict[str, Any]], str | None]] = {
        "a private key": ([private], None),
        "two algorithms": ([{**ed, "kid": "a"}, {**ecj, "kid": "b"}], None),
        "keys of another algorithm": ([ed], "ES256"),
        "HS256 with public keys": ([ed], "HS256"),
        "two keys, one kid": ([{**ed, "kid": "a"}, {**ed, "kid": "a"}], None),
        "RSA": ([{"kty": "RSA", "n": "AQAB", "e": "AQAB"}], None),
        "a broken key": ([{**ed, "x": "not-a-key"}], None),
        "no key": ([], None),
    }
    for why, (given, algorithm) in cases.items():
        made = accounts.add_app(engine, "bad-keys", keys, given, algorithm)
        assert isinstance(made, Rejected) and made.code == "invalid_keys", (why, made)
    refused = accounts.add_app(engine, "bad-aud", keys, audience="a\nb")
    assert isinstance(refused, Rejected) and refused.code == "invalid_audience"
    assert accounts.list_apps(engine) == []


async def test_a_sub_outside_the_names_rules_is_refused_on_every_database(nats_url: str, tmp_path: Path, database: str) -> None:
    settings = open_settings(nats_url, tmp_path / "data").replace(db_url=database)
    engine = db.open_database(settings.database_url)
    try:
        made = accounts.add_app(engine, "subs", keys_of(settings), audience="subs")
        assert not isinstance(made, Rejected)
        app_id, secret = made
        assert secret is not None
        # A player an older version let in with a name longer than 64 keeps signing in.
        long_sub = "old-" + "x" * 100
        with engine.begin() as conn:
            conn.execute(
                text("INSERT INTO accounts (account_id, name, app_id, subject, created_at, role) "
                     "VALUES ('acc-old', :name, :app, :sub, 1, 'player')"),
                {"name": f"subs:{long_sub}", "app": app_id, "sub": long_sub},
            )

        def token(sub: Any) -> str:
            return jwt.encode(claims(app_id, sub=sub, aud="subs"), secret, algorithm="HS256")

        async with running(settings) as client:
            longest = "a" * (64 - len("subs:"))
            for good in ("user-1", "ann@example.com", "tenant:42", "550e8400-e29b-41d4-a716-446655440000", longest):
                r = await me(client, token(good))
                assert r.status_code == 200 and r.json()["player"] == f"subs:{good}", (good, r.text)
            assert (await me(client, token(long_sub))).json()["player"] == f"subs:{long_sub}"
            for iss in ("app_\x00", "app_1\n", "\u202eapp", "app_" + "f" * 300, "app 1"):
                forged = jwt.encode(claims(iss, aud="subs"), secret, algorithm="HS256")
                r = await me(client, forged)
                assert r.status_code == 401 and r.json()["code"] == "bad_credentials", (iss, r.text)
            for bad in ("a\x00b", "\x00", "a\nb", "a\rb", "ann\u202egnp", "a\u200bb", "ann b", "ánn", "Ａnn", "a\tb",
                        "x" * 130, longest + "a", "", "-lead", "a|b", "a/b", 42):
                r = await me(client, token(bad))
                assert r.status_code == 401 and r.json()["code"] == "bad_credentials", (bad, r.text)
        with engine.connect() as conn:
            names = sorted(conn.execute(text("SELECT name FROM accounts")).scalars())
        assert all(len(n) <= 64 for n in names if n != f"subs:{long_sub}") and len(names) == 6
    finally:
        engine.dispose()


async def test_nothing_secret_is_stored_in_clear_and_old_rows_still_sign_in(settings, tmp_path: Path) -> None:
    database = settings.data_dir / "gamehall.sqlite3"
    # What an older version stored: an app secret in clear and an API token's bare sha256.
    engine = db.open_database(settings.database_url)
    old_secret = "legacy-" + "s" * 57
    old_token = "gh_" + "t" * 43
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO app_keys (app_id, name, secret, created_at) VALUES ('app_old', 'old-club', :s, 1)"),
                     {"s": old_secret})
        conn.execute(
            text("INSERT INTO accounts (account_id, name, name_key, token_hash, created_at, role) "
                 "VALUES ('acc-legacy', 'veteran', 'veteran', :h, 1, 'player')"),
            {"h": hashlib.sha256(old_token.encode()).hexdigest()},
        )
    engine.dispose()

    async with running(settings) as client:
        r = await client.post("/api/accounts", json={"name": "fresh"})
        assert r.status_code == 201
        fresh_token = r.json()["token"]
        assert (await me(client, fresh_token)).json()["player"] == "fresh"
        engine = db.open_database(settings.database_url)
        try:
            made = accounts.add_app(engine, "new-club", keys_of(settings))
            assert not isinstance(made, Rejected)
            new_id, new_secret = made
            assert new_secret is not None
            # The old app's secret was sealed when the gateway first opened the accounts; its JWTs
            # still verify, and the old account's token still signs in (once keyed, from now on).
            old = await me(client, jwt.encode(claims("app_old"), old_secret, algorithm="HS256"))
            assert old.status_code == 200 and old.json()["player"] == "old-club:u-1"
            new = await me(client, jwt.encode(claims(new_id), new_secret, algorithm="HS256"))
            assert new.status_code == 200
            assert (await me(client, old_token)).json()["player"] == "veteran"
            assert (await me(client, old_token)).json()["player"] == "veteran"
            with engine.connect() as conn:
                stored = {a: s for a, s in conn.execute(text("SELECT app_id, secret FROM app_keys"))}
                hashes = {n: h for n, h in conn.execute(text("SELECT name, token_hash FROM accounts WHERE token_hash IS NOT NULL"))}
            keys = keys_of(settings)
            assert all(serverkey.is_sealed(s) for s in stored.values())
            assert keys.unseal(stored["app_old"]) == old_secret and keys.unseal(stored[new_id]) == new_secret
            assert hashes == {"veteran": keys.token_hash(old_token), "fresh": keys.token_hash(fresh_token)}
        finally:
            engine.dispose()
    # The pages that held the old values in clear are gone once the database is compacted
    # (docs/operations.md "Server key": copies made before remain as they were).
    engine = db.make_engine(settings.database_url)
    with engine.connect() as conn:
        conn.exec_driver_sql("VACUUM")
        conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    engine.dispose()
    files = b"".join(p.read_bytes() for p in database.parent.glob("gamehall.sqlite3*"))
    for secret in (old_secret, new_secret):
        assert secret.encode() not in files
    for token in (old_token, fresh_token):
        assert hashlib.sha256(token.encode()).hexdigest().encode() not in files
        assert token.encode() not in files


def test_a_database_sealed_with_another_key_is_refused_not_resealed(engine, settings, tmp_path: Path) -> None:
    mine = keys_of(settings)
    made = accounts.add_app(engine, "club", mine)
    assert not isinstance(made, Rejected)
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO app_keys (app_id, name, secret, created_at) VALUES ('app_plain', 'plain', 'p', 1)"))
    other = serverkey.load(tmp_path / "other.key")
    with pytest.raises(serverkey.ServerKeyError, match="sealed with server key"):
        accounts.seal_stored_secrets(engine, other)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT secret FROM app_keys WHERE app_id = 'app_plain'")).scalar() == "p"
    assert accounts.seal_stored_secrets(engine, mine) == 1
    assert accounts.seal_stored_secrets(engine, mine) == 0  # idempotent
