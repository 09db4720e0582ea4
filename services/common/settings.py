"""Settings from the environment, with embedded defaults for a laptop."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Settings:
    data_dir: Path
    nats_url: str | None  # None: start (or join) the embedded nats-server
    db_url: str | None  # None: SQLite under data_dir
    http_host: str
    http_port: int
    partitions: int
    log_format: str  # "json" | "console" | "auto"

    @property
    def sqlite_url(self) -> str:
        return f"sqlite:///{self.data_dir / 'gamehall.sqlite3'}"

    @property
    def database_url(self) -> str:
        return self.db_url or self.sqlite_url


def load() -> Settings:
    from contracts.subjects import DEFAULT_PARTITIONS

    data_dir = Path(os.environ.get("GAMEHALL_DATA_DIR", ".gamehall")).resolve()
    return Settings(
        data_dir=data_dir,
        nats_url=os.environ.get("NATS_URL") or None,
        db_url=os.environ.get("GAMEHALL_DB_URL") or None,
        http_host=os.environ.get("GAMEHALL_HTTP_HOST", "127.0.0.1"),
        http_port=int(os.environ.get("GAMEHALL_HTTP_PORT", "8000")),
        partitions=int(os.environ.get("GAMEHALL_PARTITIONS", str(DEFAULT_PARTITIONS))),
        log_format=os.environ.get("GAMEHALL_LOG_FORMAT", "auto"),
    )
