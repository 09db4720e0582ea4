"""The one way the ``gamehall`` commands read a file a user names (``rules replay FILE``,
``audit --file BUNDLE``, ``audit --keys KEYS.json``, ``--set key=@file.json``, ``apps add/keys
--jwks FILE --public-key FILE``, the key files at most 64 KiB).

The file is opened without blocking (a FIFO does not hang the command), checked with ``fstat``
on the open descriptor, and refused **before a byte is read** unless it is a regular file of at
most :data:`MAX_INPUT_BYTES` (a symlink to ``/dev/zero``, a FIFO, a directory, a device or a
sparse 1 TB file are refused at once).  Reading stops one byte past the limit, so a file that
grows meanwhile is refused too.  Standard input (``-``) is read up to the same limit.  JSON is
parsed strictly: invalid UTF-8, invalid JSON and nesting deeper than Python's parser takes are a
:class:`Unreadable` with a one-line message, never a traceback.  The commands exit 2 on it
(docs/operations.md "Limits").
"""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path
from typing import Any

MAX_INPUT_BYTES = 64 * 1024 * 1024  # 64 MiB: a file a command reads
LIMIT_TEXT = "64 MiB"


class Unreadable(Exception):
    """A file a command cannot take (the message names it and says why, on one line)."""


def read_input(path: str | Path, limit: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of the regular file ``path`` (``-``: standard input), at most ``limit``."""
    if str(path) == "-":
        data = sys.stdin.buffer.read(limit + 1)
        if len(data) > limit:
            raise Unreadable(f"standard input: more than {_size(limit)}")
        return data
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise Unreadable(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise Unreadable(f"cannot read {path}: {_kind(info.st_mode)}, not a regular file")
        if info.st_size > limit:
            raise Unreadable(f"cannot read {path}: {info.st_size} bytes, over the {_size(limit)} a command reads")
        os.set_blocking(fd, True)
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise Unreadable(f"cannot read {path}: over the {_size(limit)} a command reads")
        return b"".join(chunks)
    except OSError as exc:
        raise Unreadable(f"cannot read {path}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def parse_json(data: bytes, source: str) -> Any:
    """``data`` as JSON (UTF-8, a BOM allowed), or :class:`Unreadable` saying why not."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise Unreadable(f"{source}: not UTF-8 (byte {exc.start})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise Unreadable(f"{source}: not JSON: {exc}") from None
    except RecursionError:
        raise Unreadable(f"{source}: not JSON this command reads: it nests too deep") from None


def read_json(path: str | Path, limit: int = MAX_INPUT_BYTES) -> Any:
    """The JSON in the file ``path`` (:func:`read_input`, :func:`parse_json`)."""
    return parse_json(read_input(path, limit), "standard input" if str(path) == "-" else str(path))


def _kind(mode: int) -> str:
    for test, name in (
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return name
    return "a special file"


def _size(limit: int) -> str:
    return LIMIT_TEXT if limit == MAX_INPUT_BYTES else f"{limit} bytes"
