"""NATS's own health from a real nats-server's monitoring port (services/common/natsmonitor.py,
served by `gamehall deploy nats-metrics`): connections, slow consumers, JetStream storage and its
limit, peers; a server that stops answering reads up 0 and keeps its series."""

from __future__ import annotations

import asyncio
import subprocess
from pathlib import Path

import httpx
import pytest
from prometheus_client import generate_latest

from services.common import natsio, natsmonitor
from services.common.embedded import nats_server_binary
from services.common.processes import free_port, port_open, spawn, stop_all, wait_until

pytestmark = pytest.mark.integration


def start_server(tmp_path: Path, port: int, http_port: int) -> subprocess.Popen[bytes]:
    conf = tmp_path / "nats.conf"
    conf.write_text(
        f"listen: 127.0.0.1:{port}\nhttp: 127.0.0.1:{http_port}\n"
        f'jetstream {{ store_dir: "{tmp_path / "store"}", max_file_store: 1GB }}\n'
    )
    proc = spawn([nats_server_binary(), "-c", str(conf)], output=tmp_path / "nats.log", cwd=None)
    wait_until(lambda: port_open("127.0.0.1", http_port) and port_open("127.0.0.1", port), "nats-server", proc, 15)
    return proc


async def test_the_collector_reads_a_real_server(tmp_path: Path) -> None:
    port, http_port = free_port(), free_port()
    proc = start_server(tmp_path, port, http_port)
    monitor = natsmonitor.NatsMonitor([f"http://127.0.0.1:{http_port}"], interval_s=0.1)
    server = f"127.0.0.1:{http_port}"
    clients = []
    try:
        async with httpx.AsyncClient() as http:
            await monitor.poll_once(http)
            before = monitor.last[server]
            assert before["gamehall_nats_up"] == 1 and before["gamehall_nats_healthy"] == 1
            assert before["gamehall_nats_jetstream_storage_limit_bytes"] == 1024**3
            assert before["gamehall_nats_cluster_size"] == 1 and before["gamehall_nats_cluster_peers"] == 0
            clients = [await natsio.connect(f"nats://127.0.0.1:{port}", f"probe-{i}") for i in range(3)]
            await natsio.ensure_streams(clients[0].jetstream(), replicas=1, streams=natsio.APP_STREAMS)
            await monitor.poll_once(http)
            now = monitor.last[server]
            assert now["gamehall_nats_connections"] == before["gamehall_nats_connections"] + 3
            assert now["gamehall_nats_jetstream_storage_bytes"] >= before["gamehall_nats_jetstream_storage_bytes"]
            assert now["gamehall_nats_slow_consumers"] == 0

            # the exposition: gauges and counters labelled by server
            natsmonitor.install(monitor)
            text = generate_latest().decode()
            assert f'gamehall_nats_connections{{server="{server}"}} ' in text
            assert f'gamehall_nats_slow_consumers_total{{server="{server}"}} 0.0' in text

            for nc in clients:
                await nc.close()
            clients = []
            stop_all([proc])
            await monitor.poll_once(http)
            gone = monitor.last[server]
            assert gone["gamehall_nats_up"] == 0 and gone["gamehall_nats_healthy"] == 0
            assert "gamehall_nats_connections" not in gone
            assert f'gamehall_nats_up{{server="{server}"}} 0.0' in generate_latest().decode()
            assert monitor.answering() == 0
    finally:
        for nc in clients:
            await nc.close()
        stop_all([proc])
        natsmonitor.install(None)


async def test_the_run_loop_keeps_polling(tmp_path: Path) -> None:
    port, http_port = free_port(), free_port()
    proc = start_server(tmp_path, port, http_port)
    monitor = natsmonitor.NatsMonitor([f"http://127.0.0.1:{http_port}"], interval_s=0.05)
    task = asyncio.create_task(monitor.run())
    try:
        deadline = asyncio.get_running_loop().time() + 30
        while monitor.answering() != 1:
            assert asyncio.get_running_loop().time() < deadline, monitor.last
            await asyncio.sleep(0.05)
        stop_all([proc])
        while monitor.answering() != 0:
            assert asyncio.get_running_loop().time() < deadline, monitor.last
            await asyncio.sleep(0.05)
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        stop_all([proc])
