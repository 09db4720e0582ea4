"""The local stack: which processes run, where they listen (``.gamehall/stack.json``), and the
lock that makes one ``gamehall up`` per data folder (``.gamehall/up.lock``)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import IO

import httpx

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: no lock, stack.json alone says who runs
    fcntl = None  # type: ignore[assignment]


@dataclass(frozen=True)
class StackInfo:
    pid: int
    nats_url: str
    gateway_url: str
    embedded_nats: bool
    metrics: dict[str, str]
    # pid of every process `up` started, by name ("referee-1", "gateway", "nats-server", ...)
    children: dict[str, int] = field(default_factory=dict)
    instance: str = ""  # the gateway's /readyz "instance" of this start


def stack_file(data_dir: Path) -> Path:
    return data_dir / "stack.json"


def lock_file(data_dir: Path) -> Path:
    return data_dir / "up.lock"


def write(data_dir: Path, info: StackInfo) -> None:
    data_dir.mkdir(parents=True, exist_ok=True)
    tmp = stack_file(data_dir).with_suffix(".tmp")
    tmp.write_text(json.dumps(asdict(info), indent=2))
    tmp.replace(stack_file(data_dir))


def remove(data_dir: Path, pid: int) -> None:
    found = read(data_dir)
    if found is not None and found.pid == pid:
        stack_file(data_dir).unlink(missing_ok=True)


def read(data_dir: Path) -> StackInfo | None:
    try:
        raw = json.loads(stack_file(data_dir).read_text())
        return StackInfo(**raw)
    except (OSError, ValueError, TypeError):
        return None


def alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie nobody has reaped yet counts as gone)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True  # no /proc here: the signal reached it
    return state not in ("Z", "X")


def running(data_dir: Path) -> StackInfo | None:
    """The stack started by ``gamehall up`` in this data folder, if it is up and answering."""
    info = read(data_dir)
    if info is None or not alive(info.pid):
        return None
    try:
        ok = httpx.get(f"{info.gateway_url}/healthz", timeout=2.0).status_code == 200
    except httpx.HTTPError:
        ok = False
    return info if ok else None


class UpLock:
    """``flock`` on ``up.lock`` in the data folder, held by one ``gamehall up`` for its whole life.

    The kernel lets it go when that process ends in any way (SIGKILL too), so a lock that cannot
    be taken means a live ``up``; its pid is written in the file."""

    def __init__(self, data_dir: Path) -> None:
        self.path = lock_file(data_dir)
        self._file: IO[str] | None = None

    def acquire(self) -> bool:
        """True when this process now holds the lock; False when another process does."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(self.path, "a+")  # noqa: SIM115 - held until release()
        if fcntl is not None:
            try:
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                handle.close()
                return False
        handle.seek(0)
        handle.truncate()
        handle.write(f"{os.getpid()}\n")
        handle.flush()
        self._file = handle
        return True

    def holder(self) -> int | None:
        """The pid written by the process that holds (or last held) the lock."""
        try:
            return int(self.path.read_text().strip())
        except (OSError, ValueError):
            return None

    def release(self) -> None:
        if self._file is not None:
            self._file.close()  # closing the file lets the lock go
            self._file = None


# -- processes left behind ---------------------------------------------------------------


def command_line(pid: int) -> str:
    """The command line of ``pid`` ('' when it is gone or cannot be read)."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
    except FileNotFoundError:
        if Path("/proc/self").exists():
            return ""
    except OSError:
        return ""
    found = subprocess.run(["ps", "-o", "command=", "-p", str(pid)], capture_output=True, text=True)
    return found.stdout.strip()


def _environ(pid: int) -> dict[str, str]:
    try:
        raw = Path(f"/proc/{pid}/environ").read_bytes()
    except OSError:
        return {}
    pairs = (item.split(b"=", 1) for item in raw.split(b"\0") if b"=" in item)
    return {k.decode(errors="replace"): v.decode(errors="replace") for k, v in pairs}


def _parent(pid: int) -> int | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        return int(stat.rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return None


def _is_gamehall(cmd: str) -> bool:
    return "services.cli.main" in cmd or "gamehall" in os.path.basename(cmd.split(" ", 1)[0])


def _ours(pid: int, cmd: str, data_dir: Path) -> bool:
    """A gamehall service or nats-server of this data folder."""
    if "nats-server" in cmd:
        return f"{data_dir}{os.sep}" in cmd
    if not _is_gamehall(cmd) or " serve " not in f" {cmd} ":
        return False
    found = _environ(pid).get("GAMEHALL_DATA_DIR")
    return found is not None and Path(found).resolve() == data_dir


def leftovers(data_dir: Path, recorded: StackInfo | None = None) -> dict[int, str]:
    """Processes of this data folder that no live ``gamehall up`` supervises (pid -> command line):
    those a killed ``up`` recorded in ``stack.json`` that still run it, and (Linux) every
    ``gamehall serve`` or nats-server of this folder whose parent is not a gamehall process (an
    orphan).  Call it holding the ``UpLock``: then no ``up`` of this folder runs."""
    data_dir = data_dir.resolve()
    me = os.getpid()
    found: dict[int, str] = {}
    candidates: set[int] = set()
    if recorded is not None and recorded.pid != me:
        candidates.update(recorded.children.values())
    proc = Path("/proc")
    if proc.is_dir():
        candidates.update(int(p.name) for p in proc.iterdir() if p.name.isdigit())
    for pid in sorted(candidates):
        if pid == me or not alive(pid):
            continue
        cmd = command_line(pid)
        if not cmd or not _ours(pid, cmd, data_dir):
            continue
        parent = _parent(pid)
        if parent == me:
            continue
        if parent is not None and parent > 1 and _is_gamehall(command_line(parent)):
            continue  # e.g. the nats-server of a `gamehall demo` or `export` that runs now
        found[pid] = cmd
    return found


def stop_leftovers(pids: list[int], timeout: float = 10.0) -> list[int]:
    """SIGTERM each, SIGKILL what still runs after ``timeout``; the pids that would not go."""
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    while any(alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    for pid in pids:
        if alive(pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 5.0
    while any(alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    return [p for p in pids if alive(p)]
