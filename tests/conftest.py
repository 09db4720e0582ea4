from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.natsserver import nats_server


@pytest.fixture(scope="session")
def nats_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One real nats-server for the session; tests isolate themselves by match ids."""
    with nats_server(tmp_path_factory.mktemp("nats")) as url:
        yield url


@pytest.fixture(scope="session")
def pg_url() -> str | None:
    return os.environ.get("GAMEHALL_TEST_PG_URL") or None


@pytest.fixture
def artifacts_dir() -> Path:
    path = Path(os.environ.get("GAMEHALL_TEST_ARTIFACTS", "test-artifacts"))
    path.mkdir(parents=True, exist_ok=True)
    return path
