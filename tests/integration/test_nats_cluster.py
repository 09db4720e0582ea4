"""gamehall on a three-node JetStream cluster (issue 16): streams with 3 replicas; killing the
meta leader, then the match stream's leader, under load loses no acknowledged decision and play
goes on."""

from __future__ import annotations

import asyncio
import os
import random
import uuid
from pathlib import Path

import pytest

from contracts import subjects
from contracts.envelope import Accepted, Rejected
from domain.core import match as match_layer
from domain.games import registry
from services.common import commands
from services.common.natsio import connect, ensure_streams
from services.referee.core import Referee
from tests.support.natscluster import Cluster
from tests.support.referees import fold_log, stored_envelopes

pytestmark = pytest.mark.integration

MATCHES = 6
RETRYABLE = {"timeout", "unavailable", "busy"}


async def play(nc, match_id: str, tokens: dict[str, str], moves: int, rng: random.Random, acked: list) -> None:
    decider = registry.get("ugolki")
    for _ in range(moves):
        for _try in range(20):
            try:
                state = await fold_log(nc, "ugolki", match_id)
                break
            except Exception:  # noqa: BLE001 - reads fail while the stream elects a leader
                await asyncio.sleep(0.25)
        assert state is not None
        movers = match_layer.to_move(decider, state)
        if not movers:
            return
        seat = movers[0]
        legal = decider.legal_commands(state.game_state, seat)
        command = legal[rng.randrange(len(legal))]
        command_id = uuid.uuid4().hex
        for _attempt in range(20):  # the same command id on every retry: idempotent
            reply = await commands.send(
                nc, "ugolki", match_id, command, seat=seat, token=tokens[seat], command_id=command_id, timeout=3.0
            )
            if not (isinstance(reply, Rejected) and reply.code in RETRYABLE):
                break
            await asyncio.sleep(0.2)
        assert isinstance(reply, Accepted), reply
        acked.append((match_id, reply.seq, seat, command_id))


async def stream_leader(js, timeout: float = 30.0) -> str:
    """The match stream's leader, once the cluster has one (it may be electing right now)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        try:
            info = await js.stream_info(subjects.MATCH_STREAM)
            if info.cluster is not None and info.cluster.leader:
                return str(info.cluster.leader)
        except Exception:  # noqa: BLE001 - the API times out while leaders are elected
            if asyncio.get_running_loop().time() > deadline:
                raise
        await asyncio.sleep(0.2)


async def test_play_continues_when_cluster_leaders_are_killed(tmp_path: Path) -> None:
    cluster = Cluster(tmp_path / "cluster").start()
    client = ref_nc = None
    try:
        client = await connect(cluster.urls, "players")
        js = client.jetstream()
        await ensure_streams(js, replicas=3)
        info = await js.stream_info(subjects.MATCH_STREAM)
        assert info.config.num_replicas == 3 and info.cluster is not None and len(info.cluster.replicas or []) == 2
        ref_nc = await connect(cluster.urls, "referee")
        referee = Referee(ref_nc, ref_nc.jetstream())
        await referee.start()
        matches = []
        for _ in range(MATCHES):
            for _try in range(50):  # the referee's interest reaches the other nodes over routes
                created = await commands.create_match(client, "ugolki")
                if not (isinstance(created, Rejected) and created.code in RETRYABLE):
                    break
                await asyncio.sleep(0.1)
            assert not isinstance(created, Rejected), created
            matches.append(created)
        rng = random.Random(3)
        acked: list = []

        async def load(moves: int) -> None:
            await asyncio.gather(
                *(play(client, m.match_id, m.tokens, moves, random.Random(rng.random()), acked) for m in matches)
            )

        await load(3)
        # 1. the meta leader dies under load
        running = asyncio.create_task(load(6))
        await asyncio.sleep(0.3)
        leader = await asyncio.to_thread(cluster.wait_for_meta_leader)
        await asyncio.to_thread(cluster.kill, leader)
        await running
        await asyncio.to_thread(cluster.start_node, leader)
        await asyncio.to_thread(cluster.wait_for_meta_leader)
        # 2. the match stream's leader dies under load
        doomed = cluster.node(await stream_leader(js))
        running = asyncio.create_task(load(6))
        await asyncio.sleep(0.3)
        await asyncio.to_thread(cluster.kill, doomed)
        await running
        await load(2)

        assert len(acked) >= MATCHES * 12
        for m in matches:
            envs = await stored_envelopes(client, "ugolki", m.match_id)
            assert [e.seq for e in envs] == list(range(1, len(envs) + 1))
            stored = {(e.seq, e.seat, e.command_id) for e in envs}
            assert len(stored) == len(envs)
            lost = [a for a in acked if a[0] == m.match_id and (a[1], a[2], a[3]) not in stored]
            assert lost == [], f"acknowledged decisions missing from the log: {lost}"
        await referee.stop()
    finally:
        for nc in (ref_nc, client):
            if nc is not None:
                await nc.close()
        cluster.stop()


# ----------------------------------------------------------------------------------------------
# The deployment of deploy/ itself: `gamehall deploy up --dir deploy` starts the three nodes of
# deploy/nats/cluster/*.conf and every service of deploy/compose.yaml (two referees) on loopback
# against a fresh PostgreSQL database, so those files cannot rot.


def children_of(pid: int) -> dict[int, str]:
    """pid -> command line of the processes whose parent is ``pid``."""
    out = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            parent = int(stat.rsplit(")", 1)[1].split()[1])
            if parent == pid:
                out[int(entry.name)] = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except (OSError, ValueError, IndexError):
            continue
    return out


def samples(url: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    import httpx
    from prometheus_client.parser import text_string_to_metric_families

    try:
        body = httpx.get(url, timeout=3).text
    except httpx.HTTPError:
        return {}
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(body)
        for s in family.samples
    }


def wait_for(what: str, condition, timeout: float = 120.0, proc=None) -> None:  # noqa: ANN001
    import time

    deadline = time.monotonic() + timeout
    while not condition():
        if proc is not None and proc.poll() is not None:
            raise AssertionError(f"gamehall deploy up exited with {proc.returncode} before: {what}")
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout:.0f} s: {what}")
        time.sleep(0.25)


@pytest.fixture
def fresh_pg(tmp_path: Path, pg_url: str | None):  # noqa: ANN201
    from tests.integration.ranked_support import throwaway_database

    yield from throwaway_database("postgresql", tmp_path, pg_url)


def test_deploy_folder_runs_as_written(tmp_path: Path, fresh_pg: str) -> None:
    import json
    import shutil
    import signal
    import subprocess
    import time

    import httpx
    import yaml

    from services.common.processes import ROOT, free_port, gamehall_args, spawn, stop_all

    state = tmp_path / "deploy"
    log = tmp_path / "deploy-up.log"
    proc = spawn(
        gamehall_args("deploy", "up", "--dir", str(ROOT / "deploy"), "--db-url", fresh_pg, "--state", str(state)),
        output=log,
    )
    try:
        wait_for("deploy.json", (state / "deploy.json").exists, timeout=240, proc=proc)
        info = json.loads((state / "deploy.json").read_text())
        compose = yaml.safe_load((ROOT / "deploy/compose.yaml").read_text())["services"]
        gamehall = {n for n, s in compose.items() if (s.get("command") or [""])[0] == "gamehall"}
        assert {"referee-1", "referee-2", "gateway", "bots", "matchmaking", "nats-metrics"} <= gamehall
        assert set(info["metrics"]) == gamehall
        assert len(info["nats_url"].split(",")) == 3
        http = httpx.Client(base_url=info["gateway_url"], timeout=30)
        assert http.get("/readyz").status_code == 200
        second = subprocess.run(
            gamehall_args("deploy", "up", "--db-url", fresh_pg, "--state", str(state)),
            capture_output=True, text=True, timeout=120, cwd=ROOT,
        )
        assert second.returncode == 1 and "already runs" in second.stdout, second.stdout + second.stderr

        # every target of the Prometheus config answers with gamehall series (and nothing else is scraped)
        scrape = yaml.safe_load((state / "prometheus.yml").read_text())
        targets = [t for job in scrape["scrape_configs"] for s in job["static_configs"] for t in s["targets"]]
        assert len(targets) == len(gamehall) + 1  # + the supervisor
        for target in targets:
            wait_for(f"{target} serves gamehall metrics",
                     lambda t=target: any(name.startswith("gamehall_") for name, _ in samples(f"http://{t}/metrics")))

        # streams on all three nodes; a match is created and reaches the match list (scoring on PostgreSQL)
        created = http.post("/api/matches", json={"game": "ugolki", "players": ["ann", "bob"]})
        assert created.status_code == 201, created.text
        match_id = created.json()["match_id"]
        wait_for("the match in the list", lambda: match_id in http.get("/api/matches").text)

        # matchmaking runs on the list of three servers
        mm = info["metrics"]["matchmaking"]
        wait_for("matchmaking ready on NATS", lambda: samples(mm).get(("gamehall_ready_check", (("check", "streams"),))) == 1)

        # NATS's own health: every node up, routed to both others
        nm = info["metrics"]["nats-metrics"]
        servers = [u.split("://", 1)[1] for u in info["nats_monitor"]]

        def peers(server: str) -> float | None:
            return samples(nm).get(("gamehall_nats_cluster_peers", (("server", server),)))

        wait_for("every node has two peers", lambda: all(peers(s) == 2 for s in servers))
        assert all(samples(nm).get(("gamehall_nats_up", (("server", s),))) == 1 for s in servers)

        # Prometheus with the loopback copy of deploy/prometheus/prometheus.yml: every target up, and
        # the NATS panels and alerts (which the laptop stack of tests/e2e/test_monitoring.py lacks) read series
        prometheus = shutil.which("prometheus")
        if prometheus is not None:
            from tests.e2e.test_monitoring import NATS_SERIES, alert_expressions, panel_expressions, query

            scrape["global"] = {"scrape_interval": "1s", "evaluation_interval": "1s"}
            config = tmp_path / "prometheus.yml"
            config.write_text(yaml.safe_dump(scrape))
            prom_port = free_port()
            prom = f"http://127.0.0.1:{prom_port}"
            prom_proc = spawn(
                [prometheus, f"--config.file={config}", f"--storage.tsdb.path={tmp_path / 'tsdb'}",
                 f"--web.listen-address=127.0.0.1:{prom_port}"],
                output=tmp_path / "prometheus.log",
            )
            try:
                def all_up() -> bool:
                    try:
                        ups = query(prom, "up")
                    except httpx.HTTPError:
                        return False
                    return len(ups) == len(targets) and all(u["value"][1] == "1" for u in ups)  # type: ignore[index]

                wait_for("Prometheus scrapes every target", all_up)
                nats_exprs = {
                    name: expr
                    for name, expr in {**panel_expressions(), **alert_expressions()}.items()
                    if NATS_SERIES in expr
                }
                assert len(nats_exprs) >= 6

                def nats_series() -> bool:
                    try:
                        return all(query(prom, expr) for expr in nats_exprs.values())
                    except httpx.HTTPError:
                        return False

                wait_for(f"series for {sorted(nats_exprs)}", nats_series)
                def no_peer_missing() -> bool:  # the measure of GamehallNatsPeerMissing: 0 on each node
                    found = query(prom, alert_expressions()["GamehallNatsPeerMissing"])
                    return len(found) == 3 and all(float(f["value"][1]) == 0 for f in found)  # type: ignore[index]

                wait_for("no peer missing", no_peer_missing)
            finally:
                stop_all([prom_proc], timeout=20)

        # the supervisor restarts what dies and counts it
        sup = info["supervisor_metrics"]
        doomed = next(p for p, cmd in children_of(proc.pid).items() if "n2.conf" in cmd)
        os.kill(doomed, signal.SIGKILL)
        wait_for("nats-2 restarted once",
                 lambda: samples(sup).get(("gamehall_service_restarts_total", (("service", "nats-2"),))) == 1)
        referee = next(p for p, cmd in children_of(proc.pid).items() if "serve referee" in cmd)
        os.kill(referee, signal.SIGKILL)
        wait_for("a referee restarted once", lambda: sum(
            v for (name, labels), v in samples(sup).items()
            if name == "gamehall_service_restarts_total" and labels[0][1].startswith("referee-")) == 1)
        wait_for("every node has two peers again", lambda: all(peers(s) == 2 for s in servers), timeout=180)
        again = http.post("/api/matches", json={"game": "ugolki", "players": ["cid", "dan"]})
        for _ in range(40):  # the restarted node rejoins; a creation may meet its election
            if again.status_code == 201:
                break
            time.sleep(0.5)
            again = http.post("/api/matches", json={"game": "ugolki", "players": ["cid", "dan"]})
        assert again.status_code == 201, again.text
    finally:
        kids = list(children_of(proc.pid))
        proc.send_signal(signal.SIGTERM)
        try:
            code = proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            code = proc.wait()
        for pid in kids:  # nothing outlives the supervisor
            wait_for(f"process {pid} gone", lambda p=pid: not Path(f"/proc/{p}").exists() or
                     "Z" in Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()[0], timeout=60)
    assert code == 0, log.read_text()[-3000:]
