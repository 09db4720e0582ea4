"""An independent verifier of gamehall audit bundles, written from docs/audit.md alone.

It imports nothing of gamehall: the standard library and PyNaCl (for Ed25519 and the sealed
decisions) only.  It checks what an outsider can check without the rules of the game:

* the bundle's shape and every envelope's match, game, rules version and ``seq``;
* the hash chain (``prev_hash`` of envelope 1 is sha256 of the match id, of envelope n the
  sha256 of envelope n-1's stored bytes) and the head hash;
* the match's creation first, nothing after its end, times that never go back;
* the certificate: its Ed25519 signature over its exact bytes with a published key valid when it
  was signed, and that it covers this bundle (envelopes, head hash, match, game, rules version,
  ruleset hash, outcome);
* for games with chance: the revealed server seed against the commitment.  ``permutation`` is
  rng_v1 (docs/audit.md "Chance: rng_v1") for recomputing a deal by hand; opening the sealed
  decisions and comparing every deal with it is not done here.

    python docs/examples/verify.py match.json [--keys keys.json] [--json]

Exit 0: everything checks; 1: something does not (each problem named); 3: what was checked holds
but something could not be checked (no certificate, an unrevealed seed), each named.
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import json
import sys
from collections.abc import Iterator
from typing import Any

# ---------------------------------------------------------------- rng_v1 (docs/audit.md)


def rng_key(server_seed: bytes, client_seeds: list[str]) -> bytes:
    """sha256(server_seed || "|" || client_seed_1 || "|" || ...): the seed's raw bytes, then for
    each seat in seat order a "|" byte and that seat's client seed in UTF-8 (an empty seed still
    adds its "|"); with no client seeds at all, sha256(server_seed)."""
    data = server_seed
    for seed in client_seeds:
        data += b"|" + seed.encode()
    return hashlib.sha256(data).digest()


def words(key: bytes, label: str) -> Iterator[int]:
    i = 0
    while True:
        block = hmac.new(key, label.encode() + i.to_bytes(8, "big"), hashlib.sha256).digest()
        for k in range(0, 32, 8):
            yield int.from_bytes(block[k : k + 8], "big")
        i += 1


def randbelow(stream: Iterator[int], n: int) -> int:
    limit = 2**64 - (2**64 % n)
    while True:
        w = next(stream)
        if w < limit:
            return w % n


def permutation(key: bytes, label: str, n: int) -> list[int]:
    """Fisher-Yates from the top: for i = n-1 down to 1, j = randbelow(i + 1), swap items i and j."""
    items = list(range(n))
    stream = words(key, label)
    for i in range(n - 1, 0, -1):
        j = randbelow(stream, i + 1)
        items[i], items[j] = items[j], items[i]
    return items


# ---------------------------------------------------------------- the checks


class Report:
    def __init__(self) -> None:
        self.problems: list[str] = []
        self.unchecked: list[str] = []
        self.checked: list[str] = []

    def fail(self, text: str) -> None:
        self.problems.append(text)

    def ok(self, text: str) -> None:
        self.checked.append(text)

    def skip(self, text: str) -> None:
        self.unchecked.append(text)


def canonical(value: Any) -> bytes:
    """JSON with sorted keys and no spaces, UTF-8 (how the ruleset hash is taken)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def check_chain(bundle: dict[str, Any], report: Report) -> list[dict[str, Any]]:
    envelopes = bundle.get("envelopes")
    if bundle.get("type") != "audit_bundle.v1" or not isinstance(envelopes, list) or not envelopes:
        report.fail("not an audit bundle (type audit_bundle.v1 with envelopes)")
        return []
    decoded: list[dict[str, Any]] = []
    prev = hashlib.sha256(str(bundle.get("match_id", "")).encode()).hexdigest()
    for i, item in enumerate(envelopes, start=1):
        data = item.get("data") if isinstance(item, dict) else None
        if not isinstance(data, str):
            report.fail(f"envelope #{i}: no stored data")
            return decoded
        try:
            env = json.loads(data)
        except ValueError:
            report.fail(f"envelope #{i}: its data is not JSON")
            return decoded
        if env.get("prev_hash") != prev:
            report.fail(f"envelope #{i}: prev_hash does not link to the envelope before it (the log was changed)")
        for field in ("match_id", "game", "rules_version"):
            if env.get(field) != bundle.get(field):
                report.fail(f"envelope #{i}: {field} {env.get(field)!r} is not the bundle's {bundle.get(field)!r}")
        if env.get("seq") != i:
            report.fail(f"envelope #{i}: seq {env.get('seq')!r}, expected {i}")
        prev = hashlib.sha256(data.encode()).hexdigest()
        decoded.append(env)
    if bundle.get("head_hash") != prev:
        report.fail("head_hash is not the sha256 of the last envelope")
    if not report.problems:
        report.ok(f"hash chain of {len(decoded)} envelopes and head hash")
    return decoded


def events(env: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for e in env.get("events") or [] if isinstance(e, dict)]


def check_shape(envs: list[dict[str, Any]], report: Report) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """The creation first, nothing after the end, times in order.  Returns (created, outcome)."""
    created = next((e for e in events(envs[0]) if e.get("type") == "match_created.v1"), None) if envs else None
    if created is None:
        report.fail("envelope #1 does not create the match (match_created.v1)")
        return None, None
    outcome = None
    last_time = 0
    for i, env in enumerate(envs, start=1):
        if outcome is not None:
            report.fail(f"envelope #{i}: a decision after the match ended")
        at = env.get("recorded_at")
        if not isinstance(at, int) or at < last_time:
            report.fail(f"envelope #{i}: recorded_at goes back in time")
        else:
            last_time = at
        seat = env.get("seat")
        if seat is not None and seat not in created.get("seats", []):
            report.fail(f"envelope #{i}: seat {seat!r} is not a seat of the match")
        for e in events(env):
            if e.get("type") == "match_ended.v1":
                outcome = e.get("outcome")
        if i > 1 and any(e.get("type") == "match_created.v1" for e in events(env)):
            report.fail(f"envelope #{i}: a second creation")
    if created.get("ruleset_hash") != hashlib.sha256(canonical(created.get("ruleset"))).hexdigest():
        report.fail("envelope #1: ruleset_hash is not the sha256 of the ruleset (sorted keys, no spaces)")
    report.ok("creation first, seats of the match, times in order, nothing after the end")
    return created, outcome


def check_certificate(
    bundle: dict[str, Any],
    created: dict[str, Any] | None,
    outcome: dict[str, Any] | None,
    keys: dict[str, Any] | None,
    report: Report,
) -> None:
    signed = bundle.get("certificate")
    if signed is None:
        report.skip("certificate: the bundle has none (an unfinished or uncertified match)")
        return
    if keys is None:
        report.skip("certificate: no public keys given (--keys keys.json, from GET /api/keys)")
        return
    try:
        from nacl.exceptions import BadSignatureError
        from nacl.signing import VerifyKey
    except ImportError:
        report.skip("certificate: PyNaCl is not installed")
        return
    by_id = {k.get("key_id"): k for k in keys.get("keys", [])}
    key = by_id.get(signed.get("key_id"))
    if key is None:
        report.fail(f"certificate: signed by key {signed.get('key_id')!r}, which is not among the public keys")
        return
    try:
        VerifyKey(bytes.fromhex(key["public_key"])).verify(
            signed["certificate"].encode(), bytes.fromhex(signed["signature"])
        )
    except (BadSignatureError, ValueError, KeyError, TypeError):
        report.fail(f"certificate: the signature does not verify with key {key.get('key_id')}")
        return
    cert = json.loads(signed["certificate"])
    at = cert.get("signed_at", -1)
    if at < key.get("valid_from", 0) or (key.get("retired_at") is not None and at > key["retired_at"]):
        report.fail(f"certificate: key {key.get('key_id')} was not valid at {at}")
    envs = bundle["envelopes"]
    expect = {
        "type": "match_certificate.v1",
        "match_id": bundle.get("match_id"),
        "game": bundle.get("game"),
        "rules_version": bundle.get("rules_version"),
        "envelopes": len(envs),
        "head_hash": hashlib.sha256(envs[-1]["data"].encode()).hexdigest(),
    }
    for field, value in expect.items():
        if cert.get(field) != value:
            report.fail(f"certificate: {field} is {cert.get(field)!r}, the bundle gives {value!r}")
    if created is not None and cert.get("ruleset_hash") != created.get("ruleset_hash"):
        report.fail("certificate: ruleset_hash is not the one the match was created with")
    if outcome is None:
        report.fail("certificate: the log does not end the match (no match_ended.v1)")
    elif cert.get("outcome") != outcome:
        report.fail("certificate: its outcome is not the one the log ends with")
    if not any(p.startswith("certificate") for p in report.problems):
        report.ok(f"certificate signed by {key.get('key_id')} covers this bundle and its outcome")


# ---------------------------------------------------------------- chance


def revealed_seed(envs: list[dict[str, Any]]) -> bytes | None:
    for env in envs:
        for e in events(env):
            if e.get("type") == "server_seed_revealed.v1":
                return bytes.fromhex(e["server_seed"])
    return None


def check_chance(envs: list[dict[str, Any]], created: dict[str, Any], report: Report) -> None:
    commitment = created.get("seed_commitment") or ""
    if not commitment:
        report.ok("no chance in this game (no seed commitment)")
        return
    seed = revealed_seed(envs)
    if seed is None:
        report.skip("chance: the server seed is not revealed yet (an unfinished match)")
        return
    if hashlib.sha256(seed).hexdigest() != commitment:
        report.fail("chance: the revealed server seed does not match the commitment")
        return
    report.ok("the revealed server seed matches the commitment")


# ---------------------------------------------------------------- main


def verify(bundle: dict[str, Any], keys: dict[str, Any] | None) -> Report:
    report = Report()
    envs = check_chain(bundle, report)
    if not envs:
        return report
    created, outcome = check_shape(envs, report)
    if created is not None:
        check_chance(envs, created, report)
    check_certificate(bundle, created, outcome, keys, report)
    return report


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("bundle")
    ap.add_argument("--keys", help="the public keys (GET /api/keys, gamehall keys --json)")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    with open(a.bundle, encoding="utf-8") as f:
        bundle = json.load(f)
    keys = None
    if a.keys:
        with open(a.keys, encoding="utf-8") as f:
            keys = json.load(f)
    report = verify(bundle, keys)
    code = 1 if report.problems else 3 if report.unchecked else 0
    if a.json:
        print(json.dumps({"ok": code == 0, "problems": report.problems, "checked": report.checked, "unchecked": report.unchecked}))
    else:
        for line in report.checked:
            print(f"ok: {line}")
        for line in report.unchecked:
            print(f"NOT CHECKED: {line}")
        for line in report.problems:
            print(f"FAILED: {line}")
        print("OK" if code == 0 else "VERIFY FAILED" if code == 1 else "OK AS FAR AS CHECKED")
    return code


if __name__ == "__main__":
    sys.exit(main())
