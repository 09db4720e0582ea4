"""What the projection runner itself costs (``services/common/projection.py``): ``--messages``
small messages on a stream of their own, half of them on a subject the projection does not
read, projected from the start with an apply that writes one row per message into a SQLite
file (the position in the same transaction, as every read model does).  Reports messages per
second and this process's CPU per message (reader, checks, transaction and row), once while
the messages are already stored (catching up) and once while they are published (following).
One JSON line at the end.

    .venv/bin/python bench/projection_bench.py [--messages 20000]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from nats.js.api import StreamConfig  # noqa: E402
from sqlalchemy.orm import Session  # noqa: E402

from services.common import db, natsio  # noqa: E402
from services.common.embedded import EmbeddedNats  # noqa: E402
from tests.support import projection_child as rows  # noqa: E402


async def measure(js: Any, engine: Any, stream: str, name: str, last: int, publish: Any = None) -> dict[str, float]:
    stop = asyncio.Event()
    projection = rows.projection(js, engine, stream, f"{stream.lower()}.a", name)
    cpu0, t0 = time.process_time(), time.perf_counter()
    task = asyncio.create_task(projection.run(stop))
    if publish is not None:
        last = await publish()
    while True:
        with Session(engine) as session:
            if db.get_position(session, name) >= last:
                break
        await asyncio.sleep(0.01)
    elapsed, cpu = time.perf_counter() - t0, time.process_time() - cpu0
    stop.set()
    await task
    applied = projection.applied_total
    return {
        "messages": applied,
        "per_s": round(applied / elapsed),
        "cpu_us_per_message": round(cpu / applied * 1e6, 1),
        "batches": projection.batches,
    }


async def main(count: int) -> dict[str, Any]:
    store = Path(tempfile.mkdtemp(prefix="gh-projection-bench-"))
    server = EmbeddedNats(store / "nats").start()
    try:
        nc = await natsio.connect(server.url, "bench")
        js = nc.jetstream()
        out: dict[str, Any] = {}
        for phase in ("catch_up", "follow"):
            stream = f"BENCH_{phase.upper()}"
            await js.add_stream(StreamConfig(name=stream, subjects=[f"{stream.lower()}.>"]))
            engine = rows.prepare_database(f"sqlite:///{store / (phase + '.sqlite3')}")

            async def publish(stream: str = stream) -> int:
                """From another process, so that this one's CPU is the projection's alone."""
                proc = await asyncio.create_subprocess_exec(
                    sys.executable, __file__, "--publish", server.url, stream, str(count),
                    stdout=asyncio.subprocess.PIPE,
                )
                out, _ = await proc.communicate()
                return int(out.decode().split()[-1])

            if phase == "catch_up":
                last = await publish()
                out[phase] = await measure(js, engine, stream, f"bench-{phase}", last)
            else:
                out[phase] = await measure(js, engine, stream, f"bench-{phase}", 0, publish)
            engine.dispose()
        await nc.close()
    finally:
        server.stop()
    return {
        "projection_catch_up_per_s": out["catch_up"]["per_s"],
        "projection_catch_up_cpu_us_per_message": out["catch_up"]["cpu_us_per_message"],
        "projection_follow_per_s": out["follow"]["per_s"],
        "projection_follow_cpu_us_per_message": out["follow"]["cpu_us_per_message"],
        "projection_detail": out,
    }


async def publish_all(url: str, stream: str, count: int) -> int:
    """Publish ``count`` messages, every other one on the projected subject; the stream sequence
    of the last projected one."""
    nc = await natsio.connect(url, "bench-publisher")
    js = nc.jetstream()
    last = 0
    for i in range(count):
        ack = await js.publish(f"{stream.lower()}.{'ab'[i % 2]}", b'{"n": %d}' % i)
        if i % 2 == 0:
            last = ack.seq
    await nc.close()
    return last


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=20000, help="messages published (half of them projected)")
    parser.add_argument("--publish", nargs=3, metavar=("URL", "STREAM", "COUNT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.publish:
        url, stream, count = args.publish
        print(asyncio.run(publish_all(url, stream, int(count))))
    else:
        print(json.dumps(asyncio.run(main(args.messages))))
