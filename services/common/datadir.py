"""The data folder is private to the user that runs gamehall: the folder 0700, what it holds
0600 (docs/operations.md "Data folder").  It holds the SQLite database (app keys, accounts), the
server key, the referees' signing keys, NATS credentials, bot seat tokens and the gateway's
secret, so no other local user may read any of it.

Every command sets the process umask to :data:`UMASK` before it writes anything, so what it and
the processes it starts create is private from the start; :func:`secure` also takes the group
and other bits off a folder made by an older version (0755 with 0644 files).  Only the entries
gamehall itself writes are touched, never the rest of a folder ``GAMEHALL_DATA_DIR`` points at.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

UMASK = 0o077
PRIVATE_DIR = 0o700
PRIVATE_FILE = 0o600

# What gamehall writes in the data folder: files at its top, folders whose whole tree is ours,
# and the embedded nats-server's store (its folder is made private; nats-server writes inside).
OWN_FILES = (
    "gamehall.sqlite3",
    "gamehall.sqlite3-wal",
    "gamehall.sqlite3-shm",
    "gamehall.sqlite3-journal",
    "gateway.secret",
    "stack.json",
    "stack.tmp",
    "up.lock",
    "nats.port",
    "nats-server.log",
)
OWN_TREES = ("keys", "credentials", "bots", "logs")
STORE_DIRS = ("nats",)


def private_umask() -> int:
    """Files and folders this process (and what it starts) creates are its user's alone; the
    previous umask."""
    return os.umask(UMASK)


def _strip(path: Path, is_dir: bool) -> None:
    """Take the group and other bits off ``path`` (never through a symlink)."""
    try:
        st = path.lstat()
    except FileNotFoundError:
        return
    if stat.S_ISLNK(st.st_mode):
        return
    mode = stat.S_IMODE(st.st_mode)
    if mode & 0o077:
        os.chmod(path, (mode & 0o700) | (PRIVATE_DIR if is_dir else 0))


def make_private_dir(path: Path) -> Path:
    """``path`` (and missing parents) as a folder of mode 0700; an existing one is made 0700."""
    path = Path(path)
    path.mkdir(parents=True, exist_ok=True, mode=PRIVATE_DIR)
    os.chmod(path, PRIVATE_DIR)
    return path


def secure(data_dir: Path, create: bool = True) -> None:
    """The data folder 0700 and what gamehall keeps in it without group or other access (an old
    folder made 0755 with 0644 files included).  ``create``: make the folder when it is missing."""
    data_dir = Path(data_dir)
    if not create and not data_dir.is_dir():
        return
    make_private_dir(data_dir)
    for name in OWN_FILES:
        _strip(data_dir / name, is_dir=False)
    for name in STORE_DIRS:
        _strip(data_dir / name, is_dir=True)
    for name in OWN_TREES:
        top = data_dir / name
        if not top.is_dir() or top.is_symlink():
            continue
        _strip(top, is_dir=True)
        for root, dirs, files in os.walk(top):
            for d in dirs:
                _strip(Path(root) / d, is_dir=True)
            for f in files:
                _strip(Path(root) / f, is_dir=False)

