"""Starting a process and waiting until it is ready, in one place: ``gamehall up`` and the
embedded nats-server use it, and so do the end-to-end tests, the browser tests and the benchmarks."""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parents[2]
# What ``gamehall up`` prints once the gateway answers: "... open http://127.0.0.1:8000/ ..."
PRINTED_URL = re.compile(r"open (http://\S+?)/(?:\s|$)")


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


def port_taken(host: str, port: int) -> bool:
    """True when a server could not bind ``host:port`` now (another program holds it), as uvicorn
    binds (``SO_REUSEADDR``): a connect probe misses a program listening on another address of
    this machine or on the wildcard address."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError as exc:
            if exc.errno in (errno.EADDRINUSE, errno.EACCES):
                return True
            raise
    return False


def port_open(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=0.2):
            return True
    except OSError:
        return False


def http_ok(url: str) -> bool:
    import httpx  # here: the command line imports this module and must start fast

    try:
        return httpx.get(url, timeout=1.0).status_code == 200
    except httpx.HTTPError:
        return False


def gamehall_args(*args: str) -> list[str]:
    """The ``gamehall`` command of this Python environment, e.g. ``gamehall_args("serve", "referee")``."""
    return [sys.executable, "-m", "services.cli.main", *args]


PR_SET_PDEATHSIG = 1  # linux/prctl.h


def _prctl() -> Any:
    """libc's ``prctl`` on Linux (None elsewhere), looked up once, before any fork."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


_PRCTL = _prctl()


def die_with_parent(sig: int = signal.SIGTERM) -> bool:
    """Ask the kernel to send ``sig`` to this process when its parent dies (Linux
    ``PR_SET_PDEATHSIG``; kept across ``exec``).  False where there is no such thing: the caller
    then needs another way to notice (``gamehall serve`` watches its parent's pid).  Safe to call between fork and exec."""
    if _PRCTL is None:
        return False
    return bool(_PRCTL(PR_SET_PDEATHSIG, int(sig), 0, 0, 0) == 0)


def spawn(
    args: list[str],
    env: Mapping[str, str] | None = None,
    output: Path | int | IO[Any] | None = subprocess.DEVNULL,
    text: bool = False,
    cwd: Path | None = ROOT,
    with_parent: bool = False,
) -> subprocess.Popen[Any]:
    """Start ``args`` in its own session (Ctrl-C in a terminal reaches only the parent).

    ``output``: a file to append stdout and stderr to, ``subprocess.PIPE`` to read them (merged),
    or ``subprocess.DEVNULL``.  ``with_parent``: the child gets SIGTERM when this process dies,
    even by SIGKILL (Linux; elsewhere the child must watch its parent itself).  The kernel ties
    that to the spawning thread, so spawn such children from a thread that lives as long as the
    process (``gamehall up``'s main thread)."""
    if isinstance(output, Path):
        output.parent.mkdir(parents=True, exist_ok=True)
        sink: Any = open(output, "ab")  # noqa: SIM115 - owned by the child
    else:
        sink = output
    return subprocess.Popen(
        args,
        env=dict(env) if env is not None else None,
        cwd=cwd,
        stdout=sink,
        stderr=subprocess.STDOUT if sink == subprocess.PIPE else sink,
        text=text,
        start_new_session=True,
        preexec_fn=die_with_parent if with_parent and _PRCTL is not None else None,  # noqa: PLW1509
    )


class NotReady(RuntimeError):
    """A process did not become ready: it exited, or the time ran out."""


def wait_until(
    ready: Callable[[], bool],
    what: str,
    proc: subprocess.Popen[Any] | None = None,
    timeout: float = 30.0,
    interval: float = 0.05,
) -> None:
    """Poll ``ready()`` until it is true; ``NotReady`` naming ``what`` when ``proc`` exits first
    or ``timeout`` seconds pass."""
    deadline = time.monotonic() + timeout
    while not ready():
        if proc is not None and proc.poll() is not None:
            raise NotReady(f"{what}: the process exited with {proc.returncode}")
        if time.monotonic() > deadline:
            raise NotReady(f"{what}: not ready after {timeout:.0f}s")
        time.sleep(interval)


def stop_all(procs: Iterable[subprocess.Popen[Any]], sig: int = signal.SIGTERM, timeout: float = 15.0) -> None:
    """Signal every process that still runs, then wait for each (SIGKILL after ``timeout``)."""
    procs = list(procs)
    for proc in procs:
        if proc.poll() is None:
            proc.send_signal(sig)
    for proc in procs:
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


class UpProcess:
    """``gamehall up`` as a child process: started, then ready once it prints its URL."""

    def __init__(self, env: Mapping[str, str], services: Iterable[str] = (), command: list[str] | None = None):
        args = command or gamehall_args("up")
        for name in services:
            args = [*args, "-s", name]
        self.started = time.monotonic()
        self.proc = spawn(args, env, output=subprocess.PIPE, text=True)
        self.url = ""

    def wait_url(self, timeout: float = 60.0) -> str:
        """Read its output until it prints where to open it; ``NotReady`` if it exits or stalls."""
        assert self.proc.stdout is not None
        seen: list[str] = []
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            found = PRINTED_URL.search(line)
            if found:
                self.url = found.group(1)
                return self.url
            if line:
                seen.append(line)
            elif self.proc.poll() is not None:
                break
            else:
                time.sleep(0.01)  # output closed, the process not reaped yet
        raise NotReady("gamehall up did not print its URL:\n" + "".join(seen[-20:]))

    def stop(self, timeout: float = 60.0) -> int:
        """Ctrl-C, as a person would; returns its exit status."""
        stop_all([self.proc], signal.SIGINT, timeout)
        return int(self.proc.returncode)
