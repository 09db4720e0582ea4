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


# Tests that start servers and processes (a real nats-server, `gamehall up`, Chromium) on a shared
# 2-core machine sometimes lose a race with the machine, not with the code: such a test is run
# again, at most twice, and pytest reports every re-run (`R`, "N rerun" in the summary).  Pure
# tests (unit, property, golden) are never re-run.
PROCESS_MARKERS = ("integration", "e2e", "browser")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if any(item.get_closest_marker(name) for name in PROCESS_MARKERS):
            item.add_marker(pytest.mark.flaky(reruns=2, reruns_delay=1))
