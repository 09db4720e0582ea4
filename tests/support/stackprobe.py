"""Looking at a running ``gamehall up`` from outside, as an operator would: its processes, its
``/metrics``, and whether its projections have caught up with the streams (the positions stored
in the database against the streams' last sequences)."""

from __future__ import annotations

import asyncio
import re
import subprocess
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import httpx
from nats.js import JetStreamContext
from nats.js.errors import NotFoundError
from sqlalchemy import func, select

from contracts import subjects
from services.common import db, natsauth, natsio, stack


def wait_until(what: str, check: Callable[[], object], timeout: float = 60.0, interval: float = 0.2) -> None:
    """Poll ``check`` (HTTP errors count as "not yet") until it is true; AssertionError naming
    ``what`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            if check():
                return
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:g}s waiting until {what}")
        time.sleep(interval)


async def until(check: Callable[[], Awaitable[object]], what: str, seconds: float = 60.0) -> object:
    """Await ``check`` every 0.1 s until it gives something true, and return that; AssertionError
    naming ``what`` after ``seconds``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while True:
        got = await check()
        if got:
            return got
        assert loop.time() < deadline, f"{what}: not before the deadline"
        await asyncio.sleep(0.1)


def children(parent: int) -> list[int]:
    """The pids of ``parent``'s children (``pgrep -P``)."""
    found = subprocess.run(["pgrep", "-P", str(parent)], capture_output=True, text=True)
    return [int(p) for p in found.stdout.split()]


def child_pids(parent: int, pattern: str) -> list[int]:
    """The pids of ``parent``'s children whose command line matches ``pattern``."""
    found = subprocess.run(["pgrep", "-P", str(parent), "-f", pattern], capture_output=True, text=True)
    return [int(p) for p in found.stdout.split()]


def child_pid(parent: int, pattern: str) -> int | None:
    """The pid of the child of ``parent`` whose command line matches ``pattern`` (the oldest when
    several do: `gamehall up` runs two referees on a machine with 2 cores), None while there is none."""
    found = subprocess.run(["pgrep", "-o", "-P", str(parent), "-f", pattern], capture_output=True, text=True)
    pids = [int(p) for p in found.stdout.split()]
    return pids[0] if pids else None


def command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return ""


def running(pid: int) -> bool:
    """True while ``pid`` is a live process (a zombie nobody has reaped yet counts as gone)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def counter_total(metrics_text: str, name: str) -> float:
    """The sum of every sample of counter ``name`` (all label sets) in a Prometheus text page."""
    sample = re.compile(rf"^{re.escape(name)}(?:\{{[^}}]*\}})? (\S+)$", re.MULTILINE)
    return sum(float(value) for value in sample.findall(metrics_text))


class CounterAcrossRestarts:
    """A counter of one service's ``/metrics`` followed across restarts of that service: each
    sample that is lower than the one before means a new process, whose count starts at 0, so the
    last value seen of the old process is kept.  What a process counted after its last sample and
    before it died is not seen: sample often."""

    def __init__(self, data_dir: Path, service: str, name: str) -> None:
        self.data_dir, self.service, self.name = data_dir, service, name
        self.before = 0.0  # counted by earlier processes
        self.last = 0.0
        self.samples = 0  # pages read that export the counter

    def sample(self) -> None:
        info = stack.read(self.data_dir)
        url = info.metrics.get(self.service) if info is not None else None
        if url is None:
            return
        try:
            page = httpx.get(url, timeout=2.0).text
        except httpx.HTTPError:
            return
        if f"# TYPE {self.name.removesuffix('_total')}" not in page:  # with or without _total
            return
        value = counter_total(page, self.name)
        if value < self.last:
            self.before += self.last
        self.last = value
        self.samples += 1

    @property
    def total(self) -> float:
        return self.before + self.last


async def _last_seq(js: JetStreamContext, stream: str, subject: str | None) -> int:
    """The last sequence of ``stream`` (``subject=None``) or of one subject in it; 0 when empty."""
    try:
        if subject is None:
            return int((await js.stream_info(stream)).state.last_seq or 0)
        return int((await js.get_last_msg(stream, subject)).seq or 0)
    except NotFoundError:
        return 0


async def _projection_lag(data_dir: Path) -> dict[str, tuple[int, int]]:
    info = stack.read(data_dir)
    assert info is not None, f"no stack.json in {data_dir}"
    credential = natsauth.credential_for(natsauth.credentials_dir(data_dir), "cli") if info.embedded_nats else None
    nc = await natsio.connect(info.nats_url, "gamehall-test-probe", credential)
    engine = db.make_engine(f"sqlite:///{data_dir / 'gamehall.sqlite3'}")
    try:
        js = nc.jetstream()

        def stored() -> tuple[dict[str, int], int]:
            with db.session_scope(engine) as session:
                names = (
                    subjects.SCORING_CONSUMER,
                    subjects.RULINGS_CONSUMER,
                    subjects.MATCH_LIST_CONSUMER,
                    subjects.LEADERBOARD_CONSUMER,
                )
                positions = {name: db.get_position(session, name) for name in names}
                outbox = int(session.scalar(select(func.count()).select_from(db.Outbox)) or 0)
            return positions, outbox

        # The streams first, then the database: a projection read as caught up is caught up with
        # at least what the stream held before.  The leaderboard follows what scoring publishes
        # (its outbox): its stream is read after scoring's outbox is seen empty, below.
        finished = await _last_seq(js, subjects.INTEGRATION_STREAM, subjects.MATCH_FINISHED)
        matches = await _last_seq(js, subjects.MATCH_STREAM, None)
        disputes = await _last_seq(js, subjects.DISPUTE_STREAM, None)
        positions, outbox = await asyncio.to_thread(stored)
        rated = await _last_seq(js, subjects.INTEGRATION_STREAM, subjects.RATING_APPLIED)
        board = (await asyncio.to_thread(stored))[0][subjects.LEADERBOARD_CONSUMER]
        return {
            subjects.SCORING_CONSUMER: (positions[subjects.SCORING_CONSUMER], finished),
            subjects.RULINGS_CONSUMER: (positions[subjects.RULINGS_CONSUMER], disputes),
            subjects.MATCH_LIST_CONSUMER: (positions[subjects.MATCH_LIST_CONSUMER], matches),
            "scoring outbox (unpublished, of 0)": (-outbox, 0),
            subjects.LEADERBOARD_CONSUMER: (board, rated),
        }
    finally:
        engine.dispose()
        await nc.close()


def projection_lag(data_dir: Path) -> dict[str, tuple[int, int]]:
    """Each projection of the stack in ``data_dir``: (position stored in the database, last
    sequence of what it reads in its stream).  Caught up when every position is at least its
    last sequence (see :func:`caught_up`)."""
    return asyncio.run(asyncio.wait_for(_projection_lag(data_dir), 30.0))


def caught_up(lag: dict[str, tuple[int, int]]) -> bool:
    return all(position >= last for position, last in lag.values())


def wait_caught_up(data_dir: Path, timeout: float) -> dict[str, tuple[int, int]]:
    """Poll :func:`projection_lag` until every projection has caught up; AssertionError with the
    last positions after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    lag: dict[str, tuple[int, int]] = {}
    while True:
        try:
            lag = projection_lag(data_dir)
            if caught_up(lag):
                return lag
        except Exception as exc:  # noqa: BLE001 - NATS restarting, stack.json being rewritten: poll again
            lag = {f"not read: {exc!r}": (0, 1)}
        if time.monotonic() > deadline:
            raise AssertionError(f"the projections did not catch up in {timeout:g}s (position, last): {lag}")
        time.sleep(0.5)

