"""Hostile-client probes against a running gamehall stack (``gamehall up`` / ``make run``).

Each probe tries one thing a hostile client, or someone holding one service's NATS credential,
must not get away with, and says whether the stack held.  Three kinds:

- **edge**: the gateway's public port as anyone on the network sees it;
- **inside**: NATS with each service's own credential (``<data>/credentials/nats/<user>.json``),
  as someone who stole one service's credential would;
- **at rest** and **files**: the data folder's modes and contents, and the CLI's file readers.

Run it against a stack (exit 0: every probe held, 1: one did not)::

    python -m tests.support.hostile --data-dir .gamehall

The test ``tests/e2e/test_hostile_probes.py`` runs the same probes against a fresh ``gamehall up``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import stat
import subprocess
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import jwt
import msgspec
import nats
from nats.errors import TimeoutError as NatsTimeout
from nats.js.errors import NotFoundError

from contracts import subjects
from contracts.envelope import CommandEnvelope
from contracts.match import CreateMatch
from services.common import natsauth, stack
from tests.support import cli

# The identities of the APP account, and what each may do with the log (docs/operations.md
# "NATS accounts and credentials").
SEAL_READERS = ("referee", "gateway")
COMMAND_SENDERS = ("gateway",)
DISPUTE_WRITERS = ("gateway", "cli")


@dataclass
class Probe:
    kind: str
    name: str
    ok: bool
    detail: str = ""


@dataclass
class Target:
    data_dir: Path
    url: str
    nats_url: str
    body_timeout_s: float = 10.0
    results: list[Probe] = field(default_factory=list)

    def record(self, kind: str, name: str, ok: bool, detail: str = "") -> None:
        self.results.append(Probe(kind, name, bool(ok), detail))

    def client(self, **kw: Any) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=30, **kw)

    def credential(self, user: str) -> natsauth.Credential:
        return natsauth.load_credential(natsauth.credentials_dir(self.data_dir) / f"{user}.json")

    def cli(self, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
        return cli.gamehall(dict(os.environ, GAMEHALL_DATA_DIR=str(self.data_dir)), *args, timeout=timeout)


def target_of(data_dir: Path, body_timeout_s: float = 10.0) -> Target:
    info = stack.read(data_dir)
    if info is None:
        raise SystemExit(f"no running stack recorded in {data_dir} (start one with `gamehall up`)")
    return Target(data_dir=data_dir, url=info.gateway_url, nats_url=info.nats_url, body_timeout_s=body_timeout_s)


def probe(kind: str, name: str) -> Callable[[Callable[[Target], Any]], Callable[[Target], Any]]:
    """A probe: a function that returns (ok, detail); an exception it raises is a failed probe."""

    def wrap(fn: Callable[[Target], Any]) -> Callable[[Target], Any]:
        def run(t: Target) -> None:
            try:
                ok, detail = fn(t)
            except Exception as exc:  # the probe itself broke: the stack did not answer as it must
                ok, detail = False, f"{type(exc).__name__}: {exc}"
            t.record(kind, name, ok, detail)

        run.__name__ = fn.__name__
        PROBES.append(run)
        return run

    return wrap


PROBES: list[Callable[[Target], None]] = []


def unique(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:8]}"


# --- the public edge -------------------------------------------------------------------------


@probe("edge", "/metrics is not served on the public port")
def metrics_hidden(t: Target) -> tuple[bool, str]:
    with t.client() as c:
        r = c.get("/metrics")
    return r.status_code == 404 and "gamehall_" not in r.text, f"GET /metrics: {r.status_code}"


@probe("edge", "bad tokens however spelled in the query reach the failed-authentication limiter")
def auth_limiter_spellings(t: Target) -> tuple[bool, str]:
    held = []
    loopback = (urlsplit(t.url).hostname or "").startswith("127.")
    for n, query in enumerate(("xtoken=1&token={}", "%74oken={}", "to%6Ben={}", "token=ok&token={}")):
        statuses = []
        # The limiter counts per client address: on loopback each spelling comes from its own
        # address, so a spelling is limited by its own failures, not by the one before it.
        transport = httpx.HTTPTransport(local_address=f"127.0.0.{20 + n}") if loopback else None
        with t.client(transport=transport) as c:
            for i in range(60):
                bad = f"gh_{uuid.uuid4().hex}{i}"
                r = c.get("/api/accounts/me?" + query.format(bad, bad))
                statuses.append(r.status_code)
                if r.status_code == 429:
                    break
        held.append((query, 429 in statuses, statuses.count(401)))
    return all(limited for _, limited, _ in held), "; ".join(f"{q}: limited={lim} after {n}×401" for q, lim, n in held)


@probe("edge", "a body trickled byte by byte is cut off at the total body deadline")
def body_deadline(t: Target) -> tuple[bool, str]:
    parts = urlsplit(t.url)
    body = json.dumps({"name": unique("slow")}).encode()
    started = time.monotonic()
    limit = t.body_timeout_s + 10
    answer = b""
    with socket.create_connection((parts.hostname, parts.port or 80), timeout=limit) as s:
        s.sendall(
            b"POST /api/accounts HTTP/1.1\r\nHost: probe\r\nContent-Type: application/json\r\n"
            + f"Content-Length: {len(body) + 1000}\r\n\r\n".encode()
        )
        s.settimeout(1.0)
        for byte in (body * 100)[:1000]:
            if time.monotonic() - started > limit:
                break
            try:
                s.sendall(bytes([byte]))
            except OSError:
                break
            try:
                chunk = s.recv(4096)
            except TimeoutError:
                continue
            except OSError:
                break
            if not chunk:
                break
            answer += chunk
            break
    took = time.monotonic() - started
    status = answer.split(b"\r\n", 1)[0].decode(errors="replace")
    cut = took <= limit and " 408 " in status
    return cut, f"cut after {took:.1f}s: {status or 'connection closed without an answer'}"


@probe("edge", "sign-ups from one address are limited (429 with Retry-After)")
def signup_limit(t: Target) -> tuple[bool, str]:
    codes = []
    retry = None
    with t.client() as c:
        for _ in range(40):
            r = c.post("/api/accounts", json={"name": unique("su")})
            codes.append(r.status_code)
            if r.status_code == 429:
                retry = r.headers.get("retry-after")
                break
    return 429 in codes and bool(retry), f"{codes.count(201)} created, then {codes[-1]} Retry-After={retry}"


def sign_up(c: httpx.Client, name: str) -> httpx.Response:
    for _ in range(100):
        r = c.post("/api/accounts", json={"name": name})
        if r.status_code != 429:
            return r
        time.sleep(float(r.headers.get("retry-after", "1")))
    return r


@probe("edge", "account names are unique without regard to case")
def names_case(t: Target) -> tuple[bool, str]:
    base = unique("Ann")
    with t.client() as c:
        first = sign_up(c, base.upper())
        second = sign_up(c, base.lower())
    return first.status_code == 201 and second.status_code == 409, f"{base.upper()}: {first.status_code}, {base.lower()}: {second.status_code}"


@probe("edge", "an account named like a guest seat cannot read that match's dispute")
def dispute_by_guest_name(t: Target) -> tuple[bool, str]:
    name = unique("guestname")
    with t.client() as c:
        created = c.post("/api/matches", json={"game": "ugolki", "players": [name, unique("other")]}).json()
        mid = created["match_id"]
        token = created["seats"][1]["token"]
        r = c.post(f"/api/matches/{mid}/commands", json={"command": {"type": "resign.v1"}}, headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 200, r.text
        # An operator opens a dispute on the guest match ...
        operator = sign_up(c, unique("op"))
        assert operator.status_code == 201, operator.text
        granted = t.cli("accounts", "grant-operator", operator.json()["player"])
        assert granted.returncode == 0, granted.stderr
        op_auth = {"Authorization": f"Bearer {operator.json()['token']}"}
        dispute = c.post(f"/api/matches/{mid}/disputes", json={"reason": "checking a guest match"}, headers=op_auth)
        assert dispute.status_code == 201, dispute.text
        # ... and an account that took the guest seat's name afterwards tries to read it.
        account = sign_up(c, name)
        assert account.status_code == 201, account.text
        auth = {"Authorization": f"Bearer {account.json()['token']}"}
        read = c.get(f"/api/disputes/{dispute.json()['dispute_id']}", headers=auth)
        opened = c.post(f"/api/matches/{mid}/disputes", json={"reason": "the guest seat was mine"}, headers=auth)
    return read.status_code in (403, 404) and opened.status_code in (403, 404, 409), f"read: {read.status_code}, open: {opened.status_code}"


def app_token(secret: str, app_id: str, sub: str, **extra: Any) -> str:
    now = int(time.time())
    return jwt.encode({"iss": app_id, "sub": sub, "iat": now, "exp": now + 600, **extra}, secret, algorithm="HS256")


def add_app(t: Target, *args: str) -> tuple[str, str]:
    out = t.cli("apps", "add", unique("app"), *args)
    assert out.returncode == 0, out.stderr
    found = {}
    for line in out.stdout.splitlines():
        key, _, value = line.partition(":")
        found[key.strip().lower().replace(" ", "_")] = value.strip()
    return found.get("app_id") or found.get("key_id") or found.get("iss", ""), found.get("secret", "")


@probe("edge", "a JWT sub outside the names' charset or length is refused (401), never a player")
def jwt_subjects(t: Target) -> tuple[bool, str]:
    app_id, secret = add_app(t)
    assert app_id and secret, "apps add printed no key id and secret"
    seen = []
    with t.client() as c:
        for sub in ("a\x00b", "a\nb", "ann\u202egnp", "x" * 130, ""):
            r = c.get("/api/accounts/me", headers={"Authorization": f"Bearer {app_token(secret, app_id, sub)}"})
            seen.append(r.status_code)
        good = c.get("/api/accounts/me", headers={"Authorization": f"Bearer {app_token(secret, app_id, 'user-1')}"})
    return all(s == 401 for s in seen) and good.status_code == 200, f"refused: {seen}, a good sub: {good.status_code}"


@probe("edge", "a JWT for another audience is refused")
def jwt_audience(t: Target) -> tuple[bool, str]:
    app_id, secret = add_app(t, "--audience", "https://games.example")
    with t.client() as c:
        foreign = c.get("/api/accounts/me", headers={"Authorization": f"Bearer {app_token(secret, app_id, 'u1', aud='https://evil.example')}"})
        missing = c.get("/api/accounts/me", headers={"Authorization": f"Bearer {app_token(secret, app_id, 'u1')}"})
        right = c.get("/api/accounts/me", headers={"Authorization": f"Bearer {app_token(secret, app_id, 'u1', aud='https://games.example')}"})
    return (foreign.status_code, missing.status_code, right.status_code) == (401, 401, 200), f"foreign {foreign.status_code}, none {missing.status_code}, right {right.status_code}"


# --- at rest ----------------------------------------------------------------------------------


def private_files(data_dir: Path) -> Iterator[Path]:
    yield from data_dir.glob("*.sqlite3*")
    for folder in ("credentials", "keys"):
        if (data_dir / folder).is_dir():
            yield from (p for p in (data_dir / folder).rglob("*") if p.is_file())


@probe("at rest", "the data folder is 0700 and its database and key files 0600")
def modes(t: Target) -> tuple[bool, str]:
    bad = []
    folder = stat.S_IMODE(t.data_dir.stat().st_mode)
    if folder & 0o077:
        bad.append(f"{t.data_dir}: {folder:o}")
    for path in private_files(t.data_dir):
        mode = stat.S_IMODE(path.stat().st_mode)
        if mode & 0o077:
            bad.append(f"{path.name}: {mode:o}")
    return not bad, ", ".join(bad) or "all private"


@probe("at rest", "no app secret is stored in clear")
def secrets_sealed(t: Target) -> tuple[bool, str]:
    _, secret = add_app(t)
    found = [p.name for p in t.data_dir.glob("*.sqlite3*") if secret.encode() in p.read_bytes()]
    return not found, f"in clear in {found}" if found else "sealed"


# --- the CLI's file readers -------------------------------------------------------------------


@probe("files", "rules replay and audit --file refuse a symlink to /dev/zero (exit 2, no traceback)")
def files_special(t: Target) -> tuple[bool, str]:
    link = t.data_dir.parent / unique("zero-")
    link.symlink_to("/dev/zero")
    try:
        results = [t.cli("rules", "replay", str(link), timeout=30), t.cli("audit", "--file", str(link), timeout=30)]
    finally:
        link.unlink()
    ok = all(r.returncode == 2 and "Traceback" not in r.stderr for r in results)
    return ok, ", ".join(f"exit {r.returncode}" for r in results)


@probe("files", "rules replay on deeply nested JSON is exit 2 with a message, no traceback")
def files_nested(t: Target) -> tuple[bool, str]:
    path = t.data_dir.parent / unique("nested-")
    path.write_text("[" * 100_000 + "]" * 100_000)
    try:
        r = t.cli("rules", "replay", str(path), timeout=30)
    finally:
        path.unlink()
    return r.returncode == 2 and "Traceback" not in r.stderr and r.stderr.strip() != "", f"exit {r.returncode}: {r.stderr.strip()[:120]}"


# --- inside: NATS with each service's credential ----------------------------------------------


class Denials:
    """Permission violations the server reports to one connection."""

    def __init__(self) -> None:
        self.errors: list[str] = []

    async def error_cb(self, exc: Exception) -> None:
        self.errors.append(str(exc))

    async def saw(self, subject: str, timeout: float = 3.0) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if any("ermission" in e and subject in e for e in self.errors):
                return True
            await asyncio.sleep(0.05)
        return False


async def connect_as(t: Target, user: str) -> tuple[Any, Denials]:
    cred = t.credential(user)
    denials = Denials()
    nc = await nats.connect(
        t.nats_url.split(","),
        user=cred.user,
        password=cred.password,
        error_cb=denials.error_cb,
        max_reconnect_attempts=2,
        connect_timeout=5,
        inbox_prefix=f"_INBOX_{user}".encode(),
        allow_reconnect=False,
    )
    return nc, denials


async def match_exists(t: Target, match_id: str) -> bool:
    async with httpx.AsyncClient(base_url=t.url, timeout=30) as c:
        r = await c.get(f"/api/matches/{match_id}")
    return r.status_code == 200


def forged_create(match_id: str, victims: tuple[str, str]) -> bytes:
    command = CreateMatch(
        preset="halma-8x8-1234",
        ruleset={},
        seats=("white", "black"),
        players=victims,
        token_hashes=("0" * 64, "1" * 64),
        ranked=True,
        guests=(),
    )
    envelope = CommandEnvelope(command_id=unique("c"), match_id=match_id, game="ugolki", command=command)
    return msgspec.json.encode(envelope)


async def inside_probes(t: Target) -> None:
    users = [u for u in natsauth.SERVICE_USERS]
    card_match, hidden = await running_card_match(t)
    for user in users:
        nc, denials = await connect_as(t, user)
        try:
            await ranked_forgery(t, user, nc, denials)
            if user not in SEAL_READERS:
                await seal_access(t, user, nc, denials, card_match)
            await clear_cards(t, user, nc, card_match, hidden)
            if user not in DISPUTE_WRITERS:
                subject = subjects.dispute_subject(unique("m"))
                await nc.publish(subject, b"{}")
                await nc.flush()
                t.record("inside", f"{user}: may not append a dispute event", await denials.saw(subject), subject)
            if user != "referee":
                subject = subjects.MATCH_FINISHED
                await nc.publish(subject, b"{}")
                await nc.flush()
                t.record("inside", f"{user}: may not announce a finished match", await denials.saw(subject), subject)
        finally:
            await nc.close()


async def ranked_forgery(t: Target, user: str, nc: Any, denials: Denials) -> None:
    mid = unique("forged")
    subject = subjects.command_subject("ugolki", mid)
    name = f"{user}: a ranked match it creates is refused and stores nothing"
    try:
        reply = await nc.request(subject, forged_create(mid, ("victim-a", "victim-b")), timeout=3)
        text = reply.data.decode(errors="replace")
        refused = "rejected" in text
        detail = text[:120]
    except (NatsTimeout, nats.errors.NoRespondersError) as exc:
        refused = await denials.saw(subject.rsplit(".", 1)[0]) or await denials.saw("cmd.")
        detail = f"{type(exc).__name__}; denied={refused}"
    stored = await match_exists(t, mid)
    t.record("inside", name, refused and not stored, f"{detail}; stored={stored}")


async def seal_access(t: Target, user: str, nc: Any, denials: Denials, match: tuple[str, str] | None) -> None:
    js = nc.jetstream(timeout=3)
    game, mid = match or ("kings-corner", unique("m"))
    subject = subjects.seal_subject(game, mid)
    try:
        msg = await js.get_last_msg(subjects.SEAL_STREAM, subject)
        got = f"read {len(msg.data)} bytes"
    except NotFoundError:
        # Only an identity that may read the stream learns that a key is missing.
        got = f"the stream answered (no key on {subject})"
    except Exception as exc:
        got = ""
        detail = type(exc).__name__
    t.record("inside", f"{user}: may not read a match's sealing key", not got, got or detail)
    await nc.subscribe(subjects.SEAL_SUBJECTS)
    await nc.flush()
    t.record("inside", f"{user}: may not subscribe to sealing keys", await denials.saw(subjects.SEAL_SUBJECTS), "")


async def running_card_match(t: Target) -> tuple[tuple[str, str] | None, set[str]]:
    """A fresh Kings in the Corner match of two guests, and the cards of the first seat's hand
    (which no one but that seat, the referee and the gateway may know while it runs)."""
    async with httpx.AsyncClient(base_url=t.url, timeout=30) as c:
        r = await c.post("/api/matches", json={"game": "kings-corner"})
        if r.status_code != 201:
            return None, set()
        created = r.json()
        mid = created["match_id"]
        for seat in created["seats"]:  # every seat says it is ready: the first round is dealt
            auth = {"Authorization": f"Bearer {seat['token']}"}
            for move in (await c.get(f"/api/matches/{mid}", headers=auth)).json().get("legal_moves") or []:
                await c.post(f"/api/matches/{mid}/commands", json={"command": move["command"]}, headers=auth)
                break
        token = created["seats"][0]["token"]
        view = (await c.get(f"/api/matches/{mid}", headers={"Authorization": f"Bearer {token}"})).json()
    hand = view["game_view"].get("hand") or view["game_view"].get("my_hand") or []
    return ("kings-corner", created["match_id"]), {str(card) for card in hand}


def strings_of(value: Any, skip: tuple[str, ...] = ("sealed",)) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            if key not in skip:
                yield from strings_of(item, skip)
    elif isinstance(value, list):
        for item in value:
            yield from strings_of(item, skip)


async def clear_cards(t: Target, user: str, nc: Any, match: tuple[str, str] | None, hidden: set[str]) -> None:
    if match is None or not hidden:
        t.record("inside", f"{user}: no card of a hand in clear in the match stream", False, "no card match to look at")
        return
    js = nc.jetstream(timeout=3)
    game, mid = match
    seen: set[str] = set()
    read = 0
    seq = 1
    while read < 1000:
        try:
            msg = await js.get_msg(subjects.MATCH_STREAM, subject=subjects.match_subject(game, mid), seq=seq, next=True)
        except Exception:
            break
        read += 1
        seen |= hidden & set(strings_of(json.loads(msg.data)))
        seq = int(msg.seq or seq) + 1
    t.record(
        "inside",
        f"{user}: no card of a hand in clear in the match stream",
        not seen,
        f"{read} decisions read, cards in clear: {sorted(seen)}" if read else "may not read the match stream",
    )


def run(t: Target, kinds: tuple[str, ...] = ("edge", "at rest", "files", "inside")) -> list[Probe]:
    for fn in PROBES:
        fn(t)
    if "inside" in kinds:
        try:
            asyncio.run(inside_probes(t))
        except Exception as exc:
            t.record("inside", "NATS probes ran", False, f"{type(exc).__name__}: {exc}")
    return t.results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--data-dir", type=Path, default=Path(".gamehall"), help="the stack's data folder")
    parser.add_argument("--body-timeout", type=float, default=10.0, help="the gateway's total body deadline (s)")
    args = parser.parse_args(argv)
    t = target_of(args.data_dir.resolve(), args.body_timeout)
    results = run(t)
    for p in results:
        print(f"{'held' if p.ok else 'FAILED':6}  {p.kind:8}  {p.name}  [{p.detail}]")
    failed = [p for p in results if not p.ok]
    print(f"{len(results) - len(failed)} of {len(results)} probes held")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
