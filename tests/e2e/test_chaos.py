"""Chaos: while computer players play rated matches through the public API of `gamehall up`,
something is killed with SIGKILL every few seconds: a random service (one that has been up for
a minute since its last kill), the embedded nats-server, or `gamehall up` itself.  `up`'s
supervision restarts a service and nats-server; a killed `up` takes its children with it, and
the test starts a new `up` on the same data folder, against which the players go on.  Every
match still finishes, every audit (hash chain, re-decision, outcome, certificate) passes, no
acknowledged command is lost or applied twice, no projection skipped a message, and once the
projections have caught up with the streams both rebuilds (`gamehall ratings rebuild --check`,
`gamehall matches rebuild --check`) and, where it exists, `gamehall doctor --full` agree with
the live tables.

Size: ``GAMEHALL_CHAOS_MATCHES`` matches (default 16) on ``GAMEHALL_CHAOS_TABLES`` tables at
once (default 4), Ugolki ``mini-3x3``, a kill every ``GAMEHALL_CHAOS_KILL_S`` seconds (default
5); the 4th and every ``GAMEHALL_CHAOS_UP_EVERY``-th kill (default 8) is of `gamehall up`
itself, the 2nd and every ``GAMEHALL_CHAOS_NATS_EVERY``-th (default 8, half-way between) of
nats-server: a few minutes on a 2-core machine (docs/testing.md).  The counts and the wall
time are printed at the end and appended to ``test-artifacts/chaos.txt``.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import signal
import subprocess
import threading
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import pytest

from contracts.certificate import keyset_decoder
from domain.audit import audit, decode_bundle
from services.cli.stackrun import HEALTHY_AFTER_S
from services.common.certificates import verifier
from services.common.players import PublicFold, choose_command
from services.common.processes import UpProcess
from tests.e2e.test_full_match import Stack
from tests.support.patient import PatientTransport
from tests.support.stackprobe import (
    CounterAcrossRestarts,
    child_pids,
    children,
    command_line,
    running,
    wait_caught_up,
    wait_until,
)

# Its own deadlines (CALL_PATIENCE_S, MATCH_DEADLINE_S, CAUGHT_UP_S) end it before this does.
pytestmark = [pytest.mark.e2e, pytest.mark.timeout(1200)]

MATCHES = int(os.environ.get("GAMEHALL_CHAOS_MATCHES", "16"))
TABLES = int(os.environ.get("GAMEHALL_CHAOS_TABLES", "4"))
KILL_EVERY_S = float(os.environ.get("GAMEHALL_CHAOS_KILL_S", "5"))
UP_EVERY = max(int(os.environ.get("GAMEHALL_CHAOS_UP_EVERY", "8")), 1)
NATS_EVERY = max(int(os.environ.get("GAMEHALL_CHAOS_NATS_EVERY", "8")), 1)
SERVICES = ("referee", "gateway", "matchmaking", "scoring", "leaderboard", "bots")
GAME, PRESET = "ugolki", "mini-3x3"
MATCH_DEADLINE_S = 400.0
MAX_MOVES = 80  # then the side to move resigns: every match ends
# A service killed again and again restarts after a growing back-off (up to 30 s) and a slow
# start on a loaded machine: a request is retried for this long.
CALL_PATIENCE_S = 240.0
RESTED_S = HEALTHY_AFTER_S + 5.0  # a service killed is killed again only after this
# The children of a killed `gamehall up` notice and stop; they must be gone within this.
ORPHANS_GONE_S = 30.0
UP_READY_S = 120.0  # a new `gamehall up` on a loaded machine, its streams and database there already
CAUGHT_UP_S = 180.0
OUT_OF_ORDER = "gamehall_consumer_out_of_order_total"


class Gone(Exception):
    """The gateway did not answer (killed, restarting) for CALL_PATIENCE_S, or the test stopped."""


class Chaos:
    """The stack across restarts of `gamehall up`: where it answers now, the output of every
    `up` so far, what was killed and what the players were told."""

    def __init__(self, stack: Stack) -> None:
        self.stack = stack
        self.abort = threading.Event()
        self.kills: list[str] = []
        self.output: list[str] = []  # every line of every `up`
        self.acked: list[tuple[str, str]] = []  # (match id, command id) of each 200 reply
        self.lock = threading.Lock()
        self.readers: list[threading.Thread] = []

    @property
    def url(self) -> str:
        return self.stack.url

    def start(self) -> None:
        """A `gamehall up` on the stack's data folder; its output read from then on."""
        self.stack.up = UpProcess(self.stack.env)
        self.stack.url = self.stack.up.wait_url(UP_READY_S)
        proc = self.stack.up.proc

        def read() -> None:
            assert proc.stdout is not None
            for line in proc.stdout:
                self.output.append(line)

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        self.readers.append(reader)

    @property
    def up(self) -> subprocess.Popen[Any]:
        assert self.stack.up is not None
        return self.stack.up.proc

    def kill_service(self, name: str, rng: random.Random) -> None:
        """SIGKILL of one child of `up` running ``name`` (one of them when it runs several)."""
        pattern = "nats-server" if name == "nats-server" else f"serve {name}"
        pids = child_pids(self.up.pid, pattern)
        if pids:
            os.kill(rng.choice(pids), signal.SIGKILL)
            self.kills.append(name)

    def kill_up(self) -> None:
        """SIGKILL of `gamehall up`; once every child it had is gone, a new `up` on the same data
        folder.  Children still running ORPHANS_GONE_S later fail the test (and are killed)."""
        old = self.up
        kids = children(old.pid)
        old.kill()
        old.wait()
        self.kills.append("up")
        try:
            wait_until(
                f"the children of the killed gamehall up (pid {old.pid}) are gone",
                lambda: not any(running(pid) for pid in kids),
                ORPHANS_GONE_S,
            )
        except AssertionError:
            left = {pid: command_line(pid) for pid in kids if running(pid)}
            for pid in left:
                os.kill(pid, signal.SIGKILL)
            raise AssertionError(
                f"SIGKILL of gamehall up (pid {old.pid}) left {len(left)} of its {len(kids)} children "
                f"running after {ORPHANS_GONE_S:g}s (the stack does not die with its supervisor): {left}"
            ) from None
        self.start()

    def call(self, client: httpx.Client, method: str, path: str, **kw: Any) -> httpx.Response:
        """One request that survives a killed gateway or `up`: connection errors and 5xx are
        retried, each time at the URL of the `up` that runs now."""
        deadline = time.monotonic() + CALL_PATIENCE_S
        while time.monotonic() < deadline and not self.abort.is_set():
            try:
                r = client.request(method, self.url + path, **kw)
            except httpx.HTTPError:
                time.sleep(0.1)
                continue
            if r.status_code >= 500:
                time.sleep(0.1)
                continue
            return r
        raise Gone(f"{method} {path}" + (" (the test stopped)" if self.abort.is_set() else ""))

    def join(self, client: httpx.Client, auth: dict[str, str], invite: str) -> str:
        """A ticket for a private table ``invite``: joins, or finds the ticket a lost reply made."""
        body = {"game": GAME, "preset": PRESET, "seats": 2, "ranked": True, "invite": invite}
        deadline = time.monotonic() + MATCH_DEADLINE_S
        while time.monotonic() < deadline:
            r = self.call(client, "POST", "/api/queue", json=body, headers=auth)
            if r.status_code == 200:
                return str(r.json()["ticket_id"])
            code = r.json().get("code")
            if code == "already_queued":  # the join went through, its reply was lost with a gateway
                mine = self.call(client, "GET", "/api/queue", headers=auth).json()
                if mine.get("ticket_id"):
                    return str(mine["ticket_id"])
            elif code not in ("in_match", "unavailable"):  # in_match: the last match is still closing
                raise AssertionError(r.text)
            time.sleep(0.2)
        raise AssertionError(f"no ticket for {invite}")

    def play(self, client: httpx.Client, auths: dict[str, dict[str, str]], table: int, k: int, rng: random.Random) -> str:
        invite = f"chaos-{table}-{k}"
        tickets = {p: self.join(client, auth, invite) for p, auth in auths.items()}
        tokens: dict[str, str] = {}
        deadline = time.monotonic() + MATCH_DEADLINE_S
        match_id = ""
        while len(tokens) < 2:
            assert time.monotonic() < deadline, f"table {invite} never formed"
            for player, ticket in tickets.items():
                r = self.call(client, "GET", f"/api/queue/{ticket}", headers=auths[player])
                seat = r.json()
                if r.status_code == 404:  # the table was given up: queue again
                    tickets[player] = self.join(client, auths[player], invite)
                elif seat.get("state") == "seated":
                    match_id = seat["match_id"]
                    tokens[seat["seat"]] = seat["token"]
            time.sleep(0.1)
        folds = {seat: PublicFold(GAME) for seat in tokens}
        moves = 0
        while True:
            assert time.monotonic() < deadline, f"match {match_id} did not finish"
            view = self.call(client, "GET", f"/api/matches/{match_id}").json()
            if view["status"] == "finished":
                return match_id
            if not view["to_move"]:
                time.sleep(0.1)
                continue
            seat = view["to_move"][0]
            auth = {"Authorization": f"Bearer {tokens[seat]}"}
            fold = folds[seat]
            events = self.call(client, "GET", f"/api/matches/{match_id}/events", params={"since": fold.seq}, headers=auth)
            fold.apply(events.json())
            command = {"type": "resign.v1"} if moves >= MAX_MOVES else choose_command(GAME, fold, seat, "greedy", rng)
            # One command id for every retry of this command: a reply lost with a gateway is
            # asked again and answered from the log.  A refusal is a stale view (the command may
            # have gone through before a kill): read the match again and go on.
            command_id = uuid.uuid4().hex
            r = self.call(
                client,
                "POST",
                f"/api/matches/{match_id}/commands",
                json={"command": command, "command_id": command_id},
                headers=auth,
            )
            if r.status_code == 200:
                with self.lock:
                    self.acked.append((match_id, command_id))
            moves += 1


def test_every_match_finishes_and_audits_while_services_nats_and_up_are_killed(
    tmp_path: Path, artifacts_dir: Path
) -> None:
    began = time.monotonic()
    stack = Stack(tmp_path / "data")
    stack.env.update(GAMEHALL_MM_STEPS="0:inf", GAMEHALL_BOT_THINK_MS="0")
    chaos = Chaos(stack)
    chaos.start()
    stop = threading.Event()
    finished: list[str] = []
    failures: list[BaseException] = []
    skipped = {name: CounterAcrossRestarts(stack.data_dir, name, OUT_OF_ORDER) for name in ("scoring", "leaderboard")}

    def killer() -> None:
        # A service is killed again only once its supervisor counts it healthy (HEALTHY_AFTER_S
        # up), so each restart comes after the first back-off step: the test kills, it does not
        # drive `up` into its crash-loop back-off (tests/unit/test_restart_policy.py tests that).
        rng = random.Random(16)
        rounds = 0
        killed_at: dict[str, float] = {}
        try:
            while not stop.wait(KILL_EVERY_S):
                rounds += 1
                # the first of each early (a quick run still has them), then one in every 8
                if rounds == 4 or rounds % UP_EVERY == 0:
                    chaos.kill_up()
                    killed_at.clear()  # a new `up`: every service started afresh
                elif rounds == 2 or (rounds + NATS_EVERY // 2) % NATS_EVERY == 0:
                    chaos.kill_service("nats-server", rng)
                else:
                    now = time.monotonic()
                    rested = [name for name in SERVICES if now - killed_at.get(name, -1e9) > RESTED_S]
                    if rested:
                        name = rng.choice(rested)
                        chaos.kill_service(name, rng)
                        killed_at[name] = now
        except BaseException as exc:  # noqa: BLE001 - reported below
            failures.insert(0, exc)
            chaos.abort.set()

    def sampler() -> None:
        # scoring's and leaderboard's count of out-of-order messages, before each of their deaths
        while not stop.wait(1.0):
            for counter in skipped.values():
                counter.sample()

    def table(i: int) -> None:
        rng = random.Random(i)
        with httpx.Client(timeout=30, transport=PatientTransport()) as client:
            try:
                auths = {}
                for side in ("a", "b"):
                    r = chaos.call(client, "POST", "/api/accounts", json={"name": f"chaos-{i}-{side}"})
                    assert r.status_code == 201, r.text
                    auths[f"chaos-{i}-{side}"] = {"Authorization": f"Bearer {r.json()['token']}"}
                for k in range(i, MATCHES, TABLES):
                    finished.append(chaos.play(client, auths, i, k, rng))
            except BaseException as exc:  # noqa: BLE001 - reported below
                failures.append(exc)

    counts: dict[str, Any] = {}
    try:
        helpers = [threading.Thread(target=killer, daemon=True), threading.Thread(target=sampler, daemon=True)]
        for t in helpers:
            t.start()
        players = [threading.Thread(target=table, args=(i,)) for i in range(TABLES)]
        for t in players:
            t.start()
        for t in players:
            t.join()
        stop.set()
        for t in helpers:
            t.join()
        if failures:  # the first in full (the killer's comes first), the rest by name
            first = failures[0]
            if len(failures) > 1:
                first.add_note(f"and {len(failures) - 1} more: {failures[1:6]}")
            raise first
        assert len(finished) == MATCHES and len(set(finished)) == MATCHES
        assert len(chaos.kills) >= 5, chaos.kills

        # every service is back (supervision), then the checks
        client = httpx.Client(base_url=chaos.url, timeout=30)
        wait_until("the gateway is ready", lambda: client.get("/readyz").status_code == 200, 120)
        keys = verifier(keyset_decoder.decode(chaos.call(client, "GET", "/api/keys").content))
        logged: Counter[str] = Counter()
        for match_id in finished:
            bundle = decode_bundle(chaos.call(client, "GET", f"/api/matches/{match_id}/export").content)
            report = audit(bundle, keys)
            assert report.ok and report.finished and report.certified_by, (match_id, report.problems)
            logged.update(json.loads(stored.data)["command_id"] for stored in bundle.envelopes)
        counts["acknowledged"] = len(chaos.acked)
        counts["lost"] = sum(1 for _, command_id in chaos.acked if command_id not in logged)
        counts["duplicated"] = sum(1 for _, command_id in chaos.acked if logged[command_id] > 1)

        lag = wait_caught_up(stack.data_dir, CAUGHT_UP_S)
        for counter in skipped.values():
            counter.sample()
        counts["skipped"] = int(sum(counter.total for counter in skipped.values()))
        unread = [name for name, counter in skipped.items() if not counter.samples]
        assert not unread, f"{OUT_OF_ORDER} never read from the /metrics of {unread}"
        rows = chaos.call(client, "GET", "/api/history", params={"game": GAME, "limit": 500}).json()
        missing = set(finished) - {row.get("match_id") for row in rows}
        assert not missing, f"scoring has every match: {len(missing)} missing once caught up {lag}: {missing}"

        differing = 0
        checks = [("ratings", "rebuild", "--check", "--json"), ("matches", "rebuild", "--check", "--json")]
        if stack.cli("doctor", "--help").returncode == 0:
            checks.append(("doctor", "--full"))
        outputs = []
        for args in checks:
            done = stack.cli(*args)
            text = done.stdout.decode() + done.stderr.decode()
            if "--json" in args:
                try:
                    differing += len(json.loads(done.stdout).get("differences", []))
                except ValueError:
                    pass
            outputs.append((args, done.returncode, text))
        counts["differing"] = differing
        counts["checks"] = {" ".join(args): rc for args, rc, _ in outputs}
        assert all(rc == 0 for _, rc, _ in outputs), outputs
    finally:
        stop.set()
        chaos.abort.set()
        stopped = stack.stop()
        for reader in chaos.readers:
            reader.join(10)
        counts["kills"] = dict(Counter(chaos.kills))
        counts["matches"] = len(finished)
        counts["wall_s"] = round(time.monotonic() - began, 1)
        summary = "chaos: " + json.dumps(counts, sort_keys=True)
        print(summary)
        with open(artifacts_dir / "chaos.txt", "a") as out:
            out.write(summary + "\n")
        (artifacts_dir / "chaos-up.log").write_text("".join(chaos.output))
        logs = artifacts_dir / "chaos-logs"  # each service's log of this run, to read after a failure
        shutil.rmtree(logs, ignore_errors=True)
        shutil.copytree(stack.data_dir / "logs", logs, dirs_exist_ok=True)
    assert stopped == 0
    assert counts["lost"] == 0 and counts["duplicated"] == 0, counts
    assert counts["skipped"] == 0, counts
    assert counts["differing"] == 0, counts
    assert "up" in chaos.kills and "nats-server" in chaos.kills, chaos.kills
    log = "".join(chaos.output)
    for name in set(chaos.kills) - {"up"}:
        said = "the embedded nats-server stopped" if name == "nats-server" else rf"{name}(-\d+)? exited with -9"
        assert re.search(said, log), (name, log[-3000:])
