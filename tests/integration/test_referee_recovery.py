"""A referee killed with SIGKILL: with one referee the stack accepts commands again (the
supervisor's restart), with two a kill under a steady command load costs no client an error;
and a command that finds no referee waits for one rather than failing at once."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from nats.errors import NoRespondersError

from contracts.envelope import Accepted, Rejected
from domain.games import registry
from services.common import commands
from services.common.processes import UpProcess, free_port, gamehall_args, spawn, stop_all
from services.referee.core import Referee
from tests.support.referees import fold_log, own_nats

pytestmark = pytest.mark.integration

NO_LIMITS = {"GAMEHALL_RATE_ADDRESS": "off", "GAMEHALL_RATE_CREDENTIAL": "off", "GAMEHALL_RATE_CREATE": "off"}
DEADLINE_S = 120.0  # generous: the machine is shared and loaded; no timing is asserted


def poll(condition: Any, what: str, timeout: float = DEADLINE_S) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"{what}: not within {timeout:.0f}s"
        time.sleep(0.05)


async def apoll(condition: Any, what: str, timeout: float = DEADLINE_S) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"{what}: not within {timeout:.0f}s"
        await asyncio.sleep(0.02)


class CountingBus:
    """A NATS connection that counts the requests no subscriber could take."""

    def __init__(self, nc: Any) -> None:
        self.nc = nc
        self.no_responders = 0

    async def request(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return await self.nc.request(*args, **kwargs)
        except NoRespondersError:
            self.no_responders += 1
            raise


async def test_a_command_that_finds_no_referee_waits_for_one_to_subscribe(tmp_path: Path) -> None:
    async with own_nats(tmp_path / "nats") as nc:
        first = Referee(nc, nc.jetstream())
        await first.start()
        created = await commands.create_match(nc, "ugolki")
        assert not isinstance(created, Rejected), created
        await first.stop()  # no referee now, as while the only one restarts
        state = await fold_log(nc, "ugolki", created.match_id)
        assert state is not None
        move = registry.get("ugolki").legal_commands(state.game_state, "white")[0]
        at_once = await commands.send(nc, "ugolki", created.match_id, move, "white", created.tokens["white"])
        assert isinstance(at_once, Rejected) and at_once.code == "unavailable", at_once

        bus = CountingBus(nc)
        waiting = asyncio.create_task(
            commands.send(
                bus,  # type: ignore[arg-type]
                "ugolki",
                created.match_id,
                move,
                "white",
                created.tokens["white"],
                command_id="while-away",
                timeout=DEADLINE_S,
                await_referee_s=DEADLINE_S,
            )
        )
        await apoll(lambda: bus.no_responders >= 3 or waiting.done(), "the command asks again")
        assert not waiting.done(), waiting.result()
        second = Referee(nc, nc.jetstream())
        await second.start()
        try:
            reply = await asyncio.wait_for(waiting, DEADLINE_S)
        finally:
            await second.stop()
        assert isinstance(reply, Accepted) and reply.seq == 2 and not reply.duplicate, reply


# ------------------------------------------------------------------ under `gamehall up`
def referee_pids(up: subprocess.Popen[str]) -> list[int]:
    found = subprocess.run(
        ["pgrep", "-P", str(up.pid), "-f", "serve referee"], capture_output=True, text=True
    )
    return sorted(int(p) for p in found.stdout.split())


def stack_env(data: Path, referees: int) -> dict[str, str]:
    env = dict(
        os.environ,
        **NO_LIMITS,
        GAMEHALL_DATA_DIR=str(data),
        GAMEHALL_HTTP_PORT=str(free_port()),
        GAMEHALL_REFEREES=str(referees),
    )
    env.pop("NATS_URL", None)
    return env


class Player(threading.Thread):
    """A client playing its own Ugolki matches back to back through the gateway, one command at
    a time, retrying a failed request (a command with the same command id, as a client should).
    Every answer that is not a success is kept in ``failures``."""

    def __init__(self, url: str, name: str, stop: threading.Event) -> None:
        super().__init__(name=name, daemon=True)
        self.url = url
        self.stop = stop
        self.commands: list[tuple[float, int]] = []  # (sent at, status) of every command sent
        self.failures: list[tuple[str, int, str]] = []  # (request, status, body)
        self.accepted: dict[str, list[int]] = {}  # match id -> seqs of its accepted commands
        self.sending_since: float | None = None  # when the command being sent was sent

    def successes_since(self, t: float) -> int:
        return sum(1 for sent, status in self.commands if status == 200 and sent >= t)

    def _get(self, c: httpx.Client, path: str, **kw: Any) -> Any:
        while not self.stop.is_set():
            r = c.get(path, **kw)
            if r.status_code == 200:
                return r.json()
            self.failures.append((f"GET {path}", r.status_code, r.text[:200]))
            time.sleep(0.05)
        return None

    def run(self) -> None:
        with httpx.Client(base_url=self.url, timeout=60) as c:
            n = 0
            while not self.stop.is_set():
                made = c.post("/api/matches", json={"game": "ugolki", "players": ["ann", "bob"]})
                if made.status_code != 201:
                    self.failures.append(("POST /api/matches", made.status_code, made.text[:200]))
                    time.sleep(0.05)
                    continue
                match_id = made.json()["match_id"]
                tokens = {s["seat"]: s["token"] for s in made.json()["seats"]}
                self.accepted[match_id] = []
                while not self.stop.is_set():
                    view = self._get(c, f"/api/matches/{match_id}")
                    if view is None or not view["to_move"]:
                        break
                    auth = {"authorization": f"Bearer {tokens[view['to_move'][0]]}"}
                    mine = self._get(c, f"/api/matches/{match_id}", headers=auth)
                    if mine is None:
                        break
                    body = {"command": mine["legal_moves"][0]["command"], "command_id": f"{self.name}-{n}"}
                    n += 1
                    while not self.stop.is_set():
                        sent = self.sending_since = time.time()
                        r = c.post(f"/api/matches/{match_id}/commands", headers=auth, json=body)
                        self.sending_since = None
                        self.commands.append((sent, r.status_code))
                        if r.status_code == 200:
                            self.accepted[match_id].append(r.json()["seq"])
                            break
                        self.failures.append(("POST commands", r.status_code, r.text[:200]))
                        time.sleep(0.05)


def check_logs(url: str, players: list[Player]) -> None:
    """Every accepted command is in its match's log once: the seqs of the 200s are 2, 3, ... and
    the log holds no decision beyond them (nothing lost, nothing stored twice)."""
    with httpx.Client(base_url=url, timeout=60) as c:
        for p in players:
            for match_id, seqs in p.accepted.items():
                assert seqs == list(range(2, len(seqs) + 2)), (match_id, seqs)
                stored = c.get(f"/api/matches/{match_id}").json()["seq"]
                assert stored in (len(seqs) + 1, len(seqs) + 2), (match_id, stored, seqs)


def test_a_single_referee_killed_with_sigkill_accepts_commands_again(tmp_path: Path) -> None:
    data = tmp_path / "data"
    up = UpProcess(stack_env(data, 1), services=("referee", "gateway"))
    stop = threading.Event()
    players: list[Player] = []
    try:
        url = up.wait_url(timeout=DEADLINE_S)
        poll(lambda: len(referee_pids(up.proc)) == 1, "one referee")
        players = [Player(url, f"p{i}", stop) for i in range(2)]
        for p in players:
            p.start()
        poll(lambda: all(p.successes_since(0) >= 3 for p in players), "the load")
        victim = referee_pids(up.proc)[0]
        os.kill(victim, signal.SIGKILL)
        killed = time.time()
        poll(lambda: referee_pids(up.proc) not in ([], [victim]), "the restarted referee")
        poll(lambda: all(p.successes_since(killed) >= 3 for p in players), "commands accepted again")
        stop_players(stop, players)
        check_logs(url, players)
    finally:
        stop_players(stop, players)
        up.stop()
    for p in players:
        # a restart slower than the gateway's wait for a referee is a 503 to retry; nothing else
        assert all(status == 503 and '"unavailable"' in text for _, status, text in p.failures), p.failures


def stop_players(stop: threading.Event, players: list[Player]) -> None:
    stop.set()
    for p in players:
        p.join(timeout=60)
        assert not p.is_alive()


def test_with_two_referees_a_sigkill_under_load_costs_no_client_an_error(tmp_path: Path) -> None:
    data = tmp_path / "data"
    env = stack_env(data, 2)
    up = UpProcess(env, services=("referee", "gateway"))
    extra: list[subprocess.Popen[bytes]] = []
    stop = threading.Event()
    players: list[Player] = []
    try:
        url = up.wait_url(timeout=DEADLINE_S)
        if len(referee_pids(up.proc)) < 2:  # a `gamehall up` that starts one: a second beside it
            log = data / "logs" / "referee-second.log"
            extra.append(spawn(gamehall_args("serve", "referee"), dict(env, GAMEHALL_METRICS_PORT="0"), log))
            poll(lambda: log.exists() and "referee_started" in log.read_text(), "the second referee")
        players = [Player(url, f"p{i}", stop) for i in range(3)]
        for p in players:
            p.start()
        poll(lambda: all(p.successes_since(0) >= 5 for p in players), "the load")
        before = referee_pids(up.proc)
        victim = before[0]
        # Stopped first, so that commands are in flight at it when it dies: the gateway must send
        # them again (same command ids) to the other referee rather than answer an error.
        os.kill(victim, signal.SIGSTOP)

        def waiting() -> bool:
            return any(p.sending_since is not None and time.time() - p.sending_since > 0.5 for p in players)

        poll(waiting, "a command held by the stopped referee")
        os.kill(victim, signal.SIGKILL)
        killed = time.time()
        poll(
            lambda: victim not in referee_pids(up.proc) and len(referee_pids(up.proc)) == len(before),
            "the restart",
        )
        restarted = time.time()
        poll(lambda: all(p.successes_since(restarted) >= 5 for p in players), "commands after the restart")
        assert all(p.successes_since(killed) >= 5 for p in players)
        stop_players(stop, players)
        check_logs(url, players)
    finally:
        stop_players(stop, players)
        stop_all(extra)
        up.stop()
    assert [(p.name, *f) for p in players for f in p.failures] == []


async def test_a_match_created_while_no_referee_serves_waits_for_one(tmp_path: Path) -> None:
    """Creation waits for a referee like a command does (a referee restarting), not 503 at once."""
    async with own_nats(tmp_path / "nats") as nc:
        bus = CountingBus(nc)
        creating = asyncio.create_task(
            commands.create_match(bus, "ugolki", await_referee_s=DEADLINE_S)  # type: ignore[arg-type]
        )
        await apoll(lambda: bus.no_responders >= 3 or creating.done(), "the creation asks again")
        assert not creating.done(), creating.result()
        referee = Referee(nc, nc.jetstream())
        await referee.start()
        try:
            created = await asyncio.wait_for(creating, DEADLINE_S)
        finally:
            await referee.stop()
        assert not isinstance(created, Rejected), created
        assert created.seq == 1
