"""The local stack: which processes run, where they listen (``.gamehall/stack.json``)."""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path

import httpx


@dataclass(frozen=True)
class StackInfo:
    pid: int
    nats_url: str
    gateway_url: str
    embedded_nats: bool
    metrics: dict[str, str]


def stack_file(data_dir: Path) -> Path:
    return data_dir / "stack.json"


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
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


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
