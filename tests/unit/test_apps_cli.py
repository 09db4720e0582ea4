"""``gamehall apps``: HS256 apps with a secret by default, apps that register public keys (a
JWKS file or PEM files) with an algorithm and an audience, key rotation, and clear refusals of
files that hold no public key."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519
from jwt.algorithms import OKPAlgorithm


def gamehall(data: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GAMEHALL_")}
    env["GAMEHALL_DATA_DIR"] = str(data)
    return subprocess.run(
        [sys.executable, "-m", "services.cli.main", *args], env=env, capture_output=True, text=True, timeout=120
    )


def fields(out: str) -> dict[str, str]:
    found = {}
    for line in out.splitlines():
        key, _, value = line.partition(":")
        found[key.strip()] = value.strip()
    return found


def test_apps_add_with_a_secret_or_public_keys_and_rotate(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    hs = gamehall(data, "apps", "add", "secret-club")
    assert hs.returncode == 0, hs.stderr
    assert fields(hs.stdout)["key id"].startswith("app_") and len(fields(hs.stdout)["secret"]) == 64

    old, new = ed25519.Ed25519PrivateKey.generate(), ed25519.Ed25519PrivateKey.generate()
    jwks = tmp_path / "jwks.json"
    jwks.write_text(json.dumps({"keys": [{**OKPAlgorithm.to_jwk(old.public_key(), as_dict=True), "kid": "k1"}]}))
    ed = gamehall(data, "apps", "add", "ed-club", "--jwks", str(jwks), "--audience", "https://ed.example")
    assert ed.returncode == 0, ed.stderr
    got = fields(ed.stdout)
    assert "secret" not in got and got["alg"] == "EdDSA" and got["kids"] == "k1" and got["aud"] == "https://ed.example"

    pem = tmp_path / "new.pem"
    pem.write_bytes(new.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo))
    rotated = gamehall(data, "apps", "keys", got["key id"], "--jwks", str(jwks), "--public-key", str(pem))
    assert rotated.returncode == 0, rotated.stderr
    assert rotated.stdout.split("kids:")[1].split()[0] == "k1" and len(rotated.stdout.split("kids:")[1].split()) == 2

    p256 = tmp_path / "p256.pem"
    p256.write_bytes(
        ec.generate_private_key(ec.SECP256R1())
        .public_key()
        .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    )
    es = gamehall(data, "apps", "add", "ec-club", "--public-key", str(p256), "--algorithm", "ES256")
    assert es.returncode == 0 and fields(es.stdout)["alg"] == "ES256", es.stderr

    listed = gamehall(data, "apps", "list", "--json")
    rows = {r["name"]: r for r in map(json.loads, listed.stdout.splitlines())}
    assert {n: r["algorithm"] for n, r in rows.items()} == {"secret-club": "HS256", "ed-club": "EdDSA", "ec-club": "ES256"}
    assert rows["ed-club"]["audience"] == "https://ed.example" and len(rows["ed-club"]["kids"]) == 2
    assert fields(hs.stdout)["secret"] not in listed.stdout and "sealed-v1" not in listed.stdout


def test_apps_add_refuses_what_is_not_a_public_key(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    private = tmp_path / "private.json"
    private.write_text(json.dumps(OKPAlgorithm.to_jwk(ed25519.Ed25519PrivateKey.generate(), as_dict=True)))
    private_pem = tmp_path / "private.pem"
    private_pem.write_bytes(
        ed25519.Ed25519PrivateKey.generate().private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
    )
    garbage = tmp_path / "garbage.json"
    garbage.write_text("{not json")
    cases = {
        "a private JWK": (["--jwks", str(private)], 1, "private key"),
        "a private PEM": (["--public-key", str(private_pem)], 2, "not a PEM public key"),
        "not JSON": (["--jwks", str(garbage)], 2, "not JSON"),
        "no such file": (["--jwks", str(tmp_path / "none.json")], 2, "cannot read"),
        "a device": (["--jwks", "/dev/zero"], 2, "not a regular file"),
        "EdDSA without keys": (["--algorithm", "EdDSA"], 1, "registers its public keys"),
        "an algorithm of no app": (["--algorithm", "RS256"], 1, "not 'RS256'"),
    }
    for why, (args, code, says) in cases.items():
        out = gamehall(data, "apps", "add", "club", *args)
        assert out.returncode == code and says in out.stderr and "Traceback" not in out.stderr, (why, out.stderr)
    assert gamehall(data, "apps", "list").stdout.strip() == "(no apps)"
    hs = gamehall(data, "apps", "add", "club")
    refused = gamehall(data, "apps", "keys", fields(hs.stdout)["key id"], "--jwks", str(private))
    assert refused.returncode == 1 and "secret" in refused.stderr
