"""Chaos (issue 16): while computer players play rated matches through the public API of
`gamehall up`, a random service is killed with SIGKILL every few seconds.  `gamehall up`'s
supervision restarts it; every match still finishes, every audit (hash chain, re-decision,
outcome, certificate) passes, and `gamehall ratings rebuild --check` agrees with the live tables.

Size: ``GAMEHALL_CHAOS_MATCHES`` matches (default 16) on ``GAMEHALL_CHAOS_TABLES`` tables at
once (default 4), Ugolki ``mini-3x3``, a kill every ``GAMEHALL_CHAOS_KILL_S`` seconds (default
5): a few minutes on a 2-core machine (docs/testing.md).  The match count of the issue (100) is
``GAMEHALL_CHAOS_MATCHES=100``, about six times as long.
"""

from __future__ import annotations

import os
import random
import signal
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from contracts.certificate import keyset_decoder
from domain.audit import audit, decode_bundle
from services.common.certificates import verifier
from services.common.players import PublicFold, choose_command
from tests.e2e.test_full_match import Stack
from tests.e2e.test_supervision import child_pid, ready, wait_until
from tests.support.patient import PatientTransport

pytestmark = pytest.mark.e2e

MATCHES = int(os.environ.get("GAMEHALL_CHAOS_MATCHES", "16"))
TABLES = int(os.environ.get("GAMEHALL_CHAOS_TABLES", "4"))
KILL_EVERY_S = float(os.environ.get("GAMEHALL_CHAOS_KILL_S", "5"))
VICTIMS = ("referee", "gateway", "matchmaking", "scoring", "leaderboard", "bots")
GAME, PRESET = "ugolki", "mini-3x3"
MATCH_DEADLINE_S = 400.0
MAX_MOVES = 80  # then the side to move resigns: every match ends
# A service killed again and again restarts after a growing back-off (up to 30 s) and a slow
# start on a loaded machine: a request is retried for this long.
CALL_PATIENCE_S = 240.0


class Gone(Exception):
    """The gateway did not answer (killed, restarting): try again."""


def call(client: httpx.Client, method: str, path: str, **kw: Any) -> httpx.Response:
    """One request that survives a killed gateway: connection errors and 5xx are retried."""
    deadline = time.monotonic() + CALL_PATIENCE_S
    while time.monotonic() < deadline:
        try:
            r = client.request(method, path, **kw)
        except httpx.HTTPError:
            time.sleep(0.1)
            continue
        if r.status_code >= 500:
            time.sleep(0.1)
            continue
        return r
    raise Gone(f"{method} {path}")


def join(client: httpx.Client, auth: dict[str, str], invite: str) -> str:
    """A ticket for a private table ``invite``: joins, or finds the ticket a lost reply made."""
    body = {"game": GAME, "preset": PRESET, "seats": 2, "ranked": True, "invite": invite}
    deadline = time.monotonic() + MATCH_DEADLINE_S
    while time.monotonic() < deadline:
        r = call(client, "POST", "/api/queue", json=body, headers=auth)
        if r.status_code == 200:
            return str(r.json()["ticket_id"])
        code = r.json().get("code")
        if code == "already_queued":  # the join went through, its reply was lost with a gateway
            mine = call(client, "GET", "/api/queue", headers=auth).json()
            if mine.get("ticket_id"):
                return str(mine["ticket_id"])
        elif code not in ("in_match", "unavailable"):  # in_match: the last match is still closing
            raise AssertionError(r.text)
        time.sleep(0.2)
    raise AssertionError(f"no ticket for {invite}")


def play(client: httpx.Client, auths: dict[str, dict[str, str]], table: int, k: int, rng: random.Random) -> str:
    invite = f"chaos-{table}-{k}"
    tickets = {p: join(client, auth, invite) for p, auth in auths.items()}
    tokens: dict[str, str] = {}
    deadline = time.monotonic() + MATCH_DEADLINE_S
    match_id = ""
    while len(tokens) < 2:
        assert time.monotonic() < deadline, f"table {invite} never formed"
        for player, ticket in tickets.items():
            r = call(client, "GET", f"/api/queue/{ticket}", headers=auths[player])
            seat = r.json()
            if r.status_code == 404:  # the table was given up: queue again
                tickets[player] = join(client, auths[player], invite)
            elif seat.get("state") == "seated":
                match_id = seat["match_id"]
                tokens[seat["seat"]] = seat["token"]
        time.sleep(0.1)
    folds = {seat: PublicFold(GAME) for seat in tokens}
    moves = 0
    while True:
        assert time.monotonic() < deadline, f"match {match_id} did not finish"
        view = call(client, "GET", f"/api/matches/{match_id}").json()
        if view["status"] == "finished":
            return match_id
        if not view["to_move"]:
            time.sleep(0.1)
            continue
        seat = view["to_move"][0]
        auth = {"Authorization": f"Bearer {tokens[seat]}"}
        fold = folds[seat]
        fold.apply(call(client, "GET", f"/api/matches/{match_id}/events", params={"since": fold.seq}, headers=auth).json())
        command = {"type": "resign.v1"} if moves >= MAX_MOVES else choose_command(GAME, fold, seat, "greedy", rng)
        # A refusal here is a stale view (the command may have gone through before a kill):
        # read the match again and go on.
        call(client, "POST", f"/api/matches/{match_id}/commands", json={"command": command}, headers=auth)
        moves += 1


def test_every_match_finishes_and_audits_while_services_are_killed(tmp_path: Path) -> None:
    stack = Stack(tmp_path / "data")
    stack.env.update(GAMEHALL_MM_STEPS="0:inf", GAMEHALL_BOT_THINK_MS="0")
    stack.start()
    assert stack.up is not None
    up = stack.up.proc
    stop = threading.Event()
    kills: list[str] = []
    finished: list[str] = []
    failures: list[BaseException] = []

    def killer() -> None:
        rng = random.Random(16)
        while not stop.wait(KILL_EVERY_S):
            name = rng.choice(VICTIMS)
            pid = child_pid(up.pid, f"serve {name}")
            if pid is not None:
                os.kill(pid, signal.SIGKILL)
                kills.append(name)

    def table(i: int) -> None:
        rng = random.Random(i)
        with httpx.Client(base_url=stack.url, timeout=30, transport=PatientTransport()) as client:
            try:
                auths = {}
                for side in ("a", "b"):
                    r = call(client, "POST", "/api/accounts", json={"name": f"chaos-{i}-{side}"})
                    assert r.status_code == 201, r.text
                    auths[f"chaos-{i}-{side}"] = {"Authorization": f"Bearer {r.json()['token']}"}
                for k in range(i, MATCHES, TABLES):
                    finished.append(play(client, auths, i, k, rng))
            except BaseException as exc:  # noqa: BLE001 - reported below
                failures.append(exc)

    try:
        chaos = threading.Thread(target=killer, daemon=True)
        chaos.start()
        players = [threading.Thread(target=table, args=(i,)) for i in range(TABLES)]
        for t in players:
            t.start()
        for t in players:
            t.join()
        stop.set()
        chaos.join()
        assert not failures, failures
        assert len(finished) == MATCHES and len(set(finished)) == MATCHES
        assert len(kills) >= 5, kills

        # every service is back (supervision), then the checks
        client = httpx.Client(base_url=stack.url, timeout=30)
        wait_until("the gateway is ready", lambda: ready(f"{stack.url}/readyz"), 120)
        keys = verifier(keyset_decoder.decode(call(client, "GET", "/api/keys").content))
        for match_id in finished:
            report = audit(decode_bundle(call(client, "GET", f"/api/matches/{match_id}/export").content), keys)
            assert report.ok and report.finished and report.certified_by, (match_id, report.problems)
        wanted = set(finished)

        def scored() -> bool:
            rows = call(client, "GET", "/api/history", params={"game": GAME, "limit": 500}).json()
            return wanted <= {row.get("match_id") for row in rows}

        wait_until("scoring has every match", scored, 120)
        time.sleep(2)  # the leaderboard follows scoring's RatingApplied events
        for _ in range(30):
            check = stack.cli("ratings", "rebuild", "--check")
            if check.returncode == 0:
                break
            time.sleep(1)
        assert check.returncode == 0, check.stdout.decode() + check.stderr.decode()
    finally:
        stop.set()
        assert stack.stop() == 0
    log = up.stdout.read() if up.stdout else ""
    for name in set(kills):
        assert f"{name} exited with -9" in log, (name, log[-3000:])
